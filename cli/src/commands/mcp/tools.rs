//! The tools' arguments (their JSON schemas come from these types) and what each tool does:
//! a few lines over one engine call, run on the one context the server was started with.

use std::collections::HashMap;

use anyhow::{Context as _, bail};
use chrono::{DateTime, Duration, Local, Utc};
use minne::Engine;
use minne::episodes::EpisodeView;
use minne::forget::ForgetScope;
use minne::import::{MAX_MESSAGE_BYTES, NewMessage, NewSession};
use minne::mode::Mode;
use minne::model::{ActKind, EpisodeId, Role, SessionId};
use minne::recall::{DEFAULT_K, RecallQuery, default_threshold_for, prompt};
// `context`'s budgets: the engine's, so `minne context --session-start` takes the same.
use minne::session_start::{BUDGET_DEFAULT, BUDGET_MAX, BUDGET_MIN};
use rmcp::schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::output::{self, plural};

/// The source recorded on every session the server stores.
pub const SOURCE: &str = minne::import::LIVE_MCP;
/// At most this many memories per recall.
pub const MAX_K: u32 = 50;
/// `list`'s default page size.
pub const LIST_DEFAULT: u32 = 20;
/// `list`'s largest page.
pub const LIST_MAX: u32 = 200;
/// How many episodes a forget preview names (the counts cover all of them).
const PREVIEW_ITEMS: usize = 20;
/// The longest conversation id `remember` takes, in bytes.
const MAX_SESSION_ID: usize = 200;
/// Episodes read per page when looking for a message's or a scope's episodes.
const PAGE: usize = 200;

/// What a tool returns: JSON (also given as structured content), plain text, or text for
/// the assistant to read with the same thing as JSON in the structured content.
#[derive(Debug)]
pub enum Reply {
    Json(Value),
    Text(String),
    TextAndJson(String, Value),
}

/// The open context and the conversations this server run has written to.
#[derive(Debug)]
pub struct State {
    engine: Engine,
    /// The session key used when `remember` gets no `session`: one per server run.
    default_session: String,
    /// Messages this run stored per session key, in order. Handing a session's earlier
    /// messages in again (stored ones are skipped by their key) gives a new message its place
    /// in the conversation, which recall uses for neighbouring turns.
    sessions: HashMap<String, Vec<NewMessage>>,
    /// Makes message ids unique across server runs and concurrent servers.
    run_id: String,
    /// Messages stored by this run.
    sequence: u64,
}

impl State {
    pub fn new(engine: Engine) -> Self {
        let started = Utc::now();
        State {
            engine,
            default_session: format!("{SOURCE}:{}", started.format("%Y-%m-%dT%H:%M:%SZ")),
            sessions: HashMap::new(),
            run_id: format!("{}-{}", started.timestamp_millis(), std::process::id()),
            sequence: 0,
        }
    }

    /// Works on `engine` from now on: the same context reopened (after its key was rotated).
    /// The conversations this run wrote to are kept, so later messages keep their places.
    pub fn reopened(&mut self, engine: Engine) {
        self.engine = engine;
    }

    /// Refuses to show memories to the assistant when the context is paused (incognito):
    /// the same [`minne::Error::ModeForbids`] recall gives. The user's own `minne list` is not
    /// refused; it is their control panel.
    fn require_reading(&self, action: &'static str) -> anyhow::Result<()> {
        if self.engine.mode()? == Mode::Paused {
            return Err(minne::Error::ModeForbids {
                context: self.engine.context().to_string(),
                mode: Mode::Paused,
                action,
            }
            .into());
        }
        Ok(())
    }
}

/// Who said a message.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(crate = "rmcp::schemars")]
pub enum Speaker {
    /// The person whose memory this is.
    User,
    /// The assistant.
    Assistant,
}

impl From<Speaker> for Role {
    fn from(s: Speaker) -> Role {
        match s {
            Speaker::User => Role::User,
            Speaker::Assistant => Role::Assistant,
        }
    }
}

/// `remember`'s arguments.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
pub struct RememberArgs {
    /// The message's words, as said: at most 100,000 bytes of UTF-8.
    pub text: String,
    /// Who said it: `user` (the default) or `assistant`.
    pub role: Option<Speaker>,
    /// A conversation id: messages with the same id form one conversation. Default: one
    /// conversation per server run.
    pub session: Option<String>,
}

