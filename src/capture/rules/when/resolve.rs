//! Turns a time expression into an interval `[start, end)` against the message's own local
//! date and UTC offset (shared/data/capture/README.md, the interval table).
//!
//! A message holds an offset, not a time zone. When the user's zone is known ([`crate::zone`])
//! and the message was written in it (its offset is the zone's at that instant, or it is UTC,
//! as imports store times), each bound takes its own day's offset in that zone: "i morgon"
//! sent on Saturday 28 March 2026 at 12:00+01:00 in Stockholm is Sunday 00:00+01:00 to Monday
//! 00:00+02:00, since the clocks go forward on Sunday night. Otherwise every bound carries the
//! message's fixed offset.

use chrono::{
    DateTime, Datelike, Duration, FixedOffset, Months, NaiveDate, NaiveDateTime, Offset, TimeZone,
    Weekday,
};
use chrono_tz::Tz;

use super::atom::{Atom, WdMode, WeekendRef};
use super::compound::{Clock, Compound, Deadline};
use super::lexicon::Part;
use crate::capture::rules::tense::Sense;

/// How long after a clock time "it's past …" still means the one just passed, hours.
const PASSED_WITHIN_HOURS: i64 = 6;

/// A resolved interval, `start <= end`; `start == end` for an instant.
pub(crate) type Interval = (DateTime<FixedOffset>, DateTime<FixedOffset>);

/// The message's time, the reference for every relative expression.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reference {
    /// The message timestamp with the writer's offset (in the zone's offset when a zone is
    /// used).
    pub ts: DateTime<FixedOffset>,
    /// The user's zone, when the message was written in it: each day's own offset.
    zone: Option<Tz>,
}

impl Reference {
    /// The reference for a message written at `ts`. `zone` is used when `ts` is in it: its
    /// offset is the zone's at that instant, or `+00:00` (an imported or UTC-stored time,
    /// then read as the zone's local time). A message with another offset was written
    /// elsewhere (a trip), and its own offset stands.
    pub(crate) fn new(ts: DateTime<FixedOffset>, zone: Option<Tz>) -> Reference {
        let zone = zone.filter(|z| {
            let there = z.offset_from_utc_datetime(&ts.naive_utc()).fix();
            there == *ts.offset() || ts.offset().local_minus_utc() == 0
        });
        match zone {
            Some(z) => Reference {
                ts: ts.with_timezone(&z).fixed_offset(),
                zone: Some(z),
            },
            None => Reference { ts, zone: None },
        }
    }

    fn today(&self) -> NaiveDate {
        self.ts.date_naive()
    }

    /// Local wall time on `date`, `hour` (which may run past 24) and `minute`: in the zone
    /// with that moment's own offset (a time the clocks skip takes the offset before the
    /// change, so 02:30 on a spring-forward night is 03:30 after it), else in the message's
    /// offset.
    fn at(&self, date: NaiveDate, hour: u32, minute: u32) -> Option<DateTime<FixedOffset>> {
        let date = date.checked_add_days(chrono::Days::new(u64::from(hour / 24)))?;
        let naive = date.and_hms_opt(hour % 24, minute, 0)?;
        match self.zone {
            Some(z) => local_in(z, naive),
            None => naive.and_local_timezone(*self.ts.offset()).single(),
        }
    }

    fn day(&self, date: NaiveDate) -> Option<Interval> {
        Some((self.at(date, 0, 0)?, self.at(date, 24, 0)?))
    }

    fn days(&self, from: NaiveDate, n: u32) -> Option<Interval> {
        Some((self.at(from, 0, 0)?, self.at(from, 24 * n, 0)?))
    }
}

/// `naive` as a wall-clock time in `zone`: the earlier of two when the clocks go back, and
/// for a time the clocks skip, that time read with the offset in force just before the change.
pub(crate) fn local_in(zone: Tz, naive: NaiveDateTime) -> Option<DateTime<FixedOffset>> {
    match zone.from_local_datetime(&naive).earliest() {
        Some(t) => Some(t.fixed_offset()),
        None => {
            let before = zone
                .offset_from_utc_datetime(&(naive - Duration::hours(3)))
                .fix();
            naive.and_local_timezone(before).single()
        }
    }
}

