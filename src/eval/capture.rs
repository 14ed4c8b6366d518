//! Capture evaluation: runs the rule-based extractor over a labelled file in the format of
//! `shared/data/capture/README.md` (`dev.json` and the held-out sets) and measures it.
//!
//! For each item the speaker's baseline is built from `speaker_history` (one
//! [`ToneBaseline::update`] per earlier message), the message is encoded with
//! [`rules::extract`], and each episode is weighed with [`capture::weigh`] at the message's
//! intensity, as the engine does at capture time.
//!
//! # Metrics
//! Expected and predicted episodes of an item are *matched* one to one, order-free: a
//! predicted episode can match an expected one when every `must_contain` string occurs in its
//! text (case-insensitive substring). Among all one-to-one matchings the one with the most
//! matches wins, then the most equal kinds, then the most equal times.
//! - `segmentation_precision`: matched / predicted episodes, over all items.
//! - `segmentation_recall`: matched / expected episodes.
//! - `act_kind_accuracy`: matched pairs with the expected kind / matched pairs.
//!   (`act_kind_accuracy_over_expected` counts unmatched expected episodes as wrong.)
//! - `time_exact_match`: matched pairs whose time agrees / matched pairs. Both `null` agrees;
//!   two intervals agree when start and end are the same instants written in the same UTC
//!   offset. The expression text is not compared (the labels sometimes join two phrases).
//! - `participants_exact_match`: matched pairs with the same set of names (case-insensitive).
//! - `salience_order_agreement`: satisfied comparisons / comparisons, over every "higher
//!   than X", "lower than X" and "about equal to X" in `salience_rank_note`. An item's
//!   salience is the highest salience among its predicted episodes (0 when there are none).
//!   "about equal" holds when the two differ by at most [`ABOUT_EQUAL_TOLERANCE`]; "higher"
//!   and "lower" need a difference larger than that.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::{DateTime, FixedOffset};
use serde::{Deserialize, Serialize};

use crate::capture::tone::{Tone, ToneBaseline};
use crate::capture::{self, rules};
use crate::error::{Error, Result};
use crate::model::{ActKind, MessageInput, Role};

/// Largest salience difference still read as "about equal" in a rank note.
pub const ABOUT_EQUAL_TOLERANCE: f64 = 0.05;

/// What [`evaluate`] measured. Ratios are in `[0, 1]`; a ratio over an empty set is 1.
#[derive(Debug, Clone, Serialize)]
pub struct CaptureEvalReport {
    /// Items in the file.
    pub items: usize,
    /// Expected episodes in the file.
    pub expected_episodes: usize,
    /// Episodes the extractor produced.
    pub predicted_episodes: usize,
    /// Expected episodes matched to a predicted one.
    pub matched_episodes: usize,
    /// Matched pairs whose kind is right, over matched pairs.
    pub act_kind_accuracy: f64,
    /// Matched pairs whose kind is right, over all expected episodes.
    pub act_kind_accuracy_over_expected: f64,
    /// Matched over predicted episodes.
    pub segmentation_precision: f64,
    /// Matched over expected episodes.
    pub segmentation_recall: f64,
    /// Matched pairs whose time agrees, over matched pairs.
    pub time_exact_match: f64,
    /// Matched pairs with the same participants, over matched pairs.
    pub participants_exact_match: f64,
    /// Satisfied salience comparisons, over all comparisons in the rank notes.
    pub salience_order_agreement: f64,
    /// Number of salience comparisons found in the rank notes.
    pub salience_comparisons: usize,
    /// The tolerance used for "about equal".
    pub about_equal_tolerance: f64,
    /// Expected kind → predicted kind → count, over expected episodes; an unmatched expected
    /// episode counts under predicted `(missed)`, an unmatched predicted one under expected
    /// `(spurious)`.
    pub confusion: BTreeMap<String, BTreeMap<String, usize>>,
    /// Items with at least one problem, and what went wrong.
    pub failures: Vec<ItemFailure>,
}

