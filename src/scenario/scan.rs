//! The raw store scan: what a grep of the disk finds in each store, read from the bytes of
//! every file in the data dir, WAL included, so deleted content that was not zeroed is found.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use rusqlite::OpenFlags;

use crate::context::CONTEXT_FILE_EXTENSION;
use crate::error::{Error, Result};

/// Where a byte of the data dir belongs, for the raw store scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Part {
    /// `messages`, `sessions` and their indexes: the conversation history.
    Transcripts,
    /// `episodes` and its indexes: the memories.
    Facts,
    /// `embeddings`: the vectors.
    Vectors,
    /// `episodes_fts*`: the full-text index.
    Fulltext,
    /// `episode_participants`: who an episode names.
    Entities,
    /// `capture_jobs` and `forget_log`: the logs.
    Logs,
    /// `tombstones`: keyed hashes of forgotten messages.
    Tombstones,
    /// Everything else a store holds (schema, settings, speaker baselines).
    Other,
    /// Bytes no live table owns (free pages, superseded WAL frames, files that are not a
    /// database): leftovers of anything, so they go into every store's dump.
    Unowned,
}

impl Part {
    /// The part a table or index (as `dbstat` names it) belongs to.
    fn of_table(name: &str) -> Part {
        let table = name.strip_prefix("sqlite_autoindex_").unwrap_or(name);
        if table.starts_with("messages") || table.starts_with("sessions") {
            Part::Transcripts
        } else if table.starts_with("episodes_fts") {
            Part::Fulltext
        } else if table.starts_with("episode_participants") {
            Part::Entities
        } else if table.starts_with("episodes") {
            Part::Facts
        } else if table.starts_with("embeddings") {
            Part::Vectors
        } else if table.starts_with("capture_jobs") || table.starts_with("forget_log") {
            Part::Logs
        } else if table.starts_with("tombstones") {
            Part::Tombstones
        } else {
            Part::Other
        }
    }

    /// The parts that make up a store the cases name. A store Minne does not have (`caches`,
    /// `exports`, summaries) has no table of its own: its dump is the bytes no
    /// table claims plus the catch-all tables, so a leftover anywhere outside the named
    /// tables is still found.
    fn of_store(store: &str) -> &'static [Part] {
        match store {
            "transcripts" => &[Part::Transcripts],
            "fact_store" => &[Part::Facts],
            "vector_index_payloads" => &[Part::Vectors],
            "fulltext_index" => &[Part::Fulltext],
            "entity_summaries" => &[Part::Entities],
            "logs" => &[Part::Logs],
            "tombstones" => &[Part::Tombstones],
            _ => &[],
        }
    }
}

/// The printable text of each store in `stores`, read from the raw bytes of every file under
/// `data_dir` (databases, WAL and shared-memory files, anything else written there), as a
/// grep of the disk would see them: deleted content that SQLite did not zero is found.
///
/// Each database page is given to the table that owns it (SQLite's `dbstat`, read through a
/// separate read-only connection), and a WAL frame to the owner of its page when it is the
/// newest frame of that page. Minne's stores map onto tables: `fact_store` → `episodes`,
/// `vector_index_payloads` → `embeddings`, `fulltext_index` → `episodes_fts*`, `transcripts`
/// → `messages` and `sessions`, `entity_summaries` → `episode_participants`, `logs` →
/// `capture_jobs` and `forget_log`, `tombstones` → `tombstones`. Every dump also holds the bytes no table owns and the catch-all tables,
/// so nothing can hide between stores; a store Minne does not have gets just those.
pub fn store_dumps(data_dir: &Path, stores: &[String]) -> Result<BTreeMap<String, String>> {
    let mut files = Vec::new();
    collect_files(data_dir, &mut files)?;
    files.sort();
    let read = |path: &Path| {
        std::fs::read(path).map_err(|source| Error::Io {
            action: "cannot read",
            path: path.to_path_buf(),
            source,
        })
    };
    let mut parts: BTreeMap<Part, String> = BTreeMap::new();
    let mut done: Vec<PathBuf> = Vec::new();
    for path in &files {
        if path.extension().and_then(|e| e.to_str()) != Some(CONTEXT_FILE_EXTENSION) {
            continue;
        }
        let bytes = read(path)?;
        let wal_path = PathBuf::from(format!("{}-wal", path.display()));
        let wal = if wal_path.exists() {
            read(&wal_path)?
        } else {
            Vec::new()
        };
        let owners = page_owners(path)?;
        let page_size = match bytes.get(16..18) {
            Some(&[1, 0]) => 65_536,
            Some(&[hi, lo]) if hi != 0 || lo != 0 => usize::from(u16::from_be_bytes([hi, lo])),
            _ => bytes.len().max(1),
        };
        for (i, page) in bytes.chunks(page_size).enumerate() {
            let part = owners
                .get(&(i as u32 + 1))
                .copied()
                .unwrap_or(Part::Unowned);
            push_printable(page, parts.entry(part).or_default());
        }
        split_wal(&wal, &owners, &mut parts);
        done.push(path.clone());
        done.push(wal_path);
    }
    for path in files.iter().filter(|p| !done.contains(p)) {
        push_printable(&read(path)?, parts.entry(Part::Unowned).or_default());
    }
    let shared: String = [Part::Unowned, Part::Other]
        .iter()
        .filter_map(|p| parts.get(p))
        .cloned()
        .collect();
    Ok(stores
        .iter()
        .map(|store| {
            let mut text: String = Part::of_store(store)
                .iter()
                .filter_map(|p| parts.get(p))
                .cloned()
                .collect();
            text.push_str(&shared);
            (store.clone(), text)
        })
        .collect())
}

