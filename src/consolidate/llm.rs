//! The optional LLM path of consolidation (issue 5; DESIGN principle 7): with a chat model
//! configured, consolidation also asks it for facts about the user and for abstractive session
//! summaries. Nothing it says is trusted as it stands (seed 003: "better to miss something
//! than to hallucinate"; verify extraction against the transcript):
//!
//! - **Facts.** Each fact must quote the user's own words: the quote must be found in the
//!   episode the model names ([`find_quote`]: exact, or differing only in white space), that
//!   episode must be the user's (a quote of the assistant is dropped), the value must be in
//!   the quote, and the quote must pass the same attribution check as the rules
//!   ([`facts::not_the_users_own`]: not a hedge, not quoted or reported words, and the subject
//!   of its clause is the user, not "Oskar" or "my sister"). What passes takes one of two
//!   roads, never more trust than the rule path gives:
//!   - the rules read the same attribute and value from the same episode as an outright
//!     statement: the rule path has already stored it as `stated`; the model adds nothing;
//!   - otherwise it is **`inferred`**: it enters the ladder as the rules' quoted claims do, a
//!     candidate (or a conflict with the current value) in the review queue, with a reason
//!     that says the LLM read it. It never supersedes anything by itself and never shows in
//!     the profile until the user confirms it or says it outright.
//! - **Summaries.** The model writes a topic, a summary and the quotes it rests on. Every
//!   quote (listed, or written inline between quotation marks) must be found verbatim in the
//!   messages it was shown, or the summary is rejected and the extractive one kept, with
//!   `method: extractive (llm quote not found)` in the record; so is a summary that names a
//!   person, place or number no message shown says (`llm summary says what was not said`,
//!   [`unsaid_specifics`]). An abstractive summary lists
//!   every episode of the messages the model read, so forgetting any of them removes it; the
//!   summary a forget or an edit rebuilds in its own transaction is extractive.
//! - **Failure.** A transport error or timeout stops the LLM for the rest of the run (no
//!   minute-long wait per session); the rules and extractive summaries stand in, and the
//!   report's `llm.errors` and the summaries' `method` say so. A reply that is not the JSON
//!   asked for falls back the same way for its window.
//! - **Idempotence.** The model is asked only about episodes not yet consolidated and about
//!   sessions whose summary is missing or older than their newest episode, so a second run
//!   asks nothing. All calls happen before the write transaction, so capture is never blocked
//!   on the model.

use std::collections::HashMap;

use rusqlite::{Connection, Transaction, params};
use serde::{Deserialize, Serialize};

use super::facts::{self, Attribute, Claim};
use super::summary::{self, Draft};
use super::{ConsolidationReport, EpisodeRow, ladder};
use crate::capture::llm::find_quote;
use crate::engine::Engine;
use crate::error::Result;
use crate::llm::ChatModel;
use crate::model::Role;

/// Episodes per fact request.
pub const FACT_WINDOW: usize = 24;

/// Messages shown for one session summary at most: the most salient ones, in their order.
pub const SUMMARY_MESSAGES: usize = 40;

const FACTS_PROMPT: &str = "You read a chat between a user and an assistant and list lasting \
facts about the USER that the user states about themselves. Attributes: name, role (job \
title), employer, location (where they live), timezone, language (one they speak), \
communication_style (how they want answers, e.g. concise), tool, expertise, family (value: \
relation and name, e.g. \"daughter Maja\"), pet (value: animal and name), allergy, diet, \
preference (with \"object\": the thing, and value \"likes\" or \"dislikes\"), statement (any \
other lasting trait, value in the user's words). Rules: only the user's own words about \
themselves; never what the assistant says; never traits of other people the user mentions; \
nothing from hedges, plans, questions or quoted words. The quote must be copied character for \
character from the one item it comes from, and the value must appear in the quote. Answer \
with JSON only: {\"facts\": [{\"item\": <number of the item>, \"attribute\": \"<attribute>\", \
\"value\": \"<value>\", \"object\": \"<only for preference>\", \"quote\": \"<exact words>\"}]}";

const SUMMARY_PROMPT: &str = "You summarise one chat session between a user and an assistant \
for the user's long-term memory. Write a short topic (at most eight words), a summary of at \
most three sentences in plain words, and one to three quotes that support it, each copied \
character for character from one message. Do not put any other words in quotation marks. \
Answer with JSON only: {\"topic\": \"<topic>\", \"summary\": \"<summary>\", \"quotes\": \
[\"<exact words>\"]}";

