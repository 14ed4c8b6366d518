//! Forgetting (seed 003, GDPR art. 17; DESIGN principle 3): an item, a session, a time range
//! or a whole context is removed together with everything derived from it (episodes,
//! embeddings, full-text rows, participants), the freed bytes are zeroed (`secure_delete`,
//! FTS5 `secure-delete`) and the WAL is checkpointed and truncated, so the words are gone from
//! the files. A **tombstone**, a keyed hash (HMAC-SHA-256 with a per-context secret) of each
//! forgotten message's normalised text, keeps a re-import from bringing it back; it holds no
//! plaintext, and the forget log records counts, never the words.

use chrono::{DateTime, Duration, Utc};
use hmac::{Hmac, Mac};
use rusqlite::{OptionalExtension, Transaction, params};
use serde::Serialize;
use sha2::Sha256;

use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::import::transcript::hex;
use crate::model::{EpisodeId, SessionId};
use crate::store::{clamp_bound, fmt_utc, parse_utc};

mod clauses;

/// What to forget.
#[derive(Debug, Clone, PartialEq)]
pub enum ForgetScope {
    /// One episode. Its words are also cut from the source message; a message left with no
    /// episode is removed whole.
    Episode(EpisodeId),
    /// One conversation with all its messages.
    Session(SessionId),
    /// Every message written in `[from, to)` (UTC), with what derives from it.
    TimeRange {
        /// Inclusive start.
        from: DateTime<Utc>,
        /// Exclusive end.
        to: DateTime<Utc>,
    },
    /// Every message written in the last `Duration` before now ("forget the last hour").
    Last(Duration),
    /// Everything in this context.
    Context,
    /// Every episode about a topic: the episodes recall finds for `query` above the model's
    /// calibrated threshold (see [`Engine::topic_episodes`]; up to [`TOPIC_MAX`]), each forgotten as [`ForgetScope::Episode`]
    /// is. Show [`Engine::preview_forget`]'s list to the user and forget only after they
    /// confirm it (issue 6).
    Topic {
        /// What the memories are about, in the user's words ("my ex", "the surprise party").
        query: String,
    },
}

impl ForgetScope {
    fn name(&self) -> &'static str {
        match self {
            ForgetScope::Episode(_) => "episode",
            ForgetScope::Session(_) => "session",
            ForgetScope::TimeRange { .. } | ForgetScope::Last(_) => "time_range",
            ForgetScope::Context => "context",
            ForgetScope::Topic { .. } => "topic",
        }
    }
}

/// What a forget did: counts per kind of record removed, the time range of what went, when it
/// ran, and what it could not reach.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ForgetReceipt {
    /// `episode`, `session`, `time_range`, `context` or `topic`.
    pub scope: String,
    /// Messages removed whole.
    pub messages: usize,
    /// Messages whose forgotten words were cut out (other episodes still rest on them).
    pub messages_redacted: usize,
    /// Episodes removed.
    pub episodes: usize,
    /// Episodes of a topic forget that were also about something else: their clauses about
    /// the topic were cut out (from the episode and its source message) and the rest stays,
    /// with a new vector ("forget coriander" keeps "I love sailing" of "I love sailing, and
    /// I hate coriander"). Not counted in `episodes`.
    pub episodes_trimmed: usize,
    /// Sentences of the assistant's later replies in the same conversation that repeated
    /// forgotten words (its echo, "Noted, you hate coriander"), cut out of their message or
    /// removed with it.
    pub echoes: usize,
    /// Embedding vectors removed.
    pub embeddings: usize,
    /// Participant rows removed.
    pub participants: usize,
    /// Sessions removed because no message was left in them.
    pub sessions: usize,
    /// Facts removed because no episode was left to support them.
    pub facts: usize,
    /// Tombstones written, so a re-import does not bring the content back.
    pub tombstones: usize,
    /// Export files Minne wrote that were removed: Markdown exports, and JSON exports that
    /// held nothing but what was forgotten.
    pub exports: usize,
    /// JSON export files Minne wrote that were rewritten without the forgotten messages
    /// (their other messages stay).
    pub exports_rewritten: usize,
    /// The earliest forgotten message's time (UTC), if any message went.
    pub from: Option<DateTime<Utc>>,
    /// The latest forgotten message's time (UTC).
    pub to: Option<DateTime<Utc>>,
    /// When the forget ran (UTC).
    pub at: DateTime<Utc>,
    /// What it could not reach, and why (for example files outside Minne's data dir).
    pub not_reached: Vec<String>,
}

/// Counts of what a scope covers, to show before asking the user to confirm.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ForgetPreview {
    /// Messages in scope.
    pub messages: usize,
    /// Episodes in scope.
    pub episodes: usize,
    /// Time of the earliest message in scope (UTC).
    pub from: Option<DateTime<Utc>>,
    /// Time of the latest message in scope (UTC).
    pub to: Option<DateTime<Utc>>,
    /// For a topic, the episodes that would go, best match first: the list the user confirms.
    /// Empty for the other scopes.
    pub items: Vec<crate::episodes::EpisodeView>,
    /// For a topic, the episodes that are only close in meaning to it, by a model whose
    /// closeness alone is no evidence (see `topic_match_is_sure`), best match first. A
    /// topic forget keeps them; each goes only if the user picks it
    /// ([`Engine::forget_topic_with`]). Not counted in `messages` or `episodes`.
    pub unsure: Vec<crate::episodes::EpisodeView>,
    /// For a topic, how many of the assistant's messages have a sentence that mentions it (by
    /// a content word's stem): a topic forget cuts those sentences, also when no memory of the
    /// user's is about the topic ("Your PIN 4711 is noted" said only by the assistant). 0 for
    /// the other scopes.
    pub replies: usize,
}

/// The recall threshold a topic forget lists from: the model's calibrated recall threshold
/// ([`crate::recall::default_threshold_for`]), but never under 0.34 (Recall v6's e5 value).
/// Recall lowered e5's to 0.30 when its abstention rules took over part of the threshold's
/// work (Recall v7); a topic forget runs without those rules, so the lower value would list
/// memories about other things for deletion.
pub fn topic_threshold(model_id: &str) -> f64 {
    crate::recall::default_threshold_for(model_id).max(TOPIC_THRESHOLD_FLOOR)
}

/// The least threshold of [`topic_threshold`].
const TOPIC_THRESHOLD_FLOOR: f64 = 0.34;

/// The cosine an episode with no word in common with a topic needs to count as about it, per
/// embedding model: MiniLM 0.5 (unrelated episodes scored at most 0.28 on the fixture of
/// tests/topic_forget.rs), multilingual-e5-small 0.80 (its cosines sit between about 0.74 and
/// 0.96 for anything; a Swedish topic matched its English memory at 0.83 and unrelated ones
/// at 0.74). Other models: MiniLM's.
pub fn topic_dense_floor(model_id: &str) -> f64 {
    match model_id.parse::<crate::embed::ModelChoice>() {
        Ok(crate::embed::ModelChoice::E5Small) => 0.80,
        _ => 0.5,
    }
}

