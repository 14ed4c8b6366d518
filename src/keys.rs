//! Keys: every context's database is encrypted at rest (SQLCipher 4: AES-256-CBC pages with
//! an HMAC-SHA512 per page), each context with its own key. docs/encryption.md is the user's
//! guide; this module is the rule book.
//!
//! **Where a context's key comes from**, in this order:
//! 1. A **stored key**: 32 random bytes made when the context was created, kept in the OS
//!    keyring (Secret Service on Linux, the Keychain on macOS, the Credential Manager on
//!    Windows; service `minne`, user `<store id>/<context>`) or, where no keyring is
//!    reachable, in the owner-only (0600) file `<key dir>/<context>.key`. The key is handed to
//!    SQLCipher raw (`x'…'`), so no KDF runs on open.
//! 2. A **passphrase** (`MINNE_PASSPHRASE`), for a context that has no stored key: SQLCipher's
//!    own KDF, PBKDF2-HMAC-SHA512 with 256,000 iterations and the 16-byte random salt kept in
//!    the file's first bytes (SQLCipher 4 defaults). A new context made while a passphrase is
//!    set is made in passphrase mode and nothing about it is stored outside its file.
//!
//! **The key dir** holds key files, the store id and the "said once" marker; it is never the
//! data dir. It is [`KeyConfig::key_dir`] when set (the front ends set it from
//! `MINNE_CONFIG_DIR`: `$MINNE_CONFIG_DIR/keys`), else the platform config dir
//! (`~/.config/minne/keys`) for the platform data dir, else `<data dir>.keys` beside any other
//! data dir, so a throwaway or test data dir never writes keys into the user's config.
//!
//! **The tombstone secret** (the HMAC key of forgotten content, see [`crate::forget`]) rides in
//! the same stored record as the database key, so a stolen database file alone does not carry
//! it. It never changes on key rotation, since tombstones made with it must keep matching. In
//! passphrase mode it stays inside the encrypted database.
//!
//! **Rotation** (`minne key rotate`) is crash-safe in this order: store `{new, previous: old}`,
//! `PRAGMA rekey` (one SQLite transaction), then store `{new}`. Opening tries the current key,
//! then the previous one, so a crash at any step leaves the context openable.
//!
//! **Plaintext stores** written before encryption (header `SQLite format 3\0`) are encrypted
//! on first open: `sqlcipher_export` into a new file, fsync, rename over the old one, and the
//! old file's bytes overwritten with zeros; its WAL and shared-memory files are removed.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Once;

use rusqlite::{Connection, OpenFlags, OptionalExtension};

use crate::error::{Error, Result};

/// The first 16 bytes of a plaintext SQLite file.
const PLAINTEXT_HEADER: &[u8; 16] = b"SQLite format 3\0";
/// The keyring service name.
const KEYRING_SERVICE: &str = "minne";
/// The first line of a stored key record.
const RECORD_MAGIC: &str = "minne-key v1";
/// The marker file whose presence means the "key kept in a file" notice was shown.
const NOTICE_MARKER: &str = "file-key-notice-shown";

/// Whether context files are encrypted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Encryption {
    /// Every context file is encrypted with its own key (the default).
    #[default]
    On,
    /// Plain SQLite files, for diagnostics only (`MINNE_UNENCRYPTED=1`): tests that scan the
    /// raw bytes of the files to prove forgotten content is gone use it. An encrypted file is
    /// refused in this mode, never decrypted or overwritten.
    Off,
}

/// A passphrase; its `Debug` never shows it.
#[derive(Clone, PartialEq, Eq)]
pub struct Passphrase(String);

impl Passphrase {
    /// A passphrase, or [`Error::InvalidInput`] if it is empty or only white space.
    pub fn new(text: &str) -> Result<Passphrase> {
        let text = text.trim_end_matches(['\r', '\n']);
        if text.trim().is_empty() {
            return Err(Error::InvalidInput(
                "the passphrase is empty: give at least one character that is not a space".into(),
            ));
        }
        Ok(Passphrase(text.to_string()))
    }
}

impl fmt::Debug for Passphrase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Passphrase(…)")
    }
}

/// How context keys are found and made. `KeyConfig::default()` encrypts, stores keys in the
/// default key dir (see the module doc) and uses the keyring by that dir's default.
#[derive(Debug, Clone, Default)]
pub struct KeyConfig {
    /// Encrypt or not ([`Encryption::Off`] is for diagnostics only).
    pub encryption: Encryption,
    /// The key dir; `None`: the default for the data dir (module doc).
    pub key_dir: Option<PathBuf>,
    /// Use the OS keyring; `None`: yes for a key dir in a config dir, no for a
    /// `<data dir>.keys` dir (a test or throwaway data dir leaves nothing in the keyring).
    pub keyring: Option<bool>,
    /// The passphrase for contexts without a stored key, and for new contexts.
    pub passphrase: Option<Passphrase>,
}

impl KeyConfig {
    /// Plain SQLite files (diagnostics only; see [`Encryption::Off`]).
    pub fn unencrypted() -> KeyConfig {
        KeyConfig {
            encryption: Encryption::Off,
            ..KeyConfig::default()
        }
    }

    /// The key dir for `data_dir` and whether the keyring is used there (module doc).
    pub fn resolve(&self, data_dir: &Path) -> Result<(PathBuf, bool)> {
        if let Some(dir) = &self.key_dir {
            return Ok((dir.clone(), self.keyring.unwrap_or(true)));
        }
        // The platform folders are looked up here (as `Settings::from_env` does) so that the
        // app and the CLI agree on the key dir of the default data dir whichever way they open.
        if let Some(dirs) = directories::ProjectDirs::from("", "", "minne")
            && same_dir(dirs.data_dir(), data_dir)
        {
            return Ok((dirs.config_dir().join("keys"), self.keyring.unwrap_or(true)));
        }
        // `..` or `.` names no folder: the folder it resolves to does.
        let resolved;
        let data_dir = match data_dir.file_name() {
            Some(_) => data_dir,
            None => {
                resolved = data_dir
                    .canonicalize()
                    .unwrap_or_else(|_| data_dir.to_path_buf());
                resolved.as_path()
            }
        };
        let name = data_dir
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or_else(|| {
                Error::InvalidInput(format!(
                    "the data dir {} has no folder name to put its keys beside: set MINNE_CONFIG_DIR",
                    data_dir.display()
                ))
            })?;
        Ok((
            data_dir.with_file_name(format!("{name}.keys")),
            self.keyring.unwrap_or(false),
        ))
    }
}

