//! Hostile input (issue 30) with the real binary and real files: a hostile ChatGPT export
//! leaves the store as it was and usable, an export never lands in Minne's own folders, and a
//! time range to the calendar's end works. Each test is named after its finding.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

const TWO: &str = r#"{"sessions": [
  {"id": "plans", "messages": [
    {"role": "user", "text": "We decided to move the team offsite to Gothenburg in May.", "timestamp": "2026-03-02T09:20:00+01:00"},
    {"role": "user", "text": "I decided to learn the cello this autumn.", "timestamp": "2026-03-02T09:25:00+01:00"}
  ]}
]}"#;

fn minne(data: &Path) -> Command {
    let mut cmd = Command::cargo_bin("minne").expect("the minne binary is built for its tests");
    cmd.env("MINNE_DATA_DIR", data)
        .env("MINNE_MODEL", "all-minilm-l6-v2")
        .env("TZ", "Europe/Stockholm")
        .env_remove("MINNE_CONTEXT")
        .env_remove("MINNE_PASSPHRASE")
        .env_remove("MINNE_CONFIG_DIR");
    cmd
}

fn stdout_json(cmd: &mut Command) -> Value {
    let out = cmd.assert().success().get_output().stdout.clone();
    serde_json::from_slice(&out).expect("--json prints JSON")
}

fn messages(data: &Path) -> u64 {
    let status = stdout_json(minne(data).args(["status", "--json"]));
    status["messages"]
        .as_u64()
        .unwrap_or_else(|| panic!("status --json counts messages: {status}"))
}

/// A ChatGPT export of one conversation whose one user message is dated `create_time`.
fn chatgpt(create_time: f64) -> String {
    serde_json::json!([{
        "id": "c-hostile", "title": "hostile", "create_time": create_time,
        "current_node": "m1",
        "mapping": {
            "root": {"id": "root", "parent": null, "children": ["m1"], "message": null},
            "m1": {"id": "m1", "parent": "root", "children": [], "message": {
                "id": "m1", "author": {"role": "user"}, "create_time": create_time,
                "content": {"content_type": "text", "parts": ["We decided to sell the boat."]}
            }}
        }
    }])
    .to_string()
}

#[test]
fn finding_1_a_chatgpt_export_dated_before_1900_keeps_nothing_and_the_store_stays_usable() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let good = dir.path().join("two.json");
    std::fs::write(&good, TWO).unwrap();
    minne(&data).arg("import").arg(&good).assert().success();
    assert_eq!(messages(&data), 2);
    // -1e12 s is the year -29719 (the finding); -2208988801 s is 1899-12-31T23:59:59Z, the
    // last second before the range; 1e15 s is past the year 9000.
    for t in [-1e12, -2_208_988_801.0, 1e15] {
        let file = dir.path().join("hostile.json");
        std::fs::write(&file, chatgpt(t)).unwrap();
        minne(&data)
            .arg("import")
            .arg(&file)
            .assert()
            .failure()
            .stderr(
                predicate::str::contains("nothing from it was kept")
                    .and(predicate::str::contains("1900-01-01")),
            );
        assert_eq!(messages(&data), 2, "create_time {t}: nothing was kept");
    }
    // Every command the finding saw fail still works.
    minne(&data).args(["recall", "cello"]).assert().success();
    minne(&data).args(["list"]).assert().success();
    let out = dir.path().join("out.json");
    minne(&data)
        .args(["export", "-o"])
        .arg(&out)
        .assert()
        .success();
    minne(&data).args(["capture"]).assert().success();
    // 1900-01-01T00:00:00Z itself is stored.
    let file = dir.path().join("edge.json");
    std::fs::write(&file, chatgpt(-2_208_988_800.0)).unwrap();
    minne(&data).arg("import").arg(&file).assert().success();
    assert_eq!(messages(&data), 3);
    minne(&data)
        .args(["forget", "--everything", "--yes"])
        .assert()
        .success();
    assert_eq!(messages(&data), 0);
}

