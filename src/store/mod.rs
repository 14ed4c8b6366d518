//! The store: one SQLite file per context, owned by one [`Store`].
//!
//! Files are created owner-only (0600); SQLite gives the WAL and SHM files the same mode.

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};

use chrono::{DateTime, FixedOffset, SecondsFormat, Utc};
use rusqlite::Connection;

use crate::error::{Error, Result};
use crate::keys::{Key, KeyConfig, Notice};

mod migrations;

use migrations::MIGRATIONS;

/// The open database of one context.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
    path: PathBuf,
    /// The tombstone secret from the key store; `None`: it lives in the database
    /// (passphrase mode, or encryption off).
    tombstone_secret: Option<Key>,
    /// A key-store notice not yet shown to the user.
    notice: Option<Notice>,
}

impl Store {
    /// Opens (creating if needed, owner-only) the database at `path`
    /// (`<data dir>/<context>.sqlite`) with its key from `keys` (see [`crate::keys`]): a new
    /// file is encrypted from the start, a plaintext one from before encryption is encrypted
    /// first. Then runs pending migrations. Errors: [`Error::WrongKey`] (the file is left as
    /// it was), [`Error::KeyMissing`], [`Error::KeyStore`], [`Error::Io`] if the file cannot
    /// be created, [`Error::SchemaTooNew`] if a newer Minne wrote it, [`Error::Database`]
    /// otherwise.
    pub fn open_with(path: &Path, keys: &KeyConfig) -> Result<Store> {
        if !path.exists() {
            create_owner_only(path)?;
        } else if let Some(dir) = path.parent() {
            // SQLite writes its log and shared-memory files beside the database even to
            // read; in a folder it cannot write in, every command would fail with "unable to
            // open database file" or "attempt to write a readonly database" and no hint.
            check_writable(dir)?;
        }
        // The key is the connection's first statement; `unlock` checks it before any write.
        let (conn, mut unlocked) = crate::keys::unlock(path, keys)?;
        // Another process (the app, the CLI, the MCP server) may hold the write lock briefly.
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        conn.execute_batch(
            "
            -- Readers do not block the writer and a crash never corrupts the file.
            PRAGMA journal_mode = WAL;
            -- SQLite leaves foreign keys off per connection; derived rows cascade through them.
            PRAGMA foreign_keys = ON;
            -- Deleted content is overwritten with zeros, so forgetting leaves no bytes behind.
            PRAGMA secure_delete = ON;
            -- WAL with NORMAL is durable across application crashes.
            PRAGMA synchronous = NORMAL;
            ",
        )?;
        let mut store = Store {
            conn,
            path: path.to_path_buf(),
            tombstone_secret: None,
            notice: unlocked.notice.take(),
        };
        store.migrate()?;
        // The schema is current: a tombstone secret kept in the file moves to the key store.
        store.tombstone_secret = crate::keys::settle_tombstone(&store.conn, &mut unlocked)?;
        if let Some(notice) = &store.notice {
            tracing::warn!("{}", notice.text());
        }
        Ok(store)
    }

    /// The tombstone secret kept in the key store, if this context has one there (see
    /// [`crate::keys`]); `None`: it lives in the database.
    pub(crate) fn tombstone_secret(&self) -> Option<&[u8; 32]> {
        self.tombstone_secret.as_ref().map(Key::bytes)
    }

    /// The key-store notice to show the user once (a key kept in a file because no keyring
    /// was reachable), marking it shown.
    pub(crate) fn take_notice(&mut self) -> Option<String> {
        self.notice.take().map(Notice::take)
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The connection, for the engine's modules.
    pub(crate) fn conn(&self) -> &Connection {
        &self.conn
    }

    /// The connection, mutable, for transactions.
    pub(crate) fn conn_mut(&mut self) -> &mut Connection {
        &mut self.conn
    }

    /// Moves the WAL into the database and truncates it, so deleted content leaves the log.
    pub(crate) fn checkpoint(&self) -> Result<()> {
        self.conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        Ok(())
    }

    /// The schema version this build knows.
    pub fn latest_version() -> i64 {
        MIGRATIONS.len() as i64
    }

    fn migrate(&mut self) -> Result<()> {
        let found: i64 = self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))?;
        let known = Store::latest_version();
        if found > known {
            return Err(Error::SchemaTooNew {
                path: self.path.clone(),
                found,
                known,
            });
        }
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
            // IMMEDIATE: two processes opening a new file at once must not both migrate.
            let tx = self
                .conn
                .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let now: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
            if now > i as i64 {
                continue; // another process ran this one while we waited for the lock
            }
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", (i + 1) as i64)?;
            tx.commit()?;
        }
        Ok(())
    }
}

