//! Export (issue 6): everything a context holds, with provenance, as JSON that Minne
//! re-imports (`--format transcript`) or as Markdown a person reads. Files are written
//! owner-only and tracked, so a later forget removes them too; export respects tombstones
//! because forgotten messages are no longer in the store. A message withheld at the user's
//! request (capture::withhold) is in the JSON as its marker, [`crate::capture::WITHHELD`],
//! and left out of the Markdown.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use chrono::Offset;
use rusqlite::params;
use serde::Serialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::import::transcript::hex;
use crate::store::{fmt_utc, parse_utc};

/// The export formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExportFormat {
    /// Complete and re-importable: Minne's transcript format with each message's episodes.
    Json,
    /// Readable by a person.
    Markdown,
}

impl std::str::FromStr for ExportFormat {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "json" => Ok(ExportFormat::Json),
            "markdown" | "md" => Ok(ExportFormat::Markdown),
            other => Err(Error::InvalidInput(format!(
                "unknown export format `{other}`: use json or markdown"
            ))),
        }
    }
}

/// What an export wrote.
#[derive(Debug, Clone, Serialize)]
pub struct ExportReport {
    /// The file written.
    pub path: PathBuf,
    /// Sessions exported.
    pub sessions: usize,
    /// Messages exported.
    pub messages: usize,
    /// Episodes exported.
    pub episodes: usize,
}

