//! Contexts: isolated memory spaces, one database file each (`<data dir>/<name>.sqlite`).
//! `work` and `personal` exist by default.

use std::fmt;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::{Error, Result};
use crate::keys::KeyConfig;
use crate::store::Store;

/// The file extension of a context's database.
pub const CONTEXT_FILE_EXTENSION: &str = "sqlite";

/// A valid context name: 1 to 64 of `a-z 0-9 - _`, starting with a letter.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct ContextName(String);

impl ContextName {
    /// The context the app and the CLI open when none is named.
    pub const DEFAULT: &'static str = "personal";
    /// The contexts created on first use.
    pub const BUILT_IN: [&'static str; 2] = ["work", "personal"];

    /// A checked context name, or [`Error::InvalidContextName`].
    pub fn new(name: &str) -> Result<ContextName> {
        let ok = (1..=64).contains(&name.len())
            && name.starts_with(|c: char| c.is_ascii_lowercase())
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
        if ok {
            Ok(ContextName(name.to_string()))
        } else {
            Err(Error::InvalidContextName(name.to_string()))
        }
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The database file of this context under `data_dir`.
    pub fn db_path(&self, data_dir: &Path) -> PathBuf {
        data_dir.join(format!("{}.{CONTEXT_FILE_EXTENSION}", self.0))
    }
}

impl fmt::Display for ContextName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A context as `minne contexts` and the app's switcher show it.
#[derive(Debug, Clone, Serialize)]
pub struct ContextInfo {
    /// The name.
    pub name: ContextName,
    /// How many episodes it holds.
    pub episodes: u64,
    /// Its database file.
    pub path: PathBuf,
    /// Why its episodes could not be counted (a damaged or foreign file), if so.
    pub problem: Option<String>,
    /// Why the file is certainly not a Minne database (5 bytes of junk, another program's
    /// SQLite file), if so: it is no context, and Minne opens, encrypts and forgets nothing
    /// of it.
    pub not_a_store: Option<String>,
}

/// Creates `data_dir` (owner-only) and the built-in contexts if they are missing, encrypted
/// with the default key configuration (see [`ensure_data_dir_with`]).
pub fn ensure_data_dir(data_dir: &Path) -> Result<()> {
    ensure_data_dir_with(data_dir, &KeyConfig::default())
}

/// Creates `data_dir` (owner-only) and the built-in contexts if they are missing, each with
/// its key from `keys` ([`crate::keys`]).
pub fn ensure_data_dir_with(data_dir: &Path, keys: &KeyConfig) -> Result<()> {
    create_private_dir(data_dir)?;
    for name in ContextName::BUILT_IN {
        let name = ContextName::new(name)?;
        let path = name.db_path(data_dir);
        if !path.exists() {
            Store::open_with(&path, keys)?;
        }
    }
    Ok(())
}

/// Lists the contexts under `data_dir` with the default key configuration (see
/// [`list_contexts_with`]).
pub fn list_contexts(data_dir: &Path) -> Result<Vec<ContextInfo>> {
    list_contexts_with(data_dir, &KeyConfig::default())
}

/// Lists the contexts under `data_dir`, sorted by name, creating the built-in ones first.
/// Each file is opened read-only with its key from `keys` just long enough to count its
/// episodes; a file that cannot be unlocked or read is listed with its `problem`.
pub fn list_contexts_with(data_dir: &Path, keys: &KeyConfig) -> Result<Vec<ContextInfo>> {
    ensure_data_dir_with(data_dir, keys)?;
    let entries = std::fs::read_dir(data_dir).map_err(|source| Error::Io {
        action: "cannot list",
        path: data_dir.to_path_buf(),
        source,
    })?;
    let mut out = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|source| Error::Io {
            action: "cannot list",
            path: data_dir.to_path_buf(),
            source,
        })?;
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some(CONTEXT_FILE_EXTENSION) {
            continue;
        }
        let Some(name) = path
            .file_stem()
            .and_then(|s| s.to_str())
            .and_then(|s| ContextName::new(s).ok())
        else {
            continue;
        };
        if let Some(why) = crate::keys::not_a_store(&path)? {
            out.push(ContextInfo {
                name,
                episodes: 0,
                problem: Some(format!("not a Minne database: {why}")),
                path,
                not_a_store: Some(why),
            });
            continue;
        }
        let counted = crate::keys::unlock_read_only(&path, keys).and_then(|conn| {
            Ok(conn.query_row("SELECT count(*) FROM episodes", [], |r| r.get::<_, i64>(0))?)
        });
        let (episodes, problem) = match counted {
            Ok(n) => (n as u64, None),
            // A missing or wrong key says so itself; the file is then most likely fine.
            Err(
                e @ (crate::Error::WrongKey { .. }
                | crate::Error::KeyMissing { .. }
                | crate::Error::KeyStore(_)),
            ) => (0, Some(format!("cannot read it: {e}"))),
            Err(e) => (
                0,
                Some(format!(
                    "cannot read it ({e}): it may be damaged or not a Minne database"
                )),
            ),
        };
        out.push(ContextInfo {
            name,
            episodes,
            path,
            problem,
            not_a_store: None,
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// Creates a new, empty context under `data_dir` with the default key configuration (see
/// [`create_context_with`]).
pub fn create_context(data_dir: &Path, name: &ContextName) -> Result<ContextInfo> {
    create_context_with(data_dir, name, &KeyConfig::default())
}

/// Creates a new, empty context under `data_dir` (its own database file, with its own key
/// from `keys`). Errors: [`Error::InvalidInput`] if it exists already.
pub fn create_context_with(
    data_dir: &Path,
    name: &ContextName,
    keys: &KeyConfig,
) -> Result<ContextInfo> {
    ensure_data_dir_with(data_dir, keys)?;
    let path = name.db_path(data_dir);
    if path.exists() {
        return Err(Error::InvalidInput(format!(
            "the context `{name}` exists already"
        )));
    }
    Store::open_with(&path, keys)?;
    Ok(ContextInfo {
        name: name.clone(),
        episodes: 0,
        path,
        problem: None,
        not_a_store: None,
    })
}

/// Whether `data_dir` holds Minne data: at least one context database (`<name>.sqlite`). A
/// missing folder, or one that is not a folder, holds none. Errors: [`Error::Io`] when the
/// folder exists but cannot be listed.
pub fn holds_data(data_dir: &Path) -> Result<bool> {
    let entries = match std::fs::read_dir(data_dir) {
        Ok(entries) => entries,
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
            return Ok(false);
        }
        Err(source) => {
            return Err(Error::Io {
                action: "cannot list",
                path: data_dir.to_path_buf(),
                source,
            });
        }
    };
    Ok(entries.flatten().any(|entry| {
        let path = entry.path();
        path.is_file()
            && path.extension().and_then(|e| e.to_str()) == Some(CONTEXT_FILE_EXTENSION)
            && path
                .file_stem()
                .and_then(|s| s.to_str())
                .is_some_and(|s| ContextName::new(s).is_ok())
    }))
}

/// Refuses a data dir that holds no Minne data ([`holds_data`]) with [`Error::NoData`],
/// creating nothing. Front ends call it before a command that only reads (or changes what is
/// stored), so a mistyped `--data-dir` is reported instead of silently becoming an empty
/// store; [`Engine::open_with`](crate::Engine::open_with) itself creates the data dir.
pub fn require_data(data_dir: &Path) -> Result<()> {
    if holds_data(data_dir)? {
        Ok(())
    } else {
        Err(Error::NoData(data_dir.to_path_buf()))
    }
}

/// Whether the context's database exists under `data_dir`.
pub fn context_exists(data_dir: &Path, name: &ContextName) -> bool {
    name.db_path(data_dir).exists()
}

fn create_private_dir(dir: &Path) -> Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir).map_err(|source| Error::Io {
        action: "cannot create",
        path: dir.to_path_buf(),
        source,
    })?;
    // `create` keeps a folder that was there with its own mode (one made by hand, 0755).
    crate::store::private::tighten_dir(dir, "data dir")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("work", true)]
    #[case("personal", true)]
    #[case("side-project_2", true)]
    #[case("", false)]
    #[case("Work", false)]
    #[case("../etc", false)]
    #[case("2fast", false)]
    fn context_names_are_checked(#[case] name: &str, #[case] ok: bool) {
        assert_eq!(
            ContextName::new(name).is_ok(),
            ok,
            "a name becomes a file name: `{name}`"
        );
    }