/// Page number → the part of the table that owns it, as the database reads now (WAL
/// included). Free pages are in no table.
fn page_owners(path: &Path) -> Result<HashMap<u32, Part>> {
    let conn = rusqlite::Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let mut stmt = conn.prepare("SELECT name, pageno FROM dbstat")?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
    let mut owners = HashMap::new();
    for row in rows {
        let (name, page) = row?;
        owners.insert(page as u32, Part::of_table(&name));
    }
    Ok(owners)
}

/// Splits a WAL file (32-byte header, then frames of a 24-byte header and one page) into
/// parts: the newest frame of each page goes to its owner, older frames to [`Part::Unowned`].
fn split_wal(wal: &[u8], owners: &HashMap<u32, Part>, parts: &mut BTreeMap<Part, String>) {
    let Some(header) = wal.get(..32) else {
        push_printable(wal, parts.entry(Part::Unowned).or_default());
        return;
    };
    let page_size = u32::from_be_bytes([header[8], header[9], header[10], header[11]]) as usize;
    if page_size == 0 {
        push_printable(wal, parts.entry(Part::Unowned).or_default());
        return;
    }
    let frames: Vec<&[u8]> = wal[32..].chunks(24 + page_size).collect();
    let page_of = |f: &[u8]| {
        f.get(..4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    };
    let mut newest: HashMap<u32, usize> = HashMap::new();
    for (i, f) in frames.iter().enumerate() {
        if let Some(p) = page_of(f) {
            newest.insert(p, i);
        }
    }
    for (i, f) in frames.iter().enumerate() {
        let part = match page_of(f) {
            Some(p) if newest.get(&p) == Some(&i) => {
                owners.get(&p).copied().unwrap_or(Part::Unowned)
            }
            _ => Part::Unowned,
        };
        push_printable(f, parts.entry(part).or_default());
    }
}

fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let entries = std::fs::read_dir(dir).map_err(|source| Error::Io {
        action: "cannot list",
        path: dir.to_path_buf(),
        source,
    })?;
    for entry in entries {
        let entry = entry.map_err(|source| Error::Io {
            action: "cannot list",
            path: dir.to_path_buf(),
            source,
        })?;
        let path = entry.path();
        if path.is_dir() {
            collect_files(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

/// Appends the printable text of `bytes`: valid UTF-8 that is not a control character.
fn push_printable(bytes: &[u8], out: &mut String) {
    let text = String::from_utf8_lossy(bytes);
    let mut gap = true;
    for c in text.chars() {
        if c.is_control() || c == char::REPLACEMENT_CHARACTER {
            if !gap {
                out.push('\n');
                gap = true;
            }
        } else {
            out.push(c);
            gap = false;
        }
    }
    if !gap {
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_text_keeps_words_whole_and_drops_binary() {
        let mut out = String::new();
        push_printable(b"\x00\x01code 4471#\x00\xff\xfeG\xc3\xa4vle\x02", &mut out);
        assert_eq!(
            out, "code 4471#\nGävle\n",
            "stored strings must come out whole for the grep"
        );
    }

    #[test]
    fn each_store_gets_its_tables_pages_wal_included() {
        let dir = tempfile::tempdir().unwrap();
        let conn = rusqlite::Connection::open(dir.path().join("personal.sqlite")).unwrap();
        conn.execute_batch(
            "PRAGMA journal_mode = WAL;
             CREATE TABLE messages (text TEXT); CREATE TABLE episodes (text TEXT);
             INSERT INTO messages VALUES ('said-7731'); INSERT INTO episodes VALUES ('kept-5120');",
        )
        .unwrap();
        // The connection stays open, so the rows sit in the WAL as in a running app.
        let stores: Vec<String> = ["transcripts", "fact_store", "caches"]
            .map(String::from)
            .to_vec();
        let dumps = store_dumps(dir.path(), &stores).unwrap();
        let has = |store: &str, s: &str| dumps.get(store).is_some_and(|d| d.contains(s));
        assert!(
            has("transcripts", "said-7731") && !has("transcripts", "kept-5120"),
            "transcripts hold messages only"
        );
        assert!(
            has("fact_store", "kept-5120") && !has("fact_store", "said-7731"),
            "the fact store holds episodes only"
        );
        assert!(
            !has("caches", "said-7731") && !has("caches", "kept-5120"),
            "Minne has no cache table"
        );
        drop(conn);
    }
}