fn same_dir(a: &Path, b: &Path) -> bool {
    a == b
        || match (a.canonicalize(), b.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        }
}

/// Where a context's key lives, as `minne key status` shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum KeySource {
    /// In the OS keyring under service `minne` and this user name.
    Keyring {
        /// The keyring entry's user name (`<store id>/<context>`).
        entry: String,
    },
    /// In this owner-only key file.
    File {
        /// The key file.
        path: PathBuf,
    },
    /// Derived from a passphrase (no stored key).
    Passphrase,
    /// The file is plain SQLite: written before encryption (it is encrypted on next open) or
    /// with encryption off.
    Unencrypted,
    /// Encrypted, but no stored key was found and no passphrase is set.
    Missing,
}

impl fmt::Display for KeySource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeySource::Keyring { entry } => {
                write!(
                    f,
                    "the OS keyring (service `{KEYRING_SERVICE}`, user `{entry}`)"
                )
            }
            KeySource::File { path } => write!(f, "the key file {}", path.display()),
            KeySource::Passphrase => f.write_str("a passphrase (MINNE_PASSPHRASE)"),
            KeySource::Unencrypted => f.write_str("nowhere: the file is not encrypted"),
            KeySource::Missing => f.write_str(
                "no stored key: a passphrase context (set MINNE_PASSPHRASE), or its key is lost",
            ),
        }
    }
}

/// One context's key, as `minne key status` reports it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct KeyStatus {
    /// The context.
    pub context: String,
    /// Its database file.
    pub path: PathBuf,
    /// Where its key lives.
    pub source: KeySource,
    /// A rotation stopped between storing the new key and re-keying: the next open or
    /// `minne key rotate` finishes it.
    pub rotation_pending: bool,
}

/// 32 key bytes.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Key([u8; 32]);

impl Key {
    fn random() -> Result<Key> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes)
            .map_err(|e| Error::KeyStore(format!("no randomness for a new key: {e}")))?;
        Ok(Key(bytes))
    }

    fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    fn from_hex(text: &str) -> Option<Key> {
        let text = text.trim();
        if text.len() != 64 || !text.is_ascii() {
            return None;
        }
        let mut bytes = [0u8; 32];
        for (i, byte) in bytes.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(Key(bytes))
    }

    /// The SQLCipher raw-key literal: `x'<64 hex>'` (no KDF on open).
    fn sql_literal(&self) -> String {
        format!("x'{}'", self.hex())
    }

    /// The bytes.
    pub(crate) fn bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Key(…)")
    }
}

/// What the key store keeps per context.
#[derive(Debug, Clone)]
struct KeyRecord {
    current: Key,
    previous: Option<Key>,
    tombstone: Option<Key>,
}

impl KeyRecord {
    fn to_text(&self) -> String {
        let mut out = format!("{RECORD_MAGIC}\nkey {}\n", self.current.hex());
        if let Some(p) = &self.previous {
            out.push_str(&format!("previous {}\n", p.hex()));
        }
        if let Some(t) = &self.tombstone {
            out.push_str(&format!("tombstone {}\n", t.hex()));
        }
        out
    }

    fn parse(text: &str, origin: &dyn fmt::Display) -> Result<KeyRecord> {
        let bad = |why: &str| {
            Error::KeyStore(format!(
                "the key record in {origin} is damaged ({why}): restore it from your backup"
            ))
        };
        let mut lines = text.lines();
        if lines.next().map(str::trim) != Some(RECORD_MAGIC) {
            return Err(bad("it does not start with `minne-key v1`"));
        }
        let (mut current, mut previous, mut tombstone) = (None, None, None);
        for line in lines.filter(|l| !l.trim().is_empty()) {
            let (field, value) = line
                .split_once(' ')
                .ok_or_else(|| bad("a line without a value"))?;
            let key = Key::from_hex(value).ok_or_else(|| bad("a key that is not 64 hex digits"))?;
            match field {
                "key" => current = Some(key),
                "previous" => previous = Some(key),
                "tombstone" => tombstone = Some(key),
                _ => return Err(bad("an unknown field")),
            }
        }
        Ok(KeyRecord {
            current: current.ok_or_else(|| bad("no `key` line"))?,
            previous,
            tombstone,
        })
    }
}

/// Where a stored record was found or put.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    Keyring,
    File,
}

/// The key store of one data dir.
#[derive(Debug)]
struct KeyStore {
    dir: PathBuf,
    keyring: bool,
}

impl KeyStore {
    fn for_data_dir(config: &KeyConfig, data_dir: &Path) -> Result<KeyStore> {
        let (dir, keyring) = config.resolve(data_dir)?;
        if same_dir(&dir, data_dir) || dir.starts_with(data_dir) {
            return Err(Error::InvalidInput(format!(
                "the key dir {} is inside the data dir: keys must live apart from the data they unlock (set MINNE_CONFIG_DIR elsewhere)",
                dir.display()
            )));
        }
        Ok(KeyStore { dir, keyring })
    }

    fn key_file(&self, context: &str) -> PathBuf {
        self.dir.join(format!("{context}.key"))
    }

    fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> Error {
        let path = path.to_path_buf();
        move |source| Error::Io {
            action,
            path,
            source,
        }
    }

