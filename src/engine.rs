//! The engine: one open context with its store, embedder and clock.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rusqlite::{OptionalExtension, params};
use sha2::{Digest, Sha256};

use crate::capture::job::CaptureReason;
use crate::clock::Clock;
use crate::context::{ContextName, ensure_data_dir_with};
use crate::embed::Embedder;
use crate::episodes::{self, EpisodeView};
use crate::error::{Error, Result};
use crate::import::transcript::hex;
use crate::import::{self, ImportOptions, ImportProgress, ImportReport, NewSession, ParsedSession};
use crate::keys::KeyConfig;
use crate::llm::ChatModel;
use crate::model::Role;
use crate::store::{Store, fmt_fixed, fmt_utc};

/// One open context: its store, the embedder and the clock handed in by the front end.
#[derive(Debug)]
pub struct Engine {
    pub(crate) store: Store,
    pub(crate) context: ContextName,
    pub(crate) embedder: Arc<dyn Embedder>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) llm: Option<Arc<dyn ChatModel>>,
    /// The data dir and the key dir this context lives in: no file Minne writes for the user
    /// (an export) may land inside either ([`Engine::refuse_own_dirs`]).
    pub(crate) own_dirs: [PathBuf; 2],
}

impl Engine {
    /// Opens `context` under `data_dir`, creating the data dir and the built-in contexts
    /// (`work`, `personal`) on first use. Errors: [`Error::UnknownContext`] for a context
    /// that was never created, [`Error::Io`] / [`Error::Database`] for file trouble.
    /// Each context is encrypted with the default key configuration
    /// ([`KeyConfig::default`]); [`Engine::open_with`] takes the one from the settings.
    pub fn open(
        data_dir: &Path,
        context: &ContextName,
        embedder: Arc<dyn Embedder>,
        clock: Arc<dyn Clock>,
    ) -> Result<Engine> {
        Engine::open_with(data_dir, context, &KeyConfig::default(), embedder, clock)
    }

    /// [`Engine::open`] with the contexts' keys found and made as `keys` says
    /// (`Settings::keys`; see [`crate::keys`]). Errors also: [`Error::WrongKey`] (nothing
    /// written), [`Error::KeyMissing`], [`Error::KeyStore`].
    pub fn open_with(
        data_dir: &Path,
        context: &ContextName,
        keys: &KeyConfig,
        embedder: Arc<dyn Embedder>,
        clock: Arc<dyn Clock>,
    ) -> Result<Engine> {
        ensure_data_dir_with(data_dir, keys)?;
        let path = context.db_path(data_dir);
        if !path.exists() {
            return Err(Error::UnknownContext(context.to_string()));
        }
        let store = Store::open_with(&path, keys)?;
        let (key_dir, _) = keys.resolve(data_dir)?;
        let mut engine = Engine {
            store,
            context: context.clone(),
            embedder,
            clock,
            llm: None,
            own_dirs: [data_dir.to_path_buf(), key_dir],
        };
        // A forget that could not scrub the write-ahead log (a full disk) finishes it now.
        engine.finish_pending_scrub();
        // The nightly consolidation (seed 004) when the last run is a day old. Opening must
        // not fail for it: the next capture or open tries again.
        if let Err(e) = engine.consolidate_if_due() {
            tracing::warn!(error = %e, context = %context, "nightly consolidation failed");
        }
        Ok(engine)
    }

    /// Lets capture and consolidation use an LLM (`None`: the rules only). With one set,
    /// capture asks it per window of messages and consolidation for facts and abstractive
    /// session summaries ([`crate::consolidate::llm`]); every quote is verified, and any error
    /// falls back to the rules and is reported.
    pub fn set_llm(&mut self, llm: Option<Arc<dyn ChatModel>>) {
        self.llm = llm;
    }

    /// A note for the user about where the context keys are kept (no OS keyring was
    /// reachable, so a key file was made), returned once per key dir and then never again.
    /// The front ends print it (the CLI on stderr).
    pub fn take_key_notice(&mut self) -> Option<String> {
        self.store.take_notice()
    }

    /// The open context.
    pub fn context(&self) -> &ContextName {
        &self.context
    }

    /// The store's database file.
    pub fn db_path(&self) -> &Path {
        self.store.path()
    }

    /// The embedding model's id.
    pub fn model_id(&self) -> &str {
        self.embedder.model_id()
    }

    /// Episodes newest first, `limit` from `offset`, with retrievability now.
    pub fn list_episodes(&self, limit: usize, offset: usize) -> Result<Vec<EpisodeView>> {
        episodes::list(self.store.conn(), self.clock.now(), limit, offset)
    }

