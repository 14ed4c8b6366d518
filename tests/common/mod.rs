//! Shared helpers of the integration tests: the real model and the shared data folder.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design
#![allow(dead_code)]

pub mod consolidation;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use minne::embed::{self, Embedder};

/// The models folder, as the front ends find it: `MINNE_MODELS_DIR` or the platform cache.
pub fn models_dir() -> PathBuf {
    minne::settings::Settings::from_env()
        .expect("settings from the environment")
        .models_dir
}

/// The real MiniLM model. Fails, naming the fix, when `scripts/setup-models.sh` has not run:
/// integration tests use the real model, never a stand-in.
pub fn real_embedder() -> Arc<dyn Embedder> {
    embed::load(&models_dir(), embed::ModelChoice::MiniLm).unwrap_or_else(|e| {
        panic!("{e}\nthe integration tests need the real model: run scripts/setup-models.sh")
    })
}

/// A file under `../shared/data`, or `None` (with a printed reason) when that folder is absent.
pub fn shared_data(relative: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(relative);
    if path.exists() {
        Some(path)
    } else {
        eprintln!(
            "skipped: {} is absent (the shared data folder sits beside the clone)",
            path.display()
        );
        None
    }
}

/// The files under `dir` (recursively) whose bytes hold `needle` in any ASCII case, each as
/// "path: count". The bytes-gone proofs scan the DB, WAL, SHM and every other file this way.
pub fn occurrences(dir: &Path, needle: &str) -> Vec<String> {
    let needle = needle.to_lowercase();
    let mut hits = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            hits.extend(occurrences(&path, &needle));
            continue;
        }
        let bytes = std::fs::read(&path).unwrap().to_ascii_lowercase();
        let n = bytes
            .windows(needle.len())
            .filter(|w| *w == needle.as_bytes())
            .count();
        if n > 0 {
            hits.push(format!("{}: {n}", path.display()));
        }
    }
    hits
}

/// A temp dir to use as a data dir, removed on drop together with the key dir the engine puts
/// beside it: a data dir outside the platform's has its keys in `<data dir>.keys`
/// (`KeyConfig::resolve`, docs/encryption.md), which is outside the temp dir and would outlive
/// it. Use it where a test opens the engine on the temp dir itself; a test that opens
/// `<temp dir>/data` keeps its keys inside the temp dir and needs none of this.
pub struct TempDataDir {
    dir: Option<tempfile::TempDir>,
}

impl TempDataDir {
    /// The data dir.
    pub fn path(&self) -> &Path {
        self.dir.as_ref().expect("present until dropped").path()
    }
}

impl Drop for TempDataDir {
    fn drop(&mut self) {
        let Some(dir) = self.dir.take() else { return };
        let keys = minne::keys::KeyConfig::default().resolve(dir.path());
        let beside = dir.path().file_name().map(|name| {
            let mut name = name.to_os_string();
            name.push(".keys");
            dir.path().with_file_name(name)
        });
        drop(dir);
        // Only the sibling `<data dir>.keys`, never a key dir the rule put anywhere else.
        if let (Ok((keys, _)), Some(beside)) = (keys, beside)
            && keys == beside
        {
            let _ = std::fs::remove_dir_all(keys);
        }
    }
}

/// A fresh [`TempDataDir`].
pub fn tempdir() -> TempDataDir {
    TempDataDir {
        dir: Some(tempfile::tempdir().expect("a temp dir")),
    }
}
