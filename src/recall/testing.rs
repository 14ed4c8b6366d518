//! Test helpers shared by the recall modules' unit tests.

use super::{RecallHit, ScoreParts};
use crate::episodes::EpisodeView;
use crate::model::{ActKind, EpisodeId, MessageId, Role, Salience, SessionId, Stability};

/// A recalled user observation with id `id` and words `text`: relevance and score 0.8,
/// said at 2026-05-28 20:26:40 UTC, three days old.
pub(crate) fn hit(id: i64, text: &str) -> RecallHit {
    RecallHit {
        episode: EpisodeView {
            id: EpisodeId(id),
            actor: "user".into(),
            role: Role::User,
            kind: ActKind::Observation,
            text: text.into(),
            salience: Salience::clamped(0.5),
            stability_days: Stability::new(10.0).expect("positive days"),
            retrievability: 0.9,
            occurred_at: chrono::DateTime::from_timestamp(1_780_000_000, 0).expect("a time"),
            created_at: chrono::DateTime::from_timestamp(1_780_000_000, 0).expect("a time"),
            event_time: None,
            participants: Vec::new(),
            session_id: SessionId(1),
            session_external_id: "s".into(),
            message_id: MessageId(id),
            message_external_id: None,
            source: "test".into(),
            span: (0, text.len()),
        },
        score: 0.8,
        parts: ScoreParts {
            similarity: 0.8,
            lexical: 0.5,
            relevance: 0.8,
            from_neighbour: false,
            retrievability: 0.9,
            salience: 0.5,
            person_match: false,
        },
        age_days: 3.0,
        conflict_with: Vec::new(),
    }
}
