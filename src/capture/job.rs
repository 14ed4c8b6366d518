//! Durable capture (seed 003: write status visible, never assume an end-of-session hook ran;
//! DESIGN principle 6). Capture runs as a job recorded in the context's database: after a
//! conversation has been quiet for a while, at an explicit checkpoint, or after an import. A
//! job left `running` by a crash is resumed by the next run, and re-capturing is idempotent.

use std::collections::HashMap;

use chrono::{DateTime, Duration, FixedOffset, Utc};
use rusqlite::{OptionalExtension, TransactionBehavior, params};
use serde::Serialize;

use crate::capture::rules::Extracted;
use crate::capture::tone::{Tone, ToneBaseline};
use crate::capture::withhold::{self, Turn};
use crate::capture::{llm, lock, restate, rules, stability_for, weigh};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::import::ImportProgress;
use crate::model::{ActKind, MessageInput, Role, Salience};
use crate::store::{fmt_fixed, fmt_utc, parse_fixed, parse_utc};

/// Messages encoded per capture transaction: a crash loses at most one batch of work, never
/// data, and the batch is redone on the next run.
const CAPTURE_BATCH: usize = 256;

/// The default quiet period before a conversation is captured: two minutes.
pub const DEFAULT_QUIET_SECONDS: i64 = 120;

/// The status [`Engine::capture_status`] shows for a job recorded as `queued` or `running`
/// when no process is capturing (see `lock.rs`): its process is gone. The store keeps it
/// recorded as open, so the next capture resumes it.
pub const INTERRUPTED: &str = "interrupted";

/// Why a capture job ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CaptureReason {
    /// After an import.
    Import,
    /// The conversation had been quiet for the quiet period.
    Quiet,
    /// Asked for explicitly (`minne capture`, an MCP call, the app).
    Checkpoint,
}

impl CaptureReason {
    fn as_str(self) -> &'static str {
        match self {
            CaptureReason::Import => "import",
            CaptureReason::Quiet => "quiet",
            CaptureReason::Checkpoint => "checkpoint",
        }
    }
}

/// A capture job as recorded in the store.
#[derive(Debug, Clone, Serialize)]
pub struct CaptureJob {
    /// Its id.
    pub id: i64,
    /// `queued`, `running`, `done`, `failed`, or [`INTERRUPTED`]: recorded as `queued` or
    /// `running` but with no process capturing any more (it was killed or crashed). The
    /// next capture (`minne capture`) resumes an interrupted job.
    pub status: String,
    /// `import`, `quiet` or `checkpoint`.
    pub reason: String,
    /// `rules` or `llm:<model>`.
    pub extractor: String,
    /// When it was queued (UTC).
    pub created_at: DateTime<Utc>,
    /// When it last started or resumed (UTC).
    pub started_at: Option<DateTime<Utc>>,
    /// When it finished (UTC).
    pub finished_at: Option<DateTime<Utc>>,
    /// Messages it had to encode.
    pub messages_total: i64,
    /// Messages encoded so far.
    pub messages_done: i64,
    /// Episodes it stored.
    pub episodes_added: i64,
    /// Episodes an LLM proposed whose quote is not in the transcript, dropped.
    pub suspected_hallucinations: i64,
    /// Why it failed, if it did.
    pub error: Option<String>,
    /// Commands in the user's words acted on at once, with what each stored or removed (seed
    /// 003); filled by the run that captured them, empty when the job is read back later.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<crate::consolidate::AppliedCommand>,
}

/// What a context holds and where its capture stands, for `minne status` and the app.
#[derive(Debug, Clone, Serialize)]
pub struct CaptureStatus {
    /// Messages stored.
    pub messages: i64,
    /// Messages not yet captured.
    pub messages_pending: i64,
    /// Episodes stored.
    pub episodes: i64,
    /// Episodes without a vector from the current model.
    pub embeddings_pending: i64,
    /// When the newest pending message was written (UTC), if any.
    pub newest_pending_at: Option<DateTime<Utc>>,
    /// The latest jobs, newest first.
    pub recent_jobs: Vec<CaptureJob>,
}