/// The problems found in one item.
#[derive(Debug, Clone, Serialize)]
pub struct ItemFailure {
    /// The item id.
    pub id: String,
    /// One line per problem.
    pub problems: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct Item {
    id: String,
    #[serde(default)]
    speaker_history: Vec<HistoryMessage>,
    message: Message,
    expected_episodes: Vec<ExpectedEpisode>,
    #[serde(default)]
    salience_rank_note: Option<String>,
}

#[derive(Debug, Deserialize)]
struct HistoryMessage {
    text: String,
}

#[derive(Debug, Deserialize)]
struct Message {
    role: String,
    text: String,
    timestamp: String,
}

#[derive(Debug, Deserialize)]
struct ExpectedEpisode {
    kind: String,
    #[serde(default)]
    must_contain: Vec<String>,
    #[serde(default)]
    when: Option<ExpectedWhen>,
    #[serde(default)]
    participants: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct ExpectedWhen {
    start: String,
    end: String,
}

/// One expected episode, parsed.
struct Expected {
    kind: ActKind,
    must_contain: Vec<String>,
    when: Option<(DateTime<FixedOffset>, DateTime<FixedOffset>)>,
    participants: Vec<String>,
}

/// One predicted episode with its salience.
struct Predicted {
    episode: rules::Extracted,
    salience: f64,
}

/// Reads a capture label file and measures the extractor on it.
///
/// Errors: [`Error::Io`] when the file cannot be read, [`Error::Import`] when it is not a JSON
/// array of items in the documented format (the reason names the item and field).
pub fn evaluate(path: &Path) -> Result<CaptureEvalReport> {
    let raw = std::fs::read_to_string(path).map_err(|source| Error::Io {
        action: "cannot read",
        path: path.to_path_buf(),
        source,
    })?;
    let items: Vec<Item> = serde_json::from_str(&raw).map_err(|e| import(path, format!(
        "not a capture label file (a JSON array of items as in shared/data/capture/README.md): {e}"
    )))?;
    let mut tally = Tally::default();
    let mut saliences: BTreeMap<String, f64> = BTreeMap::new();
    for item in &items {
        let (predicted, expected) = run_item(path, item)?;
        let top = predicted.iter().map(|p| p.salience).fold(0.0, f64::max);
        saliences.insert(item.id.clone(), top);
        tally.score(&item.id, &expected, &predicted);
    }
    let (agree, comparisons, salience_problems) = salience_agreement(&items, &saliences);
    for (id, problem) in salience_problems {
        tally.problem(&id, problem);
    }
    Ok(tally.report(items.len(), agree, comparisons))
}

fn import(path: &Path, reason: String) -> Error {
    Error::Import {
        path: PathBuf::from(path),
        reason,
    }
}

fn parse_time(path: &Path, id: &str, field: &str, s: &str) -> Result<DateTime<FixedOffset>> {
    DateTime::parse_from_rfc3339(s).map_err(|e| {
        import(
            path,
            format!("item {id}: {field} `{s}` is not an RFC 3339 time: {e}"),
        )
    })
}

fn run_item(path: &Path, item: &Item) -> Result<(Vec<Predicted>, Vec<Expected>)> {
    let id = &item.id;
    let role: Role = item
        .message
        .role
        .parse()
        .map_err(|e| import(path, format!("item {id}: {e}")))?;
    let timestamp = parse_time(path, id, "message timestamp", &item.message.timestamp)?;
    let baseline = ToneBaseline::from_history(item.speaker_history.iter().map(|h| h.text.as_str()));
    let intensity = baseline.intensity(&Tone::of(&item.message.text));
    let input = MessageInput {
        role,
        text: &item.message.text,
        timestamp,
        zone: None,
    };
    let predicted = rules::extract(&input)
        .into_iter()
        .map(|episode| {
            let salience = capture::weigh(episode.kind, intensity).get();
            Predicted { episode, salience }
        })
        .collect();
    let mut expected = Vec::with_capacity(item.expected_episodes.len());
    for e in &item.expected_episodes {
        let kind: ActKind = e
            .kind
            .parse()
            .map_err(|err| import(path, format!("item {id}: {err}")))?;
        let when = match &e.when {
            Some(w) => Some((
                parse_time(path, id, "when.start", &w.start)?,
                parse_time(path, id, "when.end", &w.end)?,
            )),
            None => None,
        };
        expected.push(Expected {
            kind,
            must_contain: e.must_contain.clone(),
            when,
            participants: e.participants.clone(),
        });
    }
    Ok((predicted, expected))
}

/// Whether the episode holds every string: in its quoted text, or as one of its participants
/// (a pronoun resolved to a named person puts the name on the record, not in the quote).
fn contains_all(episode: &rules::Extracted, needles: &[String]) -> bool {
    let hay = episode.text.to_lowercase();
    needles.iter().all(|n| {
        let n = n.to_lowercase();
        // A person named through a pronoun is on the record as a participant; a needle matches
        // the whole name or one of its words ("Karsten" in "Karsten Møller").
        hay.contains(&n)
            || episode.participants.iter().any(|p| {
                let p = p.to_lowercase();
                p == n || p.split_whitespace().any(|w| w == n)
            })
    })
}

fn same_time(e: &Expected, p: &rules::Extracted) -> bool {
    match (&e.when, &p.when) {
        (None, None) => true,
        (Some((s, t)), Some(w)) => {
            *s == w.start
                && *t == w.end
                && s.offset() == w.start.offset()
                && t.offset() == w.end.offset()
        }
        _ => false,
    }
}

fn same_people(e: &Expected, p: &rules::Extracted) -> bool {
    let norm = |v: &[String]| {
        let mut v: Vec<String> = v.iter().map(|s| s.to_lowercase()).collect();
        v.sort();
        v.dedup();
        v
    };
    norm(&e.participants) == norm(&p.participants)
}

/// The best one-to-one matching: for each expected episode, the index of its predicted one.
fn best_matching(expected: &[Expected], predicted: &[Predicted]) -> Vec<Option<usize>> {
    let value = |i: usize, j: usize| -> Option<u32> {
        let (e, p) = (&expected[i], &predicted[j].episode);
        contains_all(p, &e.must_contain)
            .then(|| 10_000 + 100 * u32::from(e.kind == p.kind) + u32::from(same_time(e, p)))
    };
    if expected.len() > 6 || predicted.len() > 8 {
        // Too many for an exhaustive search: greedy, each expected takes its best free match.
        let mut used = vec![false; predicted.len()];
        return (0..expected.len())
            .map(|i| {
                let j = (0..predicted.len())
                    .filter(|&j| !used[j])
                    .max_by_key(|&j| value(i, j))?;
                value(i, j)?;
                used[j] = true;
                Some(j)
            })
            .collect();
    }
    fn search(
        i: usize,
        n: usize,
        used: &mut Vec<bool>,
        value: &dyn Fn(usize, usize) -> Option<u32>,
        current: &mut Vec<Option<usize>>,
        best: &mut (u32, Vec<Option<usize>>),
        score: u32,
    ) {
        if i == current.len() {
            if score > best.0 || best.1.is_empty() {
                *best = (score, current.clone());
            }
            return;
        }
        current[i] = None;
        search(i + 1, n, used, value, current, best, score);
        for j in 0..n {
            if let (false, Some(v)) = (used[j], value(i, j)) {
                used[j] = true;
                current[i] = Some(j);
                search(i + 1, n, used, value, current, best, score + v);
                used[j] = false;
                current[i] = None;
            }
        }
    }
    let mut best = (0, Vec::new());
    let mut current = vec![None; expected.len()];
    search(
        0,
        predicted.len(),
        &mut vec![false; predicted.len()],
        &value,
        &mut current,
        &mut best,
        0,
    );
    if best.1.is_empty() {
        vec![None; expected.len()]
    } else {
        best.1
    }
}

#[derive(Default)]
struct Tally {
    expected: usize,
    predicted: usize,
    matched: usize,
    kind_right: usize,
    time_right: usize,
    people_right: usize,
    confusion: BTreeMap<String, BTreeMap<String, usize>>,
    failures: BTreeMap<String, Vec<String>>,
}

impl Tally {
    fn problem(&mut self, id: &str, problem: String) {
        self.failures
            .entry(id.to_string())
            .or_default()
            .push(problem);
    }

