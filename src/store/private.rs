//! Owner-only folders and files, whoever made them first: the data dir and the key dir are
//! tightened to 0700 and a key file to 0600 when Minne finds them wider (a data dir made by
//! hand with `mkdir`, 0755; a key file copied in, 0644), or refused with what to do when
//! tightening would touch what is not Minne's (a home folder, `/tmp`). Issue 30, finding 6.

use std::path::Path;

use crate::error::{Error, Result};

/// The names Minne writes in its data dir and key dir (a context's database with its
/// SQLite companions, a forget's scrub marker, keys, the keyring id, the lock, the notice
/// marker, the temporary files of an atomic write and the probe of a writable folder; a
/// capture job's lock file, and the copy of a store being encrypted in place).
pub(crate) fn is_minnes(name: &str) -> bool {
    const SUFFIXES: [&str; 7] = [
        ".sqlite",
        ".sqlite-wal",
        ".sqlite-shm",
        ".sqlite-journal",
        "-scrub-pending",
        ".key",
        ".sqlite.encrypting",
    ];
    if name.ends_with(&format!(".sqlite{}", crate::capture::lock::LOCK_SUFFIX)) {
        return true;
    }
    const NAMES: [&str; 3] = ["store-id", ".lock", "file-key-notice-shown"];
    SUFFIXES.iter().any(|s| name.ends_with(s))
        || NAMES.contains(&name)
        || name.contains(".tmp-")
        || name.contains(".unused-")
        || name.starts_with(".minne-write-probe-")
}

/// Makes `dir` (which exists) owner-only. A folder already 0700 (or stricter) is left as it
/// is; a wider one is set to 0700 when all it holds is Minne's; otherwise, or when the mode
/// cannot be changed (another owner), nothing changes and the error says what to do.
/// `what` names the folder for the message ("data dir", "key dir").
/// Errors: [`Error::InvalidInput`] when the folder is open to others and stays so.
pub(crate) fn tighten_dir(dir: &Path, what: &str) -> Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let Ok(meta) = std::fs::metadata(dir) else {
            return Ok(());
        };
        let mode = meta.permissions().mode() & 0o7777;
        if mode & 0o077 == 0 {
            return Ok(());
        }
        let refuse = |why: String| {
            Error::InvalidInput(format!(
                "the {what} {} can be read by other users (mode {mode:04o}) and {why}: run \
                 `chmod 700 {}`, or give Minne a folder of its own (--data-dir)",
                dir.display(),
                dir.display()
            ))
        };
        let foreign = std::fs::read_dir(dir)
            .map_err(|e| refuse(format!("cannot be listed ({e})")))?
            .filter_map(|e| e.ok())
            .find(|e| !e.file_name().to_str().is_some_and(is_minnes));
        if let Some(entry) = foreign {
            return Err(refuse(format!(
                "holds what is not Minne's ({}), so Minne leaves its mode alone",
                entry.file_name().to_string_lossy()
            )));
        }
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
            .map_err(|e| refuse(format!("Minne cannot change that ({e})")))?;
        tracing::info!(
            "tightened the {what} {} from {mode:04o} to 0700",
            dir.display()
        );
    }
    Ok(())
}

/// Makes the file `path` owner-only (0600) when it is wider (a key file copied in as 0644).
/// Errors: [`Error::InvalidInput`] when it is open to others and cannot be changed.
pub(crate) fn tighten_file(path: &Path) -> Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let Ok(meta) = std::fs::symlink_metadata(path) else {
            return Ok(());
        };
        let mode = meta.permissions().mode() & 0o7777;
        if mode & 0o077 == 0 {
            return Ok(());
        }
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).map_err(|e| {
            Error::InvalidInput(format!(
                "{} can be read by other users (mode {mode:04o}) and Minne cannot change that \
                 ({e}): run `chmod 600 {}`",
                path.display(),
                path.display()
            ))
        })?;
        tracing::info!("tightened {} from {mode:04o} to 0600", path.display());
    }
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn finding_6_a_wide_folder_of_minnes_is_tightened_and_a_shared_one_refused() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        std::fs::create_dir(&data).unwrap();
        std::fs::write(data.join("work.sqlite"), b"").unwrap();
        std::fs::write(data.join("work.sqlite-wal"), b"").unwrap();
        std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).unwrap();
        tighten_dir(&data, "data dir").unwrap();
        assert_eq!(mode(&data), 0o700, "only Minne's files inside: tightened");
        // A capture job leaves its lock file beside the database (capture::lock): still
        // Minne's, so a folder opened to everyone is tightened, not refused.
        let db = data.join("work.sqlite");
        drop(crate::capture::lock::hold(&db).unwrap());
        assert!(
            std::fs::read_dir(&data)
                .unwrap()
                .any(|e| e.unwrap().file_name() == "work.sqlite.capture-lock"),
            "the lock file is there"
        );
        std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o777)).unwrap();
        tighten_dir(&data, "data dir").unwrap();
        assert_eq!(mode(&data), 0o700, "finding 6, the lock file is Minne's");

        let shared = dir.path().join("home");
        std::fs::create_dir(&shared).unwrap();
        std::fs::write(shared.join("notes.txt"), b"mine").unwrap();
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o755)).unwrap();
        let e = tighten_dir(&shared, "data dir").unwrap_err().to_string();
        assert!(
            e.contains("0755") && e.contains("chmod 700") && e.contains("notes.txt"),
            "{e}"
        );
        assert_eq!(
            mode(&shared),
            0o755,
            "a folder holding other files keeps its mode"
        );

        let key = dir.path().join("k.key");
        std::fs::write(&key, b"k").unwrap();
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
        tighten_file(&key).unwrap();
        assert_eq!(mode(&key), 0o600);
    }
}