    fn ensure_dir(&self) -> Result<()> {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::DirBuilderExt;
            builder.mode(0o700);
        }
        builder
            .create(&self.dir)
            .map_err(Self::io("cannot create", &self.dir))?;
        // A key dir that was there keeps its mode through `create` (a 0777 one stayed so).
        crate::store::private::tighten_dir(&self.dir, "key dir")
    }

    /// An exclusive lock on the key dir, held while a key is made, a plaintext store is
    /// encrypted or a key rotates, so processes starting at once agree on one key.
    fn lock(&self) -> Result<File> {
        self.ensure_dir()?;
        let path = self.dir.join(".lock");
        let file = owner_only_options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(Self::io("cannot open", &path))?;
        file.lock().map_err(Self::io("cannot lock", &path))?;
        Ok(file)
    }

    /// The id naming this key dir's entries in the keyring, made once (random, 16 hex).
    fn store_id(&self) -> Result<String> {
        let path = self.dir.join("store-id");
        if let Ok(id) = std::fs::read_to_string(&path)
            && !id.trim().is_empty()
        {
            return Ok(id.trim().to_string());
        }
        let id: String = Key::random()?.hex()[..16].to_string();
        write_private_atomic(&path, id.as_bytes())?;
        Ok(id)
    }

    fn keyring_entry(&self, context: &str) -> Result<Option<(keyring::Entry, String)>> {
        if !self.keyring {
            return Ok(None);
        }
        self.ensure_dir()?;
        let user = format!("{}/{context}", self.store_id()?);
        match keyring::Entry::new(KEYRING_SERVICE, &user) {
            Ok(entry) => Ok(Some((entry, user))),
            Err(e) => {
                tracing::debug!("no keyring entry for {user}: {e}");
                Ok(None)
            }
        }
    }

    /// The stored record of `context`: the keyring first, then the key file.
    fn load(&self, context: &str) -> Result<Option<(KeyRecord, Place)>> {
        if self.keyring
            && self.dir.join("store-id").exists()
            && let Some((entry, user)) = self.keyring_entry(context)?
        {
            match entry.get_password() {
                Ok(text) => {
                    let origin = format!("the keyring entry `{user}`");
                    return Ok(Some((KeyRecord::parse(&text, &origin)?, Place::Keyring)));
                }
                Err(keyring::Error::NoEntry) => {}
                Err(e) => tracing::debug!("the keyring is not reachable: {e}"),
            }
        }

        let path = self.key_file(context);
        // A key dir others can write (0777: they could delete or swap every key) and a key
        // file others can read (copied in as 0644) are made owner-only before use, on every
        // read of a key, not only when one is made.
        crate::store::private::tighten_dir(&self.dir, "key dir")?;
        crate::store::private::tighten_file(&path)?;
        match std::fs::read_to_string(&path) {
            Ok(text) => Ok(Some((
                KeyRecord::parse(&text, &path.display())?,
                Place::File,
            ))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Self::io("cannot read", &path)(e)),
        }
    }

    /// Stores `record` at `place` (`None`: a new record, the keyring if reachable, else a key
    /// file). Returns where it went and, the first time a key file is made in this key dir,
    /// the notice saying so.
    fn save(
        &self,
        context: &str,
        record: &KeyRecord,
        place: Option<Place>,
    ) -> Result<(Place, Option<Notice>)> {
        self.ensure_dir()?;
        let text = record.to_text();
        if place != Some(Place::File)
            && self.keyring
            && let Some((entry, user)) = self.keyring_entry(context)?
        {
            // Read back: a keyring that accepts and forgets (a locked collection) is no
            // keyring.
            let stored = entry
                .set_password(&text)
                .and_then(|()| entry.get_password())
                .map(|back| back == text);
            match stored {
                Ok(true) => {
                    // A record moving into the keyring leaves no stale key file behind.
                    let file = self.key_file(context);
                    if file.exists() {
                        remove_scrubbed(&file)?;
                    }
                    return Ok((Place::Keyring, None));
                }
                Ok(false) => tracing::debug!("the keyring entry {user} did not read back"),
                Err(e) => {
                    if place == Some(Place::Keyring) {
                        return Err(Error::KeyStore(format!(
                            "cannot update the key of `{context}` in the keyring: {e}"
                        )));
                    }
                    tracing::debug!("the keyring is not reachable: {e}");
                }
            }
        }

        let path = self.key_file(context);
        write_private_atomic(&path, text.as_bytes())?;
        Ok((Place::File, self.file_notice(context)))
    }

    /// The "key kept in a file" notice, until it has been shown once in this key dir.
    fn file_notice(&self, context: &str) -> Option<Notice> {
        let marker = self.dir.join(NOTICE_MARKER);
        (!marker.exists()).then(|| Notice {
            text: format!(
                "no OS keyring was reachable, so the key of the context `{context}` (and of other contexts) is kept in an owner-only key file in {}. Back that folder up, apart from the data: without it the context cannot be opened. See docs/encryption.md. (This note is shown once.)",
                self.dir.display()
            ),
            marker,
        })
    }

    /// Before a new context's key is made: a key file already in the key dir for a context
    /// whose database does not exist yet is none Minne made for it (one planted there, or
    /// left from a database removed by hand), and adopting it would encrypt the new context
    /// with a key someone else holds. It is renamed `<context>.key.unused-<UNIX seconds>`,
    /// kept (it may open a database backed up elsewhere), and a warning names it. (An empty
    /// database file found on disk is refused as damaged before this, by `Store::open_with`.)
    /// Errors: [`Error::Io`] when the rename fails.
    fn set_aside_unused(&self, context: &str) -> Result<()> {
        let file = self.key_file(context);
        if !file.exists() {
            return Ok(());
        }
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let aside = self.dir.join(format!("{context}.key.unused-{stamp}"));
        std::fs::rename(&file, &aside).map_err(Self::io("cannot set aside", &file))?;
        tracing::warn!(
            "a key file for `{context}` was in the key dir before the context existed: not \
             used; kept as {}",
            aside.display()
        );
        Ok(())
    }

    /// Removes the stored record of `context` from wherever it is.
    fn delete(&self, context: &str) -> Result<()> {
        if self.keyring
            && self.dir.join("store-id").exists()
            && let Some((entry, _)) = self.keyring_entry(context)?
        {
            match entry.delete_credential() {
                Ok(()) | Err(keyring::Error::NoEntry) => {}
                Err(e) => tracing::debug!("the keyring is not reachable: {e}"),
            }
        }

        let file = self.key_file(context);
        if file.exists() {
            remove_scrubbed(&file)?;
        }
        Ok(())
    }

    fn describe(&self, context: &str, place: Place) -> Result<KeySource> {
        Ok(match place {
            Place::Keyring => KeySource::Keyring {
                entry: format!("{}/{context}", self.store_id()?),
            },
            Place::File => KeySource::File {
                path: self.key_file(context),
            },
        })
    }

    fn looked_in(&self, context: &str) -> String {
        let file = self.key_file(context).display().to_string();
        if self.keyring {
            format!("the OS keyring (service `{KEYRING_SERVICE}`) and the key file {file}")
        } else {
            format!("the key file {file}")
        }
    }
}