/// Whether a topic match is evidence enough to forget it with the rest of the topic: the
/// episode's own words hold a content word of the topic (after Porter stemming, as the
/// full-text index stems; a word only in the turn before does not count), or its embedding
/// model's closeness counts on its own. MiniLM's does (unrelated memories scored at most 0.28
/// against the 0.5 floor of [`topic_dense_floor`]); multilingual-e5-small's does not: its
/// cosines are flat, and a fresh-user test found "zzzqqq" closest to a memory about zebra
/// finches (0.842) and "my car" closer to a Swedish memory about a debt (0.822) than to the
/// one about the user's Volvo (0.821). Such a match is listed for the user to pick one by one,
/// never forgotten with the topic, and never by a "forget what I said about …" said in
/// conversation.
fn topic_match_is_sure(model_id: &str, own_word: bool, similarity: f64) -> bool {
    own_word
        || match model_id.parse::<crate::embed::ModelChoice>() {
            Ok(crate::embed::ModelChoice::E5Small) => false,
            _ => similarity >= topic_dense_floor(model_id),
        }
}

/// How many episodes a topic forget takes at most: a query that matches more than this is
/// too broad to confirm item by item; forget a session or a time range instead.
pub const TOPIC_MAX: usize = 500;

/// The placeholder that replaces forgotten words inside a message that other episodes still
/// rest on.
pub const REDACTED: &str = "[forgotten]";

impl Engine {
    /// Counts what `scope` covers, without changing anything.
    pub fn preview_forget(&self, scope: &ForgetScope) -> Result<ForgetPreview> {
        let conn = self.store.conn();
        if let ForgetScope::Episode(id) = scope {
            let found: Option<String> = conn
                .query_row(
                    "SELECT occurred_at FROM episodes WHERE id = ?1",
                    [id.0],
                    |r| r.get(0),
                )
                .optional()?;
            let at = found.ok_or(Error::NotFound {
                kind: "episode",
                id: id.0,
            })?;
            let at = Some(parse_utc(&at)?);
            return Ok(ForgetPreview {
                messages: 0,
                episodes: 1,
                from: at,
                to: at,
                items: Vec::new(),
                unsure: Vec::new(),
                replies: 0,
            });
        }
        if let ForgetScope::Topic { query } = scope {
            let (sure, unsure) = self.topic_split(query, &[])?;
            let items: Vec<_> = sure.into_iter().map(|h| h.episode).collect();
            let unsure = unsure.into_iter().map(|h| h.episode).collect();
            let messages: std::collections::HashSet<_> =
                items.iter().map(|e| e.message_id).collect();
            return Ok(ForgetPreview {
                messages: messages.len(),
                episodes: items.len(),
                from: items.iter().map(|e| e.occurred_at).min(),
                to: items.iter().map(|e| e.occurred_at).max(),
                items,
                unsure,
                replies: self.replies_mentioning(query)?.len(),
            });
        }
        let (filter, args) = self.message_filter(scope);
        let (messages, from, to): (i64, Option<String>, Option<String>) = conn.query_row(
            &format!("SELECT count(*), min(sent_at), max(sent_at) FROM messages WHERE {filter}"),
            rusqlite::params_from_iter(&args),
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?;
        let episodes: i64 = conn.query_row(
            &format!("SELECT count(*) FROM episodes WHERE message_id IN (SELECT id FROM messages WHERE {filter})"),
            rusqlite::params_from_iter(&args),
            |r| r.get(0),
        )?;
        Ok(ForgetPreview {
            messages: messages as usize,
            episodes: episodes as usize,
            from: from.as_deref().map(parse_utc).transpose()?,
            to: to.as_deref().map(parse_utc).transpose()?,
            items: Vec::new(),
            unsure: Vec::new(),
            replies: 0,
        })
    }

    /// The ids of the assistant's messages that have a sentence mentioning `topic`
    /// ([`clauses::mentions`]), oldest first. Errors: database errors.
    fn replies_mentioning(&self, topic: &str) -> Result<Vec<i64>> {
        let mut stmt = self.store.conn().prepare(
            "SELECT id, text FROM messages WHERE role = 'assistant' AND actor = 'assistant' ORDER BY id",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))?;
        let mut out = Vec::new();
        for row in rows {
            let (id, text) = row?;
            if !clauses::mentions(&text, topic).is_empty() {
                out.push(id);
            }
        }
        Ok(out)
    }

    /// The episodes about `query`, best match first: the episodes recall itself finds for
    /// `query` (its own ranking and [`topic_threshold`], so `recall --explain` says why), never
    /// abstaining and with retrievability and salience counted in full rather than gated by
    /// relevance (a forget lists rather than withholds), except those whose relevance came only from a
    /// neighbouring turn (that turn is about the topic, not this one), and only those sharing
    /// a content word with the query or at least [`topic_dense_floor`] close in meaning; at
    /// most [`TOPIC_MAX`]. Episodes of the messages in `exclude` are left out (a forget
    /// command does not match itself). Recall's score counts retrievability and salience with
    /// small weights (0.05 each), so a faded memory must be a little more clearly about the
    /// topic; a topic forget of e5's near-constant cosines with a relevance-only floor
    /// selected unrelated memories.
    /// Errors: [`Error::InvalidInput`] for an empty query; as [`Engine::recall`].
    pub fn topic_episodes(
        &self,
        query: &str,
        exclude: &[crate::model::MessageId],
    ) -> Result<Vec<crate::recall::RecallHit>> {
        // A topic forget lists rather than withholds (the user confirms item by item, and a
        // memory left off the list survives the forget): no abstention, and retrievability and
        // salience count in full, not gated by relevance as in recall's ranking.
        let q = crate::recall::RecallQuery {
            k: TOPIC_MAX + exclude.len() * 8,
            threshold: Some(topic_threshold(self.embedder.model_id())),
            weights: crate::recall::Weights {
                gated: false,
                ..crate::recall::Weights::default()
            },
            apply_abstention: false,
            ..crate::recall::RecallQuery::new(query)
        };
        let dense_floor = topic_dense_floor(self.embedder.model_id());
        let mut hits = self.recall(&q)?;
        // About the topic: shares a content word with it, or is close in meaning by the
        // model's own scale (a cosine alone is no evidence under e5, whose cosines are all
        // high).
        hits.retain(|h| {
            !exclude.contains(&h.episode.message_id)
                && !h.parts.from_neighbour
                && (h.parts.lexical > 0.0 || h.parts.similarity >= dense_floor)
        });
        hits.truncate(TOPIC_MAX);
        Ok(hits)
    }