/// How `recall` returns its memories.
#[derive(Debug, Clone, Copy, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(crate = "rmcp::schemars")]
pub enum RecallFormat {
    /// JSON: each memory's text, score and score parts, time, act kind and source.
    #[default]
    Items,
    /// Seed 000's prompt block, "Earlier in your conversations:", each memory quoted as data;
    /// empty when nothing is relevant.
    Prompt,
}

/// `recall`'s arguments.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
pub struct RecallArgs {
    /// What to recall, in the user's words.
    pub query: String,
    /// At most this many memories, 1 to 50 (default 3).
    #[schemars(range(min = 1, max = 50))]
    pub k: Option<u32>,
    /// `items` (default) or `prompt`.
    pub format: Option<RecallFormat>,
}

/// An episode id as an assistant may send it: `42` or `"42"`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
#[schemars(crate = "rmcp::schemars")]
pub enum EpisodeRef {
    /// The id as a number.
    Number(i64),
    /// The id as a string of digits.
    Text(String),
}

/// `forget`'s arguments: exactly one of `id`, `session` and `last`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
pub struct ForgetArgs {
    /// One episode's id, as `list` (`id`) and `recall` (`episode_id`) show it: `42` or `"42"`.
    pub id: Option<EpisodeRef>,
    /// A whole conversation: the `session` given to `remember` (looked up first, as
    /// `mcp:<session>`), else a session key (`transcript:2026-03-02-planning`) or a session
    /// number. The reply's `session` names the key used.
    pub session: Option<String>,
    /// Everything written in the last DURATION: a number and `s`, `m`, `h`, `d` or `w`
    /// (`30m`, `1h`, `2d`).
    pub last: Option<String>,
    /// Must be true to forget more than one episode (`session`, `last`); without it nothing
    /// is removed and the reply previews what would go. `false` only previews, for `id` too.
    pub confirm: Option<bool>,
}

/// `list`'s arguments.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
pub struct ListArgs {
    /// At most this many memories, 1 to 200 (default 20).
    #[schemars(range(min = 1, max = 200))]
    pub limit: Option<u32>,
    /// Where to continue: the `next_cursor` of the previous reply.
    pub cursor: Option<String>,
}

/// `context`'s arguments.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
pub struct ContextArgs {
    /// The most estimated tokens (characters / 4, rounded up) the block may take, 50 to
    /// 10,000 (default 500).
    #[schemars(range(min = BUDGET_MIN, max = BUDGET_MAX))]
    pub budget: Option<u32>,
}

