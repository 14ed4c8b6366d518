//! Rule-based encoding (seed 004, the hippocampus stage): one message becomes one episode per
//! distinct happening, each with its act kind, resolved time and named participants. Nothing
//! is paraphrased: an episode's text is a span of the message, quoted verbatim.
//!
//! The steps, each in its own module:
//! - `token` splits the text into words, numbers and punctuation with byte ranges;
//! - `segment` cuts sentences and groups them into happenings;
//! - `act` reads act-kind cues (lexicons in `cues`) per sentence;
//! - `when` finds and resolves time expressions (tense from `tense`);
//! - `people` finds the named participants.
//!
//! Rules are written for English, Swedish and Danish (shared/data/capture/README.md).

mod act;
mod cues;
mod lang;
mod people;
pub(crate) mod segment;
mod tense;
mod token;
mod when;

pub(crate) use people::is_given_name;
pub(crate) use when::asked;

use std::ops::Range;

use crate::model::{ActKind, EventTime, MessageInput};
use segment::Facts;
use token::Token;

/// One episode as the rules find it in a message, before it is weighed and stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Extracted {
    /// The act kind.
    pub kind: ActKind,
    /// Byte range of the quoted span in the message text: whole sentences, from the first
    /// sentence of the happening to its last.
    pub span: Range<usize>,
    /// The episode text: the speaker's own words, exactly `text[span]`.
    pub text: String,
    /// The resolved time the episode refers to, if the span names one; bounds in the
    /// message's own UTC offset.
    pub when: Option<EventTime>,
    /// Named people other than the user and the assistant, in base form ("Oskar", "Holm",
    /// "Aurelia Finch"), in order of appearance.
    pub participants: Vec<String>,
    /// The resolved dates of its relative time expressions: (byte offset in the message right
    /// after the expression, label such as `[2025-03-14]`), in order. [`shown_text`] puts
    /// them into the words the product shows and stores.
    pub dates: Vec<(usize, String)>,
}

/// The episode's words as Minne stores and shows them: the quote, with the resolved date put
/// after each relative time expression ("I förrgår [2025-03-03] fick jag nycklarna"), so a
/// memory read months later still says when (issue 7, `relative_date_unresolved`). Resolved
/// against the message's own time and UTC offset, never the time of capture, so a backfill
/// of old messages dates them as they were said.
pub fn shown_text(x: &Extracted) -> String {
    let mut out = String::with_capacity(x.text.len() + 16 * x.dates.len());
    let mut at = x.span.start;
    for (offset, label) in &x.dates {
        let Some(piece) = x
            .text
            .get(at - x.span.start..offset.saturating_sub(x.span.start))
        else {
            continue;
        };
        if *offset < at || *offset > x.span.end {
            continue;
        }
        out.push_str(piece);
        out.push(' ');
        out.push_str(label);
        at = *offset;
    }
    out.push_str(x.text.get(at - x.span.start..).unwrap_or_default());
    out
}

/// Encodes one message into episodes, in the order they appear. A message that is routine and
/// nothing else (thanks, greetings, a lookup and its answer) yields exactly one routine
/// episode covering the whole message; routine bits inside a substantive message yield none.
/// An empty or whitespace-only message yields nothing. Every episode's text is a span of the
/// message.
pub fn extract(message: &MessageInput<'_>) -> Vec<Extracted> {
    let text = message.text;
    let t = token::tokenize(text);
    if t.is_empty() {
        return Vec::new();
    }
    let lang = lang::guess(&t);
    let whole = segment::sentences(&t);
    let first_pass = when::find(&t, &whole, lang);
    let content = |r: &Range<usize>| {
        !when::usable_in(&first_pass, r).is_empty()
            || !people::scan(&t, r.clone(), &[], lang).proper.is_empty()
    };
    let timed = |r: &Range<usize>| !when::usable_in(&first_pass, r).is_empty();
    let sentences = segment::split_clauses(&t, whole, lang, &content, &timed);
    let times = when::find(&t, &sentences, lang);
    let reference = when::Reference::new(message.timestamp, message.zone);
    let time_tokens: Vec<Range<usize>> = times.iter().map(|c| c.tokens.clone()).collect();

    let mut found = Vec::with_capacity(sentences.len());
    let mut facts = Vec::with_capacity(sentences.len());
    for s in &sentences {
        let f = people::scan(&t, s.clone(), &time_tokens, lang);
        let usable = when::usable_in(&times, s);
        let cx = act::Context {
            role: message.role,
            lang,
            has_time: !usable.is_empty(),
            ahead: when::any_ahead(&times, s, &reference),
            people: f.people.len(),
            proper: f.proper.len(),
        };
        let (class, kind) = act::classify(&t, s, &cx);
        facts.push(Facts {
            class,
            kind,
            separator: separator(&t, s),
            has_time: cx.has_time,
            entities: f.proper.clone(),
            independent: independent(&t, s, lang),
            points_back: points_back(&t, s),
            joined: s.start > 0 && t[s.start - 1].is(";"),
            people: f.people.len(),
        });
        found.push(f);
    }

    let groups = segment::group(&facts);
    if groups.is_empty() {
        return routine(text);
    }
    let mut out = Vec::with_capacity(groups.len());
    for g in groups {
        let first = &sentences[g.sentences.start];
        let last = &sentences[g.sentences.end - 1];
        let range = first.start..last.end;
        let (Some(a), Some(b)) = (t.get(range.start), t.get(range.end - 1)) else {
            continue;
        };
        let span = a.span.start..b.span.end;
        let prefer_last = matches!(g.kind, ActKind::Correction | ActKind::Retraction);
        let mut participants: Vec<String> = Vec::new();
        for f in &found[g.sentences.clone()] {
            for p in &f.people {
                if !participants.contains(p) {
                    participants.push(p.clone());
                }
            }
        }
        if participants.is_empty() {
            participants = by_pronoun(&t, &range, &found[..g.sentences.start]);
        }
        let dates = when::date_notes(&t, text, &times, &range, &reference)
            .into_iter()
            .filter(|(at, _)| *at > span.start && *at <= span.end)
            .collect();
        out.push(Extracted {
            kind: g.kind,
            text: text[span.clone()].to_string(),
            span,
            when: when::pick(&t, text, &times, &range, prefer_last, &reference),
            participants,
            dates,
        });
    }
    out
}

