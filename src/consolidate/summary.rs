//! Session summaries and open items (seed 003's session layer: topic, summary, facts learned,
//! open items). Summaries are extractive by default: the session's highest-salience non-routine
//! episodes, quoted verbatim in the order they were said, so nothing is invented. With an LLM
//! configured a summary may be abstractive instead ([`super::llm`]), kept only when every quote
//! it cites is found in the session's messages; the record's `method` says which.

use std::collections::HashMap;

use chrono::{DateTime, FixedOffset, Utc};
use rusqlite::{Connection, Transaction, params};
use serde::Serialize;

use super::{FactView, load_facts};
use crate::engine::Engine;
use crate::error::Result;
use crate::model::{EpisodeId, SessionId};
use crate::store::{fmt_fixed, parse_fixed, parse_utc};

/// Episodes quoted per summary.
const SUMMARY_EPISODES: usize = 3;

/// The longest topic line, in characters.
const TOPIC_CHARS: usize = 80;

/// A session's summary record.
#[derive(Debug, Clone, Serialize)]
pub struct SessionSummary {
    /// The session.
    pub session_id: SessionId,
    /// Its key (`transcript:chat.json:s1`).
    pub session_external_id: String,
    /// When it started (UTC).
    pub started: DateTime<Utc>,
    /// When it ended (UTC).
    pub ended: DateTime<Utc>,
    /// The most salient episode's opening words.
    pub topic: String,
    /// The most salient episodes, verbatim, in the order they were said.
    pub summary: String,
    /// The episodes quoted (for an abstractive summary: every episode of the messages the LLM
    /// read, so forgetting any of them removes the summary).
    pub episode_ids: Vec<EpisodeId>,
    /// How it was made: `extractive`, `abstractive (llm:<model>)`, or `extractive (llm …)`
    /// when the LLM's summary was rejected (`llm quote not found`) or the LLM failed.
    pub method: String,
    /// Facts that rest on this session's episodes.
    pub facts_learned: Vec<FactView>,
    /// Open items from this session.
    pub open_items: Vec<OpenItem>,
}

/// A commitment or follow-up with its due time.
#[derive(Debug, Clone, Serialize)]
pub struct OpenItem {
    /// Its id.
    pub id: i64,
    /// The commitment episode.
    pub episode_id: EpisodeId,
    /// Who committed.
    pub actor: String,
    /// The words, verbatim.
    pub text: String,
    /// When it is due: the last second of the time the words name, in the writer's offset
    /// ("by Friday" is due that Friday at 23:59:59; see [`due_of`]); `None` when they name
    /// none.
    pub due_start: Option<DateTime<FixedOffset>>,
    /// End of the time the words name (exclusive).
    pub due_end: Option<DateTime<FixedOffset>>,
    /// `open` or `done`.
    pub status: String,
}

