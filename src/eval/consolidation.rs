//! Consolidation precision: imports each labelled run (a LoCoMo sample with one speaker taken
//! as the user, or a chat export) into a fresh context, consolidates, and compares every item
//! consolidation produced with hand labels. The format and the labelling rule are in
//! `tests/data/consolidation/README.md`; docs/consolidation.md has the figures.
//!
//! # Items
//! Every item consolidation leaves in the store is one of five kinds, keyed by its kind and its
//! [`normalise`]d text:
//! - `attribute`: a profile fact other than a preference or free statement, as its English
//!   phrase ("lives in tartu"); superseded and retracted facts count too (they were produced);
//! - `preference`: `likes …` / `dislikes …`;
//! - `statement`: a free statement about the user, in the user's words;
//! - `procedure`: an instruction, verbatim;
//! - `open_item`: a commitment, verbatim (open or done; withdrawn ones are not listed).
//!
//! The same key produced twice in one run is one item.
//!
//! # Metrics
//! Per split (`tune`, `test`) and kind, and overall: `produced` items, those labelled `true`
//! and `false`, `unlabelled` ones (a new rule's output is never silently counted: they are
//! listed and excluded from precision), `precision` = true / (true + false), and `true_kept`
//! of `true_known`: of the items ever labelled true, how many are still produced.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::retrieval::{after_the_data, scratch_engine};
use crate::consolidate::FactStatus;
use crate::embed::Embedder;
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::import::{ImportFormat, ImportOptions};

/// The kinds of item, in report order.
pub const KINDS: [&str; 5] = [
    "attribute",
    "preference",
    "statement",
    "procedure",
    "open_item",
];

/// A labels file.
#[derive(Debug, Clone, Deserialize)]
pub struct Labels {
    /// The runs, each with its labels.
    pub runs: Vec<Run>,
}

/// One run: a file imported into a fresh context, with the labels of what it produced.
#[derive(Debug, Clone, Deserialize)]
pub struct Run {
    /// A short unique name (`conv-26-a`).
    pub id: String,
    /// `tune` (rules may be written while looking at it) or `test` (held out).
    pub split: String,
    /// The data file, relative to the data folder (`locomo/locomo-dev.json`).
    pub path: PathBuf,
    /// LoCoMo only: the sample.
    #[serde(default)]
    pub sample: Option<String>,
    /// LoCoMo only: which speaker is the user (`speaker_a`, `speaker_b`).
    #[serde(default, rename = "as")]
    pub as_speaker: Option<String>,
    /// The hand labels.
    #[serde(default)]
    pub items: Vec<LabelledItem>,
}

/// One hand label.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LabelledItem {
    /// One of [`KINDS`].
    pub kind: String,
    /// The item's text (compared after [`normalise`]).
    pub text: String,
    /// Whether it is a true item (see the labels README for the rule).
    #[serde(rename = "true")]
    pub is_true: bool,
    /// Why, for the false ones: the kind of error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

/// An item consolidation produced.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Produced {
    /// One of [`KINDS`].
    pub kind: String,
    /// Its text as produced.
    pub text: String,
    /// The user's words it rests on (its first source), for labelling.
    pub quote: String,
    /// Its label: `Some(true)`, `Some(false)`, or `None` when unlabelled.
    pub label: Option<bool>,
}

/// An item as read from the store: kind, text and the words it rests on.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Item {
    /// One of [`KINDS`].
    pub kind: String,
    /// Its text.
    pub text: String,
    /// Its first source's words.
    pub quote: String,
}

/// Counts of one kind (or of all kinds) in one split.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Counts {
    /// Distinct items produced.
    pub produced: usize,
    /// Produced and labelled true.
    pub labelled_true: usize,
    /// Produced and labelled false.
    pub labelled_false: usize,
    /// Produced with no label.
    pub unlabelled: usize,
    /// true / (true + false); 1 when nothing labelled was produced.
    pub precision: f64,
    /// Items labelled true that are still produced.
    pub true_kept: usize,
    /// Items labelled true in the file.
    pub true_known: usize,
}