/// A notice for the user, shown once: the marker file is written when it is taken.
#[derive(Debug, Clone)]
pub(crate) struct Notice {
    text: String,
    marker: PathBuf,
}

impl Notice {
    /// The text, without marking it shown.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    /// The text, marking it shown.
    pub(crate) fn take(self) -> String {
        if let Err(e) = write_private_atomic(&self.marker, b"shown\n") {
            tracing::warn!("cannot record that the key notice was shown: {e}");
        }
        self.text
    }
}

/// What the database was unlocked with.
#[derive(Debug, Clone)]
enum Secret {
    Key(Key),
    Passphrase(Passphrase),
}

impl Secret {
    fn sql_value(&self) -> String {
        match self {
            Secret::Key(k) => k.sql_literal(),
            Secret::Passphrase(Passphrase(p)) => p.clone(),
        }
    }
}

/// What came with an open, verified connection.
#[derive(Debug)]
pub(crate) struct Unlocked {
    /// The tombstone secret from the key store (`None`: it lives in the database).
    pub(crate) tombstone: Option<Key>,
    /// A notice to show the user once.
    pub(crate) notice: Option<Notice>,
    /// What to finish after the schema is in place (tombstone secret moving out of the file).
    pending: Option<Pending>,
}

#[derive(Debug)]
struct Pending {
    store: KeyStore,
    context: String,
    record: KeyRecord,
    place: Place,
}

/// The error for a context's database that exists, is empty (0 bytes) and has a key: Minne
/// writes a header the moment it makes a store, so the file was cut short or emptied, and
/// opening it would rebuild it as an empty store and hide that (issue 30, finding 8).
fn damaged(path: &Path) -> Error {
    Error::InvalidInput(format!(
        "the database {} is empty (0 bytes) though its context has a key: it was damaged or \
         cut short, and Minne will not rebuild it as an empty store. Restore it from a backup; \
         to start this context afresh instead, delete the file and its key",
        path.display()
    ))
}

/// Why the file at `path` is certainly not a Minne store, so that Minne must neither open
/// it as a context nor encrypt, migrate or forget it (a second attack on issue 30 found a
/// user's own SQLite database in the data dir encrypted with a new key, and 5 bytes of junk
/// blocking `forget --everything`): `None` when it may be one (missing, empty, or a file
/// Minne could have written).
/// - A non-empty file of fewer than 512 bytes, or of a size that is no whole number of
///   512-byte units: every SQLite database, encrypted too, is whole pages of 512 to 65,536
///   bytes.
/// - A plain SQLite database that holds tables but not Minne's `messages` and `episodes`
///   (one with no table at all holds nothing to lose, and is what an interrupted first open
///   leaves).
///
/// Errors: [`Error::Io`] when the file cannot be read; [`Error::Database`] when a plain
/// SQLite file cannot be opened to list its tables.
pub(crate) fn not_a_store(path: &Path) -> Result<Option<String>> {
    let len = match std::fs::metadata(path) {
        Ok(m) => m.len(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(KeyStore::io("cannot read", path)(e)),
    };
    if len > 0 && (len < 512 || len % 512 != 0) {
        return Ok(Some(format!(
            "it is {len} bytes, and every SQLite database is whole pages of 512 bytes or more"
        )));
    }
    if file_state(path)? != FileState::Plain {
        return Ok(None);
    }
    let conn = connect(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    let (tables, minnes): (i64, i64) = conn.query_row(
        "SELECT count(*), count(*) FILTER (WHERE name IN ('messages', 'episodes'))
         FROM sqlite_master WHERE type = 'table'",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    Ok((tables > 0 && minnes < 2).then(|| {
        format!("it is an SQLite database of {tables} tables without Minne's messages and episodes")
    }))
}

/// The error for opening a file that is not a Minne store as the context `context`.
fn refuse_foreign(path: &Path, why: &str) -> Error {
    let dir = path
        .parent()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    Error::InvalidInput(format!(
        "{} is not a Minne database ({why}), so Minne neither opens nor changes it: move it \
         out of the data dir {dir}, which is for Minne's own files",
        path.display()
    ))
}

/// The state of a database file on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FileState {
    /// Missing or empty: a new context.
    New,
    /// Plain SQLite.
    Plain,
    /// Anything else: encrypted (or foreign).
    Encrypted,
}

fn file_state(path: &Path) -> Result<FileState> {
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(FileState::New),
        Err(e) => return Err(KeyStore::io("cannot read", path)(e)),
    };
    let mut head = [0u8; 16];
    let mut read = 0;
    while read < head.len() {
        match file.read(&mut head[read..]) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(e) => return Err(KeyStore::io("cannot read", path)(e)),
        }
    }
    Ok(match read {
        0 => FileState::New,
        16 if &head == PLAINTEXT_HEADER => FileState::Plain,
        _ => FileState::Encrypted,
    })
}

/// The context name and data dir of a database path (`<data dir>/<context>.sqlite`).
fn split_path(path: &Path) -> Result<(String, PathBuf)> {
    let context = path
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or_else(|| Error::InvalidInput(format!("{} names no context", path.display())))?
        .to_string();
    let data_dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((context, data_dir))
}

