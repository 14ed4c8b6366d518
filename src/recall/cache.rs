//! Decoded candidates kept in memory between recalls, so a query does not re-read and decode
//! every stored vector.
//!
//! One entry per database file, checked on every recall against a fingerprint of the store:
//! this connection's change counter (any insert, update or delete through it), SQLite's
//! `data_version` (a commit by any other connection), and the episodes' and embeddings' counts
//! and highest id. Any write makes the entry stale and the next recall rebuilds it, so a
//! forgotten episode never comes back from the cache. The entry holds ids, speakers'
//! and participants' names (lowercased), times, salience and vectors; never episode text.
//! [`forget`] drops a file's entry at once, for callers that delete.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rusqlite::Connection;

use super::Candidate;
use crate::error::Result;

/// The candidates of one store and the names of its people.
#[derive(Debug)]
pub(crate) struct Snapshot {
    pub(crate) candidates: Vec<Candidate>,
    /// Speakers and participants, lowercased, without `user` and `assistant`.
    pub(crate) people: Vec<String>,
}

/// Stores kept at once.
const MAX_ENTRIES: usize = 4;

type Fingerprint = (usize, u64, i64, i64, i64, i64, String);

type Entries = HashMap<PathBuf, (Fingerprint, Arc<Snapshot>)>;

static CACHE: Mutex<Option<Entries>> = Mutex::new(None);

fn fingerprint(conn: &Connection, model: &str) -> Result<Fingerprint> {
    let data_version: i64 = conn.query_row("PRAGMA data_version", [], |r| r.get(0))?;
    let (count, max_id): (i64, i64) = conn.query_row(
        "SELECT count(*), coalesce(max(id), 0) FROM episodes",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let vectors: i64 = conn.query_row("SELECT count(*) FROM embeddings", [], |r| r.get(0))?;
    Ok((
        conn as *const Connection as usize,
        conn.total_changes(),
        data_version,
        count,
        max_id,
        vectors,
        model.to_string(),
    ))
}

/// The snapshot of the store at `path`, from the cache when nothing changed, else built by
/// `build` and cached.
pub(crate) fn get(
    path: &Path,
    conn: &Connection,
    model: &str,
    build: impl FnOnce() -> Result<Snapshot>,
) -> Result<Arc<Snapshot>> {
    let key = fingerprint(conn, model)?;
    {
        let cache = CACHE.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((k, snap)) = cache.as_ref().and_then(|c| c.get(path))
            && *k == key
        {
            return Ok(snap.clone());
        }
    }
    let snap = Arc::new(build()?);
    let mut cache = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    let cache = cache.get_or_insert_with(HashMap::new);
    // A handful of open contexts at most; an evaluation opens hundreds in turn.
    if cache.len() >= MAX_ENTRIES && !cache.contains_key(path) {
        cache.clear();
    }
    cache.insert(path.to_path_buf(), (key, snap.clone()));
    Ok(snap)
}

/// Drops the cached snapshot of the store at `path` (after a delete, or when a context is
/// closed).
pub fn forget(path: &Path) {
    let mut cache = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(c) = cache.as_mut() {
        c.remove(path);
    }
}
