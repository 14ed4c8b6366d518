//! Import: conversations from files become sessions and messages, then capture and embedding
//! run over what is new. A file is parsed whole before anything is written, so a broken file
//! changes nothing; re-importing the same file adds nothing twice.

use std::path::Path;
use std::str::FromStr;

use chrono::{DateTime, FixedOffset};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::model::Role;

pub mod chatgpt;
pub mod claude;
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
    /// ChatGPT's `conversations.json` (data export); see [`chatgpt`].
    Chatgpt,
    /// Claude's `conversations.json` (data export); see [`claude`].
    Claude,
    /// Tell the format from the file's shape; see [`detect_text`].
    Auto,
}

impl ImportFormat {
    /// The names `--format` takes, in the order the help lists them.
    pub const NAMES: [&'static str; 5] = ["auto", "chatgpt", "claude", "transcript", "locomo"];

    /// The name `--format` takes for this format.
    pub fn as_str(self) -> &'static str {
        match self {
            ImportFormat::Locomo => "locomo",
            ImportFormat::Transcript => "transcript",
            ImportFormat::Chatgpt => "chatgpt",
            ImportFormat::Claude => "claude",
            ImportFormat::Auto => "auto",
        }
    }
}

impl FromStr for ImportFormat {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "locomo" => Ok(ImportFormat::Locomo),
            "transcript" => Ok(ImportFormat::Transcript),
            "chatgpt" => Ok(ImportFormat::Chatgpt),
            "claude" => Ok(ImportFormat::Claude),
            "auto" => Ok(ImportFormat::Auto),
            other => Err(Error::InvalidInput(format!(
                "unknown import format `{other}`: use one of {}",
                ImportFormat::NAMES.join(", ")
            ))),
        }
    }
}

/// The format of a file whose root (an object when `object`) or first listed object has
/// the keys `has` says it has ([`detect_text`]).
fn format_of(object: bool, has: impl Fn(&str) -> bool) -> Option<ImportFormat> {
    if object && has("sessions") {
        Some(ImportFormat::Transcript)
    } else if has("mapping") {
        Some(ImportFormat::Chatgpt)
    } else if has("chat_messages") {
        Some(ImportFormat::Claude)
    } else if has("sample_id") && has("conversation") {
        Some(ImportFormat::Locomo)
    } else {
        None
    }
}