fn add_days(d: NaiveDate, n: i64) -> Option<NaiveDate> {
    d.checked_add_signed(Duration::days(n))
}

fn monday_of(d: NaiveDate) -> Option<NaiveDate> {
    add_days(d, -i64::from(d.weekday().num_days_from_monday()))
}

fn first_of_month(d: NaiveDate, months: i64) -> Option<NaiveDate> {
    let first = d.with_day(1)?;
    let step = Months::new(u32::try_from(months.unsigned_abs()).ok()?);
    if months >= 0 {
        first.checked_add_months(step)
    } else {
        first.checked_sub_months(step)
    }
}

/// The next `wd` strictly after `d`.
fn next_after(d: NaiveDate, wd: Weekday) -> Option<NaiveDate> {
    let ahead = (7 + i64::from(wd.num_days_from_monday())
        - i64::from(d.weekday().num_days_from_monday()))
        % 7;
    add_days(d, if ahead == 0 { 7 } else { ahead })
}

/// The last `wd` strictly before `d`.
fn last_before(d: NaiveDate, wd: Weekday) -> Option<NaiveDate> {
    let back = (7 + i64::from(d.weekday().num_days_from_monday())
        - i64::from(wd.num_days_from_monday()))
        % 7;
    add_days(d, -(if back == 0 { 7 } else { back }))
}

/// Resolves a compound. `anchor` is the latest instant named earlier in the message, for
/// "en timme innan". `None` for anything vague, negated or impossible (30 February).
pub(crate) fn resolve(
    c: &Compound,
    r: &Reference,
    anchor: Option<DateTime<FixedOffset>>,
) -> Option<Interval> {
    if c.vague {
        return None;
    }
    let interval = match (&c.offset, &c.span, &c.day, &c.week, &c.clock) {
        (Some(Atom::After(d)), ..) => {
            let t = r.ts.checked_add_signed(*d)?;
            (t, t)
        }
        (Some(Atom::Relative(d)), ..) => {
            let t = anchor?.checked_add_signed(*d)?;
            (t, t)
        }
        (_, Some(span), ..) => span_interval(span, c.sense, r)?,
        (_, _, Some(day), ..) => day_interval(c, day, r)?,
        (_, _, None, Some(week), _) => {
            let monday = week_monday(week, r)?;
            r.days(monday, 7)?
        }
        (_, _, None, None, Some(clock)) => {
            // The next such time, or the last one when the clause says it is behind: a past
            // tense ("I got home at 23:10", said at 23:40), or "past midnight" said within
            // [`PASSED_WITHIN_HOURS`] of it.
            let hour = clock_hour(*clock, None);
            let today = r.at(r.today(), hour, clock.minute)?;
            let (last, next) = if today <= r.ts {
                (today, r.at(add_days(r.today(), 1)?, hour, clock.minute)?)
            } else {
                (r.at(add_days(r.today(), -1)?, hour, clock.minute)?, today)
            };
            let behind = match c.sense {
                Sense::Past => true,
                Sense::Unknown => c.passed && r.ts - last <= Duration::hours(PASSED_WITHIN_HOURS),
                Sense::Future => false,
            };
            let t = if behind { last } else { next };
            (t, t)
        }
        _ => return None,
    };
    Some(match c.deadline {
        Some(Deadline::By) => (r.ts, interval.1.max(r.ts)),
        Some(Deadline::Before) => (r.ts, interval.0.max(r.ts)),
        None => interval,
    })
}

fn week_monday(week: &Atom, r: &Reference) -> Option<NaiveDate> {
    match week {
        Atom::Week(n) => add_days(monday_of(r.today())?, 7 * n),
        Atom::WeekNumber(n) => NaiveDate::from_isoywd_opt(r.today().year(), *n, Weekday::Mon),
        _ => None,
    }
}

