//! Recall: the right memories back, or none (seed 000).
//!
//! `score = α·similarity + β·retrievability + γ·salience` (Generative Agents' linear score as
//! seed 000 gives it, defaults α = 0.6, β = 0.2, γ = 0.2), where similarity is the cosine of
//! the query and episode embeddings and retrievability follows the FSRS-4.5 curve. Results
//! are the top `k` that also clear an absolute `threshold`: without it, recall would always
//! return `k` memories even when none is relevant.

use chrono::{DateTime, Utc};
use rusqlite::params_from_iter;
use serde::Serialize;

use crate::embed::cosine;
use crate::engine::Engine;
use crate::episodes::{EPISODE_COLUMNS, EPISODE_FROM, EpisodeView, from_row};
use crate::error::{Error, Result};
use crate::fade::retrievability;
use crate::model::{EpisodeId, Stability};
use crate::store::{blob_to_vector, parse_utc};

/// Seed 000's default number of memories returned.
pub const DEFAULT_K: usize = 3;
/// Seed 000's default absolute threshold on the final score.
pub const DEFAULT_THRESHOLD: f64 = 0.45;

/// The weights of the final score; seed 000's defaults, plus a person bonus.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Weights {
    /// Weight of similarity (α).
    pub similarity: f64,
    /// Weight of retrievability (β).
    pub retrievability: f64,
    /// Weight of salience (γ).
    pub salience: f64,
    /// Added when the query names a person who is the episode's speaker or participant.
    pub person: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights { similarity: 0.6, retrievability: 0.2, salience: 0.2, person: 0.1 }
    }
}

/// A recall request.
#[derive(Debug, Clone)]
pub struct RecallQuery {
    /// What to recall.
    pub text: String,
    /// At most this many results.
    pub k: usize,
    /// Results must score at least this (in `[0, 1]` for the default weights).
    pub threshold: f64,
    /// The weights of the score.
    pub weights: Weights,
}

impl RecallQuery {
    /// A query with seed 000's defaults: `k = 3`, threshold 0.45, α/β/γ = 0.6/0.2/0.2.
    pub fn new(text: impl Into<String>) -> Self {
        RecallQuery {
            text: text.into(),
            k: DEFAULT_K,
            threshold: DEFAULT_THRESHOLD,
            weights: Weights::default(),
        }
    }
}

/// The parts of a score, before weighting.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ScoreParts {
    /// Cosine similarity of query and episode, in `[-1, 1]`.
    pub similarity: f64,
    /// Retrievability now, in `(0, 1]`.
    pub retrievability: f64,
    /// Salience, in `[0, 1]`.
    pub salience: f64,
    /// Whether a person the query names is this episode's speaker or a participant.
    pub person_match: bool,
}

/// One recalled episode with its score and the parts it is made of.
#[derive(Debug, Clone, Serialize)]
pub struct RecallHit {
    /// The episode and its provenance.
    pub episode: EpisodeView,
    /// The final score.
    pub score: f64,
    /// The unweighted parts.
    pub parts: ScoreParts,
    /// Days since it was said.
    pub age_days: f64,
}

/// A scored candidate before it is loaded in full.
#[derive(Debug, Clone, Copy)]
struct Scored {
    id: EpisodeId,
    score: f64,
    parts: ScoreParts,
    age_days: f64,
}