    /// How many episodes the context holds.
    pub fn episode_count(&self) -> Result<u64> {
        let n: i64 = self
            .store
            .conn()
            .query_row("SELECT count(*) FROM episodes", [], |r| r.get(0))?;
        Ok(n as u64)
    }

    /// Imports a file: parses it whole (a broken file changes nothing), stores the sessions
    /// and messages not already stored, then captures and embeds what is new. `progress`
    /// is called as each stage advances.
    pub fn import(
        &mut self,
        path: &Path,
        options: &ImportOptions,
        progress: &mut dyn FnMut(ImportProgress),
    ) -> Result<ImportReport> {
        self.require_capture("import")?;
        let sessions = import::parse_file(path, options)?;
        self.import_parsed(path, &sessions, progress)
    }

    /// Imports the sessions [`import::read_file`] read from `path`, as [`Engine::import`]
    /// does: a front end that reads the file before it opens a context (so a file that cannot
    /// be read or parsed never creates one) hands the sessions in here. Errors: as
    /// [`Engine::import_sessions`].
    pub fn import_parsed(
        &mut self,
        path: &Path,
        sessions: &[NewSession],
        progress: &mut dyn FnMut(ImportProgress),
    ) -> Result<ImportReport> {
        self.require_capture("import")?;
        let messages_seen = sessions.iter().map(|s| s.messages.len()).sum();
        progress(ImportProgress::Parsed {
            sessions: sessions.len(),
            messages: messages_seen,
        });
        let source = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("import")
            .to_string();
        self.import_sessions(sessions, &source, progress)
    }

    /// Stores sessions handed in by a caller (an evaluation harness, the MCP server) under
    /// `source`, then captures and embeds what is new, as [`Engine::import`] does for a file.
    pub fn import_sessions(
        &mut self,
        sessions: &[NewSession],
        source: &str,
        progress: &mut dyn FnMut(ImportProgress),
    ) -> Result<ImportReport> {
        self.require_capture("capture")?;
        let messages_seen = sessions.iter().map(|s| s.messages.len()).sum();
        // Every time stored must read back for every later reader: a date in the calendar's
        // last years ("9999-12-31", a sentinel) would put a time the message names
        // ("tomorrow") past what RFC 3339 writes, and one before 1900 (`create_time` -1e12)
        // is no one's conversation and was written as a year no reader parsed. Nothing is
        // stored: the whole import is refused, with what to fix.
        for s in sessions {
            for (i, m) in s.messages.iter().enumerate() {
                if let Err(why) = crate::store::check_storable(m.sent_at) {
                    return Err(Error::InvalidInput(format!(
                        "message {} of session `{}` {why}: {}; fix the message's date in the \
                         file (nothing was imported)",
                        i + 1,
                        s.key,
                        m.sent_at.to_rfc3339()
                    )));
                }
            }
        }
        let mut sessions = sessions.to_vec();
        let (messages_truncated, messages_cleaned) = import::sanitise(&mut sessions);
        // A clock a little off is normal; a message dated later than that is kept as given
        // (its own time is the truth we have) but reported, since its age reads as negative.
        let latest_plausible = self.clock.now() + chrono::Duration::minutes(FUTURE_SLACK_MINUTES);
        let messages_in_future = sessions
            .iter()
            .flat_map(|s| &s.messages)
            .filter(|m| m.sent_at.to_utc() > latest_plausible)
            .count();
        let messages_at_epoch = sessions
            .iter()
            .flat_map(|s| &s.messages)
            .filter(|m| m.sent_at.timestamp() == 0)
            .count();
        let waiting = self.capture_status(0)?.messages_pending;
        let StoredSessions {
            sessions_added,
            messages_added: new_messages,
            messages_resumed,
        } = self.store_sessions(&sessions, source)?;
        // A killed import of another file left its messages waiting: they are captured now,
        // with these, and the user is told why this import takes longer (issue 30, LOW 24).
        let messages_backlog = (waiting as usize).saturating_sub(messages_resumed.len());
        if messages_backlog > 0 {
            progress(ImportProgress::Backlog {
                messages: messages_backlog,
            });
        }
        let job = self.run_capture(CaptureReason::Import, progress)?;
        // Counted from this import's own rows, never from the job or a table diff: another
        // process capturing the same context at once shares the job and may encode some of
        // these messages itself (capture returns only when none is left pending).
        let episodes_added = self.episodes_from(&new_messages)?;
        let episodes_resumed = self.episodes_from(&messages_resumed)?;
        let messages_withheld = self.withheld_among(&new_messages)?;
        Ok(ImportReport {
            sessions_seen: sessions.len(),
            sessions_added,
            messages_seen,
            messages_added: new_messages.len(),
            episodes_added,
            messages_truncated,
            messages_cleaned,
            messages_in_future,
            messages_at_epoch,
            messages_resumed: messages_resumed.len(),
            episodes_resumed,
            messages_backlog,
            commands: job.map(|j| j.commands).unwrap_or_default(),
            messages_withheld,
        })
    }

