//! Segmentation (seed 004, encode: "one episode per distinct happening"): a message is cut
//! into sentences, and sentences are grouped into happenings. Reasons, reactions and details
//! stay with the happening they follow (shared/data/capture/README.md, rule 1); routine bits
//! ("Long day.", "thanks!") get no episode of their own.

use std::ops::Range;

use super::cues;
use super::lang::Lang;
use super::token::{Kind, Token};
use crate::model::ActKind;

/// Words after which a full stop does not end a sentence ("kl. 16.30", "t.ex.", "Dr. Holm").
pub(crate) const ABBREVIATIONS: &[&str] = &[
    "kl", "ca", "mr", "mrs", "ms", "dr", "st", "nr", "tel", "jfr", "resp", "bl", "ex", "fx", "vs",
    "approx", "inkl", "exkl", "ang", "osv", "dvs", "eg", "ie", "prof", "sr", "jr", "sept", "okt",
    "oct", "nov", "dec",
];

/// Cuts tokens into sentences: at `!`, `?`, `…`, `;` and line breaks always, and at `.` when
/// what follows starts a new sentence (a capital, a digit or the end) and the word before is
/// not an abbreviation or a single letter. Returns token ranges.
pub(crate) fn sentences(t: &[Token<'_>]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < t.len() {
        if i > start && t[i].newline_before {
            out.push(start..i);
            start = i;
        }
        let tok = &t[i];
        let hard = tok.kind == Kind::Punct && tok.is_any(&["!", "?", "…", ";"]);
        let stop = tok.is(".") && full_stop(t, i);
        if hard || stop {
            let mut end = i + 1;
            while t.get(end).is_some_and(|n| {
                n.kind == Kind::Punct
                    && n.is_any(&["!", "?", ".", "…", "\"", "'", ")", "”", "»"])
                    && !n.newline_before
            }) {
                end += 1;
            }
            out.push(start..end);
            start = end;
            i = end;
            continue;
        }
        i += 1;
    }
    if start < t.len() {
        out.push(start..t.len());
    }
    out
}