    /// [`Engine::topic_episodes`] split into the sure matches, which a topic forget takes,
    /// and the ones only close in meaning, which the user picks one by one (see
    /// [`topic_match_is_sure`]); each best match first.
    pub(crate) fn topic_split(
        &self,
        query: &str,
        exclude: &[crate::model::MessageId],
    ) -> Result<(Vec<crate::recall::RecallHit>, Vec<crate::recall::RecallHit>)> {
        let hits = self.topic_episodes(query, exclude)?;
        let own = self.episodes_with_a_word_of(query)?;
        let model = self.embedder.model_id().to_string();
        Ok(hits.into_iter().partition(|h| {
            topic_match_is_sure(&model, own.contains(&h.episode.id.0), h.parts.similarity)
        }))
    }

    /// The ids of the episodes whose own words hold a content word of `query` (stop-words
    /// dropped, stemmed by the full-text index's Porter tokenizer).
    fn episodes_with_a_word_of(&self, query: &str) -> Result<std::collections::HashSet<i64>> {
        let terms = crate::recall::lexical::content_words(query, &[]);
        let Some(any) = crate::recall::lexical::fts_query(&terms) else {
            return Ok(Default::default());
        };
        let conn = self.store.conn();
        let mut stmt =
            conn.prepare("SELECT rowid FROM episodes_fts WHERE episodes_fts MATCH ?1")?;
        let ids = stmt
            .query_map([format!("text : ({any})")], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        Ok(ids)
    }

    /// The ids of the episodes whose own words hold every content word of `statement` (as
    /// [`Self::episodes_with_a_word_of`], all of them rather than one); none when it has no
    /// content word.
    pub(crate) fn episodes_with_every_word_of(
        &self,
        statement: &str,
    ) -> Result<std::collections::HashSet<i64>> {
        let terms = crate::recall::lexical::content_words(statement, &[]);
        if terms.is_empty() {
            return Ok(Default::default());
        }
        let every = terms
            .iter()
            .map(|t| format!("\"{}\"", t.replace('"', "\"\"")))
            .collect::<Vec<_>>()
            .join(" AND ");
        let conn = self.store.conn();
        let mut stmt =
            conn.prepare("SELECT rowid FROM episodes_fts WHERE episodes_fts MATCH ?1")?;
        let ids = stmt
            .query_map([format!("text : ({every})")], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        Ok(ids)
    }

    /// Forgets `scope` and everything derived from it, then zeroes and truncates the WAL. A
    /// topic takes only the sure matches (its own words share a word with the topic, or the model's closeness counts alone) (the `items` of
    /// [`Engine::preview_forget`]); [`Engine::forget_topic_with`] adds the ones the user picked.
    /// Errors: [`Error::NotFound`] for an episode or session that does not exist.
    pub fn forget(&mut self, scope: &ForgetScope) -> Result<ForgetReceipt> {
        match scope {
            ForgetScope::Topic { query } => self.forget_topic_with(query, &[]),
            _ => self.forget_resolved(scope, &[]),
        }
    }

    /// Forgets the topic `query` as [`Engine::forget`] does, together with the episodes in
    /// `picked` (the user's picks from the preview's `unsure` list; any episode id is taken
    /// as given): one transaction, one receipt. Errors: [`Error::NotFound`] for a picked
    /// episode that does not exist (nothing is forgotten then); as [`Engine::recall`].
    pub fn forget_topic_with(
        &mut self,
        query: &str,
        picked: &[EpisodeId],
    ) -> Result<ForgetReceipt> {
        let mut ids: Vec<EpisodeId> = self
            .topic_split(query, &[])?
            .0
            .into_iter()
            .map(|h| h.episode.id)
            .collect();
        for id in picked {
            if !ids.contains(id) {
                ids.push(*id);
            }
        }
        let mut receipt = self.forget_resolved(
            &ForgetScope::Topic {
                query: query.to_string(),
            },
            &ids,
        )?;
        // What a trimmed memory's other clauses support (a preference, a fact) was dropped
        // with its old words; consolidation builds it again from what is left.
        if receipt.episodes_trimmed > 0
            && let Err(e) = self.consolidate()
        {
            receipt.not_reached.push(format!(
                "rebuilding facts from the memories kept in part ({e}); `minne consolidate` retries"
            ));
        }
        Ok(receipt)
    }

    /// Forgets the episodes in `topic` (a resolved [`ForgetScope::Topic`]) and, for the other
    /// scopes, what `scope` covers; one transaction, one receipt.
    pub(crate) fn forget_resolved(
        &mut self,
        scope: &ForgetScope,
        topic: &[EpisodeId],
    ) -> Result<ForgetReceipt> {
        let at = self.clock.now();
        let secret = self.tombstone_secret()?;
        let (filter, args) = self.message_filter(scope);
        let tx = self
            .store
            .conn_mut()
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let mut receipt = ForgetReceipt {
            scope: scope.name().to_string(),
            at,
            ..Default::default()
        };
        let support = crate::consolidate::fact_support(&tx)?;
        match scope {
            ForgetScope::Episode(id) => forget_episode(&tx, *id, &secret, &mut receipt)?,
            ForgetScope::Session(id) => {
                let exists: Option<i64> = tx
                    .query_row("SELECT id FROM sessions WHERE id = ?1", [id.0], |r| {
                        r.get(0)
                    })
                    .optional()?;
                if exists.is_none() {
                    return Err(Error::NotFound {
                        kind: "session",
                        id: id.0,
                    });
                }
                forget_messages(&tx, &filter, &args, &secret, &mut receipt)?;
            }
            ForgetScope::Topic { query } => {
                let (mut from, mut to) = (None, None);
                for id in topic {
                    let text: Option<String> = tx
                        .query_row("SELECT text FROM episodes WHERE id = ?1", [id.0], |r| {
                            r.get(0)
                        })
                        .optional()?;
                    // Already gone with an earlier one (a restatement, an echo).
                    let Some(text) = text else { continue };
                    match clauses::without_topic(&text, query) {
                        Some((kept, gone)) => {
                            let gone: Vec<&str> = gone.iter().map(|r| &text[r.clone()]).collect();
                            trim_episode(&tx, *id, &kept, &gone.join(" "), &secret, &mut receipt)?
                        }
                        None => forget_episode(&tx, *id, &secret, &mut receipt)?,
                    }
                    from = from.min(receipt.from).or(from).or(receipt.from);
                    to = to.max(receipt.to);
                }
                (receipt.from, receipt.to) = (from, to);
                // What the assistant said about the topic anywhere in this context goes with
                // it: it came from the user's words about it, or the assistant alone said it
                // (a tester's "Your PIN 4711 is noted" stayed behind a topic forget of the PIN,
                // since no memory of the user's held it).
                let replies: Vec<i64> = tx
                    .prepare(
                        "SELECT id FROM messages WHERE role = 'assistant' AND actor = 'assistant'",
                    )?
                    .query_map([], |r| r.get(0))?
                    .collect::<rusqlite::Result<_>>()?;
                for reply in replies {
                    cut_sentences(
                        &tx,
                        reply,
                        |text| clauses::mentions(text, query),
                        &secret,
                        &mut receipt,
                    )?;
                }
            }
            _ => forget_messages(&tx, &filter, &args, &secret, &mut receipt)?,
        }
        receipt.sessions +=
            tx.execute("DELETE FROM sessions WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.session_id = sessions.id)", [])?;
        // A speaker's tone baseline names them: it goes when none of their messages is left.
        tx.execute("DELETE FROM speaker_baselines WHERE actor NOT IN (SELECT DISTINCT actor FROM messages)", [])?;
        // Facts resting only on what went go too; a fact with other support stays with it,
        // unless what is left says only part of its value (then it is built again from that).
        let reread = crate::consolidate::drop_values_no_source_says(&tx, &support)?;
        receipt.facts += crate::consolidate::drop_unsupported_facts(&tx)?;
        // Summaries that quoted what went were deleted with it (trigger); rebuild them from
        // what is left, so a session keeps a summary without the forgotten words.
        crate::consolidate::rebuild_summaries(&tx, &fmt_utc(at))?;
        let log = serde_json::to_string(&receipt)
            .map_err(|e| Error::InvalidInput(format!("receipt: {e}")))?;
        tx.execute(
            "INSERT INTO forget_log (at, scope, receipt) VALUES (?1, ?2, ?3)",
            params![fmt_utc(at), receipt.scope, log],
        )?;
        tx.commit()?;
        // An episode moved onto a restatement that stays (capture::restate::rehome) needs a
        // vector of its new words.
        if let Err(e) = self.embed_pending(&mut |_| {}) {
            receipt
                .not_reached
                .push(format!("re-embedding episodes kept by a restatement: {e}"));
        }
        if reread > 0
            && let Err(e) = self.consolidate()
        {
            receipt.not_reached.push(format!(
                "rebuilding facts from the memories left ({e}); `minne consolidate` retries"
            ));
        }
        // The forget is committed: from here on a failure must not read as "nothing
        // happened". What cannot be finished now goes on the receipt, and a marker beside the
        // database makes the next open finish the scrub ([`Engine::finish_pending_scrub`]).
        if let Err(warning) = self.scrub_wal() {
            receipt.not_reached.push(warning);
        }
        if receipt.messages
            + receipt.episodes
            + receipt.messages_redacted
            + receipt.episodes_trimmed
            > 0
        {
            match self.scrub_tracked_exports() {
                Ok((removed, rewritten, warnings)) => {
                    receipt.exports = removed;
                    receipt.exports_rewritten = rewritten;
                    receipt.not_reached.extend(warnings);
                }
                Err(e) => receipt.not_reached.push(format!(
                    "export files Minne wrote may still hold the forgotten words ({e}); \
                     `minne export` lists nothing of them, remove them by hand"
                )),
            }
        }
        Ok(receipt)
    }

    /// Moves the write-ahead log into the database and truncates it, so the words a forget
    /// removed leave the log. On failure (a full disk, a reader that holds the log open for
    /// longer than the busy timeout of 10 s) it leaves a marker, `<database>-scrub-pending`,
    /// so the next open finishes it, and returns the warning to put on the receipt.
    fn scrub_wal(&self) -> std::result::Result<(), String> {
        let marker = scrub_marker(self.store.path());
        let outcome = self
            .store
            .conn()
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
                r.get::<_, i64>(0)
            });
        let why = match outcome {
            Ok(0) => {
                if marker.exists() {
                    let _ = std::fs::remove_file(&marker);
                }
                return Ok(());
            }
            Ok(_) => "another program (the app, an MCP server) is reading this context".to_string(),
            Err(e) if is_disk_full(&e) => "the disk is full".to_string(),
            Err(e) => e.to_string(),
        };
        let marked = std::fs::write(&marker, b"").is_ok();
        Err(format!(
            "the forgotten words may remain in the write-ahead log ({}-wal) because {why}; \
             they leave it {}",
            self.store.path().display(),
            if marked {
                "when space is freed (or the other program closes) and the next minne command runs"
            } else {
                "when space is freed and the next forget runs"
            }
        ))
    }