/// Opens a connection once SQLite and SQLCipher are wholly initialised.
///
/// `sqlite3_initialize` marks SQLite initialised and only then, outside its lock, runs
/// SQLCipher's `sqlcipher_extra_init`, which registers the codec. A second thread opening in
/// that window sees an initialised SQLite without a codec, and its `PRAGMA key` fails with
/// "PRAGMA key requires a key…" (seen in CI: two threads of one process opening their first
/// contexts together). Running the first initialisation under a [`Once`] closes the window:
/// every other opener waits until the codec is in place.
fn connect(path: &Path, flags: OpenFlags) -> Result<Connection> {
    static READY: Once = Once::new();
    READY.call_once(|| {
        // Opening any connection runs `sqlite3_initialize` to its end in this thread. A
        // failure here is not ours to report: the open below meets it again and says so.
        let _ = Connection::open_in_memory();
    });
    Ok(Connection::open_with_flags(path, flags)?)
}

/// Opens `path` with `secret` and checks that it reads. `Ok(None)`: the secret does not open
/// it (SQLCipher says "file is not a database"); nothing was written.
fn try_open(path: &Path, secret: &Secret, flags: OpenFlags) -> Result<Option<Connection>> {
    let conn = connect(path, flags)?;
    // SQLCipher would print its own "hmac check failed" lines for a wrong key; the error we
    // return says it better.
    let _ = conn.query_row("PRAGMA cipher_log_level = NONE", [], |_| Ok(()));
    // The key must be the connection's first statement (SQLCipher).
    conn.pragma_update(None, "key", secret.sql_value())?;
    match conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| {
        r.get::<_, i64>(0)
    }) {
        Ok(_) => Ok(Some(conn)),
        Err(rusqlite::Error::SqliteFailure(e, _))
            if e.code == rusqlite::ErrorCode::NotADatabase =>
        {
            Ok(None)
        }
        Err(e) => Err(e.into()),
    }
}

fn read_write() -> OpenFlags {
    OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_URI
        | OpenFlags::SQLITE_OPEN_NO_MUTEX
}

/// Opens the context database at `path` (`<data dir>/<context>.sqlite`) for the store:
/// finds or makes its key (module doc), encrypts a plaintext file first, and verifies the key
/// before anything is written. `created`: the caller made the (empty) file just now, for a
/// new context; an empty file it did not make, whose context has a key, is a damaged store.
/// Errors: [`Error::WrongKey`] (nothing changed), [`Error::KeyMissing`], [`Error::KeyStore`],
/// [`Error::Io`], [`Error::Database`], [`Error::InvalidInput`] for the damaged store.
pub(crate) fn unlock(
    path: &Path,
    config: &KeyConfig,
    created: bool,
) -> Result<(Connection, Unlocked)> {
    unlock_with(path, config, read_write(), created)
}

/// Opens an existing context database read-only with its key, for counting and
/// inspection; makes no key and encrypts nothing. Errors as [`unlock`].
pub(crate) fn unlock_read_only(path: &Path, config: &KeyConfig) -> Result<Connection> {
    let (context, data_dir) = split_path(path)?;
    if let Some(why) = not_a_store(path)? {
        return Err(refuse_foreign(path, &why));
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    if config.encryption == Encryption::Off || file_state(path)? != FileState::Encrypted {
        return connect(path, flags);
    }
    let store = KeyStore::for_data_dir(config, &data_dir)?;
    Ok(open_encrypted(path, config, &store, &context, flags)?.0)
}

/// Opens a context's database file with its key for tests and diagnostics (the counterpart
/// of the `sqlite3` shell): `path` is `<data dir>/<context>.sqlite`, the key is found as the
/// engine finds it. Creates nothing: a missing file is [`Error::UnknownContext`].
pub fn open_connection(path: &Path, config: &KeyConfig) -> Result<Connection> {
    let (context, data_dir) = split_path(path)?;
    match file_state(path)? {
        FileState::New => Err(Error::UnknownContext(context)),
        FileState::Plain => connect(path, read_write()),
        FileState::Encrypted => {
            let store = KeyStore::for_data_dir(config, &data_dir)?;
            Ok(open_encrypted(path, config, &store, &context, read_write())?.0)
        }
    }
}

fn unlock_with(
    path: &Path,
    config: &KeyConfig,
    flags: OpenFlags,
    created: bool,
) -> Result<(Connection, Unlocked)> {
    let (context, data_dir) = split_path(path)?;
    if let Some(why) = not_a_store(path)? {
        return Err(refuse_foreign(path, &why));
    }
    if config.encryption == Encryption::Off {
        if file_state(path)? == FileState::Encrypted {
            return Err(Error::InvalidInput(format!(
                "the context `{context}` is encrypted but encryption is switched off (MINNE_UNENCRYPTED, for diagnostics only): unset it to open this context"
            )));
        }
        return Ok((
            connect(path, flags)?,
            Unlocked {
                tombstone: None,
                notice: None,
                pending: None,
            },
        ));
    }
    let store = KeyStore::for_data_dir(config, &data_dir)?;
    if file_state(path)? == FileState::Encrypted {
        let (conn, found) = open_encrypted(path, config, &store, &context, flags)?;
        return Ok(finish(conn, store, context, found, None));
    }
    // A new or plaintext file: make or find the key under the key-dir lock, so processes
    // starting together agree on one key and one salt.
    let _lock = store.lock()?;
    let state = file_state(path)?;
    if state == FileState::Encrypted {
        let (conn, found) = open_encrypted(path, config, &store, &context, flags)?;
        return Ok(finish(conn, store, context, found, None));
    }
    let mut notice = None;
    if state == FileState::New {
        // Under the lock a store another process is making already has its header, so an
        // empty file here is either this call's own or one that lost its contents.
        if !created && path.exists() && store.load(&context)?.is_some() {
            return Err(damaged(path));
        }
        store.set_aside_unused(&context)?;
    }
    let (secret, found) = match store.load(&context)? {
        Some((record, place)) => (Secret::Key(record.current.clone()), Some((record, place))),
        None => match &config.passphrase {
            Some(p) => (Secret::Passphrase(p.clone()), None),
            None => {
                let record = KeyRecord {
                    current: Key::random()?,
                    previous: None,
                    tombstone: None,
                };
                let (place, said) = store.save(&context, &record, None)?;
                notice = said;
                (Secret::Key(record.current.clone()), Some((record, place)))
            }
        },
    };
    if state == FileState::Plain {
        encrypt_plaintext(path, &secret)?;
    }
    let Some(conn) = try_open(path, &secret, flags)? else {
        return Err(Error::WrongKey {
            context,
            hint: "the file changed while it was being opened: try again".into(),
        });
    };
    // Write the header now, under the lock, so the next process reads this salt.
    conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(()))?;
    Ok(finish(conn, store, context, found, notice))
}