/// Stores one message (source `mcp`), captures it at once and returns its episodes.
pub fn remember(s: &mut State, args: RememberArgs) -> anyhow::Result<Reply> {
    // The characters the engine leaves out of imports (`minne::import::is_left_out`: control
    // characters other than tab and line breaks, bidirectional overrides) are taken out the
    // way import takes them out (`minne::import::without_controls`: no word glued to the
    // next, no doubled or stray space). Done here so the buffered copy matches the stored
    // words, which the tombstone check of a later hand-in compares against.
    let text = minne::import::without_controls(&args.text);
    if text.trim().is_empty() {
        bail!("`text` is empty: give the words to remember");
    }
    if text.len() > MAX_MESSAGE_BYTES {
        bail!(
            "`text` is {} bytes; Minne keeps at most {MAX_MESSAGE_BYTES} bytes per message. \
             Nothing was stored: send the part worth remembering, or split it over several calls",
            text.len()
        );
    }
    let key = match args.session {
        Some(id) => {
            let id = id.trim();
            if id.is_empty() || id.len() > MAX_SESSION_ID {
                bail!(
                    "`session` must be 1 to {MAX_SESSION_ID} bytes, such as \"trip-planning\"; leave it out for this run's conversation"
                );
            }
            format!("{SOURCE}:{id}")
        }
        None => s.default_session.clone(),
    };
    let role = Role::from(args.role.unwrap_or(Speaker::User));
    s.sequence += 1;
    let external_id = format!("{SOURCE}-{}-{}", s.run_id, s.sequence);
    let sent_at = Local::now().fixed_offset();
    let mut messages = s.sessions.get(&key).cloned().unwrap_or_default();
    messages.push(NewMessage {
        external_id: Some(external_id.clone()),
        role,
        actor: role.as_str().to_string(),
        text,
        sent_at,
    });
    let session = NewSession {
        key: key.clone(),
        messages: messages.clone(),
    };
    let report = s.engine.import_sessions(&[session], SOURCE, &mut |_| {})?;
    s.sessions.insert(key.clone(), messages);
    let stored = report.messages_added > 0;
    let episodes = if stored {
        episodes_of_message(&s.engine, &external_id, sent_at.to_utc())?
    } else {
        Vec::new()
    };
    let summary = if !stored {
        "Nothing stored: these words were forgotten before at this very minute, and their \
         tombstone keeps them from coming back. Say it again in a minute to store it anew."
            .to_string()
    } else if report.messages_withheld > 0 {
        "Not kept, as asked: the message asks not to be remembered, so no memory was made of \
         it, its words were replaced in the transcript by a marker saying so, and the reply to \
         it will be too."
            .to_string()
    } else if episodes.is_empty() && role == Role::Assistant {
        "Stored the message, but nothing in it became a memory: Minne keeps the assistant's own \
         words only for what it committed to or took back (seed 004), and this message did \
         neither."
            .to_string()
    } else if episodes.is_empty() {
        "Stored the message, but nothing new in it became a memory: capture found no happening \
         to keep (small talk, thanks, a plain question), or it restates something already \
         remembered, which reinforces that memory instead of storing it twice."
            .to_string()
    } else if episodes.iter().all(|e| e.kind == ActKind::Routine) {
        let days = s.engine.routine_retention_days()?;
        format!(
            "Only routine talk (greetings, thanks, a lookup): kept as a routine episode with \
             salience {:.2}, which fades within days and is purged after {days} days. Nothing \
             in it is worth remembering for long.",
            episodes
                .iter()
                .map(|e| e.salience.get())
                .fold(0.0, f64::max)
        )
    } else {
        let parts: Vec<String> = episodes
            .iter()
            .map(|e| format!("{} (salience {:.2})", e.kind.as_str(), e.salience.get()))
            .collect();
        format!(
            "Stored {}: {}.",
            plural(episodes.len(), "episode", "episodes"),
            parts.join(", ")
        )
    };
    // What the words did besides: "remember that …", "forget what I said about …" and
    // corrections act at once, and the reply must say so, never hide a forget.
    let applied: Vec<String> = report.commands.iter().map(|c| c.outcome.clone()).collect();
    let summary = if applied.is_empty() {
        summary
    } else {
        format!(
            "{summary} Commands in it acted at once: {}.",
            applied.join("; ")
        )
    };
    Ok(Reply::Json(json!({
        "stored": stored,
        "context": s.engine.context().as_str(),
        "session": key,
        "episodes": episodes.iter().map(episode_json).collect::<Vec<_>>(),
        "commands": report.commands,
        "summary": summary,
    })))
}

/// The episodes captured from the message with `external_id`, written at `sent_at`. They
/// carry the message's time, so the newest-first listing reaches them before anything older
/// than a minute before it (the margin covers the store's millisecond rounding).
fn episodes_of_message(
    engine: &Engine,
    external_id: &str,
    sent_at: DateTime<Utc>,
) -> anyhow::Result<Vec<EpisodeView>> {
    let floor = sent_at - Duration::minutes(1);
    let mut found = Vec::new();
    let mut offset = 0;
    loop {
        let page = engine.list_episodes(PAGE, offset)?;
        let done = page.len() < PAGE || page.last().is_some_and(|e| e.occurred_at < floor);
        offset += page.len();
        found.extend(
            page.into_iter()
                .filter(|e| e.message_external_id.as_deref() == Some(external_id)),
        );
        if done {
            break;
        }
    }
    // Newest first by id puts a message's episodes in reverse order of appearance.
    found.sort_by_key(|e| e.id.0);
    Ok(found)
}