    /// How many of the messages `message_ids`, once captured, are the user's and withheld
    /// (they asked not to be kept, [`crate::capture::asks_not_to_keep`]): capture made no
    /// episode of them and replaced their words with [`crate::capture::WITHHELD`]. The
    /// replies withheld with them are not counted: the user asked about their own words.
    fn withheld_among(&self, message_ids: &[i64]) -> Result<usize> {
        if message_ids.is_empty() {
            return Ok(0);
        }
        let ids = serde_json::Value::from(message_ids.to_vec()).to_string();
        let n: i64 = self.store.conn().query_row(
            "SELECT count(*) FROM messages
             WHERE role = 'user' AND text = ?2 AND id IN (SELECT value FROM json_each(?1))",
            params![ids, crate::capture::WITHHELD],
            |r| r.get(0),
        )?;
        Ok(n as usize)
    }

    /// Stores parsed sessions in one transaction; returns the number of sessions added, the
    /// ids of the messages added, each counted from its own INSERT (a row already stored, by
    /// an earlier import or one running at the same time, is not this import's), and the ids
    /// of the file's messages already stored but not yet captured (an interrupted import).
    fn store_sessions(
        &mut self,
        sessions: &[ParsedSession],
        source: &str,
    ) -> Result<StoredSessions> {
        let secret = self.tombstone_secret()?;
        // Forgotten messages stay forgotten: a re-import of the same export skips them.
        let mut forgotten = std::collections::HashSet::new();
        for (si, session) in sessions.iter().enumerate() {
            for (mi, m) in session.messages.iter().enumerate() {
                if self.is_tombstoned(&secret, &m.text, m.sent_at.to_utc())? {
                    forgotten.insert((si, mi));
                }
            }
        }
        let tx = self
            .store
            .conn_mut()
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let (mut sessions_added, mut messages_added, mut messages_resumed) =
            (0, Vec::new(), Vec::new());
        for (si, session) in sessions.iter().enumerate() {
            if (0..session.messages.len()).all(|mi| forgotten.contains(&(si, mi))) {
                continue;
            }
            let (Some(first), Some(last)) = (session.messages.first(), session.messages.last())
            else {
                continue;
            };
            let started = fmt_utc(first.sent_at.to_utc());
            let ended = fmt_utc(last.sent_at.to_utc());
            sessions_added += tx.execute(
                // Ids above every id ever used (migration 12): never a forgotten one's again.
                "INSERT OR IGNORE INTO sessions (id, external_id, source, started_at, ended_at)
                 VALUES ((SELECT max(coalesce((SELECT max(id) FROM sessions), 0), coalesce((SELECT max_id FROM id_high_water WHERE tbl = 'sessions'), 0)) + 1), ?1, ?2, ?3, ?4)",
                params![session.key, source, started, ended],
            )?;
            let session_id: i64 = tx.query_row(
                "SELECT id FROM sessions WHERE external_id = ?1",
                [&session.key],
                |r| r.get(0),
            )?;
            tx.execute(
                "UPDATE sessions SET started_at = min(started_at, ?2), ended_at = max(ended_at, ?3) WHERE id = ?1",
                params![session_id, started, ended],
            )?;
            let mut insert = tx.prepare(
                "INSERT OR IGNORE INTO messages
                   (id, session_id, external_id, dedupe_key, role, actor, text, sent_at, utc_offset_s, seq)
                 VALUES ((SELECT max(coalesce((SELECT max(id) FROM messages), 0), coalesce((SELECT max_id FROM id_high_water WHERE tbl = 'messages'), 0)) + 1), ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            )?;
            let mut uncaptured = tx
                .prepare("SELECT id FROM messages WHERE dedupe_key = ?1 AND captured_at IS NULL")?;
            for (seq, m) in session.messages.iter().enumerate() {
                if forgotten.contains(&(si, seq)) {
                    continue;
                }
                // A message with an id in its source is that message, whoever it is attributed
                // to (`--as speaker_b` on a file imported `--as speaker_a` adds nothing).
                let key = match &m.external_id {
                    Some(id) => dedupe_key(&session.key, Role::Tool, "external-id", id),
                    None => dedupe_key(&session.key, m.role, &fmt_fixed(m.sent_at), &m.text),
                };
                let inserted = insert.execute(params![
                    session_id,
                    m.external_id,
                    key,
                    m.role.as_str(),
                    m.actor,
                    m.text,
                    fmt_utc(m.sent_at.to_utc()),
                    m.sent_at.offset().local_minus_utc(),
                    seq as i64,
                ])?;
                if inserted == 1 {
                    messages_added.push(tx.last_insert_rowid());
                } else if let Some(id) = uncaptured
                    .query_row([&key], |r| r.get::<_, i64>(0))
                    .optional()?
                {
                    // Stored by an earlier run of this import that stopped before capture.
                    messages_resumed.push(id);
                }
            }
        }
        tx.commit()?;
        Ok(StoredSessions {
            sessions_added,
            messages_added,
            messages_resumed,
        })
    }

    /// How many episodes the messages `message_ids` are the source of (each episode's own
    /// message, not a restatement linked to an older one). One query over a JSON array of the
    /// ids, so an import of any size is one statement.
    fn episodes_from(&self, message_ids: &[i64]) -> Result<usize> {
        if message_ids.is_empty() {
            return Ok(0);
        }
        let ids = serde_json::Value::from(message_ids.to_vec()).to_string();
        let n: i64 = self.store.conn().query_row(
            "SELECT count(*) FROM episodes WHERE message_id IN (SELECT value FROM json_each(?1))",
            [ids],
            |r| r.get(0),
        )?;
        Ok(n as usize)
    }

    /// Embeds every episode that has no vector from the current model, in batches, then
    /// drops vectors of other models so they are never mixed. Returns the vectors added.
    /// (The work is in `embed::reembed`, shared with [`Engine::ensure_embedded`].)
    pub fn embed_pending(&mut self, progress: &mut dyn FnMut(ImportProgress)) -> Result<usize> {
        let model = self.embedder.model_id().to_string();
        self.embed_missing(&model, progress)
    }
}

/// What [`Engine::store_sessions`] stored: row ids, each counted from its own statement.
struct StoredSessions {
    sessions_added: usize,
    messages_added: Vec<i64>,
    /// The file's messages an earlier run stored and left uncaptured.
    messages_resumed: Vec<i64>,
}

/// The dedupe key message `message_id` should carry for its current words, recomputed after
/// its text changed (an edit, or a forget that cut one episode's words out): a message with an
/// id from its source keeps its id-based key; any other gets the key of (session, role, time,
/// words), so re-importing an export written after the change adds nothing.
/// Errors: [`Error::Sqlite`] when the message is gone or unreadable.
pub(crate) fn dedupe_key_of(tx: &rusqlite::Transaction<'_>, message_id: i64) -> Result<String> {
    let (session_key, external_id, role, text, sent_at, offset): (
        String,
        Option<String>,
        String,
        String,
        String,
        i32,
    ) = tx.query_row(
        "SELECT s.external_id, m.external_id, m.role, m.text, m.sent_at, m.utc_offset_s
           FROM messages m JOIN sessions s ON s.id = m.session_id WHERE m.id = ?1",
        [message_id],
        |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        },
    )?;
    if let Some(id) = external_id {
        return Ok(dedupe_key(&session_key, Role::Tool, "external-id", &id));
    }
    let role: Role = role.parse()?;
    let offset = chrono::FixedOffset::east_opt(offset).ok_or_else(|| {
        Error::InvalidInput(format!("stored UTC offset {offset} s is out of range"))
    })?;
    let sent_at = crate::store::parse_utc(&sent_at)?.with_timezone(&offset);
    Ok(dedupe_key(&session_key, role, &fmt_fixed(sent_at), &text))
}

/// How far past the engine's clock a message may be dated before an import reports it as
/// dated in the future (minutes): clocks on two devices differ by a little.
const FUTURE_SLACK_MINUTES: i64 = 10;

/// The key that makes re-imports idempotent: the same session, role, time and words are the
/// same message.
fn dedupe_key(session_key: &str, role: Role, sent_at: &str, text: &str) -> String {
    let digest = Sha256::digest(format!("{session_key}\n{role}\n{sent_at}\n{text}").as_bytes());
    hex(&digest)
}