impl Engine {
    /// The whole context as a JSON value in the export shape (also what `export` writes).
    pub fn export_value(&self) -> Result<Value> {
        let conn = self.store.conn();
        let mut sessions_out = Vec::new();
        let mut sessions = conn.prepare(
            "SELECT id, external_id, source, started_at FROM sessions ORDER BY started_at, id",
        )?;
        let sessions = sessions
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let mut messages_stmt = conn.prepare(
            "SELECT id, external_id, role, actor, text, sent_at, utc_offset_s FROM messages WHERE session_id = ?1 ORDER BY seq, id",
        )?;
        let mut episodes_stmt = conn.prepare(
            "SELECT id, kind, text, span_start, span_end, salience, stability_days, event_expression, event_start, event_end,
                    (SELECT group_concat(name, char(31)) FROM episode_participants p WHERE p.episode_id = episodes.id),
                    captured_at
             FROM episodes WHERE message_id = ?1 ORDER BY span_start",
        )?;
        for (session_id, key, source) in sessions {
            let messages = messages_stmt
                .query_map([session_id], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, Option<String>>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, String>(4)?,
                        r.get::<_, String>(5)?,
                        r.get::<_, i64>(6)?,
                    ))
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let mut messages_out = Vec::new();
            for (id, external_id, role, actor, text, sent_at, offset) in messages {
                let offset = chrono::FixedOffset::east_opt(offset as i32)
                    .unwrap_or_else(|| chrono::Utc.fix());
                let timestamp = parse_utc(&sent_at)?.with_timezone(&offset).to_rfc3339();
                let mut episodes = episodes_stmt
                    .query_map([id], |r| {
                        let participants: Option<String> = r.get(10)?;
                        Ok(json!({
                            "id": r.get::<_, i64>(0)?,
                            "created_at": r.get::<_, String>(11)?,
                            "kind": r.get::<_, String>(1)?,
                            "text": r.get::<_, String>(2)?,
                            "span": [r.get::<_, i64>(3)?, r.get::<_, i64>(4)?],
                            "salience": r.get::<_, f64>(5)?,
                            "stability_days": r.get::<_, f64>(6)?,
                            "event_time": r.get::<_, Option<String>>(7)?.map(|expression| json!({
                                "expression": expression,
                                "start": r.get::<_, Option<String>>(8).ok().flatten(),
                                "end": r.get::<_, Option<String>>(9).ok().flatten(),
                            })),
                            "participants": participants.map(|p| p.split('\u{1f}').map(str::to_string).collect::<Vec<_>>()).unwrap_or_default(),
                        }))
                    })?
                    .collect::<rusqlite::Result<Vec<_>>>()?;
                // Which messages said it: this one, then each restatement, so a reader can
                // tell which record a later message repeated.
                for e in &mut episodes {
                    let episode = crate::model::EpisodeId(e["id"].as_i64().unwrap_or_default());
                    e["source_message_ids"] = json!(self.source_message_ids(episode)?);
                }
                messages_out.push(json!({
                    "id": external_id.unwrap_or_else(|| format!("minne:{id}")),
                    "role": role,
                    "actor": actor,
                    "text": text,
                    "timestamp": timestamp,
                    "episodes": episodes,
                }));
            }
            sessions_out.push(json!({"id": key, "source": source, "messages": messages_out}));
        }
        Ok(json!({
            "minne_export": {"version": 1, "context": self.context, "exported_at": fmt_utc(self.clock.now())},
            "sessions": sessions_out,
        }))
    }

    /// Writes the context to `path` (owner-only) in `format` and tracks the file so a later
    /// forget removes it. Errors: [`Error::Io`] when the file cannot be written.
    pub fn export(&mut self, format: ExportFormat, path: &Path) -> Result<ExportReport> {
        let mut value = self.export_value()?;
        // The JSON keeps a withheld message as its marker: an export re-imported into its own
        // context then meets the message's own dedupe key (capture::withhold gave it the key
        // of the marker words) and adds nothing, one re-imported elsewhere is withheld again
        // for the marker words, and either way the conversation keeps its turns in order (the
        // reply stays the reply of the same user turn). A Markdown export is for reading, and
        // the marker tells a reader nothing, so withheld messages are left out there, and
        // counted as what was written.
        if format == ExportFormat::Markdown {
            without_withheld(&mut value);
        }
        let sessions = value["sessions"].as_array().map_or(0, Vec::len);
        let messages: usize = value["sessions"].as_array().map_or(0, |s| {
            s.iter()
                .map(|s| s["messages"].as_array().map_or(0, Vec::len))
                .sum()
        });
        let episodes: usize = value["sessions"].as_array().map_or(0, |s| {
            s.iter()
                .flat_map(|s| s["messages"].as_array().cloned().unwrap_or_default())
                .map(|m| m["episodes"].as_array().map_or(0, Vec::len))
                .sum()
        });
        let bytes = match format {
            ExportFormat::Json => serde_json::to_vec_pretty(&value)
                .map_err(|e| Error::InvalidInput(format!("export: {e}")))?,
            ExportFormat::Markdown => markdown(&value).into_bytes(),
        };
        self.refuse_own_dirs(path)?;
        // A forget finds the export again by its path and rewrites or removes it: through a
        // symbolic link that would replace the link and leave the forgotten words in its
        // target (a fresh user found them there), so a link is refused.
        if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
            let target = std::fs::read_link(path)
                .map(|t| format!(" (it points to {})", t.display()))
                .unwrap_or_default();
            return Err(Error::InvalidInput(format!(
                "{} is a symbolic link{target}: Minne writes an export only to a real file, \
                 which a later forget can find and clean; give the real file's path \
                 (nothing was written)",
                path.display()
            )));
        }
        // A device, a pipe or a socket (`/dev/null`, a FIFO) is no export either: renaming
        // over it would replace the system's node with a file of memories.
        if let Ok(meta) = std::fs::symlink_metadata(path)
            && !meta.file_type().is_file()
        {
            let kind = if meta.is_dir() {
                "a folder"
            } else {
                "not a regular file (a device, pipe or socket)"
            };
            return Err(Error::InvalidInput(format!(
                "{} is {kind}: Minne writes an export only to a regular file or a new path; \
                 give a file name (nothing was written)",
                path.display()
            )));
        }
        // Written beside it and renamed over it: a replaced file (`--force`) is owner-only
        // too, and a failure leaves the old one whole.
        rewrite_private(path, &bytes)?;
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        self.store.conn().execute(
            "INSERT INTO exports (path, format, sha256, created_at) VALUES (?1, ?2, ?3, ?4)",
            params![
                absolute.to_string_lossy(),
                match format {
                    ExportFormat::Json => "json",
                    ExportFormat::Markdown => "markdown",
                },
                hex(&Sha256::digest(&bytes)),
                fmt_utc(self.clock.now())
            ],
        )?;
        Ok(ExportReport {
            path: absolute,
            sessions,
            messages,
            episodes,
        })
    }

    /// Refuses a path for a file Minne writes for the user (an export) that lies inside the
    /// data dir or the key dir: there it could replace a context's database or key
    /// (`--out <data dir>/work.sqlite --force` put personal's plaintext in work's place) or
    /// be read as a context of its own (`backup.sqlite`). Both paths are compared after
    /// resolving symbolic links and `..`, so no spelling of the path slips past.
    /// Nor is an export ever named as Minne names its own files (`*.sqlite`, `*.key`, a WAL,
    /// the key dir's `store-id`): in another store's data dir or key dir
    /// (`--out ../other.keys/personal.key --force`) it would replace that store's database or
    /// key, and its memories would be lost for good.
    /// Errors: [`Error::InvalidInput`] naming the folder and where to write instead.
    pub(crate) fn refuse_own_dirs(&self, path: &Path) -> Result<()> {
        let target = resolved(path);
        for (dir, what) in self.own_dirs.iter().zip(["data dir", "key dir"]) {
            let dir = resolved(dir);
            if target.starts_with(&dir) {
                return Err(Error::InvalidInput(format!(
                    "{} is inside Minne's {what} ({}), where it could replace a context's \
                     memories or key: write the export somewhere else, such as your home \
                     folder (nothing was written)",
                    path.display(),
                    dir.display()
                )));
            }
        }
        // Whatever the case: on a case-insensitive disk (macOS's usual) `a.SQLITE` is `a.sqlite`.
        if let Some(name) = path.file_name().and_then(|n| n.to_str())
            && crate::store::private::is_minnes(&name.to_lowercase())
        {
            return Err(Error::InvalidInput(format!(
                "{} is named as Minne names its own databases and keys, and may be one of \
                 another store's: name the export `.json` or `.md` (nothing was written)",
                path.display()
            )));
        }
        Ok(())
    }

    /// Takes what was forgotten out of the export files Minne wrote and tracks: a JSON
    /// export still as Minne wrote it is rewritten without the messages a tombstone names
    /// (its other messages stay, so a backup of a thousand memories survives the forget of
    /// one), and removed when none is left; a Markdown export, which has no message records
    /// to match, is removed whole. A JSON export that holds nothing forgotten is left as it
    /// is. Returns (removed, rewritten, a warning for each that was moved, changed or could
    /// not be rewritten: those are left for the user).
    pub(crate) fn scrub_tracked_exports(&self) -> Result<(usize, usize, Vec<String>)> {
        let conn = self.store.conn();
        let mut stmt = conn.prepare("SELECT id, path, format, sha256 FROM exports")?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        if rows.is_empty() {
            return Ok((0, 0, Vec::new()));
        }
        let secret = self.tombstone_secret()?;
        let tombstones: std::collections::HashSet<String> = conn
            .prepare("SELECT hash FROM tombstones")?
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        // The messages as stored now, by (session key, message id, role): a forgotten message
        // whose trimmed or cut words stay in the store (a topic forget that kept its other
        // clauses, a reply whose echo was cut) is replaced in an export by what is left,
        // never dropped with the words that went.
        let mut current: std::collections::HashMap<(String, String, String), Value> =
            std::collections::HashMap::new();
        if let Some(sessions) = self.export_value()?["sessions"].as_array() {
            for session in sessions {
                let key = session["id"].as_str().unwrap_or_default().to_string();
                for m in session["messages"].as_array().into_iter().flatten() {
                    current.insert(message_key(&key, m), m.clone());
                }
            }
        }
        let (mut removed, mut rewritten, mut warnings) = (0, 0, Vec::new());
        for (id, path, format, sha) in rows {
            // A link (or anything but a file) where Minne wrote its export is not Minne's
            // file: what it points to is left alone and said to be not reached, never
            // reported as rewritten (a rewrite would replace the link, not clean its target).
            let replaced = std::fs::symlink_metadata(&path)
                .ok()
                .filter(|m| !m.file_type().is_file());
            if let Some(m) = replaced {
                let what = if m.file_type().is_symlink() {
                    "a symbolic link"
                } else {
                    "something other than a file"
                };
                warnings.push(format!("export {path} was replaced by {what} since Minne wrote it, so it was not reached: find the file it came from and delete it yourself"));
                conn.execute("DELETE FROM exports WHERE id = ?1", [id])?;
                continue;
            }
            let bytes = match std::fs::read(&path) {
                Ok(bytes) if hex(&Sha256::digest(&bytes)) == sha => bytes,
                Ok(_) => {
                    warnings.push(format!("export {path} was changed since Minne wrote it: check it and delete it yourself"));
                    conn.execute("DELETE FROM exports WHERE id = ?1", [id])?;
                    continue;
                }
                Err(_) => {
                    warnings.push(format!("export {path} was moved or deleted: if you still have it elsewhere, delete it yourself"));
                    conn.execute("DELETE FROM exports WHERE id = ?1", [id])?;
                    continue;
                }
            };
            let kept = match format.as_str() {
                "json" => without_forgotten(&bytes, &secret, &tombstones, &current),
                _ => None,
            };
            match kept {
                // Nothing of it was forgotten: the file stays as it is, still tracked.
                Some((_, 0, _)) => {}
                Some((value, _, left)) if left > 0 => {
                    let new = serde_json::to_vec_pretty(&value)
                        .map_err(|e| Error::InvalidInput(format!("export: {e}")))?;
                    match rewrite_private(Path::new(&path), &new) {
                        Ok(()) => {
                            rewritten += 1;
                            conn.execute(
                                "UPDATE exports SET sha256 = ?1 WHERE id = ?2",
                                params![hex(&Sha256::digest(&new)), id],
                            )?;
                        }
                        Err(e) => {
                            // Never leave the forgotten words behind: then the file goes.
                            match std::fs::remove_file(&path) {
                                Ok(()) => {
                                    removed += 1;
                                    warnings.push(format!("export {path} could not be rewritten without what was forgotten ({e}), so it was removed"));
                                }
                                Err(e) => warnings.push(format!(
                                    "export {path} could not be removed ({e}): delete it yourself"
                                )),
                            }
                            conn.execute("DELETE FROM exports WHERE id = ?1", [id])?;
                        }
                    }
                }
                // Everything in it was forgotten, or it is Markdown, or it no longer reads as
                // an export: it goes whole.
                _ => {
                    match std::fs::remove_file(&path) {
                        Ok(()) => removed += 1,
                        Err(e) => warnings.push(format!(
                            "export {path} could not be removed ({e}): delete it yourself"
                        )),
                    }
                    conn.execute("DELETE FROM exports WHERE id = ?1", [id])?;
                }
            }
        }
        Ok((removed, rewritten, warnings))
    }
}

