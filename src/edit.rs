//! Editing a memory (issue 7, the panel's "edit"): the user rewrites an episode's words.
//!
//! [`Engine::edit_episode`] replaces the text and keeps everything else that says where the
//! memory came from (source message, session, time, act kind, salience). The old words must
//! leave the store, as a forget would make them (DESIGN principle 3):
//! - the episode's full-text row is rewritten (trigger, FTS5 `secure-delete`) and its vector
//!   is recomputed from the new words;
//! - the quote in each source message (its own and any restatement's) is replaced by the new
//!   words, so the transcript, an export and a re-import of that export all carry the edited
//!   memory (the message's dedupe key follows its words, so re-importing adds nothing); a
//!   tombstone of each original message keeps a re-import of an old export from bringing the
//!   old words back;
//! - the columns capture derives from the words are derived again from the new ones, with
//!   capture's rules and the source message's time and offset: the event time (expression,
//!   start, end; cleared when the new words name no time), the named participants (a name
//!   the new words no longer hold goes), and an open item's due time;
//! - facts and session summaries built from the old words are dropped and rebuilt by the
//!   consolidation that runs at the end;
//! - the WAL is checkpointed and truncated.
//!
//! The episode records when it was edited (`edited_at`). Its act kind, salience and
//! stability stay: they say how the memory was first said and how it has been used, and
//! re-reading an act kind from a rewording alone (without the message around it) would guess.

use chrono::{DateTime, FixedOffset, Utc};
use rusqlite::{OptionalExtension, TransactionBehavior, params};
use serde::Serialize;

use crate::capture::restate::cut_span;
use crate::capture::rules;
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::forget::tombstone_hash;
use crate::model::{EpisodeId, EventTime, MessageInput, Role};
use crate::store::{fmt_fixed, fmt_utc, parse_fixed, parse_utc};

/// The longest text an edit accepts, in bytes (64 KiB): a memory, not a document.
pub const MAX_EDIT_BYTES: usize = 64 * 1024;

/// What an edit did.
#[derive(Debug, Clone, Serialize)]
pub struct EditReceipt {
    /// The episode edited.
    pub episode: EpisodeId,
    /// Its words now.
    pub text: String,
    /// When the edit ran (UTC).
    pub edited_at: DateTime<Utc>,
    /// Source messages whose old quote was replaced by the new words.
    pub messages_redacted: usize,
    /// Facts dropped because they rested only on the old words (consolidation rebuilds what
    /// the new words support).
    pub facts_dropped: usize,
    /// Sentences of the assistant's later replies that said back what the edit took away,
    /// replaced by `[edited]` ([`crate::forget::EDITED`]).
    pub echoes: usize,
    /// Export files Minne wrote that held the old words and were removed (Markdown).
    pub exports: usize,
    /// JSON export files Minne wrote that were rewritten with the new words.
    pub exports_rewritten: usize,
    /// What could not be reached (an export changed or moved since Minne wrote it).
    pub not_reached: Vec<String>,
    /// `false` when the new text equals the old one and nothing changed.
    pub changed: bool,
}

/// The new words of an edit, trimmed, or why they cannot be a memory's words: empty,
/// longer than [`MAX_EDIT_BYTES`], holding NUL, or a request not to keep them ("Don't
/// remember this", [`crate::capture::asks_not_to_keep`]). Capture never stores such a
/// request as a memory (it withholds the message), so an edit must not either: what the user
/// means is to remove the memory, which is a forget. Errors: [`Error::InvalidInput`], saying
/// which and what to do instead.
fn checked_new_text(new_text: &str) -> Result<String> {
    // NUL is refused, not cleaned: it marks binary data, not a typed character.
    if new_text.contains('\0') {
        return Err(Error::InvalidInput(
            "the new text holds a NUL character: give the words as plain text".into(),
        ));
    }
    // Control characters and bidirectional overrides are left out as import leaves them out
    // (a right-to-left override makes the words show as other words): the same words
    // whichever road they came in by.
    let cleaned = crate::import::without_controls(new_text);
    let new_text = cleaned.trim();
    if new_text.is_empty() {
        return Err(Error::InvalidInput(
            "the new text is empty: to remove a memory, forget it (`minne forget --id`)".into(),
        ));
    }
    if new_text.len() > MAX_EDIT_BYTES {
        return Err(Error::InvalidInput(format!(
            "the new text is {} bytes, over the limit of {MAX_EDIT_BYTES}: shorten it",
            new_text.len()
        )));
    }
    if crate::capture::asks_not_to_keep(new_text) {
        return Err(Error::InvalidInput(
            "the new text asks not to be remembered, so Minne will not store it as a memory: \
             to remove the memory, use `minne forget --id`"
                .into(),
        ));
    }
    Ok(new_text.to_string())
}