/// The hour on the 24-hour clock: a stated am/pm wins; an evening part makes "8" 20:00; an
/// unpadded 1..=6 with nothing else said is read as the afternoon ("at 3" = 15:00).
fn clock_hour(c: Clock, part: Option<Part>) -> u32 {
    match (c.pm, part) {
        (Some(true), _) if c.hour < 12 => c.hour + 12,
        (Some(false), _) if c.hour == 12 => 0,
        (Some(_), _) => c.hour,
        (None, Some(Part::Afternoon | Part::Evening)) if c.hour < 12 => c.hour + 12,
        (None, Some(Part::Night)) if (6..12).contains(&c.hour) => c.hour + 12,
        (None, Some(Part::Night)) if c.hour < 6 => c.hour + 24,
        (None, Some(Part::Morning)) => c.hour,
        (None, _) if c.loose && (1..=6).contains(&c.hour) => c.hour + 12,
        _ => c.hour,
    }
}

fn day_interval(c: &Compound, day: &Atom, r: &Reference) -> Option<Interval> {
    let today = r.today();
    let (date, fixed_part) = match day {
        Atom::Day(n) | Atom::InDays(n) => (add_days(today, *n)?, None),
        Atom::DayPart(n, p) => (add_days(today, *n)?, Some(*p)),
        Atom::NightBySense if c.sense == Sense::Past => (add_days(today, -1)?, Some(Part::Night)),
        Atom::NightBySense => (today, Some(Part::Night)),
        Atom::InMonths(n) => (
            today.checked_add_months(Months::new(u32::try_from(*n).ok()?))?,
            None,
        ),
        Atom::EarlierToday => return Some((r.at(today, 0, 0)?, r.ts)),
        Atom::LaterToday => return Some((r.ts, r.at(today, 24, 0)?)),
        Atom::Weekday(wd, mode) => (weekday_date(*wd, *mode, c, r)?, None),
        Atom::Date { month, day, year } => {
            let year = year.or(match c.year_offset {
                Some(k) => Some(today.year() + i32::try_from(k).ok()?),
                None => None,
            });
            (explicit_date(*month, *day, year, c.sense, today)?, None)
        }
        Atom::DayOfMonth(n) => (day_of_month(*n, c.weekday_hint, c.sense, today)?, None),
        _ => return None,
    };
    let part = c.part.or(fixed_part);
    if let Some(clock) = c.clock {
        let t = r.at(date, clock_hour(clock, part), clock.minute)?;
        return Some((t, t));
    }
    match part {
        Some(p) => {
            let (from, to) = p.hours();
            Some((r.at(date, from, 0)?, r.at(date, to, 0)?))
        }
        None => r.day(date),
    }
}

fn weekday_date(wd: Weekday, mode: WdMode, c: &Compound, r: &Reference) -> Option<NaiveDate> {
    let today = r.today();
    if let Some(week) = &c.week {
        return add_days(week_monday(week, r)?, i64::from(wd.num_days_from_monday()));
    }
    match mode {
        WdMode::Future => next_after(today, wd),
        WdMode::Past => last_before(today, wd),
        WdMode::Next => add_days(monday_of(today)?, 7 + i64::from(wd.num_days_from_monday())),
        WdMode::Bare if c.sense == Sense::Past => last_before(today, wd),
        WdMode::Bare => next_after(today, wd),
    }
}