/// A message's key in an export: its session's key, its id and its role.
fn message_key(session: &str, m: &Value) -> (String, String, String) {
    (
        session.to_string(),
        m["id"].as_str().unwrap_or_default().to_string(),
        m["role"].as_str().unwrap_or_default().to_string(),
    )
}

/// A JSON export's value without the messages whose tombstone hash is in `tombstones`, with
/// how many it changed and how many are left (sessions left empty are dropped too); `None`
/// when the bytes are not an export (then the caller removes the file). A forgotten message
/// that is still in the store with other words (`current`, by [`message_key`]: its
/// forgotten words were cut out) is replaced by the stored one rather than dropped.
fn without_forgotten(
    bytes: &[u8],
    secret: &[u8],
    tombstones: &std::collections::HashSet<String>,
    current: &std::collections::HashMap<(String, String, String), Value>,
) -> Option<(Value, usize, usize)> {
    let mut value: Value = serde_json::from_slice(bytes).ok()?;
    value.get("minne_export")?;
    let sessions = value.get_mut("sessions")?.as_array_mut()?;
    let (mut dropped, mut left) = (0, 0);
    for session in sessions.iter_mut() {
        let key = session["id"].as_str().unwrap_or_default().to_string();
        let messages = session.get_mut("messages")?.as_array_mut()?;
        let before = messages.len();
        let mut unreadable = false;
        let mut replaced = 0;
        messages.retain_mut(|m| {
            let text = m["text"].as_str();
            let at = m["timestamp"]
                .as_str()
                .and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok());
            match (text, at) {
                (Some(text), Some(at)) => {
                    if !tombstones.contains(&crate::forget::tombstone_hash(
                        secret,
                        text,
                        at.to_utc(),
                    )) {
                        return true;
                    }
                    match current.get(&message_key(&key, m)) {
                        Some(now) if now["text"].as_str() != Some(text) => {
                            *m = now.clone();
                            replaced += 1;
                            true
                        }
                        _ => false,
                    }
                }
                _ => {
                    unreadable = true;
                    true
                }
            }
        });
        if unreadable {
            return None;
        }
        dropped += before - messages.len() + replaced;
        left += messages.len();
    }
    sessions.retain(|s| s["messages"].as_array().is_some_and(|m| !m.is_empty()));
    Some((value, dropped, left))
}