impl Engine {
    /// The latest `limit` session summaries, newest first.
    pub fn session_summaries(&self, limit: usize) -> Result<Vec<SessionSummary>> {
        let conn = self.store.conn();
        let mut stmt = conn.prepare(
            "SELECT s.id, s.external_id, s.started_at, s.ended_at, x.topic, x.summary, x.episode_ids,
                    x.method
             FROM session_summaries x JOIN sessions s ON s.id = x.session_id
             ORDER BY s.ended_at DESC, s.id DESC LIMIT ?1",
        )?;
        type Row = (i64, String, String, String, String, String, String, String);
        let rows: Vec<Row> = stmt
            .query_map([limit as i64], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                ))
            })?
            .collect::<rusqlite::Result<_>>()?;
        let mut out = Vec::with_capacity(rows.len());
        for (id, external, started, ended, topic, summary, ids, method) in rows {
            let in_session = "IN (SELECT e.id FROM episodes e JOIN messages m ON m.id = e.message_id WHERE m.session_id = ?1)";
            out.push(SessionSummary {
                session_id: SessionId(id),
                session_external_id: external,
                started: parse_utc(&started)?,
                ended: parse_utc(&ended)?,
                topic,
                summary,
                episode_ids: ids.split(',').filter_map(|s| s.parse().ok()).map(EpisodeId).collect(),
                method,
                facts_learned: load_facts(
                    conn,
                    &format!("status = 'active' AND id IN (SELECT fact_id FROM fact_sources WHERE episode_id {in_session})"),
                    [id],
                )?,
                open_items: load_open_items(conn, &format!("o.episode_id {in_session}"), [id])?,
            });
        }
        Ok(out)
    }

    /// Open items, soonest due first (undated last); with `open_only` false, done ones too.
    pub fn open_items(&self, open_only: bool) -> Result<Vec<OpenItem>> {
        open_items(self.store.conn(), open_only)
    }

    /// Marks an open item done (or open again). Errors: [`crate::Error::NotFound`].
    pub fn set_open_item_done(&mut self, id: i64, done: bool) -> Result<()> {
        let now = crate::store::fmt_utc(self.clock.now());
        let changed = self.store.conn().execute(
            "UPDATE open_items SET status = ?2, done_at = ?3 WHERE id = ?1",
            params![id, if done { "done" } else { "open" }, done.then_some(now)],
        )?;
        if changed == 0 {
            return Err(crate::Error::NotFound {
                kind: "open item",
                id,
            });
        }
        Ok(())
    }
}

/// When a commitment is due, from its episode's event time (`start`, `end`: inclusive start and
/// exclusive end in the writer's UTC offset, as capture resolves them): `(due_start, due_end)`
/// where `due_start` is the last second of that time. A deadline ("by Friday") resolves to the
/// span from the message time to the end of Friday, so it is due Friday 23:59:59, never at the
/// message time; an instant ("Friday at 9") is due at itself; no event time, no due time.
pub(crate) fn due_of(
    start: Option<DateTime<FixedOffset>>,
    end: Option<DateTime<FixedOffset>>,
) -> (Option<DateTime<FixedOffset>>, Option<DateTime<FixedOffset>>) {
    match (start, end) {
        (Some(s), Some(e)) if e > s => (Some((e - chrono::Duration::seconds(1)).max(s)), Some(e)),
        (Some(s), _) => (Some(s), Some(s)),
        (None, _) => (None, None),
    }
}

/// [`due_of`] episode `id`'s stored event time, formatted for the `open_items` columns.
/// Errors: an unknown episode, or a stored time that does not parse.
pub(crate) fn due_of_episode(
    conn: &Connection,
    id: i64,
) -> Result<(Option<String>, Option<String>)> {
    let (start, end): (Option<String>, Option<String>) = conn.query_row(
        "SELECT event_start, event_end FROM episodes WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let (due_start, due_end) = due_of(
        start.as_deref().map(parse_fixed).transpose()?,
        end.as_deref().map(parse_fixed).transpose()?,
    );
    Ok((due_start.map(fmt_fixed), due_end.map(fmt_fixed)))
}

