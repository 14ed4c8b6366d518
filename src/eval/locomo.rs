//! LoCoMo evaluation (Maharana et al., ACL 2024): questions with evidence turn ids, and the
//! retrieval harness over them ([`evaluate`]).

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use chrono::Duration;
use serde::Deserialize;
use serde_json::Value;

use super::retrieval::{Outcome, Protocol, Report, after_the_data, ask, reduce, scratch_engine};
use crate::embed::Embedder;
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::import::{ImportFormat, ImportOptions};

/// One LoCoMo question.
#[derive(Debug, Clone, Deserialize)]
pub struct Question {
    /// The question.
    pub question: String,
    /// 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial (unanswerable).
    pub category: u8,
    /// Evidence turn ids as written in the file (sometimes malformed; see
    /// [`normalise_evidence`]).
    #[serde(default)]
    pub evidence: Vec<String>,
}

#[derive(Deserialize)]
struct Sample {
    sample_id: String,
    #[serde(default)]
    qa: Vec<Question>,
}

/// Reads the questions of one sample of a LoCoMo file. Errors: [`Error::Io`],
/// [`Error::Import`] for a file that is not LoCoMo or lacks the sample.
pub fn questions(path: &Path, sample_id: &str) -> Result<Vec<Question>> {
    let text = crate::import::read_text(path)?;
    let samples: Vec<Sample> = serde_json::from_str(&text).map_err(|e| Error::Import {
        path: path.to_path_buf(),
        reason: crate::import::json_error(&e, "LoCoMo"),
    })?;
    samples
        .into_iter()
        .find(|s| s.sample_id == sample_id)
        .map(|s| s.qa)
        .ok_or_else(|| Error::Import {
            path: path.to_path_buf(),
            reason: format!("no sample `{sample_id}`"),
        })
}

/// Normalises LoCoMo evidence ids to `D<session>:<turn>` without leading zeros. The file has
/// a few malformed ones: `"D8:6; D9:17"` (two in one), `"D:11:26"` (extra colon), `"D30:05"`
/// (leading zero). Anything else unreadable is dropped; the caller counts what is left.
pub fn normalise_evidence(raw: &str) -> Vec<String> {
    raw.split([';', ',', ' '])
        .filter_map(|part| {
            let digits: Vec<u32> = part
                .trim()
                .strip_prefix('D')?
                .split(':')
                .filter(|s| !s.is_empty())
                .map(|s| s.trim().parse().ok())
                .collect::<Option<_>>()?;
            match digits.as_slice() {
                [session, turn] => Some(format!("D{session}:{turn}")),
                _ => None,
            }
        })
        .collect()
}

/// One sample's questions as read leniently from any LoCoMo-shaped file.
#[derive(Debug, Clone)]
pub struct SampleQuestions {
    /// The sample id (`conv-26`).
    pub sample_id: String,
    /// Its readable questions.
    pub questions: Vec<Question>,
    /// Questions skipped because they had no question text or no category.
    pub skipped: usize,
}

/// Reads every sample's questions, leniently: a question without text or category is counted
/// and skipped; evidence may be a list or a single string. Errors: [`Error::Io`], and
/// [`Error::Import`] when the file is not a JSON list of samples.
pub fn all_questions(path: &Path) -> Result<Vec<SampleQuestions>> {
    let fail = |reason: String| Error::Import {
        path: path.to_path_buf(),
        reason,
    };
    let root: Value = crate::import::read_json(path, "LoCoMo")?;
    let samples = root
        .as_array()
        .ok_or_else(|| fail("not a LoCoMo file: expected a list of samples".into()))?;
    let mut out = Vec::new();
    for s in samples {
        let Some(sample_id) = s.get("sample_id").and_then(Value::as_str) else {
            continue;
        };
        let mut questions = Vec::new();
        let mut skipped = 0;
        for q in s.get("qa").and_then(Value::as_array).into_iter().flatten() {
            let question = q.get("question").and_then(Value::as_str);
            let category = q
                .get("category")
                .and_then(|c| c.as_u64().or_else(|| c.as_str()?.trim().parse().ok()));
            let (Some(question), Some(category)) = (question, category) else {
                skipped += 1;
                continue;
            };
            let evidence = match q.get("evidence") {
                Some(Value::Array(xs)) => xs
                    .iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect(),
                Some(Value::String(x)) => vec![x.clone()],
                _ => Vec::new(),
            };
            questions.push(Question {
                question: question.to_string(),
                category: category.min(255) as u8,
                evidence,
            });
        }
        out.push(SampleQuestions {
            sample_id: sample_id.to_string(),
            questions,
            skipped,
        });
    }
    Ok(out)
}