/// What the LLM path did in one consolidation run: counts and the errors that made the rules
/// stand in. `None` in [`ConsolidationReport::llm`] when no LLM is configured. The last run
/// that asked the model is also kept in the store ([`Engine::last_consolidation_llm`]), since
/// consolidation after capture returns no report of its own.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LlmConsolidation {
    /// The model: `llm:<model>`.
    pub model: String,
    /// Requests made (facts and summaries).
    pub requests: usize,
    /// Facts the model proposed.
    pub facts_proposed: usize,
    /// Verified facts the rules also read from the same episode as outright statements: they
    /// are stored `stated` by the rule path; the model adds nothing.
    pub facts_stated_by_rules: usize,
    /// Verified facts the rules did not read as statements, entered as `inferred` (review
    /// queue candidates or conflicts, or support for the same value already held).
    pub facts_inferred: usize,
    /// Facts dropped because their quote is not in the episode they name (suspected
    /// hallucinations), or their value is not in their quote.
    pub quotes_not_found: usize,
    /// Facts dropped because the quote is not the user speaking about themselves: the
    /// assistant's words, another person's trait, reported, quoted or hedged words.
    pub not_the_users_words: usize,
    /// Facts dropped because the attribute is not one Minne knows.
    pub facts_invalid: usize,
    /// Abstractive summaries written.
    pub summaries_abstractive: usize,
    /// Summaries rejected because a quote was not found: the extractive one is kept.
    pub summaries_rejected: usize,
    /// What went wrong with the model, each with where; the rules stood in for each.
    pub errors: Vec<String>,
}

/// The model's work for one run, made before the write transaction.
#[derive(Debug, Default)]
pub(crate) struct Prepared {
    /// Verified `inferred` claims by episode id.
    pub facts: HashMap<i64, Vec<Claim>>,
    /// Summary drafts by session id.
    pub drafts: HashMap<i64, Draft>,
    /// The counts so far; `None` without a model.
    pub report: Option<LlmConsolidation>,
}

#[derive(Deserialize)]
struct FactsReply {
    #[serde(default)]
    facts: Vec<ReplyFact>,
}

#[derive(Deserialize)]
struct ReplyFact {
    item: usize,
    #[serde(default)]
    attribute: String,
    #[serde(default)]
    value: String,
    #[serde(default)]
    object: Option<String>,
    #[serde(default)]
    quote: String,
}

#[derive(Deserialize)]
struct SummaryReply {
    #[serde(default)]
    topic: String,
    #[serde(default)]
    summary: String,
    #[serde(default)]
    quotes: Vec<String>,
}

/// One episode shown to the model.
struct Item {
    id: i64,
    role: Role,
    text: String,
}

/// Why a proposed fact was not kept.
#[derive(Debug, PartialEq)]
enum Verdict {
    /// Verified, and the rules read it too: stored `stated` by the rule path.
    StatedByRules,
    /// Verified: enters as `inferred`.
    Inferred(Claim),
    /// The quote or value is not there.
    NotFound,
    /// Not the user speaking about themselves.
    NotUsers,
    /// Unknown attribute or value.
    Invalid,
}

/// Asks `chat` (when set) for facts about the pending episodes and for summaries of the
/// sessions whose summary is due, and verifies every answer. Errors only on database trouble;
/// every model failure is recorded in the report and left to the rules.
pub(crate) fn prepare(conn: &Connection, chat: Option<&dyn ChatModel>) -> Result<Prepared> {
    let Some(chat) = chat else {
        return Ok(Prepared::default());
    };
    let mut out = Prepared::default();
    let mut report = LlmConsolidation {
        model: chat.id(),
        ..Default::default()
    };
    let mut down = false;
    for items in pending_by_session(conn)? {
        for window in items.chunks(FACT_WINDOW) {
            if down {
                break;
            }
            if !window.iter().any(|i| i.role == Role::User) {
                continue;
            }
            ask_facts(chat, window, &mut out.facts, &mut report, &mut down);
        }
    }
    for (session, covered_to) in summary::changed_sessions(conn)? {
        let draft = if down {
            Some(Draft::Rejected {
                covered_to,
                method: "extractive (llm failed)".to_string(),
            })
        } else {
            ask_summary(conn, chat, session, covered_to, &mut report, &mut down)?
        };
        if let Some(draft) = draft {
            out.drafts.insert(session, draft);
        }
    }
    for e in &report.errors {
        tracing::warn!(error = %e, "the LLM failed; consolidation used the rules");
    }
    report.facts_inferred = out.facts.values().map(Vec::len).sum();
    if report.requests > 0 {
        let json = serde_json::to_string(&report)
            .map_err(|e| crate::error::Error::Llm(format!("recording the LLM report: {e}")))?;
        conn.execute(
            "INSERT INTO context_settings (key, value) VALUES (?1, ?2)
             ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            params![LAST_LLM_KEY, json],
        )?;
    }
    out.report = Some(report);
    Ok(out)
}

