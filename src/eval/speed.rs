//! The speed benchmark: synthetic contexts of many episodes, recall latency (query embedding
//! included), capture throughput and peak memory. A benchmark, never a timed test.
//!
//! Text is generated from a small grammar: 24 sentence shapes (plans, decisions, corrections,
//! work notes, feelings, questions; English with some Swedish and Danish) filled from
//! vocabularies of people, activities, places, times, things, topics and numbers, one to three
//! sentences per message. The space is far larger than any context here, so messages are
//! varied, not a repeated string, and word frequencies fall off as in conversation (names and
//! function words common, particular things rare), which is what BM25's posting lists see.
//!
//! Embedding 100k passages with the real model would take many minutes and measure the model,
//! not recall. Stored vectors are therefore composed: each distinct word (a few hundred) is
//! embedded once by the real model, and a message's vector is the normalised mean of its
//! words' vectors. Their values do not change the cost of scoring; queries are embedded by the
//! real model, as in use, and that time is part of the reported latency.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use chrono::{Duration, TimeZone, Utc};
use serde::Serialize;

use super::metrics::percentile;
use super::retrieval::ScratchDir;
use crate::clock::FixedClock;
use crate::context::ContextName;
use crate::embed::Embedder;
use crate::engine::Engine;
use crate::error::Result;
use crate::import::{ImportProgress, NewMessage, NewSession};
use crate::model::Role;
use crate::recall::RecallQuery;

const NAMES: &[&str] = &[
    "Sara", "Oskar", "Freja", "Lars", "Maja", "Anders", "Ingrid", "Mikkel", "Astrid", "Jonas",
    "Karin", "Emil", "Mette", "Henrik", "Sofie", "Erik", "Linnea", "Rasmus", "Elin", "Tobias",
    "Nora", "Magnus", "Ida", "Johan",
];
const ACTIVITIES: &[&str] = &[
    "went hiking",
    "baked sourdough bread",
    "fixed the bike",
    "painted the kitchen",
    "started a pottery class",
    "planned the product launch",
    "reviewed the budget",
    "booked flights",
    "ran a half marathon",
    "read a crime novel",
    "visited the dentist",
    "moved the server migration",
    "adopted a kitten",
    "learned to sail",
    "wrote the quarterly report",
    "repaired the roof",
    "went to a jazz concert",
    "cooked a lentil curry",
    "planted tomatoes",
    "practised the violin",
    "renewed the passport",
    "interviewed a designer",
    "cleaned out the garage",
    "watched the football final",
    "signed the rental contract",
    "tested the new checkout flow",
    "picked up the kids",
    "called the insurance company",
    "swam in the sea",
    "assembled the bookshelf",
];
const PLACES: &[&str] = &[
    "in Malmö",
    "in Copenhagen",
    "at the office",
    "by the lake",
    "at home",
    "in Stockholm",
    "at the gym",
    "in the garden",
    "at my parents' place",
    "downtown",
    "at the library",
    "on the island",
    "in Aarhus",
    "at the cabin",
    "in Gothenburg",
    "at the harbour",
    "on the train",
    "at the clinic",
];
const TIMES: &[&str] = &[
    "last Friday",
    "this morning",
    "yesterday",
    "on Sunday",
    "two weeks ago",
    "last summer",
    "tonight",
    "next Tuesday",
    "in March",
    "over the weekend",
    "after lunch",
    "on Monday evening",
    "before Christmas",
    "in the spring",
];
const THINGS: &[&str] = &[
    "the blue raincoat",
    "the car keys",
    "a new laptop",
    "the train tickets",
    "the birthday present",
    "the tax return",
    "the dishwasher",
    "a second-hand sofa",
    "the wedding invitations",
    "the heat pump",
    "the winter tyres",
    "a pair of running shoes",
    "the broadband contract",
    "the gym membership",
    "the electricity bill",
    "the spare bedroom",
];
const TOPICS: &[&str] = &[
    "the hiring plan",
    "the pricing page",
    "the security audit",
    "the onboarding emails",
    "the mobile release",
    "the customer survey",
    "the data migration",
    "the design review",
    "the support backlog",
    "the conference talk",
    "the partner contract",
    "the sprint retro",
];
const FEELINGS: &[&str] = &[
    "It was exhausting but worth it.",
    "I felt really proud afterwards.",
    "Honestly it was a bit stressful.",
    "We laughed a lot.",
    "I want to do it again soon.",
    "It took longer than expected.",
    "The weather was terrible.",
    "Everyone loved it.",
    "I'm still not sure about it.",
    "It cost more than I planned.",
    "Det var faktiskt riktigt roligt.",
    "Det var lidt for dyrt, synes jeg.",
];
/// Sentence shapes: {n} person, {a} activity, {p} place, {t} time, {o} thing, {w} work topic,
/// {d} a number.
const TEMPLATES: &[&str] = &[
    "{n} and I {a} {p} {t}.",
    "I {a} {p} {t} with {n}.",
    "{t} I {a} {p}.",
    "Remind me that {n} {a} {p} {t}.",
    "Did you know {n} {a} {p}?",
    "We {a} {p} {t}, {n} came too.",
    "I need to sort out {o} before {t}.",
    "{n} says {o} cost {d} kronor.",
    "We decided to move {w} to {t}.",
    "Actually, {w} is due on the {d}th, not {t}.",
    "I promised {n} to look at {w} {t}.",
    "Can you remind me about {o} {t}?",
    "The meeting about {w} with {n} is at {d}:30.",
    "{n} finally sent the draft of {w}.",
    "I lost {o} {p} {t}.",
    "Let's not mention {w} to {n} yet.",
    "My new budget for {o} is {d} euros.",
    "{n} recommended {o}, I ordered it {t}.",
    "I'm worried about {w}, we are {d} days behind.",
    "Remember that {n} is allergic to nuts.",
    "Jag och {n} var {p} {t}.",
    "Vi har bestämt att skjuta upp {w}.",
    "Jeg har lovet {n} at ordne {o}.",
    "Vi mødtes {p} {t} og talte om {w}.",
];

