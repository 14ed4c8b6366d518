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
