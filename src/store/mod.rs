//! The store: one SQLite file per context, owned by one [`Store`].
//!
//! Files are created owner-only (0600); SQLite gives the WAL and SHM files the same mode.

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Datelike, FixedOffset, SecondsFormat, Timelike, Utc};
use rusqlite::Connection;

use crate::error::{Error, Result};
use crate::keys::{Key, KeyConfig, Notice};

mod migrations;
pub(crate) mod private;

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
        let created = !path.exists();
        if created {
            create_owner_only(path)?;
        } else {
            private::tighten_file(path)?;
            if let Some(dir) = path.parent() {
                // SQLite writes its log and shared-memory files beside the database even to
                // read; in a folder it cannot write in, every command would fail with "unable
                // to open database file" or "attempt to write a readonly database" and no hint.
                check_writable(dir)?;
            }
        }
        let opened = Self::open_file(path, keys, created);
        let still_empty = || std::fs::metadata(path).is_ok_and(|m| m.len() == 0);
        if created && opened.is_err() && still_empty() {
            // The empty file this call made holds nothing of anyone's: left behind, it would
            // read as a damaged store on the next open (issue 30, finding 8: `--data-dir ..`).
            // One another process has written to since is not empty, and stays.
            for leftover in [
                path.to_path_buf(),
                sidecar(path, "-wal"),
                sidecar(path, "-shm"),
            ] {
                let _ = std::fs::remove_file(leftover);
            }
        }
        opened
    }

    fn open_file(path: &Path, keys: &KeyConfig, created: bool) -> Result<Store> {
        // The key is the connection's first statement; `unlock` checks it before any write.
        let (conn, mut unlocked) = crate::keys::unlock(path, keys, created)?;
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

/// The first year a stored time may fall in: earlier dates are no conversation of anyone's
/// (an export's `create_time` of `-1e12`, a sentinel 0001-01-01) and every reader of the store
/// must be able to read each stored time back (RFC 3339 has no year before 0000).
pub const FIRST_STORABLE_YEAR: i32 = 1900;

/// The first year a message may not be dated in: times derived from its words ("next year",
/// "in two weeks") must stay within RFC 3339's four-digit years.
pub const LAST_STORABLE_YEAR: i32 = 9000;

/// Whether a message may be dated `t`: within [`FIRST_STORABLE_YEAR`, `LAST_STORABLE_YEAR`)
/// (UTC). Errors: what is out of range and the range, for the caller's message.
pub fn check_storable(t: DateTime<FixedOffset>) -> std::result::Result<(), String> {
    let year = t.to_utc().year();
    if (FIRST_STORABLE_YEAR..LAST_STORABLE_YEAR).contains(&year) {
        return Ok(());
    }
    let when = if year < FIRST_STORABLE_YEAR {
        "before"
    } else {
        "at the calendar's end, after"
    };
    Err(format!(
        "is dated {when} the times Minne stores ({FIRST_STORABLE_YEAR}-01-01 to {}-12-31, UTC)",
        LAST_STORABLE_YEAR - 1
    ))
}

/// `t` moved into the range a stored time can be compared in: a bound of a time range
/// (`forget --to 9999-12-31` ends at 10000-01-01, which RFC 3339 cannot write and which, as
/// text, sorts before every stored time) becomes the first or last instant of years 0000 to
/// 9999, so it still covers every stored time it should.
pub(crate) fn clamp_bound(t: DateTime<Utc>) -> DateTime<Utc> {
    t.clamp(first_instant(), last_instant())
}

/// 0000-01-01T00:00:00Z: the first instant RFC 3339 writes.
fn first_instant() -> DateTime<Utc> {
    chrono::NaiveDate::from_ymd_opt(0, 1, 1)
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map_or(DateTime::<Utc>::MIN_UTC, |t| t.and_utc())
}

/// 9999-12-31T23:59:59.999Z: the last instant RFC 3339 writes, to the millisecond.
fn last_instant() -> DateTime<Utc> {
    chrono::NaiveDate::from_ymd_opt(9999, 12, 31)
        .and_then(|d| d.and_hms_milli_opt(23, 59, 59, 999))
        .map_or(DateTime::<Utc>::MAX_UTC, |t| t.and_utc())
}

/// A UTC time as stored: RFC 3339, fixed width (milliseconds, `Z`), so text order is time order.
pub(crate) fn fmt_utc(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// A stored time chrono wrote outside RFC 3339's four-digit years, read as the nearest
/// instant RFC 3339 can write: "+10000-01-01T…" (stored before imports refused such dates) as
/// 9999-12-31T23:59:59, "-29719-04-05T…" (an export's `create_time` of `-1e12`, stored before
/// imports refused dates before 1900) as 0000-01-01T00:00:00. So a store holding one still
/// lists, recalls, exports and forgets. `None` for any other text.
fn out_of_range(s: &str) -> Option<DateTime<Utc>> {
    let sign = s.chars().next().filter(|c| matches!(c, '+' | '-'))?;
    let digits = s[1..].chars().take_while(char::is_ascii_digit).count();
    // chrono writes a signed year with at least four digits: "-0001-…" is year -1, "+12-" no
    // year at all.
    if digits < 4 || !s[1 + digits..].starts_with('-') {
        return None;
    }
    Some(match sign {
        '+' => last_instant().with_nanosecond(0).unwrap_or(last_instant()),
        _ => first_instant(),
    })
}

/// Reads a stored UTC time; one out of RFC 3339's range reads as its nearest end
/// ([`out_of_range`]).
pub(crate) fn parse_utc(s: &str) -> Result<DateTime<Utc>> {
    if let Some(t) = out_of_range(s) {
        return Ok(t);
    }
    DateTime::parse_from_rfc3339(s)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| Error::InvalidInput(format!("stored time `{s}` is not RFC 3339: {e}")))
}

/// A time with its writer's offset as stored: RFC 3339.
pub(crate) fn fmt_fixed(t: DateTime<FixedOffset>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, false)
}