#[test]
fn finding_2_an_export_never_lands_in_the_data_dir_or_the_key_dir() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("two.json");
    std::fs::write(&file, TWO).unwrap();
    minne(&data)
        .args(["-c", "work", "import"])
        .arg(&file)
        .assert()
        .success();
    minne(&data).arg("import").arg(&file).assert().success();
    let keys = dir.path().join("data.keys");
    assert!(
        keys.is_dir(),
        "the default key dir of a data dir is <data dir>.keys"
    );
    let work = data.join("work.sqlite");
    let before = std::fs::read(&work).unwrap();
    let key_files: Vec<_> = std::fs::read_dir(&keys)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let mut targets = vec![
        work.clone(),
        data.join("backup.sqlite"),
        data.join("notes.md"),
        // Spelled through `..` and through a link to the data dir.
        dir.path().join("data/../data/work.sqlite"),
        dir.path().join("link/work.sqlite"),
    ];
    std::os::unix::fs::symlink(&data, dir.path().join("link")).unwrap();
    targets.extend(key_files.iter().cloned());
    targets.push(keys.join("new.key"));
    for target in &targets {
        for format in ["json", "markdown"] {
            minne(&data)
                .args(["export", "--force", "--format", format, "-o"])
                .arg(target)
                .assert()
                .failure()
                .stderr(
                    predicate::str::contains("inside Minne's")
                        .and(predicate::str::contains("somewhere else"))
                        .and(predicate::str::contains("nothing was written")),
                );
        }
    }
    assert_eq!(
        std::fs::read(&work).unwrap(),
        before,
        "work's database is untouched"
    );
    assert!(
        !data.join("backup.sqlite").exists(),
        "no fake context was made"
    );
    assert!(!keys.join("new.key").exists());
    // The work context still opens with its own key and holds its own two messages.
    assert_eq!(
        stdout_json(minne(&data).args(["-c", "work", "status", "--json"]))["messages"],
        2
    );
    // Beside the data dir is fine.
    let beside = dir.path().join("backup.json");
    minne(&data)
        .args(["export", "-o"])
        .arg(&beside)
        .assert()
        .success();
    minne(&data)
        .args(["forget", "--everything", "--yes"])
        .assert()
        .success();
}

#[test]
fn finding_4_list_and_forget_to_the_year_9999_cover_every_message() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("two.json");
    std::fs::write(&file, TWO).unwrap();
    minne(&data).arg("import").arg(&file).assert().success();
    let listed = stdout_json(minne(&data).args([
        "list",
        "--from",
        "2026-01-01",
        "--to",
        "9999-12-31",
        "--json",
    ]));
    let n = listed
        .as_array()
        .or_else(|| listed["messages"].as_array())
        .map(Vec::len);
    assert_eq!(n, Some(2), "both messages of 2026 are listed: {listed}");
    minne(&data)
        .args([
            "forget",
            "--from",
            "2026-01-01",
            "--to",
            "9999-12-31",
            "--yes",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("Nothing was forgotten").not());
    assert_eq!(messages(&data), 0, "the forget took both");
}

#[test]
fn finding_8_a_message_dated_at_unix_time_0_is_kept_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("zero.json");
    std::fs::write(&file, chatgpt(0.0)).unwrap();
    minne(&data)
        .arg("import")
        .arg(&file)
        .assert()
        .success()
        .stderr(predicate::str::contains("1 message is dated 1970-01-01"));
    assert_eq!(messages(&data), 1, "kept: 1970 is a storable date");
}

#[test]
fn finding_7_an_import_reads_only_a_regular_file() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // /dev/zero never ends (it grew memory without bound); a folder is no file either.
    for path in [Path::new("/dev/zero"), dir.path()] {
        minne(&data)
            .arg("import")
            .arg(path)
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .failure()
            .stderr(
                predicate::str::contains("not a regular file")
                    .or(predicate::str::contains("a folder"))
                    .and(predicate::str::contains("nothing from it was kept")),
            );
    }
    // A named pipe nobody writes to: refused at once instead of blocking.
    let fifo = dir.path().join("fifo.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    minne(&data)
        .arg("import")
        .arg(&fifo)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .failure()
        .stderr(predicate::str::contains("not a regular file"));
}

#[test]
fn finding_8_an_empty_context_file_is_refused_as_damaged_not_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let good = dir.path().join("two.json");
    std::fs::write(&good, TWO).unwrap();
    minne(&data).arg("import").arg(&good).assert().success();
    // The context `work` cut to 0 bytes (a disk that filled, a sync tool that failed).
    let work = data.join("work.sqlite");
    std::fs::write(&work, b"").unwrap();
    for args in [
        &["--context", "work", "status"][..],
        &["--context", "work", "list"],
    ] {
        minne(&data).args(args).assert().failure().stderr(
            predicate::str::contains("empty (0 bytes)")
                .and(predicate::str::contains("Restore it from a backup")),
        );
        assert_eq!(
            std::fs::metadata(&work).unwrap().len(),
            0,
            "{args:?}: the damaged file is left as it was, for the user to restore"
        );
    }
    assert_eq!(messages(&data), 2, "the other context is untouched");
}

