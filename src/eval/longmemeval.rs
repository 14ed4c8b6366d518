//! LongMemEval (Wu et al., ICLR 2025, arXiv 2410.10813) retrieval harness, official
//! protocol: each question has its own haystack of sessions; the user turns are indexed in a
//! fresh context per question (timestamps from `haystack_dates`, asked at `question_date`);
//! abstention questions (`_abs` ids) are skipped for recall and scored only on whether
//! nothing clears the threshold. Sessions are ranked by their best turn.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use chrono::{DateTime, Duration, FixedOffset, NaiveDateTime, TimeZone, Utc};
use serde_json::Value;

use super::retrieval::{Outcome, Protocol, Report, after_the_data, ask, reduce, scratch_engine};
use crate::embed::Embedder;
use crate::error::{Error, Result};
use crate::import::{NewMessage, NewSession};
use crate::model::Role;
use crate::recall::RecallQuery;

/// One turn of a haystack session: role, text, and whether it holds the answer.
pub type Turn = (String, String, bool);

/// One haystack session: its id, its date when readable, its turns.
pub type HaystackSession = (String, Option<DateTime<FixedOffset>>, Vec<Turn>);

/// One question with its haystack, as read leniently from the file.
#[derive(Debug, Clone)]
pub struct Item {
    /// `question_id`; ending `_abs` marks an abstention question.
    pub id: String,
    /// `question_type`.
    pub kind: String,
    /// The question.
    pub question: String,
    /// When it is asked.
    pub asked_at: Option<DateTime<FixedOffset>>,
    /// Sessions holding the answer.
    pub answer_sessions: HashSet<String>,
    /// The haystack: (session id, date, turns as (role, text, has_answer)).
    pub sessions: Vec<HaystackSession>,
}

impl Item {
    /// Whether the answer is absent from the history by design.
    pub fn is_abstention(&self) -> bool {
        self.id.ends_with("_abs")
    }
}

/// Reads "2023/05/20 (Sat) 02:21" (LongMemEval's date format) as UTC.
pub fn parse_date(s: &str) -> Option<DateTime<FixedOffset>> {
    let s = s.trim();
    NaiveDateTime::parse_from_str(s, "%Y/%m/%d (%a) %H:%M")
        .or_else(|_| NaiveDateTime::parse_from_str(s, "%Y/%m/%d %H:%M"))
        .ok()
        .map(|n| n.and_utc().fixed_offset())
}

/// Reads a LongMemEval file leniently: items without an id or question are skipped (counted
/// in the second value). Errors: [`Error::Io`], [`Error::Import`] for a file that is not a
/// JSON list.
pub fn items(path: &Path) -> Result<(Vec<Item>, usize)> {
    let fail = |reason: String| Error::Import {
        path: path.to_path_buf(),
        reason,
    };
    let root: Value = crate::import::read_json(path, "LongMemEval")?;
    let list = root
        .as_array()
        .ok_or_else(|| fail("not a LongMemEval file: expected a list of questions".into()))?;
    let mut out = Vec::new();
    let mut skipped = 0;
    for q in list {
        let s = |k: &str| q.get(k).and_then(Value::as_str).map(str::to_string);
        let (Some(id), Some(question)) = (s("question_id"), s("question")) else {
            skipped += 1;
            continue;
        };
        let strings = |k: &str| -> Vec<String> {
            q.get(k)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|v| match v {
                    Value::String(x) => x.clone(),
                    other => other.to_string(),
                })
                .collect()
        };
        let ids = strings("haystack_session_ids");
        let dates = strings("haystack_dates");
        let sessions = q
            .get("haystack_sessions")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
            .map(|(i, turns)| {
                let sid = ids
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| format!("session_{i}"));
                let date = dates.get(i).and_then(|d| parse_date(d));
                let turns = turns
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|t| {
                        let role = t
                            .get("role")
                            .and_then(Value::as_str)
                            .unwrap_or("user")
                            .to_string();
                        let text = t
                            .get("content")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string();
                        let has = t.get("has_answer").is_some_and(|v| {
                            v.as_bool().unwrap_or(false) || v.as_str() == Some("true")
                        });
                        (role, text, has)
                    })
                    .collect();
                (sid, date, turns)
            })
            .collect();
        out.push(Item {
            id,
            kind: s("question_type").unwrap_or_else(|| "unknown".into()),
            question,
            asked_at: s("question_date").and_then(|d| parse_date(&d)),
            answer_sessions: strings("answer_session_ids").into_iter().collect(),
            sessions,
        });
    }
    Ok((out, skipped))
}

