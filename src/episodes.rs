//! Episodes as the panel and the CLI show them: the stored record, its provenance and its
//! retrievability now.

use chrono::{DateTime, Utc};
use rusqlite::Row;
use serde::Serialize;

use crate::error::Result;
use crate::fade::retrievability;
use crate::model::{
    ActKind, EpisodeId, EventTime, MessageId, Role, Salience, SessionId, Stability,
};
use crate::store::{parse_fixed, parse_utc};

/// One episode with its provenance, as listed and recalled.
#[derive(Debug, Clone, Serialize)]
pub struct EpisodeView {
    /// Its id in this context.
    pub id: EpisodeId,
    /// Who said it: `user`, `assistant` or the speaker's name.
    pub actor: String,
    /// The speaker's role.
    pub role: Role,
    /// The act kind.
    pub kind: ActKind,
    /// The speaker's own words.
    pub text: String,
    /// Salience in `[0, 1]`.
    pub salience: Salience,
    /// Lifespan in days, set at capture.
    pub stability_days: Stability,
    /// Retrievability now, in `(0, 1]` (FSRS-4.5).
    pub retrievability: f64,
    /// When it was said (the source message's time, UTC).
    pub occurred_at: DateTime<Utc>,
    /// When Minne learned it: when capture stored it (UTC). Never changed by an edit or a
    /// re-capture of the same words.
    pub created_at: DateTime<Utc>,
    /// The time it refers to, when it names one.
    pub event_time: Option<EventTime>,
    /// Named third parties.
    pub participants: Vec<String>,
    /// The source session.
    pub session_id: SessionId,
    /// The source session's key (`locomo:conv-26:session_3`).
    pub session_external_id: String,
    /// The source message.
    pub message_id: MessageId,
    /// The source message's id in its file (LoCoMo `dia_id`), if it had one.
    pub message_external_id: Option<String>,
    /// Where the conversation came from (an import file's name, `mcp`, `chat`).
    pub source: String,
    /// Byte range `[start, end)` of the quote in the source message.
    pub span: (usize, usize),
}

/// The columns [`from_row`] reads, in order, over `episodes e JOIN messages m JOIN sessions s`.
pub(crate) const EPISODE_COLUMNS: &str = "e.id, e.actor, e.role, e.kind, e.text, e.salience, \
    e.stability_days, e.occurred_at, e.event_expression, e.event_start, e.event_end, \
    s.id, s.external_id, m.id, m.external_id, s.source, e.span_start, e.span_end, \
    (SELECT group_concat(p.name, char(31)) FROM episode_participants p WHERE p.episode_id = e.id), \
    e.captured_at";

/// The joins [`EPISODE_COLUMNS`] needs.
pub(crate) const EPISODE_FROM: &str =
    "episodes e JOIN messages m ON m.id = e.message_id JOIN sessions s ON s.id = m.session_id";

/// Reads an [`EpisodeView`] from a row of [`EPISODE_COLUMNS`], with retrievability at `now`.
pub(crate) fn from_row(row: &Row<'_>, now: DateTime<Utc>) -> rusqlite::Result<EpisodeView> {
    let bad = |i: usize, e: crate::Error| {
        rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, Box::new(e))
    };
    let role: String = row.get(2)?;
    let kind: String = row.get(3)?;
    let salience = Salience::new(row.get(5)?).map_err(|e| bad(5, e))?;
    let stability = Stability::new(row.get(6)?).map_err(|e| bad(6, e))?;
    let occurred_at = parse_utc(&row.get::<_, String>(7)?).map_err(|e| bad(7, e))?;
    let event_time = match (
        row.get::<_, Option<String>>(8)?,
        row.get::<_, Option<String>>(9)?,
        row.get::<_, Option<String>>(10)?,
    ) {
        (Some(expression), Some(start), Some(end)) => Some(EventTime {
            expression,
            start: parse_fixed(&start).map_err(|e| bad(9, e))?,
            end: parse_fixed(&end).map_err(|e| bad(10, e))?,
        }),
        _ => None,
    };
    let participants: Option<String> = row.get(18)?;
    let created_at = parse_utc(&row.get::<_, String>(19)?).map_err(|e| bad(19, e))?;
    let elapsed_days = (now - occurred_at).num_seconds() as f64 / 86_400.0;
    Ok(EpisodeView {
        id: EpisodeId(row.get(0)?),
        actor: row.get(1)?,
        role: role.parse().map_err(|e| bad(2, e))?,
        kind: kind.parse().map_err(|e| bad(3, e))?,
        text: row.get(4)?,
        salience,
        stability_days: stability,
        retrievability: retrievability(stability, elapsed_days),
        occurred_at,
        created_at,
        event_time,
        participants: participants
            .map(|p| p.split('\u{1f}').map(str::to_string).collect())
            .unwrap_or_default(),
        session_id: SessionId(row.get(11)?),
        session_external_id: row.get(12)?,
        message_id: MessageId(row.get(13)?),
        message_external_id: row.get(14)?,
        source: row.get(15)?,
        span: (
            row.get::<_, i64>(16)? as usize,
            row.get::<_, i64>(17)? as usize,
        ),
    })
}

/// Episodes newest first (by the time they were said, then id), `limit` from `offset`.
pub(crate) fn list(
    conn: &rusqlite::Connection,
    now: DateTime<Utc>,
    limit: usize,
    offset: usize,
) -> Result<Vec<EpisodeView>> {
    let sql = format!(
        "SELECT {EPISODE_COLUMNS} FROM {EPISODE_FROM} ORDER BY e.occurred_at DESC, e.id DESC LIMIT ?1 OFFSET ?2"
    );
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map([limit as i64, offset as i64], |r| from_row(r, now))?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}