impl Counts {
    fn finish(&mut self) {
        let labelled = self.labelled_true + self.labelled_false;
        self.precision = if labelled == 0 {
            1.0
        } else {
            self.labelled_true as f64 / labelled as f64
        };
    }

    fn add(&mut self, o: &Counts) {
        self.produced += o.produced;
        self.labelled_true += o.labelled_true;
        self.labelled_false += o.labelled_false;
        self.unlabelled += o.unlabelled;
        self.true_kept += o.true_kept;
        self.true_known += o.true_known;
    }
}

/// What one run produced and how it scored.
#[derive(Debug, Clone, Serialize)]
pub struct RunReport {
    /// The run's id.
    pub id: String,
    /// Its split.
    pub split: String,
    /// Per kind, then `all`.
    pub counts: BTreeMap<String, Counts>,
    /// Every item produced, with its label.
    pub produced: Vec<Produced>,
    /// Items labelled true that were not produced.
    pub true_lost: Vec<LabelledItem>,
}

/// What [`evaluate`] measured.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Split → kind (and `all`) → counts.
    pub splits: BTreeMap<String, BTreeMap<String, Counts>>,
    /// Each run.
    pub runs: Vec<RunReport>,
}

impl Report {
    /// A Markdown table per split, then the unlabelled items and the true items lost.
    pub fn table(&self) -> String {
        let mut out = String::new();
        for (split, kinds) in &self.splits {
            out.push_str(&format!(
                "## {split}\n\n| kind | produced | true | false | unlabelled | precision | true kept |\n|---|---:|---:|---:|---:|---:|---:|\n"
            ));
            for kind in KINDS.iter().copied().chain(["all"]) {
                let Some(c) = kinds.get(kind) else { continue };
                out.push_str(&format!(
                    "| {kind} | {} | {} | {} | {} | {:.0} % | {} of {} |\n",
                    c.produced,
                    c.labelled_true,
                    c.labelled_false,
                    c.unlabelled,
                    c.precision * 100.0,
                    c.true_kept,
                    c.true_known
                ));
            }
            out.push('\n');
        }
        for run in &self.runs {
            let unlabelled: Vec<&Produced> =
                run.produced.iter().filter(|p| p.label.is_none()).collect();
            if !unlabelled.is_empty() {
                out.push_str(&format!("unlabelled in {}:\n", run.id));
                for p in unlabelled {
                    out.push_str(&format!("  {}\t{}\n", p.kind, p.text));
                }
            }
            if !run.true_lost.is_empty() {
                out.push_str(&format!("true items lost in {}:\n", run.id));
                for l in &run.true_lost {
                    out.push_str(&format!("  {}\t{}\n", l.kind, l.text));
                }
            }
        }
        out
    }
}

/// The key text of an item: lower case, runs of white space as one space, curly quotes as
/// straight ones, leading and trailing white space and final punctuation removed.
pub fn normalise(text: &str) -> String {
    let lowered = text
        .to_lowercase()
        .replace(['\u{2019}', '\u{2018}'], "'")
        .replace(['\u{201c}', '\u{201d}'], "\"");
    let joined = lowered.split_whitespace().collect::<Vec<_>>().join(" ");
    joined
        .trim_end_matches(|c: char| c.is_ascii_punctuation() && c != ')' && c != '"')
        .trim()
        .to_string()
}