#[test]
fn finding_8_a_data_dir_given_as_dotdot_opens_and_a_failed_first_open_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("d");
    let below = data.join("below");
    std::fs::create_dir_all(&below).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    let good = dir.path().join("two.json");
    std::fs::write(&good, TWO).unwrap();

    // A key dir that cannot be made (a file stands where it would go): the first open of
    // `work` fails, and the empty file it began with must not stay to read as damaged.
    let blocker = dir.path().join("not-a-folder");
    std::fs::write(&blocker, b"").unwrap();
    minne(&data)
        .env("MINNE_CONFIG_DIR", &blocker)
        .args(["--context", "work", "import"])
        .arg(&good)
        .assert()
        .failure();
    assert!(
        !data.join("work.sqlite").exists(),
        "the failed first open left no work.sqlite behind"
    );

    // `..` from inside the data dir: its keys go beside the folder it names (`d.keys`).
    let mut cmd = minne(&data);
    cmd.env_remove("MINNE_DATA_DIR")
        .current_dir(&below)
        .args(["--data-dir", "..", "--context", "work", "import"])
        .arg(&good)
        .assert()
        .success();
    assert!(dir.path().join("d.keys").join("work.key").exists());
    let status = stdout_json(minne(&data).args(["--context", "work", "status", "--json"]));
    assert_eq!(
        status["messages"], 2,
        "the same store opens by its full path: {status}"
    );
}

/// The mode of `p`, permission bits only.
#[cfg(unix)]
fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[cfg(unix)]
fn set_mode(p: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// The second attack, finding 9: a key dir others can write (0777, 0707, 0770) let anyone
/// delete or swap every key, and it stayed so through every command that only read a key.
/// Every command that opens a context reads its key, and tightens the key dir first; with
/// something not Minne's inside it refuses, saying how to fix it, and changes nothing.
#[cfg(unix)]
#[test]
fn attack_2_finding_9_a_wide_key_dir_is_tightened_by_every_command_that_reads_a_key() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("two.json");
    std::fs::write(&file, TWO).unwrap();
    minne(&data).arg("import").arg(&file).assert().success();
    let keys = dir.path().join("data.keys");
    for wide in [0o777, 0o707, 0o770] {
        for args in [&["status"][..], &["list"], &["recall", "offsite"]] {
            set_mode(&keys, wide);
            minne(&data).args(args).assert().success();
            assert_eq!(mode(&keys), 0o700, "{args:?} after {wide:o}");
        }
    }
    // Something else in it: Minne does not decide for that file, it says what to do.
    std::fs::write(keys.join("other.txt"), "not Minne's").unwrap();
    set_mode(&keys, 0o777);
    minne(&data)
        .arg("status")
        .assert()
        .failure()
        .stderr(predicate::str::contains("key dir").and(predicate::str::contains("chmod 700")));
    assert_eq!(mode(&keys), 0o777, "left for the user, as the error says");
    std::fs::remove_file(keys.join("other.txt")).unwrap();
    assert_eq!(messages(&data), 2, "nothing stored was touched");
    assert_eq!(mode(&keys), 0o700);
}

/// The second attack, finding 22: a tracked JSON export replaced by a symbolic link (to a
/// copy elsewhere) was reported "rewritten without it" while the copy kept the forgotten
/// words. A forget reports such an export as not reached and writes neither the link nor
/// what it points to.
#[cfg(unix)]
#[test]
fn attack_2_finding_22_an_export_replaced_by_a_link_is_reported_not_reached() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("two.json");
    std::fs::write(&file, TWO).unwrap();
    minne(&data).arg("import").arg(&file).assert().success();
    let out = dir.path().join("exports");
    std::fs::create_dir(&out).unwrap();
    let export = out.join("a.json");
    minne(&data)
        .args(["export", "--format", "json", "-o"])
        .arg(&export)
        .assert()
        .success();
    let copy = dir.path().join("copy.json");
    std::fs::copy(&export, &copy).unwrap();
    std::fs::remove_file(&export).unwrap();
    std::os::unix::fs::symlink(&copy, &export).unwrap();
    let before = std::fs::read(&copy).unwrap();
    let list = stdout_json(minne(&data).args(["list", "--json"]));
    let cello = list
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["text"].as_str().unwrap().contains("cello"))
        .unwrap_or_else(|| panic!("the cello memory is listed: {list:#}"));
    let id = cello["id"].as_i64().unwrap().to_string();
    minne(&data)
        .args(["forget", "--id", &id])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("not reached")
                .and(predicate::str::contains("symbolic link"))
                .and(predicate::str::contains("rewritten").not()),
        );
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        before,
        "the link's target is not written"
    );
    assert!(
        std::fs::symlink_metadata(&export)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link stays a link"
    );
}

