//! Time-anchored recall (issue 4): a question that names a time ("What did Maria donate in
//! December 2023?", "as mentioned on 3 June, 2023", "Vad sa jag i fredags?", "Hvad talte vi
//! om i sidste uge?") prefers the memories of that time, and its time words stop acting as
//! text.
//!
//! The windows are found by the capture time parser ([`crate::capture::rules::asked`]):
//! absolute expressions as written, relative ones ("last Friday") against the recall clock.
//! A memory's time is its message time (`occurred_at`) and, when capture resolved one, its
//! event time (`event_start`..`event_end`: "I went yesterday [2023-05-07]"). Its closeness to
//! a window is
//!
//! `w = max(0, 1 − gap / margin)`, `margin = MARGIN_DAYS + ½ · window length` (days),
//!
//! where `gap` is the days between the nearer of the two times and the window (0 inside it):
//! a named day reaches ±3 days around it (the session of that day, or one that tells of it
//! soon after), a month about 18 days beyond its ends (a session early next month says "last
//! month"). Relevance inside a window is lifted, `r' = min(1, r · (1 + LIFT · w))`: a lift
//! and never a penalty, so a memory that is not about the question stays irrelevant however
//! well its time fits, and memories outside every window keep their relevance exactly.
//!
//! A window acts only when it is selective: it must hold at least one memory and at most
//! half of them ([`MAX_SHARE`]). A time that holds nothing cannot help (its words may still be
//! what the memory says, "4 years ago"), and one that holds most of the store says nothing
//! ("last year" over a year of chat). A question with no acting window ranks exactly as
//! without this module: same text, same relevance. The words of acting windows are taken out
//! of the text the dense side embeds and the lexical side searches, as named people are: a
//! memory rarely carries the date it was said on, so "3 June 2023" only adds noise.
//!
//! Measured on LoCoMo dev (999 questions, all-MiniLM-L6-v2, `LIFT` 0.3, `MARGIN_DAYS` 3):
//! turn recall@10 0.761 → 0.779 overall and 0.707 → 0.863 on the 91 answerable questions that
//! name a month or a year; of the questions naming no time, none ranks differently. With the
//! question–reply weights of Recall v5, `LIFT` 1.0 gave 0.804 → 0.807 (MiniLM) and 0.790 →
//! 0.797 (e5) over 0.3 (docs/benchmarks.md, "Recall v5").

use std::ops::Range;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use super::Candidate;
use crate::capture::rules::asked;

/// Relative lift of relevance at full closeness (`w = 1`).
pub(crate) const LIFT: f64 = 1.0;
/// Days a window reaches beyond its ends, plus half its own length.
pub(crate) const MARGIN_DAYS: f64 = 3.0;
/// The largest share of the memories a window may hold and still act.
pub(crate) const MAX_SHARE: f64 = 0.5;

/// The times a question names that act on this store.
#[derive(Debug, Default)]
pub(crate) struct Named {
    /// Closeness `w` in `[0, 1]` of each candidate, in candidate order; empty when no window
    /// acts.
    closeness: Vec<f64>,
    /// The question without the words of the acting windows, when any act.
    text: Option<String>,
}

/// A window `[start, end)` in UTC.
type Window = (DateTime<Utc>, DateTime<Utc>);

/// The times `query` names, resolved against `now` (UTC) in the user's `zone`, that act on
/// `candidates`.
pub(crate) fn named(query: &str, now: DateTime<Utc>, zone: Tz, candidates: &[Candidate]) -> Named {
    let found = asked(query, now.fixed_offset(), Some(zone));
    if found.is_empty() || candidates.is_empty() {
        return Named::default();
    }
    let mut closeness = vec![0.0f64; candidates.len()];
    let mut words: Vec<Range<usize>> = Vec::new();
    for a in &found {
        let window = (a.start.with_timezone(&Utc), a.end.with_timezone(&Utc));
        let w: Vec<f64> = candidates
            .iter()
            .map(|c| near(window, c.occurred_at, c.event, MARGIN_DAYS))
            .collect();
        let holding = w.iter().filter(|x| **x > 0.0).count();
        if holding == 0 || holding as f64 > MAX_SHARE * candidates.len() as f64 {
            continue;
        }
        for (best, x) in closeness.iter_mut().zip(w) {
            *best = best.max(x);
        }
        words.push(a.words.clone());
    }
    if words.is_empty() {
        return Named::default();
    }
    Named {
        closeness,
        text: Some(without(query, &words)),
    }
}