    fn count(&mut self, expected: &str, predicted: &str) {
        *self
            .confusion
            .entry(expected.to_string())
            .or_default()
            .entry(predicted.to_string())
            .or_default() += 1;
    }

    fn score(&mut self, id: &str, expected: &[Expected], predicted: &[Predicted]) {
        let matching = best_matching(expected, predicted);
        self.expected += expected.len();
        self.predicted += predicted.len();
        for (i, e) in expected.iter().enumerate() {
            let label = format!("expected {} {:?}", e.kind, e.must_contain);
            let Some(j) = matching[i] else {
                self.count(e.kind.as_str(), "(missed)");
                self.problem(id, format!("{label}: no predicted episode contains it"));
                continue;
            };
            let p = &predicted[j].episode;
            self.matched += 1;
            self.count(e.kind.as_str(), p.kind.as_str());
            if e.kind == p.kind {
                self.kind_right += 1;
            } else {
                self.problem(
                    id,
                    format!("{label}: predicted kind {} for {:?}", p.kind, p.text),
                );
            }
            if same_time(e, p) {
                self.time_right += 1;
            } else {
                let want = e.when.map_or("null".to_string(), |(s, t)| {
                    format!("{} .. {}", s.to_rfc3339(), t.to_rfc3339())
                });
                let got = p.when.as_ref().map_or("null".to_string(), |w| {
                    format!(
                        "{} .. {} ({:?})",
                        w.start.to_rfc3339(),
                        w.end.to_rfc3339(),
                        w.expression
                    )
                });
                self.problem(id, format!("{label}: time {got}, expected {want}"));
            }
            if same_people(e, p) {
                self.people_right += 1;
            } else {
                self.problem(
                    id,
                    format!(
                        "{label}: participants {:?}, expected {:?}",
                        p.participants, e.participants
                    ),
                );
            }
        }
        for (j, p) in predicted.iter().enumerate() {
            if !matching.contains(&Some(j)) {
                self.count("(spurious)", p.episode.kind.as_str());
                self.problem(
                    id,
                    format!("spurious {} episode {:?}", p.episode.kind, p.episode.text),
                );
            }
        }
    }