/// Reads a stored time with offset; one out of RFC 3339's range reads as its nearest end,
/// in UTC ([`out_of_range`]).
pub(crate) fn parse_fixed(s: &str) -> Result<DateTime<FixedOffset>> {
    if let Some(t) = out_of_range(s) {
        return Ok(t.fixed_offset());
    }
    DateTime::parse_from_rfc3339(s)
        .map_err(|e| Error::InvalidInput(format!("stored time `{s}` is not RFC 3339: {e}")))
}

/// `path` with `suffix` appended to its file name (SQLite's `-wal` and `-shm` files).
fn sidecar(path: &Path, suffix: &str) -> std::path::PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(suffix);
    name.into()
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
        assert_eq!(
            parse_fixed("+10000-01-01T00:00:00+00:00")
                .map(fmt_fixed)
                .ok()
                .as_deref(),
            Some("9999-12-31T23:59:59+00:00")
        );
        assert!(parse_utc("2026-12-03T06:00:00.000Z").is_ok());
        assert!(
            parse_utc("+12-01-01").is_err(),
            "a short signed year is no such time"
        );
    }

    #[test]
    fn a_stored_time_before_the_year_0_reads_as_the_first_instant() {
        // What chrono writes for an export's `create_time` of -1e12 (by `to_rfc3339_opts`):
        // stored by older builds, it made every later read of the store fail.
        let chrono_wrote = DateTime::from_timestamp(-1_000_000_000_000, 0)
            .map(fmt_utc)
            .unwrap();
        assert!(chrono_wrote.starts_with("-29719-"), "{chrono_wrote}");
        assert_eq!(
            parse_utc(&chrono_wrote).map(fmt_utc).ok().as_deref(),
            Some("0000-01-01T00:00:00.000Z")
        );
        assert_eq!(
            parse_fixed("-0001-12-31T23:00:00+00:00")
                .map(fmt_fixed)
                .ok()
                .as_deref(),
            Some("0000-01-01T00:00:00+00:00"),
            "year -1 is before year 0 too"
        );
        assert!(
            parse_utc("-12-01-01").is_err(),
            "a short signed year is no such time"
        );
    }

    #[test]
    fn the_storable_range_is_1900_to_8999_and_says_so() {
        let at = |s: &str| DateTime::parse_from_rfc3339(s).unwrap();
        assert!(check_storable(at("1900-01-01T00:00:00Z")).is_ok());
        assert!(check_storable(at("8999-12-31T23:59:59Z")).is_ok());
        // 1900-01-01 00:30 in UTC+01:00 is 1899-12-31 23:30 UTC: the range is UTC's.
        let early = check_storable(at("1900-01-01T00:30:00+01:00")).unwrap_err();
        assert!(
            early.contains("before") && early.contains("1900-01-01"),
            "{early}"
        );
        let late = check_storable(at("9000-01-01T00:00:00Z")).unwrap_err();
        assert!(late.contains("8999-12-31"), "{late}");
    }

    #[test]
    fn a_range_bound_past_either_end_covers_every_storable_time() {
        let end = DateTime::parse_from_rfc3339("10000-01-01T00:00:00Z")
            .map(|t| t.to_utc())
            .unwrap_or_else(|_| {
                chrono::NaiveDate::from_ymd_opt(10000, 1, 1)
                    .and_then(|d| d.and_hms_opt(0, 0, 0))
                    .unwrap()
                    .and_utc()
            });
        let stored = "8999-12-31T23:59:59.000Z";
        assert!(
            fmt_utc(end).as_str() < stored,
            "unclamped, the bound sorts before stored times: the fault"
        );
        assert!(fmt_utc(clamp_bound(end)).as_str() > stored);
        assert_eq!(fmt_utc(clamp_bound(end)), "9999-12-31T23:59:59.999Z");
        assert_eq!(
            fmt_utc(clamp_bound(DateTime::<Utc>::MIN_UTC)),
            "0000-01-01T00:00:00.000Z"
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
