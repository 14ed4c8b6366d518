//! The speed benchmark: synthetic contexts of many episodes, recall latency (query embedding
//! included), capture throughput and peak memory. A benchmark, never a timed test.
//!
//! Text is generated combinatorially from templates and vocabulary (people, activities,
//! places, times, feelings), so no two messages need be alike. Embedding 100k passages with
//! the real model would take minutes and measure the model, not recall; stored vectors are
//! therefore composed: each generated sentence (a few thousand distinct ones) is embedded once
//! by the real model, and a message's vector is the normalised mean of its sentences' vectors.
//! Queries are embedded by the real model, as in use.

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
    "Karin", "Emil",
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
    "read a novel",
    "visited the dentist",
    "moved the server migration",
    "adopted a kitten",
    "learned to sail",
    "wrote the quarterly report",
    "repaired the roof",
    "went to a concert",
    "cooked a curry",
    "planted tomatoes",
    "practised the violin",
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
];
const TEMPLATES: &[&str] = &[
    "{n} and I {a} {p} {t}.",
    "I {a} {p} {t} with {n}.",
    "{t} I {a} {p}.",
    "Remind me that {n} {a} {p} {t}.",
    "Did you know {n} {a} {p}?",
    "We {a} {p} {t}, {n} came too.",
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
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }
}

fn sentence(rng: &mut Rng) -> String {
    rng.pick(TEMPLATES)
        .replace("{n}", rng.pick(NAMES))
        .replace("{a}", rng.pick(ACTIVITIES))
        .replace("{p}", rng.pick(PLACES))
        .replace("{t}", rng.pick(TIMES))
}

/// A message: one or two generated sentences and sometimes a feeling.
fn message(rng: &mut Rng, pool: &[String]) -> String {
    let mut s = pool[(rng.next() % pool.len() as u64) as usize].clone();
    if rng.next().is_multiple_of(2) {
        s.push(' ');
        s.push_str(&pool[(rng.next() % pool.len() as u64) as usize]);
    }
    if rng.next().is_multiple_of(3) {
        s.push(' ');
        s.push_str(rng.pick(FEELINGS));
    }
    s
}

/// Embeds passages as the normalised mean of their sentences' real vectors, each distinct
/// sentence once; queries go to the real model.
#[derive(Debug)]
struct ComposedEmbedder {
    real: Arc<dyn Embedder>,
    cache: Mutex<HashMap<String, Vec<f32>>>,
}

fn sentences_of(text: &str) -> Vec<&str> {
    text.split_inclusive(['.', '?', '!'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
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
        let missing: Vec<&str> = {
            let mut m: Vec<&str> = texts
                .iter()
                .flat_map(|t| sentences_of(t))
                .filter(|s| !cache.contains_key(*s))
                .collect();
            m.sort_unstable();
            m.dedup();
            m
        };
        for chunk in missing.chunks(64) {
            for (s, v) in chunk.iter().zip(self.real.embed_passages(chunk)?) {
                cache.insert(s.to_string(), v);
            }
        }
        Ok(texts
            .iter()
            .map(|t| {
                let mut sum = vec![0.0f32; self.real.dimensions()];
                for s in sentences_of(t) {
                    if let Some(v) = cache.get(s) {
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
    /// Recall latency percentiles, milliseconds, query embedding included.
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
    let embedder: Arc<dyn Embedder> = Arc::new(ComposedEmbedder {
        real: real.clone(),
        cache: Mutex::new(HashMap::new()),
    });
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let pool: Vec<String> = (0..3000).map(|_| sentence(&mut rng)).collect();
    let mut out = Vec::new();
    for &size in sizes {
        let scratch = ScratchDir::new()?;
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
                        text: message(&mut rng, &pool),
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
        engine.import_sessions(&sessions, "bench", &mut |p| {
            if let ImportProgress::Captured { done, total } = p
                && done == total
            {
                captured_at = Some(began.elapsed());
            }
        })?;
        let import_s = began.elapsed().as_secs_f64();
        let capture_s = captured_at.map_or(import_s, |d| d.as_secs_f64());
        let mut lat = Vec::new();
        let mut emb = Vec::new();
        let mut phases: Vec<crate::recall::Timings> = Vec::new();
        for _ in 0..queries {
            let q = format!(
                "when did {} {}?",
                rng.pick(NAMES),
                rng.pick(ACTIVITIES).replacen("went", "go", 1)
            );
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
            capture_messages_per_s: size as f64 / capture_s.max(1e-9),
            import_s,
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
                    load_ms: p(|t| t.load_ms),
                }
            },
        };
        progress(format!("{r:?}"));
        out.push(r);
    }
    Ok(out)
}

fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}
