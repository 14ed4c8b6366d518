//! When: relative time expressions resolved against the message's own time and UTC offset
//! (DESIGN.md, Episode: "Friday", "this morning", "i fredags", "næste uge";
//! shared/data/capture/README.md, time conventions and the interval table).
//!
//! [`atom`] finds the smallest expressions, [`compound`] joins neighbours and reads deadline
//! and negation words before them, [`resolve`] turns one into an interval. Vague expressions
//! ("some day", "snart", "en dag") match nothing, so they resolve to no time at all.

mod atom;
mod compound;
mod lexicon;
mod phrases;
mod resolve;

use std::ops::Range;

use chrono::{DateTime, FixedOffset, NaiveDate};
use chrono_tz::Tz;

pub(crate) use compound::{Compound, find};
pub(crate) use resolve::Reference;

use super::token::Token;
use crate::model::EventTime;

/// Whether compound `c` lies inside the token range `range`.
fn inside(c: &Compound, range: &Range<usize>) -> bool {
    c.tokens.start >= range.start && c.tokens.end <= range.end
}

/// Whether a compound can stand for an episode's time: not a rejected value, not vague.
fn usable(c: &Compound) -> bool {
    !c.negated && !c.vague
}

/// The indices of the usable time expressions inside `range`.
pub(crate) fn usable_in(all: &[Compound], range: &Range<usize>) -> Vec<usize> {
    (0..all.len())
        .filter(|&k| usable(&all[k]) && inside(&all[k], range))
        .collect()
}

/// Whether any usable expression inside `range` lies ahead of the message time (ends after
/// it): the mark of a plan ("jag skickar ... senast på fredag").
pub(crate) fn any_ahead(all: &[Compound], range: &Range<usize>, r: &Reference) -> bool {
    usable_in(all, range)
        .into_iter()
        .filter_map(|k| resolve::resolve(&all[k], r, anchor_for(all, k, r)))
        .any(|(_, end)| end > r.ts)
}

/// The event an "an hour before" (compound `k`) is relative to: the nearest instant named in
/// the same sentence, else the latest one named before it in the message.
fn anchor_for(all: &[Compound], k: usize, r: &Reference) -> Option<DateTime<FixedOffset>> {
    let me = &all[k];
    let instants: Vec<(usize, DateTime<FixedOffset>)> = (0..all.len())
        .filter(|&j| j != k && usable(&all[j]) && all[j].offset.is_none())
        .filter_map(|j| {
            resolve::resolve(&all[j], r, None)
                .filter(|(a, b)| a == b)
                .map(|(a, _)| (j, a))
        })
        .collect();
    let same_sentence = instants
        .iter()
        .filter(|(j, _)| all[*j].sentence == me.sentence)
        .min_by_key(|(j, _)| all[*j].tokens.start.abs_diff(me.tokens.start));
    same_sentence
        .or_else(|| instants.iter().rfind(|(j, _)| *j < k))
        .map(|(_, t)| *t)
}

