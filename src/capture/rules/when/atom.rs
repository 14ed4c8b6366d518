//! The smallest time expressions ("tomorrow", "i fredags", "kl. 16.30", "vecka 19"), found
//! token by token. [`super::compound`] joins neighbours into one expression.

use chrono::{Duration, Weekday};

use super::lexicon::{self, Part, Unit};
use super::phrases::{RELATIVE_DAYS, SPANS, WEEKDAY_MODES, WEEKENDS, WEEKS};
use crate::capture::rules::token::{Kind, Token};

/// How a weekday was qualified.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WdMode {
    /// "Friday", "on Friday", "fredagen": past or future by the tense around it.
    Bare,
    /// "this Friday", "på fredag", "nu på fredag": the next one strictly after the message day.
    Future,
    /// "last Friday", "i fredags", "sidste fredag": the last one strictly before it.
    Past,
    /// "next Friday", "nästa fredag", "næste fredag": that day in the following week.
    Next,
}

/// Which weekend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WeekendRef {
    /// "this weekend", "i helgen", "i weekenden": the coming one, or the one just gone in past
    /// tense.
    Sensed,
    /// "next weekend", "nästa helg", "næste weekend".
    Next,
    /// "last weekend", "förra helgen", "sidste weekend".
    Last,
}

/// One time atom.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Atom {
    /// The message day plus n days ("today" 0, "tomorrow" 1, "i förrgår" −2).
    Day(i64),
    /// A part of the message day plus n ("this morning", "i aftes" = (−1, evening)).
    DayPart(i64, Part),
    /// Swedish "i natt", Danish "i nat": the coming night, or the last one in past tense.
    NightBySense,
    /// A weekday.
    Weekday(Weekday, WdMode),
    /// An explicit date ("March 3rd", "den 21 mars", "2026-03-21").
    Date {
        month: u32,
        day: u32,
        year: Option<i32>,
    },
    /// A day of the month without a month ("the 20th", "den 20:e").
    DayOfMonth(u32),
    /// A part-of-day word that only narrows a day before it.
    Part(Part),
    /// A clock time. `pm` is the stated half of the day, if any; `loose` when written without
    /// a leading zero ("at 3", "5:45"), so a small hour may mean the afternoon.
    Clock {
        hour: u32,
        minute: u32,
        pm: Option<bool>,
        loose: bool,
    },
    /// The message week plus n (Monday-start).
    Week(i64),
    /// ISO week number of the message year.
    WeekNumber(u32),
    /// A weekend.
    Weekend(WeekendRef),
    /// A named month; `dir` is +1 for "next May", −1 for "last May", 0 by tense.
    Month(u32, i64),
    /// The message month plus n.
    RelMonth(i64),
    /// The message year plus n.
    RelYear(i64),
    /// "the end of the month": a deadline to the 1st of the next month.
    EndOfMonth,
    /// "the end of the week": a deadline to next Monday.
    EndOfWeek,
    /// Whole day, the message day plus n days ("in two days", "om två veckor" = 14).
    InDays(i64),
    /// Whole day, the message day plus n calendar months.
    InMonths(i64),
    /// An instant: the message time plus a duration ("in 20 minutes", "om en halv time").
    After(Duration),
    /// An instant relative to another event in the message ("en timme innan" = −60 min).
    Relative(Duration),
    /// From the start of the message day to the message time ("earlier today").
    EarlierToday,
    /// From the message time to the end of the day ("later today").
    LaterToday,
}

type Hit = Option<(usize, Atom)>;