/// The `context_settings` key holding the last LLM report of a consolidation that asked it.
const LAST_LLM_KEY: &str = "consolidation_llm";

impl Engine {
    /// What the LLM did in the last consolidation that asked it (counts, and the errors the
    /// rules stood in for), or `None` if none ever did. Errors: [`crate::Error::Database`].
    pub fn last_consolidation_llm(&self) -> Result<Option<LlmConsolidation>> {
        let stored: Option<String> =
            rusqlite::OptionalExtension::optional(self.store.conn().query_row(
                "SELECT value FROM context_settings WHERE key = ?1",
                [LAST_LLM_KEY],
                |r| r.get(0),
            ))?;
        Ok(stored.and_then(|s| serde_json::from_str(&s).ok()))
    }
}

/// The episodes not yet consolidated, grouped by session, in the order they were said.
fn pending_by_session(conn: &Connection) -> Result<Vec<Vec<Item>>> {
    let mut stmt = conn.prepare(
        "SELECT e.id, e.role, e.text, m.session_id FROM episodes e JOIN messages m ON m.id = e.message_id
         WHERE NOT EXISTS (SELECT 1 FROM consolidated_episodes c WHERE c.episode_id = e.id)
         ORDER BY m.session_id, e.occurred_at, e.id",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, i64>(3)?,
        ))
    })?;
    let mut out: Vec<Vec<Item>> = Vec::new();
    let mut last = None;
    for row in rows {
        let (id, role, text, session) = row?;
        let item = Item {
            id,
            role: role.parse()?,
            text,
        };
        match out.last_mut() {
            Some(group) if last == Some(session) => group.push(item),
            _ => out.push(vec![item]),
        }
        last = Some(session);
    }
    Ok(out)
}

fn transcript(items: impl Iterator<Item = (Role, String)>) -> String {
    items
        .enumerate()
        .map(|(i, (role, text))| format!("[{}] {role}: {text}\n", i + 1))
        .collect()
}

fn ask_facts(
    chat: &dyn ChatModel,
    window: &[Item],
    facts: &mut HashMap<i64, Vec<Claim>>,
    report: &mut LlmConsolidation,
    down: &mut bool,
) {
    report.requests += 1;
    let shown = transcript(window.iter().map(|i| (i.role, i.text.clone())));
    let raw = match chat.complete(FACTS_PROMPT, &shown) {
        Ok(raw) => raw,
        Err(e) => {
            report.errors.push(format!(
                "facts for {} episodes: {e}; the rules stood in",
                window.len()
            ));
            *down = true;
            return;
        }
    };
    let reply: FactsReply = match serde_json::from_str(json_body(&raw)) {
        Ok(r) => r,
        Err(e) => {
            report.errors.push(format!(
                "facts for {} episodes: the reply is not the JSON asked for ({e}); the rules stood in",
                window.len()
            ));
            return;
        }
    };
    for fact in reply.facts {
        report.facts_proposed += 1;
        match verify_fact(window, &fact) {
            Verdict::StatedByRules => report.facts_stated_by_rules += 1,
            Verdict::Inferred(claim) => {
                let id = window[fact.item - 1].id;
                let list = facts.entry(id).or_default();
                if !list.contains(&claim) {
                    list.push(claim);
                }
            }
            Verdict::NotFound => report.quotes_not_found += 1,
            Verdict::NotUsers => report.not_the_users_words += 1,
            Verdict::Invalid => report.facts_invalid += 1,
        }
    }
}

