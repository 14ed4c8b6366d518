//! `minne key` on the real binary: the key file is made once and said once, rotation keeps the
//! data readable, and passphrase mode needs the passphrase, with no prompt when it is set.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;

fn minne(data: &Path) -> Command {
    let mut cmd = Command::cargo_bin("minne").expect("the minne binary is built for its tests");
    cmd.env("MINNE_DATA_DIR", data)
        .env_remove("MINNE_CONTEXT")
        .env_remove("MINNE_PASSPHRASE")
        .env_remove("MINNE_CONFIG_DIR");
    cmd
}

#[test]
fn key_file_notice_rotation_and_passphrase_mode() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // No keyring is reached for a data dir of its own: the key goes to `<data dir>.keys`, and
    // the first command says so, once. (`capture` starts the store; a read creates none.)
    minne(&data)
        .arg("capture")
        .assert()
        .success()
        .stderr(predicate::str::contains("key file"));
    minne(&data)
        .arg("list")
        .assert()
        .success()
        .stderr(predicate::str::contains("key file").not());
    let key = dir.path().join("data.keys/work.key");
    minne(&data)
        .args(["key", "status"])
        .assert()
        .success()
        .stdout(predicate::str::contains(key.display().to_string()));

    let before = std::fs::read_to_string(&key).unwrap();
    minne(&data)
        .args(["key", "rotate", "-c", "work"])
        .assert()
        .success();
    assert_ne!(
        std::fs::read_to_string(&key).unwrap(),
        before,
        "a new key is stored"
    );
    minne(&data).args(["-c", "work", "list"]).assert().success();

    // Passphrase mode: the stored key goes, and the context opens only with the passphrase,
    // read from the environment without a prompt.
    minne(&data)
        .args(["key", "passphrase", "-c", "work"])
        .env("MINNE_NEW_PASSPHRASE", "tall ships at dawn")
        .assert()
        .success();
    assert!(!key.exists(), "passphrase mode keeps no key file");
    minne(&data)
        .args(["-c", "work", "list"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("MINNE_PASSPHRASE"));
    minne(&data)
        .args(["-c", "work", "list"])
        .env("MINNE_PASSPHRASE", "tall ships at noon")
        .assert()
        .failure()
        .stderr(predicate::str::contains("passphrase is wrong"));
    minne(&data)
        .args(["-c", "work", "list"])
        .env("MINNE_PASSPHRASE", "tall ships at dawn")
        .assert()
        .success();
}

/// Without MINNE_NEW_PASSPHRASE and without a terminal, `key passphrase` says where a
/// passphrase can come from (a fresh user got only "the passphrase is empty"), and the
/// context keeps its key.
#[test]
fn no_new_passphrase_says_where_one_comes_from() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // `capture` starts the store (a read creates none).
    minne(&data)
        .args(["-c", "work", "capture"])
        .assert()
        .success();
    minne(&data)
        .args(["key", "passphrase", "-c", "work"])
        .env_remove("MINNE_NEW_PASSPHRASE")
        .write_stdin("")
        .assert()
        .failure()
        .stderr(predicate::str::contains("MINNE_NEW_PASSPHRASE"));
    minne(&data).args(["-c", "work", "list"]).assert().success();
}