    fn report(self, items: usize, agree: usize, comparisons: usize) -> CaptureEvalReport {
        let ratio = |a: usize, b: usize| if b == 0 { 1.0 } else { a as f64 / b as f64 };
        CaptureEvalReport {
            items,
            expected_episodes: self.expected,
            predicted_episodes: self.predicted,
            matched_episodes: self.matched,
            act_kind_accuracy: ratio(self.kind_right, self.matched),
            act_kind_accuracy_over_expected: ratio(self.kind_right, self.expected),
            segmentation_precision: ratio(self.matched, self.predicted),
            segmentation_recall: ratio(self.matched, self.expected),
            time_exact_match: ratio(self.time_right, self.matched),
            participants_exact_match: ratio(self.people_right, self.matched),
            salience_order_agreement: ratio(agree, comparisons),
            salience_comparisons: comparisons,
            about_equal_tolerance: ABOUT_EQUAL_TOLERANCE,
            confusion: self.confusion,
            failures: self
                .failures
                .into_iter()
                .map(|(id, problems)| ItemFailure { id, problems })
                .collect(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Relation {
    Higher,
    Lower,
    Equal,
}

/// The comparisons of one rank note: "lower than dev-018; about equal to dev-017 (same words
/// as dev-018 ...)". Text after a colon or inside brackets is commentary and is skipped.
fn comparisons(note: &str, ids: &[&str]) -> Vec<(Relation, String)> {
    let mut out = Vec::new();
    for clause in note.split(';') {
        let clause = clause.split(':').next().unwrap_or_default();
        let clause = clause
            .split('(')
            .next()
            .unwrap_or_default()
            .trim()
            .to_lowercase();
        let relation = if clause.starts_with("higher than") {
            Relation::Higher
        } else if clause.starts_with("lower than") {
            Relation::Lower
        } else if clause.starts_with("about equal to") {
            Relation::Equal
        } else {
            continue;
        };
        for word in clause.split(|c: char| c.is_whitespace() || c == ',') {
            if let Some(id) = ids.iter().find(|id| id.eq_ignore_ascii_case(word)) {
                out.push((relation, (*id).to_string()));
            }
        }
    }
    out
}

fn salience_agreement(
    items: &[Item],
    saliences: &BTreeMap<String, f64>,
) -> (usize, usize, Vec<(String, String)>) {
    let ids: Vec<&str> = items.iter().map(|i| i.id.as_str()).collect();
    let (mut agree, mut total) = (0, 0);
    let mut problems = Vec::new();
    for item in items {
        let Some(note) = &item.salience_rank_note else {
            continue;
        };
        let Some(&mine) = saliences.get(&item.id) else {
            continue;
        };
        for (relation, other) in comparisons(note, &ids) {
            let Some(&theirs) = saliences.get(&other) else {
                continue;
            };
            total += 1;
            let diff = mine - theirs;
            let ok = match relation {
                Relation::Higher => diff > ABOUT_EQUAL_TOLERANCE,
                Relation::Lower => -diff > ABOUT_EQUAL_TOLERANCE,
                Relation::Equal => diff.abs() <= ABOUT_EQUAL_TOLERANCE,
            };
            if ok {
                agree += 1;
            } else {
                problems.push((
                    item.id.clone(),
                    format!("salience {mine:.2} should be {relation:?} than {other} ({theirs:.2})"),
                ));
            }
        }
    }
    (agree, total, problems)
}

impl CaptureEvalReport {
    /// A short human-readable table: the headline metrics, the confusion matrix and the first
    /// problem of each failing item.
    pub fn table(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "capture eval: {} items, {} expected episodes, {} predicted, {} matched",
            self.items, self.expected_episodes, self.predicted_episodes, self.matched_episodes
        );
        let rows = [
            ("act kind accuracy (matched)", self.act_kind_accuracy),
            (
                "act kind accuracy (expected)",
                self.act_kind_accuracy_over_expected,
            ),
            ("segmentation precision", self.segmentation_precision),
            ("segmentation recall", self.segmentation_recall),
            ("time exact match", self.time_exact_match),
            ("participants exact match", self.participants_exact_match),
            ("salience order agreement", self.salience_order_agreement),
        ];
        for (name, value) in rows {
            let _ = writeln!(s, "  {name:<30} {value:.3}");
        }
        let _ = writeln!(
            s,
            "  ({} salience comparisons, about equal = within {})",
            self.salience_comparisons, self.about_equal_tolerance
        );
        let columns: Vec<&str> = ActKind::ALL
            .iter()
            .map(|k| k.as_str())
            .chain(["(missed)"])
            .collect();
        let _ = write!(
            s,
            "confusion (rows expected, columns predicted)\n  {:<12}",
            ""
        );
        for c in &columns {
            let _ = write!(s, "{:>6}", &c[..c.len().min(5)]);
        }
        s.push('\n');
        let row_names: Vec<&str> = ActKind::ALL
            .iter()
            .map(|k| k.as_str())
            .chain(["(spurious)"])
            .collect();
        for r in row_names {
            let _ = write!(s, "  {r:<12}");
            for c in &columns {
                let n = self
                    .confusion
                    .get(r)
                    .and_then(|m| m.get(*c))
                    .copied()
                    .unwrap_or(0);
                let _ = write!(s, "{n:>6}");
            }
            s.push('\n');
        }
        if !self.failures.is_empty() {
            let _ = writeln!(s, "failures ({} items):", self.failures.len());
            for f in &self.failures {
                for p in &f.problems {
                    let _ = writeln!(s, "  {}: {p}", f.id);
                }
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_notes_skip_commentary() {
        let ids = ["dev-017", "dev-018", "dev-019"];
        let got = comparisons(
            "lower than dev-018; about equal to dev-017 (same words as dev-018, but louder)",
            &ids,
        );
        assert_eq!(
            got,
            vec![
                (Relation::Lower, "dev-018".to_string()),
                (Relation::Equal, "dev-017".to_string())
            ],
            "ids inside brackets are commentary, not comparisons"
        );
        let got = comparisons(
            "higher than dev-017 and dev-019 (usually calm writer)",
            &ids,
        );
        assert_eq!(got.len(), 2, "one clause may name several items");
    }

    #[test]
    fn a_missing_file_is_an_io_error_and_bad_json_an_import_error() {
        let missing = evaluate(Path::new("/nonexistent/capture.json"));
        assert!(
            matches!(missing, Err(Error::Io { .. })),
            "an unreadable file must say so, not panic"
        );
        let dir = std::env::temp_dir().join(format!("minne-capture-eval-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let bad = dir.join("bad.json");
        let _ = std::fs::write(&bad, "{\"not\": \"a list\"}");
        assert!(
            matches!(evaluate(&bad), Err(Error::Import { .. })),
            "a file in the wrong shape is an import error naming the file"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