fn verify_fact(window: &[Item], fact: &ReplyFact) -> Verdict {
    let Some(item) = fact.item.checked_sub(1).and_then(|i| window.get(i)) else {
        return Verdict::NotFound;
    };
    let in_assistant_words = || {
        window
            .iter()
            .any(|i| i.role != Role::User && find_quote(&i.text, &fact.quote).is_some())
    };
    if item.role != Role::User {
        return if find_quote(&item.text, &fact.quote).is_some() {
            Verdict::NotUsers
        } else {
            Verdict::NotFound
        };
    }
    let Some(span) = find_quote(&item.text, &fact.quote) else {
        return if in_assistant_words() {
            Verdict::NotUsers
        } else {
            Verdict::NotFound
        };
    };
    let quote = item.text[span.clone()].to_lowercase();
    let key = fact.attribute.trim().to_lowercase();
    let object = fact
        .object
        .as_deref()
        .map(|o| o.trim().to_lowercase())
        .filter(|o| !o.is_empty())
        .or_else(|| {
            key.strip_prefix("preference:")
                .map(|o| o.trim().to_string())
        });
    let attribute = if key == "preference" || key.starts_with("preference:") {
        match object {
            Some(o) => Attribute::Preference(o),
            None => return Verdict::Invalid,
        }
    } else {
        match Attribute::parse(&key) {
            Some(a) => a,
            None => return Verdict::Invalid,
        }
    };
    let value = fact.value.trim().to_string();
    match &attribute {
        Attribute::Preference(object) => {
            if !matches!(value.as_str(), "likes" | "dislikes") {
                return Verdict::Invalid;
            }
            if !quote.contains(object.as_str()) {
                return Verdict::NotFound;
            }
        }
        _ => {
            if value.is_empty() || !quote.contains(&value.to_lowercase()) {
                return Verdict::NotFound;
            }
        }
    }
    let kin = matches!(attribute, Attribute::Family | Attribute::Pet);
    if facts::not_the_users_own(&item.text, span, kin).is_some() {
        return Verdict::NotUsers;
    }
    let norm = value.to_lowercase();
    let stated = facts::extract(&item.text).iter().any(|c| {
        !c.quoted && !c.ends && c.attribute == attribute && c.value.trim().to_lowercase() == norm
    });
    if stated {
        return Verdict::StatedByRules;
    }
    // Entered as the rules enter quoted words: `inferred`, for the user to confirm.
    Verdict::Inferred(Claim {
        attribute,
        value,
        correction: false,
        quoted: true,
        replaces: None,
        ends: false,
    })
}

/// One message shown for a summary, with every episode drawn from it.
struct Shown {
    role: Role,
    text: String,
    episodes: Vec<i64>,
}

fn ask_summary(
    conn: &Connection,
    chat: &dyn ChatModel,
    session: i64,
    covered_to: i64,
    report: &mut LlmConsolidation,
    down: &mut bool,
) -> Result<Option<Draft>> {
    let shown = summary_messages(conn, session)?;
    if shown.is_empty() {
        return Ok(None);
    }
    let rejected = |method: &str| {
        Some(Draft::Rejected {
            covered_to,
            method: method.to_string(),
        })
    };
    report.requests += 1;
    let raw = match chat.complete(
        SUMMARY_PROMPT,
        &transcript(shown.iter().map(|m| (m.role, m.text.clone()))),
    ) {
        Ok(raw) => raw,
        Err(e) => {
            report.errors.push(format!(
                "summary of session {session}: {e}; the extractive summary stands"
            ));
            *down = true;
            return Ok(rejected("extractive (llm failed)"));
        }
    };
    let reply: SummaryReply = match serde_json::from_str(json_body(&raw)) {
        Ok(r) => r,
        Err(e) => {
            report.errors.push(format!(
                "summary of session {session}: the reply is not the JSON asked for ({e}); the extractive summary stands"
            ));
            return Ok(rejected("extractive (llm reply not JSON)"));
        }
    };
    let summary = reply.summary.trim().to_string();
    let topic = reply.topic.trim().to_string();
    if summary.is_empty() || topic.is_empty() {
        report.summaries_rejected += 1;
        return Ok(rejected("extractive (llm summary empty)"));
    }
    let cited: Vec<String> = reply
        .quotes
        .iter()
        .cloned()
        .chain(inline_quotes(&summary))
        .collect();
    let verified = !reply.quotes.is_empty()
        && cited
            .iter()
            .all(|q| shown.iter().any(|m| find_quote(&m.text, q).is_some()));
    if !verified {
        report.summaries_rejected += 1;
        return Ok(rejected("extractive (llm quote not found)"));
    }
    // Real quotes do not make the rest true: a name, place or number the summary or topic
    // gives that no message shown says was invented (a fresh user's summary added a city
    // and a date to two real quotes).
    let said: Vec<String> = shown.iter().map(|m| m.text.to_lowercase()).collect();
    if !unsaid_specifics(&format!("{topic}. {summary}"), &said).is_empty() {
        report.summaries_rejected += 1;
        return Ok(rejected("extractive (llm summary says what was not said)"));
    }
    let mut episode_ids: Vec<i64> = shown.iter().flat_map(|m| m.episodes.clone()).collect();
    episode_ids.sort_unstable();
    episode_ids.dedup();
    report.summaries_abstractive += 1;
    Ok(Some(Draft::Abstractive {
        covered_to,
        topic,
        summary,
        episode_ids,
        method: format!("abstractive ({})", chat.id()),
    }))
}