/// Reads a labels file. Errors: reading or parsing it, an unknown kind, a repeated run id.
pub fn read_labels(path: &Path) -> Result<Labels> {
    let text = crate::import::read_text(path)?;
    let labels: Labels = serde_json::from_str(&text).map_err(|e| Error::Import {
        path: path.to_path_buf(),
        reason: format!("not a consolidation labels file: {e}"),
    })?;
    let mut ids = BTreeSet::new();
    for run in &labels.runs {
        if !ids.insert(run.id.as_str()) {
            return Err(Error::InvalidInput(format!(
                "run `{}` is listed twice",
                run.id
            )));
        }
        if let Some(bad) = run.items.iter().find(|i| !KINDS.contains(&i.kind.as_str())) {
            return Err(Error::InvalidInput(format!(
                "run `{}`: unknown kind `{}`: use one of {}",
                run.id,
                bad.kind,
                KINDS.join(", ")
            )));
        }
    }
    Ok(labels)
}

/// Everything consolidation produced in `engine`, sorted. Rejected facts are left out (only
/// the user rejects).
pub fn produced_items(engine: &Engine) -> Result<Vec<Item>> {
    let mut items = BTreeSet::new();
    let first =
        |s: &[crate::consolidate::Source]| s.first().map(|s| s.quote.clone()).unwrap_or_default();
    for f in engine.facts(true)? {
        if f.status == FactStatus::Rejected {
            continue;
        }
        let kind = if f.attribute.starts_with("preference:") {
            "preference"
        } else if f.attribute == "statement" {
            "statement"
        } else {
            "attribute"
        };
        items.insert(Item {
            kind: kind.to_string(),
            text: f.text.clone(),
            quote: first(&f.sources),
        });
    }
    for p in engine.procedures(true)? {
        items.insert(Item {
            kind: "procedure".to_string(),
            text: p.instruction.clone(),
            quote: first(&p.sources),
        });
    }
    for o in engine.open_items(false)? {
        items.insert(Item {
            kind: "open_item".to_string(),
            quote: o.text.clone(),
            text: o.text,
        });
    }
    Ok(items.into_iter().collect())
}

/// Imports one run into a fresh context under a scratch folder and consolidates it; returns
/// what it produced. The clock stands at 2030-01-01, after every message of the data.
pub fn run_once(run: &Run, data_root: &Path, embedder: Arc<dyn Embedder>) -> Result<Vec<Item>> {
    let (_scratch, _clock, mut engine) = scratch_engine(embedder, after_the_data())?;
    let format = if run.sample.is_some() {
        ImportFormat::Locomo
    } else {
        ImportFormat::Auto
    };
    let options = ImportOptions {
        sample: run.sample.clone(),
        as_speaker: run.as_speaker.clone(),
        ..ImportOptions::new(format)
    };
    engine.import(&data_root.join(&run.path), &options, &mut |_| {})?;
    engine.consolidate()?;
    produced_items(&engine)
}

/// Scores one run's produced items against its labels.
pub fn score(run: &Run, produced: &[Item]) -> RunReport {
    let labels: BTreeMap<(String, String), &LabelledItem> = run
        .items
        .iter()
        .map(|l| ((l.kind.clone(), normalise(&l.text)), l))
        .collect();
    let mut counts: BTreeMap<String, Counts> = BTreeMap::new();
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for Item { kind, text, quote } in produced {
        let key = (kind.clone(), normalise(text));
        if !seen.insert(key.clone()) {
            continue;
        }
        let label = labels.get(&key).map(|l| l.is_true);
        let c = counts.entry(kind.clone()).or_default();
        c.produced += 1;
        match label {
            Some(true) => {
                c.labelled_true += 1;
                c.true_kept += 1;
            }
            Some(false) => c.labelled_false += 1,
            None => c.unlabelled += 1,
        }
        out.push(Produced {
            kind: kind.clone(),
            text: text.clone(),
            quote: quote.clone(),
            label,
        });
    }
    let mut true_lost = Vec::new();
    for (key, l) in &labels {
        if l.is_true {
            counts.entry(key.0.clone()).or_default().true_known += 1;
            if !seen.contains(key) {
                true_lost.push((*l).clone());
            }
        }
    }
    let mut all = Counts::default();
    for c in counts.values_mut() {
        c.finish();
        all.add(c);
    }
    all.finish();
    counts.insert("all".into(), all);
    RunReport {
        id: run.id.clone(),
        split: run.split.clone(),
        counts,
        produced: out,
        true_lost,
    }
}