impl Engine {
    /// Recalls the episodes most relevant to `query.text`: the top `k` by score that also
    /// score at least `threshold`, best first. Empty when nothing is relevant enough.
    /// Errors: [`Error::InvalidInput`] for an empty query; embedding and database errors.
    pub fn recall(&self, query: &RecallQuery) -> Result<Vec<RecallHit>> {
        if query.text.trim().is_empty() {
            return Err(Error::InvalidInput("the recall query is empty: say what to recall".into()));
        }
        let now = self.clock.now();
        let people = self.people_named_in(&query.text)?;
        // A turn never carries its own speaker's name, so a name in the query pulls the
        // query vector toward the wrong turns: embed the query without the names and let them
        // act on the speaker and participants instead.
        let stripped = strip_names(&query.text, &people);
        let embedded = if stripped.trim().is_empty() { query.text.as_str() } else { stripped.as_str() };
        let q = self.embedder.embed_query(embedded)?;
        let mut scored = self.score_all(&q, &query.weights, &people, now)?;
        scored.retain(|s| s.score >= query.threshold);
        scored.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.id.cmp(&b.id)));
        scored.truncate(query.k);
        self.load_hits(&scored, now)
    }

    /// The speakers and participants of this context whose names the query contains
    /// (whole words, any case), lowercased.
    fn people_named_in(&self, query: &str) -> Result<Vec<String>> {
        let mut stmt = self.store.conn().prepare_cached(
            "SELECT DISTINCT actor FROM episodes UNION SELECT DISTINCT name FROM episode_participants",
        )?;
        let names = stmt.query_map([], |r| r.get::<_, String>(0))?.collect::<rusqlite::Result<Vec<_>>>()?;
        let words = query_words(query);
        Ok(names
            .into_iter()
            .map(|n| n.to_lowercase())
            .filter(|n| n != "user" && n != "assistant" && !n.is_empty())
            .filter(|n| {
                let parts: Vec<&str> = n.split_whitespace().collect();
                words.windows(parts.len()).any(|w| w == parts.as_slice())
            })
            .collect())
    }

    fn score_all(&self, q: &[f32], w: &Weights, people: &[String], now: DateTime<Utc>) -> Result<Vec<Scored>> {
        let mut stmt = self.store.conn().prepare_cached(
            "SELECT e.id, x.vector, e.occurred_at, e.stability_days, e.salience, lower(e.actor),
                    (SELECT group_concat(lower(p.name), char(31)) FROM episode_participants p WHERE p.episode_id = e.id)
             FROM embeddings x JOIN episodes e ON e.id = x.episode_id WHERE x.model_id = ?1",
        )?;
        let mut rows = stmt.query([self.embedder.model_id()])?;
        let mut out = Vec::new();
        while let Some(row) = rows.next()? {
            let blob: Vec<u8> = row.get(1)?;
            let Some(v) = blob_to_vector(&blob).filter(|v| v.len() == q.len()) else {
                continue;
            };
            let occurred_at = parse_utc(&row.get::<_, String>(2)?)?;
            let stability = Stability::new(row.get(3)?)?;
            let age_days = (now - occurred_at).num_seconds() as f64 / 86_400.0;
            let person_match = !people.is_empty() && {
                let actor: String = row.get(5)?;
                let participants: Option<String> = row.get(6)?;
                people.iter().any(|p| {
                    *p == actor || participants.as_deref().is_some_and(|ps| ps.split('\u{1f}').any(|n| n == p))
                })
            };
            let parts = ScoreParts {
                similarity: f64::from(cosine(q, &v)),
                retrievability: retrievability(stability, age_days),
                salience: row.get(4)?,
                person_match,
            };
            let score = w.similarity * parts.similarity
                + w.retrievability * parts.retrievability
                + w.salience * parts.salience
                + if person_match { w.person } else { 0.0 };
            out.push(Scored { id: EpisodeId(row.get(0)?), score, parts, age_days });
        }
        Ok(out)
    }

    fn load_hits(&self, scored: &[Scored], now: DateTime<Utc>) -> Result<Vec<RecallHit>> {
        if scored.is_empty() {
            return Ok(Vec::new());
        }
        let placeholders = vec!["?"; scored.len()].join(",");
        let sql = format!("SELECT {EPISODE_COLUMNS} FROM {EPISODE_FROM} WHERE e.id IN ({placeholders})");
        let mut stmt = self.store.conn().prepare(&sql)?;
        let views = stmt
            .query_map(params_from_iter(scored.iter().map(|s| s.id.0)), |r| from_row(r, now))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(scored
            .iter()
            .filter_map(|s| {
                let episode = views.iter().find(|v| v.id == s.id)?.clone();
                Some(RecallHit { episode, score: s.score, parts: s.parts, age_days: s.age_days })
            })
            .collect())
    }
}

/// The query's words, lowercased, with possessive endings (`'s`, `’s`) dropped.
fn query_words(query: &str) -> Vec<String> {
    query
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’' || c == '-'))
        .filter(|w| !w.is_empty())
        .map(|w| {
            let w = w.to_lowercase();
            let w = w.strip_suffix("'s").or_else(|| w.strip_suffix("’s")).unwrap_or(&w).to_string();
            w.trim_matches(|c| c == '\'' || c == '’').to_string()
        })
        .collect()
}

/// The query with the named people's words removed.
fn strip_names(query: &str, people: &[String]) -> String {
    if people.is_empty() {
        return query.to_string();
    }
    let drop: Vec<&str> = people.iter().flat_map(|p| p.split_whitespace()).collect();
    query
        .split_whitespace()
        .filter(|w| {
            let bare = query_words(w);
            !(bare.len() == 1 && drop.contains(&bare[0].as_str()))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_stripped_with_their_possessive() {
        let people = vec!["melanie".to_string()];
        assert_eq!(
            strip_names("What did Melanie's kids make?", &people),
            "What did kids make?",
            "the name, possessive included, goes; the rest of the question stays"
        );
        assert_eq!(strip_names("What about Mel?", &people), "What about Mel?", "only whole names match");
    }
}
