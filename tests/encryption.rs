//! Encryption at rest on real files: no memory text in any file of the data dir, a wrong key
//! changes nothing, rotation, the key file's place and mode, and the plaintext migration.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::{TimeZone, Utc};
use minne::clock::FixedClock;
use minne::forget::ForgetScope;
use minne::import::{ImportFormat, ImportOptions};
use minne::keys::{self, KeyConfig, KeySource, Passphrase};
use minne::{ContextName, Engine, Error};

const MARKER: &str = "marmotquill4419";
const PLAINTEXT_HEADER: &[u8] = b"SQLite format 3\0";

fn transcript(dir: &Path) -> PathBuf {
    let path = dir.join("chat.json");
    let json = serde_json::json!({"sessions": [{"id": "s1", "messages": [
        {"role": "user", "text": format!("The alarm code for the boathouse is {MARKER}, remember it."), "timestamp": "2026-03-02T08:01:00Z"},
        {"role": "user", "text": "We decided to paint the kitchen green.", "timestamp": "2026-03-02T09:30:00Z"},
        {"role": "user", "text": "My sister Ingrid is allergic to peanuts.", "timestamp": "2026-03-02T09:45:00Z"}
    ]}]});
    std::fs::write(&path, json.to_string()).unwrap();
    path
}

fn personal() -> ContextName {
    ContextName::new("personal").unwrap()
}

fn open(data: &Path, keys: &KeyConfig) -> minne::Result<Engine> {
    let clock = Arc::new(FixedClock::new(
        Utc.with_ymd_and_hms(2026, 3, 3, 12, 0, 0).unwrap(),
    ));
    Engine::open_with(data, &personal(), keys, common::real_embedder(), clock)
}

fn import(engine: &mut Engine, file: &Path) {
    engine
        .import(
            file,
            &ImportOptions::new(ImportFormat::Transcript),
            &mut |_| {},
        )
        .unwrap();
}

/// Key files live in the key dir, so the key dir is never scanned as part of the data dir.
fn key_config(root: &Path) -> KeyConfig {
    KeyConfig {
        key_dir: Some(root.join("config").join("keys")),
        keyring: Some(false),
        ..KeyConfig::default()
    }
}

#[test]
fn no_memory_text_in_any_file_of_the_data_dir() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let keys = key_config(dir.path());
    let mut engine = open(&data, &keys).unwrap();
    import(&mut engine, &transcript(dir.path()));
    // The marker is stored and recallable: without this the scan below could pass on an
    // empty store.
    let found = engine
        .list_episodes(50, 0)
        .unwrap()
        .iter()
        .any(|e| e.text.contains(MARKER));
    assert!(found, "the marker was captured into an episode");
    // Scan while the engine is open, so the WAL and shared-memory files are there too.
    let wal = data.join("personal.sqlite-wal");
    assert!(wal.exists(), "the scan covers a live WAL");
    for word in [MARKER, "boathouse", "peanuts", "CREATE TABLE"] {
        assert_eq!(
            common::occurrences(&data, word),
            Vec::<String>::new(),
            "`{word}` must not appear in plain bytes in any file of the data dir (DB, WAL, SHM)"
        );
    }
    let header = std::fs::read(data.join("personal.sqlite")).unwrap();
    assert_ne!(
        &header[..16],
        PLAINTEXT_HEADER,
        "an encrypted file does not start with SQLite's plain header"
    );
    drop(engine);
    // The same words are found in the file with encryption off, so the scan above is able to
    // see them when they are there.
    let plain = dir.path().join("plain");
    let mut engine = open(&plain, &KeyConfig::unencrypted()).unwrap();
    import(&mut engine, &transcript(dir.path()));
    drop(engine);
    assert!(
        !common::occurrences(&plain, MARKER).is_empty(),
        "with encryption off the marker is in the file: the scan works"
    );
}

#[test]
fn wrong_passphrase_is_a_clear_error_and_changes_no_byte() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let right = KeyConfig {
        passphrase: Some(Passphrase::new("lingonberry harbour").unwrap()),
        ..key_config(dir.path())
    };
    let mut engine = open(&data, &right).unwrap();
    import(&mut engine, &transcript(dir.path()));
    let episodes = engine.episode_count().unwrap();
    assert!(episodes > 0);
    drop(engine);
    // Passphrase mode stores no key: nothing but the passphrase opens it.
    let status = keys::status(&data, &right).unwrap();
    assert!(
        status.iter().all(|s| s.source == KeySource::Passphrase),
        "contexts made with a passphrase set are in passphrase mode: {status:?}"
    );
    let db = data.join("personal.sqlite");
    let before = std::fs::read(&db).unwrap();
    let wrong = KeyConfig {
        passphrase: Some(Passphrase::new("lingonberry harbor").unwrap()),
        ..key_config(dir.path())
    };
    match open(&data, &wrong) {
        Err(Error::WrongKey { context, hint }) => {
            assert_eq!(context, "personal");
            assert!(
                hint.contains("MINNE_PASSPHRASE"),
                "the hint says what to check: {hint}"
            );
        }
        other => panic!("a wrong passphrase must be WrongKey, got {other:?}"),
    }
    assert_eq!(
        std::fs::read(&db).unwrap(),
        before,
        "a failed open must not change a byte of the file"
    );
    // No passphrase at all: the error names where the key was looked for.
    match open(&data, &key_config(dir.path())) {
        Err(Error::KeyMissing { looked_in, .. }) => {
            assert!(looked_in.contains("personal.key"), "{looked_in}");
        }
        other => panic!("a missing key must be KeyMissing, got {other:?}"),
    }
    assert_eq!(std::fs::read(&db).unwrap(), before);
    // The right passphrase still opens it, with everything in it.
    let engine = open(&data, &right).unwrap();
    assert_eq!(
        engine.episode_count().unwrap(),
        episodes,
        "the right passphrase opens everything that was stored"
    );
}

