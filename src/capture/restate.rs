//! Restatements (issue 7, failure kind `duplicate_handling`): a user who says the same thing
//! again reinforces the memory they already have instead of adding a copy of it.
//!
//! A new episode **restates** a stored one when both are from the same speaker, neither is
//! routine, the new one is said in the same conversation or marked as a repetition ("once
//! more", "as I said", "igen", "som sagt", "en gang til": [`RESTATEMENT_CUES`]), and either
//! - their normalised words are equal (lowercased, punctuation and spacing ignored), or
//! - the new one carries key content (dates, numbers, names) that the stored one all carries
//!   too, adds no key content of its own, agrees on negation, and at least
//!   [`MIN_COVERAGE`] of its other content words (stemmed to [`STEM_CHARS`] letters, filler
//!   such as "once more, just to be safe" left out) appear in the stored one.
//!
//! Across conversations an unmarked repeat is kept as its own memory: the same words on
//! another day can be a new happening ("Kaja lent me a book", "I owe Bo 200 kronor"), and a
//! product that holds thousands of such records must list each of them (the scale case,
//! MEM-22, lists every generated statement).
//!
//! Then capture links the new message to the stored episode as a **mention** (table
//! `episode_mentions`, migration 7) instead of storing a second episode; `mention_count` counts
//! the sources. Forgetting one source drops only its link ([`rehome`] moves an episode whose
//! own message is forgotten onto its earliest remaining mention); forgetting the episode
//! forgets every source.

use std::collections::{BTreeSet, HashMap, HashSet};

use chrono::FixedOffset;
use rusqlite::{OptionalExtension, Transaction, params};

use crate::capture::rules;
use crate::error::{Error, Result};
use crate::model::{MessageInput, Role};
use crate::store::{fmt_fixed, parse_fixed};

/// Share of a restatement's content words (beyond its key content) that the stored episode
/// must contain: three in four.
pub const MIN_COVERAGE: f64 = 0.75;

/// Letters a content word is cut to before comparing ("expires", "expiry" → "expir"): a
/// light stemmer that works alike for English, Swedish and Danish inflections.
pub const STEM_CHARS: usize = 5;

/// Words that carry no content of their own: function words and the fillers people wrap a
/// repetition in ("once more", "just to be safe", "som sagt", "en gang til").
#[rustfmt::skip]
const FILLER: &[&str] = &[
    // English
    "a", "an", "the", "is", "are", "was", "were", "be", "been", "am", "on", "in", "at", "of",
    "to", "for", "and", "or", "my", "me", "i", "it", "its", "it's", "that", "this", "with",
    "by", "as", "so", "just", "once", "more", "again", "safe", "sure", "said", "say", "like",
    "reminder", "still", "also", "please", "ok", "okay", "yes", "well", "again,", "note",
    // Swedish
    "en", "ett", "den", "det", "är", "var", "och", "att", "jag", "min", "mitt", "mina", "på",
    "i", "av", "för", "med", "som", "sagt", "igen", "gång", "till", "bara", "säkerhets",
    "skull", "också", "fortfarande",
    // Danish
    "et", "er", "og", "jeg", "mit", "mine", "af", "for", "med", "gang", "til", "bare",
    "sikkerheds", "skyld", "også", "stadig",
];

/// Words by which a speaker marks that they are saying something again, lowercased; matched
/// as substrings of the lowercased message.
#[rustfmt::skip]
pub const RESTATEMENT_CUES: &[&str] = &[
    "once more", "once again", "again,", "again:", "again.", "as i said", "like i said",
    "as i mentioned", "as i told you", "just to be safe", "just to be sure", "to repeat",
    "reminder:", "igen", "återigen", "som sagt", "en gång till", "för säkerhets skull",
    "som jag sa", "som jeg sagde", "en gang til", "for en sikkerheds skyld", "endnu en gang",
];

/// Whether the message marks itself as a repetition.
pub fn marked_as_repeat(text: &str) -> bool {
    let low = text.to_lowercase();
    RESTATEMENT_CUES.iter().any(|c| low.contains(c))
}

/// Negation words: a restatement must agree with the stored episode on them.
const NEGATIONS: &[&str] = &[
    "not", "no", "never", "don't", "doesn't", "didn't", "isn't", "wasn't", "won't", "can't",
    "inte", "aldrig", "ej", "ikke", "ingen", "inga",
];

/// The comparable shape of an episode's words.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Shape {
    /// Lowercased words joined by single spaces, punctuation dropped.
    norm: String,
    /// Dates, numbers and names, lowercased.
    keys: BTreeSet<String>,
    /// Stems of the other content words.
    stems: HashSet<String>,
    /// Whether a negation word occurs.
    negated: bool,
}

