//! Runs cases: each in a fresh data dir, its messages, actions and checks in time order with
//! the clock set to each step's instant, through the engine calls the app and the CLI make.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::clock::{Clock, FixedClock};
use crate::context::{ContextName, list_contexts_with};
use crate::embed::Embedder;
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::export::ExportFormat;
use crate::import::{NewMessage, NewSession};
use crate::scenario::cases::{Action, Case, CaseFile, CaseMessage, Check};
use crate::scenario::observe::Observation;

/// The top-k of a recall check that names none (the conventions' default).
pub const DEFAULT_CHECK_K: usize = 10;

/// The `source` of live messages, as the app's chat stores them.
const LIVE_SOURCE: &str = crate::import::LIVE_CHAT;

/// How to run a cases file.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Run only these case ids (all when `None`). An id the file lacks is an error.
    pub only: Option<Vec<String>>,
    /// A folder for the cases' data dirs, one new sub-folder per case.
    pub scratch_dir: PathBuf,
    /// Keep each case's data dir for inspection instead of removing it.
    pub keep_data: bool,
}

/// Why a check has no observation (it is then MISSING for the evaluator).
#[derive(Debug, Clone, Serialize)]
pub struct LeftOut {
    /// The check id.
    pub check: String,
    /// What the product cannot do yet, or what went wrong.
    pub reason: String,
}

/// What running one case gave.
#[derive(Debug, Clone, Serialize)]
pub struct CaseReport {
    /// The case id.
    pub id: String,
    /// The ids of the checks observed.
    pub observed: Vec<String>,
    /// The checks left out, each with why.
    pub left_out: Vec<LeftOut>,
    /// What the runner did that a reader should know (unsupported actions, deletions made).
    pub notes: Vec<String>,
    /// The case's data dir, when kept.
    pub data_dir: Option<PathBuf>,
    /// Wall time of the case, seconds.
    pub seconds: f64,
}

/// What running a cases file gave: observed.json and a report per case.
#[derive(Debug, Clone, Default, Serialize)]
pub struct RunReport {
    /// Check id → observation: the content of observed.json.
    pub observed: BTreeMap<String, Observation>,
    /// One report per case run, in file order.
    pub cases: Vec<CaseReport>,
}

/// Runs the cases of `file` (those in `options.only`), calling `on_case` as each finishes.
/// Errors: [`Error::InvalidInput`] for an unknown case id or a bad bulk file, [`Error::Io`]
/// for the scratch folder. An engine error inside a case is not fatal: it is noted in the
/// case's report and the case's later checks are left out.
pub fn run(
    file: &CaseFile,
    embedder: Arc<dyn Embedder>,
    options: &RunOptions,
    on_case: &mut dyn FnMut(&CaseReport),
) -> Result<RunReport> {
    if let Some(only) = &options.only {
        for id in only {
            if !file.cases.iter().any(|c| &c.id == id) {
                let known: Vec<&str> = file.cases.iter().map(|c| c.id.as_str()).collect();
                return Err(Error::InvalidInput(format!(
                    "no case `{id}` in the file; it has {}",
                    known.join(", ")
                )));
            }
        }
    }
    std::fs::create_dir_all(&options.scratch_dir).map_err(|source| Error::Io {
        action: "cannot create",
        path: options.scratch_dir.clone(),
        source,
    })?;
    let mut report = RunReport::default();
    for case in &file.cases {
        if options
            .only
            .as_ref()
            .is_some_and(|only| !only.contains(&case.id))
        {
            continue;
        }
        let (case_report, observed) = run_case(case, &file.base_dir, embedder.clone(), options)?;
        on_case(&case_report);
        report.observed.extend(observed);
        report.cases.push(case_report);
    }
    Ok(report)
}