impl Named {
    /// Whether a named time acts: it holds some memories and at most [`MAX_SHARE`] of them.
    pub(crate) fn acts(&self) -> bool {
        self.text.is_some()
    }

    /// The text to embed and search: the question without its acting time words, or the
    /// question itself when none act (or nothing but time words would be left).
    pub(crate) fn text<'a>(&'a self, query: &'a str) -> &'a str {
        match &self.text {
            Some(t) if !t.trim().is_empty() => t,
            _ => query,
        }
    }

    /// Lifts the relevance `own` (candidate order) of the memories near the named times:
    /// `r' = min(1, r · (1 + lift · w))` ([`LIFT`] by default). Does nothing when no window
    /// acts.
    pub(crate) fn lift(&self, own: &mut [f64], lift: f64) {
        for (r, w) in own.iter_mut().zip(&self.closeness) {
            if *w > 0.0 {
                *r = (*r * (1.0 + lift * w)).min(1.0);
            }
        }
    }
}

/// Verbs that ask what took place, not what about ("What did I *do* on 15 January?", "Vad
/// *hände* i fredags?", "Hvad *skete* der den 5. juni?", "Hva *skjedde* i går?", "What did we
/// *talk* about last week?"), en/sv/da/no, with the Norwegian question words the stop-words
/// lack: with nothing but these, stop-words and times, a question asks for that time itself.
#[rustfmt::skip]
const ASKING_WHAT_HAPPENED: &[&str] = &[
    "do", "did", "done", "doing", "happen", "happened", "happening", "go", "going", "on", "up",
    "say", "said", "talk", "talked", "discuss", "discussed", "tell", "told", "write", "wrote",
    "göra", "gör", "gjorde", "gjort", "hända", "hände", "hänt", "händer", "ske", "skedde",
    "skett", "sa", "sade", "sagt", "prata", "pratade", "pratat", "tala", "talade", "talat",
    "berätta", "berättade", "skrev", "skrivit",
    "lave", "lavede", "lavet", "gøre", "skete", "sket", "sker", "sagde", "snakke", "snakkede",
    "snakket", "snakker", "fortalte", "fortalt", "skrevet",
    "hva", "skjedde", "skjer", "skjedd", "gjør", "pratet",
];

/// Verbs of forgetting, en/sv/da/no: "Glem alt, hvad jeg fortalte dig den 5. juni" names the
/// day of what to forget, not an event of that day.
#[rustfmt::skip]
const FORGET_VERBS: &[&str] = &[
    "forget", "delete", "erase", "glöm", "glömma", "radera", "glem", "glemme", "slet", "slette",
];

/// The windows of a question that asks for nothing but a time ("What did I do on 15
/// January?", "Hvad skete der den 5. juni?"): its words outside the time expressions are all
/// stop-words or [`ASKING_WHAT_HAPPENED`]. Such a question is answered by what that time
/// holds ([`inside`]), not by likeness of words: nothing else in it says what to look for.
/// `None` for a question that names no time or asks about something in it ("What did Maria
/// donate in December 2023?"). Days are local in `zone` ([`asked`]).
pub(crate) fn only_times(query: &str, now: DateTime<Utc>, zone: Tz) -> Option<Vec<Window>> {
    let found = asked(query, now.fixed_offset(), Some(zone));
    if found.is_empty() {
        return None;
    }
    let words: Vec<Range<usize>> = found.iter().map(|a| a.words.clone()).collect();
    let rest = without(query, &words);
    let asks_more = super::lexical::content_words(&rest, &[])
        .iter()
        .any(|w| !ASKING_WHAT_HAPPENED.contains(&w.as_str()));
    if asks_more {
        return None;
    }
    Some(
        found
            .iter()
            .map(|a| (a.start.with_timezone(&Utc), a.end.with_timezone(&Utc)))
            .filter(|(a, b)| a < b)
            .collect(),
    )
    .filter(|w: &Vec<Window>| !w.is_empty())
}