/// The time of an episode covering tokens `range`: its first usable expression, or its last
/// one when `prefer_last` (a correction or retraction names the old value first: "I told you
/// Wednesday, but it's Thursday"). A lone clock time later in the same sentence completes a
/// day ("Thursday the 12th, arriving at 18:40").
pub(crate) fn pick(
    t: &[Token<'_>],
    text: &str,
    all: &[Compound],
    range: &Range<usize>,
    prefer_last: bool,
    r: &Reference,
) -> Option<EventTime> {
    let mut found = usable_in(all, range);
    // "moved from Thursday to Friday": the time moved away from is no longer the episode's.
    let moved_from = |k: usize| {
        let c = &all[k];
        c.tokens.start > 0
            && t[c.tokens.start - 1].is_any(&["from", "från", "fra"])
            && found
                .iter()
                .any(|&o| o > k && all[o].sentence == c.sentence)
    };
    let kept: Vec<usize> = found.iter().copied().filter(|&k| !moved_from(k)).collect();
    found = kept;
    let dated: Vec<usize> = found
        .iter()
        .copied()
        .filter(|&k| !all[k].clock_only())
        .collect();
    // "I'll remind you an hour before": the episode's own time is the relative one.
    let relative = found
        .iter()
        .copied()
        .find(|&k| matches!(all[k].offset, Some(atom::Atom::Relative(_))));
    let chosen = relative
        .or_else(|| {
            if prefer_last {
                dated.last()
            } else {
                dated.first()
            }
            .copied()
        })
        .or(found.first().copied())?;
    let mut c = all[chosen].clone();
    let mut expression = quote(t, text, &c.tokens)?.to_string();
    if c.has_day() && c.clock.is_none() && c.span.is_none() {
        let clock = found
            .iter()
            .map(|&k| &all[k])
            .find(|o| o.clock_only() && o.sentence == c.sentence && o.tokens.start >= c.tokens.end);
        if let Some(o) = clock {
            c.clock = o.clock;
            expression = format!("{expression}, {}", quote(t, text, &o.tokens)?);
        }
    }
    let (start, end) = resolve::resolve(&c, r, anchor_for(all, chosen, r))?;
    Some(EventTime {
        expression,
        start,
        end,
    })
}

/// The resolved dates of the relative time expressions inside tokens `range`, to show next
/// to the words (issue 7, failure kind `relative_date_unresolved`): for each usable expression
/// that names a day or longer ("i förrgår", "fredag nästa vecka", "tomorrow", "i overmorgen")
/// and does not already carry a year, the byte offset in `text` right after it and a label
/// such as `[2025-03-14]` (a day), `[2025-03-10 – 2025-03-16]` (a longer span) or the due day
/// of a deadline ("by Friday"). Clock times alone, vague and negated expressions get none.
pub(crate) fn date_notes(
    t: &[Token<'_>],
    text: &str,
    all: &[Compound],
    range: &Range<usize>,
    r: &Reference,
) -> Vec<(usize, String)> {
    let mut notes = Vec::new();
    for k in usable_in(all, range) {
        let c = &all[k];
        if c.clock_only() || matches!(c.offset, Some(atom::Atom::Relative(_))) {
            continue;
        }
        let Some(words) = quote(t, text, &c.tokens) else {
            continue;
        };
        if has_year(words) {
            continue; // "2027-08-14", "14 mars 2025": already absolute
        }
        let Some((start, end)) = resolve::resolve(c, r, anchor_for(all, k, r)) else {
            continue;
        };
        let Some(last) = t.get(c.tokens.end - 1) else {
            continue;
        };
        notes.push((last.span.end, date_label(start, end, c.deadline.is_some())));
    }
    notes
}

/// `[YYYY-MM-DD]` for an instant or a span within one day (or a deadline's due day, the last
/// day before its end), `[YYYY-MM-DD – YYYY-MM-DD]` for a longer span (end exclusive, so the
/// last day shown is the one before it).
fn date_label(start: DateTime<FixedOffset>, end: DateTime<FixedOffset>, deadline: bool) -> String {
    let last = if end > start {
        (end - chrono::Duration::seconds(1)).date_naive()
    } else {
        end.date_naive()
    };
    let first = start.date_naive();
    if deadline || first == last {
        format!("[{}]", last.format("%Y-%m-%d"))
    } else {
        format!(
            "[{} – {}]",
            first.format("%Y-%m-%d"),
            last.format("%Y-%m-%d")
        )
    }
}

/// Whether the words hold a four-digit year (1900 to 2199).
fn has_year(words: &str) -> bool {
    words
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|d| (d.len() == 4).then(|| d.parse::<u32>().ok()).flatten())
        .any(|y| (1900..2200).contains(&y))
}

/// A time a question names (recall, issue 4): the byte range of its words in the question and
/// the interval `[start, end)` it resolves to.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Asked {
    /// Byte range of the time words in the question text.
    pub words: Range<usize>,
    /// Start of the named time.
    pub start: DateTime<FixedOffset>,
    /// End of the named time (exclusive; equal to `start` for an instant).
    pub end: DateTime<FixedOffset>,
}

