//! An in-process embedding cache for the evaluation harnesses only.
//!
//! LongMemEval gives each question its own haystack of about 500 turns, but the haystacks of
//! different questions share most of their sessions: LongMemEval-S dev has about 30,500 user
//! turns over 62 questions and only about 14,500 distinct texts. Each question is imported
//! into a fresh context, so without a cache every shared turn is embedded again (about one
//! question a minute with multilingual-e5-small on 2 cores). [`CachedEmbedder`] embeds each
//! distinct text once per run; the vectors are the model's own, so the metrics do not change.
//!
//! Minne itself never uses it: a user's store embeds each episode once anyway.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::embed::Embedder;
use crate::error::Result;

/// Whether a text was embedded as a stored passage or as a query (e5 prefixes them
/// differently, so the same text has two vectors).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Side {
    Passage,
    Query,
}

/// Wraps an [`Embedder`] and remembers every vector it returned, keyed by the model id, the
/// side (passage or query) and the exact text. Memory grows with the distinct texts seen:
/// 384 floats (1.5 KiB) each, about 22 MB for LongMemEval-S dev.
#[derive(Debug)]
pub struct CachedEmbedder {
    inner: Arc<dyn Embedder>,
    vectors: Mutex<HashMap<(String, Side, String), Vec<f32>>>,
}

impl CachedEmbedder {
    /// A cache in front of `inner`, empty.
    pub fn new(inner: Arc<dyn Embedder>) -> Self {
        CachedEmbedder {
            inner,
            vectors: Mutex::new(HashMap::new()),
        }
    }

    /// How many distinct (side, text) vectors the cache holds.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether the cache holds nothing yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(String, Side, String), Vec<f32>>> {
        // A panic elsewhere leaves the map consistent (inserts are whole), so keep using it.
        self.vectors.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn key(&self, side: Side, text: &str) -> (String, Side, String) {
        (self.inner.model_id().to_string(), side, text.to_string())
    }
}

impl Embedder for CachedEmbedder {
    fn model_id(&self) -> &str {
        self.inner.model_id()
    }

    fn dimensions(&self) -> usize {
        self.inner.dimensions()
    }

    /// The cached vectors, embedding only the texts not seen before (each once, in one batch).
    fn embed_passages(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let mut missing: Vec<&str> = {
            let map = self.lock();
            texts
                .iter()
                .copied()
                .filter(|t| !map.contains_key(&self.key(Side::Passage, t)))
                .collect()
        };
        missing.sort_unstable();
        missing.dedup();
        if !missing.is_empty() {
            let fresh = self.inner.embed_passages(&missing)?;
            let mut map = self.lock();
            for (t, v) in missing.iter().zip(fresh) {
                map.insert(self.key(Side::Passage, t), v);
            }
        }
        let map = self.lock();
        let mut out = Vec::with_capacity(texts.len());
        for t in texts {
            match map.get(&self.key(Side::Passage, t)) {
                Some(v) => out.push(v.clone()),
                // Only if the inner embedder returned fewer vectors than texts: ask it
                // directly, so its own error (or answer) stands.
                None => out.extend(self.inner.embed_passages(&[t])?),
            }
        }
        Ok(out)
    }

    fn embed_query(&self, text: &str) -> Result<Vec<f32>> {
        let key = self.key(Side::Query, text);
        if let Some(v) = self.lock().get(&key) {
            return Ok(v.clone());
        }
        let v = self.inner.embed_query(text)?;
        self.lock().insert(key, v.clone());
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::embed::HashEmbedder;

    /// Counts the texts that reach the model.
    #[derive(Debug)]
    struct Counting {
        inner: HashEmbedder,
        passages: AtomicUsize,
        queries: AtomicUsize,
    }

    impl Embedder for Counting {
        fn model_id(&self) -> &str {
            self.inner.model_id()
        }
        fn dimensions(&self) -> usize {
            self.inner.dimensions()
        }
        fn embed_passages(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
            self.passages.fetch_add(texts.len(), Ordering::SeqCst);
            self.inner.embed_passages(texts)
        }
        fn embed_query(&self, text: &str) -> Result<Vec<f32>> {
            self.queries.fetch_add(1, Ordering::SeqCst);
            self.inner.embed_query(text)
        }
    }

    #[test]
    fn each_distinct_text_reaches_the_model_once_and_vectors_are_unchanged() {
        let counting = Arc::new(Counting {
            inner: HashEmbedder::new(64),
            passages: AtomicUsize::new(0),
            queries: AtomicUsize::new(0),
        });
        let cache = CachedEmbedder::new(counting.clone());
        let first = cache.embed_passages(&["a cat", "a dog", "a cat"]).unwrap();
        let second = cache.embed_passages(&["a dog", "a bird"]).unwrap();
        // "a cat" twice in one batch and "a dog" in both: 3 distinct texts in all.
        assert_eq!(counting.passages.load(Ordering::SeqCst), 3);
        assert_eq!(
            first.len(),
            3,
            "one vector per text asked, repeats included"
        );
        assert_eq!(first[0], first[2]);
        assert_eq!(
            first[1], second[0],
            "a cached vector is the one first computed"
        );
        let direct = HashEmbedder::new(64).embed_passages(&["a bird"]).unwrap();
        assert_eq!(
            second[1], direct[0],
            "the model's own vector, not a copy of another"
        );
        // A query is cached apart from the passage of the same text (e5 prefixes differ).
        cache.embed_query("a cat").unwrap();
        cache.embed_query("a cat").unwrap();
        assert_eq!(counting.queries.load(Ordering::SeqCst), 1);
        assert_eq!(cache.len(), 4, "three passages and one query");
    }
}