/// Runs the retrieval harness on a LoCoMo file: for each sample (or only `sample`), every turn
/// of both speakers is imported into a fresh context with `embedder`, then every question is
/// asked of Minne, BM25 alone and dense alone. Category 5 (adversarial) counts toward
/// abstention only. `progress` gets a line per sample.
/// Errors: reading the file, an unknown sample, import and recall errors.
pub fn evaluate(
    path: &Path,
    embedder: Arc<dyn Embedder>,
    sample: Option<&str>,
    systems: &[super::retrieval::System],
    progress: &mut dyn FnMut(String),
) -> Result<Report> {
    let samples = all_questions(path)?;
    let chosen: Vec<&SampleQuestions> = samples
        .iter()
        .filter(|s| sample.is_none_or(|id| s.sample_id == id))
        .collect();
    if chosen.is_empty() {
        let ids: Vec<&str> = samples.iter().map(|s| s.sample_id.as_str()).collect();
        return Err(Error::InvalidInput(format!(
            "no sample `{}` in {}; it has: {}",
            sample.unwrap_or(""),
            path.display(),
            ids.join(", ")
        )));
    }
    // With `MINNE_EVAL_EMBED_CACHE` set, a second run embeds nothing it has embedded before.
    let embedder: Arc<dyn Embedder> =
        Arc::new(super::embed_cache::CachedEmbedder::from_env(embedder)?);
    let mut outcomes: BTreeMap<String, Vec<Outcome>> = BTreeMap::new();
    // Diagnostics: `MINNE_EVAL_DUMP=FILE` appends one JSON line per question and system with
    // the evidence and the first 50 turns ranked, for reading where a ranking goes wrong.
    let dump = std::env::var_os("MINNE_EVAL_DUMP").map(std::path::PathBuf::from);
    let mut notes: BTreeMap<String, usize> = BTreeMap::new();
    for s in chosen {
        *notes
            .entry("questions_skipped_unreadable".into())
            .or_default() += s.skipped;
        let (_scratch, clock, mut engine) = scratch_engine(embedder.clone(), after_the_data())?;
        let options = ImportOptions {
            sample: Some(s.sample_id.clone()),
            ..ImportOptions::new(ImportFormat::Locomo)
        };
        let report = engine.import(path, &options, &mut |_| {})?;
        // Questions are asked the day after the conversation's last turn.
        if let Some(last) = engine.list_episodes(1, 0)?.first() {
            clock.set(last.occurred_at + Duration::days(1));
        }
        let turns: HashSet<String> = known_turns(&engine)?;
        progress(format!(
            "{}: {} turns imported, {} questions",
            s.sample_id,
            report.messages_seen,
            s.questions.len()
        ));
        for q in &s.questions {
            let raw: Vec<String> = q
                .evidence
                .iter()
                .flat_map(|e| normalise_evidence(e))
                .collect();
            let unreadable = q
                .evidence
                .iter()
                .filter(|e| normalise_evidence(e).is_empty())
                .count();
            *notes.entry("evidence_ids_unreadable".into()).or_default() += unreadable;
            let relevant: HashSet<String> = raw
                .iter()
                .filter(|id| turns.contains(*id))
                .cloned()
                .collect();
            *notes
                .entry("evidence_ids_pointing_nowhere".into())
                .or_default() += raw.iter().filter(|id| !turns.contains(*id)).count();
            let answerable = q.category != 5;
            if answerable && relevant.is_empty() {
                *notes
                    .entry("answerable_questions_without_evidence".into())
                    .or_default() += 1;
            }
            for system in systems {
                let (hits, latency_ms, abstained) = ask(&engine, &q.question, system)?;
                let (turns, sessions) = reduce(
                    &hits,
                    |h| h.episode.message_external_id.clone(),
                    |t| t.split(':').next().unwrap_or(t).to_string(),
                );
                outcomes
                    .entry(system.name.clone())
                    .or_default()
                    .push(Outcome {
                        category: q.category.to_string(),
                        answerable,
                        relevant_turns: relevant.clone(),
                        relevant_sessions: HashSet::new(),
                        turns,
                        sessions,
                        latency_ms,
                        abstained,
                    });
                if let Some(dump) = &dump {
                    let o = outcomes.get(&system.name).and_then(|v| v.last());
                    let line = serde_json::json!({
                        "sample": s.sample_id, "system": system.name,
                        "question": q.question, "category": q.category,
                        "evidence": relevant,
                        "turns": o.map(|o| o.turns.iter().take(50).collect::<Vec<_>>()),
                        "abstained": abstained,
                    });
                    dump_line(dump, &line)?;
                }
            }
        }
    }
    Ok(Report {
        dataset: "locomo".into(),
        model: embedder.model_id().to_string(),
        protocol: Protocol::Locomo,
        ks: Protocol::Locomo.ks().to_vec(),
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

/// Appends `line` as one JSON line to `path`.
pub(super) fn dump_line(path: &Path, line: &Value) -> Result<()> {
    use std::io::Write;
    let io = |source| Error::Io {
        action: "cannot append to",
        path: path.to_path_buf(),
        source,
    };
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io)?;
    writeln!(f, "{line}").map_err(io)
}

/// The external ids of every stored message (LoCoMo `dia_id`s).
fn known_turns(engine: &Engine) -> Result<HashSet<String>> {
    let mut stmt = engine
        .store
        .conn()
        .prepare("SELECT external_id FROM messages WHERE external_id IS NOT NULL")?;
    let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("D1:3", &["D1:3"])]
    #[case("D8:6; D9:17", &["D8:6", "D9:17"])]
    #[case("D:11:26", &["D11:26"])]
    #[case("D30:05", &["D30:5"])]
    #[case("D", &[])]
    #[case("session 3", &[])]
    fn evidence_ids_are_normalised(#[case] raw: &str, #[case] want: &[&str]) {
        assert_eq!(
            normalise_evidence(raw),
            want,
            "the dataset's malformed ids must still match turns"
        );
    }
}