impl Shape {
    /// The shape of `text`.
    pub(crate) fn of(text: &str, participants: &[String]) -> Shape {
        let mut words: Vec<String> = Vec::new();
        let mut keys = BTreeSet::new();
        let mut stems = HashSet::new();
        let mut negated = false;
        let mut sentence_start = true;
        // Named people capture found are key content wherever they stand ("Tyra Berg prefers
        // tea" and "Kaja Berg prefers tea" are about different people).
        for p in participants {
            keys.extend(p.split_whitespace().map(str::to_lowercase));
        }
        let raw: Vec<&str> = text.split_whitespace().collect();
        let capitalised = |w: &str| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .chars()
                .next()
                .is_some_and(char::is_uppercase)
        };
        for (k, raw_word) in raw.iter().enumerate() {
            let ends_sentence = raw_word.ends_with(['.', '!', '?', ':']);
            let word: String = raw_word
                .trim_matches(|c: char| !c.is_alphanumeric())
                .to_string();
            if word.is_empty() {
                sentence_start = sentence_start || ends_sentence;
                continue;
            }
            let low = word.to_lowercase();
            let filler = FILLER.contains(&low.as_str());
            // A capitalised word inside a sentence is a name; so is one opening a sentence when
            // the next word is capitalised too ("Tyra Berg prefers ...").
            let name = capitalised(raw_word)
                && low != "i"
                && (!sentence_start
                    || (!filler
                        && !ends_sentence
                        && raw.get(k + 1).is_some_and(|next| capitalised(next))));
            if low.chars().any(|c| c.is_ascii_digit()) || name {
                keys.insert(low.clone());
            } else if NEGATIONS.contains(&low.as_str()) {
                negated = true;
            } else if !filler && !keys.contains(&low) {
                stems.insert(low.chars().take(STEM_CHARS).collect());
            }
            words.push(low);
            sentence_start = ends_sentence;
        }
        Shape {
            norm: words.join(" "),
            keys,
            stems,
            negated,
        }
    }

    /// Whether `self` (a new episode) restates `stored` under the rule of the module docs.
    pub(crate) fn restates(&self, stored: &Shape) -> bool {
        if self.norm.is_empty() {
            return false;
        }
        if self.norm == stored.norm {
            return true;
        }
        if self.keys.is_empty()
            || !self.keys.is_subset(&stored.keys)
            || self.negated != stored.negated
            || self.stems.is_empty()
        {
            return false;
        }
        let covered = self
            .stems
            .iter()
            .filter(|s| stored.stems.contains(*s))
            .count();
        covered as f64 / self.stems.len() as f64 >= MIN_COVERAGE
    }
}

/// The stored episodes of one capture batch's speakers, by shape, to find restatements fast:
/// exact matches by normalised words, the rest through their key content.
#[derive(Debug, Default)]
pub(crate) struct Index {
    /// (episode id, speaker, a session it was said in, shape).
    shapes: Vec<(i64, String, i64, Shape)>,
    by_norm: HashMap<(String, String), Vec<usize>>,
    by_key: HashMap<(String, String), Vec<usize>>,
}