/// Gives the open items stored before due times came from the event time their due time:
/// an item whose `due_start` is its episode's message time, where [`due_of_episode`] now
/// reads another from the episode's event time ("by Friday" said on Monday was stored due
/// Monday, the message time; it is due Friday 23:59:59). Items whose words name no time, or
/// whose due already differs from the message time, are left alone, so a second run changes
/// nothing. Returns how many were changed. Errors: database errors, a stored time that does
/// not parse.
pub(crate) fn redate_open_items(tx: &Transaction<'_>) -> Result<usize> {
    let stored: Vec<(i64, i64, String, String)> = {
        let mut stmt = tx.prepare(
            "SELECT o.id, o.episode_id, o.due_start, e.occurred_at
             FROM open_items o JOIN episodes e ON e.id = o.episode_id
             WHERE o.due_start IS NOT NULL",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    let mut changed = 0;
    for (id, episode, due_start, said_at) in stored {
        if parse_fixed(&due_start)?.to_utc() != parse_utc(&said_at)? {
            continue;
        }
        let (start, end) = due_of_episode(tx, episode)?;
        let Some(start) = start else {
            continue;
        };
        if parse_fixed(&start)? == parse_fixed(&due_start)? {
            continue;
        }
        changed += tx.execute(
            "UPDATE open_items SET due_start = ?2, due_end = ?3 WHERE id = ?1",
            params![id, start, end],
        )?;
    }
    Ok(changed)
}

pub(crate) fn open_items(conn: &Connection, open_only: bool) -> Result<Vec<OpenItem>> {
    let filter = if open_only {
        "o.status = 'open'"
    } else {
        "1 = 1"
    };
    load_open_items(conn, filter, [])
}

fn load_open_items<P: rusqlite::Params>(
    conn: &Connection,
    filter: &str,
    args: P,
) -> Result<Vec<OpenItem>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT o.id, o.episode_id, o.actor, e.text, o.due_start, o.due_end, o.status
         FROM open_items o JOIN episodes e ON e.id = o.episode_id WHERE {filter}
         ORDER BY o.due_start IS NULL, o.due_start, o.id"
    ))?;
    type Row = (
        i64,
        i64,
        String,
        String,
        Option<String>,
        Option<String>,
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
            ))
        })?
        .collect::<rusqlite::Result<_>>()?;
    let mut out = Vec::with_capacity(rows.len());
    for (id, episode, actor, text, due_start, due_end, status) in rows {
        out.push(OpenItem {
            id,
            episode_id: EpisodeId(episode),
            actor,
            text,
            due_start: due_start.as_deref().map(parse_fixed).transpose()?,
            due_end: due_end.as_deref().map(parse_fixed).transpose()?,
            status,
        });
    }
    Ok(out)
}

/// Openings of a commitment (canonical words: "I'll" is `i will`, "I'm gonna" `i am
/// gonna`): the cues [`not_a_commitment`] judges one by one.
#[rustfmt::skip]
const PROMISE_CUES: &[&str] = &[
    "i will", "we will", "i am going to", "we are going to", "i am gonna", "we are gonna",
    "i promise", "i plan to", "i am planning to", "i intend to", "i have to", "i need to",
    "i must", "i shall", "let me", "jag ska", "jag skall", "vi ska", "vi skall",
    "jag kommer att", "vi kommer att", "jag lovar", "jag måste", "vi måste", "jeg skal",
    "vi skal", "jeg vil", "vi vil", "jeg lover", "jeg er nødt til", "vi er nødt til",
    // Inverted after a fronted word ("det skal jeg nok gøre", "i morgon ska jag ringa").
    "ska jag", "skall jag", "ska vi", "skal jeg", "skal vi", "jag hör av mig",
];

/// Words before a cue in its clause that make it a prediction or a hope, not a promise ("I
/// know I'll be ok", "I hope we'll meet").
#[rustfmt::skip]
const PREDICTING: &[&str] = &[
    "know", "knew", "hope", "hoping", "sure", "bet", "think", "believe", "feel", "vet",
    "hoppas", "tror", "håber", "tænker",
];

/// What may follow a cue and makes it no task: continuing or trying ("I'll keep going", "I'm
/// gonna keep it up", "I'll do my best"), remembering and feeling ("I'll always remember",
/// "I'll never forget", "I'll miss you"), in English, Swedish and Danish.
#[rustfmt::skip]
const NOT_A_TASK: &[&str] = &[
    "keep", "continue", "do my best", "try my best", "do our best", "try our best", "remember", "forget", "cherish",
    "treasure", "miss", "love", "enjoy", "fortsätta", "försöka", "göra mitt bästa", "minnas",
    "komma ihåg", "glömma", "sakna", "fortsætte", "prøve", "gøre mit bedste", "huske",
    "glemme", "savne", "give it a shot", "give it a go", "stay positive",
    "stay optimistic", "stay determined", "stay strong", "stay focused", "stay motivated",
    "make this work", "make it work", "make it happen", "make it through", "get through this",
];