fn finish(
    conn: Connection,
    store: KeyStore,
    context: String,
    found: Option<(KeyRecord, Place)>,
    notice: Option<Notice>,
) -> (Connection, Unlocked) {
    let unlocked = match found {
        Some((record, place)) => Unlocked {
            tombstone: record.tombstone.clone(),
            // Said on the first open that reaches the user, not only when the file is made.
            notice: notice.or_else(|| {
                (place == Place::File)
                    .then(|| store.file_notice(&context))
                    .flatten()
            }),
            pending: Some(Pending {
                store,
                context,
                record,
                place,
            }),
        },
        None => Unlocked {
            tombstone: None,
            notice,
            pending: None,
        },
    };
    (conn, unlocked)
}

/// Opens an encrypted file: the stored key (current, then previous), else the passphrase.
fn open_encrypted(
    path: &Path,
    config: &KeyConfig,
    store: &KeyStore,
    context: &str,
    flags: OpenFlags,
) -> Result<(Connection, Option<(KeyRecord, Place)>)> {
    if let Some((record, place)) = store.load(context)? {
        if let Some(conn) = try_open(path, &Secret::Key(record.current.clone()), flags)? {
            return Ok((conn, Some((record, place))));
        }
        if let Some(previous) = &record.previous
            && let Some(conn) = try_open(path, &Secret::Key(previous.clone()), flags)?
        {
            // A rotation stopped before its rekey committed: the file still has the old key.
            tracing::warn!(
                "a key rotation of `{context}` did not finish: run `minne key rotate` again"
            );
            let record = KeyRecord {
                current: previous.clone(),
                previous: Some(record.current.clone()),
                tombstone: record.tombstone.clone(),
            };
            return Ok((conn, Some((record, place))));
        }
        if let Some(p) = &config.passphrase
            && let Some(conn) = try_open(path, &Secret::Passphrase(p.clone()), flags)?
        {
            return Ok((conn, None));
        }
        return Err(Error::WrongKey {
            context: context.to_string(),
            hint: format!(
                "the key stored in {} does not open it; restore the key (or the database) from the same backup",
                store.describe(context, place)?
            ),
        });
    }
    match &config.passphrase {
        Some(p) => match try_open(path, &Secret::Passphrase(p.clone()), flags)? {
            Some(conn) => Ok((conn, None)),
            None => Err(Error::WrongKey {
                context: context.to_string(),
                hint: "the passphrase is wrong: check MINNE_PASSPHRASE (nothing was changed)"
                    .into(),
            }),
        },
        None => Err(Error::KeyMissing {
            context: context.to_string(),
            looked_in: store.looked_in(context),
        }),
    }
}

/// After the schema is current: moves a tombstone secret still kept inside the database
/// (stores from before encryption) into the key record, or makes one, and returns it.
/// Passphrase-mode contexts keep theirs inside the (encrypted) database: `None`.
pub(crate) fn settle_tombstone(conn: &Connection, unlocked: &mut Unlocked) -> Result<Option<Key>> {
    let Some(pending) = unlocked.pending.take() else {
        return Ok(None);
    };
    let in_db: Option<String> = conn
        .query_row(
            "SELECT value FROM context_settings WHERE key = 'tombstone_secret'",
            [],
            |r| r.get(0),
        )
        .optional()?;
    let mut record = pending.record;
    let adopt = in_db.as_deref().and_then(Key::from_hex);
    if adopt.is_none() && record.tombstone.is_some() {
        return Ok(record.tombstone);
    }
    let _lock = pending.store.lock()?;
    // Another process may have settled it while we waited.
    if let Some((fresh, _)) = pending.store.load(&pending.context)?
        && fresh.tombstone.is_some()
        && adopt.is_none()
    {
        return Ok(fresh.tombstone);
    }
    record.tombstone = Some(match adopt {
        Some(k) => k,
        None => Key::random()?,
    });
    pending
        .store
        .save(&pending.context, &record, Some(pending.place))?;
    if in_db.is_some() {
        // secure_delete is on: the secret's bytes are zeroed in the file.
        conn.execute(
            "DELETE FROM context_settings WHERE key = 'tombstone_secret'",
            [],
        )?;
    }
    unlocked.tombstone = record.tombstone.clone();
    Ok(record.tombstone)
}

