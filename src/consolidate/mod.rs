//! Consolidation (seed 004's neocortex stage; seed 003's semantic, procedural and session
//! layers): the user's own episodes become **facts** on a confidence ladder with validity
//! intervals and provenance, explicit instructions become **procedures**, commitments become
//! **open items**, and each session gets an extractive **summary**. Nothing becomes a fact
//! that the user did not say outright (a hedge gives nothing, what the assistant says and what
//! the user reports about others are never the user's traits), and a new value of a
//! single-valued attribute supersedes the old one, which stays in history with its valid-to
//! time. When authority is unclear (a quoted statement, an older message arriving later), old
//! and new go to the review queue as a conflict instead of being resolved silently.
//!
//! [`Engine::consolidate`] is idempotent: each episode is read once (marked in
//! `consolidated_episodes`), and summaries are rebuilt only when their session gained episodes
//! or lost a quoted one.

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, Transaction, TransactionBehavior, params};
use serde::Serialize;

use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::model::{ActKind, EpisodeId, Role, SessionId};
use crate::store::{fmt_utc, parse_utc};

pub mod commands;
mod done;
pub mod facts;
#[rustfmt::skip]
mod lexicon;
mod ladder;
pub mod llm;
pub mod procedures;
mod review;
mod summary;
pub(crate) mod words;

pub use commands::{AppliedCommand, CommandKind};
pub use facts::Attribute;
pub use llm::LlmConsolidation;
pub use review::{ReviewItem, ReviewKind};
pub(crate) use summary::due_of_episode;
pub use summary::{OpenItem, SessionSummary};

/// Row id of a fact in its context's store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct FactId(pub i64);

/// How sure Minne is of a fact (seed 003's confidence ladder).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    /// Read between the lines or from quoted words: a candidate only, no effect on behaviour
    /// and never shown as the profile.
    Inferred,
    /// The user said it outright: applies in its scope; confirm before significant reuse.
    Stated,
    /// The user confirmed it.
    Confirmed,
}

impl Confidence {
    /// `inferred`, `stated` or `confirmed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Inferred => "inferred",
            Confidence::Stated => "stated",
            Confidence::Confirmed => "confirmed",
        }
    }

    fn parse(s: &str) -> Result<Self> {
        match s {
            "inferred" => Ok(Confidence::Inferred),
            "stated" => Ok(Confidence::Stated),
            "confirmed" => Ok(Confidence::Confirmed),
            other => Err(Error::InvalidInput(format!("unknown confidence `{other}`"))),
        }
    }
}

/// Where a fact stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FactStatus {
    /// Waiting in the review queue.
    Candidate,
    /// Current.
    Active,
    /// Replaced by a newer value; kept in history with its valid-to time.
    Superseded,
    /// The user rejected it.
    Rejected,
    /// The user's own words said it no longer holds ("I'm not allergic to peanuts anymore",
    /// "I stopped using Notion", "I left Nordhav"): ended at the time they said so, with
    /// `superseded_by` pointing at the retraction record that rests on those words. Never
    /// active, never in the profile or the session-start context; forgetting the retracting
    /// words makes it active again (see [`drop_unsupported_facts`]).
    Retracted,
}

impl FactStatus {
    /// `candidate`, `active`, `superseded`, `rejected` or `retracted`.
    pub fn as_str(self) -> &'static str {
        match self {
            FactStatus::Candidate => "candidate",
            FactStatus::Active => "active",
            FactStatus::Superseded => "superseded",
            FactStatus::Rejected => "rejected",
            FactStatus::Retracted => "retracted",
        }
    }

    fn parse(s: &str) -> Result<Self> {
        match s {
            "candidate" => Ok(FactStatus::Candidate),
            "active" => Ok(FactStatus::Active),
            "superseded" => Ok(FactStatus::Superseded),
            "rejected" => Ok(FactStatus::Rejected),
            "retracted" => Ok(FactStatus::Retracted),
            other => Err(Error::InvalidInput(format!(
                "unknown fact status `{other}`"
            ))),
        }
    }
}

/// An episode a fact or procedure rests on: the user's words and where they were said.
#[derive(Debug, Clone, Serialize)]
pub struct Source {
    /// The episode.
    pub episode_id: EpisodeId,
    /// The user's words, verbatim.
    pub quote: String,
    /// When they were said (UTC).
    pub said_at: DateTime<Utc>,
    /// The session they were said in.
    pub session_id: SessionId,
    /// The source message's id in its file, if it had one.
    pub message_external_id: Option<String>,
}