/// `minne recall`: re-embeds what the current model has not embedded yet, then the top k
/// that clear the default threshold.
pub fn recall(s: &mut State, args: RecallArgs) -> anyhow::Result<Reply> {
    let k = args.k.unwrap_or(DEFAULT_K as u32);
    if !(1..=MAX_K).contains(&k) {
        bail!("`k` must be 1 to {MAX_K}, got {k}");
    }
    // A paused context refuses recall in the engine; don't load the model for nothing first.
    if s.engine.mode()? != Mode::Paused && s.engine.capture_status(0)?.embeddings_pending > 0 {
        eprintln!(
            "minne mcp: embedding waiting episodes with {} first",
            s.engine.model_id()
        );
        s.engine.embed_pending(&mut |_| {})?;
    }
    // The threshold calibrated for the model in use, as `minne recall` applies it.
    let threshold = default_threshold_for(s.engine.model_id());
    let query = RecallQuery {
        k: k as usize,
        threshold: Some(threshold),
        ..RecallQuery::new(args.query)
    };
    let explained = s.engine.recall_explained(&query, 0)?;
    let hits = explained.hits;
    Ok(match args.format.unwrap_or_default() {
        RecallFormat::Prompt => Reply::Text(prompt::block(&hits)),
        RecallFormat::Items => {
            let mut out = json!({
                "context": s.engine.context().as_str(),
                "threshold": threshold,
                "hits": output::hits_json(&s.engine, &hits)?,
            });
            if hits.is_empty() {
                out["note"] = json!(match &explained.abstained {
                    // Candidates cleared the threshold, but the memories do not hold what the
                    // question asks about.
                    Some(why) => format!(
                        "Nothing in `{}` answers this: {why}. No memory is better than a wrong one.",
                        s.engine.context()
                    ),
                    None => format!(
                        "Nothing in `{}` is relevant enough (threshold {threshold:.2}): no memory is better than an irrelevant one.",
                        s.engine.context()
                    ),
                });
            }
            Reply::Json(out)
        }
    })
}

/// Forgets one episode at once, or previews a wider scope unless `confirm` is true.
pub fn forget(s: &mut State, args: ForgetArgs) -> anyhow::Result<Reply> {
    // The stored key of the conversation a `session` names, said in the reply so the
    // assistant sees which one is meant.
    let mut session_key = None;
    let scope = match (&args.id, &args.session, &args.last) {
        (Some(EpisodeRef::Number(id)), None, None) => ForgetScope::Episode(EpisodeId(*id)),
        (Some(EpisodeRef::Text(id)), None, None) => {
            let id = id.trim().trim_start_matches('#');
            let id: i64 = id.parse().map_err(|_| {
                anyhow::anyhow!(
                    "`id` must be an episode id such as \"42\", as `list` and `recall` show it; got \"{id}\""
                )
            })?;
            ForgetScope::Episode(EpisodeId(id))
        }
        (None, Some(session), None) => {
            let (id, key) = session_id(&s.engine, session.trim())?;
            session_key = Some(key);
            ForgetScope::Session(id)
        }
        (None, None, Some(last)) => {
            // The parser's cause ("cannot parse integer from empty string") tells an
            // assistant nothing; its own message and the format do.
            let window = crate::duration::parse_window(last).map_err(|e| {
                anyhow::anyhow!(
                    "`last` must be a duration such as 30m, 1h, 2d (a whole number and s, m, h, d or w): {e}"
                )
            })?;
            ForgetScope::Last(window)
        }
        _ => bail!(
            "give exactly one of `id` (one episode), `session` (a conversation) or `last` (a duration like \"1h\")"
        ),
    };
    // One episode goes at once; a wider scope waits for `confirm: true`, and an explicit
    // `confirm: false` never removes anything (a fresh user's assistant sent it to ask first,
    // and the episode was gone).
    let wide = !matches!(scope, ForgetScope::Episode(_));
    if args.confirm == Some(false) || (wide && args.confirm != Some(true)) {
        let mut reply = preview(s, &scope)?;
        if let (Reply::Json(value), Some(key)) = (&mut reply, &session_key) {
            value["session"] = json!(key);
        }
        return Ok(reply);
    }
    let receipt = s.engine.forget(&scope)?;
    // What this run would hand in again may hold forgotten words; tombstones already keep
    // them out, and dropping the copies makes sure nothing forgotten lingers in memory.
    s.sessions.clear();
    let summary = format!(
        "Forgot {} and {} ({} more redacted) in `{}`, with their embeddings; {} {} them from being imported again.",
        plural(receipt.episodes, "episode", "episodes"),
        plural(receipt.messages, "message", "messages"),
        receipt.messages_redacted,
        s.engine.context(),
        plural(receipt.tombstones, "tombstone", "tombstones"),
        if receipt.tombstones == 1 {
            "keeps"
        } else {
            "keep"
        },
    );
    let mut out = json!({
        "forgotten": true,
        "receipt": receipt,
        "summary": summary,
    });
    if let Some(key) = session_key {
        out["session"] = json!(key);
    }
    Ok(Reply::Json(out))
}