#[test]
fn rotation_keeps_the_data_and_retires_the_old_key() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let keys = key_config(dir.path());
    let mut engine = open(&data, &keys).unwrap();
    import(&mut engine, &transcript(dir.path()));
    let episodes = engine.episode_count().unwrap();
    assert!(episodes > 0);
    drop(engine);
    let key_file = dir.path().join("config/keys/personal.key");
    let old_record = std::fs::read_to_string(&key_file).unwrap();

    let status = keys::rotate(&data, "personal", &keys).unwrap();
    assert_eq!(
        status.source,
        KeySource::File {
            path: key_file.clone()
        }
    );
    let new_record = std::fs::read_to_string(&key_file).unwrap();
    assert_ne!(old_record, new_record, "the stored key changed");
    assert!(
        !new_record.contains("previous"),
        "a finished rotation keeps only the new key"
    );
    let engine = open(&data, &keys).unwrap();
    assert_eq!(
        engine.episode_count().unwrap(),
        episodes,
        "every episode reads with the new key"
    );
    drop(engine);

    // The old key no longer opens the file, and trying it changes nothing.
    let db = data.join("personal.sqlite");
    let before = std::fs::read(&db).unwrap();
    std::fs::write(&key_file, &old_record).unwrap();
    assert!(
        matches!(open(&data, &keys), Err(Error::WrongKey { .. })),
        "the retired key must be rejected"
    );
    assert_eq!(std::fs::read(&db).unwrap(), before);
    std::fs::write(&key_file, &new_record).unwrap();

    // A rotation interrupted after storing {new, previous} but before the rekey: the
    // file still has the current key, stored now as `previous`; it must still open.
    let current = key_line(&new_record, "key");
    let tombstone = key_line(&new_record, "tombstone");
    let interrupted = format!(
        "minne-key v1\nkey {}\nprevious {current}\ntombstone {tombstone}\n",
        "ab".repeat(32)
    );
    std::fs::write(&key_file, interrupted).unwrap();
    let engine = open(&data, &keys).unwrap();
    assert_eq!(engine.episode_count().unwrap(), episodes);
    drop(engine);
    assert!(
        keys::status(&data, &keys)
            .unwrap()
            .iter()
            .any(|s| s.context == "personal" && s.rotation_pending),
        "status shows the unfinished rotation"
    );
    // Rotating again finishes it.
    keys::rotate(&data, "personal", &keys).unwrap();
    assert_eq!(
        open(&data, &keys).unwrap().episode_count().unwrap(),
        episodes
    );
}

fn key_line(record: &str, field: &str) -> String {
    record
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{field} ")))
        .unwrap()
        .to_string()
}

#[cfg(unix)]
#[test]
fn key_file_is_owner_only_and_outside_the_data_dir() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // The default configuration, as tests and throwaway data dirs get it: keys beside the
    // data dir, never inside it, never in the user's config dir.
    let mut engine = open(&data, &KeyConfig::default()).unwrap();
    let notice = engine.take_key_notice();
    assert!(
        notice.as_deref().is_some_and(|n| n.contains("key file")),
        "the first open says once that keys are kept in a file: {notice:?}"
    );
    drop(engine);
    let mut again = open(&data, &KeyConfig::default()).unwrap();
    assert_eq!(again.take_key_notice(), None, "the notice is said once");
    let key_dir = dir.path().join("data.keys");
    for context in ["personal", "work"] {
        let key = key_dir.join(format!("{context}.key"));
        let mode = std::fs::metadata(&key).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{} must be owner-only", key.display());
        assert!(!key.starts_with(&data), "keys live apart from the data");
    }
    let dir_mode = std::fs::metadata(&key_dir).unwrap().permissions().mode() & 0o777;
    assert_eq!(dir_mode, 0o700, "the key dir is owner-only");
    let in_data: Vec<_> = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".key") || n.contains("keys"))
        .collect();
    assert!(
        in_data.is_empty(),
        "no key material in the data dir: {in_data:?}"
    );
}