/// Whether tokens from `i` spell `words` (lower case), returning the index after them.
pub(crate) fn seq(t: &[Token<'_>], i: usize, words: &[&str]) -> Option<usize> {
    let ok = words
        .iter()
        .enumerate()
        .all(|(k, w)| t.get(i + k).is_some_and(|tok| tok.is(w)));
    ok.then_some(i + words.len())
}

/// The first of several spellings that matches at `i`.
fn any_seq(t: &[Token<'_>], i: usize, options: &[&[&str]]) -> Option<usize> {
    options.iter().find_map(|words| seq(t, i, words))
}

fn word<'a>(t: &'a [Token<'_>], i: usize) -> Option<&'a str> {
    t.get(i).map(|tok| tok.low.as_str())
}

/// The atom starting at token `i`, and the index after it.
pub(crate) fn at(t: &[Token<'_>], i: usize) -> Hit {
    relative_day(t, i)
        .or_else(|| ago(t, i))
        .or_else(|| duration(t, i))
        .or_else(|| week(t, i))
        .or_else(|| weekend(t, i))
        .or_else(|| month_or_year(t, i))
        .or_else(|| date(t, i))
        .or_else(|| weekday(t, i))
        .or_else(|| day_of_month(t, i))
        .or_else(|| clock(t, i))
        .or_else(|| {
            word(t, i)
                .and_then(lexicon::part_word)
                .map(|p| (i + 1, Atom::Part(p)))
        })
}

fn relative_day(t: &[Token<'_>], i: usize) -> Hit {
    RELATIVE_DAYS
        .iter()
        .find_map(|(words, atom)| seq(t, i, words).map(|end| (end, atom.clone())))
}

/// "two days ago", "för två dagar sedan", "for to dage siden": a whole day in the past.
fn ago(t: &[Token<'_>], i: usize) -> Hit {
    let back = |n: i64, u: Unit| match u {
        Unit::Day => Some(Atom::Day(-n)),
        Unit::Week => Some(Atom::Day(-7 * n)),
        _ => None,
    };
    if let (Some(n), Some(u)) = (
        word(t, i).and_then(|w| lexicon::count(w, false)),
        word(t, i + 1).and_then(|w| lexicon::unit(w, false)),
    ) && t.get(i + 2).is_some_and(|w| w.is("ago"))
    {
        return back(n, u).map(|a| (i + 3, a));
    }
    if t.get(i).is_some_and(|w| w.is_any(&["för", "for"]))
        && let (Some(n), Some(u)) = (
            word(t, i + 1).and_then(|w| lexicon::count(w, true)),
            word(t, i + 2).and_then(|w| lexicon::unit(w, true)),
        )
        && t.get(i + 3)
            .is_some_and(|w| w.is_any(&["sedan", "siden", "sen"]))
    {
        return back(n, u).map(|a| (i + 4, a));
    }
    None
}

/// "in 20 minutes", "in two days", "om en halv time", "om två dagar", and "an hour before".
fn duration(t: &[Token<'_>], i: usize) -> Hit {
    let lead = word(t, i)?;
    let scandinavian = lead == "om";
    if lead == "in" || lead == "om" || lead == "within" {
        let (end, amount) = amount(t, i + 1, scandinavian)?;
        return Some((end, from_now(amount)?));
    }
    // "an hour before", "en timme innan", "en time før": relative to another event.
    for nordic in [false, true] {
        if let Some((end, Amount::Span(d))) = amount(t, i, nordic) {
            let after = word(t, end)?;
            let sign = match after {
                "before" | "earlier" | "innan" | "före" | "før" | "inden" | "tidigare" => -1,
                "after" | "later" | "efter" | "senare" | "senere" => 1,
                _ => continue,
            };
            return Some((end + 1, Atom::Relative(d * sign)));
        }
    }
    None
}

/// A counted unit of time.
enum Amount {
    /// Minutes or hours: an exact span.
    Span(Duration),
    /// Days, weeks, months or years: calendar steps.
    Calendar(i64, Unit),
}

fn from_now(amount: Amount) -> Option<Atom> {
    Some(match amount {
        Amount::Span(d) => Atom::After(d),
        Amount::Calendar(n, Unit::Day) => Atom::InDays(n),
        Amount::Calendar(n, Unit::Week) => Atom::InDays(7 * n),
        Amount::Calendar(n, Unit::Month) => Atom::InMonths(n),
        Amount::Calendar(n, Unit::Year) => Atom::InMonths(12 * n),
        Amount::Calendar(..) => return None,
    })
}

fn amount(t: &[Token<'_>], i: usize, nordic: bool) -> Option<(usize, Amount)> {
    let half_hour: &[&[&str]] = &[
        &["half", "an", "hour"],
        &["en", "halvtimme"],
        &["en", "halvtimma"],
        &["en", "halv", "timme"],
        &["en", "halv", "timma"],
        &["en", "halv", "time"],
        &["en", "halvtime"],
    ];
    if let Some(end) = any_seq(t, i, half_hour) {
        return Some((end, Amount::Span(Duration::minutes(30))));
    }
    let quarter: &[&[&str]] = &[
        &["a", "quarter", "of", "an", "hour"],
        &["en", "kvart"],
        &["et", "kvarter"],
    ];
    if let Some(end) = any_seq(t, i, quarter) {
        return Some((end, Amount::Span(Duration::minutes(15))));
    }
    let (mut j, n) = if let Some(end) = seq(t, i, &["a", "couple", "of"]) {
        (end, 2)
    } else {
        (i + 1, lexicon::count(word(t, i)?, nordic)?)
    };
    if t.get(j).is_some_and(|w| w.is_any(&["more", "further"])) {
        j += 1;
    }
    let u = lexicon::unit(word(t, j)?, nordic)?;
    let amount = match u {
        Unit::Minute => Amount::Span(Duration::minutes(n)),
        Unit::Hour => Amount::Span(Duration::hours(n)),
        other => Amount::Calendar(n, other),
    };
    Some((j + 1, amount))
}

fn week(t: &[Token<'_>], i: usize) -> Hit {
    if let Some(hit) = WEEKS
        .iter()
        .find_map(|(w, n)| seq(t, i, w).map(|e| (e, Atom::Week(*n))))
    {
        return Some(hit);
    }
    // "week 19", "in week 19", "vecka 19", "v. 19", "i uge 12".
    let mut j = i;
    if t.get(j).is_some_and(|w| w.is_any(&["in", "i"])) {
        j += 1;
    }
    if !t
        .get(j)
        .is_some_and(|w| w.is_any(&["week", "vecka", "uge", "v"]))
    {
        return None;
    }
    j += 1;
    if t.get(j).is_some_and(|w| w.is(".")) {
        j += 1;
    }
    let n = t
        .get(j)
        .filter(|w| w.kind == Kind::Number && w.raw.chars().all(|c| c.is_ascii_digit()))?;
    let n = n.leading_int().filter(|n| (1..=53).contains(n))?;
    Some((j + 1, Atom::WeekNumber(n)))
}

fn weekend(t: &[Token<'_>], i: usize) -> Hit {
    WEEKENDS
        .iter()
        .find_map(|(w, r)| seq(t, i, w).map(|e| (e, Atom::Weekend(*r))))
}

fn month_or_year(t: &[Token<'_>], i: usize) -> Hit {
    if let Some(hit) = SPANS
        .iter()
        .find_map(|(w, a)| seq(t, i, w).map(|e| (e, a.clone())))
    {
        return Some(hit);
    }
    // "in May", "i augusti", "next March", "early June": a named month not followed by a day.
    let dir = match word(t, i)? {
        "next" | "nästa" | "næste" => 1,
        "last" | "förra" | "sidste" | "forrige" => -1,
        "in" | "i" | "during" | "under" | "until" | "till" | "til" | "early" | "late" | "mid" => 0,
        _ => return None,
    };
    let m = month_name(t, i + 1, false)?;
    let followed_by_day = t.get(i + 2).is_some_and(|w| w.kind == Kind::Number);
    (!followed_by_day).then_some((i + 2, Atom::Month(m, dir)))
}

/// A month name at `i`. English "May" and "March" are also a modal verb and a verb, so in
/// English they count only when capitalised.
fn month_name(t: &[Token<'_>], i: usize, abbreviated: bool) -> Option<u32> {
    let tok = t.get(i)?;
    let m = lexicon::month(&tok.low, abbreviated)?;
    let ambiguous = tok.is_any(&["may", "march"]);
    (!ambiguous || tok.is_capitalised()).then_some(m)
}

/// A day number 1..=31 at `i`, with an optional ordinal suffix or a trailing "." (Danish "3.").
fn day_number(t: &[Token<'_>], i: usize) -> Option<(usize, u32)> {
    let tok = t.get(i).filter(|w| w.kind == Kind::Number)?;
    let suffix: String = tok.low.chars().skip_while(char::is_ascii_digit).collect();
    if !matches!(
        suffix.as_str(),
        "" | "st" | "nd" | "rd" | "th" | ":e" | ":a"
    ) {
        return None;
    }
    let n = tok.leading_int().filter(|n| (1..=31).contains(n))?;
    // Danish "den 3. maj": the dot is part of the ordinal when a word follows in lower case,
    // or a month name in any case ("den 2. MAJ"); otherwise it ends the sentence.
    let dot = suffix.is_empty()
        && t.get(i + 1).is_some_and(|w| w.is("."))
        && t.get(i + 2).is_some_and(|w| {
            w.kind == Kind::Word && (!w.is_capitalised() || lexicon::month(&w.low, false).is_some())
        });
    Some((if dot { i + 2 } else { i + 1 }, n))
}

fn year_after(t: &[Token<'_>], i: usize) -> (usize, Option<i32>) {
    let j = if t.get(i).is_some_and(|w| w.is(",")) {
        i + 1
    } else {
        i
    };
    match t.get(j) {
        Some(tok)
            if tok.kind == Kind::Number
                && tok.raw.len() == 4
                && tok.raw.chars().all(|c| c.is_ascii_digit()) =>
        {
            (j + 1, tok.raw.parse().ok())
        }
        _ => (i, None),
    }
}

fn date(t: &[Token<'_>], i: usize) -> Hit {
    let mut j = i;
    if t.get(j).is_some_and(|w| w.is_any(&["on", "the", "den"])) {
        j += 1;
        if t.get(j).is_some_and(|w| w.is("the")) {
            j += 1;
        }
    }
    // "3 March", "3rd of March", "den 21 mars", "den 3. maj".
    if let Some((k, day)) = day_number(t, j) {
        let k = if t.get(k).is_some_and(|w| w.is("of")) {
            k + 1
        } else {
            k
        };
        if let Some(month) = month_name(t, k, true) {
            let (end, year) = year_after(t, k + 1);
            return Some((end, Atom::Date { month, day, year }));
        }
    }
    // "March 3rd", "March the 3rd", "March 3, 2027".
    if let Some(month) = month_name(t, j, true) {
        let k = if t.get(j + 1).is_some_and(|w| w.is("the")) {
            j + 2
        } else {
            j + 1
        };
        if let Some((k, day)) = day_number(t, k) {
            let (end, year) = year_after(t, k);
            return Some((end, Atom::Date { month, day, year }));
        }
    }
    numeric_date(t, i)
}

/// "2026-03-21" and "21/3" (day first unless that cannot be).
fn numeric_date(t: &[Token<'_>], i: usize) -> Hit {
    let num = |k: usize| {
        t.get(k)
            .filter(|w| w.kind == Kind::Number && w.raw.chars().all(|c| c.is_ascii_digit()))
            .and_then(|w| w.raw.parse::<i32>().ok())
    };
    let sep = |k: usize, s: &str| t.get(k).is_some_and(|w| w.is(s));
    let a = num(i)?;
    if sep(i + 1, "-") && sep(i + 3, "-") && a > 1900 {
        let (m, d) = (
            u32::try_from(num(i + 2)?).ok()?,
            u32::try_from(num(i + 4)?).ok()?,
        );
        return Some((
            i + 5,
            Atom::Date {
                month: m,
                day: d,
                year: Some(a),
            },
        ));
    }
    if sep(i + 1, "/") {
        let b = num(i + 2)?;
        let (day, month) = if b > 12 { (b, a) } else { (a, b) };
        let (end, year) = if sep(i + 3, "/") {
            (i + 5, num(i + 4))
        } else {
            (i + 3, None)
        };
        let year = year.map(|y| if y < 100 { 2000 + y } else { y });
        if (1..=12).contains(&month) && (1..=31).contains(&day) {
            return Some((
                end,
                Atom::Date {
                    month: u32::try_from(month).ok()?,
                    day: u32::try_from(day).ok()?,
                    year,
                },
            ));
        }
    }
    None
}

fn weekday(t: &[Token<'_>], i: usize) -> Hit {
    let (j, mode) = WEEKDAY_MODES
        .iter()
        .find_map(|(w, m)| seq(t, i, w).map(|e| (e, *m)))
        .unwrap_or((i, WdMode::Bare));
    let (day, past_form) = lexicon::weekday(word(t, j)?)?;
    if past_form {
        // "fredags" exists only as "i fredags".
        return word(t, i)
            .filter(|w| *w == "i")
            .map(|_| (j + 1, Atom::Weekday(day, WdMode::Past)));
    }
    Some((j + 1, Atom::Weekday(day, mode)))
}

fn day_of_month(t: &[Token<'_>], i: usize) -> Hit {
    let mut j = i;
    if t.get(j).is_some_and(|w| w.is("on")) {
        j += 1;
    }
    let lead = t.get(j)?;
    if !lead.is_any(&["the", "den"]) {
        return None;
    }
    let tok = t.get(j + 1)?;
    let (end, n) = day_number(t, j + 1)?;
    let ordinal = tok.low.chars().any(char::is_alphabetic) || end == j + 3;
    // "den 20" counts only before punctuation or the end; "the 20" needs an ordinal.
    let bare_ok = lead.is("den") && t.get(end).is_none_or(|w| w.kind == Kind::Punct);
    (ordinal || bare_ok).then_some((end, Atom::DayOfMonth(n)))
}

fn clock(t: &[Token<'_>], i: usize) -> Hit {
    let named: &[(&[&str], u32)] = &[
        (&["at", "noon"], 12),
        (&["noon"], 12),
        (&["midday"], 12),
        (&["at", "midnight"], 0),
        (&["midnight"], 0),
        (&["midnatt"], 0),
        (&["midnat"], 0),
    ];
    if let Some(hit) = named.iter().find_map(|(w, h)| {
        seq(t, i, w).map(|e| {
            (
                e,
                Atom::Clock {
                    hour: *h,
                    minute: 0,
                    pm: None,
                    loose: false,
                },
            )
        })
    }) {
        return Some(hit);
    }
    // "halv åtta" / "halv 8" = 7:30 in Swedish and Danish; "kvart över 8", "kvart i 8".
    if let Some(hit) = nordic_clock(t, i) {
        return Some(hit);
    }
    let with_at = t.get(i).is_some_and(|w| w.is("at"));
    let (j, marked) = match any_seq(t, i, &[&["kl", "."], &["kl"], &["klockan"], &["klokken"]]) {
        Some(end) => (end, true),
        None if with_at => (i + 1, false),
        None => (i, false),
    };
    let tok = t.get(j).filter(|w| w.kind == Kind::Number)?;
    let (hour, minute, suffix, colon) = split_clock(&tok.low)?;
    let mut end = j + 1;
    let mut pm = match suffix.as_str() {
        "am" => Some(false),
        "pm" => Some(true),
        "" => None,
        _ => return None,
    };
    if pm.is_none() {
        let meridiem: &[(&[&str], bool)] = &[
            (&["am"], false),
            (&["pm"], true),
            (&["a", ".", "m", "."], false),
            (&["p", ".", "m", "."], true),
            (&["a", ".", "m"], false),
            (&["p", ".", "m"], true),
        ];
        if let Some((e, p)) = meridiem
            .iter()
            .find_map(|(w, p)| seq(t, end, w).map(|e| (e, *p)))
        {
            pm = Some(p);
            end = e;
        }
    }
    if let Some(e) = seq(t, end, &["o'clock"]) {
        end = e;
    }
    // A bare number is a clock only after "at"/"kl." or with am/pm; "7:30" stands alone, and
    // so does a dotted time with a two-digit hour ("går 06.40", "16.30") unless money is near
    // ("$12.50", "12.50 kr").
    let two_digit_hour = tok.raw.find('.') == Some(2);
    let money = |k: Option<usize>| {
        k.and_then(|k| t.get(k)).is_some_and(|w| {
            w.is_any(&[
                "$", "£", "€", "kr", "sek", "dkk", "nok", "usd", "eur", "gbp", "kronor", "kroner",
            ])
        })
    };
    let priced = money(j.checked_sub(1)) || money(Some(j + 1));
    let accepted = match (minute, colon) {
        (Some(_), true) => true,
        (Some(_), false) => marked || with_at || (two_digit_hour && !priced),
        (None, _) => marked || pm.is_some() || (with_at && clock_context_ok(t, end)),
    };
    if !accepted || hour > 24 || minute.is_some_and(|m| m > 59) {
        return None;
    }
    let loose = !tok.raw.starts_with('0');
    Some((
        end,
        Atom::Clock {
            hour: hour % 24,
            minute: minute.unwrap_or(0),
            pm,
            loose,
        },
    ))
}

/// After "at 9" there must be no unit or capitalised name ("at 9 Main Street", "at 18%").
fn clock_context_ok(t: &[Token<'_>], end: usize) -> bool {
    match t.get(end) {
        None => true,
        Some(w) if w.kind == Kind::Punct => !w.is("%"),
        Some(w) => {
            !w.is_capitalised() && w.kind != Kind::Number && lexicon::unit(&w.low, true).is_none()
        }
    }
}

/// "7:30" → (7, Some(30), "", true); "16.30" → (16, Some(30), "", false); "9am" → (9, None,
/// "am", false).
fn split_clock(low: &str) -> Option<(u32, Option<u32>, String, bool)> {
    let digits_end = low.find(|c: char| !c.is_ascii_digit()).unwrap_or(low.len());
    let hour: u32 = low.get(..digits_end)?.parse().ok()?;
    let rest = &low[digits_end..];
    if let Some(after) = rest.strip_prefix(':').or_else(|| rest.strip_prefix('.')) {
        let colon = rest.starts_with(':');
        let m_end = after
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(after.len());
        if m_end != 2 {
            return None;
        }
        let minute: u32 = after.get(..2)?.parse().ok()?;
        return Some((hour, Some(minute), after[m_end..].to_string(), colon));
    }
    if rest.contains(['.', ',', ':']) {
        return None;
    }
    Some((hour, None, rest.to_string(), false))
}

fn nordic_clock(t: &[Token<'_>], i: usize) -> Hit {
    let mut j = i;
    if let Some(e) = any_seq(t, j, &[&["kl", "."], &["kl"], &["klockan"], &["klokken"]]) {
        j = e;
    }
    let hour_at = |k: usize| {
        t.get(k).and_then(|w| {
            w.leading_int()
                .filter(|_| w.raw.chars().all(|c| c.is_ascii_digit()))
                .or_else(|| lexicon::count(&w.low, true).and_then(|n| u32::try_from(n).ok()))
                .filter(|h| (1..=12).contains(h))
        })
    };
    let make = |end: usize, hour: u32, minute: u32| {
        (
            end,
            Atom::Clock {
                hour,
                minute,
                pm: None,
                loose: true,
            },
        )
    };
    if t.get(j).is_some_and(|w| w.is("halv")) {
        let h = hour_at(j + 1)?;
        return Some(make(j + 2, (h + 23) % 24, 30));
    }
    if t.get(j).is_some_and(|w| w.is("kvart")) {
        let dir = t.get(j + 1)?;
        let h = hour_at(j + 2)?;
        if dir.is_any(&["över", "over"]) {
            return Some(make(j + 3, h, 15));
        }
        if dir.is("i") {
            return Some(make(j + 3, (h + 23) % 24, 45));
        }
    }
    None
}
