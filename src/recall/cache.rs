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
//! participants' names (lowercased), times, salience and vectors (one matrix,
//! [`super::dense`]); never episode text.
//! [`forget`] drops a file's entry at once, for callers that delete.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex};

use rusqlite::Connection;

use super::Candidate;
use super::dense::Matrix;
use super::lexical::ById;
use crate::error::Result;

/// The candidates of one store and the names of its people.
#[derive(Debug)]
pub(crate) struct Snapshot {
    pub(crate) candidates: Vec<Candidate>,
    /// The candidates' vectors, which their `vector` and `context_vector` rows index.
    pub(crate) vectors: Matrix,
    /// Speakers and participants, lowercased, without `user` and `assistant`.
    pub(crate) people: Vec<String>,
    /// The people of `people` who speak in some episode (its actor): a LoCoMo speaker, never
    /// someone only talked about.
    pub(crate) speakers: Vec<String>,
    /// Each candidate's index by episode id.
    slots: Slots,
}

/// Candidate indices by episode id. Ids are rowids, mostly consecutive: a table over the span
/// of ids answers with one subtraction; a store whose ids are spread far apart (many deleted)
/// uses a hash map instead of a table mostly empty.
#[derive(Debug)]
enum Slots {
    /// `table[id − first]` is the index, `u32::MAX` where no candidate has that id.
    Table {
        first: i64,
        table: Vec<u32>,
    },
    Map(ById<u32>),
}

/// A table is used while it has at most this many entries per candidate.
const TABLE_SPREAD: usize = 4;

impl Snapshot {
    /// A snapshot of `candidates`, whose vector rows index `vectors`.
    pub(crate) fn new(candidates: Vec<Candidate>, vectors: Matrix, people: Vec<String>) -> Self {
        let ids = || candidates.iter().map(|c| c.id);
        let (first, last) = (ids().min().unwrap_or(0), ids().max().unwrap_or(-1));
        let span = usize::try_from(last.saturating_sub(first).saturating_add(1)).unwrap_or(0);
        let fits = u32::try_from(candidates.len()).is_ok_and(|n| n < u32::MAX);
        let slots = if fits && span <= TABLE_SPREAD * candidates.len() + 1024 {
            let mut table = vec![u32::MAX; span];
            for (i, c) in candidates.iter().enumerate() {
                if let Some(slot) = usize::try_from(c.id - first)
                    .ok()
                    .and_then(|o| table.get_mut(o))
                {
                    *slot = i as u32;
                }
            }
            Slots::Table { first, table }
        } else {
            Slots::Map(
                candidates
                    .iter()
                    .enumerate()
                    .filter_map(|(i, c)| Some((c.id, u32::try_from(i).ok()?)))
                    .collect(),
            )
        };
        let actors: std::collections::HashSet<&str> =
            candidates.iter().map(|c| c.actor.as_str()).collect();
        let speakers = people
            .iter()
            .filter(|p| actors.contains(p.as_str()))
            .cloned()
            .collect();
        Snapshot {
            candidates,
            vectors,
            people,
            speakers,
            slots,
        }
    }

    /// The index in `candidates` of the episode with id `id`, if it is one.
    pub(crate) fn slot(&self, id: i64) -> Option<usize> {
        let i = match &self.slots {
            Slots::Table { first, table } => {
                *table.get(usize::try_from(id.checked_sub(*first)?).ok()?)?
            }
            Slots::Map(map) => *map.get(&id)?,
        };
        (i != u32::MAX).then_some(i as usize)
    }
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
            Ok(Snapshot::new(Vec::new(), Matrix::default(), Vec::new()))
        })
        .unwrap()
    }

    fn candidate(id: i64) -> Candidate {
        Candidate {
            id,
            turn: 0,
            prev_turn: None,
            next_turn: None,
            answers_prev: false,
            asks_next: false,
            actor: "user".into(),
            kind: crate::model::ActKind::Observation,
            participants: Vec::new(),
            occurred_at: chrono::DateTime::UNIX_EPOCH,
            stability: crate::model::Stability::new(1.0).unwrap(),
            salience: 0.5,
            vector: None,
            context_vector: None,
            event: None,
        }
    }

    #[test]
    fn every_candidate_is_found_by_its_id_and_nothing_else_is() {
        // Ids with gaps (deleted episodes) in no particular order: a table over their span.
        // Ids far apart (a span over four per candidate): a map. Both must give each id its
        // own index, and no index for an id between, before or after them.
        for ids in [vec![7, 3, 4, 12, 9], vec![1, 1_000_000, 5, i64::MAX - 1]] {
            let snap = Snapshot::new(
                ids.iter().map(|&id| candidate(id)).collect(),
                Matrix::default(),
                Vec::new(),
            );
            for (i, &id) in ids.iter().enumerate() {
                assert_eq!(snap.slot(id), Some(i), "id {id}");
            }
            for id in [0, 2, 6, 13, 999_999, i64::MIN, i64::MAX] {
                assert_eq!(snap.slot(id), None, "id {id} is no candidate");
            }
        }
        assert!(matches!(
            Snapshot::new(
                vec![candidate(1), candidate(9)],
                Matrix::default(),
                Vec::new()
            )
            .slots,
            Slots::Table { .. }
        ));
        assert!(matches!(
            Snapshot::new(
                vec![candidate(1), candidate(1 << 40)],
                Matrix::default(),
                Vec::new()
            )
            .slots,
            Slots::Map(_)
        ));
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