/// Replaces `path` with `bytes`, owner-only: written beside it, then renamed over it, so a
/// failure leaves the old file whole.
fn rewrite_private(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut name = path.as_os_str().to_owned();
    name.push(".minne-tmp");
    let tmp = PathBuf::from(name);
    // A leftover of a run that died; never written through (create_new below).
    let _ = std::fs::remove_file(&tmp);
    write_private(&tmp, bytes)?;
    std::fs::rename(&tmp, path).map_err(|source| {
        let _ = std::fs::remove_file(&tmp);
        Error::Io {
            action: "cannot replace",
            path: path.to_path_buf(),
            source,
        }
    })
}

/// `value` (an [`Engine::export_value`]) without the messages withheld at the user's request
/// (their words are [`crate::capture::WITHHELD`]), and without sessions left empty.
fn without_withheld(value: &mut Value) {
    let Some(sessions) = value.get_mut("sessions").and_then(Value::as_array_mut) else {
        return;
    };
    for session in sessions.iter_mut() {
        if let Some(messages) = session.get_mut("messages").and_then(Value::as_array_mut) {
            messages.retain(|m| !is_withheld(m));
        }
    }
    sessions.retain(|s| s["messages"].as_array().is_some_and(|m| !m.is_empty()));
}

/// Whether an exported message is one withheld at the user's request.
fn is_withheld(message: &Value) -> bool {
    message["text"].as_str() == Some(crate::capture::WITHHELD)
}