/// A fact with its provenance.
#[derive(Debug, Clone, Serialize)]
pub struct FactView {
    /// Its id.
    pub id: FactId,
    /// What it is about: `name`, `location`, …, `preference:<object>`.
    pub attribute: String,
    /// The value in the user's words.
    pub value: String,
    /// The fact as a short English phrase about the user ("lives in Tartu").
    pub text: String,
    /// Where it applies; `None` for the whole context.
    pub scope: Option<String>,
    /// Its rung on the ladder.
    pub confidence: Confidence,
    /// Where it stands.
    pub status: FactStatus,
    /// From when it holds (UTC): when the user said it.
    pub valid_from: DateTime<Utc>,
    /// Until when it held (UTC), once superseded or rejected.
    pub valid_to: Option<DateTime<Utc>>,
    /// The fact that replaced it.
    pub superseded_by: Option<FactId>,
    /// When Minne learned it (UTC): when consolidation first stored it.
    pub created_at: DateTime<Utc>,
    /// How many of the user's episodes say it (duplicates count here, not as new facts).
    pub support: usize,
    /// Those episodes, oldest first.
    pub sources: Vec<Source>,
}

/// A procedure: how to act for this user, from an explicit instruction.
#[derive(Debug, Clone, Serialize)]
pub struct ProcedureView {
    /// Its id.
    pub id: i64,
    /// The instruction, verbatim.
    pub instruction: String,
    /// Where it stands.
    pub status: FactStatus,
    /// Its rung on the ladder.
    pub confidence: Confidence,
    /// When Minne learned it (UTC): when consolidation first stored it.
    pub created_at: DateTime<Utc>,
    /// The episodes that gave it, oldest first.
    pub sources: Vec<Source>,
}

/// What the assistant may rely on about the user: active facts that were stated or
/// confirmed (never inferred ones), active procedures and open items.
#[derive(Debug, Clone, Serialize)]
pub struct Profile {
    /// Active facts, stated or confirmed, by attribute.
    pub facts: Vec<FactView>,
    /// Active procedures.
    pub procedures: Vec<ProcedureView>,
    /// Open items, soonest due first.
    pub open_items: Vec<OpenItem>,
}

/// What one consolidation run did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ConsolidationReport {
    /// Episodes read for the first time.
    pub episodes_read: usize,
    /// Facts added as active.
    pub facts_added: usize,
    /// Existing facts that gained a supporting episode.
    pub facts_supported: usize,
    /// Facts superseded by a newer value.
    pub facts_superseded: usize,
    /// Candidates put in the review queue.
    pub candidates: usize,
    /// Conflicts put in the review queue.
    pub conflicts: usize,
    /// Procedures added.
    pub procedures_added: usize,
    /// Repeated requests put in the review queue as procedure requests.
    pub procedure_requests: usize,
    /// Open items added.
    pub open_items_added: usize,
    /// Open items marked done because the user reported them done.
    pub open_items_done: usize,
    /// Open items stored with their message's time as due (before due times came from the
    /// event time) given the due time their words name.
    pub open_items_redated: usize,
    /// Open items the rules derived, untouched by the user, that the current rules no longer
    /// derive from their source episode (stored by an older build): withdrawn, no longer
    /// listed nor in the session-start context (see `summary::withdraw_stale_open_items`).
    pub open_items_withdrawn: usize,
    /// Session summaries written or rewritten.
    pub summaries_written: usize,
    /// Facts and procedures removed because no episode supports them any more.
    pub unsupported_dropped: usize,
    /// Commands in the user's words acted on in this run ("remember that …", "forget what I
    /// said about …", "always …", "actually my name is …"), each with what it did.
    pub commands: Vec<AppliedCommand>,
    /// What the optional LLM did (facts read and verified, summaries written or rejected,
    /// errors the rules stood in for); `None` when no LLM is configured.
    pub llm: Option<LlmConsolidation>,
}

/// An episode as consolidation reads it.
#[derive(Debug)]
pub(crate) struct EpisodeRow {
    pub id: i64,
    pub message_id: i64,
    pub role: Role,
    pub kind: ActKind,
    pub text: String,
    pub occurred_at: String,
    /// Whether the user was talking to the assistant (or only to Minne) when saying it: false
    /// in a conversation with another named person (an imported two-person chat), where
    /// "remember …", "forget what I said …" and "always …" are said to that person, not to
    /// Minne, and must not act on the memory.
    pub to_minne: bool,
}