/// "Do my best to …": the task, if any, follows.
#[rustfmt::skip]
const BEST_TO: &[&str] = &[
    "do my best to", "try my best to", "do our best to", "göra mitt bästa för att", "gøre mit bedste for at",
];

/// Aims rather than tasks: a clause after a cue that names one foretells an outcome ("I'll
/// keep pushing to make my dreams happen", "I'm gonna make my dreams come true").
#[rustfmt::skip]
const AIMS: &[&str] = &[
    "dream", "dreams", "goals", "success", "drömmar", "drömmen", "drømme", "drømmen",
];

/// Adverbs skipped between a cue and its verb ("I'll always remember", "I'm definitely
/// going to keep").
#[rustfmt::skip]
const CUE_ADVERBS: &[&str] = &[
    "always", "never", "definitely", "really", "totally", "just", "still", "surely",
    "alltid", "aldrig", "verkligen", "bara", "altid", "aldrig", "virkelig", "bare", "nok",
];

/// A future state after "be", a prediction ("I'll be ok", "it'll be great"), not a task.
#[rustfmt::skip]
const STATES: &[&str] = &[
    "ok", "okay", "fine", "alright", "good", "great", "better", "happy", "glad", "safe",
    "honest", "proud", "bra", "okej", "glad", "lycklig", "fin", "godt", "fint", "glade",
];

/// Experiences foretold ("we'll make awesome memories", "we'll have so much fun"): a
/// prediction, nothing to do.
#[rustfmt::skip]
const EXPERIENCES: &[&str] = &[
    "memories", "fun", "blast", "minnen", "kul", "roligt", "minder", "sjovt", "hyggeligt",
];

/// Words after a cue that carry no task on their own ("I'll do that", "I will!", "jeg
/// gør det"): a reply to someone else's words, with nothing to keep open.
#[rustfmt::skip]
const FILLERS: &[&str] = &[
    "do", "it", "that", "this", "so", "too", "then", "one", "sure", "definitely", "ok",
    "okay", "for", "now", "again", "göra", "gör", "det", "den", "så", "också", "gøre", "gør",
    "også", "nu", "igen",
];