/// The Markdown rendering of an [`Engine::export_value`] value; messages withheld at the
/// user's request ([`crate::capture::WITHHELD`]) are left out, and a session of nothing else.
pub fn markdown(value: &Value) -> String {
    let mut out = format!(
        "# Minne export: context `{}`\n\nExported {}.\n",
        value["minne_export"]["context"].as_str().unwrap_or(""),
        value["minne_export"]["exported_at"].as_str().unwrap_or("")
    );
    for s in value["sessions"].as_array().into_iter().flatten() {
        let shown = s["messages"].as_array().into_iter().flatten();
        if shown.clone().all(is_withheld) {
            continue;
        }
        out.push_str(&format!(
            "\n## {} ({})\n\n",
            s["id"].as_str().unwrap_or(""),
            s["source"].as_str().unwrap_or("")
        ));
        for m in shown.filter(|m| !is_withheld(m)) {
            out.push_str(&format!(
                "- **{}** {}: {}\n",
                m["timestamp"].as_str().unwrap_or(""),
                m["actor"].as_str().unwrap_or(""),
                m["text"].as_str().unwrap_or("").replace('\n', " ")
            ));
            for e in m["episodes"].as_array().into_iter().flatten() {
                out.push_str(&format!(
                    "  - {} (salience {:.2}): {}\n",
                    e["kind"].as_str().unwrap_or(""),
                    e["salience"].as_f64().unwrap_or(0.0),
                    e["text"].as_str().unwrap_or("").replace('\n', " ")
                ));
            }
        }
    }
    out
}

fn write_private(path: &Path, bytes: &[u8]) -> Result<()> {
    let io = |source| Error::Io {
        action: "cannot write",
        path: path.to_path_buf(),
        source,
    };
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path).map_err(io)?;
    file.write_all(bytes).map_err(io)?;
    file.sync_all().map_err(io)
}

/// `path` as the file system resolves it: the longest part of it that exists, canonical
/// (links and `..` resolved), with the rest appended; an export's file need not exist yet,
/// but its folder might be a link into the data dir.
fn resolved(path: &Path) -> std::path::PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut rest = Vec::new();
    let mut head = absolute.as_path();
    loop {
        if let Ok(real) = head.canonicalize() {
            return rest.iter().rev().fold(real, |p, part| p.join(part));
        }
        match (head.parent(), head.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                head = parent;
            }
            _ => return absolute,
        }
    }
}
