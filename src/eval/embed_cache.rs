//! An in-process embedding cache for the evaluation harnesses only.
//!
//! LongMemEval gives each question its own haystack of about 500 turns, but the haystacks of
//! different questions share most of their sessions: LongMemEval-S dev has about 30,500 user
//! turns over 62 questions and only about 14,500 distinct texts. Each question is imported
//! into a fresh context, so without a cache every shared turn is embedded again (about one
//! question a minute with multilingual-e5-small on 2 cores). [`CachedEmbedder`] embeds each
//! distinct text once per run; the vectors are the model's own, so the metrics do not change.
//!
//! With `MINNE_EVAL_EMBED_CACHE=FILE` ([`CachedEmbedder::from_env`]) the vectors are also
//! kept on disk, in a SQLite file keyed by model id, side and exact text, so a second run of
//! the same data set (or of another one sharing texts) embeds nothing already embedded: the
//! first LongMemEval-S dev run with e5 spends over 90 % of its CPU in the model.
//!
//! Minne itself never uses it: a user's store embeds each episode once anyway.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use rusqlite::{Connection, OptionalExtension, params};

use crate::embed::Embedder;
use crate::error::{Error, Result};
use crate::store::{blob_to_vector, vector_to_blob};

/// The environment variable naming the on-disk cache file (created when missing).
pub const DISK_CACHE_ENV: &str = "MINNE_EVAL_EMBED_CACHE";

/// Whether a text was embedded as a stored passage or as a query (e5 prefixes them
/// differently, so the same text has two vectors).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Side {
    Passage,
    Query,
}

impl Side {
    /// The value stored in the disk cache's `side` column.
    fn code(self) -> i64 {
        match self {
            Side::Passage => 0,
            Side::Query => 1,
        }
    }
}

/// The on-disk half of the cache: one SQLite file, table `vectors(model, side, text,
/// vector)`, vectors as little-endian `f32` blobs.
#[derive(Debug)]
struct Disk {
    conn: Mutex<Connection>,
}