/// The user turns of an item as sessions to import; a turn's external id is
/// `<session id>#<turn index>`.
pub fn haystack(item: &Item) -> Vec<NewSession> {
    let fallback = Utc
        .with_ymd_and_hms(2023, 1, 1, 0, 0, 0)
        .single()
        .unwrap_or_default()
        .fixed_offset();
    item.sessions
        .iter()
        .map(|(sid, date, turns)| NewSession {
            key: format!("longmemeval:{sid}"),
            messages: turns
                .iter()
                .enumerate()
                .filter(|(_, (role, text, _))| role == "user" && !text.trim().is_empty())
                .map(|(i, (_, text, _))| NewMessage {
                    external_id: Some(format!("{sid}#{i}")),
                    role: Role::User,
                    actor: "user".into(),
                    text: text.clone(),
                    sent_at: date.unwrap_or(fallback) + Duration::seconds(60 * i as i64),
                })
                .collect(),
        })
        .collect()
}

/// Runs the harness on a LongMemEval file; `limit` asks only the first questions (for CI).
/// `systems` are the rankings compared (usually [`super::retrieval::systems`]). `progress` gets a line per question. Errors: reading the file, import and recall errors.
pub fn evaluate(
    path: &Path,
    embedder: Arc<dyn Embedder>,
    limit: Option<usize>,
    systems: &[super::retrieval::System],
    progress: &mut dyn FnMut(String),
) -> Result<Report> {
    let (items, skipped) = items(path)?;
    // Haystacks of different questions share most sessions: embed each distinct text once.
    let embedder: Arc<dyn Embedder> =
        Arc::new(super::embed_cache::CachedEmbedder::from_env(embedder)?);
    let mut outcomes: BTreeMap<String, Vec<Outcome>> = BTreeMap::new();
    let mut notes: BTreeMap<String, usize> = BTreeMap::new();
    notes.insert("questions_skipped_unreadable".into(), skipped);
    // Diagnostics: `MINNE_EVAL_DUMP=FILE` appends one JSON line per question: its type, each
    // system's first turns ranked (id, score, whether it abstained), the focus recall saw, and
    // the text of the first turns of the first system, for reading abstention offline.
    let dump = std::env::var_os("MINNE_EVAL_DUMP").map(std::path::PathBuf::from);
    let n = limit.unwrap_or(items.len()).min(items.len());
    for (i, item) in items.iter().take(n).enumerate() {
        let at = item
            .asked_at
            .map(|t| t.to_utc())
            .unwrap_or_else(after_the_data);
        let (_scratch, _clock, mut engine) = scratch_engine(embedder.clone(), at)?;
        let sessions = haystack(item);
        let report = engine.import_sessions(&sessions, "longmemeval", &mut |_| {})?;
        let relevant_turns: HashSet<String> = item
            .sessions
            .iter()
            .flat_map(|(sid, _, turns)| {
                turns
                    .iter()
                    .enumerate()
                    .filter(|(_, (role, _, has))| *has && role == "user")
                    .map(move |(i, _)| format!("{sid}#{i}"))
            })
            .collect();
        if !item.is_abstention() && relevant_turns.is_empty() {
            *notes
                .entry("answerable_questions_without_user_evidence_turns".into())
                .or_default() += 1;
        }
        let mut line = format!(
            "{}/{n} {}: {} user turns",
            i + 1,
            item.id,
            report.messages_seen
        );
        let mut dumped: BTreeMap<String, Value> = BTreeMap::new();
        for system in systems {
            let (hits, latency_ms, abstained) = ask(&engine, &item.question, system)?;
            // Per system: the top score and whether it abstained, so a run's log shows where
            // the threshold and the abstention rules decided (answerable or `_abs`).
            line.push_str(&format!(
                " · {} {:.3}{}",
                system.name,
                hits.first().map_or(f64::NAN, |h| h.score),
                if abstained { " abstained" } else { "" }
            ));
            let (turns, sessions) = reduce(
                &hits,
                |h| h.episode.message_external_id.clone(),
                |t| t.rsplit_once('#').map_or(t, |(s, _)| s).to_string(),
            );
            if dump.is_some() {
                dumped.insert(
                    system.name.clone(),
                    serde_json::json!({
                        "abstained": abstained,
                        "turns": turns.iter().take(DUMP_DEPTH).collect::<Vec<_>>(),
                    }),
                );
            }
            outcomes
                .entry(system.name.clone())
                .or_default()
                .push(Outcome {
                    category: item.kind.clone(),
                    answerable: !item.is_abstention(),
                    relevant_turns: relevant_turns.clone(),
                    relevant_sessions: item.answer_sessions.clone(),
                    turns,
                    sessions,
                    latency_ms,
                    abstained,
                });
        }
        // What the question is about against what the memories hold (`recall::Focus`).
        let focus = engine
            .recall_explained(&RecallQuery::new(item.question.clone()), 0)?
            .focus;
        if !focus.absent.is_empty() {
            line.push_str(&format!(
                " · absent {:?} share {:.2} modifiers {:?} nearest {:?}",
                focus.absent, focus.absent_share, focus.modifiers, focus.nearest
            ));
        }
        if let Some(path) = &dump {
            write_dump(path, item, &dumped, &focus)?;
        }
        progress(line);
    }
    Ok(Report {
        dataset: "longmemeval".into(),
        model: embedder.model_id().to_string(),
        protocol: Protocol::LongMemEval,
        ks: Protocol::LongMemEval.ks().to_vec(),
        outcomes,
        thresholds: systems
            .iter()
            .map(|s| {
                let model = embedder.model_id();
                let t = s
                    .threshold
                    .unwrap_or_else(|| crate::recall::default_threshold_for(model));
                (s.name.clone(), t)
            })
            .collect(),
        data_notes: notes,
    })
}