/// Why a commitment episode's words make no open item, or `None` when they do (issue 5: open
/// items come from commitments). Capture's act kind is generous with "will" and "let me";
/// in a chat between two people many of those sentences keep the talk going or foretell a
/// feeling. An open item is refused only when every commitment cue of `text` is one of:
/// a request to the listener ("let me know if you need anything"), a social formula ("I'll
/// keep you posted"), a prediction ("I know I'll be ok", "we'll
/// make some awesome memories"), continuing or feeling rather than doing ("I'm gonna keep it
/// up", "I'll always remember"), "let me" inside a clause ("singing lets me express
/// myself"), or a cue with no words of its own after it ("I'll do that."). No cue found:
/// `None` (capture's reading stands). The caller keeps every commitment that names a due
/// time in the future.
pub(crate) fn not_a_commitment(text: &str) -> Option<&'static str> {
    use super::words::{find_all, is_boundary, mask_annotations, tokenize};
    let masked = mask_annotations(text);
    let w = tokenize(&masked);
    let mut reason = None;
    for cue in PROMISE_CUES {
        for (start, end) in find_all(&w, cue) {
            let mut c = start;
            while c > 0 && !is_boundary(&w[c - 1]) {
                c -= 1;
            }
            let stop = (end..w.len())
                .find(|&i| is_boundary(&w[i]))
                .unwrap_or(w.len());
            let before = &w[c..start];
            let mut v = end;
            while v < stop && CUE_ADVERBS.contains(&w[v].low.as_str()) {
                v += 1;
            }
            // "I'll do my best to find some resources": what they will do comes after "to".
            if let Some(n) = BEST_TO
                .iter()
                .find(|p| super::words::matches_at(&w, v, p))
                .map(|p| p.split(' ').count())
            {
                v += n;
            }
            let after = &w[v..stop];
            let why = if *cue == "let me" && w.get(end).is_some_and(|x| x.low == "know") {
                // "Let me know if you need any help": the listener is asked, the user promises
                // nothing.
                "a request to the listener, not a promise"
            } else if super::facts::phatic(&w[c..stop]) {
                "a social formula"
            } else if *cue == "let me"
                && before.iter().any(|x| {
                    !matches!(
                        x.low.as_str(),
                        "so" | "ok" | "okay" | "well" | "and" | "but" | "then" | "now" | "just"
                    )
                })
            {
                "\"let me\" inside a clause, not an offer"
            } else if before.iter().any(|x| PREDICTING.contains(&x.low.as_str()))
                || (after.first().is_some_and(|x| x.low == "be")
                    && after
                        .get(1)
                        .is_some_and(|x| STATES.contains(&x.low.as_str())))
                || after.iter().any(|x| EXPERIENCES.contains(&x.low.as_str()))
            {
                "a prediction, not a promise"
            } else if NOT_A_TASK.iter().any(|p| super::words::matches_at(&w, v, p))
                || after.iter().any(|x| AIMS.contains(&x.low.as_str()))
                // "I'm gonna make it!": an outcome, where "make it to the party" is a plan.
                || (super::words::matches_at(&w, v, "make it") && v + 2 >= stop)
            {
                "continuing or feeling, not a task"
            } else if after.iter().all(|x| FILLERS.contains(&x.low.as_str())) {
                "no task in its words"
            } else {
                return None;
            };
            reason.get_or_insert(why);
        }
    }
    reason
}

/// Whether a commitment episode (its words `text`, said at `said_at`, UTC RFC 3339) becomes an
/// open item, given the end of the due time its words name (`due_end`, as stored): not when
/// that time is over before the words were said ("I'll always remember our trip last year":
/// a memory, not a promise), nor, when no due time is named, when [`not_a_commitment`] finds
/// only social formulas, predictions or feelings. Errors: a stored time that does not parse.
pub(crate) fn is_open_item(text: &str, said_at: &str, due_end: Option<&str>) -> Result<bool> {
    match due_end {
        Some(end) => Ok(parse_fixed(end)?.to_utc() > parse_utc(said_at)?),
        None => Ok(not_a_commitment(text).is_none()),
    }
}

/// Words that report something as done ("I sent the proposal", "jag har skickat", "sendt").
const DONE_CUES: &[&str] = &[
    "sent",
    "did",
    "done",
    "finished",
    "called",
    "booked",
    "paid",
    "fixed",
    "submitted",
    "delivered",
    "completed",
    "skickade",
    "skickat",
    "gjorde",
    "gjort",
    "klart",
    "klar",
    "ringde",
    "ringt",
    "bokade",
    "bokat",
    "betalade",
    "betalat",
    "fixade",
    "fixat",
    "sendte",
    "sendt",
    "færdig",
    "ringede",
    "ringet",
    "bookede",
    "booket",
    "betalte",
    "betalt",
    "fiksede",
    "fikset",
    "afleverede",
];

/// Content words of a text, cut to their first five letters (a crude stem that joins
/// "proposal"/"proposals", "skickar"/"skickade").
fn stems(text: &str) -> Vec<String> {
    super::words::tokenize(text)
        .into_iter()
        .filter(|w| !w.punct && w.low.chars().count() >= 4)
        .map(|w| w.low.chars().take(5).collect())
        .collect()
}

