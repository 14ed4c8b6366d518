//! The OS keyring path for real: a private D-Bus session bus with an unlocked
//! `gnome-keyring-daemon` on it (the Secret Service the `keyring` crate talks to on Linux), and
//! the real `minne` binary. The key lands in the keyring and in no file, recall works after
//! reopening, rotation replaces the key there, and a wrong key in the keyring gives the clear
//! error and changes nothing on disk.
//!
//! Needs `dbus-daemon`, `gnome-keyring-daemon` and `secret-tool` (scripts/setup-system.sh
//! installs them). Skips, saying why, only when one of them is absent; a daemon that is present
//! but does not work fails the test.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command as StdCommand, Output, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use predicates::prelude::*;

/// How long the keyring daemon may take to own its bus name. A guard against a hang, not a
/// measure (it takes well under a second here).
const READY_GUARD: Duration = Duration::from_secs(20);

/// A private session bus and an unlocked gnome-keyring on it, both children of this test,
/// killed on drop. Nothing reaches the user's own session bus or keyring.
struct SecretService {
    bus: Child,
    keyring: Child,
    address: String,
}

impl SecretService {
    /// Starts both daemons under `root` (bus socket, keyring files, runtime dir), or panics
    /// with what failed.
    fn start(root: &Path) -> SecretService {
        let bus_dir = root.join("bus");
        let home = root.join("keyring-home");
        let runtime = root.join("keyring-runtime");
        for dir in [&bus_dir, &home, &runtime] {
            std::fs::create_dir_all(dir).unwrap();
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
        }
        // A bus of our own with no service directories: nothing is started on demand, so the
        // only Secret Service on it is the unlocked daemon below (the stock session config
        // would D-Bus-activate a second, locked gnome-keyring if a client came too early).
        let config = bus_dir.join("session.conf");
        std::fs::write(
            &config,
            format!(
                r#"<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"#,
                bus_dir.join("socket").display()
            ),
        )
        .unwrap();
        let mut bus = StdCommand::new("dbus-daemon")
            .arg(format!("--config-file={}", config.display()))
            .args(["--nofork", "--nopidfile", "--print-address=1"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("dbus-daemon starts");
        let mut address = String::new();
        BufReader::new(bus.stdout.take().unwrap())
            .read_line(&mut address)
            .unwrap();
        let address = address.trim().to_string();
        assert!(
            address.starts_with("unix:"),
            "dbus-daemon printed its address, got {address:?}"
        );
        eprintln!("keyring test: private session bus at {address}");

        // `--unlock` reads the login keyring's password from stdin (and creates that keyring
        // unlocked on first use); `--components=secrets` starts the Secret Service only.
        let mut keyring = StdCommand::new("gnome-keyring-daemon")
            .args(["--foreground", "--unlock", "--components=secrets"])
            .env("DBUS_SESSION_BUS_ADDRESS", &address)
            .env("HOME", &home)
            .env("XDG_DATA_HOME", home.join("data"))
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env("XDG_RUNTIME_DIR", &runtime)
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("GNOME_KEYRING_CONTROL")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("gnome-keyring-daemon starts");
        {
            let mut stdin = keyring.stdin.take().unwrap();
            stdin.write_all(b"minne test keyring password").unwrap();
        } // closed: the daemon reads the password to EOF
        let service = SecretService {
            bus,
            keyring,
            address,
        };
        service.wait_ready();
        service
    }

    /// Waits until an item can be stored and read back: the daemon owns
    /// org.freedesktop.secrets and its default collection is unlocked.
    fn wait_ready(&self) {
        let started = Instant::now();
        loop {
            let stored = self
                .secret_tool(&["store", "--label=probe", "service", "minne-test-probe"])
                .stdin_bytes(b"ready");
            if stored.status.success() {
                let back = self
                    .secret_tool(&["lookup", "service", "minne-test-probe"])
                    .output();
                assert_eq!(
                    String::from_utf8_lossy(&back.stdout),
                    "ready",
                    "the unlocked keyring reads back what it stored"
                );
                self.secret_tool(&["clear", "service", "minne-test-probe"])
                    .output();
                eprintln!(
                    "keyring test: gnome-keyring-daemon ready in {} ms",
                    started.elapsed().as_millis()
                );
                return;
            }
            assert!(
                started.elapsed() < READY_GUARD,
                "gnome-keyring-daemon did not serve org.freedesktop.secrets on the private bus: {}",
                String::from_utf8_lossy(&stored.stderr)
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The stored text of the keyring item with these attributes, or `None`.
    fn lookup(&self, attributes: &[(&str, &str)]) -> Option<String> {
        let mut args = vec!["lookup"];
        for (k, v) in attributes {
            args.extend([*k, *v]);
        }
        let out = self.secret_tool(&args).output();
        out.status
            .success()
            .then(|| String::from_utf8(out.stdout).unwrap())
    }

    fn secret_tool(&self, args: &[&str]) -> SecretTool {
        SecretTool {
            address: self.address.clone(),
            args: args.iter().map(|a| a.to_string()).collect(),
        }
    }
}

impl Drop for SecretService {
    fn drop(&mut self) {
        for child in [&mut self.keyring, &mut self.bus] {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// One `secret-tool` run against the private bus.
struct SecretTool {
    address: String,
    args: Vec<String>,
}

impl SecretTool {
    fn output(self) -> Output {
        self.command().output().unwrap()
    }

    fn stdin_bytes(self, input: &[u8]) -> Output {
        let mut child = self.command().stdin(Stdio::piped()).spawn().unwrap();
        child.stdin.take().unwrap().write_all(input).unwrap();
        child.wait_with_output().unwrap()
    }

    fn command(&self) -> StdCommand {
        let mut cmd = StdCommand::new("secret-tool");
        cmd.args(&self.args)
            .env("DBUS_SESSION_BUS_ADDRESS", &self.address)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    }
}

/// The first of `bins` not found on PATH.
fn missing_binary(bins: &[&'static str]) -> Option<&'static str> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    bins.iter()
        .copied()
        .find(|bin| !std::env::split_paths(&path).any(|dir| dir.join(bin).is_file()))
}

/// The `minne` binary on this data dir and config dir, talking to the private bus only.
fn minne(data: &Path, config: &Path, bus: &str) -> Command {
    let mut cmd = Command::cargo_bin("minne").expect("the minne binary is built for its tests");
    cmd.env("MINNE_DATA_DIR", data)
        .env("MINNE_CONFIG_DIR", config)
        .env("DBUS_SESSION_BUS_ADDRESS", bus)
        .env_remove("MINNE_CONTEXT")
        .env_remove("MINNE_PASSPHRASE")
        .env_remove("MINNE_NEW_PASSPHRASE")
        .env_remove("MINNE_KEYRING")
        .env_remove("MINNE_UNENCRYPTED");
    cmd
}

/// The value of the line `<name> <value>` in a key record (`minne-key v1`, `key <hex>`,
/// `previous <hex>`, `tombstone <hex>`; src/keys.rs).
fn field<'a>(record: &'a str, name: &str) -> Option<&'a str> {
    record
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
}

/// The files under `dir`, recursively.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out
}

#[test]
fn keys_live_in_a_real_secret_service() {
    if let Some(bin) = missing_binary(&["dbus-daemon", "gnome-keyring-daemon", "secret-tool"]) {
        eprintln!(
            "skipped: `{bin}` is not installed, so no Secret Service can run here; scripts/setup-system.sh installs it"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let service = SecretService::start(dir.path());
    let bus = service.address.clone();
    let data = dir.path().join("data");
    let config = dir.path().join("config");
    let keys = config.join("keys");

    // Capture: the transcript is imported and captured into `personal`, whose new key must go
    // to the keyring, since MINNE_CONFIG_DIR puts the key dir in a config dir (keyring on by
    // default there, docs/encryption.md) and the keyring answers.
    let transcript = dir.path().join("t.json");
    std::fs::write(
        &transcript,
        serde_json::json!({"sessions": [{"id": "s1", "messages": [
            {"role": "user", "timestamp": "2026-03-01T10:00:00Z",
             "text": "My sister Ingrid moved to Tromsø and works as a glaciologist at the polar institute."},
            {"role": "assistant", "timestamp": "2026-03-01T10:01:00Z",
             "text": "Noted: Ingrid, glaciologist in Tromsø."}
        ]}]})
        .to_string(),
    )
    .unwrap();
    minne(&data, &config, &bus)
        .args(["import", "--format", "transcript"])
        .arg(&transcript)
        .assert()
        .success()
        // The "kept in an owner-only key file" notice is for the no-keyring fallback only.
        .stderr(predicate::str::contains("key file").not());

    let key_files: Vec<_> = files_under(&keys)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "key"))
        .collect();
    assert!(
        key_files.is_empty(),
        "a key held by the keyring is written to no file: {key_files:?}"
    );
    let store_id = std::fs::read_to_string(keys.join("store-id")).unwrap();
    let user = format!("{}/personal", store_id.trim());
    // The attributes the `keyring` crate (3.x, Secret Service) gives an entry; reading it with
    // secret-tool is what a user backing up the key would do (docs/encryption.md, Backups).
    let attributes = [
        ("service", "minne"),
        ("username", user.as_str()),
        ("target", "default"),
        ("application", "rust-keyring"),
    ];
    let first = service
        .lookup(&attributes)
        .unwrap_or_else(|| panic!("the key of `personal` is in the keyring as {user}"));
    assert!(
        first.starts_with("minne-key v1\n"),
        "the keyring holds a key record: {first:?}"
    );
    let first_key = field(&first, "key")
        .expect("the record has a key")
        .to_string();
    let tombstone = field(&first, "tombstone")
        .expect("the tombstone secret rides in the keyring with the key")
        .to_string();
    assert_eq!(first_key.len(), 64, "a 32-byte key in hex");
    let status = minne(&data, &config, &bus)
        .args(["key", "status", "--json"])
        .output()
        .unwrap();
    let status: serde_json::Value = serde_json::from_slice(&status.stdout).unwrap();
    let personal = status
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["context"] == "personal")
        .expect("`key status` lists `personal`");
    assert_eq!(
        personal["source"],
        serde_json::json!({"kind": "keyring", "entry": user}),
        "`key status` says the key is in the keyring, under the entry secret-tool found"
    );
    let db = data.join("personal.sqlite");
    assert!(
        !std::fs::read(&db)
            .unwrap()
            .windows(b"glaciologist".len())
            .any(|w| w == b"glaciologist"),
        "the database file is encrypted: no memory text in its bytes"
    );

    // Reopen in a new process: the key comes back from the keyring and recall finds the memory.
    let recall = || {
        minne(&data, &config, &bus)
            .args(["recall", "where does Ingrid work"])
            .assert()
            .success()
            .stdout(predicate::str::contains("glaciologist"));
    };
    recall();

    // Rotation: a new key in the same entry, the previous one dropped once the rekey is done,
    // the tombstone secret unchanged (earlier tombstones must keep matching), still no file.
    minne(&data, &config, &bus)
        .args(["key", "rotate", "-c", "personal"])
        .assert()
        .success()
        .stdout(predicate::str::contains("OS keyring"));
    let rotated = service
        .lookup(&attributes)
        .expect("the rotated key stays in the keyring");
    let rotated_key = field(&rotated, "key").unwrap();
    assert_ne!(rotated_key, first_key, "rotation stores a new key");
    assert_eq!(
        field(&rotated, "previous"),
        None,
        "a finished rotation keeps no previous key"
    );
    assert_eq!(
        field(&rotated, "tombstone"),
        Some(tombstone.as_str()),
        "the tombstone secret survives rotation"
    );
    assert!(
        files_under(&keys)
            .iter()
            .all(|p| p.extension().is_none_or(|e| e != "key")),
        "rotation writes no key file"
    );
    recall();

    // A wrong key in the keyring: the record is replaced by one with another key (the first,
    // which no longer opens the file after rotation). Opening must fail with the clear error,
    // and the database file must be byte for byte as it was.
    let wrong = format!("minne-key v1\nkey {first_key}\ntombstone {tombstone}\n");
    let mut store_args = vec!["store", "--label=minne wrong key"];
    for (k, v) in &attributes {
        store_args.extend([*k, *v]);
    }
    let stored = service
        .secret_tool(&store_args)
        .stdin_bytes(wrong.as_bytes());
    assert!(stored.status.success(), "secret-tool replaces the entry");
    let before = std::fs::read(&db).unwrap();
    minne(&data, &config, &bus)
        .args(["recall", "where does Ingrid work"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "cannot unlock the context `personal`",
        ))
        .stderr(predicate::str::contains("OS keyring"));
    assert_eq!(
        std::fs::read(&db).unwrap(),
        before,
        "a wrong key changes nothing on disk"
    );
    assert_eq!(
        service.lookup(&attributes).as_deref(),
        Some(wrong.as_str()),
        "a failed open does not overwrite the stored record"
    );

    // Putting the right record back opens it again: nothing was lost.
    let stored = service
        .secret_tool(&store_args)
        .stdin_bytes(rotated.as_bytes());
    assert!(stored.status.success(), "secret-tool restores the entry");
    recall();
}