/// Splits a sentence where a coordinator opens a first-person promise or decision after a
/// statement about something else: "The board pack is due by the end of the month and I'll
/// draft the summary this week." Two happenings, two parts; the coordinator (and a comma
/// before it) belongs to neither. A first-person left part stays whole ("We talked it over and
/// we're not buying") unless it has content of its own (`content`: a time or a name, "Jag
/// glömde ringa farmor i helgen, så jag ringer henne i morgon").
pub(crate) fn split_clauses(
    t: &[Token<'_>],
    sentences: Vec<Range<usize>>,
    lang: Lang,
    content: &dyn Fn(&Range<usize>) -> bool,
    timed: &dyn Fn(&Range<usize>) -> bool,
) -> Vec<Range<usize>> {
    let mut out = Vec::with_capacity(sentences.len());
    for s in sentences {
        let mut start = s.start;
        for k in s.clone() {
            if k + 1 >= s.end {
                continue;
            }
            // "Had a great chat with Wilhelmina tonight — she's moving to Vancouver in June!":
            // a dash between two clauses with times of their own joins two happenings.
            if t[k].is_any(&["—", "–"]) && !fixes(t, &s) {
                let words = |r: Range<usize>| t[r].iter().filter(|w| w.is_word()).count();
                if timed(&(start..k))
                    && timed(&(k + 1..s.end))
                    && words(start..k) >= 3
                    && words(k + 1..s.end) >= 3
                {
                    out.push(start..k);
                    start = k + 1;
                }
                continue;
            }
            if !t[k].is_any(&["and", "but", "so", "och", "men", "så", "og"]) {
                continue;
            }
            let person = |w: &Token<'_>| cues::first_person(&w.low, lang, true);
            let right: Vec<&str> = t[k + 1..s.end].iter().map(|w| w.low.as_str()).collect();
            // A promise or decision, or a plan with its own time after a happening with
            // another ("i helgen ..., så jag ringer henne i morgon").
            let acts = cues::any(&right, cues::COMMITMENT)
                || cues::any(&right, cues::DECISION)
                || (timed(&(k + 1..s.end)) && timed(&(start..k)));
            // "... and I'll remind you an hour before" leans on the left part: one happening.
            let leans_back = right.iter().any(|w| LEANING.contains(w));
            let mut left_end = k;
            if left_end > start && t[left_end - 1].is(",") {
                left_end -= 1;
            }
            let left = &t[start..left_end];
            let left_words = left.iter().filter(|w| w.is_word()).count();
            // A first-person left part is one narrative with the right, unless it has content
            // of its own or an act of its own ("We're going ahead with the loft, and I'll ring
            // the builder on Monday").
            let left_low: Vec<&str> = left.iter().map(|w| w.low.as_str()).collect();
            let left_acts =
                cues::any(&left_low, cues::DECISION) || cues::any(&left_low, cues::DECISION_BARE);
            let narrative = left.iter().any(person) && !content(&(start..left_end)) && !left_acts;
            if person(&t[k + 1]) && acts && !leans_back && left_words >= 3 && !narrative {
                out.push(start..left_end);
                start = k + 1;
            }
        }
        out.push(start..s.end);
    }
    out
}

/// Whether a sentence corrects a value ("I told you the 9th — it's actually the 10th"): its
/// dash then sets the new value against the old, within one happening.
fn fixes(t: &[Token<'_>], s: &Range<usize>) -> bool {
    let words: Vec<&str> = t[s.clone()].iter().map(|w| w.low.as_str()).collect();
    let denial = words
        .first()
        .is_some_and(|w| ["no", "nej", "nope"].contains(w))
        && words.get(1).is_some_and(|w| [",", "."].contains(w));
    denial
        || cues::any(&words, cues::CORRECTION)
        || cues::any(&words, cues::RETRACTION)
        || words
            .iter()
            .any(|w| ["actually", "egentligen", "faktiskt", "faktisk"].contains(w))
}

/// Words that tie a clause to the one before it in time.
#[rustfmt::skip]
const LEANING: &[&str] = &[
    "before", "after", "afterwards", "it", "them", "then", "innan", "efter", "efteråt", "det",
    "dem", "då", "før", "inden", "bagefter",
];

/// Month names and their short forms in English, Swedish and Danish: after a day number and a
/// full stop ("den 2. MAJ", "the 3. March") one continues the date, whatever its case.
#[rustfmt::skip]
const MONTHS: &[&str] = &[
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "januari", "februari", "mars", "maj", "juni", "juli",
    "augusti", "oktober", "januar", "februar", "marts", "jan", "feb", "mar", "apr", "jun", "jul",
    "aug", "sep", "sept", "okt", "oct", "nov", "dec",
];

fn full_stop(t: &[Token<'_>], i: usize) -> bool {
    let before = i.checked_sub(1).map(|b| &t[b]);
    let abbreviation = before.is_some_and(|b| {
        b.kind == Kind::Word && (b.is_any(ABBREVIATIONS) || b.raw.chars().count() == 1)
    });
    // "den 2. MAJ": a day number, a full stop and a month are one date, not two sentences.
    let day = before.is_some_and(|b| {
        b.kind == Kind::Number
            && b.raw.chars().all(|c| c.is_ascii_digit())
            && b.leading_int().is_some_and(|d| (1..=31).contains(&d))
    });
    let abbreviation = abbreviation
        || (day
            && t.get(i + 1)
                .is_some_and(|n| n.kind == Kind::Word && n.is_any(MONTHS)));
    match t.get(i + 1) {
        None => true,
        Some(next) if next.newline_before => true,
        Some(next) => {
            let opens = next.is_capitalised()
                || next.kind == Kind::Number
                || next.is_any(&["\"", "(", "“", "«"]);
            opens && !abbreviation
        }
    }
}

/// What a sentence is, for grouping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Class {
    /// Greetings, thanks, acknowledgements ("ok sounds good, thanks!", "Tack så mycket!").
    Social,
    /// A short aside with no names, numbers or time ("Long day.", "Who knows.", "Helt
    /// magiskt!"): a reaction to what came before, or a routine opener.
    Minor,
    /// A lookup: a question with nothing of the speaker's own in it, or the assistant's plain
    /// answer to one ("18% of 240 is 43.2.").
    Lookup,
    /// An act cue with hardly any content ("That's not right.", "I told you.", "My mistake.",
    /// "JAG HAR BESTÄMT MIG!!!"): it gives its kind to the happening next to it.
    Marker(Option<ActKind>),
    /// A sentence that says something.
    Content,
}

/// What grouping needs to know about one sentence.
#[derive(Debug, Clone)]
pub(crate) struct Facts {
    /// Its class.
    pub class: Class,
    /// The act kind its own cues give, `None` for a plain statement.
    pub kind: Option<ActKind>,
    /// Opens with a topic shift ("Also", "Separately", "Förresten", "Desuden").
    pub separator: bool,
    /// Names a usable time of its own.
    pub has_time: bool,
    /// Proper nouns in it (lower case), to see whether it brings in something new.
    pub entities: Vec<String>,
    /// A long first-person statement with no word pointing back ("it", "she", "det"): a new
    /// happening rather than a detail.
    pub independent: bool,
    /// Refers back to what came before with a demonstrative or pronoun ("Found that out ...").
    pub points_back: bool,
    /// Follows a semicolon: a clause of the same statement.
    pub joined: bool,
    /// Named people in it.
    pub people: usize,
}

/// One happening: consecutive sentences and the kind they share.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Group {
    /// Sentence indices.
    pub sentences: Range<usize>,
    /// Its act kind.
    pub kind: ActKind,
}

/// Groups sentences into happenings. A content sentence starts a new happening when it has an
/// act cue of its own, opens with a separator, names its own time, brings in a new name, or
/// stands on its own; otherwise it is a detail of the happening before it. Markers lend their
/// kind forward (a leading "That's not right.") or backward ("... I told you."). Social and
/// lookup sentences never join a happening; minor ones join the one before as a reaction.
/// Three joins override that: a correction that is only its cue takes the next sentence as its
/// value, a sentence pointing back ("Found that out yesterday") dates an untimed happening, and
/// a clause after a semicolon stays with its statement.
pub(crate) fn group(facts: &[Facts]) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    let mut entities: Vec<String> = Vec::new();
    let mut pending: Option<(usize, Option<ActKind>)> = None;
    // Whether the last happening has named a time yet.
    let mut timed = false;
    for (i, f) in facts.iter().enumerate() {
        match f.class {
            Class::Social => {}
            Class::Lookup => {
                // The assistant's retraction often states the right value plainly next.
                if let Some(g) = groups.last_mut().filter(|g| {
                    g.sentences.end == i
                        && f.kind.is_none()
                        && f.has_time
                        && !timed
                        && matches!(g.kind, ActKind::Correction | ActKind::Retraction)
                }) {
                    g.sentences.end = i + 1;
                    timed = true;
                }
            }
            Class::Minor => {
                if let Some(g) = groups.last_mut().filter(|g| g.sentences.end == i) {
                    g.sentences.end = i + 1;
                }
            }
            Class::Marker(kind) => {
                // A marker after a happening of its own kind, or before a sentence that starts
                // something else ("... I told you. Also grabbed coffee ..."), looks back;
                // otherwise it introduces what follows ("That's not right. The release ...").
                let next_content = facts[i + 1..].iter().find(|n| n.class != Class::Social);
                let leads = next_content.is_some_and(|n| n.class == Class::Content);
                let fresh_start = next_content.is_some_and(|n| n.separator || n.kind.is_some());
                let behind = groups
                    .last()
                    .filter(|g| g.sentences.end == i && pending.is_none());
                let looks_back =
                    behind.is_some_and(|g| Some(g.kind) == kind || fresh_start) || !leads;
                match groups.last_mut() {
                    Some(g) if looks_back => {
                        g.sentences.end = i + 1;
                        if let Some(k) = kind {
                            g.kind = stronger_on_backward(g.kind, k);
                        }
                    }
                    _ => {
                        pending = Some((
                            pending.map_or(i, |p| p.0),
                            kind.or(pending.and_then(|p| p.1)),
                        ))
                    }
                }
            }
            Class::Content => {
                let continues = groups.last().is_some_and(|g| {
                    let next_to = g.sentences.end == i && pending.is_none() && !f.separator;
                    let plain = next_to && f.kind.is_none();
                    let fixing = matches!(g.kind, ActKind::Correction | ActKind::Retraction);
                    // A correction's value may come in the next sentence ("Du har rätt, jag
                    // blandade ihop datumen. Disputationen är den 13 november.", rule 3).
                    let value_of_fix = fixing && !timed;
                    // A fix that is only its cue ("Forget what I wrote — I was wrong.") takes
                    // the next sentence as its value even when that one has a cue of its own.
                    let cue_only_fix = fixing
                        && !timed
                        && entities.is_empty()
                        && next_to
                        && matches!(
                            f.kind,
                            None | Some(ActKind::Correction | ActKind::Retraction)
                        );
                    let known = f.entities.iter().all(|e| entities.contains(e));
                    let detail = !f.has_time && !f.independent && known;
                    // "Found that out at the allotment yesterday.": a sentence pointing back
                    // at an untimed happening dates it rather than starting another.
                    let dates_it = f.points_back && !timed && !f.independent && known;
                    // "...; the quote was ridiculous.": a clause after a semicolon goes on
                    // with the same happening unless it has a time of its own beside one.
                    let joined = f.joined && !(f.has_time && timed) && (known || f.people == 0);
                    cue_only_fix || (plain && (detail || value_of_fix || dates_it || joined))
                });
                if continues {
                    if let Some(g) = groups.last_mut() {
                        g.sentences.end = i + 1;
                    }
                } else {
                    let (start, lent) = pending.take().map_or((i, None), |(s, k)| (s, k));
                    let kind = match (lent, f.kind) {
                        (Some(k), Some(own)) => own.min(k),
                        (Some(k), None) => k,
                        (None, Some(own)) => own,
                        (None, None) => ActKind::Observation,
                    };
                    groups.push(Group {
                        sentences: start..i + 1,
                        kind,
                    });
                    entities.clear();
                    timed = false;
                }
                timed |= f.has_time;
                entities.extend(f.entities.iter().cloned());
            }
        }
    }
    if let Some((start, Some(kind))) = pending {
        // Only markers and small talk: the marker is the happening ("No, that's wrong.").
        groups.push(Group {
            sentences: start..facts.len(),
            kind,
        });
    }
    groups
}

