//! Decoded candidates kept in memory between recalls, so a query does not re-read and decode
//! every stored vector.
//!
//! One entry per database file, checked on every recall against a fingerprint of the store
//! that costs two pragmas, whatever the store's size: this connection's change counter (any
//! insert, update or delete through it), SQLite's `data_version` (a commit by any other
//! connection), and a number given to this connection on its first recall (kept in its own
//! `temp` schema's `user_version`), so an entry built through an earlier connection is never
//! taken for this one's even when the new connection sits at the same address. Any write makes
//! the entry stale and the next recall rebuilds it, so a forgotten episode never comes back
//! from the cache. Inside an open transaction nothing is stored (a rollback would undo rows the
//! entry holds without moving either counter). The entry holds ids, speakers' and
//! participants' names (lowercased), times, salience and vectors; never episode text.
//! [`forget`] drops a file's entry at once, for callers that delete.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, Ordering};
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

/// (connection number, this connection's total changes, `data_version`, model id).
type Fingerprint = (i32, u64, i64, String);

type Entries = HashMap<PathBuf, (Fingerprint, Arc<Snapshot>)>;

static CACHE: Mutex<Option<Entries>> = Mutex::new(None);

/// The next connection number; 0 is what a connection that never recalled holds.
static NEXT_CONNECTION: AtomicI32 = AtomicI32::new(1);

/// The number of `conn`, given on its first call: SQLite starts every connection's `temp`
/// schema empty, so a new connection reads 0 and gets a number no earlier one had.
fn connection_number(conn: &Connection) -> Result<i32> {
    let n: i32 = conn.query_row("PRAGMA temp.user_version", [], |r| r.get(0))?;
    if n != 0 {
        return Ok(n);
    }
    let mut n = NEXT_CONNECTION.fetch_add(1, Ordering::Relaxed);
    if n == 0 {
        // After 2³² connections the counter wraps; 0 stays the mark of "none yet".
        n = NEXT_CONNECTION.fetch_add(1, Ordering::Relaxed);
    }
    conn.execute_batch(&format!("PRAGMA temp.user_version = {n}"))?;
    Ok(n)
}

fn fingerprint(conn: &Connection, model: &str) -> Result<Fingerprint> {
    let data_version: i64 = conn.query_row("PRAGMA data_version", [], |r| r.get(0))?;
    Ok((
        connection_number(conn)?,
        conn.total_changes(),
        data_version,
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
    if !conn.is_autocommit() {
        return Ok(snap);
    }
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use std::cell::Cell;

    fn open(path: &Path) -> Connection {
        let conn = Connection::open(path).unwrap();
        conn.execute_batch(
            "PRAGMA journal_mode = WAL; CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY);",
        )
        .unwrap();
        conn
    }

    /// Gets the snapshot of `path` through `conn`, counting builds in `builds`.
    fn get_counted(path: &Path, conn: &Connection, builds: &Cell<usize>) -> Arc<Snapshot> {
        get(path, conn, "m", || {
            builds.set(builds.get() + 1);
            Ok(Snapshot {
                candidates: Vec::new(),
                people: Vec::new(),
            })
        })
        .unwrap()
    }

    #[test]
    fn any_write_by_any_connection_rebuilds_and_nothing_else_does() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.sqlite");
        let conn = open(&path);
        let builds = Cell::new(0);
        let first = get_counted(&path, &conn, &builds);
        let again = get_counted(&path, &conn, &builds);
        assert!(
            Arc::ptr_eq(&first, &again),
            "an unchanged store is served from the cache"
        );
        assert_eq!(builds.get(), 1);

        conn.execute("INSERT INTO t DEFAULT VALUES", []).unwrap();
        get_counted(&path, &conn, &builds);
        assert_eq!(
            builds.get(),
            2,
            "a write through this connection makes the entry stale"
        );

        let other = open(&path);
        other.execute("DELETE FROM t", []).unwrap();
        get_counted(&path, &conn, &builds);
        assert_eq!(
            builds.get(),
            3,
            "a commit by another connection makes it stale"
        );
        get_counted(&path, &conn, &builds);
        assert_eq!(
            builds.get(),
            3,
            "and the rebuilt entry serves the next recall"
        );
    }

    #[test]
    fn a_new_connection_never_takes_an_earlier_ones_entry() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.sqlite");
        let builds = Cell::new(0);
        let conn = open(&path);
        get_counted(&path, &conn, &builds);
        drop(conn);
        // A write while no connection of this process is open: neither counter of the next
        // connection can show it, so only the connection number keeps the entry from being
        // reused.
        open(&path)
            .execute("INSERT INTO t DEFAULT VALUES", [])
            .unwrap();
        let conn = open(&path);
        get_counted(&path, &conn, &builds);
        assert_eq!(builds.get(), 2, "a new connection rebuilds");
    }

    #[test]
    fn nothing_built_inside_a_transaction_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.sqlite");
        let conn = open(&path);
        let builds = Cell::new(0);
        conn.execute_batch("BEGIN; INSERT INTO t DEFAULT VALUES;")
            .unwrap();
        get_counted(&path, &conn, &builds);
        // The rollback undoes the row the entry saw and moves neither counter back.
        conn.execute_batch("ROLLBACK").unwrap();
        get_counted(&path, &conn, &builds);
        assert_eq!(
            builds.get(),
            2,
            "an entry built inside a transaction is not reused"
        );
    }
}