/// Tells a file's format from the shape of its JSON: a Minne transcript is an object with
/// `sessions`; ChatGPT, Claude and LoCoMo files are lists whose first object has `mapping`,
/// `chat_messages`, or `sample_id` with `conversation`. A single ChatGPT or Claude
/// conversation (an object) is recognised too. `None` when nothing fits, or the list is empty.
///
/// The text is read as a stream: only the keys of the root object, or
/// of the first object in a root list, are kept; every value is checked and skipped, so no
/// JSON tree is built (only a stack of at most 128 levels). A file of six million empty sessions (96 MB) held 4.5 GB as a tree
/// before its format was known (the second attack on issue 30, finding 36); the stream holds
/// a few keys. Errors: the JSON is broken, nested too deep (128 levels) or cut short.
pub fn detect_text(text: &str) -> std::result::Result<Option<ImportFormat>, serde_json::Error> {
    use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

    /// Reads one JSON value and drops it, keeping at most one object's keys: the root's
    /// (`top`), or those of the first object in the root list. Nested values are read with
    /// `keep` off. Every level goes through `deserialize_any`, so serde_json's limit of 128
    /// levels holds here as in the parse that follows ([`IgnoredAny`] alone skips without
    /// counting levels). Finds `(keys, whether they are the root object's own)`.
    #[derive(Clone, Copy)]
    struct Probe {
        top: bool,
        keep: bool,
    }
    const NESTED: Probe = Probe {
        top: false,
        keep: false,
    };
    type Found = Option<(Vec<String>, bool)>;
    impl<'de> DeserializeSeed<'de> for Probe {
        type Value = Found;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Found, D::Error> {
            d.deserialize_any(self)
        }
    }
    impl<'de> Visitor<'de> for Probe {
        type Value = Found;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Found, A::Error> {
            let mut keys = Vec::new();
            if self.keep {
                while let Some(key) = map.next_key::<String>()? {
                    map.next_value_seed(NESTED)?;
                    keys.push(key);
                }
                return Ok(Some((keys, self.top)));
            }
            while map.next_key::<IgnoredAny>()?.is_some() {
                map.next_value_seed(NESTED)?;
            }
            Ok(None)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Found, A::Error> {
            let mut first: Found = None;
            let element = |first: &Found| Probe {
                top: false,
                keep: self.top && first.is_none(),
            };
            while let Some(keys) = seq.next_element_seed(element(&first))? {
                if first.is_none() {
                    first = keys;
                }
            }
            Ok(first.filter(|_| self.top))
        }
        fn visit_bool<E>(self, _: bool) -> std::result::Result<Found, E> {
            Ok(None)
        }
        fn visit_i64<E>(self, _: i64) -> std::result::Result<Found, E> {
            Ok(None)
        }
        fn visit_u64<E>(self, _: u64) -> std::result::Result<Found, E> {
            Ok(None)
        }
        fn visit_f64<E>(self, _: f64) -> std::result::Result<Found, E> {
            Ok(None)
        }
        fn visit_str<E>(self, _: &str) -> std::result::Result<Found, E> {
            Ok(None)
        }
        fn visit_unit<E>(self) -> std::result::Result<Found, E> {
            Ok(None)
        }
    }

    let mut de = serde_json::Deserializer::from_str(text);
    let found = Probe {
        top: true,
        keep: true,
    }
    .deserialize(&mut de)?;
    de.end()?;
    Ok(found.and_then(|(keys, object)| format_of(object, |k| keys.iter().any(|x| x == k))))
}

/// Why [`detect_text`] failed, for the user.
fn undetected() -> String {
    "cannot tell the file's format: it is none of a ChatGPT export (a list of conversations \
     with `mapping`), a Claude export (conversations with `chat_messages`), a Minne transcript \
     (an object with `sessions`) or a LoCoMo file (samples with `sample_id`); name the format \
     with --format chatgpt, claude, transcript or locomo"
        .to_string()
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
    /// Before capture: `messages` stored earlier and never captured (an import that was
    /// killed, or a capture that failed) are captured with this import's, in time order, so
    /// the capture counts below include them.
    Backlog {
        /// Messages waiting from before this import.
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
    /// Episodes captured from the new messages: those whose message this import stored,
    /// whichever process encoded them (two imports into one context at once each count their
    /// own, and together they count each episode once).
    pub episodes_added: usize,
    /// Messages longer than [`MAX_MESSAGE_BYTES`], stored cut to that length.
    pub messages_truncated: usize,
    /// Messages that held NUL or other control characters, stored with each run of them
    /// replaced by one space.
    pub messages_cleaned: usize,
    /// Messages dated more than 10 minutes after the engine's clock: stored with the time they
    /// carry, and reported, since their age reads as negative until that time comes.
    pub messages_in_future: usize,
    /// Messages dated at the UNIX epoch's first second (1970-01-01T00:00:00Z, `create_time`
    /// 0): stored as dated, and reported, since a time of 0 is most often a time the exporter
    /// did not have.
    pub messages_at_epoch: usize,
    /// Messages of the file an earlier run of the import stored but did not capture (it was
    /// interrupted): not new, and captured by this run.
    pub messages_resumed: usize,
    /// Episodes captured from [`ImportReport::messages_resumed`] (not in `episodes_added`).
    pub episodes_resumed: usize,
    /// Messages of other imports (or captures that failed) that were waiting uncaptured and
    /// were captured with this one ([`ImportProgress::Backlog`]); not in `messages_added`.
    pub messages_backlog: usize,
    /// Commands in the user's words acted on at once ("remember that …", "forget what I said
    /// about …"), each with what it stored or removed (seed 003: no silent success).
    pub commands: Vec<crate::consolidate::AppliedCommand>,
    /// New user messages that asked not to be kept ("Don't remember this: …", "off the
    /// record", [`crate::capture::asks_not_to_keep`]) or were withheld before (an export
    /// re-imported): no episode made, and their words, and the reply's, replaced in the
    /// transcript by [`crate::capture::WITHHELD`].
    pub messages_withheld: usize,
}

/// The `source` of a live conversation (the app's chat, and an assistant over MCP): a user
/// command said there ("forget what I said about …") acts on the whole context. Every other
/// source is an imported file (its name), whose commands act on what their own conversation
/// held.
pub const LIVE_SOURCES: [&str; 2] = [LIVE_CHAT, LIVE_MCP];

/// The `source` of the app's chat (and of the scenario runner's messages, which stand for it).
pub const LIVE_CHAT: &str = "chat";

/// The `source` of what an assistant hands in over MCP.
pub const LIVE_MCP: &str = "mcp";

/// The longest message Minne stores, in bytes of UTF-8 (100 kB, about 25,000 words): a
/// longer one (a pasted log, a 5 MB dump) is cut at a character boundary and counted in the
/// report, so one runaway message cannot bloat the store or the embedder.
pub const MAX_MESSAGE_BYTES: usize = 100_000;

/// The largest file import reads (bytes, 1 GB): a ChatGPT export of years of daily use is a
/// few hundred MB; parsing holds the file and its JSON tree in memory together (several times
/// its size), so a larger one is refused before anything is read, with the limit in the error.
pub const MAX_IMPORT_BYTES: u64 = 1_000_000_000;

/// Whether import leaves `c` out of a message: a control character other than tab and the
/// line breaks, a bidirectional embedding, override or isolate (U+202A–U+202E,
/// U+2066–U+2069), which lets stored text display as other words than it holds ("Trojan
/// Source", CVE-2021-42574; letters of right-to-left scripts need none of them), or an
/// invisible break or joiner that carries no letter (U+200B zero-width space, U+2060 word
/// joiner, U+FEFF): a message of nothing but those was stored and recalled as a memory.
/// The joiners emoji and Indic scripts need (U+200C, U+200D) stay.
pub fn is_left_out(c: char) -> bool {
    (c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
        || matches!(
            c,
            '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200B}' | '\u{2060}' | '\u{FEFF}'
        )
}

/// Cuts over-long messages, replaces the characters of [`is_left_out`] (each run by one
/// space, see [`without_controls`]) and writes every text in Unicode's composed form (NFC):
/// "å" typed as "a" and a combining ring (NFD, as macOS file names and some exports write it)
/// is the same word as "å", for the full-text index, the rules and a forget alike. A message
/// left with nothing but white space is dropped: it said nothing.
/// Returns (messages truncated, messages cleaned).
pub(crate) fn sanitise(sessions: &mut Vec<NewSession>) -> (usize, usize) {
    use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};
    let (mut truncated, mut cleaned) = (0, 0);
    for m in sessions.iter_mut().flat_map(|s| s.messages.iter_mut()) {
        if m.text.chars().any(is_left_out) {
            m.text = without_controls(&m.text);
            cleaned += 1;
        }
        if is_nfc_quick(m.text.chars()) != IsNormalized::Yes {
            let composed: String = m.text.nfc().collect();
            // Not counted as cleaned: no character was left out, the same text is written
            // in its composed form.
            m.text = composed;
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
    for s in sessions.iter_mut() {
        s.messages.retain(|m| !m.text.trim().is_empty());
    }
    sessions.retain(|s| !s.messages.is_empty());
    (truncated, cleaned)
}

/// `text` with each run of the characters of [`is_left_out`] taken out so that the words
/// around it read as if it had never been typed: between two words it becomes one space, so
/// they stay apart ("ctrl\u{0}nul" becomes "ctrl nul", not "ctrlnul"); next to a space it
/// leaves no second one ("hello \u{7} world" becomes "hello world", not "hello  world"); at
/// either end of the text it leaves no space behind ("\u{7} hi" becomes "hi"). Tabs and line
/// breaks stay as typed. Idempotent, and the same for every road in (import, the MCP
/// `remember` tool), so stored words and a caller's copy of them agree.
pub fn without_controls(text: &str) -> String {
    let blank = |c: char| c == ' ' || c == '\t';
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if !is_left_out(c) {
            out.push(c);
            continue;
        }
        while chars.next_if(|&n| is_left_out(n)).is_some() {}
        let space_before = out.is_empty() || out.ends_with(char::is_whitespace);
        match chars.peek() {
            // The run ended the text: a space typed before it now ends the text instead.
            None => out.truncate(out.trim_end_matches(blank).len()),
            // A space on both sides of the run (or the run opened the text): one is enough.
            Some(&n) if n.is_whitespace() => {
                if space_before {
                    while chars.next_if(|&n| blank(n)).is_some() {}
                }
            }
            Some(_) => {
                if !space_before {
                    out.push(' ');
                }
            }
        }
    }
    out
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

/// Reads `path` as UTF-8 text, without the byte-order mark some Windows tools write first
/// (JSON allows none, and a fresh user's file was refused as "broken JSON at line 1, column
/// 1"). Errors: [`Error::Io`] when it cannot be read, [`Error::Import`] when it is not UTF-8.
pub(crate) fn read_text(path: &Path) -> Result<String> {
    use std::io::Read;
    let io = |source| Error::Io {
        action: "cannot read",
        path: path.to_path_buf(),
        source,
    };
    // Only a regular file is an export: `/dev/zero` grew memory without bound, and a named
    // pipe blocked the import until someone wrote to it. Looked at before it is opened
    // (opening a pipe for reading waits for a writer), and again once open.
    let not_file = |meta: &std::fs::Metadata| !meta.is_file();
    let meta = std::fs::metadata(path).map_err(io)?;
    let file = if not_file(&meta) {
        None
    } else {
        Some(std::fs::File::open(path).map_err(io)?)
    };
    let meta = match &file {
        Some(f) => f.metadata().map_err(io)?,
        None => meta,
    };
    let file = match file {
        Some(f) if !not_file(&meta) => f,
        _ => return Err(not_regular(path, &meta)),
    };
    let too_big = || Error::Import {
        path: path.to_path_buf(),
        reason: format!(
            "the file is larger than {} MB, the most Minne imports at once: split the export \
             into smaller files (each conversation list is a JSON array) and import each",
            MAX_IMPORT_BYTES / 1_000_000
        ),
    };
    if meta.len() > MAX_IMPORT_BYTES {
        return Err(too_big());
    }
    // Bounded as read too: a file that grows while it is read stops at the limit.
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_IMPORT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_IMPORT_BYTES {
        return Err(too_big());
    }
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|e| Error::Import {
        path: path.to_path_buf(),
        reason: format!("the file is not UTF-8 text ({e}); save it as UTF-8 and retry"),
    })
}

/// Why `path` is no file to import: a folder, or a device, pipe or socket.
fn not_regular(path: &Path, meta: &std::fs::Metadata) -> Error {
    let kind = if meta.is_dir() {
        "a folder"
    } else {
        "not a regular file (a device, pipe or socket)"
    };
    Error::Import {
        path: path.to_path_buf(),
        reason: format!("the path is {kind}: give the export file itself (conversations.json)"),
    }
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
    parse_text(&text, options)
        .map(|(_, sessions)| sessions)
        .map_err(|reason| Error::Import {
            path: path.to_path_buf(),
            reason,
        })
}

/// Reads and parses the import file `path` in `options.format`, writing nothing: what
/// [`crate::Engine::import`] does first, for a front end that checks a file before it opens
/// a context ([`crate::Engine::import_parsed`] stores it). Errors: [`Error::Io`] when it
/// cannot be read, [`Error::Import`] when it is not UTF-8 or not valid in the format.
pub fn read_file(path: &Path, options: &ImportOptions) -> Result<Vec<NewSession>> {
    parse_file(path, options)
}

/// Parses the text of an import file in `options.format` (detected first for
/// [`ImportFormat::Auto`]), writing nothing: the pure step that import runs before it stores
/// anything, and the one the fuzz targets drive. Returns the format read and the sessions.
/// Errors: [`Error::InvalidInput`] saying what is wrong with the text and what to do.
pub fn parse_str(text: &str, options: &ImportOptions) -> Result<(ImportFormat, Vec<NewSession>)> {
    parse_text(text, options).map_err(Error::InvalidInput)
}

fn parse_text(
    text: &str,
    options: &ImportOptions,
) -> std::result::Result<(ImportFormat, Vec<ParsedSession>), String> {
    // Nothing at all is not a truncated export (serde_json calls both "EOF").
    if text.trim_start_matches('\u{feff}').trim().is_empty() {
        return Err(
            "the file is empty: no conversation to import; check that this is the \
                    right file, or export the conversations again"
                .to_string(),
        );
    }
    let format = match options.format {
        // Told from a stream, not a tree: a transcript or LoCoMo file is then read typed, and
        // a ChatGPT or Claude one a conversation's tree at a time.
        ImportFormat::Auto => detect_text(text)
            .map_err(|e| json_error(&e, "chat export"))?
            .ok_or_else(undetected)?,
        format => format,
    };
    let sessions = match format {
        ImportFormat::Locomo => locomo::parse(text, options)?,
        ImportFormat::Transcript => transcript::parse(text)?,
        ImportFormat::Chatgpt => chatgpt::parse(text)?,
        ImportFormat::Claude => claude::parse(text)?,
        ImportFormat::Auto => return Err(undetected()),
    };
    Ok((format, sessions))
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
        // serde_json stops at 128 levels, which keeps a hostile file from overflowing the stack.
        Category::Syntax if e.to_string().starts_with("recursion limit exceeded") => format!(
            "the JSON is nested more than 128 levels deep at line {}, column {}: no chat export \
             is; check that this is the right file",
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

/// The sessions of a chat export that is a list of conversations (ChatGPT's and Claude's
/// `conversations.json`), or one conversation on its own as some tools save it: each one that
/// holds the key `marker` is parsed by `parse` (given its index, for error messages), and one
/// that yields no message is left out. Errors: a root of another shape, naming `app` and
/// `marker`; the first conversation `parse` refuses.
pub(crate) fn each_conversation(
    text: &str,
    marker: &str,
    app: &str,
    parse: impl Fn(usize, &serde_json::Value) -> Result<Option<ParsedSession>, String>,
) -> Result<Vec<ParsedSession>, String> {
    use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
    use serde_json::Value;

    /// The sessions so far, and why the walk stopped when `parse` or the shape did.
    struct Collect<'a, F> {
        marker: &'a str,
        not_export: String,
        parse: &'a F,
        out: Vec<ParsedSession>,
        at_key: std::collections::HashMap<String, usize>,
        stopped: Option<String>,
    }
    impl<F> Collect<'_, F>
    where
        F: Fn(usize, &Value) -> Result<Option<ParsedSession>, String>,
    {
        fn add(&mut self, ci: usize, conversation: &Value) -> Result<(), String> {
            let Some(session) = (self.parse)(ci, conversation)? else {
                return Ok(());
            };
            match self.at_key.get(&session.key) {
                Some(&i) => merge_into(&mut self.out[i], session),
                None => {
                    self.at_key.insert(session.key.clone(), self.out.len());
                    self.out.push(session);
                }
            }
            Ok(())
        }
        fn stop<E: serde::de::Error>(&mut self, why: String) -> E {
            self.stopped = Some(why);
            E::custom("stopped")
        }
    }
    impl<'de, F> Visitor<'de> for &mut Collect<'_, F>
    where
        F: Fn(usize, &Value) -> Result<Option<ParsedSession>, String>,
    {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a list of conversations")
        }
        // One conversation's tree at a time: memory is the largest conversation and the
        // sessions read, not the whole file's tree (a list of six million tiny objects held
        // 4.3 GB as one tree; the second attack on issue 30, finding 36).
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            let mut ci = 0;
            while let Some(conversation) = seq.next_element::<Value>()? {
                if let Err(why) = self.add(ci, &conversation) {
                    return Err(self.stop(why));
                }
                ci += 1;
            }
            Ok(())
        }
        // One conversation on its own, as some tools save it.
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
            let conversation =
                Value::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
            if conversation.get(self.marker).is_none() {
                let why = self.not_export.clone();
                return Err(self.stop(why));
            }
            self.add(0, &conversation).map_err(|why| self.stop(why))
        }
    }

    let mut collect = Collect {
        marker,
        not_export: format!(
            "not a {app} export: expected a list of conversations, each with `{marker}`"
        ),
        parse: &parse,
        out: Vec::new(),
        at_key: std::collections::HashMap::new(),
        stopped: None,
    };
    // A list or one conversation; a root of any other shape (a number, a string) is not
    // an export of `app` at all.
    if !text.trim_start().starts_with(['[', '{']) {
        return Err(collect.not_export);
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let walked = (&mut de)
        .deserialize_any(&mut collect)
        .and_then(|()| de.end());
    match walked {
        Ok(()) => Ok(collect.out),
        Err(e) => Err(collect
            .stopped
            .take()
            .unwrap_or_else(|| json_error(&e, app))),
    }
}

/// Joins `more`, a conversation with the same id as `session` further down one file (an
/// export written twice into one list, or one conversation split in two), into `session`:
/// each of its messages not already there (the same external id, or, without one, the
/// same time and text) is added, and the whole is put back in time order (a stable sort,
/// so messages of one time keep their file order). A repeat adds nothing, a split loses
/// nothing; before this the second was dropped and read as an earlier import's (issue 30,
/// LOW 21).
fn merge_into(session: &mut ParsedSession, more: ParsedSession) {
    let mut added = 0;
    for message in more.messages {
        let known = session
            .messages
            .iter()
            .any(|m| match (&m.external_id, &message.external_id) {
                (Some(a), Some(b)) => a == b,
                _ => m.sent_at == message.sent_at && m.text == message.text,
            });
        if !known {
            session.messages.push(message);
            added += 1;
        }
    }
    session.messages.sort_by_key(|m| m.sent_at);
    tracing::info!(
        "conversation {} appears twice in the file: {added} messages of the second joined the first",
        session.key
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each shape is told as the formats are defined (a transcript only as a root object, a
    /// list by its first object), and broken JSON is refused as the parser refuses it
    /// (finding 36 of the second attack moved detection off a JSON tree onto a stream).
    #[test]
    fn the_format_is_told_from_a_stream_as_from_the_tree() {
        let shapes = [
            (
                r#"{"sessions": [{"messages": []}]}"#,
                Some(ImportFormat::Transcript),
            ),
            (
                r#"[{"title": "t", "mapping": {}}]"#,
                Some(ImportFormat::Chatgpt),
            ),
            (
                r#"{"title": "one", "mapping": {"a": {"x": [1, 2]}}}"#,
                Some(ImportFormat::Chatgpt),
            ),
            (
                r#"[1, "x", {"uuid": "u", "chat_messages": []}]"#,
                Some(ImportFormat::Claude),
            ),
            (
                r#"[{"sample_id": "conv-1", "conversation": {}, "qa": []}]"#,
                Some(ImportFormat::Locomo),
            ),
            (r#"[{"sample_id": "conv-1"}]"#, None),
            (r#"[{"sessions": []}]"#, None),
            ("[]", None),
            ("42", None),
            (r#"{"other": null}"#, None),
        ];
        for (text, want) in shapes {
            assert_eq!(detect_text(text).unwrap(), want, "{text}");
        }
        for broken in [r#"{"sessions": [}"#, r#"[{"mapping": {}}"#, "[1] 2"] {
            assert!(detect_text(broken).is_err(), "{broken}");
        }
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let e = detect_text(&deep).unwrap_err();
        assert!(e.to_string().starts_with("recursion limit exceeded"), "{e}");
    }

    #[test]
    fn a_conversation_twice_in_one_file_is_one_session_with_every_message_once() {
        // The same Claude conversation id twice: once whole, once with a later message.
        let message = |id: &str, at: &str, text: &str| serde_json::json!({"uuid": id, "sender": "human", "created_at": at, "text": text});
        let root = serde_json::json!([
            {"uuid": "c", "chat_messages": [
                message("1", "2026-05-28T09:00:00Z", "We moved to Lund."),
                message("2", "2026-05-28T09:05:00Z", "The cat is called Sixten.")]},
            {"uuid": "d", "chat_messages": [message("9", "2026-05-29T09:00:00Z", "Other.")]},
            {"uuid": "c", "chat_messages": [
                message("2", "2026-05-28T09:05:00Z", "The cat is called Sixten."),
                message("3", "2026-05-28T09:02:00Z", "Lund is quiet.")]},
        ]);
        let sessions = claude::parse(&root.to_string()).unwrap();
        assert_eq!(
            sessions.iter().map(|s| s.key.as_str()).collect::<Vec<_>>(),
            ["claude:c", "claude:d"],
            "one session per conversation id, in file order"
        );
        let texts: Vec<&str> = sessions[0]
            .messages
            .iter()
            .map(|m| m.text.as_str())
            .collect();
        assert_eq!(
            texts,
            [
                "We moved to Lund.",
                "Lund is quiet.",
                "The cat is called Sixten."
            ],
            "issue 30, LOW 21: message 2 once, message 3 kept, in time order (09:00, 09:02, 09:05)"
        );
    }

    fn one(text: &str) -> Vec<NewSession> {
        vec![NewSession {
            key: "t".into(),
            messages: vec![NewMessage {
                external_id: None,
                role: Role::User,
                actor: "user".into(),
                text: text.into(),
                sent_at: chrono::DateTime::parse_from_rfc3339("2026-06-10T10:02:00+02:00")
                    .expect("a valid time"),
            }],
        }]
    }

    #[test]
    fn bidirectional_overrides_are_left_out_and_right_to_left_letters_kept() {
        // Finding: a U+202E (right-to-left override) was stored and printed raw by `minne
        // list`, so "txt.exe" could show as "exe.txt". Hebrew letters need no override.
        let mut s = one("invoice\u{202E}txt.exe and \u{2066}isolated\u{2069} שלום");
        assert_eq!(sanitise(&mut s), (0, 1), "one message cleaned");
        assert_eq!(s[0].messages[0].text, "invoice txt.exe and isolated שלום");
        for c in [
            '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2069}',
        ] {
            assert!(is_left_out(c), "U+{:04X} is left out", c as u32);
        }
        for c in ['\u{200D}', 'ש', 'å', '\n', '\t'] {
            assert!(
                !is_left_out(c),
                "U+{:04X} stays (emoji joiner, letters, line breaks)",
                c as u32
            );
        }
    }

    /// A fresh user's finding: taking a control character out left the spaces typed around
    /// it, so "hello \u{7} world" was stored with two spaces and "\u{7} hi" with a leading
    /// one. The words must read as if the character had never been there, and cleaning
    /// clean text changes nothing.
    #[rstest::rstest]
    #[case::glued_to_a_word("hello\u{7} world", "hello world")]
    #[case::between_spaces("hello \u{7} world", "hello world")]
    #[case::run_between_spaces("hello \u{0}\u{7}\u{1b}  world", "hello world")]
    #[case::between_letters("a\u{0}b", "a b")]
    #[case::leading("\u{7} hello", "hello")]
    #[case::trailing("hello \u{7}", "hello")]
    #[case::before_a_line_break("hello\u{7}\nworld", "hello\nworld")]
    #[case::tab_after_space("a \u{7}\tb", "a b")]
    fn a_removed_control_character_leaves_no_stray_space(
        #[case] text: &str,
        #[case] cleaned: &str,
    ) {
        assert_eq!(without_controls(text), cleaned, "cleaning {text:?}");
        assert_eq!(
            without_controls(cleaned),
            cleaned,
            "cleaning is idempotent: the stored words are clean already"
        );
    }

    /// "Malmö" written decomposed (o and U+0308, as macOS and some exports write it) is
    /// stored composed, the one character U+00F6 a typed "ö" is: the same bytes, so the
    /// full-text index, the rules and a forget meet it. No character was left out, so it is
    /// not reported as cleaned.
    #[test]
    fn decomposed_text_is_stored_composed() {
        let mut s = one("Jag bor i Malmo\u{308}.");
        assert_eq!(sanitise(&mut s), (0, 0), "nothing left out, nothing cut");
        assert_eq!(s[0].messages[0].text, "Jag bor i Malm\u{f6}.");
        assert_eq!(s[0].messages[0].text.len(), "Jag bor i Malm".len() + 2 + 1);
    }

    /// A message of nothing but zero-width spaces was stored and recalled as a memory:
    /// invisible breaks are left out, and a message left blank is dropped with its session
    /// when that held nothing else. Between two words a zero-width space is a break, so one
    /// space.
    #[test]
    fn an_invisible_message_is_dropped_and_a_zero_width_space_is_a_break() {
        let mut s = one("\u{200b}\u{200b}\u{2060}\u{feff}");
        assert_eq!(sanitise(&mut s), (0, 1));
        assert!(
            s.is_empty(),
            "the blank message and its session are gone: {s:?}"
        );
        let mut s = one("zero\u{200b}width");
        sanitise(&mut s);
        assert_eq!(s[0].messages[0].text, "zero width");
    }

    #[test]
    fn control_characters_become_one_space_between_words() {
        // Finding: "ctrl\u{0}nul\u{7}bell here" was stored as "ctrlnulbell here". Each run of
        // control characters sits between two words here, so each becomes exactly one space.
        let mut s = one("ctrl\u{0}nul\u{7}bell here");
        assert_eq!(sanitise(&mut s), (0, 1), "one message cleaned, none cut");
        assert_eq!(s[0].messages[0].text, "ctrl nul bell here");
        // A run of several is one space; tab and line breaks stay as they were; a run at an end
        // or next to a space separates nothing, so it leaves no extra space.
        let mut s = one("\u{1b}[0ma\u{0}\u{0}\u{7}b\tc\r\nd \u{0}e\u{7}");
        sanitise(&mut s);
        assert_eq!(s[0].messages[0].text, "[0ma b\tc\r\nd e");
        let mut s = one("plain\ttext\nhere");
        assert_eq!(
            sanitise(&mut s),
            (0, 0),
            "tab and newline are not control noise"
        );
        assert_eq!(s[0].messages[0].text, "plain\ttext\nhere");
    }
}