/// The session's messages that gave at least one non-routine episode, in order; the
/// [`SUMMARY_MESSAGES`] most salient when there are more.
fn summary_messages(conn: &Connection, session: i64) -> Result<Vec<Shown>> {
    let mut stmt = conn.prepare(
        "SELECT m.role, m.text, group_concat(e.id), max(e.salience), m.seq
         FROM messages m JOIN episodes e ON e.message_id = m.id
         WHERE m.session_id = ?1
         GROUP BY m.id HAVING max(e.kind != 'routine') = 1
         ORDER BY m.seq",
    )?;
    let rows = stmt.query_map([session], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, f64>(3)?,
            r.get::<_, i64>(4)?,
        ))
    })?;
    let mut all = Vec::new();
    for row in rows {
        let (role, text, ids, salience, seq) = row?;
        let episodes = ids.split(',').filter_map(|s| s.parse().ok()).collect();
        all.push((
            seq,
            salience,
            Shown {
                role: role.parse()?,
                text,
                episodes,
            },
        ));
    }
    if all.len() > SUMMARY_MESSAGES {
        all.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        all.truncate(SUMMARY_MESSAGES);
        all.sort_by_key(|(seq, _, _)| *seq);
    }
    Ok(all.into_iter().map(|(_, _, m)| m).collect())
}

/// The specifics of `text` that none of `said` (lower-cased texts) holds: each word with a
/// digit ("12", "2026-05-03") and each capitalised word that does not open a sentence (a
/// name: "Berlin", "Sara"), compared lower-cased as a part of a said text, so "Sara's"
/// finds "Sara" and "Friday" finds "friday". Other words may be paraphrased; these may not.
pub(crate) fn unsaid_specifics(text: &str, said: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut opens = true;
    for raw in text.split_whitespace() {
        let word: String = raw
            .trim_matches(|c: char| !c.is_alphanumeric())
            .trim_end_matches("'s")
            .trim_end_matches("’s")
            .to_string();
        let starts_sentence = opens;
        opens = raw.ends_with(['.', '!', '?', ':']);
        if word.is_empty() {
            continue;
        }
        let numeric = word.chars().any(|c| c.is_ascii_digit());
        let named =
            !starts_sentence && word.chars().next().is_some_and(char::is_uppercase) && word != "I";
        if !(numeric || named) {
            continue;
        }
        let low = word.to_lowercase();
        if !said.iter().any(|t| t.contains(&low)) && !out.contains(&word) {
            out.push(word);
        }
    }
    out
}

/// The passages of `text` written between quotation marks (`"…"`, `“…”`, `«…»`, `„…“`).
fn inline_quotes(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut open: Option<(usize, char)> = None;
    for (i, c) in text.char_indices() {
        match (open, c) {
            (None, '"' | '“' | '«' | '„') => open = Some((i + c.len_utf8(), c)),
            (Some((start, o)), _)
                if matches!(
                    (o, c),
                    ('"', '"') | ('“', '”') | ('«', '»') | ('„', '“') | ('„', '”')
                ) =>
            {
                let q = text[start..i].trim();
                if !q.is_empty() {
                    out.push(q.to_string());
                }
                open = None;
            }
            _ => {}
        }
    }
    out
}

/// The JSON object in a reply: models often wrap it in a Markdown fence or a sentence.
fn json_body(raw: &str) -> &str {
    match (raw.find('{'), raw.rfind('}')) {
        (Some(start), Some(end)) if start < end => &raw[start..=end],
        _ => raw.trim(),
    }
}