    #[test]
    fn a_folder_without_a_context_holds_no_data() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        assert!(
            matches!(require_data(&data), Err(Error::NoData(p)) if p == data),
            "a missing data dir is refused by name"
        );
        assert!(!data.exists(), "and checking it creates nothing");
        std::fs::create_dir(&data).unwrap();
        std::fs::write(data.join("notes.txt"), "not Minne").unwrap();
        std::fs::write(data.join("Bad Name.sqlite"), "").unwrap();
        assert!(
            !holds_data(&data).unwrap(),
            "other files, or a .sqlite no context could be named after, are not Minne data"
        );
        assert!(
            !holds_data(&data.join("notes.txt")).unwrap(),
            "a file given as the data dir holds no data"
        );
        // A folder others can read that holds what is not Minne's is not Minne's to tighten.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).unwrap();
            let refused = ensure_data_dir_with(&data, &KeyConfig::unencrypted())
                .unwrap_err()
                .to_string();
            assert!(refused.contains("chmod 700"), "{refused}");
            std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o700)).unwrap();
        }
        ensure_data_dir_with(&data, &KeyConfig::unencrypted()).unwrap();
        assert!(
            require_data(&data).is_ok(),
            "a data dir with its contexts holds data"
        );
    }

    #[test]
    fn built_in_contexts_are_created_and_listed() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let list = list_contexts(&data).unwrap();
        let names: Vec<_> = list.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            ["personal", "work"],
            "work and personal exist by default, sorted"
        );
        assert!(list.iter().all(|c| c.episodes == 0));
    }
}