/// Marks done the open items an episode of the user reports as done: a completion word
/// ("sent", "skickade", "sendt") and at least two content words shared with the
/// commitment (one when the commitment has only one or two), said after it. Returns how
/// many were closed. Questions and hedges close nothing.
pub(crate) fn close_reported(
    tx: &Transaction<'_>,
    text: &str,
    said_at: &str,
    now: &str,
) -> Result<usize> {
    let words = super::words::tokenize(text);
    let reports_done = words.iter().any(|w| DONE_CUES.contains(&w.low.as_str()));
    // "I'll call the plumber when I'm done" still promises; it reports nothing done.
    let future = words.iter().any(|w| {
        matches!(
            w.low.as_str(),
            "will" | "shall" | "going" | "ska" | "skall" | "skal"
        )
    });
    if !reports_done || future || super::facts::is_hedged(&words) {
        return Ok(0);
    }
    let report = stems(text);
    let open: Vec<(i64, String)> = {
        let mut stmt = tx.prepare(
            "SELECT o.id, e.text FROM open_items o JOIN episodes e ON e.id = o.episode_id
             WHERE o.status = 'open' AND e.occurred_at < ?1",
        )?;
        let rows = stmt.query_map([said_at], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    let mut closed = 0;
    for (id, commitment) in open {
        let wanted = stems(&commitment);
        let shared = wanted.iter().filter(|s| report.contains(s)).count();
        let needed = if wanted.len() <= 2 { 1 } else { 2 };
        if shared >= needed {
            closed += tx.execute(
                "UPDATE open_items SET status = 'done', done_at = ?2 WHERE id = ?1",
                params![id, now],
            )?;
        }
    }
    Ok(closed)
}

/// The sessions whose summary is missing or older than their newest episode, each with that
/// episode's id (what a new summary covers up to).
pub(crate) fn changed_sessions(conn: &Connection) -> Result<Vec<(i64, i64)>> {
    let mut stmt = conn.prepare(
        "SELECT m.session_id, max(e.id) FROM episodes e JOIN messages m ON m.id = e.message_id
         GROUP BY m.session_id
         HAVING max(e.id) > coalesce((SELECT covered_to FROM session_summaries x WHERE x.session_id = m.session_id), 0)",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// What the LLM gave for one session's summary, made before the write transaction (the call
/// may take seconds) and used only if the session has not changed since (`covered_to`).
#[derive(Debug, Clone)]
pub(crate) enum Draft {
    /// A summary whose quotes were all found in the session's messages.
    Abstractive {
        /// The newest episode id of the session when the LLM was asked.
        covered_to: i64,
        /// A short topic line.
        topic: String,
        /// The LLM's summary.
        summary: String,
        /// Every episode of the messages the LLM read.
        episode_ids: Vec<i64>,
        /// `abstractive (llm:<model>)`.
        method: String,
    },
    /// The LLM's summary was rejected or the LLM failed: the extractive one is written, with
    /// `method` saying why (`extractive (llm quote not found)`).
    Rejected {
        /// The newest episode id of the session when the LLM was asked.
        covered_to: i64,
        /// `extractive (llm …)`.
        method: String,
    },
}

/// Writes the summary of every session that has none yet or gained episodes since; returns
/// how many were written. A session whose episodes are all routine gets no summary.
pub(crate) fn rebuild_changed(tx: &Transaction<'_>, now: &str) -> Result<usize> {
    rebuild_changed_with(tx, now, &HashMap::new())
}

/// [`rebuild_changed`], taking the LLM's `drafts` by session id: an abstractive draft is
/// written when its session is unchanged since the LLM was asked and every episode it covers
/// is still there; otherwise (or for a rejected draft, or a session without one) the
/// extractive summary is written, with the draft's reason in `method`.
pub(crate) fn rebuild_changed_with(
    tx: &Transaction<'_>,
    now: &str,
    drafts: &HashMap<i64, Draft>,
) -> Result<usize> {
    let changed = changed_sessions(tx)?;
    let mut written = 0;
    for (session, covered_to) in changed {
        match drafts.get(&session) {
            Some(Draft::Abstractive {
                covered_to: asked_at,
                topic: llm_topic,
                summary,
                episode_ids,
                method,
            }) if *asked_at == covered_to && all_exist(tx, episode_ids)? => {
                tx.execute(
                    "DELETE FROM session_summaries WHERE session_id = ?1",
                    [session],
                )?;
                let ids = format!(
                    ",{},",
                    episode_ids
                        .iter()
                        .map(i64::to_string)
                        .collect::<Vec<_>>()
                        .join(",")
                );
                written += tx.execute(
                    "INSERT INTO session_summaries (session_id, topic, summary, episode_ids, covered_to, created_at, method)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    params![session, topic(llm_topic), summary, ids, covered_to, now, method],
                )?;
                continue;
            }
            _ => {}
        }
        let method = match drafts.get(&session) {
            Some(Draft::Rejected {
                covered_to: asked_at,
                method,
            }) if *asked_at == covered_to => method.as_str(),
            _ => "extractive",
        };
        let picked: Vec<(i64, String)> = {
            let mut stmt = tx.prepare(
                "SELECT e.id, e.text FROM episodes e JOIN messages m ON m.id = e.message_id
                 WHERE m.session_id = ?1 AND e.kind != 'routine'
                 ORDER BY e.salience DESC, e.occurred_at, e.id LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![session, SUMMARY_EPISODES as i64], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?;
            rows.collect::<rusqlite::Result<_>>()?
        };
        tx.execute(
            "DELETE FROM session_summaries WHERE session_id = ?1",
            [session],
        )?;
        let Some((_, top)) = picked.first() else {
            continue;
        };
        let topic = topic(top);
        let mut in_order = picked.clone();
        in_order.sort_by_key(|(id, _)| *id);
        let summary = in_order
            .iter()
            .map(|(_, t)| t.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        let ids = format!(
            ",{},",
            in_order
                .iter()
                .map(|(id, _)| id.to_string())
                .collect::<Vec<_>>()
                .join(",")
        );
        written += tx.execute(
            "INSERT INTO session_summaries (session_id, topic, summary, episode_ids, covered_to, created_at, method)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![session, topic, summary, ids, covered_to, now, method],
        )?;
    }
    Ok(written)
}

/// Whether every episode in `ids` is still stored (none was forgotten while the LLM wrote).
fn all_exist(conn: &Connection, ids: &[i64]) -> Result<bool> {
    let mut stmt = conn.prepare_cached("SELECT 1 FROM episodes WHERE id = ?1")?;
    for id in ids {
        if !stmt.exists([id])? {
            return Ok(false);
        }
    }
    Ok(!ids.is_empty())
}

/// The opening words of `text`, cut at a word boundary.
fn topic(text: &str) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= TOPIC_CHARS {
        return flat;
    }
    let cut: String = flat.chars().take(TOPIC_CHARS).collect();
    match cut.rfind(' ') {
        Some(i) => format!("{}…", &cut[..i]),
        None => format!("{cut}…"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[rstest::rstest]
    #[case::posted("I'll keep ya posted.", "a social formula")]
    #[case::let_me_know("Let me know how it goes!", "a request to the listener, not a promise")]
    #[case::let_me_know_if(
        "Let me know if you need any help. We work well together!",
        "a request to the listener, not a promise"
    )]
    #[case::let_me_know_else(
        "If there's anything else I can do, just let me know.",
        "a request to the listener, not a promise"
    )]
    #[case::let_you_know("I'll let you know. Talk to you soon!", "a social formula")]
    #[case::sv_hors("Jag hör av mig snart!", "a social formula")]
    #[case::know_ok("I know I'll be ok!", "a prediction, not a promise")]
    #[case::be_fine("It's scary but I'll be fine.", "a prediction, not a promise")]
    #[case::memories("We'll make some awesome memories!", "a prediction, not a promise")]
    #[case::da_sjovt("Vi skal have det sjovt!", "a prediction, not a promise")]
    #[case::keep_it_up("I'm gonna keep it up.", "continuing or feeling, not a task")]
    #[case::keep_using(
        "I'm going to keep using my voice to make a change.",
        "continuing or feeling, not a task"
    )]
    #[case::best(
        "I'll keep pushing forward and doing my best.",
        "continuing or feeling, not a task"
    )]
    #[case::best_alone("We'll do our best!", "continuing or feeling, not a task")]
    #[case::remember(
        "I'll always remember that night.",
        "continuing or feeling, not a task"
    )]
    #[case::sv_minnas(
        "Jag ska alltid minnas den dagen.",
        "continuing or feeling, not a task"
    )]
    #[case::let_me_inside(
        "Playing and singing let me express myself.",
        "\"let me\" inside a clause, not an offer"
    )]
    #[case::make_it("I'm gonna make it!", "continuing or feeling, not a task")]
    #[case::make_it_happen(
        "It's been tough, but I'm gonna make it happen.",
        "continuing or feeling, not a task"
    )]
    #[case::dreams(
        "I'm gonna make my dreams come true!",
        "continuing or feeling, not a task"
    )]
    #[case::through("We'll get through this!", "continuing or feeling, not a task")]
    #[case::sure_make_it("I'm sure we'll make it.", "a prediction, not a promise")]
    #[case::stay(
        "I'll keep plugging away and stay optimistic.",
        "continuing or feeling, not a task"
    )]
    #[case::anaphoric("I'll do that.", "no task in its words")]
    #[case::anaphoric_da("Det skal jeg nok gøre.", "no task in its words")]
    fn no_open_item_from(#[case] text: &str, #[case] why: &str) {
        assert_eq!(not_a_commitment(text), Some(why), "`{text}`");
    }

    #[rstest::rstest]
    #[case::send("I'll send the proposal to Acme on Friday.")]
    #[case::send_you("I'll send you the signed contract tomorrow.")]
    #[case::let_you_know_price("I'll let you know the price by Friday.")]
    #[case::offer("Let me check the calendar.")]
    #[case::show("I'm gonna show my paintings. Super stoked!")]
    #[case::there_at("I'll be there at six to pick up the keys.")]
    #[case::phatic_and_task("I'll call the plumber. Talk soon!")]
    #[case::sv("Jag ska ringa rörmokaren i morgon.")]
    #[case::da("Jeg skal sende rapporten til Mette.")]
    #[case::no_cue("Next month I'm having an art show with my paintings.")]
    #[case::make_it_to("I'll make it to the party on Saturday.")]
    #[case::try_to("I'll try to finish the report tonight.")]
    #[case::best_to("I'll do my best to find some resources.")]
    #[case::take_a_shot("I'm gonna take a shot at starting my own business.")]
    #[case::vid("I'll send you a vid.")]
    #[case::later("Sure, I will send it to you later.")]
    fn open_item_from(#[case] text: &str) {
        assert_eq!(
            not_a_commitment(text),
            None,
            "`{text}` promises something to do (or names no cue, so capture's reading stands)"
        );
    }

    #[test]
    fn a_due_time_already_over_is_no_open_item() {
        // Said on 2023-05-08; "last year" ends 2023-01-01, "by Friday" 2023-05-13.
        let said = "2023-05-08T10:00:00.000Z";
        assert!(
            !is_open_item(
                "I'll always remember our trip last year.",
                said,
                Some("2023-01-01T00:00:00+00:00")
            )
            .unwrap()
        );
        assert!(
            is_open_item(
                "I'll keep you posted by Friday.",
                said,
                Some("2023-05-13T00:00:00+00:00")
            )
            .unwrap(),
            "a due time ahead keeps the commitment, whatever its words"
        );
        assert!(!is_open_item("I'll keep you posted.", said, None).unwrap());
    }
}
