//! Listings the panel and the CLI show besides the newest-first list: what was said in a
//! time window (issue 7, failure kind `time_range_ops_missing`) and the memories that mention
//! a person or another named entity.

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::engine::Engine;
use crate::episodes::{self, EPISODE_COLUMNS, EPISODE_FROM, EpisodeView};
use crate::error::{Error, Result};
use crate::model::{MessageId, Role};
use crate::store::{clamp_bound, fmt_utc, parse_utc};

/// One message of a time window with the episodes captured from it.
#[derive(Debug, Clone, Serialize)]
pub struct TimeRangeItem {
    /// The message's row id.
    pub message_id: MessageId,
    /// Its id in its file or conversation, if it had one.
    pub external_id: Option<String>,
    /// Its session's key.
    pub session: String,
    /// Who wrote it.
    pub role: Role,
    /// The writer's name (`user`, `assistant` or a speaker).
    pub actor: String,
    /// Its words as stored.
    pub text: String,
    /// When it was written (UTC).
    pub sent_at: DateTime<Utc>,
    /// When capture encoded it (UTC), `None` while it waits.
    pub captured_at: Option<DateTime<Utc>>,
    /// The episodes whose own message it is, in text order.
    pub episodes: Vec<EpisodeView>,
}

impl Engine {
    /// Everything held from the window `[from, to)` (UTC; by the time each message was
    /// written, as a time-range forget counts it, so this list is what "forget from `from` to
    /// `to`" would remove): each message, oldest first, with its episodes.
    /// Errors: [`Error::InvalidInput`] when `to` is not after `from`.
    pub fn list_time_range(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<Vec<TimeRangeItem>> {
        if to <= from {
            return Err(Error::InvalidInput(format!(
                "the window ends ({to}) before or when it starts ({from}): give --from before --to"
            )));
        }
        let conn = self.store.conn();
        let now = self.clock.now();
        let mut stmt = conn.prepare(
            "SELECT m.id, m.external_id, s.external_id, m.role, m.actor, m.text, m.sent_at, m.captured_at
             FROM messages m JOIN sessions s ON s.id = m.session_id
             WHERE m.sent_at >= ?1 AND m.sent_at < ?2 ORDER BY m.sent_at, m.id",
        )?;
        let rows = stmt
            // Clamped: `--to 9999-12-31` ends at 10000-01-01, which would sort as text before
            // every stored time.
            .query_map(
                [fmt_utc(clamp_bound(from)), fmt_utc(clamp_bound(to))],
                |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, Option<String>>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, String>(4)?,
                        r.get::<_, String>(5)?,
                        r.get::<_, String>(6)?,
                        r.get::<_, Option<String>>(7)?,
                    ))
                },
            )?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let mut episodes_stmt = conn.prepare(&format!(
            "SELECT {EPISODE_COLUMNS} FROM {EPISODE_FROM} WHERE e.message_id = ?1 ORDER BY e.span_start"
        ))?;
        let mut out = Vec::with_capacity(rows.len());
        for (id, external_id, session, role, actor, text, sent_at, captured_at) in rows {
            let episodes = episodes_stmt
                .query_map([id], |r| episodes::from_row(r, now))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            out.push(TimeRangeItem {
                message_id: MessageId(id),
                external_id,
                session,
                role: role.parse()?,
                actor,
                text,
                sent_at: parse_utc(&sent_at)?,
                captured_at: captured_at.as_deref().map(parse_utc).transpose()?,
                episodes,
            });
        }
        Ok(out)
    }

    /// The episodes that mention `name` (a person, a place, a project), newest first: those
    /// capture found the name among the participants of, and those whose words hold it as a
    /// whole word, case-insensitively ("Jonas" finds "Lunch with Jonas" and "jonas's bike", not
    /// "Jonasson"). Errors: [`Error::InvalidInput`] for an empty name.
    pub fn list_entity(&self, name: &str) -> Result<Vec<EpisodeView>> {
        let name = name.trim();
        if name.is_empty() {
            return Err(Error::InvalidInput(
                "the entity name is empty: say whose memories to list".into(),
            ));
        }
        let needle = name.to_lowercase();
        let count = self.episode_count()? as usize;
        Ok(self
            .list_episodes(count, 0)?
            .into_iter()
            .filter(|e| {
                e.participants.iter().any(|p| p.to_lowercase() == needle)
                    || mentions_word(&e.text.to_lowercase(), &needle)
            })
            .collect())
    }
}

/// Whether `needle` occurs in `haystack` with no letter or digit right before or after it.
fn mentions_word(haystack: &str, needle: &str) -> bool {
    haystack.match_indices(needle).any(|(i, m)| {
        let before = haystack[..i].chars().next_back();
        let after = haystack[i + m.len()..].chars().next();
        before.is_none_or(|c| !c.is_alphanumeric()) && after.is_none_or(|c| !c.is_alphanumeric())
    })
}

#[cfg(test)]
mod tests {
    use super::mentions_word;

    #[test]
    fn a_name_is_matched_as_a_whole_word() {
        assert!(mentions_word("lunch with jonas today", "jonas"));
        assert!(mentions_word("jonas's bike", "jonas"));
        assert!(!mentions_word("jonasson called", "jonas"));
        assert!(!mentions_word("the sjonas", "jonas"));
        assert!(mentions_word("åsa-lena came", "åsa-lena"));
    }
}