impl Engine {
    /// Replaces the words of episode `id` with `new_text` (trimmed; 1 to [`MAX_EDIT_BYTES`]
    /// bytes, no NUL). Provenance stays; the old words leave the store (see the module
    /// docs); the episode is re-embedded and marked `edited_at`.
    ///
    /// Errors: [`Error::InvalidInput`] for an empty, oversized or NUL-holding text, or one
    /// that asks not to be remembered ("Don't remember this": forget the memory instead),
    /// [`Error::NotFound`] for an unknown episode; on any error nothing changes.
    pub fn edit_episode(&mut self, id: EpisodeId, new_text: &str) -> Result<EditReceipt> {
        let new_text = checked_new_text(new_text)?;
        let new_text = new_text.as_str();
        let at = self.clock.now();
        let secret = self.tombstone_secret()?;
        let tx = self
            .store
            .conn_mut()
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let support = crate::consolidate::fact_support(&tx)?;
        let Some(Rewritten {
            messages_redacted,
            message_id,
            old_text,
        }) = rewrite_episode(&tx, id, new_text, &secret, at)?
        else {
            return Ok(EditReceipt {
                episode: id,
                text: new_text.to_string(),
                edited_at: at,
                messages_redacted: 0,
                facts_dropped: 0,
                echoes: 0,
                exports: 0,
                exports_rewritten: 0,
                not_reached: Vec::new(),
                changed: false,
            });
        };
        let echoes =
            crate::forget::cut_edited_echoes(&tx, message_id, &old_text, new_text, &secret, at)?;
        crate::consolidate::drop_values_no_source_says(&tx, &support)?;
        let facts_dropped = crate::consolidate::drop_unsupported_facts(&tx)?;
        tx.commit()?;
        self.embed_pending(&mut |_| {})?;
        self.consolidate()?;
        self.store.checkpoint()?;
        // Exports Minne wrote carry the old words: JSON ones are rewritten with the new,
        // Markdown ones removed, as a forget does ([`Engine::scrub_tracked_exports`]).
        let (exports, exports_rewritten, not_reached) = match self.scrub_tracked_exports() {
            Ok(done) => done,
            Err(e) => (
                0,
                0,
                vec![format!(
                    "export files Minne wrote may still hold the old words ({e}); remove them by hand"
                )],
            ),
        };
        Ok(EditReceipt {
            episode: id,
            text: new_text.to_string(),
            edited_at: at,
            messages_redacted,
            facts_dropped,
            echoes,
            exports,
            exports_rewritten,
            not_reached,
            changed: true,
        })
    }

    /// When episode `id` was last edited (UTC), `None` if never.
    /// Errors: [`Error::NotFound`] for an unknown episode.
    pub fn edited_at(&self, id: EpisodeId) -> Result<Option<DateTime<Utc>>> {
        let found: Option<Option<String>> = self
            .store
            .conn()
            .query_row(
                "SELECT edited_at FROM episodes WHERE id = ?1",
                [id.0],
                |r| r.get(0),
            )
            .optional()?;
        let stamp = found.ok_or(Error::NotFound {
            kind: "episode",
            id: id.0,
        })?;
        stamp.as_deref().map(parse_utc).transpose()
    }
}