/// The second attack, finding 28: `--data-dir A export --out B.keys/personal.key --force`
/// replaced another store's key, and its memories were lost for good. An export is never
/// named as Minne names its own files, wherever the folder, and the other store is untouched.
#[test]
fn attack_2_finding_28_an_export_never_replaces_another_stores_database_or_key() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("two.json");
    std::fs::write(&file, TWO).unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    for data in [&a, &b] {
        minne(data).arg("import").arg(&file).assert().success();
    }
    let b_key = dir.path().join("b.keys/personal.key");
    let b_db = b.join("personal.sqlite");
    let (key_before, db_before) = (
        std::fs::read(&b_key).unwrap(),
        std::fs::read(&b_db).unwrap(),
    );
    for target in [
        b_key.clone(),
        b_db.clone(),
        b.join("personal.sqlite-wal"),
        dir.path().join("b.keys/store-id"),
        dir.path().join("elsewhere.sqlite"),
        dir.path().join("elsewhere.key"),
        // The third attack, finding 5: on a case-insensitive disk these are the same names.
        dir.path().join("b.keys/personal.KEY"),
        dir.path().join("elsewhere.SQLITE"),
    ] {
        minne(&a)
            .args(["export", "--force", "-o"])
            .arg(&target)
            .assert()
            .failure()
            .stderr(
                predicate::str::contains("names its own databases and keys")
                    .and(predicate::str::contains("nothing was written")),
            );
    }
    assert_eq!(std::fs::read(&b_key).unwrap(), key_before);
    assert_eq!(std::fs::read(&b_db).unwrap(), db_before);
    assert!(!dir.path().join("elsewhere.sqlite").exists());
    assert!(!dir.path().join("elsewhere.SQLITE").exists());
    assert_eq!(
        messages(&b),
        2,
        "the other store still opens with its own key"
    );
}

/// The second attack, findings 5 and 6: 5 bytes of junk named `notes.sqlite` in the data dir
/// blocked `forget --everything` ("nothing was forgotten, in any context"), and another
/// program's SQLite database there was made a context: given a key and encrypted, so its
/// owner could no longer read it. A file that is certainly no Minne database is no context:
/// `forget --everything` forgets every real one and names these as left alone, and opening
/// one as a context is refused without a byte changed.
#[test]
fn attack_2_findings_5_6_a_file_in_the_data_dir_that_is_not_minnes_is_never_opened_or_forgotten() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("two.json");
    std::fs::write(&file, TWO).unwrap();
    minne(&data).arg("import").arg(&file).assert().success();
    let junk = data.join("notes.sqlite");
    std::fs::write(&junk, b"junk\n").unwrap();
    let theirs = data.join("recipes.sqlite");
    {
        let conn = rusqlite::Connection::open(&theirs).unwrap();
        conn.execute_batch("CREATE TABLE x (a TEXT); INSERT INTO x VALUES ('mydata');")
            .unwrap();
    }
    let theirs_before = std::fs::read(&theirs).unwrap();

    for context in ["notes", "recipes"] {
        minne(&data)
            .args(["--context", context, "list"])
            .assert()
            .failure()
            .stderr(
                predicate::str::contains("is not a Minne database")
                    .and(predicate::str::contains("move it out of the data dir")),
            );
    }
    minne(&data)
        .args(["forget", "--everything", "--yes"])
        .assert()
        .success()
        .stderr(
            predicate::str::contains("Left alone, not Minne databases")
                .and(predicate::str::contains("notes.sqlite (it is 5 bytes"))
                .and(predicate::str::contains(
                    "recipes.sqlite (it is an SQLite database",
                )),
        );
    assert_eq!(messages(&data), 0, "the real context was forgotten");
    assert_eq!(std::fs::read(&junk).unwrap(), b"junk\n");
    assert_eq!(
        std::fs::read(&theirs).unwrap(),
        theirs_before,
        "not encrypted"
    );
    let conn = rusqlite::Connection::open(&theirs).unwrap();
    let a: String = conn.query_row("SELECT a FROM x", [], |r| r.get(0)).unwrap();
    assert_eq!(a, "mydata", "its owner still reads it");
    let keys: Vec<_> = std::fs::read_dir(dir.path().join("data.keys"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !keys
            .iter()
            .any(|k| k.starts_with("notes") || k.starts_with("recipes")),
        "no key was made for them: {keys:?}"
    );
}