    /// Finishes the scrub of the write-ahead log that a forget could not finish (see
    /// [`Engine::scrub_wal`]): called when a context is opened; a failure leaves the marker
    /// for the next open and is only logged, since opening must not fail for it.
    pub(crate) fn finish_pending_scrub(&self) {
        if !scrub_marker(self.store.path()).exists() {
            return;
        }
        if let Err(warning) = self.scrub_wal() {
            tracing::warn!("{warning}");
        }
    }

    /// The id of the session with this key. Errors: [`Error::InvalidInput`] when none has it.
    pub fn session_id(&self, key: &str) -> Result<SessionId> {
        self.store
            .conn()
            .query_row(
                "SELECT id FROM sessions WHERE external_id = ?1",
                [key],
                |r| r.get(0),
            )
            .optional()?
            .map(SessionId)
            .map_or_else(
                || {
                    // Keys that contain what was typed (`s-range` for `transcript:s-range`).
                    let close: Vec<String> = self
                        .store
                        .conn()
                        .prepare(
                            "SELECT external_id FROM sessions
                             WHERE instr(lower(external_id), lower(?1)) > 0
                             ORDER BY length(external_id), external_id LIMIT 5",
                        )?
                        .query_map([key], |r| r.get(0))?
                        .collect::<std::result::Result<_, _>>()?;
                    let hint = match close.as_slice() {
                        [] => String::new(),
                        keys => format!(
                            "; did you mean {}?",
                            keys.iter()
                                .map(|k| format!("`{k}`"))
                                .collect::<Vec<_>>()
                                .join(" or ")
                        ),
                    };
                    Err(Error::InvalidInput(format!(
                        "no session `{key}` in this context{hint} \
                         (`minne recall --json` shows session keys)"
                    )))
                },
                Ok,
            )
    }

