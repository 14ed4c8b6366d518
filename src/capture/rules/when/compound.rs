//! Joins neighbouring atoms into one time expression ("tomorrow" + "at 7:30", "kl. 16.30" +
//! "på lørdag", "fredag" + "nästa vecka"), and reads the words just before it: a deadline
//! ("by", "senast"), a negation ("not Tuesday": the rejected value of a correction) or an
//! open end ("since May").

use std::ops::Range;

use chrono::Weekday;

use super::atom::{self, Atom};
use super::lexicon::{CONNECTORS, DEADLINES, NEGATIONS, OPEN_ENDED, Part};
use crate::capture::rules::lang::Lang;
use crate::capture::rules::tense::{self, Sense};
use crate::capture::rules::token::Token;

/// A clock time as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Clock {
    /// Hour as written, 0..=23.
    pub hour: u32,
    /// Minute, 0..=59.
    pub minute: u32,
    /// Stated afternoon (`Some(true)`) or morning (`Some(false)`).
    pub pm: Option<bool>,
    /// Written without a leading zero, so "3" may mean 15:00.
    pub loose: bool,
}

/// How the words before a time bound it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Deadline {
    /// "by Friday", "senast på fredag": from the message time to the end of Friday.
    By,
    /// "before Friday", "innan fredag": from the message time to the start of Friday.
    Before,
}

/// One time expression of a message, not yet resolved.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Compound {
    /// Tokens it covers, including a deadline word.
    pub tokens: Range<usize>,
    /// Index of its sentence.
    pub sentence: usize,
    /// The day: `Day`, `DayPart`, `NightBySense`, `Weekday`, `Date`, `DayOfMonth`, `InDays`,
    /// `InMonths`, `EarlierToday` or `LaterToday`.
    pub day: Option<Atom>,
    /// A weekday named next to an explicit date ("Thursday the 12th"), to check the month.
    pub weekday_hint: Option<Weekday>,
    /// A part of the day that narrows `day`.
    pub part: Option<Part>,
    /// A clock time.
    pub clock: Option<Clock>,
    /// A week (`Week` or `WeekNumber`), alone or holding a weekday.
    pub week: Option<Atom>,
    /// A longer span: `Weekend`, `Month`, `RelMonth`, `RelYear`, `EndOfMonth`, `EndOfWeek`.
    pub span: Option<Atom>,
    /// Years from the message's year of a date written without one ("June 12 next year",
    /// "nästa år den 12 juni": 1); `None` when no year word goes with it.
    pub year_offset: Option<i64>,
    /// An offset: `After` (from the message time) or `Relative` (from another event).
    pub offset: Option<Atom>,
    /// Deadline words before it.
    pub deadline: Option<Deadline>,
    /// Directly negated: a value the speaker rejects.
    pub negated: bool,
    /// After a word that puts the time behind ("it's *past* midnight", "det er *over*
    /// midnat", "*efter* klockan tio"): with no future sense, a lone clock time is the one
    /// just passed.
    pub passed: bool,
    /// Open-ended or recurring ("since May", "every Friday"): no interval.
    pub vague: bool,
    /// Past or future sense of its clause.
    pub sense: Sense,
}

impl Compound {
    fn new(tokens: Range<usize>, sentence: usize, atom: Atom) -> Option<Compound> {
        let mut c = Compound {
            tokens,
            sentence,
            day: None,
            weekday_hint: None,
            part: None,
            clock: None,
            week: None,
            span: None,
            year_offset: None,
            offset: None,
            deadline: None,
            negated: false,
            passed: false,
            vague: false,
            sense: Sense::Unknown,
        };
        match atom {
            // A part of the day alone ("in the morning") names no day: vague.
            Atom::Part(_) => return None,
            a => c.put(a),
        }
        Some(c)
    }

    /// Whether it names a single day or a part of one (not a week, month or instant-only).
    pub fn has_day(&self) -> bool {
        self.day.is_some()
    }

    /// Whether it is only a clock time, with no day.
    pub fn clock_only(&self) -> bool {
        self.clock.is_some() && self.day.is_none() && self.week.is_none() && self.span.is_none()
    }

    fn accepts(&self, atom: &Atom) -> bool {
        // A date without a year and a year word, either way round: one day of that year.
        let yearless = |a: &Option<Atom>| matches!(a, Some(Atom::Date { year: None, .. }));
        match atom {
            Atom::RelYear(_) => {
                return self.span.is_none()
                    && self.offset.is_none()
                    && self.year_offset.is_none()
                    && yearless(&self.day);
            }
            Atom::Date { year: None, .. }
                if matches!(self.span, Some(Atom::RelYear(_)))
                    && self.day.is_none()
                    && self.offset.is_none() =>
            {
                return true;
            }
            _ => {}
        }
        if self.span.is_some() || self.offset.is_some() {
            return false;
        }
        match atom {
            Atom::Clock { .. } => self.clock.is_none(),
            Atom::Part(_) => {
                self.part.is_none()
                    && matches!(
                        self.day,
                        Some(
                            Atom::Day(_)
                                | Atom::Weekday(..)
                                | Atom::Date { .. }
                                | Atom::DayOfMonth(_)
                        )
                    )
            }
            Atom::Date { .. } | Atom::DayOfMonth(_) => {
                matches!(self.day, None | Some(Atom::Weekday(..))) && self.week.is_none()
            }
            Atom::Day(_) | Atom::DayPart(..) | Atom::NightBySense => {
                self.day.is_none() && self.week.is_none()
            }
            Atom::Weekday(..) => self.day.is_none(),
            Atom::Week(_) | Atom::WeekNumber(_) => {
                self.week.is_none() && matches!(self.day, Some(Atom::Weekday(..)))
            }
            _ => false,
        }
    }