fn routine(text: &str) -> Vec<Extracted> {
    let start = text.len() - text.trim_start().len();
    let end = text.trim_end().len();
    vec![Extracted {
        kind: ActKind::Routine,
        span: start..end,
        text: text[start..end].to_string(),
        when: None,
        participants: Vec::new(),
        dates: Vec::new(),
    }]
}

/// People a pronoun points back to ("I'll order her present" after "Nadia's birthday"): the
/// people of the nearest earlier sentence that named any. A plural pronoun needs two or more.
fn by_pronoun(t: &[Token<'_>], range: &Range<usize>, earlier: &[people::Found]) -> Vec<String> {
    let words = &t[range.clone()];
    let singular = words.iter().any(|w| w.is_any(cues::PERSON_PRONOUNS));
    let plural = words.iter().any(|w| w.is_any(cues::PLURAL_PRONOUNS));
    let Some(before) = earlier.iter().rev().find(|f| !f.people.is_empty()) else {
        return Vec::new();
    };
    if singular || (plural && before.people.len() >= 2) {
        before.people.clone()
    } else {
        Vec::new()
    }
}

/// Whether the sentence opens with a topic shift ("Also, ...", "Separately, ...").
fn separator(t: &[Token<'_>], s: &Range<usize>) -> bool {
    let head: Vec<&str> = t[s.clone()]
        .iter()
        .take(4)
        .map(|w| w.low.as_str())
        .collect();
    cues::SEPARATORS
        .iter()
        .any(|p| cues::find(&head, p).is_some_and(|k| k <= 1))
}

/// Whether a sentence refers back to the happening before it with a demonstrative or a
/// pronoun object ("Found that out ...", "Hörde det i går", "Fik det at vide i dag"). Articles
/// ("den 9.") and a sentence-initial expletive "det" do not count.
fn points_back(t: &[Token<'_>], s: &Range<usize>) -> bool {
    const BACK: &[&str] = &["that", "it", "this", "det", "dette", "detta"];
    // "I morgon blir det regn", "is it": an inverted expletive subject points nowhere.
    const BE: &[&str] = &[
        "is", "was", "be", "är", "var", "blir", "blev", "er", "bliver", "finns", "findes",
    ];
    let words = &t[s.clone()];
    words
        .iter()
        .enumerate()
        .any(|(k, w)| k > 0 && w.is_word() && w.is_any(BACK) && !words[k - 1].is_any(BE))
}

/// A long first-person statement with no word pointing back: its own happening, not a detail.
fn independent(t: &[Token<'_>], s: &Range<usize>, lang: lang::Lang) -> bool {
    let words: Vec<&Token<'_>> = t[s.clone()].iter().filter(|w| w.is_word()).collect();
    let subject = words
        .iter()
        .take(3)
        .any(|w| cues::first_person(&w.low, lang, true));
    let points_back = words.iter().any(|w| {
        w.is_any(cues::ANAPHORS)
            || w.is_any(cues::PERSON_PRONOUNS)
            || w.is_any(cues::PLURAL_PRONOUNS)
    });
    subject && words.len() >= 7 && !points_back
}

#[cfg(test)]
mod tests;