/// A small deterministic generator (xorshift64*), so runs are comparable.
#[derive(Debug)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
    /// Picks with a Zipf-like skew: item i with weight 1 / (i + 1), so a few are common and
    /// most are rare, as in conversation.
    fn skewed<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        let total: f64 = (1..=xs.len()).map(|i| 1.0 / i as f64).sum();
        let mut x = (self.next() >> 11) as f64 / (1u64 << 53) as f64 * total;
        for (i, item) in xs.iter().enumerate() {
            x -= 1.0 / (i + 1) as f64;
            if x <= 0.0 {
                return item;
            }
        }
        xs[xs.len() - 1]
    }
}

fn sentence(rng: &mut Rng) -> String {
    let mut s = rng.pick(TEMPLATES).to_string();
    // Each slot is filled on its own, so two slots of a kind may differ.
    while let Some(at) = s.find('{') {
        let slot = &s[at..at + 3];
        let fill = match slot {
            "{n}" => rng.skewed(NAMES).to_string(),
            "{a}" => rng.skewed(ACTIVITIES).to_string(),
            "{p}" => rng.skewed(PLACES).to_string(),
            "{t}" => rng.pick(TIMES).to_string(),
            "{o}" => rng.skewed(THINGS).to_string(),
            "{w}" => rng.skewed(TOPICS).to_string(),
            _ => (2 + rng.below(27)).to_string(),
        };
        s.replace_range(at..at + 3, &fill);
    }
    s
}

/// A message: one to three generated sentences and sometimes a feeling.
fn message(rng: &mut Rng) -> String {
    let mut s = sentence(rng);
    for _ in 0..rng.below(3) {
        s.push(' ');
        s.push_str(&sentence(rng));
    }
    if rng.below(4) == 0 {
        s.push(' ');
        s.push_str(rng.pick(FEELINGS));
    }
    s
}

/// Embeds passages as the normalised mean of their words' real vectors, each distinct word
/// once; queries go to the real model.
#[derive(Debug)]
struct ComposedEmbedder {
    real: Arc<dyn Embedder>,
    cache: Mutex<HashMap<String, Vec<f32>>>,
}