impl Index {
    /// Every non-routine episode in the store, once per session it was said in.
    pub(crate) fn load(tx: &Transaction<'_>) -> Result<Index> {
        let mut index = Index::default();
        let mut stmt = tx.prepare(
            "SELECT e.id, e.actor, m.session_id, e.text, (SELECT group_concat(p.name, char(31))
                 FROM episode_participants p WHERE p.episode_id = e.id)
             FROM episodes e JOIN messages m ON m.id = e.message_id
             WHERE e.kind != 'routine'
             UNION ALL
             SELECT e.id, e.actor, m.session_id, e.text, (SELECT group_concat(p.name, char(31))
                 FROM episode_participants p WHERE p.episode_id = e.id)
             FROM episode_mentions x
               JOIN episodes e ON e.id = x.episode_id JOIN messages m ON m.id = x.message_id
             WHERE e.kind != 'routine'",
        )?;
        let rows = stmt
            .query_map([], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })?
            .collect::<rusqlite::Result<Vec<(i64, String, i64, String, Option<String>)>>>()?;
        for (id, actor, session, text, names) in rows {
            let names: Vec<String> = names
                .map(|n| n.split('\u{1f}').map(str::to_string).collect())
                .unwrap_or_default();
            index.add(id, &actor, session, &text, &names);
        }
        Ok(index)
    }

    /// Adds a stored episode as said in `session`.
    pub(crate) fn add(
        &mut self,
        id: i64,
        actor: &str,
        session: i64,
        text: &str,
        participants: &[String],
    ) {
        let shape = Shape::of(text, participants);
        let i = self.shapes.len();
        self.by_norm
            .entry((actor.to_string(), shape.norm.clone()))
            .or_default()
            .push(i);
        for k in &shape.keys {
            self.by_key
                .entry((actor.to_string(), k.clone()))
                .or_default()
                .push(i);
        }
        self.shapes.push((id, actor.to_string(), session, shape));
    }

    /// The stored episode of `actor` that `text`, said in `session`, restates, if any (the
    /// earliest such): one said in the same session, or any when the message is `marked` as a
    /// repetition ([`marked_as_repeat`]).
    pub(crate) fn find(
        &self,
        actor: &str,
        session: i64,
        marked: bool,
        text: &str,
        participants: &[String],
    ) -> Option<i64> {
        let shape = Shape::of(text, participants);
        let allowed = |i: &&usize| marked || self.shapes[**i].2 == session;
        if let Some(&i) = self
            .by_norm
            .get(&(actor.to_string(), shape.norm.clone()))
            .and_then(|v| v.iter().find(allowed))
        {
            return Some(self.shapes[i].0);
        }
        let first_key = shape.keys.iter().next()?;
        self.by_key
            .get(&(actor.to_string(), first_key.clone()))?
            .iter()
            .filter(allowed)
            .map(|&i| &self.shapes[i])
            .find(|(_, _, _, stored)| shape.restates(stored))
            .map(|(id, _, _, _)| *id)
    }
}

/// One source message of an episode.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Mention {
    /// The message's row id.
    pub message_id: i64,
    /// The message's id in its file or case, if it had one.
    pub external_id: Option<String>,
    /// When it was written (RFC 3339 UTC, as stored).
    pub sent_at: String,
}

impl Mention {
    /// The message's id as a user or a check names it: its id in its file or case, else
    /// `minne:<row id>` (the id a JSON export gives a message that had none).
    pub fn id(&self) -> String {
        self.external_id
            .clone()
            .unwrap_or_else(|| format!("minne:{}", self.message_id))
    }
}