/// What a forget wider than one `id` would remove: counts, time range and up to [`PREVIEW_ITEMS`] episodes.
fn preview(s: &State, scope: &ForgetScope) -> anyhow::Result<Reply> {
    let p = s.engine.preview_forget(scope)?;
    if p.messages == 0 && p.episodes == 0 {
        return Ok(Reply::Json(json!({
            "forgotten": false,
            "needs_confirmation": false,
            "preview": p,
            "summary": "Nothing matches: there is nothing to forget.",
        })));
    }
    // Paused (incognito): the counts only, no memory's words for the assistant.
    let listed = if s.engine.mode()? == Mode::Paused {
        Vec::new()
    } else {
        episodes_in_scope(&s.engine, scope, p.from)?
    };
    Ok(Reply::Json(json!({
        "forgotten": false,
        "needs_confirmation": true,
        "preview": p,
        "episodes": listed.iter().map(episode_json).collect::<Vec<_>>(),
        "summary": format!(
            "This would forget {} in `{}`{}. Nothing was removed yet: ask the user, then call `forget` again with the same arguments and `confirm: true`. It cannot be undone.",
            match scope {
                ForgetScope::Episode(id) => format!("episode {}", id.0),
                _ => format!(
                    "{} and {}",
                    plural(p.messages, "message", "messages"),
                    plural(p.episodes, "episode", "episodes")
                ),
            },
            s.engine.context(),
            match (p.from, p.to) {
                (Some(from), Some(to)) => format!(
                    ", written between {} and {}",
                    from.format("%Y-%m-%d %H:%M UTC"),
                    to.format("%Y-%m-%d %H:%M UTC")
                ),
                _ => String::new(),
            }
        ),
    })))
}

/// Up to [`PREVIEW_ITEMS`] episodes a wide scope covers, newest first.
fn episodes_in_scope(
    engine: &Engine,
    scope: &ForgetScope,
    earliest: Option<DateTime<Utc>>,
) -> anyhow::Result<Vec<EpisodeView>> {
    let now = Utc::now();
    let mut out = Vec::new();
    let mut offset = 0;
    loop {
        let page = engine.list_episodes(PAGE, offset)?;
        let exhausted = page.len() < PAGE;
        offset += page.len();
        for e in page {
            // Newest first: once past the scope's earliest message, nothing older is in it.
            if earliest.is_some_and(|t| e.occurred_at < t) {
                return Ok(out);
            }
            let inside = match scope {
                ForgetScope::Episode(id) => e.id == *id,
                ForgetScope::Session(id) => e.session_id == *id,
                ForgetScope::Last(d) => e.occurred_at >= now - *d,
                _ => false,
            };
            if inside {
                out.push(e);
                if out.len() == PREVIEW_ITEMS {
                    return Ok(out);
                }
            }
        }
        if exhausted {
            return Ok(out);
        }
    }
}

/// A conversation and its stored key, from the `session` id given to `remember`, a session
/// key, an imported conversation's own id or a session number. Resolved first the way
/// `remember` stores it (`mcp:<session>`), so an id that is also the key or number of an
/// imported conversation means the MCP one, as the assistant meant it; then as a whole
/// session key or the id a conversation had in its file (`1` for `transcript:1`, as `minne
/// forget --session` reads it; two such conversations are named, nothing is picked); then as
/// a session number. In a paused context no error names a stored key: an assistant may not
/// list memories there, and a key is a conversation's title.
fn session_id(engine: &Engine, session: &str) -> anyhow::Result<(SessionId, String)> {
    let namespaced = format!("{SOURCE}:{session}");
    if let Ok(id) = engine.session_id(&namespaced) {
        return Ok((id, namespaced));
    }
    let reveal = engine.mode()? != minne::mode::Mode::Paused;
    match engine.sessions_named(session)?.as_slice() {
        [(id, key)] => return Ok((*id, key.clone())),
        [] => {}
        many => {
            let keys = if reveal {
                let keys: Vec<String> = many.iter().map(|(_, k)| format!("`{k}`")).collect();
                format!(": {}", keys.join(" or "))
            } else {
                String::new()
            };
            bail!(
                "`{session}` could mean {} conversations in `{}`{keys}; give the whole \
                 session key (nothing was forgotten)",
                many.len(),
                engine.context()
            );
        }
    }
    if let Ok(n) = session.parse::<i64>() {
        return Ok((SessionId(n), format!("#{n}")));
    }
    if !reveal {
        bail!(
            "no conversation `{session}` in `{}` (the context is paused, so no stored session \
             is named here; the user can see them with `minne list`)",
            engine.context()
        );
    }
    // The error of the key as given: it suggests the stored keys that contain it.
    let as_given = engine.session_id(session).err().map_or_else(
        || anyhow::anyhow!("no conversation `{session}`"),
        anyhow::Error::from,
    );
    Err(as_given).with_context(|| format!("no conversation `{session}` in `{}`", engine.context()))
}