impl Engine {
    /// Consolidates every episode not yet read: facts, procedures and open items from it,
    /// then session summaries where a session changed. One transaction; idempotent (a second
    /// run changes nothing). Runs after capture (so a correction applies at once), nightly and
    /// on demand. Errors: [`Error::ModeForbids`] when the context is paused.
    pub fn consolidate(&mut self) -> Result<ConsolidationReport> {
        self.require_recall()?;
        // Nightly work includes retention: routine episodes past their period go first.
        self.purge_expired_routine()?;
        // The optional LLM is asked before the write transaction, so capture never waits on it.
        let mut llm_work = llm::prepare(self.store.conn(), self.llm.as_deref())?;
        let now = fmt_utc(self.clock.now());
        let tx = self
            .store
            .conn_mut()
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut report = ConsolidationReport {
            unsupported_dropped: drop_unsupported_facts(&tx)?,
            open_items_redated: summary::redate_open_items(&tx)?,
            open_items_withdrawn: summary::withdraw_stale_open_items(&tx, &now)?,
            ..Default::default()
        };
        let pending: Vec<EpisodeRow> = {
            let mut stmt = tx.prepare(
                "SELECT e.id, e.role, e.kind, e.text, e.occurred_at, e.message_id,
                        NOT EXISTS (SELECT 1 FROM messages m JOIN messages o ON o.session_id = m.session_id
                                    WHERE m.id = e.message_id AND o.role = 'assistant'
                                      AND o.actor <> 'assistant')
                 FROM episodes e
                 WHERE NOT EXISTS (SELECT 1 FROM consolidated_episodes c WHERE c.episode_id = e.id)
                 ORDER BY e.occurred_at, e.id",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get::<_, i64>(5)?,
                    r.get::<_, bool>(6)?,
                ))
            })?;
            let mut out = Vec::new();
            for row in rows {
                let (id, role, kind, text, occurred_at, message_id, to_minne) = row?;
                out.push(EpisodeRow {
                    id,
                    message_id,
                    role: role.parse()?,
                    kind: kind.parse()?,
                    text,
                    occurred_at,
                    to_minne,
                });
            }
            out
        };
        let mut forgets: Vec<(&EpisodeRow, Vec<commands::ForgetRequest>)> = Vec::new();
        for ep in &pending {
            // Attribution: facts and procedures rest on the user's own words only; the
            // assistant's echo of them adds no support (seed 003, failure 2).
            if ep.role == Role::User {
                // "Forget what I said about …" acts after this transaction (it needs recall)
                // and removes the command too; left unmarked, it is retried if that fails.
                let topics = if ep.to_minne {
                    commands::forget_requests(&ep.text)
                } else {
                    Vec::new()
                };
                if !topics.is_empty() {
                    forgets.push((ep, topics));
                    continue;
                }
                for claim in facts::extract(&ep.text) {
                    let before = (report.facts_added, report.facts_superseded);
                    ladder::apply(&tx, &claim, ep, &now, &mut report)?;
                    if claim.correction
                        && !claim.quoted
                        && before != (report.facts_added, report.facts_superseded)
                    {
                        report.commands.push(AppliedCommand {
                            kind: CommandKind::Correction,
                            episode_id: EpisodeId(ep.id),
                            outcome: format!(
                                "corrected: {}",
                                claim.attribute.describe(&claim.value)
                            ),
                            stored: 1,
                            removed: 0,
                        });
                    }
                }
                llm::apply_facts(&tx, ep, &mut llm_work, &now, &mut report)?;
                // "Remember that …" (seed 003: user commands act at once).
                let remembered = if ep.to_minne {
                    commands::remembered(&ep.text)
                } else {
                    Vec::new()
                };
                for content in remembered {
                    let claim = facts::Claim {
                        attribute: Attribute::Statement,
                        value: content,
                        correction: false,
                        quoted: false,
                        replaces: None,
                        ends: false,
                    };
                    let before = report.facts_added;
                    ladder::apply(&tx, &claim, ep, &now, &mut report)?;
                    let new = report.facts_added > before;
                    report.commands.push(AppliedCommand {
                        kind: CommandKind::Remember,
                        episode_id: EpisodeId(ep.id),
                        outcome: if new {
                            format!("stored: {}", claim.value)
                        } else {
                            format!("already known, support added: {}", claim.value)
                        },
                        stored: 1,
                        removed: 0,
                    });
                }
                let (mut requests, mut instructions) = if ep.to_minne {
                    (
                        procedures::requests(&ep.text),
                        procedures::extract(&ep.text),
                    )
                } else {
                    (Vec::new(), Vec::new())
                };
                // "My colleague wrote:" on the line before: the instruction is passed on.
                if !(requests.is_empty() && instructions.is_empty()) {
                    let lead: String = tx.query_row(
                        "SELECT CAST(substr(CAST(m.text AS BLOB), 1, e.span_start) AS TEXT)
                         FROM episodes e JOIN messages m ON m.id = e.message_id WHERE e.id = ?1",
                        [ep.id],
                        |r| r.get(0),
                    )?;
                    if procedures::lead_passes_on(&lead) {
                        requests.clear();
                        instructions.clear();
                    }
                }
                for request in requests {
                    ladder::add_pattern(&tx, &request, ep, &now, &mut report)?;
                }
                for instruction in instructions {
                    let before = report.procedures_added;
                    ladder::add_procedure(&tx, &instruction, ep, &now, &mut report)?;
                    report.commands.push(AppliedCommand {
                        kind: CommandKind::Always,
                        episode_id: EpisodeId(ep.id),
                        outcome: if report.procedures_added > before {
                            format!("procedure stored: {instruction}")
                        } else {
                            format!("procedure already held, support added: {instruction}")
                        },
                        stored: 1,
                        removed: 0,
                    });
                }
                // A report of something done closes the open items it matches; it is never
                // a new commitment itself, whatever act kind capture gave it.
                let closed = summary::close_reported(&tx, &ep.text, &ep.occurred_at, &now)?;
                report.open_items_done += closed;
                // A commitment is an open item unless its words only keep the talk going or
                // foretell a feeling, or the time they name is already over.
                let due = if ep.kind == ActKind::Commitment && closed == 0 {
                    let (due_start, due_end) = summary::due_of_episode(&tx, ep.id)?;
                    summary::is_open_item(&ep.text, &ep.occurred_at, due_end.as_deref())?
                        .then_some((due_start, due_end))
                } else {
                    None
                };
                if let Some((due_start, due_end)) = due {
                    report.open_items_added += tx.execute(
                        "INSERT OR IGNORE INTO open_items (episode_id, actor, due_start, due_end, status, created_at)
                         SELECT id, actor, ?3, ?4, 'open', ?2 FROM episodes WHERE id = ?1",
                        params![ep.id, now, due_start, due_end],
                    )?;
                }
            }
            tx.execute(
                "INSERT OR IGNORE INTO consolidated_episodes (episode_id, at) VALUES (?1, ?2)",
                params![ep.id, now],
            )?;
        }
        report.episodes_read = pending.len();
        report.summaries_written = summary::rebuild_changed_with(&tx, &now, &llm_work.drafts)?;
        report.llm = llm_work.report.take();
        tx.commit()?;
        if report.unsupported_dropped > 0 {
            // The removed rows' pages are zeroed in the WAL; move them into the database
            // file so the old words leave it too (DESIGN principle 3).
            self.store.checkpoint()?;
        }
        for (ep, topics) in forgets {
            for commands::ForgetRequest { topic, statement } in topics {
                let (receipt, held_back, with_command) =
                    self.forget_said_about(ep, &topic, statement)?;
                report.unsupported_dropped += receipt.facts;
                let outcome = if held_back > 0 {
                    format!(
                        "asked to forget {held_back} memories about “{topic}”: more than \
                         {FORGET_SAID_MAX} are never forgotten unasked, so none went; review \
                         them with `minne forget --topic \"{topic}\"`"
                    )
                } else {
                    forget_outcome(&topic, &receipt, with_command)
                };
                report.commands.push(AppliedCommand {
                    kind: CommandKind::Forget,
                    episode_id: EpisodeId(ep.id),
                    outcome,
                    stored: 0,
                    removed: receipt.episodes,
                });
            }
        }
        self.record_consolidation_run()?;
        Ok(report)
    }

    /// "Forget what I said about `topic`", said in episode `ep`: forgets the episodes about
    /// the topic said up to then in this context (the command's own message left out of the
    /// search), then the command's episode itself, so the command is not kept verbatim
    /// (issue 6). A `statement` ("forget that my favourite colour is green") takes only the
    /// episodes whose own words hold every content word of it. One forget, one receipt, with
    /// tombstones as for any forget. When more than
    /// [`FORGET_SAID_MAX`] episodes match, only the command's own episode goes and the count
    /// comes back as the second value (otherwise 0): words in a conversation (or handed in
    /// by an assistant over MCP, which a prompt injection can steer) never wipe a store.
    fn forget_said_about(
        &mut self,
        ep: &EpisodeRow,
        topic: &str,
        statement: bool,
    ) -> Result<(crate::forget::ForgetReceipt, usize, bool)> {
        let said_at = parse_utc(&ep.occurred_at)?;
        // Said in an imported conversation, the command was said to that other assistant
        // about what that conversation held: it acts on that conversation's memories, never
        // on memories from elsewhere (a shared or crafted export must not wipe them unasked,
        // and two exports share a file name: every ChatGPT and Claude export is
        // `conversations.json`; the second and third attacks on issue 30, findings 23 and
        // 18). Said live, it acts on the whole context.
        let (session, source): (i64, String) = self.store.conn().query_row(
            "SELECT s.id, s.source FROM messages m JOIN sessions s ON s.id = m.session_id WHERE m.id = ?1",
            [ep.message_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        let within = (!crate::import::LIVE_SOURCES.contains(&source.as_str()))
            .then_some(crate::model::SessionId(session));
        let holding_all = if statement {
            Some(self.episodes_with_every_word_of(topic)?)
        } else {
            None
        };
        // Only sure matches: said in conversation, the forget is not confirmed item by item.
        let mut ids: Vec<EpisodeId> = self
            .topic_split(topic, &[crate::model::MessageId(ep.message_id)])?
            .0
            .into_iter()
            .filter(|h| h.episode.occurred_at <= said_at)
            .filter(|h| within.is_none_or(|s| s == h.episode.session_id))
            .filter(|h| {
                holding_all
                    .as_ref()
                    .is_none_or(|s| s.contains(&h.episode.id.0))
            })
            .map(|h| h.episode.id)
            .collect();
        let held_back = if ids.len() > FORGET_SAID_MAX {
            std::mem::take(&mut ids).len()
        } else {
            0
        };
        let still_there: bool = self
            .store
            .conn()
            .query_row("SELECT 1 FROM episodes WHERE id = ?1", [ep.id], |_| Ok(()))
            .optional()?
            .is_some();
        if still_there {
            ids.push(EpisodeId(ep.id));
        }
        let receipt = self.forget_resolved(
            &crate::forget::ForgetScope::Topic {
                query: topic.to_string(),
            },
            &ids,
        )?;
        Ok((receipt, held_back, still_there))
    }

    /// Facts newest first: active and candidate ones, or with `all` also superseded,
    /// rejected and retracted ones, each with its status, confidence, validity and sources.
    pub fn facts(&self, all: bool) -> Result<Vec<FactView>> {
        let filter = if all {
            "1 = 1"
        } else {
            "status IN ('active', 'candidate')"
        };
        load_facts(
            self.store.conn(),
            &format!("{filter} ORDER BY attribute, valid_from DESC, id DESC"),
            [],
        )
    }

    /// One fact by id. Errors: [`Error::NotFound`].
    pub fn fact(&self, id: FactId) -> Result<FactView> {
        load_facts(self.store.conn(), "id = ?1", [id.0])?
            .pop()
            .ok_or(Error::NotFound {
                kind: "fact",
                id: id.0,
            })
    }

    /// The profile: active facts the user stated or confirmed (inferred ones never show),
    /// active procedures and open items. Errors: [`Error::ModeForbids`] when paused.
    pub fn profile(&self) -> Result<Profile> {
        self.require_recall()?;
        let conn = self.store.conn();
        Ok(Profile {
            facts: load_facts(
                conn,
                "status = 'active' AND confidence IN ('stated', 'confirmed') ORDER BY attribute, valid_from, id",
                [],
            )?,
            procedures: load_procedures(conn, "status = 'active' ORDER BY id")?,
            open_items: summary::open_items(conn, true)?,
        })
    }

    /// Procedures: active ones, or with `all` every status.
    pub fn procedures(&self, all: bool) -> Result<Vec<ProcedureView>> {
        let filter = if all {
            "1 = 1 ORDER BY id"
        } else {
            "status = 'active' ORDER BY id"
        };
        load_procedures(self.store.conn(), filter)
    }
}

/// The `context_settings` key holding when consolidation last ran (UTC, RFC 3339).
const LAST_RUN_KEY: &str = "consolidated_at";

/// How old the last consolidation may be before [`Engine::consolidate_if_due`] runs it again:
/// 24 hours, the nightly run of seed 004's sleep stage.
pub const NIGHTLY_INTERVAL_HOURS: i64 = 24;

/// The most memories a "forget what I said about …" said in conversation forgets at once:
/// 20. A topic that matches more is held back whole and reported, for the user to review
/// with `minne forget --topic` (a fresh user's "Forget what I said about city." handed in
/// over MCP had removed 300 memories unasked).
pub const FORGET_SAID_MAX: usize = 20;

impl Engine {
    /// When consolidation last ran in this context (UTC), if ever.
    pub fn last_consolidation(&self) -> Result<Option<DateTime<Utc>>> {
        let stored: Option<String> = self
            .store
            .conn()
            .query_row(
                "SELECT value FROM context_settings WHERE key = ?1",
                [LAST_RUN_KEY],
                |r| r.get(0),
            )
            .optional()?;
        stored.as_deref().map(parse_utc).transpose()
    }

    /// The nightly run: consolidates when the last run is [`NIGHTLY_INTERVAL_HOURS`] or more
    /// old by the engine's clock (or never happened), else does nothing. [`Engine::open`] calls
    /// it, so a context opened on a new day is consolidated even if no capture ran; a long
    /// running front end (the app, the MCP server) may call it on a timer. A paused context is
    /// left alone. Returns the run's report, or `None` when none was due.
    pub fn consolidate_if_due(&mut self) -> Result<Option<ConsolidationReport>> {
        if self.mode()? == crate::mode::Mode::Paused {
            return Ok(None);
        }
        let due = match self.last_consolidation()? {
            Some(last) => {
                self.clock.now() - last >= chrono::Duration::hours(NIGHTLY_INTERVAL_HOURS)
            }
            None => true,
        };
        if !due {
            return Ok(None);
        }
        self.consolidate().map(Some)
    }

    fn record_consolidation_run(&self) -> Result<()> {
        self.store.conn().execute(
            "INSERT INTO context_settings (key, value) VALUES (?1, ?2)
             ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            params![LAST_RUN_KEY, fmt_utc(self.clock.now())],
        )?;
        Ok(())
    }
}

/// Removes facts and procedures no episode supports any more (their last source was
/// forgotten), so nothing derived outlives what it came from (DESIGN principle 3). An active
/// fact that goes gives way to the value it had superseded, if that one still has support.
/// Call it inside the forget transaction, after the episodes are deleted. Returns the rows
/// removed.
pub(crate) fn drop_unsupported_facts(tx: &Transaction<'_>) -> Result<usize> {
    let unsupported: Vec<(i64, String)> = {
        let mut stmt = tx.prepare(
            "SELECT id, status FROM facts f WHERE NOT EXISTS (SELECT 1 FROM fact_sources s WHERE s.fact_id = f.id)",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    // What a removed fact ended is restored from the evidence that is left: the facts it
    // superseded become current again when nothing newer ended it (an active fact, or a
    // user's retraction record, which ends itself), or point to what did end it.
    for (id, _status) in &unsupported {
        let newer: Option<i64> =
            tx.query_row("SELECT superseded_by FROM facts WHERE id = ?1", [id], |r| {
                r.get(0)
            })?;
        match newer {
            None => tx.execute(
                "UPDATE facts SET status = 'active', valid_to = NULL, superseded_by = NULL
                 WHERE superseded_by = ?1 AND status IN ('superseded', 'retracted')
                   AND EXISTS (SELECT 1 FROM fact_sources s WHERE s.fact_id = facts.id)",
                [id],
            )?,
            Some(newer) => tx.execute(
                "UPDATE facts SET superseded_by = ?2 WHERE superseded_by = ?1",
                [id, &newer],
            )?,
        };
    }
    let mut removed = 0;
    for (id, _) in &unsupported {
        removed += tx.execute("DELETE FROM facts WHERE id = ?1", [id])?;
    }
    removed += tx.execute(
        "DELETE FROM procedures WHERE NOT EXISTS (SELECT 1 FROM procedure_sources s WHERE s.procedure_id = procedures.id)",
        [],
    )?;
    Ok(removed)
}

/// How many source episodes each fact rests on now: take it before a forget or an edit
/// deletes episodes or links, and hand it to [`drop_values_no_source_says`] after.
pub(crate) fn fact_support(tx: &Transaction<'_>) -> Result<std::collections::HashMap<i64, i64>> {
    let mut stmt = tx.prepare("SELECT fact_id, COUNT(*) FROM fact_sources GROUP BY fact_id")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The user's line for a "forget what I said about `topic`" that went: the memories about it
/// (removed whole, or cut to the rest of what they said) and whether the command's own
/// episode went too (`with_command`; it is not one of the memories counted). A tester's
/// receipt said "forgot 0 memories" when the one memory was cut rather than removed.
fn forget_outcome(
    topic: &str,
    receipt: &crate::forget::ForgetReceipt,
    with_command: bool,
) -> String {
    let whole = receipt.episodes.saturating_sub(usize::from(with_command));
    let n = whole + receipt.episodes_trimmed;
    let mut parts = Vec::new();
    if whole > 0 {
        parts.push(format!("{whole} removed"));
    }
    if receipt.episodes_trimmed > 0 {
        parts.push(format!(
            "{} cut to the rest of what was said",
            receipt.episodes_trimmed
        ));
    }
    format!(
        "forgot {n} {} about “{topic}”{}{}",
        if n == 1 { "memory" } else { "memories" },
        if parts.is_empty() {
            String::new()
        } else {
            format!(" ({})", parts.join(", "))
        },
        if with_command {
            ", and the command itself"
        } else {
            ""
        }
    )
}

/// Whether the words of one episode say `value` of `attribute` (stored lower-cased as
/// `norm`) in full: the rules read that claim from them, or the value stands in them as
/// written (an LLM's fact quotes its source). "Jeg hedder Erik" says the name "Erik", and
/// only in part the held "Erik Lindqvist" ([`ladder::apply`] links such a source to the
/// longer name).
fn says_in_full(text: &str, attribute: &str, norm: &str) -> bool {
    rules_say(text, attribute, norm) || text.to_lowercase().contains(norm)
}

/// Whether the rules read from `text` the value `norm` (lower-cased) of `attribute`, as a
/// value that holds (not one said to have ended).
pub(crate) fn rules_say(text: &str, attribute: &str, norm: &str) -> bool {
    facts::extract(text)
        .iter()
        .any(|c| !c.ends && c.attribute.key() == attribute && c.value.trim().to_lowercase() == norm)
}

/// After a forget or an edit removed some of a fact's sources (`before`: from
/// [`fact_support`]), a fact whose value none of the sources left says in full came from
/// what went: "Jag heter Erik Lindqvist" forgotten leaves "Jeg hedder Erik" holding up the
/// name "Erik Lindqvist", a surname the user took back (a fresh user found it in the profile
/// and in the file's bytes). Such a fact loses its links, so [`drop_unsupported_facts`]
/// removes it and puts back what it had superseded, and the episodes left are marked unread,
/// so the next [`Engine::consolidate`] builds from their own words what they say. Retraction
/// records are left alone: their value is not the user's words. Returns the episodes marked
/// unread (0: nothing to rebuild).
pub(crate) fn drop_values_no_source_says(
    tx: &Transaction<'_>,
    before: &std::collections::HashMap<i64, i64>,
) -> Result<usize> {
    let after = fact_support(tx)?;
    let mut reread = 0;
    for (fact, left) in &after {
        if before.get(fact).is_none_or(|had| had <= left) {
            continue;
        }
        let (attribute, norm): (String, String) = tx.query_row(
            "SELECT attribute, norm FROM facts WHERE id = ?1",
            [fact],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        if norm.starts_with(ladder::RETRACTED_BY_USER) {
            continue;
        }
        let sources: Vec<(i64, String)> = tx
            .prepare(
                "SELECT e.id, e.text FROM fact_sources s JOIN episodes e ON e.id = s.episode_id
                 WHERE s.fact_id = ?1",
            )?
            .query_map([fact], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        if sources
            .iter()
            .any(|(_, text)| says_in_full(text, &attribute, &norm))
        {
            continue;
        }
        tx.execute("DELETE FROM fact_sources WHERE fact_id = ?1", [fact])?;
        for (episode, _) in &sources {
            reread += tx.execute(
                "DELETE FROM consolidated_episodes WHERE episode_id = ?1",
                [episode],
            )?;
        }
    }
    Ok(reread)
}

/// Rebuilds the session summaries whose session changed (a quoted episode was forgotten, or
/// new episodes came): call it inside the forget transaction. Returns summaries written.
pub(crate) fn rebuild_summaries(tx: &Transaction<'_>, now: &str) -> Result<usize> {
    summary::rebuild_changed(tx, now)
}

const SOURCE_SQL: &str = "SELECT e.id, e.text, e.occurred_at, m.session_id, m.external_id
     FROM episodes e JOIN messages m ON m.id = e.message_id";

fn sources(conn: &rusqlite::Connection, link: &str, owner: &str, id: i64) -> Result<Vec<Source>> {
    let sql = format!(
        "{SOURCE_SQL} JOIN {link} l ON l.episode_id = e.id WHERE l.{owner} = ?1 ORDER BY e.occurred_at, e.id"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([id], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, i64>(3)?,
            r.get(4)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (episode, quote, said_at, session, external) = row?;
        out.push(Source {
            episode_id: EpisodeId(episode),
            quote,
            said_at: parse_utc(&said_at)?,
            session_id: SessionId(session),
            message_external_id: external,
        });
    }
    Ok(out)
}

pub(crate) fn load_facts<P: rusqlite::Params>(
    conn: &rusqlite::Connection,
    filter: &str,
    args: P,
) -> Result<Vec<FactView>> {
    let sql = format!(
        "SELECT id, attribute, value, scope, confidence, status, valid_from, valid_to, superseded_by,
                created_at
         FROM facts WHERE {filter}"
    );
    let mut stmt = conn.prepare(&sql)?;
    type Row = (
        i64,
        String,
        String,
        Option<String>,
        String,
        String,
        String,
        Option<String>,
        Option<i64>,
        String,
    );
    let rows: Vec<Row> = stmt
        .query_map(args, |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
                r.get(7)?,
                r.get(8)?,
                r.get(9)?,
            ))
        })?
        .collect::<rusqlite::Result<_>>()?;
    let mut out = Vec::with_capacity(rows.len());
    for (
        id,
        attribute,
        value,
        scope,
        confidence,
        status,
        valid_from,
        valid_to,
        superseded_by,
        created_at,
    ) in rows
    {
        let sources = sources(conn, "fact_sources", "fact_id", id)?;
        let text = Attribute::parse(&attribute)
            .map_or_else(|| format!("{attribute}: {value}"), |a| a.describe(&value));
        out.push(FactView {
            id: FactId(id),
            attribute,
            value,
            text,
            scope,
            confidence: Confidence::parse(&confidence)?,
            status: FactStatus::parse(&status)?,
            valid_from: parse_utc(&valid_from)?,
            valid_to: valid_to.as_deref().map(parse_utc).transpose()?,
            superseded_by: superseded_by.map(FactId),
            created_at: parse_utc(&created_at)?,
            support: sources.len(),
            sources,
        });
    }
    Ok(out)
}

pub(crate) fn load_procedures(
    conn: &rusqlite::Connection,
    filter: &str,
) -> Result<Vec<ProcedureView>> {
    let sql = format!(
        "SELECT id, instruction, status, confidence, created_at FROM procedures WHERE {filter}"
    );
    let mut stmt = conn.prepare(&sql)?;
    let rows: Vec<(i64, String, String, String, String)> = stmt
        .query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })?
        .collect::<rusqlite::Result<_>>()?;
    let mut out = Vec::with_capacity(rows.len());
    for (id, instruction, status, confidence, created_at) in rows {
        out.push(ProcedureView {
            id,
            instruction,
            status: FactStatus::parse(&status)?,
            confidence: Confidence::parse(&confidence)?,
            created_at: parse_utc(&created_at)?,
            sources: sources(conn, "procedure_sources", "procedure_id", id)?,
        });
    }
    Ok(out)
}

/// The id of the active fact of a single-valued attribute, with its `norm` and valid-from.
pub(crate) fn active_fact(
    tx: &Transaction<'_>,
    attribute: &str,
) -> Result<Option<(i64, String, String)>> {
    Ok(tx
        .query_row(
            "SELECT id, norm, valid_from FROM facts WHERE attribute = ?1 AND status = 'active'
             ORDER BY valid_from DESC, id DESC LIMIT 1",
            [attribute],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?)
}