impl crate::engine::Engine {
    /// Every source message of an episode, its own first, then its restatements in the order
    /// they were said. Errors: [`Error::NotFound`] for an unknown episode.
    pub fn episode_sources(&self, episode: crate::model::EpisodeId) -> Result<Vec<Mention>> {
        let conn = self.store.conn();
        let own: Option<Mention> = conn
            .query_row(
                "SELECT m.id, m.external_id, m.sent_at FROM episodes e JOIN messages m ON m.id = e.message_id
                 WHERE e.id = ?1",
                [episode.0],
                |r| {
                    Ok(Mention {
                        message_id: r.get(0)?,
                        external_id: r.get(1)?,
                        sent_at: r.get(2)?,
                    })
                },
            )
            .optional()?;
        let own = own.ok_or(Error::NotFound {
            kind: "episode",
            id: episode.0,
        })?;
        let mut stmt = conn.prepare(
            "SELECT m.id, m.external_id, m.sent_at FROM episode_mentions x JOIN messages m ON m.id = x.message_id
             WHERE x.episode_id = ?1 ORDER BY m.sent_at, m.id",
        )?;
        let rest = stmt
            .query_map([episode.0], |r| {
                Ok(Mention {
                    message_id: r.get(0)?,
                    external_id: r.get(1)?,
                    sent_at: r.get(2)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(std::iter::once(own).chain(rest).collect())
    }

    /// The ids of every source message of an episode ([`Engine::episode_sources`], its own
    /// first), as a user or a check names them: the id the message had in its file or case,
    /// else `minne:<row id>`, as a JSON export writes it. Errors: [`Error::NotFound`] for an
    /// unknown episode.
    ///
    /// [`Engine::episode_sources`]: crate::engine::Engine::episode_sources
    pub fn source_message_ids(&self, episode: crate::model::EpisodeId) -> Result<Vec<String>> {
        Ok(self
            .episode_sources(episode)?
            .into_iter()
            .map(|m| m.id())
            .collect())
    }

    /// How many times the episode was said: its own message plus its restatements (≥ 1).
    /// Errors: [`Error::NotFound`] for an unknown episode.
    pub fn mention_count(&self, episode: crate::model::EpisodeId) -> Result<u64> {
        let n: Option<i64> = self
            .store
            .conn()
            .query_row(
                "SELECT mention_count FROM episodes WHERE id = ?1",
                [episode.0],
                |r| r.get(0),
            )
            .optional()?;
        n.map(|n| n.max(1) as u64).ok_or(Error::NotFound {
            kind: "episode",
            id: episode.0,
        })
    }
}

/// Links message `message_id` (span `span`) to the stored episode `episode` as a restatement,
/// and reinforces the episode: its salience and lifespan become the higher of the two.
/// Returns whether a new link was made (a message restating an episode twice links once).
pub(crate) fn link(
    tx: &Transaction<'_>,
    episode: i64,
    message_id: i64,
    span: (usize, usize),
    salience: f64,
    stability_days: f64,
    participants: &[String],
) -> Result<bool> {
    let own: i64 = tx.query_row(
        "SELECT message_id FROM episodes WHERE id = ?1",
        [episode],
        |r| r.get(0),
    )?;
    if own == message_id {
        return Ok(false);
    }
    let added = tx.execute(
        "INSERT OR IGNORE INTO episode_mentions (episode_id, message_id, span_start, span_end)
         VALUES (?1, ?2, ?3, ?4)",
        params![episode, message_id, span.0 as i64, span.1 as i64],
    )?;
    if added > 0 {
        tx.execute(
            "UPDATE episodes SET salience = max(salience, ?2), stability_days = max(stability_days, ?3)
             WHERE id = ?1",
            params![episode, salience, stability_days],
        )?;
        for name in participants {
            tx.execute(
                "INSERT OR IGNORE INTO episode_participants (episode_id, name) VALUES (?1, ?2)",
                params![episode, name],
            )?;
        }
    }
    Ok(added > 0)
}

/// Before the messages selected by `in_scope` (an SQL `SELECT id FROM messages WHERE …` with
/// `args`) are deleted: every episode whose own message is among them but which has a mention
/// outside them moves onto its earliest such mention (message, span, words and time from that
/// message, as capture would have stored them), so forgetting one source keeps the memory the
/// other sources still support. The moved episode's vector and the session summaries quoting
/// it go (they hold the forgotten words); the next embedding and consolidation rebuild them.
/// Returns how many episodes moved.
pub(crate) fn rehome(tx: &Transaction<'_>, in_scope: &str, args: &[String]) -> Result<usize> {
    let sql = format!(
        "SELECT e.id, x.message_id, x.span_start, x.span_end, m.role, m.text, m.sent_at, m.utc_offset_s
         FROM episodes e JOIN episode_mentions x ON x.episode_id = e.id
         JOIN messages m ON m.id = x.message_id
         WHERE e.message_id IN ({in_scope}) AND x.message_id NOT IN ({in_scope})
         ORDER BY e.id, m.sent_at, m.id"
    );
    let candidates = {
        let mut stmt = tx.prepare(&sql)?;
        // The scope's parameters are numbered (`?1`), so both uses of it share them.
        stmt.query_map(rusqlite::params_from_iter(args), |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, String>(6)?,
                r.get::<_, i64>(7)?,
            ))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?
    };
    let zone = crate::zone::stored(tx)?;
    let mut moved = HashSet::new();
    for (episode, message_id, start, end, role, text, sent_at, offset) in candidates {
        if !moved.insert(episode) {
            continue; // already moved onto an earlier mention
        }
        let offset = FixedOffset::east_opt(offset as i32).ok_or_else(|| {
            Error::InvalidInput(format!("stored UTC offset {offset} s is out of range"))
        })?;
        let timestamp = parse_fixed(&sent_at)?.with_timezone(&offset);
        let role: Role = role.parse()?;
        let span = (start as usize, end as usize);
        let found = rules::extract(&MessageInput {
            role,
            text: &text,
            timestamp,
            zone: Some(zone),
        })
        .into_iter()
        .find(|x| x.span == (span.0..span.1));
        let words = match &found {
            Some(x) => rules::shown_text(x),
            None => text
                .get(span.0..span.1)
                .map(str::to_string)
                .unwrap_or_default(),
        };
        let when = found.and_then(|x| x.when);
        tx.execute(
            "DELETE FROM episode_mentions WHERE episode_id = ?1 AND message_id = ?2",
            params![episode, message_id],
        )?;
        tx.execute(
            "UPDATE episodes SET message_id = ?2, span_start = ?3, span_end = ?4, text = ?5,
                    occurred_at = ?6, event_expression = ?7, event_start = ?8, event_end = ?9
             WHERE id = ?1",
            params![
                episode,
                message_id,
                start,
                end,
                words,
                sent_at,
                when.as_ref().map(|w| w.expression.clone()),
                when.as_ref().map(|w| fmt_fixed(w.start)),
                when.as_ref().map(|w| fmt_fixed(w.end)),
            ],
        )?;
        tx.execute("DELETE FROM embeddings WHERE episode_id = ?1", [episode])?;
        tx.execute(
            "DELETE FROM session_summaries WHERE instr(episode_ids, ',' || ?1 || ',') > 0",
            [episode],
        )?;
    }
    Ok(moved.len())
}

/// Replaces bytes `[start, end)` of message `message_id` with `placeholder` and moves every
/// later span in it (episodes' and mentions') by the change in length. The message's dedupe
/// key is retired, since it no longer holds its original words.
pub(crate) fn cut_span(
    tx: &Transaction<'_>,
    message_id: i64,
    start: usize,
    end: usize,
    placeholder: &str,
) -> Result<()> {
    let text: String = tx.query_row(
        "SELECT text FROM messages WHERE id = ?1",
        [message_id],
        |r| r.get(0),
    )?;
    let (Some(before), Some(after)) = (text.get(..start), text.get(end..)) else {
        return Err(Error::InvalidInput(format!(
            "span {start}..{end} lies outside message {message_id}"
        )));
    };
    let cut = format!("{before}{placeholder}{after}");
    let delta = placeholder.len() as i64 - (end - start) as i64;
    tx.execute(
        "UPDATE messages SET text = ?2 WHERE id = ?1",
        params![message_id, cut],
    )?;
    // The key follows the words, so an export written now re-imports as this same message.
    let key = crate::engine::dedupe_key_of(tx, message_id)?;
    tx.execute(
        "UPDATE messages SET dedupe_key = ?2 WHERE id = ?1",
        params![message_id, key],
    )?;
    tx.execute(
        "UPDATE episodes SET span_start = span_start + ?3, span_end = span_end + ?3
         WHERE message_id = ?1 AND span_start >= ?2",
        params![message_id, end as i64, delta],
    )?;
    tx.execute(
        "UPDATE episode_mentions SET span_start = span_start + ?3, span_end = span_end + ?3
         WHERE message_id = ?1 AND span_start >= ?2",
        params![message_id, end as i64, delta],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_words_are_a_restatement_whatever_the_case_and_punctuation() {
        let a = Shape::of(
            "My passport expires on 2027-08-14, number ending 3391.",
            &[],
        );
        let b = Shape::of("my passport expires on 2027-08-14 number ending 3391", &[]);
        assert!(b.restates(&a), "only case and punctuation differ");
    }

    #[test]
    fn a_shorter_restatement_with_the_same_date_is_one() {
        let stored = Shape::of(
            "My passport expires on 2027-08-14, number ending 3391. Remind me six months before.",
            &[],
        );
        let again = Shape::of(
            "Once more, just to be safe: passport expiry is 2027-08-14.",
            &[],
        );
        // Key content {2027-08-14} is in the stored episode; "passport", "expiry" stem to
        // "passp", "expir", both in it; the rest is filler.
        assert!(again.restates(&stored));
    }

    #[test]
    fn new_key_content_or_other_words_or_a_negation_is_not_a_restatement() {
        let stored = Shape::of("My passport expires on 2027-08-14.", &[]);
        assert!(
            !Shape::of("My passport expires on 2027-09-14.", &[]).restates(&stored),
            "another date is another fact"
        );
        assert!(
            !Shape::of("The dentist appointment is on 2027-08-14.", &[]).restates(&stored),
            "the same date about something else"
        );
        assert!(
            !Shape::of("My passport does not expire on 2027-08-14.", &[]).restates(&stored),
            "a denial is not a restatement"
        );
        assert!(
            !Shape::of("I love hiking.", &[]).restates(&Shape::of("I love sailing.", &[])),
            "no key content and other words"
        );
    }

    #[test]
    fn a_name_opening_the_sentence_is_key_content_too() {
        let stored = Shape::of("Kaja Berg prefers tea over coffee at meetings.", &[]);
        assert!(
            !Shape::of("Tyra Berg prefers tea over coffee at meetings.", &[]).restates(&stored),
            "another person, though the rest is the same"
        );
        let named = Shape::of(
            "Tyra prefers tea over coffee at meetings.",
            &["Tyra".to_string()],
        );
        assert!(
            !named.restates(&Shape::of(
                "Kaja prefers tea over coffee at meetings.",
                &["Kaja".to_string()]
            )),
            "the people capture named are key content"
        );
    }

    #[test]
    fn names_count_as_key_content() {
        let stored = Shape::of("Lunch with Jonas at the falafel place.", &[]);
        assert!(
            !Shape::of("Lunch with Maria at the falafel place.", &[]).restates(&stored),
            "another person"
        );
        assert!(Shape::of("lunch with Jonas at the falafel place", &[]).restates(&stored));
    }
}
