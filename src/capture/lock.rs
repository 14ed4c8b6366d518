//! Whether a capture job recorded as open still has a process behind it. Each process holds a
//! shared lock on `<context>.sqlite.capture-lock`, beside the context's database, for as long
//! as it runs a capture job; the operating system drops the lock when that process ends, killed
//! or not. So a job recorded `running` while nobody holds the lock was interrupted: its process
//! is gone, and the next capture resumes it (DESIGN principle 6: capture status is visible and
//! true). The lock is shared so that two processes capturing one context at once (which capture
//! allows: each message is claimed once) do not wait on each other; a reader asks with a
//! non-blocking exclusive lock. The file holds no bytes.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// What the lock file's name adds to its database's (`work.sqlite.capture-lock`).
pub(crate) const LOCK_SUFFIX: &str = ".capture-lock";

/// The lock file of the context database `db`.
fn lock_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(LOCK_SUFFIX);
    PathBuf::from(name)
}

/// Held by a process while it runs a capture job; dropping it (or the process ending) lets
/// the job read as interrupted unless another process is capturing.
#[derive(Debug)]
pub(crate) struct Capturing {
    _held: File,
}

/// Takes the shared capture lock of `db`, creating the (empty, owner-only) lock file on first
/// use. Waits only while a reader holds it exclusively, which [`nobody_capturing`] does for the
/// length of one query.
pub(crate) fn hold(db: &Path) -> Result<Capturing> {
    let path = lock_path(db);
    let mut options = OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let io = |action| {
        let path = path.clone();
        move |source| Error::Io {
            action,
            path,
            source,
        }
    };
    let file = options.open(&path).map_err(io("cannot create"))?;
    file.lock_shared().map_err(io("cannot lock"))?;
    Ok(Capturing { _held: file })
}

/// Held by a reader that found no process capturing `db`: while it is held no capture can
/// start, so what the reader reads of the jobs stays true until it is dropped.
#[derive(Debug)]
pub(crate) struct NobodyCapturing {
    _held: Option<File>,
}

/// `Some` when no process holds the capture lock of `db` (none is running a capture job, or
/// none ever did: the lock file is missing), `None` when one does or the lock cannot be asked
/// (then the jobs are shown as recorded). Creates nothing.
pub(crate) fn nobody_capturing(db: &Path) -> Option<NobodyCapturing> {
    let file = match File::open(lock_path(db)) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Some(NobodyCapturing { _held: None });
        }
        Err(e) => {
            tracing::warn!(error = %e, "cannot open the capture lock; jobs are shown as recorded");
            return None;
        }
    };
    match file.try_lock() {
        Ok(()) => Some(NobodyCapturing { _held: Some(file) }),
        Err(TryLockError::WouldBlock) => None,
        Err(TryLockError::Error(e)) => {
            tracing::warn!(error = %e, "cannot ask the capture lock; jobs are shown as recorded");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lock_tells_a_live_capture_from_a_gone_one() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("personal.sqlite");
        assert!(
            nobody_capturing(&db).is_some(),
            "with no lock file nobody ever captured"
        );
        assert!(
            !lock_path(&db).exists(),
            "asking creates nothing (a read must not write)"
        );
        let first = hold(&db).unwrap();
        let second = hold(&db).unwrap();
        assert!(
            nobody_capturing(&db).is_none(),
            "a process holding the lock is capturing"
        );
        drop(first);
        assert!(
            nobody_capturing(&db).is_none(),
            "the lock is shared: one capture ending leaves the other holding it"
        );
        drop(second);
        let reading = nobody_capturing(&db);
        assert!(
            reading.is_some(),
            "once every holder is gone, an open job has nobody behind it"
        );
        drop(reading);
        assert!(
            hold(&db).is_ok(),
            "a reader's lock ends with it, so capture can start again"
        );
    }
}
