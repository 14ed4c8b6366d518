//! A process's first opens, from many threads at once, all unlock their encrypted contexts.
//!
//! SQLite marks itself initialised before SQLCipher's codec is registered, so a thread that
//! opened a context in that window failed with "PRAGMA key requires a key…" (seen in CI, where
//! the app opens two contexts at start-up). The window exists only once per process, hence the
//! many short child processes, each starting 16 threads that open together. Before the fix
//! (`keys::connect`), 7 of 600 such processes failed on this machine; after it, 0 of 600.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use minne::keys::KeyConfig;

mod common;

const CHILD_DIR: &str = "MINNE_FIRST_OPEN_DIR";
const THREADS: usize = 16;
const PROCESSES: usize = 200;

fn key_config(dir: &Path) -> KeyConfig {
    KeyConfig {
        key_dir: Some(dir.join("keys")),
        keyring: Some(false),
        ..KeyConfig::default()
    }
}

/// The child: 16 threads wait at a spinning start line, then each makes its own data dir
/// (which creates and keys the built-in contexts). Run by the test below, not on its own.
#[test]
#[ignore = "a child process of every_first_open_unlocks"]
fn first_open_child() {
    let root = PathBuf::from(std::env::var(CHILD_DIR).expect("run by every_first_open_unlocks"));
    let waiting = Arc::new(AtomicUsize::new(THREADS));
    let threads: Vec<_> = (0..THREADS)
        .map(|i| {
            let dir = root.join(format!("t{i}"));
            let waiting = Arc::clone(&waiting);
            std::thread::spawn(move || {
                waiting.fetch_sub(1, Ordering::SeqCst);
                while waiting.load(Ordering::SeqCst) > 0 {
                    std::hint::spin_loop();
                }
                minne::context::ensure_data_dir_with(&dir.join("data"), &key_config(&dir))
            })
        })
        .collect();
    for thread in threads {
        if let Err(e) = thread.join().unwrap() {
            panic!("a first open failed: {e}");
        }
    }
}

#[test]
fn every_first_open_unlocks() {
    let exe = std::env::current_exe().unwrap();
    let root = common::tempdir();
    let mut failures = Vec::new();
    for p in 0..PROCESSES {
        let dir = root.path().join(format!("p{p}"));
        let out = Command::new(&exe)
            .args([
                "--ignored",
                "--exact",
                "first_open_child",
                "--test-threads",
                "1",
            ])
            .env(CHILD_DIR, &dir)
            .output()
            .unwrap();
        if !out.status.success() {
            failures.push(format!(
                "process {p}: {}",
                String::from_utf8_lossy(&out.stdout)
                    .lines()
                    .chain(String::from_utf8_lossy(&out.stderr).lines())
                    .filter(|l| l.contains("fail") || l.contains("panicked"))
                    .collect::<Vec<_>>()
                    .join(" | ")
            ));
        }
        // Each child leaves 16 data dirs; drop them as we go so the test stays small on disk.
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(
        failures.is_empty(),
        "{} of {PROCESSES} processes failed a first open:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