/// Whether a memory said at `said`, with event time `event` and words `text`, belongs to one
/// of `windows` (each `[start, end)`): said inside it, or telling of an event that begins in
/// it or lasts all of it (a trip over the whole day). An evening that runs past midnight
/// ("tonight") belongs to the day it began. The event of a request to forget
/// ([`FORGET_VERBS`]) does not count: its time names what to forget.
pub(crate) fn inside(
    windows: &[Window],
    said: DateTime<Utc>,
    event: Option<Window>,
    text: &str,
) -> bool {
    let forgets = || {
        super::lexical::words(text)
            .iter()
            .any(|w| FORGET_VERBS.contains(&w.as_str()))
    };
    windows.iter().any(|&(a, b)| {
        (a..b).contains(&said)
            || event.is_some_and(|(s, e)| ((a..b).contains(&s) || (s <= a && e >= b)) && !forgets())
    })
}

/// Closeness in `[0, 1]` of a memory said at `said` (with event time `event`, if any) to
/// `window`: 1 inside, falling linearly to 0 at `margin + ½ · length` days outside.
fn near(window: Window, said: DateTime<Utc>, event: Option<Window>, margin: f64) -> f64 {
    let days = |d: chrono::TimeDelta| d.num_seconds() as f64 / 86_400.0;
    let reach = margin + 0.5 * days(window.1 - window.0);
    let gap = |(a, b): Window| {
        if b < window.0 {
            days(window.0 - b)
        } else if a > window.1 || (a == window.1 && window.0 < window.1) {
            days(a - window.1)
        } else {
            0.0
        }
    };
    let g = event.map_or(gap((said, said)), |e| gap((said, said)).min(gap(e)));
    (1.0 - g / reach).max(0.0)
}