/// Runs every run of the labels file at `labels` (or only `only`), with data paths under
/// `data_root`, and reports per split and kind. `progress` gets a line per run.
/// Errors: reading the labels or a data file, import and consolidation errors.
pub fn evaluate(
    labels: &Path,
    data_root: &Path,
    embedder: Arc<dyn Embedder>,
    only: Option<&str>,
    progress: &mut dyn FnMut(String),
) -> Result<Report> {
    let labels = read_labels(labels)?;
    // With `MINNE_EVAL_EMBED_CACHE` set, a second run embeds nothing it has embedded before.
    let embedder: Arc<dyn Embedder> =
        Arc::new(super::embed_cache::CachedEmbedder::from_env(embedder)?);
    let mut runs = Vec::new();
    for run in labels
        .runs
        .iter()
        .filter(|r| only.is_none_or(|id| r.id == id))
    {
        let produced = run_once(run, data_root, embedder.clone())?;
        let report = score(run, &produced);
        progress(format!(
            "{} ({}): {} items, {} unlabelled",
            run.id,
            run.split,
            report.counts.get("all").map_or(0, |c| c.produced),
            report.counts.get("all").map_or(0, |c| c.unlabelled)
        ));
        runs.push(report);
    }
    let mut splits: BTreeMap<String, BTreeMap<String, Counts>> = BTreeMap::new();
    for r in &runs {
        let split = splits.entry(r.split.clone()).or_default();
        for (kind, c) in &r.counts {
            split.entry(kind.clone()).or_default().add(c);
        }
    }
    for kinds in splits.values_mut() {
        for c in kinds.values_mut() {
            c.finish();
        }
    }
    Ok(Report { splits, runs })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(items: &[(&str, &str, bool)]) -> Run {
        Run {
            id: "r".into(),
            split: "tune".into(),
            path: "x".into(),
            sample: None,
            as_speaker: None,
            items: items
                .iter()
                .map(|(k, t, b)| LabelledItem {
                    kind: k.to_string(),
                    text: t.to_string(),
                    is_true: *b,
                    why: None,
                })
                .collect(),
        }
    }

    #[test]
    fn normalise_folds_case_space_quotes_and_final_punctuation() {
        assert_eq!(
            normalise("  I\u{2019}ll  call Mom tomorrow. "),
            "i'll call mom tomorrow"
        );
        assert_eq!(
            normalise("likes (hiking)"),
            "likes (hiking)",
            "a bracket is text"
        );
    }

    #[test]
    fn unlabelled_items_are_counted_apart_and_lost_true_items_listed() {
        let r = run(&[
            ("preference", "likes hiking", true),
            ("open_item", "I'll do my best", false),
            ("attribute", "lives in Oslo", true),
        ]);
        let item = |k: &str, t: &str| Item {
            kind: k.into(),
            text: t.into(),
            quote: t.into(),
        };
        let produced = vec![
            item("preference", "Likes hiking"),
            item("open_item", "I'll do my best!"),
            item("statement", "new rule output"),
        ];
        let report = score(&r, &produced);
        let all = &report.counts["all"];
        assert_eq!(
            (
                all.produced,
                all.labelled_true,
                all.labelled_false,
                all.unlabelled
            ),
            (3, 1, 1, 1),
            "an unlabelled item is neither true nor false"
        );
        assert!(
            (all.precision - 0.5).abs() < 1e-9,
            "precision over labelled items"
        );
        assert_eq!((all.true_kept, all.true_known), (1, 2), "Oslo was lost");
        assert_eq!(report.true_lost.len(), 1, "the lost true item is listed");
    }
}
