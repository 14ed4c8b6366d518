//! Forgetting: an item removed with what derives from it, and a receipt of what went.

use chrono::{DateTime, Utc};
use rusqlite::params;
use serde::Serialize;

use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::model::EpisodeId;

/// What a forget did: counts per kind of record removed, and when.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ForgetReceipt {
    /// Episodes removed.
    pub episodes: usize,
    /// Embedding vectors removed.
    pub embeddings: usize,
    /// Participant rows removed.
    pub participants: usize,
    /// When the forget ran (UTC).
    pub at: Option<DateTime<Utc>>,
    /// What was left and why (for example a source message that other episodes rest on).
    pub notes: Vec<String>,
}

impl Engine {
    /// Forgets one episode, its embeddings and its participant rows, then checkpoints the
    /// WAL so the deleted bytes (zeroed by `secure_delete`) leave the log file too.
    /// Errors: [`Error::NotFound`] when no episode has this id.
    pub fn forget_episode(&mut self, id: EpisodeId) -> Result<ForgetReceipt> {
        let at = self.clock.now();
        let tx = self.store.conn_mut().transaction()?;
        let count = |sql: &str| -> rusqlite::Result<usize> {
            tx.query_row(sql, [id.0], |r| r.get::<_, i64>(0)).map(|n| n as usize)
        };
        let embeddings = count("SELECT count(*) FROM embeddings WHERE episode_id = ?1")?;
        let participants = count("SELECT count(*) FROM episode_participants WHERE episode_id = ?1")?;
        // Derived rows go by ON DELETE CASCADE (foreign keys are on for every connection).
        let episodes = tx.execute("DELETE FROM episodes WHERE id = ?1", params![id.0])?;
        if episodes == 0 {
            return Err(Error::NotFound { kind: "episode", id: id.0 });
        }
        tx.commit()?;
        self.store.checkpoint()?;
        Ok(ForgetReceipt {
            episodes,
            embeddings,
            participants,
            at: Some(at),
            notes: vec!["the source message is kept in the conversation history".into()],
        })
    }
}