/// Turns per system written by `MINNE_EVAL_DUMP`.
const DUMP_DEPTH: usize = 20;
/// Turns whose text is written by `MINNE_EVAL_DUMP` (of the first system).
const DUMP_TEXTS: usize = 10;

/// Appends one JSON line for `item` to `path` (see `MINNE_EVAL_DUMP` in [`evaluate`]).
fn write_dump(
    path: &Path,
    item: &Item,
    systems: &BTreeMap<String, Value>,
    focus: &crate::recall::Focus,
) -> Result<()> {
    let text_of = |turn: &str| -> Option<String> {
        let (sid, i) = turn.rsplit_once('#')?;
        let i: usize = i.parse().ok()?;
        let (_, _, turns) = item.sessions.iter().find(|(s, _, _)| s == sid)?;
        turns.get(i).map(|(_, t, _)| t.clone())
    };
    let first = systems
        .get("minne")
        .or_else(|| systems.values().next())
        .and_then(|v| v.get("turns"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let texts: Vec<Value> = first
        .iter()
        .take(DUMP_TEXTS)
        .filter_map(|t| t.get(0).and_then(Value::as_str))
        .map(|id| serde_json::json!([id, text_of(id)]))
        .collect();
    let line = serde_json::json!({
        "id": item.id,
        "kind": item.kind,
        "answerable": !item.is_abstention(),
        "question": item.question,
        "answer_sessions": item.answer_sessions,
        "systems": systems,
        "focus": focus,
        "texts": texts,
    });
    super::locomo::dump_line(path, &line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_longmemeval_dates() {
        let t = parse_date("2023/05/20 (Sat) 02:21").map(|t| t.to_rfc3339());
        assert_eq!(t.as_deref(), Some("2023-05-20T02:21:00+00:00"));
        assert_eq!(
            parse_date("yesterday"),
            None,
            "unreadable dates fall back, never crash"
        );
    }
}