impl Disk {
    fn open(path: &Path) -> Result<Disk> {
        let conn = Connection::open(path)?;
        conn.execute_batch(
            "PRAGMA journal_mode = WAL;
             PRAGMA synchronous = NORMAL;
             CREATE TABLE IF NOT EXISTS vectors (
                 model TEXT NOT NULL,
                 side INTEGER NOT NULL,
                 text TEXT NOT NULL,
                 vector BLOB NOT NULL,
                 PRIMARY KEY (model, side, text)
             ) WITHOUT ROWID;",
        )?;
        Ok(Disk {
            conn: Mutex::new(conn),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The stored vectors of `texts` (those found; a blob of the wrong length counts as not
    /// found, so it is embedded again and overwritten).
    fn get(&self, model: &str, side: Side, texts: &[&str]) -> Result<HashMap<String, Vec<f32>>> {
        let conn = self.lock();
        let mut stmt = conn.prepare_cached(
            "SELECT vector FROM vectors WHERE model = ?1 AND side = ?2 AND text = ?3",
        )?;
        let mut out = HashMap::new();
        for t in texts {
            let blob: Option<Vec<u8>> = stmt
                .query_row(params![model, side.code(), t], |r| r.get(0))
                .optional()?;
            if let Some(v) = blob.as_deref().and_then(blob_to_vector) {
                out.insert((*t).to_string(), v);
            }
        }
        Ok(out)
    }

    /// Stores `vectors` of `texts` in one transaction.
    fn put(&self, model: &str, side: Side, texts: &[&str], vectors: &[Vec<f32>]) -> Result<()> {
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        {
            let mut stmt = tx.prepare_cached(
                "INSERT OR REPLACE INTO vectors (model, side, text, vector) \
                 VALUES (?1, ?2, ?3, ?4)",
            )?;
            for (t, v) in texts.iter().zip(vectors) {
                stmt.execute(params![model, side.code(), t, vector_to_blob(v)])?;
            }
        }
        tx.commit()?;
        Ok(())
    }
}

/// Wraps an [`Embedder`] and remembers every vector it returned, keyed by the model id, the
/// side (passage or query) and the exact text. Memory grows with the distinct texts seen:
/// 384 floats (1.5 KiB) each, about 22 MB for LongMemEval-S dev.
#[derive(Debug)]
pub struct CachedEmbedder {
    inner: Arc<dyn Embedder>,
    vectors: Mutex<HashMap<(String, Side, String), Vec<f32>>>,
    disk: Option<Disk>,
}

impl CachedEmbedder {
    /// A cache in front of `inner`, empty, in memory only.
    pub fn new(inner: Arc<dyn Embedder>) -> Self {
        CachedEmbedder {
            inner,
            vectors: Mutex::new(HashMap::new()),
            disk: None,
        }
    }

    /// A cache in front of `inner` that also reads and writes the SQLite file `path`
    /// (created when missing; vectors of every model can share one file). Errors:
    /// [`Error::InvalidInput`] naming the file when it cannot be opened as a cache.
    pub fn with_disk(inner: Arc<dyn Embedder>, path: &Path) -> Result<Self> {
        let disk = Disk::open(path).map_err(|e| {
            Error::InvalidInput(format!(
                "cannot use {} as the evaluation's embedding cache ({e}); point \
                 {DISK_CACHE_ENV} at a new file or unset it",
                path.display()
            ))
        })?;
        Ok(CachedEmbedder {
            disk: Some(disk),
            ..CachedEmbedder::new(inner)
        })
    }

    /// [`CachedEmbedder::with_disk`] on the file named by [`DISK_CACHE_ENV`] when it is set
    /// and not empty, else [`CachedEmbedder::new`]. Errors: as [`CachedEmbedder::with_disk`].
    pub fn from_env(inner: Arc<dyn Embedder>) -> Result<Self> {
        match std::env::var_os(DISK_CACHE_ENV).filter(|p| !p.is_empty()) {
            Some(p) => CachedEmbedder::with_disk(inner, &PathBuf::from(p)),
            None => Ok(CachedEmbedder::new(inner)),
        }
    }

    /// The vectors of `texts` (distinct, none in memory) on `side`: from disk when there,
    /// else from the model (then written to disk), in one batch.
    fn fetch(&self, side: Side, texts: &[&str]) -> Result<HashMap<String, Vec<f32>>> {
        let model = self.inner.model_id();
        let mut found = match &self.disk {
            Some(d) => d.get(model, side, texts)?,
            None => HashMap::new(),
        };
        let fresh: Vec<&str> = texts
            .iter()
            .copied()
            .filter(|t| !found.contains_key(*t))
            .collect();
        if fresh.is_empty() {
            return Ok(found);
        }
        let vectors = match side {
            Side::Passage => self.inner.embed_passages(&fresh)?,
            Side::Query => fresh
                .iter()
                .map(|t| self.inner.embed_query(t))
                .collect::<Result<Vec<_>>>()?,
        };
        if let Some(d) = &self.disk {
            let n = vectors.len().min(fresh.len());
            d.put(model, side, &fresh[..n], &vectors[..n])?;
        }
        found.extend(fresh.iter().map(|t| t.to_string()).zip(vectors));
        Ok(found)
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
            let fresh = self.fetch(Side::Passage, &missing)?;
            let mut map = self.lock();
            for (t, v) in fresh {
                map.insert(self.key(Side::Passage, &t), v);
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
        let v = match self.fetch(Side::Query, &[text])?.remove(text) {
            Some(v) => v,
            None => self.inner.embed_query(text)?,
        };
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

    #[test]
    fn a_second_cache_on_the_same_file_reads_the_vectors_without_the_model() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("vectors.sqlite");
        let texts = ["I baked a cake", "my niece turned five", "I baked a cake"];
        let counting = || {
            Arc::new(Counting {
                inner: HashEmbedder::new(64),
                passages: AtomicUsize::new(0),
                queries: AtomicUsize::new(0),
            })
        };
        let first_model = counting();
        let first = CachedEmbedder::with_disk(first_model.clone(), &file).unwrap();
        let written = first.embed_passages(&texts).unwrap();
        let query = first.embed_query("what did I bake?").unwrap();
        assert_eq!(
            first_model.passages.load(Ordering::SeqCst),
            2,
            "two distinct texts"
        );
        drop(first);
        // A new process would start with an empty memory: only the file carries the vectors.
        let second_model = counting();
        let second = CachedEmbedder::with_disk(second_model.clone(), &file).unwrap();
        assert!(second.is_empty());
        let read = second.embed_passages(&texts).unwrap();
        assert_eq!(
            read, written,
            "the vectors read back are the ones computed, bit for bit"
        );
        assert_eq!(second.embed_query("what did I bake?").unwrap(), query);
        assert_eq!(
            second_model.passages.load(Ordering::SeqCst),
            0,
            "nothing re-embedded"
        );
        assert_eq!(second_model.queries.load(Ordering::SeqCst), 0);
        // A text the file does not hold still reaches the model, and the model's own vector
        // is returned.
        let new = second.embed_passages(&["a new text"]).unwrap();
        assert_eq!(second_model.passages.load(Ordering::SeqCst), 1);
        assert_eq!(
            new,
            HashEmbedder::new(64)
                .embed_passages(&["a new text"])
                .unwrap()
        );
    }

    #[test]
    fn a_file_that_is_not_a_cache_is_refused_with_what_to_do() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("notes.txt");
        std::fs::write(&file, "not a database, and long enough to be read as one").unwrap();
        let model: Arc<dyn Embedder> = Arc::new(HashEmbedder::new(8));
        let err = CachedEmbedder::with_disk(model, &file)
            .unwrap_err()
            .to_string();
        assert!(err.contains(DISK_CACHE_ENV), "{err}");
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            "not a database, and long enough to be read as one",
            "the file is left as it was"
        );
    }
}