    /// The sessions a user's word for a conversation may mean: the one with exactly this key,
    /// and those whose key ends in `:name` (an import's own id, `1` of `transcript:1`, which
    /// `minne list` shows), with their keys, by key. Empty when none.
    pub fn sessions_named(&self, name: &str) -> Result<Vec<(SessionId, String)>> {
        let mut stmt = self.store.conn().prepare(
            "SELECT id, external_id FROM sessions
             WHERE external_id = ?1 OR substr(external_id, -length(?1) - 1) = ':' || ?1
             ORDER BY external_id",
        )?;
        let rows = stmt.query_map([name], |r| Ok((SessionId(r.get(0)?), r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The key of session number `id`, if it exists.
    pub fn session_key(&self, id: SessionId) -> Result<Option<String>> {
        Ok(self
            .store
            .conn()
            .query_row(
                "SELECT external_id FROM sessions WHERE id = ?1",
                [id.0],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Forgets one episode; a shorthand for [`Engine::forget`] with [`ForgetScope::Episode`].
    pub fn forget_episode(&mut self, id: EpisodeId) -> Result<ForgetReceipt> {
        self.forget(&ForgetScope::Episode(id))
    }

    /// Whether a message with this text was forgotten here before (its tombstone exists).
    pub(crate) fn is_tombstoned(
        &self,
        secret: &[u8],
        text: &str,
        sent_at: DateTime<Utc>,
    ) -> Result<bool> {
        let hash = tombstone_hash(secret, text, sent_at);
        Ok(self
            .store
            .conn()
            .query_row("SELECT 1 FROM tombstones WHERE hash = ?1", [hash], |_| {
                Ok(())
            })
            .optional()?
            .is_some())
    }

    /// The context's tombstone key: 32 random bytes, made on first use.
    pub(crate) fn tombstone_secret(&self) -> Result<Vec<u8>> {
        // Kept with the database key in the key store (crate::keys); in the file only in
        // passphrase mode or with encryption off.
        if let Some(secret) = self.store.tombstone_secret() {
            return Ok(secret.to_vec());
        }
        let conn = self.store.conn();
        let stored: Option<String> = conn
            .query_row(
                "SELECT value FROM context_settings WHERE key = 'tombstone_secret'",
                [],
                |r| r.get(0),
            )
            .optional()?;
        if let Some(hex_secret) = stored {
            return Ok(unhex(&hex_secret));
        }
        let mut secret = [0u8; 32];
        getrandom::fill(&mut secret).map_err(|e| {
            Error::InvalidInput(format!("no randomness for the tombstone key: {e}"))
        })?;
        conn.execute(
            "INSERT OR IGNORE INTO context_settings (key, value) VALUES ('tombstone_secret', ?1)",
            [hex(&secret)],
        )?;
        // Another process may have won the race; use whatever is stored now.
        let value: String = conn.query_row(
            "SELECT value FROM context_settings WHERE key = 'tombstone_secret'",
            [],
            |r| r.get(0),
        )?;
        Ok(unhex(&value))
    }

    /// The SQL condition on `messages` for a message-based scope, with its arguments.
    fn message_filter(&self, scope: &ForgetScope) -> (String, Vec<String>) {
        match scope {
            ForgetScope::Episode(id) => (
                "id = (SELECT message_id FROM episodes WHERE id = ?1)".into(),
                vec![id.0.to_string()],
            ),
            ForgetScope::Session(id) => ("session_id = ?1".into(), vec![id.0.to_string()]),
            ForgetScope::TimeRange { from, to } => (
                "sent_at >= ?1 AND sent_at < ?2".into(),
                vec![fmt_utc(clamp_bound(*from)), fmt_utc(clamp_bound(*to))],
            ),
            ForgetScope::Last(d) => {
                let now = self.clock.now();
                // Up to and including now: a message written this very second is in the last hour.
                let from = now
                    .checked_sub_signed(*d)
                    .unwrap_or(DateTime::<Utc>::MIN_UTC);
                (
                    "sent_at >= ?1 AND sent_at <= ?2".into(),
                    vec![fmt_utc(clamp_bound(from)), fmt_utc(clamp_bound(now))],
                )
            }
            ForgetScope::Context => ("1 = 1".into(), vec![]),
            // A topic is resolved to episodes first; no message matches it as a whole.
            ForgetScope::Topic { .. } => ("0 = 1".into(), vec![]),
        }
    }
}

/// The marker of a write-ahead log a forget could not scrub: `<database>-scrub-pending`.
fn scrub_marker(db: &std::path::Path) -> std::path::PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push("-scrub-pending");
    std::path::PathBuf::from(name)
}

/// Whether SQLite failed for want of disk space (`SQLITE_FULL`).
fn is_disk_full(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::DiskFull)
}

fn forget_messages(
    tx: &Transaction<'_>,
    filter: &str,
    args: &[String],
    secret: &[u8],
    receipt: &mut ForgetReceipt,
) -> Result<()> {
    let in_scope = format!("SELECT id FROM messages WHERE {filter}");
    // An episode also said in a message that stays moves onto it (capture::restate).
    crate::capture::restate::rehome(tx, &in_scope, args)?;
    let p = || rusqlite::params_from_iter(args);
    let count = |sql: String| -> rusqlite::Result<usize> {
        tx.query_row(&sql, p(), |r| r.get::<_, i64>(0))
            .map(|n| n as usize)
    };
    receipt.episodes += count(format!(
        "SELECT count(*) FROM episodes WHERE message_id IN ({in_scope})"
    ))?;
    receipt.embeddings += count(format!(
        "SELECT count(*) FROM embeddings WHERE episode_id IN (SELECT id FROM episodes WHERE message_id IN ({in_scope}))"
    ))?;
    receipt.participants += count(format!(
        "SELECT count(*) FROM episode_participants WHERE episode_id IN (SELECT id FROM episodes WHERE message_id IN ({in_scope}))"
    ))?;
    let (from, to): (Option<String>, Option<String>) = tx.query_row(
        &format!("SELECT min(sent_at), max(sent_at) FROM messages WHERE {filter}"),
        p(),
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    receipt.from = from.as_deref().map(parse_utc).transpose()?;
    receipt.to = to.as_deref().map(parse_utc).transpose()?;
    {
        let mut stmt = tx.prepare(&format!(
            "SELECT text, sent_at FROM messages WHERE {filter}"
        ))?;
        let rows = stmt
            .query_map(p(), |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        for (text, sent_at) in rows {
            receipt.tombstones +=
                write_tombstone(tx, secret, &text, parse_utc(&sent_at)?, receipt.at)?;
        }
    }
    // Episodes, their embeddings, participants and full-text rows go by ON DELETE CASCADE and
    // the FTS triggers.
    receipt.messages += tx.execute(&format!("DELETE FROM messages WHERE {filter}"), p())?;
    Ok(())
}

fn forget_episode(
    tx: &Transaction<'_>,
    id: EpisodeId,
    secret: &[u8],
    receipt: &mut ForgetReceipt,
) -> Result<()> {
    let found: Option<(i64, i64, i64, String, String, Said)> = tx
        .query_row(
            "SELECT e.message_id, e.span_start, e.span_end, m.text, m.sent_at,
                    m.role, m.session_id, m.sent_at, e.text FROM episodes e
             JOIN messages m ON m.id = e.message_id WHERE e.id = ?1",
            [id.0],
            |r| {
                let said = Said {
                    by_user: r.get::<_, String>(5)? == "user",
                    session_id: r.get(6)?,
                    message_id: r.get(0)?,
                    sent_at: r.get(7)?,
                    words: r.get(8)?,
                };
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, said))
            },
        )
        .optional()?;
    let (message_id, start, end, text, sent_at, said) = found.ok_or(Error::NotFound {
        kind: "episode",
        id: id.0,
    })?;
    let quote = Quote {
        message_id,
        start: start as usize,
        end: end as usize,
        text,
        sent_at: parse_utc(&sent_at)?,
    };
    forget_the_episode(tx, id, &quote, secret, receipt)?;
    if said.by_user {
        forget_echoes(tx, &said, secret, receipt)?;
    }
    Ok(())
}

/// Where a forgotten memory was said, and its words: what [`forget_echoes`] looks for.
struct Said {
    /// Whether the user said it (only the user's words are echoed back).
    by_user: bool,
    session_id: i64,
    /// Its message, and when that was written (RFC 3339 UTC, as stored): a reply is what
    /// follows it in time (positions number each import's messages on their own).
    message_id: i64,
    sent_at: String,
    /// The forgotten words.
    words: String,
}

/// An episode's quote: its source message, the byte range in it, the message's whole text
/// and time (UTC).
struct Quote {
    message_id: i64,
    start: usize,
    end: usize,
    text: String,
    sent_at: DateTime<Utc>,
}

/// Forgets episode `id` and its restatements; its message goes whole when nothing else rests
/// on it, otherwise the quote is cut out of it.
fn forget_the_episode(
    tx: &Transaction<'_>,
    id: EpisodeId,
    quote: &Quote,
    secret: &[u8],
    receipt: &mut ForgetReceipt,
) -> Result<()> {
    let Quote {
        message_id,
        start,
        end,
        ref text,
        sent_at,
    } = *quote;
    (receipt.from, receipt.to) = (Some(sent_at), Some(sent_at));
    forget_restatements(tx, id, secret, receipt)?;
    let others: i64 = tx.query_row(
        "SELECT (SELECT count(*) FROM episodes WHERE message_id = ?1 AND id != ?2)
              + (SELECT count(*) FROM episode_mentions WHERE message_id = ?1 AND episode_id != ?2)",
        [message_id, id.0],
        |r| r.get(0),
    )?;
    if others == 0 {
        // Nothing else rests on the message: it goes whole, with the episode.
        let filter = "id = ?1";
        return forget_messages(tx, filter, &[message_id.to_string()], secret, receipt);
    }
    let count = |sql: &str| -> rusqlite::Result<usize> {
        tx.query_row(sql, [id.0], |r| r.get::<_, i64>(0))
            .map(|n| n as usize)
    };
    receipt.embeddings += count("SELECT count(*) FROM embeddings WHERE episode_id = ?1")?;
    receipt.participants +=
        count("SELECT count(*) FROM episode_participants WHERE episode_id = ?1")?;
    receipt.episodes += tx.execute("DELETE FROM episodes WHERE id = ?1", [id.0])?;
    // Cut the words out of the message the other episodes still rest on, and move their
    // spans by the change in length. The message can no longer be matched by its old content,
    // so a tombstone of the original keeps a re-import from restoring it.
    receipt.tombstones += write_tombstone(tx, secret, text, sent_at, receipt.at)?;
    crate::capture::restate::cut_span(tx, message_id, start, end, REDACTED)?;
    receipt.messages_redacted += 1;
    Ok(())
}

/// Cuts the clauses about a topic (`gone`, their words) out of episode `id`, leaving `kept`
/// ([`clauses::without_topic`]): the episode is rewritten as an edit rewrites it
/// ([`crate::edit::rewrite_episode`]: its source message reads the kept words, a tombstone
/// keeps the original from a re-import, its vector is recomputed after the commit), and the
/// assistant's echoes of the gone words go ([`forget_echoes`]).
fn trim_episode(
    tx: &Transaction<'_>,
    id: EpisodeId,
    kept: &str,
    gone: &str,
    secret: &[u8],
    receipt: &mut ForgetReceipt,
) -> Result<()> {
    let (sent_at, role, session_id, message_id): (String, String, i64, i64) = tx.query_row(
        "SELECT m.sent_at, m.role, m.session_id, m.id FROM episodes e
         JOIN messages m ON m.id = e.message_id WHERE e.id = ?1",
        [id.0],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )?;
    let written = Some(parse_utc(&sent_at)?);
    (receipt.from, receipt.to) = (written, written);
    let count = |sql: &str| -> rusqlite::Result<usize> {
        tx.query_row(sql, [id.0], |r| r.get::<_, i64>(0))
            .map(|n| n as usize)
    };
    let vectors = count("SELECT count(*) FROM embeddings WHERE episode_id = ?1")?;
    let tombstones_now = || -> rusqlite::Result<usize> {
        tx.query_row("SELECT count(*) FROM tombstones", [], |r| {
            r.get::<_, i64>(0)
        })
        .map(|n| n as usize)
    };
    let tombstones = tombstones_now()?;
    if let Some(done) = crate::edit::rewrite_episode(tx, id, kept, secret, receipt.at)? {
        receipt.messages_redacted += done.messages_redacted;
        receipt.tombstones += tombstones_now()? - tombstones;
        receipt.episodes_trimmed += 1;
        receipt.embeddings += vectors;
    }
    if role == "user" {
        let said = Said {
            by_user: true,
            session_id,
            message_id,
            sent_at,
            words: gone.to_string(),
        };
        forget_echoes(tx, &said, secret, receipt)?;
    }
    Ok(())
}

/// The condition on `messages` for the replies after a message (`?1` its session, `?2` its
/// `sent_at`, `?3` its id): the AI assistant's messages in the session written after it (or
/// at the same second and stored after it), in time order. A named other person in an
/// imported two-person chat (a LoCoMo speaker) is no echo: their words are their own
/// memories, and talking about the same thing is what a conversation is.
const LATER_REPLIES: &str = "session_id = ?1 AND role = 'assistant' AND actor = 'assistant'
    AND (sent_at > ?2 OR (sent_at = ?2 AND id > ?3)) ORDER BY sent_at, id";

/// The most echo sentences cut from one reply: a bound on the loop, far above any reply.
const MAX_ECHOES_PER_REPLY: usize = 64;

/// Cuts the sentences of the assistant's later replies in the conversation
/// ([`LATER_REPLIES`]) that repeat the forgotten words ([`clauses::echoes`]): a
/// memory the assistant said back ("Noted, you hate coriander") is the user's words still.
/// An echo inside one of the reply's own episodes (an assistant's commitment that repeats
/// them) forgets that episode; a reply that is all echo, with nothing resting on it, goes
/// whole; otherwise the sentence becomes [`REDACTED`], with a tombstone of the original.
fn forget_echoes(
    tx: &Transaction<'_>,
    said: &Said,
    secret: &[u8],
    receipt: &mut ForgetReceipt,
) -> Result<()> {
    let replies: Vec<i64> = {
        let mut stmt = tx.prepare(&format!("SELECT id FROM messages WHERE {LATER_REPLIES}"))?;
        stmt.query_map(
            params![said.session_id, said.sent_at, said.message_id],
            |r| r.get(0),
        )?
        .collect::<rusqlite::Result<_>>()?
    };
    for reply in replies {
        cut_sentences(
            tx,
            reply,
            |text| clauses::echoes(text, &said.words),
            secret,
            receipt,
        )?;
    }
    let codes = clauses::codes(&said.words);
    for later in later_with_codes(tx, said, &codes)? {
        cut_sentences(
            tx,
            later,
            |text| clauses::repeats_code(text, &codes),
            secret,
            receipt,
        )?;
    }
    Ok(())
}

/// The messages after the one `said` came from, other than its conversation's replies
/// ([`LATER_REPLIES`]), that hold one of `codes` ([`clauses::codes`] of the forgotten words):
/// the assistant's replies in the context's later conversations (an assistant recalled the
/// door code a week later) and the user's own later messages in any of them. Only a code
/// counts there, not the overlap of [`clauses::echoes`]: talk about the same thing is no
/// echo in another conversation, a PIN is. The SQL `instr` only narrows the scan; the
/// sentence test is [`clauses::repeats_code`].
fn later_with_codes(
    tx: &Transaction<'_>,
    said: &Said,
    codes: &std::collections::HashSet<String>,
) -> Result<Vec<i64>> {
    let mut out = Vec::new();
    for code in codes {
        let mut stmt = tx.prepare_cached(
            "SELECT id FROM messages WHERE (sent_at > ?2 OR (sent_at = ?2 AND id > ?3))
             AND (role = 'user' OR (session_id <> ?1 AND role = 'assistant'
                  AND actor = 'assistant'))
             AND instr(lower(text), ?4) > 0 ORDER BY sent_at, id",
        )?;
        let ids = stmt.query_map(
            params![said.session_id, said.sent_at, said.message_id, code],
            |r| r.get::<_, i64>(0),
        )?;
        for id in ids {
            let id = id?;
            if !out.contains(&id) {
                out.push(id);
            }
        }
    }
    Ok(out)
}

/// Cuts from message `reply` (an assistant's reply, or a later message of the user's) the
/// sentences `find` points at, one at a time
/// until it finds none: one inside an episode of the message (an assistant's commitment, a
/// later memory of the user's) trims those sentences out of that episode, or forgets it when
/// nothing else is left in it; a reply with nothing else in it and nothing resting on it goes
/// whole; otherwise the sentence becomes [`REDACTED`], with a tombstone of the original.
/// Each counts in `receipt.echoes`.
fn cut_sentences(
    tx: &Transaction<'_>,
    reply: i64,
    find: impl Fn(&str) -> Vec<std::ops::Range<usize>>,
    secret: &[u8],
    receipt: &mut ForgetReceipt,
) -> Result<()> {
    for _ in 0..MAX_ECHOES_PER_REPLY {
        let found: Option<(String, String)> = tx
            .query_row(
                "SELECT text, sent_at FROM messages WHERE id = ?1",
                [reply],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        let Some((text, sent_at)) = found else { break };
        let Some(echo) = find(&text).into_iter().next() else {
            break;
        };
        receipt.echoes += 1;
        let resting = episode_over(tx, reply, &echo)?;
        if let Some(episode) = resting {
            // An episode with more in it than the echo keeps the rest ("The plumber comes
            // on Monday." of "The plumber comes on Monday. I gave him 739154."); one that
            // is all echo goes.
            let words: String =
                tx.query_row("SELECT text FROM episodes WHERE id = ?1", [episode], |r| {
                    r.get(0)
                })?;
            let cut = find(&words);
            let mut kept = String::new();
            let mut gone = String::new();
            let mut at = 0;
            for range in &cut {
                kept.push_str(&words[at..range.start]);
                gone.push_str(&words[range.clone()]);
                gone.push(' ');
                at = range.end;
            }
            kept.push_str(&words[at..]);
            let kept = kept.split_whitespace().collect::<Vec<_>>().join(" ");
            if cut.is_empty() || clauses::content_stems(&kept).is_empty() {
                forget_episode(tx, EpisodeId(episode), secret, receipt)?;
            } else {
                trim_episode(
                    tx,
                    EpisodeId(episode),
                    &kept,
                    gone.trim_end(),
                    secret,
                    receipt,
                )?;
            }
            continue;
        }
        let others = resting_on(tx, reply)?;
        let rest = format!("{} {}", &text[..echo.start], &text[echo.end..]);
        if others == 0 && clauses::content_stems(&rest).is_empty() {
            forget_messages(tx, "id = ?1", &[reply.to_string()], secret, receipt)?;
            break;
        }
        receipt.tombstones += write_tombstone(tx, secret, &text, parse_utc(&sent_at)?, receipt.at)?;
        crate::capture::restate::cut_span(tx, reply, echo.start, echo.end, REDACTED)?;
        receipt.messages_redacted += 1;
    }
    Ok(())
}

/// How many episodes and restatements rest on message `message_id`.
fn resting_on(tx: &Transaction<'_>, message_id: i64) -> Result<i64> {
    Ok(tx.query_row(
        "SELECT (SELECT count(*) FROM episodes WHERE message_id = ?1)
              + (SELECT count(*) FROM episode_mentions WHERE message_id = ?1)",
        [message_id],
        |r| r.get(0),
    )?)
}

/// The first episode of message `message_id` whose quote overlaps the byte range `span`.
fn episode_over(
    tx: &Transaction<'_>,
    message_id: i64,
    span: &std::ops::Range<usize>,
) -> Result<Option<i64>> {
    Ok(tx
        .query_row(
            "SELECT id FROM episodes WHERE message_id = ?1 AND span_start < ?3
             AND span_end > ?2 ORDER BY span_start LIMIT 1",
            params![message_id, span.start as i64, span.end as i64],
            |r| r.get(0),
        )
        .optional()?)
}

/// The placeholder that replaces a reply's echo of words the user edited away.
pub const EDITED: &str = "[edited]";

/// After the user edited the words `old` of a memory said in `message_id` into `new`, cuts
/// the sentences of the later replies in its conversation that said back what the edit took
/// away ([`clauses::echoes`] of `old`, holding a content word `old` has and `new` lacks: "You
/// live in Oslo" after "I live in Oslo" became "I live in Bergen"). Each such sentence becomes
/// [`EDITED`], with a tombstone of the reply's original words. A sentence inside one of the
/// reply's own episodes (an assistant's commitment) stays: it is a memory the user can edit
/// on its own. Returns the number of sentences cut; nothing when the memory is not the
/// user's.
pub(crate) fn cut_edited_echoes(
    tx: &Transaction<'_>,
    message_id: i64,
    old: &str,
    new: &str,
    secret: &[u8],
    at: DateTime<Utc>,
) -> Result<usize> {
    let (role, session_id, sent_at): (String, i64, String) = tx.query_row(
        "SELECT role, session_id, sent_at FROM messages WHERE id = ?1",
        [message_id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    if role != "user" {
        return Ok(0);
    }
    let kept = clauses::content_stems(new);
    let taken: std::collections::HashSet<String> = clauses::content_stems(old)
        .into_iter()
        .filter(|s| !kept.contains(s))
        .collect();
    if taken.is_empty() {
        return Ok(0);
    }
    let replies: Vec<(i64, String, String)> = {
        let mut stmt = tx.prepare(&format!(
            "SELECT id, text, sent_at FROM messages WHERE {LATER_REPLIES}"
        ))?;
        stmt.query_map(params![session_id, sent_at, message_id], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })?
        .collect::<rusqlite::Result<_>>()?
    };
    let mut cut = 0;
    for (reply, text, sent_at) in replies {
        let mut echoes = Vec::new();
        for echo in clauses::echoes(&text, old) {
            let takes = clauses::content_stems(&text[echo.clone()])
                .iter()
                .any(|s| taken.contains(s));
            let resting = episode_over(tx, reply, &echo)?;
            if takes && resting.is_none() {
                echoes.push(echo);
            }
        }
        cut += cut_edits(tx, reply, &text, &sent_at, &echoes, secret, at)?;
    }
    // A code the edit took away, repeated in a later conversation or a later message of the
    // user's (later_with_codes).
    let kept = clauses::codes(new);
    let taken: std::collections::HashSet<String> = clauses::codes(old)
        .into_iter()
        .filter(|c| !kept.contains(c))
        .collect();
    let said = Said {
        by_user: true,
        session_id,
        message_id,
        sent_at,
        words: old.to_string(),
    };
    // As a forget cuts them (cut_sentences): a later memory of the user's that holds the code
    // keeps only its other sentences, since the edit took the code out of Minne.
    let mut receipt = ForgetReceipt {
        at,
        ..ForgetReceipt::default()
    };
    for later in later_with_codes(tx, &said, &taken)? {
        cut_sentences(
            tx,
            later,
            |text| clauses::repeats_code(text, &taken),
            secret,
            &mut receipt,
        )?;
    }
    Ok(cut + receipt.echoes)
}

/// Replaces the sentences `echoes` (byte ranges, in text order) of message `id`, whose
/// words are `text`, with [`EDITED`], after a tombstone of `text`. Returns how many.
fn cut_edits(
    tx: &Transaction<'_>,
    id: i64,
    text: &str,
    sent_at: &str,
    echoes: &[std::ops::Range<usize>],
    secret: &[u8],
    at: DateTime<Utc>,
) -> Result<usize> {
    if echoes.is_empty() {
        return Ok(0);
    }
    write_tombstone(tx, secret, text, parse_utc(sent_at)?, at)?;
    // From the last to the first, so the earlier ranges still index the text.
    for echo in echoes.iter().rev() {
        crate::capture::restate::cut_span(tx, id, echo.start, echo.end, EDITED)?;
    }
    Ok(echoes.len())
}

/// The restatements of episode `id` (capture::restate) go with it: a message that holds
/// nothing else goes whole; otherwise the restated words are cut out of it and a tombstone of
/// the original keeps a re-import from restoring them.
fn forget_restatements(
    tx: &Transaction<'_>,
    id: EpisodeId,
    secret: &[u8],
    receipt: &mut ForgetReceipt,
) -> Result<()> {
    let mentions: Vec<(i64, i64, i64)> = {
        let mut stmt = tx.prepare(
            "SELECT message_id, span_start, span_end FROM episode_mentions WHERE episode_id = ?1",
        )?;
        stmt.query_map([id.0], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<rusqlite::Result<_>>()?
    };
    for (message_id, start, end) in mentions {
        tx.execute(
            "DELETE FROM episode_mentions WHERE episode_id = ?1 AND message_id = ?2",
            [id.0, message_id],
        )?;
        let others = resting_on(tx, message_id)?;
        if others == 0 {
            forget_messages(tx, "id = ?1", &[message_id.to_string()], secret, receipt)?;
            continue;
        }
        let (text, sent_at): (String, String) = tx.query_row(
            "SELECT text, sent_at FROM messages WHERE id = ?1",
            [message_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        receipt.tombstones += write_tombstone(tx, secret, &text, parse_utc(&sent_at)?, receipt.at)?;
        crate::capture::restate::cut_span(tx, message_id, start as usize, end as usize, REDACTED)?;
        receipt.messages_redacted += 1;
    }
    Ok(())
}

fn write_tombstone(
    tx: &Transaction<'_>,
    secret: &[u8],
    text: &str,
    sent_at: DateTime<Utc>,
    at: DateTime<Utc>,
) -> Result<usize> {
    Ok(tx.execute(
        "INSERT OR IGNORE INTO tombstones (hash, created_at) VALUES (?1, ?2)",
        params![tombstone_hash(secret, text, sent_at), fmt_utc(at)],
    )?)
}

/// HMAC-SHA-256, in hex, of the message text (lowercased, white space collapsed) and the
/// minute it was written (UTC). The time is part of the key so that forgetting "thanks!" once
/// does not block every later "thanks!", and a user who says a forgotten thing again later is
/// heard again; a re-import of the same export carries the same times and stays blocked.
pub(crate) fn tombstone_hash(secret: &[u8], text: &str, sent_at: DateTime<Utc>) -> String {
    let words = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    let normalised = format!("{words}\u{1f}{}", sent_at.format("%Y-%m-%dT%H:%M"));
    // HMAC accepts keys of any length; the error case cannot happen.
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret) else {
        return String::new();
    };
    mac.update(normalised.as_bytes());
    hex(&mac.finalize().into_bytes())
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .filter_map(|i| u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tombstones_are_keyed_and_ignore_case_and_spacing() {
        use chrono::TimeZone;
        let t = Utc.with_ymd_and_hms(2026, 3, 2, 9, 15, 7).unwrap();
        let a = tombstone_hash(b"k1", "The launch is  Friday.\n", t);
        assert_eq!(
            a,
            tombstone_hash(b"k1", "the launch is friday.", t + Duration::seconds(30)),
            "a re-export with other spacing, or seconds rounded, still matches"
        );
        assert_ne!(
            a,
            tombstone_hash(b"k2", "the launch is friday.", t),
            "another context's key gives another hash"
        );
        assert_ne!(
            a,
            tombstone_hash(b"k1", "the launch is friday.", t + Duration::days(3)),
            "saying it again later is new"
        );
        assert_eq!(a.len(), 64, "hex of 32 bytes");
        assert!(!a.contains("launch"), "no plaintext in a tombstone");
    }
}