fn words_of(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

impl Embedder for ComposedEmbedder {
    fn model_id(&self) -> &str {
        self.real.model_id()
    }
    fn dimensions(&self) -> usize {
        self.real.dimensions()
    }
    fn embed_passages(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        let mut missing: Vec<String> = texts
            .iter()
            .flat_map(|t| words_of(t))
            .filter(|w| !cache.contains_key(w))
            .collect();
        missing.sort_unstable();
        missing.dedup();
        for chunk in missing.chunks(64) {
            let refs: Vec<&str> = chunk.iter().map(String::as_str).collect();
            for (w, v) in chunk.iter().zip(self.real.embed_passages(&refs)?) {
                cache.insert(w.clone(), v);
            }
        }
        Ok(texts
            .iter()
            .map(|t| {
                let mut sum = vec![0.0f32; self.real.dimensions()];
                for w in words_of(t) {
                    if let Some(v) = cache.get(&w) {
                        sum.iter_mut().zip(v).for_each(|(a, b)| *a += b);
                    }
                }
                let norm = sum.iter().map(|x| x * x).sum::<f32>().sqrt();
                if norm > 0.0 {
                    sum.iter_mut().for_each(|x| *x /= norm);
                }
                sum
            })
            .collect())
    }
    fn embed_query(&self, text: &str) -> Result<Vec<f32>> {
        self.real.embed_query(text)
    }
}

/// A question a user might ask of such a context: varied, naming people and things in it.
fn question(rng: &mut Rng) -> String {
    match rng.below(6) {
        0 => format!(
            "when did {} {}?",
            rng.pick(NAMES),
            rng.pick(ACTIVITIES).replacen("went", "go", 1)
        ),
        1 => format!("what did we decide about {}?", rng.pick(TOPICS)),
        2 => format!("how much did {} cost?", rng.pick(THINGS)),
        3 => format!("where did I lose {}?", rng.pick(THINGS)),
        4 => format!("what did I promise {}?", rng.pick(NAMES)),
        _ => format!("vad gjorde vi {}?", rng.pick(PLACES)),
    }
}

/// What one context size measured.
#[derive(Debug, Clone, Serialize)]
pub struct SizeResult {
    /// Messages imported.
    pub messages: usize,
    /// Episodes captured.
    pub episodes: u64,
    /// Capture throughput: messages encoded per second (rules, tone, storage).
    pub capture_messages_per_s: f64,
    /// Whole import (store, capture, composed embedding, FTS) in seconds.
    pub import_s: f64,
    /// The first recall after the import, milliseconds: it loads the candidates into memory.
    pub first_recall_ms: f64,
    /// Recall latency percentiles over the later recalls, milliseconds, query embedding
    /// included.
    pub recall_p50_ms: f64,
    /// 95th percentile.
    pub recall_p95_ms: f64,
    /// Time of embedding a query alone, p50, milliseconds: the part of recall latency that is
    /// the model's.
    pub embed_query_p50_ms: f64,
    /// Where recall's time went, each phase's median, milliseconds.
    pub phases_p50_ms: crate::recall::Timings,
    /// Peak resident memory of the process so far, MB (Linux `VmHWM`).
    pub peak_rss_mb: Option<f64>,
}

/// Builds a context of each size in `sizes` (messages) and measures it with `queries` recalls.
/// Errors: import and recall errors.
pub fn run(
    real: Arc<dyn Embedder>,
    sizes: &[usize],
    queries: usize,
    progress: &mut dyn FnMut(String),
) -> Result<Vec<SizeResult>> {
    run_kept(real, sizes, queries, None, progress)
}

/// [`run`], keeping each size's context in `keep/<size>` and reusing it on a later run instead
/// of importing again (the texts and questions are the same: the generator is seeded). A reused
/// context reports `import_s` and `capture_messages_per_s` as 0: nothing was imported.
/// `None` builds every context in a scratch folder that is removed afterwards.
/// Errors: as [`run`], and [`crate::Error::Io`] when `keep` cannot be created.
pub fn run_kept(
    real: Arc<dyn Embedder>,
    sizes: &[usize],
    queries: usize,
    keep: Option<&std::path::Path>,
    progress: &mut dyn FnMut(String),
) -> Result<Vec<SizeResult>> {
    let embedder: Arc<dyn Embedder> = Arc::new(ComposedEmbedder {
        real: real.clone(),
        cache: Mutex::new(HashMap::new()),
    });
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut out = Vec::new();
    for &size in sizes {
        let scratch = match keep {
            None => Folder::Scratch(ScratchDir::new()?),
            Some(dir) => {
                let path = dir.join(size.to_string());
                std::fs::create_dir_all(&path).map_err(|source| crate::Error::Io {
                    action: "cannot create",
                    path: path.clone(),
                    source,
                })?;
                Folder::Kept(path)
            }
        };
        let start = Utc
            .with_ymd_and_hms(2024, 1, 1, 9, 0, 0)
            .single()
            .unwrap_or_default();
        let clock = Arc::new(FixedClock::new(start + Duration::days(800)));
        let mut engine = Engine::open(
            scratch.path(),
            &ContextName::new("personal")?,
            embedder.clone(),
            clock,
        )?;
        let sessions: Vec<NewSession> = (0..size.div_ceil(20))
            .map(|s| NewSession {
                key: format!("bench:{s}"),
                messages: (0..20.min(size - s * 20))
                    .map(|i| NewMessage {
                        external_id: None,
                        role: if i % 2 == 0 {
                            Role::User
                        } else {
                            Role::Assistant
                        },
                        actor: if i % 2 == 0 {
                            "user".into()
                        } else {
                            "assistant".into()
                        },
                        text: message(&mut rng),
                        sent_at: (start
                            + Duration::hours(s as i64 * 7)
                            + Duration::minutes(i as i64))
                        .fixed_offset(),
                    })
                    .collect(),
            })
            .collect();
        let began = Instant::now();
        let mut captured_at = None;
        // A kept context is complete once its import finished; an interrupted one is redone.
        let done_mark = scratch.path().join("imported");
        let reused = matches!(scratch, Folder::Kept(_)) && done_mark.is_file();
        if !reused {
            if engine.episode_count()? > 0 {
                return Err(crate::Error::InvalidInput(format!(
                    "{} holds a context whose import did not finish: remove it and run again",
                    scratch.path().display()
                )));
            }
            engine.import_sessions(&sessions, "bench", &mut |p| {
                if let ImportProgress::Captured { done, total } = p
                    && done == total
                {
                    captured_at = Some(began.elapsed());
                }
            })?;
            if matches!(scratch, Folder::Kept(_)) {
                std::fs::write(&done_mark, b"").map_err(|source| crate::Error::Io {
                    action: "cannot write",
                    path: done_mark.clone(),
                    source,
                })?;
            }
        }
        let import_s = if reused {
            0.0
        } else {
            began.elapsed().as_secs_f64()
        };
        let capture_s = captured_at.map_or(import_s, |d| d.as_secs_f64());
        // The first recall after a write rebuilds the in-memory candidates: timed on its own.
        let t = Instant::now();
        engine.recall(&RecallQuery::new(question(&mut rng)))?;
        let first_recall_ms = t.elapsed().as_secs_f64() * 1e3;
        let mut lat = Vec::new();
        let mut emb = Vec::new();
        let mut phases: Vec<crate::recall::Timings> = Vec::new();
        for _ in 0..queries {
            let q = question(&mut rng);
            let t = Instant::now();
            real.embed_query(&q)?;
            emb.push(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            let explained = engine.recall_explained(&RecallQuery::new(q), 0)?;
            lat.push(t.elapsed().as_secs_f64() * 1e3);
            phases.push(explained.timings);
        }
        let r = SizeResult {
            messages: size,
            episodes: engine.episode_count()?,
            capture_messages_per_s: if reused {
                0.0
            } else {
                size as f64 / capture_s.max(1e-9)
            },
            import_s,
            first_recall_ms,
            recall_p50_ms: percentile(&lat, 50.0).unwrap_or(0.0),
            recall_p95_ms: percentile(&lat, 95.0).unwrap_or(0.0),
            embed_query_p50_ms: percentile(&emb, 50.0).unwrap_or(0.0),
            peak_rss_mb: peak_rss_mb(),
            phases_p50_ms: {
                let p = |f: fn(&crate::recall::Timings) -> f64| {
                    percentile(&phases.iter().map(f).collect::<Vec<_>>(), 50.0).unwrap_or(0.0)
                };
                crate::recall::Timings {
                    snapshot_ms: p(|t| t.snapshot_ms),
                    embed_ms: p(|t| t.embed_ms),
                    dense_ms: p(|t| t.dense_ms),
                    lexical_ms: p(|t| t.lexical_ms),
                    rank_ms: p(|t| t.rank_ms),
                    abstain_ms: p(|t| t.abstain_ms),
                    load_ms: p(|t| t.load_ms),
                }
            },
        };
        progress(format!("{r:?}"));
        out.push(r);
    }
    Ok(out)
}

/// Where a size's context lives: a scratch folder removed afterwards, or a kept one.
enum Folder {
    Scratch(ScratchDir),
    Kept(std::path::PathBuf),
}

impl Folder {
    fn path(&self) -> &std::path::Path {
        match self {
            Folder::Scratch(s) => s.path(),
            Folder::Kept(p) => p,
        }
    }
}

fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn generated_messages_are_varied_not_a_repeated_string() {
        // A quarter of messages are one sentence without a feeling (1/3 × 3/4). Of those, the
        // one- and two-slot shapes repeat, as people do ("Remember that {n} is allergic to
        // nuts." has 24 forms, "Vi har bestämt att skjuta upp {w}." 12, "{n} finally sent the
        // draft of {w}." 288 skewed ones): some hundreds of repeats in 10,000 messages (9,430
        // distinct with this seed). Every other message combines several slots and sentences,
        // so at least 90 % must be distinct; a repeated string would give 1.
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let texts: Vec<String> = (0..10_000).map(|_| message(&mut rng)).collect();
        let distinct: HashSet<&String> = texts.iter().collect();
        assert!(
            distinct.len() >= 9_000,
            "{} distinct of 10,000",
            distinct.len()
        );
        // Every slot was filled: no template braces left.
        assert!(texts.iter().all(|t| !t.contains('{')));
        // The vocabulary is the grammar's: hundreds of distinct words, as BM25 needs.
        let words: HashSet<String> = texts.iter().flat_map(|t| words_of(t)).collect();
        assert!(words.len() >= 300, "{} distinct words", words.len());
    }
}