#[test]
fn plaintext_store_is_migrated_with_every_episode_and_no_plaintext_left() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // A store as Minne wrote it before encryption: plain SQLite, tombstone secret inside.
    let mut engine = open(&data, &KeyConfig::unencrypted()).unwrap();
    import(&mut engine, &transcript(dir.path()));
    let before: Vec<String> = engine
        .list_episodes(100, 0)
        .unwrap()
        .into_iter()
        .map(|e| e.text)
        .collect();
    assert!(!before.is_empty());
    // Forget one message so a tombstone made with the in-file secret exists.
    let kitchen = engine
        .list_episodes(100, 0)
        .unwrap()
        .into_iter()
        .find(|e| e.text.contains("kitchen"))
        .unwrap();
    engine.forget(&ForgetScope::Episode(kitchen.id)).unwrap();
    let kept: Vec<String> = before
        .iter()
        .filter(|t| !t.contains("kitchen"))
        .cloned()
        .collect();
    drop(engine);
    let db = data.join("personal.sqlite");
    assert_eq!(&std::fs::read(&db).unwrap()[..16], PLAINTEXT_HEADER);
    assert!(
        !common::occurrences(&data, MARKER).is_empty(),
        "the old store holds the marker in plain"
    );

    let keys = key_config(dir.path());
    let mut engine = open(&data, &keys).unwrap();
    let mut after: Vec<String> = engine
        .list_episodes(100, 0)
        .unwrap()
        .into_iter()
        .map(|e| e.text)
        .collect();
    let mut expected = kept.clone();
    after.sort();
    expected.sort();
    assert_eq!(
        after, expected,
        "every episode survives the migration, unchanged"
    );
    assert_ne!(&std::fs::read(&db).unwrap()[..16], PLAINTEXT_HEADER);
    assert_eq!(
        common::occurrences(&data, MARKER),
        Vec::<String>::new(),
        "no plaintext copy (old file, WAL, temp file) is left in the data dir"
    );
    // The tombstone secret moved out of the file into the key record, and still matches
    // the tombstone made before: a re-import does not bring the forgotten message back.
    let record = std::fs::read_to_string(dir.path().join("config/keys/personal.key")).unwrap();
    assert!(
        record.contains("tombstone "),
        "the secret is in the key record"
    );
    let conn = keys::open_connection(&db, &keys).unwrap();
    let in_file: i64 = conn
        .query_row(
            "SELECT count(*) FROM context_settings WHERE key = 'tombstone_secret'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        in_file, 0,
        "the tombstone secret is no longer in the database"
    );
    import(&mut engine, &transcript(dir.path()));
    let kitchen_back = engine
        .list_episodes(100, 0)
        .unwrap()
        .iter()
        .any(|e| e.text.contains("kitchen"));
    assert!(
        !kitchen_back,
        "the tombstone still keeps the forgotten message out"
    );
}

#[test]
fn switching_to_passphrase_and_back_keeps_the_data() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let keys = key_config(dir.path());
    let mut engine = open(&data, &keys).unwrap();
    import(&mut engine, &transcript(dir.path()));
    let episodes = engine.episode_count().unwrap();
    drop(engine);
    let pass = Passphrase::new("fjord lantern 12").unwrap();
    keys::set_passphrase(&data, "personal", &keys, &pass).unwrap();
    assert!(
        !dir.path().join("config/keys/personal.key").exists(),
        "passphrase mode keeps no stored key"
    );
    assert!(matches!(open(&data, &keys), Err(Error::KeyMissing { .. })));
    let with_pass = KeyConfig {
        passphrase: Some(pass),
        ..key_config(dir.path())
    };
    assert_eq!(
        open(&data, &with_pass).unwrap().episode_count().unwrap(),
        episodes
    );
    keys::remove_passphrase(&data, "personal", &with_pass).unwrap();
    assert_eq!(
        open(&data, &keys).unwrap().episode_count().unwrap(),
        episodes
    );
    let record = std::fs::read_to_string(dir.path().join("config/keys/personal.key")).unwrap();
    assert!(
        record.contains("tombstone "),
        "back in key mode, the tombstone secret moved out of the file again"
    );
}

#[test]
fn fts5_secure_delete_works_under_sqlcipher() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let keys = key_config(dir.path());
    let engine = open(&data, &keys).unwrap();
    let db = engine.db_path().to_path_buf();
    drop(engine);
    let conn = keys::open_connection(&db, &keys).unwrap();
    let version: String = conn
        .query_row("PRAGMA cipher_version", [], |r| r.get(0))
        .unwrap();
    assert!(version.starts_with('4'), "SQLCipher 4 is linked: {version}");
    let secure: i64 = conn
        .query_row(
            "SELECT count(*) FROM episodes_fts_config WHERE k = 'secure-delete' AND v = 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        secure, 1,
        "FTS5 secure-delete is on inside the encrypted file"
    );
}
