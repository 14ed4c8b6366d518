//! Retention (seed 003: importance-based retention; routine events age out over months).
//! Routine episodes are purged a set time after they were captured, unless a fact or a
//! procedure rests on them. Nothing else expires on its own: fading lowers retrievability, never deletes.

use chrono::Duration;
use rusqlite::OptionalExtension;

use crate::engine::Engine;
use crate::error::Result;
use crate::store::fmt_utc;

/// Days a routine episode is kept after capture, unless set per context.
pub const DEFAULT_ROUTINE_RETENTION_DAYS: i64 = 90;

impl Engine {
    /// Days routine episodes are kept after capture in this context.
    pub fn routine_retention_days(&self) -> Result<i64> {
        let stored: Option<String> = self
            .store
            .conn()
            .query_row(
                "SELECT value FROM context_settings WHERE key = 'routine_retention_days'",
                [],
                |r| r.get(0),
            )
            .optional()?;
        Ok(stored
            .and_then(|s| s.parse().ok())
            .filter(|d| *d > 0)
            .unwrap_or(DEFAULT_ROUTINE_RETENTION_DAYS))
    }

    /// Sets the routine retention in days (at least 1).
    pub fn set_routine_retention_days(&mut self, days: i64) -> Result<()> {
        self.store.conn().execute(
            "INSERT INTO context_settings (key, value) VALUES ('routine_retention_days', ?1)
             ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [days.max(1).to_string()],
        )?;
        Ok(())
    }

    /// Purges routine episodes captured longer ago than the retention period; returns how
    /// many went. Their embeddings and index rows go with them.
    pub fn purge_expired_routine(&mut self) -> Result<usize> {
        let cutoff = self.clock.now() - Duration::days(self.routine_retention_days()?);
        // Episodes a fact or a procedure rests on were consolidated into something kept.
        let purged = self.store.conn().execute(
            "DELETE FROM episodes WHERE kind = 'routine' AND captured_at < ?1
               AND id NOT IN (SELECT episode_id FROM fact_sources)
               AND id NOT IN (SELECT episode_id FROM procedure_sources)",
            [fmt_utc(cutoff)],
        )?;
        if purged > 0 {
            self.store.checkpoint()?;
        }
        Ok(purged)
    }
}