impl Engine {
    /// Runs capture now as a recorded job, then embeds the new episodes. Resumes a job a
    /// crashed process left `running`; otherwise starts a new one if anything is pending.
    /// Returns the job, or `None` when there was nothing to do. On failure the job is marked
    /// `failed` with its error, what was already captured stays, and the next run resumes.
    pub fn run_capture(
        &mut self,
        reason: CaptureReason,
        progress: &mut dyn FnMut(ImportProgress),
    ) -> Result<Option<CaptureJob>> {
        self.require_capture("capture")?;
        // Held from before the job is marked `running` until it is marked finished, so a job
        // shown `running` has a live process behind it (lock.rs).
        let capturing = lock::hold(self.store.path())?;
        let now = fmt_utc(self.clock.now());
        let open: Option<i64> = self
            .store
            .conn()
            .query_row(
                "SELECT id FROM capture_jobs WHERE status IN ('queued', 'running') ORDER BY id LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()?;
        let status = self.capture_status(0)?;
        let job_id = match open {
            Some(id) => id,
            None if status.messages_pending == 0 && status.embeddings_pending == 0 => {
                return Ok(None);
            }
            None => {
                self.store.conn().execute(
                    "INSERT INTO capture_jobs (status, reason, extractor, created_at) VALUES ('queued', ?1, ?2, ?3)",
                    params![reason.as_str(), self.llm.as_ref().map_or("rules".to_string(), |c| c.id()), now],
                )?;
                self.store.conn().last_insert_rowid()
            }
        };
        self.store.conn().execute(
            "UPDATE capture_jobs SET status = 'running', started_at = ?2, error = NULL,
                    messages_total = messages_done + ?3 WHERE id = ?1",
            params![job_id, now, status.messages_pending],
        )?;
        let outcome = self
            .capture_pending(job_id, progress)
            .and_then(|note| self.embed_pending(progress).map(|_| note));
        let finished = fmt_utc(self.clock.now());
        match &outcome {
            // The note says so when the LLM failed and the rules stood in: no silent success.
            Ok(note) => {
                self.store.conn().execute(
                    "UPDATE capture_jobs SET status = 'done', finished_at = ?2, error = ?3 WHERE id = ?1",
                    params![job_id, finished, note],
                )?
            }
            Err(e) => self.store.conn().execute(
                "UPDATE capture_jobs SET status = 'failed', finished_at = ?2, error = ?3 WHERE id = ?1",
                params![job_id, finished, e.to_string()],
            )?,
        };
        drop(capturing);
        outcome?;
        self.purge_expired_routine()?;
        // Consolidate at once, so a correction applies as soon as it is captured (seed 003).
        let commands = self.consolidate()?.commands;
        Ok(self
            .capture_job(job_id)?
            .map(|j| CaptureJob { commands, ..j }))
    }

    /// Runs capture if messages are pending and the newest of them is at least `quiet` old
    /// (seed 004: capture runs once a conversation has gone quiet). `None` when nothing ran.
    pub fn capture_if_quiet(
        &mut self,
        quiet: Duration,
        progress: &mut dyn FnMut(ImportProgress),
    ) -> Result<Option<CaptureJob>> {
        let status = self.capture_status(0)?;
        match status.newest_pending_at {
            Some(newest) if self.clock.now() - newest >= quiet => {
                self.run_capture(CaptureReason::Quiet, progress)
            }
            _ => Ok(None),
        }
    }

    /// Counts of what is stored and pending, and the `recent_jobs` latest capture jobs. A job
    /// recorded as open whose process is gone shows as [`INTERRUPTED`].
    pub fn capture_status(&self, recent_jobs: usize) -> Result<CaptureStatus> {
        // Asked before the jobs are read and held until they are: no capture can start in
        // between, so an open job read while nobody captures was really left behind.
        let nobody_capturing = if recent_jobs > 0 {
            lock::nobody_capturing(self.store.path())
        } else {
            None
        };
        let conn = self.store.conn();
        let count = |sql: &str| -> rusqlite::Result<i64> { conn.query_row(sql, [], |r| r.get(0)) };
        let newest: Option<String> = conn.query_row(
            "SELECT max(sent_at) FROM messages WHERE captured_at IS NULL",
            [],
            |r| r.get(0),
        )?;
        let embeddings_pending: i64 = conn.query_row(
            "SELECT count(*) FROM episodes e WHERE NOT EXISTS
               (SELECT 1 FROM embeddings x WHERE x.episode_id = e.id AND x.model_id = ?1)",
            [self.embedder.model_id()],
            |r| r.get(0),
        )?;
        let mut stmt = conn.prepare(&format!(
            "SELECT {JOB_COLUMNS} FROM capture_jobs ORDER BY id DESC LIMIT ?1"
        ))?;
        let mut recent = stmt
            .query_map([recent_jobs as i64], job_from_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        if nobody_capturing.is_some() {
            for job in &mut recent {
                if job.status == "queued" || job.status == "running" {
                    job.status = INTERRUPTED.to_string();
                }
            }
        }
        Ok(CaptureStatus {
            messages: count("SELECT count(*) FROM messages")?,
            messages_pending: count("SELECT count(*) FROM messages WHERE captured_at IS NULL")?,
            episodes: count("SELECT count(*) FROM episodes")?,
            embeddings_pending,
            newest_pending_at: newest.as_deref().map(parse_utc).transpose()?,
            recent_jobs: recent,
        })
    }

    fn capture_job(&self, id: i64) -> Result<Option<CaptureJob>> {
        Ok(self
            .store
            .conn()
            .query_row(
                &format!("SELECT {JOB_COLUMNS} FROM capture_jobs WHERE id = ?1"),
                [id],
                job_from_row,
            )
            .optional()?)
    }

    /// Encodes every message not yet captured (seed 004: encode, then weigh), a batch at a
    /// time. Extraction (rules, or the LLM when one is set) runs outside any transaction; then
    /// one IMMEDIATE transaction stores the batch's episodes, marks its messages captured,
    /// updates the speakers' baselines and the job's progress together. So an interrupted
    /// capture resumes where it stopped and never stores an episode twice, even with two
    /// processes capturing at once. Returns a note for the job when LLM windows fell back to
    /// the rules.
    fn capture_pending(
        &mut self,
        job_id: i64,
        progress: &mut dyn FnMut(ImportProgress),
    ) -> Result<Option<String>> {
        let mut total: usize = self.store.conn().query_row(
            "SELECT count(*) FROM messages WHERE captured_at IS NULL",
            [],
            |r| r.get::<_, i64>(0),
        )? as usize;
        let batch_size = if self.llm.is_some() {
            llm::WINDOW
        } else {
            CAPTURE_BATCH
        };
        let (mut done, mut added, mut claimed_here) = (0, 0, 0);
        let (mut fallbacks, mut last_error) = (0, None);
        // The tombstone key, for the words of withheld messages (capture::withhold).
        let secret = self.tombstone_secret()?;
        let mut words_removed = 0;
        // Until nothing is pending, not until `total` batches: another process may store
        // messages meanwhile, and an import counts the episodes of its own messages once this
        // returns, so none of them may be left behind.
        loop {
            let batch = self.pending_messages(batch_size)?;
            if batch.is_empty() {
                break;
            }
            total = total.max(done + batch.len());
            let withheld = batch
                .iter()
                .map(|m| withhold::is_withheld(self.store.conn(), m.turn()))
                .collect::<Result<Vec<bool>>>()?;
            let (extracted, hallucinated, llm_error) = self.extract_batch(&batch, &withheld);
            if let Some(e) = llm_error {
                fallbacks += 1;
                last_error = Some(e);
            }
            let now = self.clock.now();
            let captured_at = fmt_utc(now);
            let tx = self
                .store
                .conn_mut()
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            let mut baselines: HashMap<String, ToneBaseline> = HashMap::new();
            let mut restated = restate::Index::load(&tx)?;
            for ((m, episodes), withheld) in batch.iter().zip(extracted).zip(withheld) {
                // Another process may have captured this message since it was read.
                let claimed = tx.execute(
                    "UPDATE messages SET captured_at = ?2 WHERE id = ?1 AND captured_at IS NULL",
                    params![m.id, captured_at],
                )?;
                if claimed == 0 {
                    continue;
                }
                claimed_here += 1;
                // "Don't remember this: …", "off the record", and the reply to it: the user
                // asked that nothing of it be kept, so no episode is made, not even its tone
                // counts, and its words leave the transcript (capture::withhold).
                if withheld {
                    tracing::info!(message = m.id, "asked not to be remembered: words withheld");
                    if withhold::withhold(&tx, &secret, m.turn(), now)? {
                        words_removed += 1;
                    }
                    continue;
                }
                if !baselines.contains_key(&m.actor) {
                    let stored: Option<String> = tx
                        .query_row(
                            "SELECT baseline FROM speaker_baselines WHERE actor = ?1",
                            [&m.actor],
                            |r| r.get(0),
                        )
                        .optional()?;
                    let baseline = stored
                        .and_then(|s| serde_json::from_str(&s).ok())
                        .unwrap_or_default();
                    baselines.insert(m.actor.clone(), baseline);
                }
                let baseline = baselines.entry(m.actor.clone()).or_default();
                let tone = Tone::of(&m.text);
                let intensity = baseline.intensity(&tone);
                baseline.update(&tone);
                let mut seen_texts = std::collections::HashSet::new();
                let marked = restate::marked_as_repeat(&m.text);
                for ep in episodes {
                    if !worth_storing(m, ep.kind) {
                        continue;
                    }
                    // The same sentence pasted many times in one message is one memory.
                    if !seen_texts.insert(ep.text.trim().to_lowercase()) {
                        continue;
                    }
                    let mut salience = weigh(ep.kind, intensity);
                    if m.role == Role::User
                        && ep.kind != ActKind::Routine
                        && crate::capture::explicit_save(&m.text)
                    {
                        salience = Salience::clamped(
                            salience.get().max(crate::capture::EXPLICIT_SAVE_FLOOR),
                        );
                    }
                    let stability = stability_for(salience);
                    let shown = rules::shown_text(&ep);
                    // Said again: reinforce the stored episode and link this message to it.
                    if ep.kind != ActKind::Routine
                        && let Some(existing) =
                            restated.find(&m.actor, m.session_id, marked, &shown, &ep.participants)
                    {
                        restated.add(existing, &m.actor, m.session_id, &shown, &ep.participants);
                        restate::link(
                            &tx,
                            existing,
                            m.id,
                            (ep.span.start, ep.span.end),
                            salience.get(),
                            stability.days(),
                            &ep.participants,
                        )?;
                        continue;
                    }
                    let inserted = tx.execute(
                        // The id is chosen above every id ever used (migration 12), so a
                        // forgotten episode's id never comes back.
                        "INSERT OR IGNORE INTO episodes
                           (id, message_id, actor, role, kind, text, span_start, span_end, occurred_at,
                            event_expression, event_start, event_end, salience, stability_days, captured_at)
                         VALUES ((SELECT max(coalesce((SELECT max(id) FROM episodes), 0), coalesce((SELECT max_id FROM id_high_water WHERE tbl = 'episodes'), 0)) + 1),
                                 ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
                        params![
                            m.id,
                            m.actor,
                            m.role.as_str(),
                            ep.kind.as_str(),
                            shown,
                            ep.span.start as i64,
                            ep.span.end as i64,
                            fmt_utc(m.timestamp.to_utc()),
                            ep.when.as_ref().map(|w| w.expression.clone()),
                            ep.when.as_ref().map(|w| fmt_fixed(w.start)),
                            ep.when.as_ref().map(|w| fmt_fixed(w.end)),
                            salience.get(),
                            stability.days(),
                            captured_at,
                        ],
                    )?;
                    if inserted == 0 {
                        continue; // the same span was already stored: nothing twice
                    }
                    added += 1;
                    let episode_id = tx.last_insert_rowid();
                    if ep.kind != ActKind::Routine {
                        restated.add(episode_id, &m.actor, m.session_id, &shown, &ep.participants);
                    }
                    for name in &ep.participants {
                        tx.execute(
                            "INSERT OR IGNORE INTO episode_participants (episode_id, name) VALUES (?1, ?2)",
                            params![episode_id, name],
                        )?;
                    }
                }
            }
            for (actor, baseline) in &baselines {
                let json = serde_json::to_string(baseline)
                    .map_err(|e| Error::InvalidInput(format!("tone baseline: {e}")))?;
                tx.execute(
                    "INSERT INTO speaker_baselines (actor, baseline) VALUES (?1, ?2)
                     ON CONFLICT(actor) DO UPDATE SET baseline = excluded.baseline",
                    params![actor, json],
                )?;
            }
            tx.execute(
                "UPDATE capture_jobs SET messages_done = messages_done + ?2, episodes_added = episodes_added + ?3,
                        suspected_hallucinations = suspected_hallucinations + ?4 WHERE id = ?1",
                params![job_id, claimed_here as i64, added as i64, hallucinated as i64],
            )?;
            tx.commit()?;
            (added, claimed_here) = (0, 0);
            done += batch.len();
            progress(ImportProgress::Captured {
                done: done.min(total),
                total,
            });
        }
        // The withheld words were written to the write-ahead log when the messages were
        // stored: move the log into the database and truncate it, so they leave the files
        // (secure_delete has zeroed them in the database pages). Capture is committed, so a
        // failure here (another program reading the context) is logged, not returned.
        if words_removed > 0
            && let Err(e) = self.store.checkpoint()
        {
            tracing::warn!(error = %e, "withheld words may remain in the write-ahead log until the next checkpoint");
        }
        Ok(last_error.map(|e| {
            format!("the LLM failed for {fallbacks} windows, which the rules captured instead; last error: {e}")
        }))
    }

    /// The oldest `limit` messages not yet captured.
    fn pending_messages(&self, limit: usize) -> Result<Vec<PendingMessage>> {
        let mut stmt = self.store.conn().prepare_cached(
            "SELECT id, role, actor, text, sent_at, utc_offset_s, session_id FROM messages
             WHERE captured_at IS NULL ORDER BY sent_at, id LIMIT ?1",
        )?;
        let rows = stmt.query_map([limit as i64], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, i64>(5)?,
                r.get::<_, i64>(6)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, role, actor, text, sent_at, offset, session_id) = row?;
            let offset = FixedOffset::east_opt(offset as i32).ok_or_else(|| {
                Error::InvalidInput(format!("stored UTC offset {offset} s is out of range"))
            })?;
            out.push(PendingMessage {
                id,
                session_id,
                role: role.parse()?,
                actor,
                text,
                timestamp: parse_fixed(&sent_at)?.with_timezone(&offset),
            });
        }
        Ok(out)
    }

    /// Episodes per message: from the LLM when one is set and answers well, else from the
    /// rules; none for a message `withheld` marks (capture::withhold). Returns them with the
    /// count of suspected hallucinations dropped, and the LLM's error when the rules stood in
    /// for it.
    fn extract_batch(
        &self,
        batch: &[PendingMessage],
        withheld: &[bool],
    ) -> (Vec<Vec<Extracted>>, usize, Option<String>) {
        // A zone that cannot be read (a database error) leaves the messages' own offsets.
        let zone = crate::zone::stored(self.store.conn()).ok();
        let inputs: Vec<MessageInput<'_>> = batch
            .iter()
            .map(|m| MessageInput {
                role: m.role,
                text: &m.text,
                timestamp: m.timestamp,
                zone,
            })
            .collect();
        let by_rules = || {
            inputs
                .iter()
                .zip(withheld)
                .map(|(m, &w)| if w { Vec::new() } else { rules::extract(m) })
                .collect()
        };
        let Some(chat) = &self.llm else {
            return (by_rules(), 0, None);
        };
        // A message the user asked not to be kept, and the reply to it, never leave the
        // machine: the model sees a placeholder in their place (capture then stores nothing
        // of them either).
        let sent: Vec<MessageInput<'_>> = inputs
            .iter()
            .zip(withheld)
            .map(|(m, &w)| {
                if w {
                    MessageInput {
                        text: WITHHELD_FROM_THE_MODEL,
                        ..*m
                    }
                } else {
                    m.clone()
                }
            })
            .collect();
        match llm::extract_window(chat.as_ref(), &sent) {
            Ok(window) => {
                let mut per_message = vec![Vec::new(); batch.len()];
                for (i, ep) in window.episodes {
                    per_message[i].push(ep);
                }
                // What the user explicitly asked to be remembered is never lost to a model
                // that returned nothing for it: the rules capture it instead.
                for (input, found) in inputs.iter().zip(per_message.iter_mut()) {
                    if found.is_empty()
                        && input.role == Role::User
                        && crate::capture::explicit_save(input.text)
                    {
                        *found = rules::extract(input);
                    }
                }
                (per_message, window.suspected_hallucinations, None)
            }
            Err(e) => {
                tracing::warn!(error = %e, "LLM extraction failed; this window falls back to the rules");
                (by_rules(), 0, Some(e.to_string()))
            }
        }
    }
}

/// What the LLM is sent in place of a withheld message (capture::withhold): one the user
/// asked not to be kept ([`crate::capture::asks_not_to_keep`]) or the reply to it.
const WITHHELD_FROM_THE_MODEL: &str = "[withheld: the user asked that this message not be kept]";

/// Whether an episode becomes a memory. The AI assistant's own words are remembered only
/// for what it did (seed 004: its commitments, and its retractions, which carry the corrected
/// value); its observations and small talk are not memories of the user's life, and
/// storing them would feed recalled memories back in as new ones each time the assistant
/// repeats them (the self-ingestion loop). A named other person in an imported two-party
/// chat (a LoCoMo speaker) is not the assistant: their words stay memories. A system prompt
/// or a tool's output is no one's memory at all: a search result that reads "I live in
/// Atlantis" came back for "Where do I live?" in a fresh user's store. Such messages stay
/// stored as the conversation's record (export keeps them) and become no episode.
fn worth_storing(m: &PendingMessage, kind: crate::model::ActKind) -> bool {
    use crate::model::ActKind::{Commitment, Retraction};
    if matches!(m.role, Role::System | Role::Tool) {
        return false;
    }
    let is_the_assistant = m.role == Role::Assistant && m.actor == Role::Assistant.as_str();
    !is_the_assistant || matches!(kind, Commitment | Retraction)
}

/// A message waiting for capture.
#[derive(Debug)]
struct PendingMessage {
    id: i64,
    session_id: i64,
    role: Role,
    actor: String,
    text: String,
    timestamp: DateTime<FixedOffset>,
}

impl PendingMessage {
    fn turn(&self) -> Turn<'_> {
        Turn {
            id: self.id,
            session_id: self.session_id,
            role: self.role,
            text: &self.text,
            sent_at: self.timestamp.to_utc(),
        }
    }
}

const JOB_COLUMNS: &str = "id, status, reason, extractor, created_at, started_at, finished_at, \
    messages_total, messages_done, episodes_added, suspected_hallucinations, error";

fn job_from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<CaptureJob> {
    let time = |i: usize| -> rusqlite::Result<Option<DateTime<Utc>>> {
        let s: Option<String> = r.get(i)?;
        s.as_deref().map(parse_utc).transpose().map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, Box::new(e))
        })
    };
    Ok(CaptureJob {
        id: r.get(0)?,
        status: r.get(1)?,
        reason: r.get(2)?,
        extractor: r.get(3)?,
        created_at: time(4)?.unwrap_or_default(),
        started_at: time(5)?,
        finished_at: time(6)?,
        messages_total: r.get(7)?,
        messages_done: r.get(8)?,
        episodes_added: r.get(9)?,
        suspected_hallucinations: r.get(10)?,
        error: r.get(11)?,
        commands: Vec::new(),
    })
}