/// A trailing marker upgrades a plain observation ("The launch is Friday. I told you.") but
/// never turns a decision or commitment into something else.
fn stronger_on_backward(current: ActKind, marker: ActKind) -> ActKind {
    if current == ActKind::Observation {
        marker
    } else {
        current.min(marker)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::rules::token::tokenize;
    use rstest::rstest;

    fn texts(text: &str) -> Vec<String> {
        let t = tokenize(text);
        sentences(&t)
            .into_iter()
            .map(|r| text[t[r.start].span.start..t[r.end - 1].span.end].to_string())
            .collect()
    }

    #[rstest]
    #[case("Tiden er i morgen kl. 8, ikke kl. 9. Om en halv time tjekker jeg.", 2)]
    #[case("Han kommer den 3. maj. Vi ses!", 2)]
    #[case("The total is 43.2. Thanks!", 2)]
    #[case("Ask Dr. Holm about it. She knows.", 2)]
    #[case("WOW!!! That was fast", 2)]
    #[case("first line\nsecond line", 2)]
    #[case("Meet at 7:30, then lunch.", 1)]
    #[case("Bryllupet er fredag den 14. JUNI, ikke den 21.", 1)]
    #[case("Festen är den 3. Maj. Vi ses!", 2)]
    fn sentence_ends_respect_abbreviations_and_numbers(#[case] text: &str, #[case] n: usize) {
        assert_eq!(
            texts(text).len(),
            n,
            "`kl.`, `Dr.`, `3. maj` and decimals must not end a sentence, `!!!` and line breaks must: {:?}",
            texts(text)
        );
    }

    fn content(kind: Option<ActKind>) -> Facts {
        Facts {
            class: Class::Content,
            kind,
            separator: false,
            has_time: false,
            entities: vec![],
            independent: false,
            points_back: false,
            joined: false,
            people: 0,
        }
    }

    #[test]
    fn details_join_and_cues_split() {
        let mut second = content(None);
        second.entities = vec![];
        let facts = vec![
            content(Some(ActKind::Correction)),
            second,
            content(Some(ActKind::Commitment)),
        ];
        let groups = group(&facts);
        assert_eq!(
            groups,
            vec![
                Group {
                    sentences: 0..2,
                    kind: ActKind::Correction
                },
                Group {
                    sentences: 2..3,
                    kind: ActKind::Commitment
                }
            ],
            "a plain detail stays with the correction before it; a sentence with its own cue is a new happening"
        );
    }

    #[test]
    fn a_leading_marker_lends_its_kind_forward() {
        let facts = vec![
            Facts {
                class: Class::Marker(Some(ActKind::Correction)),
                ..content(None)
            },
            content(None),
        ];
        assert_eq!(
            group(&facts),
            vec![Group {
                sentences: 0..2,
                kind: ActKind::Correction
            }],
            "\"That's not right. The release is Friday.\" is one correction, quoted from the marker on"
        );
    }
}
