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
use crate::model::{ActKind, EpisodeId, SessionId};
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

    /// Marks an open item done (or open again). The user's word is final: the item is never
    /// withdrawn by a later consolidation ([`withdraw_stale_open_items`]), and one that was
    /// withdrawn shows again. Errors: [`crate::Error::NotFound`].
    pub fn set_open_item_done(&mut self, id: i64, done: bool) -> Result<()> {
        let now = crate::store::fmt_utc(self.clock.now());
        let changed = self.store.conn().execute(
            "UPDATE open_items SET status = ?2, done_at = ?3, user_set_at = ?4, withdrawn_at = NULL
             WHERE id = ?1",
            params![
                id,
                if done { "done" } else { "open" },
                done.then_some(now.clone()),
                now
            ],
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

/// Withdraws the open items that the rules derived and that the current rules
/// ([`is_open_item`]) would no longer derive from their source episode (issue 5: junk open
/// items stored by older builds, such as "I'll check out these options." or a question to the
/// assistant). Only items still `open` that the user never touched are read: not one marked done
/// or open again by the user (`user_set_at`), not one whose episode the user edited
/// (`episodes.edited_at`). A withdrawn item keeps its row with `withdrawn_at` = `now` (UTC RFC
/// 3339) and is left out of every listing, the profile and the session-start context. Facts
/// are never touched here. Idempotent: a withdrawn item is not read again, and an item the
/// current rules derive stays. Returns how many were withdrawn. Errors: database errors, a
/// stored time that does not parse.
pub(crate) fn withdraw_stale_open_items(tx: &Transaction<'_>, now: &str) -> Result<usize> {
    let stored: Vec<(i64, String, String, String, Option<String>)> = {
        let mut stmt = tx.prepare(
            "SELECT o.id, e.kind, e.text, e.occurred_at, o.due_end
             FROM open_items o JOIN episodes e ON e.id = o.episode_id
             WHERE o.status = 'open' AND o.done_at IS NULL AND o.withdrawn_at IS NULL
               AND o.user_set_at IS NULL AND e.edited_at IS NULL AND e.role = 'user'",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    let mut withdrawn = 0;
    for (id, kind, text, said_at, due_end) in stored {
        let derived = kind == ActKind::Commitment.as_str()
            && is_open_item(&text, &said_at, due_end.as_deref())?;
        if !derived {
            withdrawn += tx.execute(
                "UPDATE open_items SET withdrawn_at = ?2 WHERE id = ?1",
                params![id, now],
            )?;
        }
    }
    Ok(withdrawn)
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
         FROM open_items o JOIN episodes e ON e.id = o.episode_id
         WHERE o.withdrawn_at IS NULL AND ({filter})
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

/// Words before a cue in its clause that make it a prediction, a hope or a feeling about what
/// will happen, not a promise ("I know I'll be ok", "I hope we'll meet", "I'm relieved to hear
/// that I'll have access to power outlets", "there's a chance I'll be visiting").
#[rustfmt::skip]
const PREDICTING: &[&str] = &[
    "know", "knew", "hope", "hoping", "sure", "bet", "think", "believe", "feel", "vet",
    "hoppas", "tror", "håber", "tænker", "hear", "heard", "relieved", "glad", "happy",
    "excited", "thrilled", "chance", "likely", "höra", "hört", "lättad", "chans", "høre",
    "hørt", "lettet", "sandsynligt",
];

/// Verbs, particles and quantifiers of taking up the listener's suggestion ("check out",
/// "look into", "give … a try", "some of", "one of"), before an object in [`ANAPHORS`].
#[rustfmt::skip]
const TAKE_UP: &[&str] = &[
    "check", "out", "look", "into", "at", "take", "a", "give", "try", "follow", "read",
    "explore", "research", "watch", "listen", "to", "go", "through", "over", "some", "of", "one",
    "few", "all", "any", "more", "both", "kolla", "titta", "på", "läsa", "prova", "testa",
    "följa", "undersöka", "kika", "in", "några", "av", "alla", "kigge", "tjekke", "ud", "læse",
    "prøve", "følge", "undersøge", "nogle", "af", "alle",
];

/// Objects that only point at what the listener said ("these options", "those resources",
/// "it"): the words name nothing to follow up later.
#[rustfmt::skip]
const ANAPHORS: &[&str] = &[
    "these", "those", "them", "it", "that", "this", "dessa", "dem", "det", "disse",
];

/// Second-person possessives: "your" points at the listener's words only before one of
/// [`SUGGESTIONS`] ("your tips"); "I'll watch your routine" names a thing to do.
#[rustfmt::skip]
const YOUR: &[&str] = &["your", "dina", "din", "ditt", "era", "ert", "dine", "dit", "jeres"];

/// What a listener suggests ("your tips", "dina förslag", "dine råd").
#[rustfmt::skip]
const SUGGESTIONS: &[&str] = &[
    "suggestion", "suggestions", "tip", "tips", "advice", "recommendation", "recommendations",
    "idea", "ideas", "förslag", "råd", "idéer", "forslag", "anbefalinger",
];

/// Verbs after a cue that weigh a course rather than take it ("I'll consider asking my
/// friends", "jag ska fundera på det", "jeg vil overveje det").
#[rustfmt::skip]
const DELIBERATING: &[&str] = &[
    "consider", "think about", "think it over", "think over", "överväga", "fundera på",
    "fundera över", "tänka på", "tänka över", "overveje", "tænke over", "tænke på",
];

/// Verbs after a cue that state a need or a want when no "to" follows ("I'll just need the
/// dairy-free recipe"): asked of the listener, nothing for the user to do.
#[rustfmt::skip]
const WANTING: &[&str] = &["need", "want", "behöva", "vilja", "behøve", "ønske"];

/// "Make sure to …": what the user will do follows (skipped like [`BEST_TO`]).
#[rustfmt::skip]
const MAKE_SURE: &[&str] = &["make sure to", "make sure i", "se till att", "sørge for at"];

/// "… you mentioned": an object that is what the listener said ("the options you mentioned",
/// "the other venues you suggested", "det du nämnde", "dem du nævnte").
#[rustfmt::skip]
const YOU_SAID: &[&str] = &[
    "you mentioned", "you suggested", "you recommended", "you listed", "you gave",
    "you shared", "you provided", "you described", "du nämnde", "du föreslog", "du tipsade om",
    "du rekommenderade", "du nævnte", "du foreslog", "du anbefalede",
];

/// Why [`not_a_commitment`] refuses a cue inside a question.
const QUESTION: &str = "a question to the listener, not a promise";

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

/// Modal phrases between a cue and its verb ("I'll *have to* check it out", "jag ska *behöva*
/// ringa", "jeg vil *være nødt til at* ringe").
#[rustfmt::skip]
const HAVE_TO: &[&str] = &[
    "have to", "need to", "got to", "behöva", "være nødt til at",
];

/// Verbs of bringing about a state after "do my best to" ("make sure these kids have a home",
/// "se till att barnen har det bra", "sørge for at børnene har det godt").
#[rustfmt::skip]
const OUTCOME_VERBS: &[&str] = &[
    "make sure", "ensure", "see to it that", "se till att", "säkerställa att", "sørge for at",
    "sikre at", "sikre mig at",
];

/// Quantities that, among verbs of taking up only, stand for what the listener named ("check
/// *some* out", "kolla in *några*", "tjekke *nogle* ud").
#[rustfmt::skip]
const POINTING_QUANTITIES: &[&str] = &[
    "some", "one", "few", "any", "both", "några", "någon", "nogle", "nogen",
];

/// Aims rather than tasks: a clause after a cue that names one foretells an outcome ("I'll
/// keep pushing to make my dreams happen", "I'm gonna make my dreams come true").
#[rustfmt::skip]
const AIMS: &[&str] = &[
    "dream", "dreams", "goal", "goals", "success", "drömmar", "drömmen", "drømme", "drømmen",
    "mål", "målet",
];

/// Adverbs skipped between a cue and its verb ("I'll always remember", "I'm definitely
/// going to keep").
#[rustfmt::skip]
const CUE_ADVERBS: &[&str] = &[
    "always", "never", "definitely", "really", "totally", "just", "still", "surely", "also",
    "alltid", "aldrig", "verkligen", "bara", "altid", "aldrig", "virkelig", "bare", "nok",
];

/// A future state after "be", a prediction ("I'll be ok", "it'll be great"), not a task.
#[rustfmt::skip]
const STATES: &[&str] = &[
    "ok", "okay", "fine", "alright", "good", "great", "better", "happy", "glad", "safe",
    "honest", "proud", "bra", "okej", "glad", "lycklig", "fin", "godt", "fint", "glade",
    "glada", "stolt", "stolta", "stolte",
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
/// myself"), a cue with no words of its own after it ("I'll do that."), a cue inside a
/// question ("Can you help me make a checklist of the documents I need to gather?"), a
/// listener's suggestion taken up with only a pointer to it ("I'll check out these options",
/// "I'll definitely look into those resources"), a deliberation ("I'll consider asking"), or a
/// need ("I'll just need the dairy-free recipe"). The last four were found in assistant chats
/// (LongMemEval-S haystack sessions, issue 5). No cue found: `None` (capture's reading
/// stands), unless every sentence is a question. The caller keeps every commitment that names a due
/// time in the future.
pub(crate) fn not_a_commitment(text: &str) -> Option<&'static str> {
    use super::words::{find_all, is_boundary, mask_annotations, tokenize};
    let masked = mask_annotations(text);
    let w = tokenize(&masked);
    let sentences = super::words::sentences(&masked, &w);
    // Whether each sentence ends in a question mark. A masked annotation ends a sentence with
    // a full stop of its own ("this weekend [2023-09-02 – 2023-09-03], given the forecast?"):
    // that sentence ends where the next one does.
    let mut questions = vec![false; sentences.len()];
    for k in (0..sentences.len()).rev() {
        let last = w.get(sentences[k].end - 1);
        let masked_stop = last.is_some_and(|x| text.as_bytes().get(x.span.start) == Some(&b'['));
        questions[k] = if masked_stop {
            questions.get(k + 1).copied().unwrap_or(false)
        } else {
            last.is_some_and(|x| x.low == "?")
        };
    }
    let asks = |at: usize| {
        sentences
            .iter()
            .position(|s| s.contains(&at))
            .is_some_and(|k| questions[k])
    };
    let mut reason = None;
    let mut cues = 0;
    for cue in PROMISE_CUES {
        for (start, end) in find_all(&w, cue) {
            cues += 1;
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
            // "I'll have to check it out": the verb follows.
            if let Some(n) = HAVE_TO
                .iter()
                .find(|p| super::words::matches_at(&w, v, p))
                .map(|p| p.split(' ').count())
            {
                v += n;
            }
            // "I'll do my best to find some resources": what they will do comes after "to".
            let mut best = false;
            if let Some(n) = BEST_TO
                .iter()
                .find(|p| super::words::matches_at(&w, v, p))
                .map(|p| p.split(' ').count())
            {
                v += n;
                best = true;
            }
            // "I'll do my best to make sure these kids have a safe home": striving for a state
            // of others, an aim, where "make sure I send it" is a task of the user's own.
            let aimed_outcome = best
                && OUTCOME_VERBS.iter().any(|p| {
                    super::words::matches_at(&w, v, p)
                        && w.get(v + p.split(' ').count()).is_some_and(|x| {
                            !x.punct
                                && !matches!(
                                    x.low.as_str(),
                                    "to" | "i" | "we" | "jag" | "vi" | "jeg"
                                )
                        })
                });
            // "I'll make sure to update my software": likewise.
            if let Some(n) = MAKE_SURE
                .iter()
                .find(|p| super::words::matches_at(&w, v, p))
                .map(|p| p.split(' ').count())
            {
                v += n;
            }
            let after = &w[v.min(stop)..stop];
            let taken_up = after
                .iter()
                .position(|x| !TAKE_UP.contains(&x.low.as_str()));
            let points_at_listener = taken_up.is_some_and(|i| {
                i > 0
                    && after.get(i).is_some_and(|x| {
                        ANAPHORS.contains(&x.low.as_str())
                            || (YOUR.contains(&x.low.as_str())
                                && after
                                    .get(i + 1)
                                    .is_some_and(|n| SUGGESTIONS.contains(&n.low.as_str())))
                    })
            }) || (after
                .first()
                .is_some_and(|x| TAKE_UP.contains(&x.low.as_str()))
                && YOU_SAID.iter().any(|p| !find_all(after, p).is_empty()))
                // "We'll have to check some out": only verbs of taking up and a quantity of
                // what the listener named.
                || (taken_up.is_none()
                    && after.iter().any(|x| POINTING_QUANTITIES.contains(&x.low.as_str())));
            let why = if asks(start) {
                // "Can you help me make a checklist of the documents I need to gather?"
                QUESTION
            } else if *cue == "let me" && w.get(end).is_some_and(|x| x.low == "know") {
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
                // "I'll have a safe trip": a wish for oneself.
                || (after.first().is_some_and(|x| x.low == "have")
                    && after
                        .iter()
                        .take(3)
                        .any(|x| STATES.contains(&x.low.as_str())))
                || after.iter().any(|x| EXPERIENCES.contains(&x.low.as_str()))
            {
                "a prediction, not a promise"
            } else if points_at_listener {
                "taking up the listener's suggestion, with nothing named to do"
            } else if DELIBERATING
                .iter()
                .any(|p| super::words::matches_at(&w, v, p))
            {
                "a deliberation, not a promise"
            } else if after
                .first()
                .is_some_and(|x| WANTING.contains(&x.low.as_str()))
                && !after
                    .get(1)
                    .is_some_and(|x| matches!(x.low.as_str(), "to" | "att" | "at"))
            {
                "a need or a want, not a task"
            } else if aimed_outcome
                || NOT_A_TASK.iter().any(|p| super::words::matches_at(&w, v, p))
                || after.iter().any(|x| AIMS.contains(&x.low.as_str()))
                // "I'll do my best to make you proud": a feeling aimed at, not a task.
                || (after.first().is_some_and(|x| matches!(x.low.as_str(), "make" | "göra" | "gøre"))
                    && after.get(1).is_some_and(|x| {
                        matches!(
                            x.low.as_str(),
                            "you" | "him" | "her" | "them" | "us" | "everyone" | "dig" | "honom"
                                | "henne" | "dem" | "oss" | "alla" | "ham" | "hende" | "os" | "alle"
                        )
                    })
                    && after
                        .get(2)
                        .is_some_and(|x| STATES.contains(&x.low.as_str())))
                // "I need to get back on track": an aim.
                || !find_all(after, "on track").is_empty()
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
    // No cue, and every sentence asks ("Since we're planning to camp, do you have any
    // suggestions?"): the words ask the listener for something and promise nothing.
    if cues == 0 && !questions.is_empty() && questions.iter().all(|q| *q) {
        return Some(QUESTION);
    }
    reason
}

/// Future markers whose subject says whose future it is ("tomorrow's *gonna* be a blast",
/// "det *kommer att* bli kul", "det *vil* blive sjovt").
#[rustfmt::skip]
const FUTURE_MARKERS: &[&str] = &[
    "gonna", "going to", "will", "kommer att", "ska", "skall", "kommer til at", "vil", "skal",
];

/// Forms of "be" between a subject and a future marker ("it *is* going to rain").
#[rustfmt::skip]
const BE_FORMS: &[&str] = &["is", "are", "am", "was", "were"];

/// The user (or the user and others) as a subject.
#[rustfmt::skip]
const FIRST_PERSON: &[&str] = &["i", "we", "jag", "vi", "jeg"];

/// Past and perfect forms of "be" and "have" that report a time gone by ("this week *has
/// been* swamped", "i fredags *var* jag sjuk", "denne uge *har været* travl").
#[rustfmt::skip]
const PAST_AUXILIARIES: &[&str] = &[
    "was", "were", "had", "has been", "have been", "var", "hade", "har varit", "blev",
    "havde", "har været",
];

/// Why a commitment episode holds no commitment of the user's, when its words carry no
/// promise cue ([`PROMISE_CUES`]) at all, read in the sentences that name a time (capture's
/// bracketed resolution):
/// - a future whose subject is not the user ("tomorrow's gonna be a blast", "it'll be
///   great", "det kommer att bli kul"): a prediction;
/// - the named time followed by a report in the past ("On Friday [..], I got great news",
///   "This week [..] has been swamped", "I fredags [..] fick jag"): the time says when
///   something happened, not when something is due.
///
/// `None` when a cue is found (then [`not_a_commitment`] judges) or neither holds (a plan in
/// the present, "next month I'm having an art show", stays).
pub(crate) fn not_the_users_plan(text: &str) -> Option<&'static str> {
    use super::words::{find_all, mask_annotations, matches_at, tokenize};
    let masked = mask_annotations(text);
    let w = tokenize(&masked);
    if PROMISE_CUES.iter().any(|c| !find_all(&w, c).is_empty()) {
        return None;
    }
    // A masked annotation is a full stop whose byte in `text` is '['; it is no boundary here.
    let annotation = |x: &super::words::Word| text.as_bytes().get(x.span.start) == Some(&b'[');
    // Only the sentences that name a time are read: a plan in one sentence stays a plan when
    // the next foretells a feeling ("We're putting on a show next month. I'm looking forward
    // to how proud they'll feel!").
    let mut timed = vec![false; w.len()];
    let mut from = 0;
    for i in 0..=w.len() {
        let ends = i == w.len()
            || (w[i].punct
                && matches!(w[i].low.as_str(), "." | "!" | "?" | ";")
                && !annotation(&w[i]));
        if ends {
            let upto = (i + 1).min(w.len());
            if w[from..upto].iter().any(annotation) {
                timed[from..upto].fill(true);
            }
            from = upto;
        }
    }
    let before = |mut i: usize| {
        while i > 0 && (annotation(&w[i - 1]) || BE_FORMS.contains(&w[i - 1].low.as_str())) {
            i -= 1;
        }
        i.checked_sub(1).map(|p| &w[p])
    };
    for marker in FUTURE_MARKERS {
        for (start, _) in find_all(&w, marker) {
            // No subject before the marker ("Gonna call you later!") is the user's own.
            if timed[start]
                && before(start)
                    .is_some_and(|s| !s.punct && !FIRST_PERSON.contains(&s.low.as_str()))
            {
                return Some("a prediction, not a promise");
            }
        }
    }
    if w.iter()
        .zip(&timed)
        .any(|(x, t)| *t && !x.punct && (x.low.ends_with("'ll") || x.low.ends_with("’ll")))
    {
        return Some("a prediction, not a promise");
    }
    let lang = super::done::guess(&w);
    for (i, x) in w.iter().enumerate() {
        if !annotation(x) {
            continue;
        }
        // Past a comma, never into the next sentence ("next Friday. I invited everyone").
        let mut j = i + 1;
        while j < w.len() && w[j].punct && !matches!(w[j].low.as_str(), "." | "!" | "?" | ";") {
            j += 1;
        }
        let subject = w
            .get(j)
            .is_some_and(|s| FIRST_PERSON.contains(&s.low.as_str()));
        let verb = if subject { j + 1 } else { j };
        // With no subject first, the verb stands second as Swedish and Danish put it ("i
        // fredags fick jag").
        let past = PAST_AUXILIARIES.iter().any(|p| matches_at(&w, verb, p))
            || w.get(verb).is_some_and(|v| {
                super::done::is_past(&v.low, lang) || super::done::is_irregular_past(&v.low)
            });
        if past {
            return Some("a report of the past, not a plan");
        }
    }
    None
}

/// Whether a commitment episode (its words `text`, said at `said_at`, UTC RFC 3339) becomes an
/// open item, given the end of the due time its words name (`due_end`, as stored): not when
/// that time is over before the words were said ("I'll always remember our trip last year":
/// a memory, not a promise), nor when its words only ask the listener something (whatever
/// time they name), nor, when no due time is named, when [`not_a_commitment`] finds only
/// social formulas, predictions, feelings, deliberations or a suggestion taken up with nothing
/// named, nor when [`not_the_users_plan`] finds no promise of the user's at all.
/// Errors: a stored time that does not parse.
pub(crate) fn is_open_item(text: &str, said_at: &str, due_end: Option<&str>) -> Result<bool> {
    let reason = not_a_commitment(text);
    // A question promises nothing, whatever time it names ("Can we meet on Friday?").
    if reason == Some(QUESTION) {
        return Ok(false);
    }
    // Nor does a prediction or a report with no promise of the user's in it, whatever time it
    // names ("tomorrow's gonna be a blast", "On Friday I got great news").
    if not_the_users_plan(text).is_some() {
        return Ok(false);
    }
    match due_end {
        Some(end) => Ok(parse_fixed(end)?.to_utc() > parse_utc(said_at)?),
        None => Ok(reason.is_none()),
    }
}

/// Marks done the open items an episode of the user reports as done, said after their
/// commitment: the user says the commitment's own verb in the past or perfect tense, or a
/// completion word, about its object, and nothing in the episode says it is not done
/// ([`super::done::Report::closes`], issue 5). Returns how many were closed. Questions,
/// hedges, negations ("I still haven't sent it"), the future and someone else's act close
/// nothing.
pub(crate) fn close_reported(
    tx: &Transaction<'_>,
    text: &str,
    said_at: &str,
    now: &str,
) -> Result<usize> {
    let report = super::done::Report::read(text);
    if !report.reports_done() {
        return Ok(0);
    }
    let open: Vec<(i64, String)> = {
        let mut stmt = tx.prepare(
            "SELECT o.id, e.text FROM open_items o JOIN episodes e ON e.id = o.episode_id
             WHERE o.status = 'open' AND o.withdrawn_at IS NULL AND e.occurred_at < ?1",
        )?;
        let rows = stmt.query_map([said_at], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    let mut closed = 0;
    for (id, commitment) in open {
        if report.closes(&commitment) {
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
    // Assistant chats (LongMemEval-S haystack sessions, issue 5).
    #[case::question(
        "Can you help me make a checklist of the documents I need to gather for the bank?",
        QUESTION
    )]
    #[case::question_need("Do I need to provide the same documents?", QUESTION)]
    #[case::question_no_cue(
        "Since we're planning to spend a lot of time outdoors, do you have any suggestions?",
        QUESTION
    )]
    #[case::question_sv("Måste jag ta med passet?", QUESTION)]
    #[case::question_dated(
        "How can I determine the best route for my 40-mile ride this weekend [2023-09-02 – 2023-09-03], given the weather forecast?",
        QUESTION
    )]
    #[case::take_up_these(
        "I'll check out these options.",
        "taking up the listener's suggestion, with nothing named to do"
    )]
    #[case::take_up_some_of_those(
        "I'll definitely check out some of those online communities and forums.",
        "taking up the listener's suggestion, with nothing named to do"
    )]
    #[case::take_up_one_of(
        "I'll check out one of those gyms.",
        "taking up the listener's suggestion, with nothing named to do"
    )]
    #[case::take_up_sv(
        "Jag ska kolla in dem.",
        "taking up the listener's suggestion, with nothing named to do"
    )]
    #[case::take_up_da(
        "Jeg skal nok kigge på dem.",
        "taking up the listener's suggestion, with nothing named to do"
    )]
    #[case::consider(
        "I'll also consider asking my friends.",
        "a deliberation, not a promise"
    )]
    #[case::consider_sv("Jag ska fundera på saken.", "a deliberation, not a promise")]
    #[case::need_thing(
        "I'm lactose intolerant, so I'll just need the dairy-free recipe.",
        "a need or a want, not a task"
    )]
    #[case::relieved(
        "I'm relieved to hear that I'll have access to power outlets.",
        "a prediction, not a promise"
    )]
    #[case::chance(
        "There's definitely a chance I'll be visiting Ireland again.",
        "a prediction, not a promise"
    )]
    #[case::safe_trip("I'll make sure to have a safe trip!", "a prediction, not a promise")]
    #[case::make_sure_remember(
        "I'll make sure to remember this.",
        "continuing or feeling, not a task"
    )]
    #[case::on_track(
        "I need to get back on track with my daily step goal.",
        "continuing or feeling, not a task"
    )]
    #[case::see_you_around("I'll see you around!", "a social formula")]
    #[case::thoughts("I'll let you know my thoughts.", "a social formula")]
    #[case::you_mentioned(
        "Anyway, I'll definitely check out some of the other venues you mentioned.",
        "taking up the listener's suggestion, with nothing named to do"
    )]
    #[case::du_naemnde(
        "Jag ska kolla in sidan du nämnde.",
        "taking up the listener's suggestion, with nothing named to do"
    )]
    #[case::your_tips(
        "I'll definitely try your tips.",
        "taking up the listener's suggestion, with nothing named to do"
    )]
    #[case::make_you_proud(
        "I'll do my best to make you proud!",
        "continuing or feeling, not a task"
    )]
    #[case::make_them_happy_sv("Jag ska göra dem glada.", "continuing or feeling, not a task")]
    // Striving for a state of others is an aim (LoCoMo conv-26).
    #[case::best_to_make_sure(
        "I'll do my best to make sure these kids have a safe and loving home.",
        "continuing or feeling, not a task"
    )]
    #[case::best_to_make_sure_sv(
        "Jag ska göra mitt bästa för att se till att barnen har det bra.",
        "continuing or feeling, not a task"
    )]
    #[case::best_to_make_sure_da(
        "Jeg vil gøre mit bedste for at sørge for at børnene har det godt.",
        "continuing or feeling, not a task"
    )]
    // Support for the listener (conv-30).
    #[case::by_your_side("I'll be right by your side, Jon.", "a social formula")]
    #[case::by_your_side_sv("Jag ska alltid finnas vid din sida.", "a social formula")]
    #[case::by_your_side_da("Jeg vil altid være ved din side.", "a social formula")]
    // A formula with a clause of time after it (conv-43).
    #[case::let_you_know_once(
        "Yep, I'll let you know once I'm done reading it.",
        "a social formula"
    )]
    #[case::hor_av_mig_nar("Jag hör av mig när jag är hemma.", "a social formula")]
    #[case::give_lyd_naar("Jeg skal nok give lyd når jeg er færdig.", "a social formula")]
    // "give you a shout" says what "let you know" says (LoCoMo conv-41).
    #[case::shout_whenever(
        "I'll be sure to give you a shout whenever I'm in town.",
        "a social formula"
    )]
    #[case::signal_sv("Jag ska slå en signal när jag är klar.", "a social formula")]
    #[case::praj_da("Jeg skal nok give et praj når jeg er klar.", "a social formula")]
    // "have to", then only taking up and a quantity of what the listener named (conv-43).
    #[case::have_to_check_some(
        "We'll have to check some out.",
        "taking up the listener's suggestion, with nothing named to do"
    )]
    #[case::check_some_sv(
        "Vi ska kolla in några.",
        "taking up the listener's suggestion, with nothing named to do"
    )]
    #[case::check_some_da(
        "Vi skal tjekke nogle ud.",
        "taking up the listener's suggestion, with nothing named to do"
    )]
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
    // Assistant chats: a named task stays one, next to a question or after "make sure to".
    #[case::task_then_question(
        "I'll need to schedule an appointment at the DMV. Can you tell me what to bring?"
    )]
    #[case::make_sure_task("I'll make sure to use 2FA and update my software.")]
    #[case::named_object("I'll take a look at the official Fitbit screen protectors.")]
    #[case::named_show("I'll definitely give The Good Place a try.")]
    #[case::add_it("I'll definitely add it to my list.")]
    #[case::need_to("I need to update my name with the bank as well.")]
    #[case::ask_friends("I'll ask my friends if they know a good electrician.")]
    #[case::track_verb("I'll track my expenses every week.")]
    #[case::let_you_know_flight("I'll let you know my flight number.")]
    // A two-person chat (LoCoMo conv-30): the listener's own thing, a real promise.
    #[case::have_to_look_into_named("I'll have to look into shelters near me soon.")]
    #[case::you_mentioned_but_own_task("I'll call the dentist you mentioned on Monday.")]
    #[case::watch_your_routine("Yeah, Jon, I'll watch your routine! So proud of you!")]
    #[case::make_dinner("I'll make a good dinner for the team on Friday.")]
    // The negatives of this round's rules: a task of one's own after "make sure", a formula
    // with a named thing before its clause of time, "have to" before a named thing.
    #[case::best_to_make_sure_i("I'll do my best to make sure I send it by Friday.")]
    #[case::make_sure_sv("Jag ska se till att boka tågbiljetterna.")]
    #[case::let_you_know_price_once("I'll let you know the price once I've asked.")]
    #[case::have_to_named("I'll have to check out the new climbing gym on Friday.")]
    #[case::have_to_named_da("Jeg vil være nødt til at ringe til tandlægen.")]
    #[case::take_some_time("I'll take some time off next week.")]
    fn open_item_from(#[case] text: &str) {
        assert_eq!(
            not_a_commitment(text),
            None,
            "`{text}` promises something to do (or names no cue, so capture's reading stands)"
        );
    }

    #[rstest::rstest]
    // A future whose subject is not the user (LoCoMo conv-30).
    #[case::tomorrows_gonna(
        "You've come so far since we last talked, and tomorrow's [2023-06-20] gonna be a blast!"
    )]
    #[case::it_will("It'll be so much fun next week [2023-05-15 – 2023-05-21].")]
    #[case::kommer_att_sv("Det kommer att bli kul i morgon [2023-05-09]!")]
    #[case::vil_da("Det vil blive sjovt i morgen [2023-05-09]!")]
    // The named time, then a report in the past (conv-43).
    #[case::got_news(
        "On Friday [2024-01-12], I got great news - I'm finally in the study abroad program!"
    )]
    #[case::has_been(
        "This week [2023-11-13 – 2023-11-19] has been swamped with exams but I'm plowing through."
    )]
    #[case::fick_jag_sv("I fredags [2024-01-12] fick jag goda nyheter.")]
    #[case::har_vaeret_da("Denne uge [2023-11-13 – 2023-11-19] har været travl.")]
    fn no_open_item_whatever_time_it_names(#[case] text: &str) {
        assert!(
            !is_open_item(
                text,
                "2023-05-08T10:00:00.000Z",
                Some("2030-01-01T00:00:00+00:00")
            )
            .unwrap(),
            "`{text}` promises nothing of the user's: a prediction or a report, not a plan"
        );
    }

    #[rstest::rstest]
    #[case::plan_present("Next month [2023-09-01 – 2023-09-30] I'm having an art show.")]
    #[case::no_subject("Gonna call the bank tomorrow [2023-05-09].")]
    #[case::partner_and_i(
        "My partner and I are going to Rome next week [2023-05-15 – 2023-05-21]."
    )]
    #[case::plan_sv("Nästa vecka [2023-05-15 – 2023-05-21] har jag ett möte med banken.")]
    #[case::plan_da("I næste uge [2023-05-15 – 2023-05-21] holder jeg et møde med banken.")]
    #[case::cue_and_past("Yesterday [2023-05-07] I decided that I'll move to Oslo next year.")]
    #[case::past_in_next_sentence(
        "I'm having a party next Friday [2023-05-12]. I invited everyone!"
    )]
    // A plan, then a feeling foretold in another sentence (conv-26).
    #[case::plan_then_feeling(
        "We're putting on a talent show next month [2023-09-01 – 2023-09-30]. I bet they'll feel so proud!"
    )]
    fn open_item_with_its_due_time(#[case] text: &str) {
        assert!(
            is_open_item(
                text,
                "2023-05-08T10:00:00.000Z",
                Some("2030-01-01T00:00:00+00:00")
            )
            .unwrap(),
            "`{text}` is a plan of the user's with a due time ahead"
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
        assert!(
            !is_open_item(
                "Do I need to renew my passport by Friday?",
                said,
                Some("2023-05-13T00:00:00+00:00")
            )
            .unwrap(),
            "a question promises nothing, whatever time it names"
        );
        assert!(
            is_open_item(
                "I'll renew my passport by Friday. Is that enough time?",
                said,
                Some("2023-05-13T00:00:00+00:00")
            )
            .unwrap(),
            "a promise next to a question stays"
        );
    }
}