    fn put(&mut self, atom: Atom) {
        if let Atom::RelYear(k) = atom
            && matches!(self.day, Some(Atom::Date { year: None, .. }))
        {
            self.year_offset = Some(k);
            return;
        }
        if let (Atom::Date { year: None, .. }, Some(Atom::RelYear(k))) = (&atom, &self.span) {
            self.year_offset = Some(*k);
            self.span = None;
        }
        match atom {
            Atom::Clock {
                hour,
                minute,
                pm,
                loose,
            } => {
                self.clock = Some(Clock {
                    hour,
                    minute,
                    pm,
                    loose,
                })
            }
            Atom::Part(p) => self.part = Some(p),
            Atom::Date { .. } | Atom::DayOfMonth(_) => {
                if let Some(Atom::Weekday(wd, _)) = self.day {
                    self.weekday_hint = Some(wd);
                }
                self.day = Some(atom);
            }
            Atom::Week(_) | Atom::WeekNumber(_) => self.week = Some(atom),
            Atom::Weekend(_)
            | Atom::Month(..)
            | Atom::RelMonth(_)
            | Atom::RelYear(_)
            | Atom::EndOfMonth
            | Atom::EndOfWeek => self.span = Some(atom),
            Atom::After(_) | Atom::Relative(_) => self.offset = Some(atom),
            day => self.day = Some(day),
        }
    }
}

/// All time expressions of a message, sentence by sentence, in order.
pub(crate) fn find(t: &[Token<'_>], sentences: &[Range<usize>], lang: Lang) -> Vec<Compound> {
    let mut out = Vec::new();
    for (si, s) in sentences.iter().enumerate() {
        let mut current: Option<Compound> = None;
        let mut i = s.start;
        while i < s.end {
            let Some((end, a)) = atom::at(t, i).filter(|(end, _)| *end <= s.end) else {
                i += 1;
                continue;
            };
            let joins = current.as_ref().is_some_and(|c| {
                let gap = c.tokens.end..i;
                gap.len() <= 3 && gap.clone().all(|g| t[g].is_any(CONNECTORS)) && c.accepts(&a)
            });
            match (&mut current, joins) {
                (Some(c), true) => {
                    c.tokens.end = end;
                    c.put(a);
                }
                _ => {
                    if let Some(done) = current.take() {
                        out.push(done);
                    }
                    current = Compound::new(i..end, si, a);
                }
            }
            i = end;
        }
        out.extend(current);
    }
    for c in &mut out {
        let sentence = &sentences[c.sentence];
        read_prefix(t, sentence, c);
        let at = c.tokens.start;
        let clause = tense::clause(t, sentence, at);
        let lexical = lexical_sense(t, c);
        c.sense = lexical.unwrap_or_else(|| tense::sense_at(t, clause, &c.tokens, at, lang));
    }
    out
}

fn read_prefix(t: &[Token<'_>], sentence: &Range<usize>, c: &mut Compound) {
    let start = c.tokens.start;
    let prev = start
        .checked_sub(1)
        .filter(|i| *i >= sentence.start)
        .map(|i| &t[i]);
    if let Some(p) = prev {
        if p.is_any(DEADLINES) {
            c.deadline = Some(Deadline::By);
            c.tokens.start = start - 1;
        } else if p.is_any(&["before", "innan", "före", "inden", "før"]) && c.offset.is_none() {
            c.deadline = Some(Deadline::Before);
            c.tokens.start = start - 1;
        } else if let Some(k) = start.checked_sub(3).filter(|k| *k >= sentence.start)
            && atom::seq(t, k, &["no", "later", "than"]).is_some()
        {
            c.deadline = Some(Deadline::By);
            c.tokens.start = k;
        }
        // "not Tuesday", and "inte 50 i år" with the negated number between.
        let before_number = start
            .checked_sub(2)
            .filter(|i| {
                *i >= sentence.start && p.kind == crate::capture::rules::token::Kind::Number
            })
            .is_some_and(|i| t[i].is_any(NEGATIONS));
        c.negated = p.is_any(NEGATIONS) || before_number;
        c.passed = p.is_any(&["past", "after", "efter", "över", "etter", "over"]);
        c.vague = p.is_any(OPEN_ENDED);
    }
    // "until 9 pm on Saturdays", "kl. 8 på lördagar": a recurring time is no one interval.
    let after = (c.tokens.end..(c.tokens.end + 3).min(sentence.end)).map(|i| &t[i]);
    c.vague |= after
        .take_while(|w| w.is_any(CONNECTORS) || super::lexicon::weekday_plural(&w.low))
        .any(|w| super::lexicon::weekday_plural(&w.low));
}

/// Sense fixed by the words themselves: "for Friday", "until May" look ahead; a deadline is
/// always ahead.
fn lexical_sense(t: &[Token<'_>], c: &Compound) -> Option<Sense> {
    if c.deadline.is_some() {
        return Some(Sense::Future);
    }
    let prev = c.tokens.start.checked_sub(1).and_then(|i| t.get(i))?;
    prev.is_any(&["for", "until", "till", "tills", "indtil", "til", "to"])
        .then_some(Sense::Future)
}