/// A UTC time as stored: RFC 3339, fixed width (milliseconds, `Z`), so text order is time order.
pub(crate) fn fmt_utc(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Reads a stored UTC time.
/// A time past 9999-12-31 written by chrono's `to_rfc3339` ("+10000-01-01T00:00:00+00:00",
/// stored before imports refused such dates) reads as the last storable instant, so that a
/// store holding one still lists and recalls.
pub(crate) fn parse_utc(s: &str) -> Result<DateTime<Utc>> {
    if s.starts_with('+') && s[1..].chars().take_while(char::is_ascii_digit).count() > 4 {
        return Ok(DateTime::<Utc>::from_naive_utc_and_offset(
            chrono::NaiveDate::from_ymd_opt(9999, 12, 31)
                .and_then(|d| d.and_hms_opt(23, 59, 59))
                .unwrap_or_default(),
            Utc,
        ));
    }
    DateTime::parse_from_rfc3339(s)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| Error::InvalidInput(format!("stored time `{s}` is not RFC 3339: {e}")))
}

/// A time with its writer's offset as stored: RFC 3339.
pub(crate) fn fmt_fixed(t: DateTime<FixedOffset>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, false)
}

/// Reads a stored time with offset.
pub(crate) fn parse_fixed(s: &str) -> Result<DateTime<FixedOffset>> {
    DateTime::parse_from_rfc3339(s)
        .map_err(|e| Error::InvalidInput(format!("stored time `{s}` is not RFC 3339: {e}")))
}

/// Fails with a message that says what to do when nothing can be written in `dir` (a
/// read-only mount, a folder without write permission): creates and removes an empty probe
/// file, since permission bits alone do not tell (root, read-only mounts, ACLs).
fn check_writable(dir: &Path) -> Result<()> {
    let probe = dir.join(format!(
        ".minne-write-probe-{}-{}",
        std::process::id(),
        Utc::now().timestamp_nanos_opt().unwrap_or_default()
    ));
    match OpenOptions::new().write(true).create_new(true).open(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(source) => Err(Error::Io {
            action: "the data folder is read-only or not writable, and Minne must write beside \
                     its databases even to read (SQLite's log): make it writable (chmod u+w, or \
                     remount it read-write), or copy it elsewhere and point MINNE_DATA_DIR at the \
                     copy; the folder is",
            path: dir.to_path_buf(),
            source,
        }),
    }
}

#[cfg(unix)]
fn create_owner_only(path: &Path) -> Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(path)
        .map(|_| ())
        .map_err(|source| Error::Io {
            action: "cannot create",
            path: path.to_path_buf(),
            source,
        })
}

#[cfg(not(unix))]
fn create_owner_only(path: &Path) -> Result<()> {
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map(|_| ())
        .map_err(|source| Error::Io {
            action: "cannot create",
            path: path.to_path_buf(),
            source,
        })
}

/// An embedding as stored: little-endian `f32`s.
pub(crate) fn vector_to_blob(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Reads a stored embedding; `None` if the blob's length is not a whole number of `f32`s.
pub(crate) fn blob_to_vector(b: &[u8]) -> Option<Vec<f32>> {
    if !b.len().is_multiple_of(4) {
        return None;
    }
    Some(
        b.chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_time_past_the_year_9999_reads_as_its_last_second() {
        let t = parse_utc("+10000-01-01T00:00:00+00:00").unwrap();
        assert_eq!(fmt_utc(t), "9999-12-31T23:59:59.000Z");
        assert!(parse_utc("2026-12-03T06:00:00.000Z").is_ok());
        assert!(
            parse_utc("+12-01-01").is_err(),
            "a short signed year is no such time"
        );
    }

    /// `<temp>/data/t.sqlite`, so the key dir `<temp>/keys` is outside the data dir.
    fn data_file(dir: &tempfile::TempDir) -> PathBuf {
        std::fs::create_dir(dir.path().join("data")).unwrap();
        dir.path().join("data").join("t.sqlite")
    }

    /// Keys in the temp dir, never beside it.
    fn keys(dir: &tempfile::TempDir) -> KeyConfig {
        KeyConfig {
            key_dir: Some(dir.path().join("keys")),
            keyring: Some(false),
            ..KeyConfig::default()
        }
    }

    #[test]
    fn open_sets_pragmas_and_migrates_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = data_file(&dir);
        let store = Store::open_with(&path, &keys(&dir)).unwrap();
        let fk: i64 = store
            .conn()
            .query_row("PRAGMA foreign_keys", [], |r| r.get(0))
            .unwrap();
        assert_eq!(fk, 1, "foreign keys must be on so derived rows cascade");
        let sd: i64 = store
            .conn()
            .query_row("PRAGMA secure_delete", [], |r| r.get(0))
            .unwrap();
        assert_eq!(
            sd, 1,
            "secure_delete must be on so deleted bytes are zeroed"
        );
        let mode: String = store
            .conn()
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        drop(store);
        // A second open must find the schema current and not re-run migration 1 (which would
        // fail on CREATE TABLE of an existing table).
        let store = Store::open_with(&path, &keys(&dir)).unwrap();
        let v: i64 = store
            .conn()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(v, Store::latest_version());
    }

    #[cfg(unix)]
    #[test]
    fn database_file_is_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = data_file(&dir);
        let _store = Store::open_with(&path, &keys(&dir)).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(
            mode, 0o600,
            "memories are private: only the owner may read the file"
        );
    }
}