/// An explicit date without a year: the coming one in future sense, the last one in past
/// sense, otherwise the nearest one.
fn explicit_date(
    month: u32,
    day: u32,
    year: Option<i32>,
    sense: Sense,
    today: NaiveDate,
) -> Option<NaiveDate> {
    if let Some(y) = year {
        return NaiveDate::from_ymd_opt(y, month, day);
    }
    let y = today.year();
    let this = NaiveDate::from_ymd_opt(y, month, day);
    match sense {
        Sense::Future => this
            .filter(|d| *d >= today)
            .or_else(|| NaiveDate::from_ymd_opt(y + 1, month, day)),
        Sense::Past => this
            .filter(|d| *d <= today)
            .or_else(|| NaiveDate::from_ymd_opt(y - 1, month, day)),
        Sense::Unknown => [y - 1, y, y + 1]
            .into_iter()
            .filter_map(|y| NaiveDate::from_ymd_opt(y, month, day))
            .min_by_key(|d| (*d - today).num_days().abs()),
    }
}

/// "the 20th": this month if still ahead, else next month (future sense); the last such day
/// in past sense. A weekday named with it ("Thursday the 12th") picks the month where it fits.
fn day_of_month(
    n: u32,
    hint: Option<Weekday>,
    sense: Sense,
    today: NaiveDate,
) -> Option<NaiveDate> {
    let in_month = |k: i64| first_of_month(today, k).and_then(|f| f.with_day(n));
    if let Some(wd) = hint {
        let fitting: Vec<NaiveDate> = (-1..=1)
            .filter_map(in_month)
            .filter(|d| d.weekday() == wd)
            .collect();
        let preferred = match sense {
            Sense::Past => fitting.iter().rev().find(|d| **d < today),
            _ => fitting.iter().find(|d| **d > today),
        };
        if let Some(d) = preferred.or(fitting.first()) {
            return Some(*d);
        }
    }
    match sense {
        Sense::Past => (0..=12)
            .map(|k| -k)
            .filter_map(in_month)
            .find(|d| *d < today),
        _ => (0..=12).filter_map(in_month).find(|d| *d > today),
    }
}

fn span_interval(span: &Atom, sense: Sense, r: &Reference) -> Option<Interval> {
    let today = r.today();
    match span {
        Atom::Weekend(which) => {
            let this_saturday = add_days(monday_of(today)?, 5)?;
            let saturday = match (which, sense) {
                (WeekendRef::Next, _) => add_days(this_saturday, 7)?,
                (WeekendRef::Last, _) => add_days(this_saturday, -7)?,
                (WeekendRef::Sensed, Sense::Past) => last_before(today, Weekday::Sat)?,
                (WeekendRef::Sensed, _) => this_saturday,
            };
            r.days(saturday, 2)
        }
        Atom::Month(m, dir) => {
            let cur = today.month();
            let y = today.year();
            let year = match (dir, sense) {
                (1, _) => {
                    if *m > cur {
                        y
                    } else {
                        y + 1
                    }
                }
                (-1, _) => {
                    if *m < cur {
                        y
                    } else {
                        y - 1
                    }
                }
                (_, Sense::Past) => {
                    if *m <= cur {
                        y
                    } else {
                        y - 1
                    }
                }
                _ => {
                    if *m >= cur {
                        y
                    } else {
                        y + 1
                    }
                }
            };
            let first = NaiveDate::from_ymd_opt(year, *m, 1)?;
            Some((r.at(first, 0, 0)?, r.at(first_of_month(first, 1)?, 0, 0)?))
        }
        Atom::RelMonth(k) => {
            let first = first_of_month(today, *k)?;
            Some((r.at(first, 0, 0)?, r.at(first_of_month(first, 1)?, 0, 0)?))
        }
        Atom::RelYear(k) => {
            let y = today.year() + i32::try_from(*k).ok()?;
            let (a, b) = (
                NaiveDate::from_ymd_opt(y, 1, 1)?,
                NaiveDate::from_ymd_opt(y + 1, 1, 1)?,
            );
            Some((r.at(a, 0, 0)?, r.at(b, 0, 0)?))
        }
        Atom::EndOfMonth => {
            let next = first_of_month(today, 1)?;
            r.day(add_days(next, -1)?)
        }
        Atom::EndOfWeek => r.day(add_days(monday_of(today)?, 6)?),
        _ => None,
    }
}