/// Applies the verified `inferred` claims the model read from episode `ep`, through the same
/// ladder as the rules' quoted claims (duplicates add support, a single-valued attribute with
/// another current value gives a conflict, a rejected one is not proposed again), and says in
/// the review entry that the LLM read it.
pub(crate) fn apply_facts(
    tx: &Transaction<'_>,
    ep: &EpisodeRow,
    prepared: &mut Prepared,
    now: &str,
    report: &mut ConsolidationReport,
) -> Result<()> {
    let Some(claims) = prepared.facts.remove(&ep.id) else {
        return Ok(());
    };
    let model = prepared
        .report
        .as_ref()
        .map_or_else(|| "llm".to_string(), |r| r.model.clone());
    for claim in claims {
        let (candidates, conflicts) = (report.candidates, report.conflicts);
        ladder::apply(tx, &claim, ep, now, report)?;
        let reason = if report.conflicts > conflicts {
            format!(
                "{model} read this from the user's words, not as an outright statement the rules recognise, and it disagrees with the current value"
            )
        } else if report.candidates > candidates {
            format!(
                "{model} read this from the user's words, not as an outright statement the rules recognise"
            )
        } else {
            continue;
        };
        tx.execute(
            "UPDATE review_queue SET reason = ?1
             WHERE status = 'open' AND created_at = ?2 AND fact_id =
               (SELECT id FROM facts WHERE attribute = ?3 AND norm = ?4 AND status = 'candidate'
                ORDER BY id DESC LIMIT 1)",
            params![
                reason,
                now,
                claim.attribute.key(),
                claim.value.trim().to_lowercase()
            ],
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(id: i64, role: Role, text: &str) -> Item {
        Item {
            id,
            role,
            text: text.to_string(),
        }
    }

    fn fact(item: usize, attribute: &str, value: &str, quote: &str) -> ReplyFact {
        ReplyFact {
            item,
            attribute: attribute.to_string(),
            value: value.to_string(),
            object: None,
            quote: quote.to_string(),
        }
    }

    #[test]
    fn a_fact_is_checked_against_the_words_and_the_speaker() {
        let window = [
            item(
                1,
                Role::User,
                "We moved to Tartu in May. Oskar hates football.",
            ),
            item(2, Role::Assistant, "You are a wonderful product manager."),
            item(3, Role::User, "Honestly I'm mostly a night owl these days."),
        ];
        // The rules read "we moved to Tartu" as an outright statement: stated by the rules.
        assert_eq!(
            verify_fact(&window, &fact(1, "location", "Tartu", "We moved to Tartu")),
            Verdict::StatedByRules
        );
        // Another person's trait is never the user's.
        assert_eq!(
            verify_fact(
                &window,
                &fact(1, "statement", "hates football", "Oskar hates football")
            ),
            Verdict::NotUsers
        );
        // The assistant's words, named as the assistant's or as the user's.
        assert_eq!(
            verify_fact(
                &window,
                &fact(2, "role", "product manager", "wonderful product manager")
            ),
            Verdict::NotUsers
        );
        assert_eq!(
            verify_fact(
                &window,
                &fact(1, "role", "product manager", "wonderful product manager")
            ),
            Verdict::NotUsers
        );
        // Words that are nowhere, or a value that is not in the quote.
        assert_eq!(
            verify_fact(&window, &fact(1, "location", "Riga", "We moved to Riga")),
            Verdict::NotFound
        );
        assert_eq!(
            verify_fact(&window, &fact(1, "location", "Riga", "We moved to Tartu")),
            Verdict::NotFound
        );
        assert_eq!(
            verify_fact(&window, &fact(1, "shoe_size", "42", "We moved to Tartu")),
            Verdict::Invalid
        );
        // The user's own words that the rules do not read as a statement: inferred.
        match verify_fact(
            &window,
            &fact(3, "statement", "night owl", "I'm mostly a night owl"),
        ) {
            Verdict::Inferred(c) => {
                assert!(c.quoted, "enters the ladder as inferred");
                assert_eq!(c.value, "night owl");
            }
            other => panic!("expected inferred, got {other:?}"),
        }
    }

    #[test]
    fn a_name_or_number_no_message_says_is_unsaid() {
        let said = vec![
            "the launch is friday, not next week".to_string(),
            "i will send the press kit to sara.".to_string(),
        ];
        let good = "Launch moved to Friday. The user moved the launch to Friday and will send \
                    the press kit to Sara's team.";
        assert_eq!(unsaid_specifics(good, &said), Vec::<String>::new());
        let invented = "The user moved the launch to Friday, 12 May, and flies to Berlin.";
        assert_eq!(unsaid_specifics(invented, &said), ["12", "May", "Berlin"]);
    }

    #[test]
    fn inline_quotes_and_json_bodies() {
        assert_eq!(
            inline_quotes("They said “the launch is Friday” and \"no more\"."),
            ["the launch is Friday", "no more"]
        );
        assert_eq!(json_body("Sure:\n```json\n{\"a\": 1}\n```"), "{\"a\": 1}");
    }
}