/// `minne context --session-start`: the session-start block as text, and as JSON (budget,
/// used tokens, parts with their lines and what was left out) in the structured content.
/// The engine refuses it when the context is paused, as it refuses recall.
pub fn context(s: &mut State, args: ContextArgs) -> anyhow::Result<Reply> {
    let budget = args.budget.unwrap_or(BUDGET_DEFAULT);
    if !(BUDGET_MIN..=BUDGET_MAX).contains(&budget) {
        bail!(
            "`budget` must be {BUDGET_MIN} to {BUDGET_MAX} estimated tokens \
             (characters / 4), got {budget}; leave it out for {BUDGET_DEFAULT}"
        );
    }
    let block = s.engine.session_start(budget as usize)?;
    let text = if block.text.is_empty() {
        format!(
            "A budget of {budget} tokens holds not even one item ({} left out): call `context` \
             again with a larger `budget`.",
            block.omitted
        )
    } else {
        block.text.clone()
    };
    let mut json = serde_json::to_value(&block)?;
    json["context"] = json!(s.engine.context().as_str());
    Ok(Reply::TextAndJson(text, json))
}

/// Recent episodes, newest first, a page at a time.
pub fn list(s: &mut State, args: ListArgs) -> anyhow::Result<Reply> {
    s.require_reading("listing memories for the assistant")?;
    let limit = args.limit.unwrap_or(LIST_DEFAULT);
    if !(1..=LIST_MAX).contains(&limit) {
        bail!("`limit` must be 1 to {LIST_MAX}, got {limit}");
    }
    let offset: usize = match args.cursor.as_deref().map(str::trim) {
        None | Some("") => 0,
        Some(c) => c.parse().map_err(|_| {
            anyhow::anyhow!(
                "`cursor` must be the `next_cursor` of a previous `list` reply; got \"{c}\""
            )
        })?,
    };
    let episodes = s.engine.list_episodes(limit as usize, offset)?;
    let next = (episodes.len() == limit as usize).then(|| (offset + episodes.len()).to_string());
    Ok(Reply::Json(json!({
        "context": s.engine.context().as_str(),
        "memories": episodes.iter().map(episode_json).collect::<Vec<_>>(),
        "next_cursor": next,
    })))
}

/// The context, its mode, counts and the latest capture jobs.
pub fn status(s: &mut State) -> anyhow::Result<Reply> {
    let status = s.engine.capture_status(3)?;
    let mut out = serde_json::to_value(&status)?;
    out["context"] = json!(s.engine.context().as_str());
    out["mode"] = json!(s.engine.mode()?);
    out["model"] = json!(s.engine.model_id());
    out["database"] = json!(s.engine.db_path().display().to_string());
    Ok(Reply::Json(out))
}

/// An episode as the tools show it.
fn episode_json(e: &EpisodeView) -> Value {
    json!({
        "id": e.id,
        "created_at": e.created_at,
        "kind": e.kind,
        "salience": e.salience,
        "stability_days": e.stability_days,
        "retrievability": e.retrievability,
        "text": e.text,
        "actor": e.actor,
        "role": e.role,
        "time": e.occurred_at,
        "event_time": e.event_time,
        "participants": e.participants,
        "session": e.session_external_id,
        "source": e.source,
    })
}