/// `query` without the byte ranges `words` (sorted, not overlapping), spaces tidied.
fn without(query: &str, words: &[Range<usize>]) -> String {
    let mut out = String::with_capacity(query.len());
    let mut at = 0;
    for r in words {
        if r.start < at || r.end > query.len() {
            continue;
        }
        out.push_str(query.get(at..r.start).unwrap_or_default().trim_end());
        at = r.end;
        let rest = query.get(at..).unwrap_or_default().trim_start();
        if !out.is_empty() && rest.chars().next().is_some_and(char::is_alphanumeric) {
            out.push(' ');
        }
        at = query.len() - rest.len();
    }
    out.push_str(query.get(at..).unwrap_or_default());
    out
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    /// The windows of `q` asked at `now` (RFC 3339), as `(words, start, end)` in RFC 3339.
    fn windows(q: &str, now: &str) -> Vec<(String, String, String)> {
        let now = DateTime::parse_from_rfc3339(now).unwrap();
        asked(q, now, None)
            .into_iter()
            .map(|a| {
                (
                    q[a.words.clone()].to_string(),
                    a.start.to_rfc3339(),
                    a.end.to_rfc3339(),
                )
            })
            .collect()
    }

    fn one(q: &str, words: &str, start: &str, end: &str) -> (String, String, String) {
        let _ = q;
        (words.into(), start.into(), end.into())
    }

    #[test]
    fn an_absolute_day_is_that_day_whatever_the_clock() {
        // "3 June, 2023" names one day: 00:00 to the next 00:00, in the clock's offset (UTC).
        let q = "What new activity did Maria start recently, as mentioned on 3 June, 2023?";
        assert_eq!(
            windows(q, "2026-11-30T12:00:00+00:00"),
            vec![one(
                q,
                "on 3 June, 2023",
                "2023-06-03T00:00:00+00:00",
                "2023-06-04T00:00:00+00:00"
            )]
        );
    }

    #[test]
    fn a_month_with_a_year_is_the_whole_month() {
        // The capture parser skips "December 2023" (a month followed by a number): the
        // question reader covers it, 1 December to 1 January, "in" included in the words.
        let q = "What did Maria donate to a homeless shelter in December 2023?";
        assert_eq!(
            windows(q, "2026-11-30T12:00:00+00:00"),
            vec![one(
                q,
                "in December 2023",
                "2023-12-01T00:00:00+00:00",
                "2024-01-01T00:00:00+00:00"
            )]
        );
        // Swedish, with a year alone later: "i mars 2024" is March 2024.
        let q = "Vad gjorde vi i mars 2024?";
        assert_eq!(
            windows(q, "2026-11-30T12:00:00+00:00"),
            vec![one(
                q,
                "i mars 2024",
                "2024-03-01T00:00:00+00:00",
                "2024-04-01T00:00:00+00:00"
            )]
        );
    }

    #[test]
    fn a_year_alone_is_the_whole_year() {
        let q = "How many times has Melanie gone to the beach in 2023?";
        assert_eq!(
            windows(q, "2026-11-30T12:00:00+00:00"),
            vec![one(
                q,
                "in 2023",
                "2023-01-01T00:00:00+00:00",
                "2024-01-01T00:00:00+00:00"
            )]
        );
    }

    #[test]
    fn relative_days_resolve_against_the_clock_in_three_languages() {
        // Monday 30 November 2026: the last Friday strictly before it is 27 November.
        let now = "2026-11-30T12:00:00+00:00";
        let friday = ("2026-11-27T00:00:00+00:00", "2026-11-28T00:00:00+00:00");
        let q = "What did we decide last Friday?";
        assert_eq!(
            windows(q, now),
            vec![one(q, "last Friday", friday.0, friday.1)]
        );
        let q = "Vad sa jag i fredags?";
        assert_eq!(
            windows(q, now),
            vec![one(q, "i fredags", friday.0, friday.1)]
        );
        // Danish "sidste uge": the week before the clock's, Monday 23 to Monday 30 November.
        let q = "Hvad talte vi om i sidste uge?";
        let got = windows(q, now);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(
            (got[0].1.as_str(), got[0].2.as_str()),
            ("2026-11-23T00:00:00+00:00", "2026-11-30T00:00:00+00:00")
        );
    }

    #[test]
    fn a_dated_day_anchors_the_relative_words_of_the_same_question() {
        // "before" marks no deadline in a question: the day is 10 April 2023 (a Monday), and
        // "last weekend" is the one before that Monday, 8 to 10 April, not one near the clock.
        let q = "What did Maria participate in last weekend before April 10, 2023?";
        let got = windows(q, "2026-11-30T12:00:00+00:00");
        assert_eq!(
            got,
            vec![
                one(
                    q,
                    "last weekend",
                    "2023-04-08T00:00:00+00:00",
                    "2023-04-10T00:00:00+00:00"
                ),
                one(
                    q,
                    "before April 10, 2023",
                    "2023-04-10T00:00:00+00:00",
                    "2023-04-11T00:00:00+00:00"
                ),
            ]
        );
    }

    #[test]
    fn a_date_without_a_year_takes_the_questions_year() {
        // Clock in 2026, but the question says 2023: both days are in August 2023.
        let q = "Where was John between August 11 and August 15 2023?";
        let got = windows(q, "2026-11-30T12:00:00+00:00");
        let starts: Vec<&str> = got.iter().map(|g| g.1.as_str()).collect();
        assert_eq!(
            starts,
            vec!["2023-08-11T00:00:00+00:00", "2023-08-15T00:00:00+00:00"]
        );
    }

    #[test]
    fn a_question_without_a_time_names_none() {
        assert!(windows("What is Caroline's identity?", "2026-11-30T12:00:00+00:00").is_empty());
        assert!(windows("Vad heter min hund?", "2026-11-30T12:00:00+00:00").is_empty());
    }

    #[test]
    fn closeness_falls_linearly_outside_the_window() {
        let day = (
            Utc.with_ymd_and_hms(2023, 6, 3, 0, 0, 0).unwrap(),
            Utc.with_ymd_and_hms(2023, 6, 4, 0, 0, 0).unwrap(),
        );
        let at = |d: u32, h: u32| Utc.with_ymd_and_hms(2023, 6, d, h, 0, 0).unwrap();
        // Inside: 1. A one-day window reaches 3 + 0.5 = 3.5 days: 1.75 days after its end
        // (5 June 18:00) is halfway.
        assert_eq!(near(day, at(3, 13), None, 3.0), 1.0);
        assert!((near(day, at(5, 18), None, 3.0) - 0.5).abs() < 1e-9);
        assert_eq!(near(day, at(9, 0), None, 3.0), 0.0);
        // Said a month later about an event on 3 June: the event time counts.
        let later = Utc.with_ymd_and_hms(2023, 7, 3, 0, 0, 0).unwrap();
        assert_eq!(near(day, later, Some((at(3, 10), at(3, 11))), 3.0), 1.0);
    }

    #[test]
    fn time_words_leave_the_text_tidily() {
        let q = "What did Maria donate in December 2023?";
        let r = q.find("in December").unwrap()..q.find('?').unwrap();
        assert_eq!(without(q, &[r]), "What did Maria donate?");
    }
}
