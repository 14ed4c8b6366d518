//! Withheld messages: what the user asked not to be kept ("Don't remember this: …", "off the
//! record": [`asks_not_to_keep`]) leaves the transcript as well as memory. Capture makes no
//! episode of such a message, and of the reply to it, and replaces their words with
//! [`WITHHELD`]; a tombstone of the original words ([`crate::forget`]) keeps a re-import of
//! the same conversation from bringing them back.
//!
//! A message is withheld when
//! - it is the user's and asks not to be kept, or
//! - it is not the user's (the assistant, a named other speaker, a tool) and the user message
//!   before it in its session is withheld: the direct reply usually repeats the words, or
//! - its words are already [`WITHHELD`] (an export re-imported).
//!
//! "Before" is by time, then id: the order capture runs in. Replies often arrive in a later
//! capture job than the message they answer (the MCP `remember` tool sends one message per
//! call), so the previous user message is read from the store, where it is either still
//! waiting with its own words or already the marker.

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, Transaction, params};

use crate::capture::{WITHHELD, asks_not_to_keep};
use crate::error::Result;
use crate::model::Role;
use crate::store::fmt_utc;

/// A stored message, as far as withholding looks at it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Turn<'a> {
    /// Its id.
    pub id: i64,
    /// Its session's id.
    pub session_id: i64,
    /// Who wrote it.
    pub role: Role,
    /// Its words as stored now.
    pub text: &'a str,
    /// When it was written (UTC).
    pub sent_at: DateTime<Utc>,
}

/// Whether the words of a user message mean it is withheld: they ask not to be kept, or they
/// are the marker already.
fn user_words_withheld(text: &str) -> bool {
    text == WITHHELD || asks_not_to_keep(text)
}

/// Whether `turn` is withheld (see the module doc). Errors: [`crate::Error::Sqlite`].
pub(crate) fn is_withheld(conn: &Connection, turn: Turn<'_>) -> Result<bool> {
    if turn.text == WITHHELD {
        return Ok(true);
    }
    if turn.role == Role::User {
        return Ok(asks_not_to_keep(turn.text));
    }
    let previous_user: Option<String> = conn
        .prepare_cached(
            "SELECT text FROM messages
             WHERE session_id = ?1 AND role = 'user' AND (sent_at < ?2 OR (sent_at = ?2 AND id < ?3))
             ORDER BY sent_at DESC, id DESC LIMIT 1",
        )?
        .query_row(
            params![turn.session_id, fmt_utc(turn.sent_at), turn.id],
            |r| r.get(0),
        )
        .optional()?;
    Ok(previous_user.is_some_and(|text| user_words_withheld(&text)))
}

/// Withholds `turn` inside the capture transaction: writes a tombstone of its words (so a
/// re-import of the conversation skips them), replaces them with [`WITHHELD`] and gives the
/// message the dedupe key of its new words (so an export written now re-imports as this same
/// message). Returns whether words were removed (`false` when they were the marker already).
/// Errors: [`crate::Error::Sqlite`].
pub(crate) fn withhold(
    tx: &Transaction<'_>,
    secret: &[u8],
    turn: Turn<'_>,
    at: DateTime<Utc>,
) -> Result<bool> {
    if turn.text == WITHHELD {
        return Ok(false);
    }
    tx.execute(
        "INSERT OR IGNORE INTO tombstones (hash, created_at) VALUES (?1, ?2)",
        params![
            crate::forget::tombstone_hash(secret, turn.text, turn.sent_at),
            fmt_utc(at)
        ],
    )?;
    tx.execute(
        "UPDATE messages SET text = ?2 WHERE id = ?1",
        params![turn.id, WITHHELD],
    )?;
    let mut key = crate::engine::dedupe_key_of(tx, turn.id)?;
    // Two withheld messages of one speaker in one session within the same second now have
    // the same words and time, so the same key. They can no longer be told apart: the later
    // one gets a key of its own, and a re-import of an export holding both meets the first
    // one's key and adds nothing.
    let taken: bool = tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM messages WHERE dedupe_key = ?1 AND id != ?2)",
        params![key, turn.id],
        |r| r.get(0),
    )?;
    if taken {
        key = format!("{key}:withheld:{}", turn.id);
    }
    tx.execute(
        "UPDATE messages SET dedupe_key = ?2 WHERE id = ?1",
        params![turn.id, key],
    )?;
    Ok(true)
}