/// Encrypts a plaintext store in place: `sqlcipher_export` into `<file>.encrypting`, fsync,
/// rename over the original, remove its WAL and shared-memory files, and overwrite the old
/// file's bytes with zeros. A crash before the rename leaves the plaintext store as it was.
fn encrypt_plaintext(path: &Path, secret: &Secret) -> Result<()> {
    let tmp = path.with_extension("sqlite.encrypting");
    if tmp.exists() {
        std::fs::remove_file(&tmp).map_err(KeyStore::io("cannot remove", &tmp))?;
    }
    {
        let plain = connect(path, read_write())?;
        // Fold the WAL into the file first, so the export sees every committed write and the
        // WAL holds nothing when it is removed.
        let busy: i64 = plain.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get(0))?;
        if busy != 0 {
            return Err(Error::InvalidInput(format!(
                "{} is in use by another program: close the Minne app and other `minne` commands, then try again",
                path.display()
            )));
        }
        let version: i64 = plain.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        File::create_new(&tmp)
            .and_then(|f| set_owner_only(&f))
            .map_err(KeyStore::io("cannot create", &tmp))?;
        let tmp_text = tmp
            .to_str()
            .ok_or_else(|| Error::InvalidInput(format!("{} is not valid UTF-8", tmp.display())))?;
        plain.execute(
            "ATTACH DATABASE ?1 AS encrypted KEY ?2",
            [tmp_text, &secret.sql_value()],
        )?;
        plain.query_row("SELECT sqlcipher_export('encrypted')", [], |_| Ok(()))?;
        // sqlcipher_export copies the schema and rows, not the schema version.
        plain.execute_batch(&format!("PRAGMA encrypted.user_version = {version}"))?;
        plain.execute("DETACH DATABASE encrypted", [])?;
    }
    File::open(&tmp)
        .and_then(|f| f.sync_all())
        .map_err(KeyStore::io("cannot sync", &tmp))?;
    let old = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(KeyStore::io("cannot open", path))?;
    let old_len = old.metadata().map(|m| m.len()).unwrap_or(0);
    for suffix in ["-wal", "-shm"] {
        let side = PathBuf::from(format!("{}{suffix}", path.display()));
        if side.exists() {
            std::fs::remove_file(&side).map_err(KeyStore::io("cannot remove", &side))?;
        }
    }
    std::fs::rename(&tmp, path).map_err(KeyStore::io("cannot replace", path))?;
    sync_dir(path);
    // The old inode has no name now; zero its bytes so the plaintext does not linger in it.
    zero_file(&old, old_len).map_err(KeyStore::io("cannot overwrite", path))?;
    tracing::info!("encrypted the plaintext store {}", path.display());
    Ok(())
}

fn zero_file(file: &File, len: u64) -> std::io::Result<()> {
    let mut file = file;
    let zeros = vec![0u8; 64 * 1024];
    let mut left = len;
    std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(0))?;
    while left > 0 {
        let n = left.min(zeros.len() as u64) as usize;
        file.write_all(&zeros[..n])?;
        left -= n as u64;
    }
    file.sync_all()
}

fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent()
        && let Ok(d) = File::open(dir)
    {
        let _ = d.sync_all();
    }
}

fn owner_only_options() -> OpenOptions {
    #[allow(unused_mut)]
    let mut options = OpenOptions::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options
}

fn set_owner_only(_file: &File) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        _file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(())
}

/// Writes `bytes` to `path` owner-only and atomically (temp file, fsync, rename).
fn write_private_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = PathBuf::from(format!("{}.tmp-{}", path.display(), std::process::id()));
    let write = || -> std::io::Result<()> {
        let mut file = owner_only_options()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&tmp)?;
        set_owner_only(&file)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(KeyStore::io("cannot write", path))?;
    sync_dir(path);
    Ok(())
}

/// Overwrites a key file with zeros before removing it.
fn remove_scrubbed(path: &Path) -> Result<()> {
    if let Ok(file) = OpenOptions::new().write(true).open(path) {
        let len = file.metadata().map(|m| m.len()).unwrap_or(0);
        let _ = zero_file(&file, len);
    }
    std::fs::remove_file(path).map_err(KeyStore::io("cannot remove", path))
}

// ---- Rotation, passphrase mode, status -------------------------------------------------

/// Gives `context` a new random key (`PRAGMA rekey`), in the crash-safe order of the module
/// doc. Close the app and other `minne` commands first: a connection opened with the old
/// key fails after the rekey. Errors: [`Error::InvalidInput`] for a passphrase-mode or
/// unencrypted context, and as [`unlock`].
pub fn rotate(data_dir: &Path, context: &str, config: &KeyConfig) -> Result<KeyStatus> {
    let path = data_dir.join(format!(
        "{context}.{}",
        crate::context::CONTEXT_FILE_EXTENSION
    ));
    require_encrypted_file(&path, context, config)?;
    let (conn, mut unlocked) = unlock(&path, config, false)?;
    settle_tombstone(&conn, &mut unlocked)?;
    let store = KeyStore::for_data_dir(config, data_dir)?;
    let _lock = store.lock()?;
    let Some((record, place)) = store.load(context)? else {
        return Err(Error::InvalidInput(format!(
            "the context `{context}` is unlocked by a passphrase, not a stored key: change the passphrase with `minne key passphrase`"
        )));
    };
    // The key that opened the file: the current one, or the previous one after a rotation
    // that stopped before its rekey.
    let working = if try_open(&path, &Secret::Key(record.current.clone()), read_write())?.is_some()
    {
        record.current.clone()
    } else {
        record.previous.clone().ok_or_else(|| Error::WrongKey {
            context: context.to_string(),
            hint: "neither the stored key nor a previous one opens it".into(),
        })?
    };
    let new = Key::random()?;
    // 1. Both keys stored: a crash from here on leaves the file openable with one of them.
    let both = KeyRecord {
        current: new.clone(),
        previous: Some(working),
        tombstone: record.tombstone.clone(),
    };
    store.save(context, &both, Some(place))?;
    // 2. Rekey: SQLCipher rewrites every page in one transaction. The WAL is folded in first
    //    so no frame under the old key is left behind.
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
    conn.pragma_update(None, "rekey", new.sql_literal())?;
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
    drop(conn);
    if try_open(&path, &Secret::Key(new.clone()), read_write())?.is_none() {
        return Err(Error::KeyStore(format!(
            "the rekey of `{context}` did not take; both keys are kept, run `minne key rotate` again"
        )));
    }
    // 3. Only the new key.
    let done = KeyRecord {
        current: new,
        previous: None,
        tombstone: both.tombstone,
    };
    let (place, _) = store.save(context, &done, Some(place))?;
    Ok(KeyStatus {
        context: context.to_string(),
        path,
        source: store.describe(context, place)?,
        rotation_pending: false,
    })
}

