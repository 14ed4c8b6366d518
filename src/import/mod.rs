//! Import: conversations from files become sessions and messages, then capture and embedding
//! run over what is new. A file is parsed whole before anything is written, so a broken file
//! changes nothing; re-importing the same file adds nothing twice.

use std::path::Path;
use std::str::FromStr;

use chrono::{DateTime, FixedOffset};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::model::Role;

pub mod locomo;
pub mod transcript;

/// The formats Minne imports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ImportFormat {
    /// LoCoMo's JSON (Maharana et al., ACL 2024): a list of samples with sessions of turns.
    Locomo,
    /// Minne's generic transcript; see [`transcript`].
    Transcript,
}

impl FromStr for ImportFormat {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "locomo" => Ok(ImportFormat::Locomo),
            "transcript" => Ok(ImportFormat::Transcript),
            other => Err(Error::InvalidInput(format!(
                "unknown import format `{other}`: use `locomo` or `transcript`"
            ))),
        }
    }
}

/// Options of one import.
#[derive(Debug, Clone)]
pub struct ImportOptions {
    /// The file's format.
    pub format: ImportFormat,
    /// LoCoMo only: import just this sample (`conv-26`); all samples when `None`.
    pub sample: Option<String>,
    /// LoCoMo only: whose memory this is: `speaker_a` (default), `speaker_b`, or a speaker's
    /// name. That speaker becomes `user`; the other party becomes `assistant`.
    pub as_speaker: Option<String>,
}

impl ImportOptions {
    /// Options for `format` with the defaults.
    pub fn new(format: ImportFormat) -> Self {
        ImportOptions {
            format,
            sample: None,
            as_speaker: None,
        }
    }
}

/// Progress of a long import, for a progress bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "stage", rename_all = "snake_case")]
pub enum ImportProgress {
    /// The file was parsed.
    Parsed {
        /// Sessions found.
        sessions: usize,
        /// Messages found.
        messages: usize,
    },
    /// Capture encoded `done` of `total` new messages.
    Captured {
        /// Messages encoded so far.
        done: usize,
        /// Messages to encode.
        total: usize,
    },
    /// Embedding covered `done` of `total` new episodes.
    Embedded {
        /// Episodes embedded so far.
        done: usize,
        /// Episodes to embed.
        total: usize,
    },
}

/// What an import did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ImportReport {
    /// Sessions in the file.
    pub sessions_seen: usize,
    /// Sessions that were new.
    pub sessions_added: usize,
    /// Messages in the file.
    pub messages_seen: usize,
    /// Messages that were new (the rest were already stored).
    pub messages_added: usize,
    /// Episodes captured from the new messages.
    pub episodes_added: usize,
    /// Messages longer than [`MAX_MESSAGE_BYTES`], stored cut to that length.
    pub messages_truncated: usize,
    /// Messages that held NUL or other control characters, stored without them.
    pub messages_cleaned: usize,
}

/// The longest message Minne stores, in bytes of UTF-8 (100 kB, about 25,000 words): a
/// longer one (a pasted log, a 5 MB dump) is cut at a character boundary and counted in the
/// report, so one runaway message cannot bloat the store or the embedder.
pub const MAX_MESSAGE_BYTES: usize = 100_000;

/// Cuts over-long messages and drops control characters other than tab and line breaks.
/// Returns (messages truncated, messages cleaned).
pub(crate) fn sanitise(sessions: &mut [NewSession]) -> (usize, usize) {
    let (mut truncated, mut cleaned) = (0, 0);
    for m in sessions.iter_mut().flat_map(|s| s.messages.iter_mut()) {
        if m.text
            .chars()
            .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
        {
            m.text
                .retain(|c| !c.is_control() || matches!(c, '\n' | '\r' | '\t'));
            cleaned += 1;
        }
        if m.text.len() > MAX_MESSAGE_BYTES {
            let mut cut = MAX_MESSAGE_BYTES;
            while !m.text.is_char_boundary(cut) {
                cut -= 1;
            }
            m.text.truncate(cut);
            truncated += 1;
        }
    }
    (truncated, cleaned)
}

/// A session to store: parsed from a file, or handed in by a harness or the MCP server.
#[derive(Debug, Clone)]
pub struct NewSession {
    /// Source-scoped unique key (`locomo:conv-26:session_3`); the same key is the same session.
    pub key: String,
    /// The messages in order.
    pub messages: Vec<NewMessage>,
}

/// A message to store.
#[derive(Debug, Clone)]
pub struct NewMessage {
    /// Its id in the source (a LoCoMo `dia_id`), kept as the external id.
    pub external_id: Option<String>,
    /// Who wrote it.
    pub role: Role,
    /// The writer's name, or the role's name.
    pub actor: String,
    /// The words.
    pub text: String,
    /// When it was written, with the writer's UTC offset.
    pub sent_at: DateTime<FixedOffset>,
}

pub(crate) type ParsedSession = NewSession;
pub(crate) type ParsedMessage = NewMessage;

/// Reads `path` as UTF-8 text. Errors: [`Error::Io`] when it cannot be read,
/// [`Error::Import`] when it is not UTF-8.
pub(crate) fn read_text(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|source| Error::Io {
        action: "cannot read",
        path: path.to_path_buf(),
        source,
    })?;
    String::from_utf8(bytes).map_err(|e| Error::Import {
        path: path.to_path_buf(),
        reason: format!("the file is not UTF-8 text ({e}); save it as UTF-8 and retry"),
    })
}

/// Reads `path` as a JSON value of the named format (for messages). Errors: as
/// [`read_text`], and [`Error::Import`] for broken JSON.
pub(crate) fn read_json(path: &Path, format: &str) -> Result<serde_json::Value> {
    let text = read_text(path)?;
    serde_json::from_str(&text).map_err(|e| Error::Import {
        path: path.to_path_buf(),
        reason: json_error(&e, format),
    })
}

/// Reads and parses `path` whole. Errors: [`Error::Io`] when it cannot be read,
/// [`Error::Import`] when it is not valid in `options.format`.
pub(crate) fn parse_file(path: &Path, options: &ImportOptions) -> Result<Vec<ParsedSession>> {
    let text = read_text(path)?;
    let fail = |reason: String| Error::Import {
        path: path.to_path_buf(),
        reason,
    };
    match options.format {
        ImportFormat::Locomo => locomo::parse(&text, options).map_err(fail),
        ImportFormat::Transcript => transcript::parse(&text).map_err(fail),
    }
}

/// Describes a serde_json error for a person: where, and what to do.
pub(crate) fn json_error(e: &serde_json::Error, format: &str) -> String {
    use serde_json::error::Category;
    match e.classify() {
        Category::Eof => format!(
            "the JSON ends early (line {}, column {}): the file looks truncated; export it again",
            e.line(),
            e.column()
        ),
        Category::Syntax => format!(
            "broken JSON at line {}, column {}: {e}",
            e.line(),
            e.column()
        ),
        Category::Data => format!("not a {format} file: {e}"),
        Category::Io => format!("cannot read: {e}"),
    }
}