/// One step of a case's timeline.
#[derive(Debug, Clone, Copy)]
enum Step<'a> {
    /// A live message arrives.
    Message(&'a CaseMessage),
    /// Every message is imported at once (`ingest_mode: backfill`).
    Backfill,
    /// The user acts.
    Action(&'a Action),
    /// The product is asked.
    Check(&'a Check),
}

/// The steps in time order; at the same instant messages come first, then actions, then
/// checks, each in file order.
fn timeline(case: &Case) -> Vec<(DateTime<Utc>, Step<'_>)> {
    let mut steps: Vec<(DateTime<Utc>, u8, usize, Step<'_>)> = Vec::new();
    match case.setup.ingested_at {
        Some(at) if case.setup.is_backfill() => steps.push((at.to_utc(), 0, 0, Step::Backfill)),
        _ => {
            for (i, m) in case.conversation.iter().enumerate() {
                steps.push((m.timestamp.to_utc(), 0, i, Step::Message(m)));
            }
        }
    }
    for (i, a) in case.actions.iter().enumerate() {
        steps.push((a.at.to_utc(), 1, i, Step::Action(a)));
    }
    for (i, c) in case.checks.iter().enumerate() {
        steps.push((c.at.to_utc(), 2, i, Step::Check(c)));
    }
    steps.sort_by_key(|s| (s.0, s.1, s.2));
    steps
        .into_iter()
        .map(|(at, _, _, step)| (at, step))
        .collect()
}

fn run_case(
    case: &Case,
    base_dir: &Path,
    embedder: Arc<dyn Embedder>,
    options: &RunOptions,
) -> Result<(CaseReport, BTreeMap<String, Observation>)> {
    let started = Instant::now();
    let bulk = load_bulk(case, base_dir)?;
    let case_dir = options.scratch_dir.join(folder_name(&case.id));
    std::fs::create_dir(&case_dir).map_err(|source| Error::Io {
        action: "cannot create (it must not exist yet: use an empty scratch folder)",
        path: case_dir.clone(),
        source,
    })?;
    let first = timeline(case)
        .first()
        .map(|(at, _)| *at)
        .unwrap_or_default();
    let mut run = CaseRun {
        case,
        data_dir: case_dir.join("data"),
        clock: Arc::new(FixedClock::new(first)),
        embedder,
        engines: BTreeMap::new(),
        conversations: HashMap::new(),
        acks: HashMap::new(),
        bulk,
        blocked: None,
        observed: BTreeMap::new(),
        report: CaseReport {
            id: case.id.clone(),
            observed: Vec::new(),
            left_out: Vec::new(),
            notes: Vec::new(),
            data_dir: options.keep_data.then(|| case_dir.clone()),
            seconds: 0.0,
        },
    };
    for (at, step) in timeline(case) {
        run.clock.set(at);
        run.step(step);
    }
    let CaseRun {
        mut report,
        observed,
        engines,
        ..
    } = run;
    drop(engines);
    if !options.keep_data {
        std::fs::remove_dir_all(&case_dir).map_err(|source| Error::Io {
            action: "cannot remove",
            path: case_dir.clone(),
            source,
        })?;
    }
    report.seconds = started.elapsed().as_secs_f64();
    Ok((report, observed))
}

/// A case id as a folder name.
fn folder_name(id: &str) -> String {
    id.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The generated messages a `bulk_generate` action loads, read before the case runs so a
/// missing or broken file stops the run with its name.
fn load_bulk(case: &Case, base_dir: &Path) -> Result<HashMap<String, Vec<CaseMessage>>> {
    let mut out = HashMap::new();
    for action in case.actions.iter().filter(|a| a.kind == "bulk_generate") {
        let name = match action.args.get("file").and_then(|f| f.as_str()) {
            Some(f) => f.to_string(),
            None => match &case.setup.bulk_generate {
                Some(spec) => spec.file.clone(),
                None => action.str_arg(&case.id, "file")?.to_string(),
            },
        };
        let path = base_dir.join(&name);
        let text = std::fs::read_to_string(&path).map_err(|source| Error::Io {
            action: "cannot read the bulk file",
            path: path.clone(),
            source,
        })?;
        let mut messages = Vec::new();
        for (n, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let m: CaseMessage = serde_json::from_str(line).map_err(|e| {
                Error::InvalidInput(format!(
                    "case {}: {} line {}: not a message: {e}",
                    case.id,
                    path.display(),
                    n + 1
                ))
            })?;
            m.role().map_err(|e| {
                Error::InvalidInput(format!(
                    "case {}: {} line {}: {e}",
                    case.id,
                    path.display(),
                    n + 1
                ))
            })?;
            messages.push(m);
        }
        out.insert(name, messages);
    }
    Ok(out)
}

/// The state of one running case.
pub(super) struct CaseRun<'a> {
    pub(super) case: &'a Case,
    pub(super) data_dir: PathBuf,
    pub(super) clock: Arc<FixedClock>,
    pub(super) embedder: Arc<dyn Embedder>,
    /// Open contexts, by name; emptied by a restart.
    pub(super) engines: BTreeMap<String, Engine>,
    /// The messages of each (context, conversation) so far, so each new one is stored at
    /// its position in the session (recall reads the turn before).
    pub(super) conversations: HashMap<(String, String), Vec<NewMessage>>,
    /// Case message id → episodes its capture stored.
    pub(super) acks: HashMap<String, u64>,
    /// Bulk file name → its messages.
    pub(super) bulk: HashMap<String, Vec<CaseMessage>>,
    /// Set at the first step the product cannot carry out: later checks are left out, since
    /// what they observe would not be what the case describes.
    pub(super) blocked: Option<String>,
    pub(super) observed: BTreeMap<String, Observation>,
    pub(super) report: CaseReport,
}

impl CaseRun<'_> {
    fn step(&mut self, step: Step<'_>) {
        let result = match step {
            Step::Message(m) => self.message(m),
            Step::Backfill => self.backfill(),
            Step::Action(a) => self.action(a),
            Step::Check(c) => {
                self.check(c);
                Ok(())
            }
        };
        if let Err(e) = result {
            let what = match step {
                Step::Message(m) => format!("message {}", m.id),
                Step::Backfill => "the backfill import".to_string(),
                Step::Action(a) => format!("action {} at {}", a.kind, a.at),
                Step::Check(c) => format!("check {}", c.id),
            };
            self.block(format!("the engine failed at {what}: {e}"));
        }
    }

    /// Records that the product cannot carry out a step; checks after it are left out.
    pub(super) fn block(&mut self, reason: String) {
        self.report.notes.push(reason.clone());
        if self.blocked.is_none() {
            self.blocked = Some(reason);
        }
    }

    /// The open engine of `name`, opening it on first use; `None` when Minne has no such
    /// context (it can only create the built-in ones so far).
    pub(super) fn engine(&mut self, name: &str) -> Result<Option<&mut Engine>> {
        if !self.engines.contains_key(name) {
            let Ok(context) = ContextName::new(name) else {
                return Ok(None);
            };
            let clock: Arc<dyn Clock> = self.clock.clone();
            // Unencrypted (diagnostics): raw store scans read the files' bytes (issue 6).
            let keys = crate::keys::KeyConfig::unencrypted();
            match Engine::open_with(
                &self.data_dir,
                &context,
                &keys,
                self.embedder.clone(),
                clock,
            ) {
                Ok(engine) => {
                    // The case's user lives in `setup.timezone`: their local days are its.
                    if let Some(tz) = &self.case.setup.timezone {
                        let zone = crate::zone::parse(tz).map_err(|e| {
                            Error::InvalidInput(format!(
                                "case {}: setup.timezone: {e}",
                                self.case.id
                            ))
                        })?;
                        engine.set_time_zone(zone)?;
                    }
                    self.engines.insert(name.to_string(), engine);
                }
                Err(Error::UnknownContext(_)) => return Ok(None),
                Err(e) => return Err(e),
            }
        }
        Ok(self.engines.get_mut(name))
    }

    /// Where an export for `label` (an action's instant or a check id) of `context` goes:
    /// `<data dir>/exports/`, so a raw store scan reads it like every other file Minne wrote.
    pub(super) fn export_path(&self, context: &str, label: &str, format: ExportFormat) -> PathBuf {
        let ext = match format {
            ExportFormat::Json => "json",
            ExportFormat::Markdown => "md",
        };
        self.data_dir
            .join("exports")
            .join(format!("{context}-{}.{ext}", folder_name(label)))
    }

    /// Every context in the data dir, by name.
    pub(super) fn context_names(&self) -> Result<Vec<String>> {
        let keys = crate::keys::KeyConfig::unencrypted();
        Ok(list_contexts_with(&self.data_dir, &keys)?
            .into_iter()
            .map(|c| c.name.as_str().to_string())
            .collect())
    }

    /// A live message: stored at its place in its session and captured at once.
    ///
    /// The app captures a conversation once it has been quiet for two minutes. The rule
    /// extractor reads one message at a time, in order, with its speaker's running baseline,
    /// so capturing on arrival stores the same episodes a quiet-period capture would; what
    /// differs is only `captured_at` (the message's time rather than two minutes later).
    /// Capturing on arrival also gives each message its own capture report (`capture_ack`).
    fn message(&mut self, m: &CaseMessage) -> Result<()> {
        let new = new_message(m)?;
        let key = (m.context.clone(), m.conversation_id.clone());
        let mut so_far = self.conversations.get(&key).cloned().unwrap_or_default();
        so_far.push(new);
        let Some(engine) = self.engine(&m.context)? else {
            self.block(unknown_context(&m.context, &format!("message {}", m.id)));
            return Ok(());
        };
        // Earlier messages of the session are already stored and are skipped by their dedupe
        // key; handing them in again gives the new one its position in the session.
        let session = NewSession {
            key: session_key(&m.conversation_id),
            messages: so_far.clone(),
        };
        let report = engine.import_sessions(&[session], LIVE_SOURCE, &mut |_| {})?;
        self.acks.insert(m.id.clone(), report.episodes_added as u64);
        self.conversations.insert(key, so_far);
        Ok(())
    }

    /// Backfill: every message imported at once at `ingested_at`, with its own timestamp.
    fn backfill(&mut self) -> Result<()> {
        let source = format!("backfill:{}", self.case.id);
        self.import_messages(&self.case.conversation, &source)
    }

    /// Imports `messages` per context, one session per conversation, in one import each.
    pub(super) fn import_messages(&mut self, messages: &[CaseMessage], source: &str) -> Result<()> {
        for (context, sessions) in sessions_by_context(messages)? {
            let Some(engine) = self.engine(&context)? else {
                self.block(unknown_context(&context, "an import"));
                continue;
            };
            let report = engine.import_sessions(&sessions, source, &mut |_| {})?;
            self.report.notes.push(format!(
                "imported {} messages into `{context}` ({source}): {} episodes",
                report.messages_added, report.episodes_added
            ));
        }
        Ok(())
    }
}

pub(super) fn unknown_context(name: &str, what: &str) -> String {
    format!(
        "{what} is in context `{name}`, which Minne cannot create through its API yet (only work and personal exist)"
    )
}

pub(super) fn session_key(conversation_id: &str) -> String {
    format!("scenario:{conversation_id}")
}

fn new_message(m: &CaseMessage) -> Result<NewMessage> {
    let role = m.role()?;
    Ok(NewMessage {
        external_id: Some(m.id.clone()),
        role,
        actor: role.as_str().to_string(),
        text: m.text.clone(),
        sent_at: m.timestamp,
    })
}

/// Messages grouped by context, then by conversation, each in first-seen order.
fn sessions_by_context(messages: &[CaseMessage]) -> Result<Vec<(String, Vec<NewSession>)>> {
    let mut out: Vec<(String, Vec<NewSession>)> = Vec::new();
    for m in messages {
        let i = match out.iter().position(|(c, _)| c == &m.context) {
            Some(i) => i,
            None => {
                out.push((m.context.clone(), Vec::new()));
                out.len() - 1
            }
        };
        let sessions = &mut out[i].1;
        let key = session_key(&m.conversation_id);
        let j = match sessions.iter().position(|s| s.key == key) {
            Some(j) => j,
            None => {
                sessions.push(NewSession {
                    key,
                    messages: Vec::new(),
                });
                sessions.len() - 1
            }
        };
        sessions[j].messages.push(new_message(m)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::cases::parse;

    #[test]
    fn timeline_orders_by_instant_then_messages_actions_checks() {
        let text = r#"{"cases": [{"id": "X-1", "setup": {},
            "conversation": [
              {"id": "m2", "role": "user", "text": "b", "timestamp": "2025-01-01T12:00:00+01:00", "conversation_id": "c"},
              {"id": "m1", "role": "user", "text": "a", "timestamp": "2025-01-01T10:30:00+00:00", "conversation_id": "c"}],
            "actions": [{"type": "restart", "at": "2025-01-01T11:00:00Z"}],
            "checks": [{"id": "X-1.c1", "type": "recall", "at": "2025-01-01T11:00:00Z", "query": "q"}]}]}"#;
        let file = parse(text.as_bytes()).unwrap();
        let order: Vec<String> = timeline(&file.cases[0])
            .into_iter()
            .map(|(_, s)| match s {
                Step::Message(m) => m.id.clone(),
                Step::Backfill => "backfill".into(),
                Step::Action(a) => a.kind.clone(),
                Step::Check(c) => c.id.clone(),
            })
            .collect();
        // 12:00+01:00 is 11:00 UTC: the same instant as the action and the check.
        assert_eq!(
            order,
            ["m1", "m2", "restart", "X-1.c1"],
            "time order, then message < action < check"
        );
    }

    #[test]
    fn backfill_is_one_step_at_ingested_at() {
        let text = r#"{"cases": [{"id": "X-1", "setup": {"ingest_mode": "backfill", "ingested_at": "2025-06-10T12:00:00+02:00"},
            "conversation": [{"id": "m1", "role": "user", "text": "a", "timestamp": "2025-03-05T19:30:00+01:00", "conversation_id": "c"}]}]}"#;
        let file = parse(text.as_bytes()).unwrap();
        let steps = timeline(&file.cases[0]);
        assert_eq!(steps.len(), 1, "the messages are ingested together");
        assert!(matches!(steps[0].1, Step::Backfill));
        assert_eq!(
            steps[0].0.to_rfc3339(),
            "2025-06-10T10:00:00+00:00",
            "at ingested_at, not at the messages' times"
        );
    }

    #[test]
    fn sessions_keep_conversation_order_per_context() {
        let msg = |id: &str, ctx: &str, conv: &str| CaseMessage {
            id: id.into(),
            role: "user".into(),
            text: id.into(),
            timestamp: DateTime::parse_from_rfc3339("2025-01-01T00:00:00Z").unwrap(),
            context: ctx.into(),
            conversation_id: conv.into(),
        };
        let grouped = sessions_by_context(&[
            msg("a", "personal", "c1"),
            msg("b", "work", "c2"),
            msg("c", "personal", "c3"),
            msg("d", "personal", "c1"),
        ])
        .unwrap();
        let shape: Vec<(String, Vec<(String, usize)>)> = grouped
            .iter()
            .map(|(c, s)| {
                (
                    c.clone(),
                    s.iter()
                        .map(|s| (s.key.clone(), s.messages.len()))
                        .collect(),
                )
            })
            .collect();
        assert_eq!(
            shape,
            vec![
                (
                    "personal".to_string(),
                    vec![
                        ("scenario:c1".to_string(), 2),
                        ("scenario:c3".to_string(), 1)
                    ]
                ),
                ("work".to_string(), vec![("scenario:c2".to_string(), 1)]),
            ]
        );
    }
}