/// Replaces the words of episode `id` with `new_text` inside `tx`, as [`Engine::edit_episode`]
/// does (module docs), up to but not including dropping unsupported facts, re-embedding and
/// consolidating, which the caller does after. Returns what it replaced ([`Rewritten`]), or
/// `None` when the episode already reads `new_text` (nothing changed).
/// Errors: [`Error::NotFound`] for an unknown episode.
pub(crate) fn rewrite_episode(
    tx: &rusqlite::Transaction<'_>,
    id: EpisodeId,
    new_text: &str,
    secret: &[u8],
    at: DateTime<Utc>,
) -> Result<Option<Rewritten>> {
    let found: Option<(String, i64, i64, i64)> = tx
        .query_row(
            "SELECT text, message_id, span_start, span_end FROM episodes WHERE id = ?1",
            [id.0],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .optional()?;
    let (old_text, message_id, start, end) = found.ok_or(Error::NotFound {
        kind: "episode",
        id: id.0,
    })?;
    if old_text == new_text {
        return Ok(None);
    }
    // Every source quote: the episode's own, then its restatements'.
    let mut quotes: Vec<(i64, i64, i64)> = vec![(message_id, start, end)];
    {
        let mut stmt = tx.prepare(
            "SELECT message_id, span_start, span_end FROM episode_mentions WHERE episode_id = ?1",
        )?;
        let rows = stmt.query_map([id.0], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        for row in rows {
            quotes.push(row?);
        }
    }
    let mut messages_redacted = 0;
    for (message, start, end) in quotes {
        let (text, sent_at): (String, String) = tx.query_row(
            "SELECT text, sent_at FROM messages WHERE id = ?1",
            [message],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        if text.get(start as usize..end as usize) == Some(new_text) {
            continue; // this quote already reads the new words
        }
        tx.execute(
            "INSERT OR IGNORE INTO tombstones (hash, created_at) VALUES (?1, ?2)",
            params![
                tombstone_hash(secret, &text, parse_utc(&sent_at)?),
                fmt_utc(at)
            ],
        )?;
        cut_span(tx, message, start as usize, end as usize, new_text)?;
        messages_redacted += 1;
    }
    // The episode's own spans now cover the new words.
    tx.execute(
        "UPDATE episodes SET span_end = span_start + ?2 WHERE id = ?1",
        params![id.0, new_text.len() as i64],
    )?;
    tx.execute(
        "UPDATE episode_mentions SET span_end = span_start + ?2 WHERE episode_id = ?1",
        params![id.0, new_text.len() as i64],
    )?;
    tx.execute(
        "UPDATE episodes SET text = ?2, edited_at = ?3 WHERE id = ?1",
        params![id.0, new_text, fmt_utc(at)],
    )?;
    rederive(tx, id, message_id, new_text)?;
    tx.execute("DELETE FROM embeddings WHERE episode_id = ?1", [id.0])?;
    // What consolidation built from the old words goes; it is rebuilt from the new ones.
    tx.execute("DELETE FROM fact_sources WHERE episode_id = ?1", [id.0])?;
    tx.execute(
        "DELETE FROM procedure_sources WHERE episode_id = ?1",
        [id.0],
    )?;
    tx.execute(
        "DELETE FROM consolidated_episodes WHERE episode_id = ?1",
        [id.0],
    )?;
    tx.execute(
        "DELETE FROM session_summaries WHERE instr(episode_ids, ',' || ?1 || ',') > 0",
        [id.0],
    )?;
    tx.execute(
        "DELETE FROM procedures WHERE NOT EXISTS
               (SELECT 1 FROM procedure_sources s WHERE s.procedure_id = procedures.id)",
        [],
    )?;
    Ok(Some(Rewritten {
        messages_redacted,
        message_id,
        old_text,
    }))
}

/// What [`rewrite_episode`] replaced.
pub(crate) struct Rewritten {
    /// Source messages whose quote now reads the new words.
    pub messages_redacted: usize,
    /// The episode's own source message.
    pub message_id: i64,
    /// The episode's words before.
    pub old_text: String,
}

/// Derives again what capture derives from an episode's words, from `new_text` read at its
/// source message's time and offset (capture's rules, [`rules::extract`]): the event time
/// (the first one the new words name, or none), the participants (the people the new words
/// name, and earlier ones the new words still name, such as one a pronoun pointed to in the
/// first telling when the edit kept the name), and an open item's due time.
fn rederive(
    tx: &rusqlite::Transaction<'_>,
    id: EpisodeId,
    message_id: i64,
    new_text: &str,
) -> Result<()> {
    let (role, sent_at, offset): (String, String, i64) = tx.query_row(
        "SELECT role, sent_at, utc_offset_s FROM messages WHERE id = ?1",
        [message_id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    let offset = FixedOffset::east_opt(offset as i32).ok_or_else(|| {
        Error::InvalidInput(format!("stored UTC offset {offset} s is out of range"))
    })?;
    let role: Role = role.parse()?;
    let found = rules::extract(&MessageInput {
        role,
        text: new_text,
        timestamp: parse_fixed(&sent_at)?.with_timezone(&offset),
        zone: Some(crate::zone::stored(tx)?),
    });
    let when: Option<EventTime> = found.iter().find_map(|x| x.when.clone());
    tx.execute(
        "UPDATE episodes SET event_expression = ?2, event_start = ?3, event_end = ?4 WHERE id = ?1",
        params![
            id.0,
            when.as_ref().map(|w| w.expression.clone()),
            when.as_ref().map(|w| fmt_fixed(w.start)),
            when.as_ref().map(|w| fmt_fixed(w.end)),
        ],
    )?;
    let mut people: Vec<String> = Vec::new();
    for name in found.iter().flat_map(|x| x.participants.iter()) {
        if !people.contains(name) {
            people.push(name.clone());
        }
    }
    let lower = new_text.to_lowercase();
    let old: Vec<String> = {
        let mut stmt = tx.prepare("SELECT name FROM episode_participants WHERE episode_id = ?1")?;
        stmt.query_map([id.0], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?
    };
    for name in old {
        if !people.contains(&name) && lower.contains(&name.to_lowercase()) {
            people.push(name);
        }
    }
    tx.execute(
        "DELETE FROM episode_participants WHERE episode_id = ?1",
        [id.0],
    )?;
    for name in &people {
        tx.execute(
            "INSERT OR IGNORE INTO episode_participants (episode_id, name) VALUES (?1, ?2)",
            params![id.0, name],
        )?;
    }
    let (due_start, due_end) = crate::consolidate::due_of_episode(tx, id.0)?;
    tx.execute(
        "UPDATE open_items SET due_start = ?2, due_end = ?3 WHERE episode_id = ?1",
        params![id.0, due_start, due_end],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh user's `minne edit ID "Don't remember this"` stored the withhold request as the
    /// memory's words. Such words ask for the memory to go, which is a forget: the edit is
    /// refused with an error that says so, whatever else the words hold.
    #[rstest::rstest]
    #[case::en("Don't remember this")]
    #[case::en_sentence("Please don't remember this, it was private.")]
    #[case::off_the_record("Off the record: the salary is 60k.")]
    #[case::sv("Kom inte ihåg det här.")]
    #[case::da("Husk ikke det her.")]
    fn a_withhold_request_is_no_edit(#[case] text: &str) {
        let err = checked_new_text(text).expect_err("a withhold request must not become a memory");
        let Error::InvalidInput(message) = &err else {
            panic!("`{text}` must be refused as invalid input, got {err:?}");
        };
        assert!(
            message.contains("minne forget"),
            "the error must say how to remove the memory instead: {message}"
        );
    }

    #[test]
    fn ordinary_words_are_an_edit() {
        assert_eq!(
            checked_new_text("  I remember that the launch is on Friday. ").ok(),
            Some("I remember that the launch is on Friday.".to_string()),
            "a statement, even one with `remember` in it, is a memory's words, trimmed"
        );
        assert!(
            checked_new_text("I don't remember that film.").is_ok(),
            "the speaker reporting their own memory asks nothing of Minne"
        );
    }

    #[test]
    fn new_words_are_cleaned_as_import_cleans_them() {
        // A fresh user's edit stored "bad\u{1}ctrl\u{202E}text" as typed, where import
        // leaves control characters and bidirectional overrides out: a run between two
        // words becomes one space (import::without_controls).
        assert_eq!(
            checked_new_text("bad\u{1}ctrl\u{202E}text").ok(),
            Some("bad ctrl text".to_string())
        );
        assert!(
            checked_new_text("\u{7}\u{202E}").is_err(),
            "nothing left once cleaned is an empty edit"
        );
    }
}