/// The times a question names, in order, each with its words: the capture parser's usable
/// expressions ("last Friday", "i fredags", "3 June, 2023", "sidste uge"), plus a month with
/// a year ("December 2023", "i mars 2024") and a bare year ("in 2022"), which capture has no
/// use for. A question is not a plan, so deadline words only mark the day ("before April 10,
/// 2023" is 10 April). A date without a year takes the year written elsewhere in the question
/// ("between August 11 and August 15 2023"). Relative expressions resolve against the first
/// dated day the question names ("last weekend before April 10, 2023"), else against `now`.
/// Days, months and years are the user's local ones in `zone` when given, each bound with its
/// own offset ("15 January" asked in July is 00:00+01:00 to 24:00+01:00 in Stockholm), else
/// in `now`'s offset.
pub(crate) fn asked(text: &str, now: DateTime<FixedOffset>, zone: Option<Tz>) -> Vec<Asked> {
    let t = super::token::tokenize(text);
    let sentences = super::segment::sentences(&t);
    let all = find(&t, &sentences, super::lang::guess(&t));
    let year_at = |i: usize| {
        t.get(i)
            .filter(|w| {
                w.kind == super::token::Kind::Number
                    && w.raw.len() == 4
                    && w.raw.chars().all(|c| c.is_ascii_digit())
            })
            .and_then(|w| w.raw.parse::<i32>().ok())
            .filter(|y| (1900..2200).contains(y))
    };
    let year = (0..t.len()).find_map(year_at);
    let mut found: Vec<(Range<usize>, Compound)> = Vec::new();
    for c in all.iter().filter(|c| usable(c)) {
        let mut c = c.clone();
        c.deadline = None;
        if let Some(atom::Atom::Date { year: y @ None, .. }) = &mut c.day {
            *y = year;
        }
        found.push((c.tokens.clone(), c));
    }
    let dated = |c: &Compound| matches!(c.day, Some(atom::Atom::Date { year: Some(_), .. }));
    let reference = found
        .iter()
        .filter(|(_, c)| dated(c))
        .find_map(|(_, c)| resolve::resolve(c, &Reference::new(now, zone), None))
        .map_or(now, |(start, _)| start);
    let r = Reference::new(reference, zone);
    let mut out: Vec<(Range<usize>, resolve::Interval)> = Vec::new();
    for (tokens, c) in &found {
        let at = if dated(c) {
            Reference::new(now, zone)
        } else {
            r
        };
        // "an hour before" needs an event named in a statement: a question has none.
        if let Some((start, end)) = resolve::resolve(c, &at, None) {
            out.push((tokens.clone(), (start, end)));
        }
    }
    // "December 2023", "i mars 2024", and a year alone: outside every expression found above.
    let taken = |i: usize| found.iter().any(|(r, _)| r.contains(&i));
    let mut i = 0;
    while i < t.len() {
        let lead = usize::from(t[i].is_any(&["in", "i", "during", "under"]));
        let month = t.get(i + lead).and_then(|w| {
            let ambiguous = w.is_any(&["may", "march"]) && !w.is_capitalised();
            lexicon::month(&w.low, false).filter(|_| !ambiguous)
        });
        let comma = usize::from(t.get(i + lead + 1).is_some_and(|w| w.is(",")));
        let span = match (month, year_at(i + lead + 1 + comma), year_at(i + lead)) {
            (Some(m), Some(y), _) => NaiveDate::from_ymd_opt(y, m, 1)
                .zip(NaiveDate::from_ymd_opt(
                    y + i32::from(m == 12),
                    m % 12 + 1,
                    1,
                ))
                .map(|d| (lead + 2 + comma, d)),
            (_, _, Some(y)) => NaiveDate::from_ymd_opt(y, 1, 1)
                .zip(NaiveDate::from_ymd_opt(y + 1, 1, 1))
                .map(|d| (lead + 1, d)),
            _ => None,
        };
        let Some((len, (a, b))) = span.filter(|(len, _)| !(i..i + len).any(taken)) else {
            i += 1;
            continue;
        };
        let at = |d: NaiveDate| {
            d.and_hms_opt(0, 0, 0).and_then(|d| match zone {
                Some(z) => resolve::local_in(z, d),
                None => d.and_local_timezone(*now.offset()).single(),
            })
        };
        if let (Some(start), Some(end)) = (at(a), at(b)) {
            out.push((i..i + len, (start, end)));
        }
        i += len;
    }
    out.sort_by_key(|(tokens, _)| tokens.start);
    out.into_iter()
        .filter_map(|(tokens, (start, end))| {
            let first = t.get(tokens.start)?;
            let last = t.get(tokens.end.checked_sub(1)?)?;
            Some(Asked {
                words: first.span.start..last.span.end,
                start,
                end,
            })
        })
        .collect()
}

fn quote<'a>(t: &[Token<'_>], text: &'a str, tokens: &Range<usize>) -> Option<&'a str> {
    let first = t.get(tokens.start)?;
    let last = t.get(tokens.end.checked_sub(1)?)?;
    text.get(first.span.start..last.span.end)
}

#[cfg(test)]
mod tests;