/// Switches `context` to passphrase mode (or changes its passphrase): the file is rekeyed
/// with SQLCipher's KDF on `new`, the tombstone secret moves into the encrypted file, and the
/// stored key is removed. The current key is found as on open ([`KeyConfig::passphrase`] for
/// a context already in passphrase mode).
pub fn set_passphrase(
    data_dir: &Path,
    context: &str,
    config: &KeyConfig,
    new: &Passphrase,
) -> Result<KeyStatus> {
    let path = data_dir.join(format!(
        "{context}.{}",
        crate::context::CONTEXT_FILE_EXTENSION
    ));
    require_encrypted_file(&path, context, config)?;
    let (conn, mut unlocked) = unlock(&path, config, false)?;
    let tombstone = settle_tombstone(&conn, &mut unlocked)?;
    let store = KeyStore::for_data_dir(config, data_dir)?;
    let _lock = store.lock()?;
    if let Some(secret) = tombstone {
        conn.execute(
            "INSERT OR REPLACE INTO context_settings (key, value) VALUES ('tombstone_secret', ?1)",
            [secret.hex()],
        )?;
    }
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
    conn.pragma_update(None, "rekey", &new.0)?;
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
    drop(conn);
    if try_open(&path, &Secret::Passphrase(new.clone()), read_write())?.is_none() {
        return Err(Error::KeyStore(format!(
            "the rekey of `{context}` did not take; its stored key is kept"
        )));
    }
    store.delete(context)?;
    Ok(KeyStatus {
        context: context.to_string(),
        path,
        source: KeySource::Passphrase,
        rotation_pending: false,
    })
}

/// Switches a passphrase-mode `context` back to a random stored key (keyring, else key
/// file); the old passphrase comes from [`KeyConfig::passphrase`].
pub fn remove_passphrase(data_dir: &Path, context: &str, config: &KeyConfig) -> Result<KeyStatus> {
    let path = data_dir.join(format!(
        "{context}.{}",
        crate::context::CONTEXT_FILE_EXTENSION
    ));
    require_encrypted_file(&path, context, config)?;
    let store = KeyStore::for_data_dir(config, data_dir)?;
    if store.load(context)?.is_some() {
        return Err(Error::InvalidInput(format!(
            "the context `{context}` already has a stored key, not a passphrase"
        )));
    }
    let (conn, _) = unlock(&path, config, false)?;
    let lock = store.lock()?;
    let record = KeyRecord {
        current: Key::random()?,
        previous: None,
        tombstone: None,
    };
    // Stored before the rekey: if the rekey fails, the passphrase still opens the file and
    // the unused record is removed below.
    let (place, _) = store.save(context, &record, None)?;
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
    let rekeyed = conn.pragma_update(None, "rekey", record.current.sql_literal());
    if let Err(e) = rekeyed {
        store.delete(context)?;
        return Err(e.into());
    }
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
    drop(conn);
    // Settling takes the key-dir lock itself (a second lock from this process would wait
    // for ever).
    drop(lock);
    // The next open moves the tombstone secret out of the file into the new record.
    let (conn, mut reopened) = unlock(&path, config, false)?;
    settle_tombstone(&conn, &mut reopened)?;
    Ok(KeyStatus {
        context: context.to_string(),
        path,
        source: store.describe(context, place)?,
        rotation_pending: false,
    })
}

fn require_encrypted_file(path: &Path, context: &str, config: &KeyConfig) -> Result<()> {
    if config.encryption == Encryption::Off {
        return Err(Error::InvalidInput(
            "encryption is switched off (MINNE_UNENCRYPTED): unset it to manage keys".into(),
        ));
    }
    if file_state(path)? == FileState::New {
        return Err(Error::UnknownContext(context.to_string()));
    }
    Ok(())
}

/// Where the key of each context under `data_dir` lives, sorted by name. Reads the key store
/// and the first 16 bytes of each file; opens no database.
pub fn status(data_dir: &Path, config: &KeyConfig) -> Result<Vec<KeyStatus>> {
    let mut out = Vec::new();
    let entries = match std::fs::read_dir(data_dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(KeyStore::io("cannot list", data_dir)(e)),
    };
    let store = KeyStore::for_data_dir(config, data_dir)?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some(crate::context::CONTEXT_FILE_EXTENSION)
        {
            continue;
        }
        let Some(context) = path
            .file_stem()
            .and_then(|s| s.to_str())
            .map(str::to_string)
        else {
            continue;
        };
        let (source, rotation_pending) = match file_state(&path)? {
            FileState::Plain | FileState::New => (KeySource::Unencrypted, false),
            FileState::Encrypted => match store.load(&context)? {
                Some((record, place)) => {
                    (store.describe(&context, place)?, record.previous.is_some())
                }
                None if config.passphrase.is_some() => (KeySource::Passphrase, false),
                None => (KeySource::Missing, false),
            },
        };
        out.push(KeyStatus {
            context,
            path,
            source,
            rotation_pending,
        });
    }
    out.sort_by(|a, b| a.context.cmp(&b.context));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_round_trips_and_rejects_damage() {
        let record = KeyRecord {
            current: Key([7; 32]),
            previous: Some(Key([9; 32])),
            tombstone: Some(Key([1; 32])),
        };
        let back = KeyRecord::parse(&record.to_text(), &"test").unwrap();
        assert!(back.current == record.current && back.previous == record.previous);
        assert!(back.tombstone == record.tombstone);
        // A truncated key must be refused, never used as a shorter key.
        let damaged = record.to_text().replace(&Key([7; 32]).hex(), "abcd");
        assert!(KeyRecord::parse(&damaged, &"test").is_err());
    }

    #[test]
    fn key_dir_is_beside_a_custom_data_dir_and_never_inside() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let (keys, keyring) = KeyConfig::default().resolve(&data).unwrap();
        assert_eq!(keys, dir.path().join("data.keys"));
        assert!(
            !keyring,
            "a throwaway data dir leaves nothing in the OS keyring"
        );
        let inside = KeyConfig {
            key_dir: Some(data.join("keys")),
            ..KeyConfig::default()
        };
        assert!(KeyStore::for_data_dir(&inside, &data).is_err());
    }

    #[test]
    fn passphrase_debug_hides_it() {
        let p = Passphrase::new("correct horse").unwrap();
        assert!(!format!("{p:?}").contains("horse"));
        assert!(Passphrase::new("  \n").is_err());
    }
}
