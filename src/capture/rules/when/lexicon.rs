//! The words of time in English, Swedish and Danish: weekdays, months, number words, units and
//! parts of the day. Lower case; the parser compares token by token.

use chrono::Weekday;

/// A part of a day and its local hours `[start, end)`; night runs into the next morning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Part {
    /// 06:00 to 12:00 ("this morning", "i morse", "i morges").
    Morning,
    /// 12:00 to 18:00.
    Afternoon,
    /// 18:00 to 24:00 ("i kväll", "i aften").
    Evening,
    /// 18:00 to 06:00 the next day ("tonight", "i natt").
    Night,
}

impl Part {
    /// Start and end hour; an end past 24 runs into the next day.
    pub fn hours(self) -> (u32, u32) {
        match self {
            Part::Morning => (6, 12),
            Part::Afternoon => (12, 18),
            Part::Evening => (18, 24),
            Part::Night => (18, 30),
        }
    }
}

/// A weekday name: full, definite ("fredagen") or the Scandinavian past form ("fredags", only
/// after "i"). Returns the day and whether it was the past form.
pub(crate) fn weekday(word: &str) -> Option<(Weekday, bool)> {
    const DAYS: [(Weekday, &[&str]); 7] = [
        (Weekday::Mon, &["monday", "måndag", "mandag"]),
        (Weekday::Tue, &["tuesday", "tisdag", "tirsdag"]),
        (Weekday::Wed, &["wednesday", "onsdag"]),
        (Weekday::Thu, &["thursday", "torsdag"]),
        (Weekday::Fri, &["friday", "fredag"]),
        (Weekday::Sat, &["saturday", "lördag", "lørdag"]),
        (Weekday::Sun, &["sunday", "söndag", "søndag"]),
    ];
    let word = word.strip_suffix("'s").unwrap_or(word);
    for (day, names) in DAYS {
        for name in names {
            if word == *name || word.strip_suffix("en") == Some(name) {
                return Some((day, false));
            }
            if word.strip_suffix('s') == Some(name) && !name.ends_with('y') {
                return Some((day, true));
            }
        }
    }
    None
}

/// A plural weekday or weekend ("Saturdays", "lördagar", "lørdage", "weekends"): a habit, not
/// a date.
pub(crate) fn weekday_plural(word: &str) -> bool {
    const EN: [&str; 8] = [
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "weekend",
    ];
    const SV: [&str; 7] = [
        "måndag", "tisdag", "onsdag", "torsdag", "fredag", "lördag", "söndag",
    ];
    const DA: [&str; 8] = [
        "mandag", "tirsdag", "onsdag", "torsdag", "fredag", "lørdag", "søndag", "weekend",
    ];
    let plural = |stems: &[&str], endings: &[&str]| {
        stems.iter().any(|s| {
            word.strip_prefix(s)
                .is_some_and(|rest| endings.contains(&rest))
        })
    };
    // Swedish "i fredags" ends in -s too, but is one past Friday: English takes -s only.
    plural(&EN, &["s"])
        || plural(&SV, &["ar", "arna"])
        || plural(&DA, &["e", "ene"])
        || ["helger", "helgerna", "weekenderne"].contains(&word)
}

/// A month name in English, Swedish, Danish or Norwegian (its "mai" and "desember"), 1 to 12. `abbreviated` also accepts "jan",
/// "sept" and the like (only safe next to a day number: "Jun" is also a name).
pub(crate) fn month(word: &str, abbreviated: bool) -> Option<u32> {
    const MONTHS: [&[&str]; 12] = [
        &["january", "januari", "januar"],
        &["february", "februari", "februar"],
        &["march", "mars", "marts"],
        &["april"],
        &["may", "maj", "mai"],
        &["june", "juni"],
        &["july", "juli"],
        &["august", "augusti"],
        &["september"],
        &["october", "oktober"],
        &["november"],
        &["december", "desember"],
    ];
    const SHORT: [&[&str]; 12] = [
        &["jan"],
        &["feb"],
        &["mar"],
        &["apr"],
        &[],
        &["jun"],
        &["jul"],
        &["aug"],
        &["sep", "sept"],
        &["oct", "okt"],
        &["nov"],
        &["dec"],
    ];
    let found = |table: &[&[&str]; 12]| {
        table
            .iter()
            .position(|names| names.contains(&word))
            .and_then(|i| u32::try_from(i + 1).ok())
    };
    found(&MONTHS).or_else(|| if abbreviated { found(&SHORT) } else { None })
}

/// A number written as a word or digits, for durations ("two", "två", "to", "a", "20").
/// `scandinavian` picks the Swedish and Danish words (after "om"), else English (after "in").
pub(crate) fn count(word: &str, scandinavian: bool) -> Option<i64> {
    const EN: [(&str, i64); 17] = [
        ("a", 1),
        ("an", 1),
        ("one", 1),
        ("two", 2),
        ("three", 3),
        ("four", 4),
        ("five", 5),
        ("six", 6),
        ("seven", 7),
        ("eight", 8),
        ("nine", 9),
        ("ten", 10),
        ("eleven", 11),
        ("twelve", 12),
        ("fifteen", 15),
        ("twenty", 20),
        ("thirty", 30),
    ];
    const NORDIC: [(&str, i64); 28] = [
        ("en", 1),
        ("ett", 1),
        ("et", 1),
        ("två", 2),
        ("to", 2),
        ("tre", 3),
        ("fyra", 4),
        ("fire", 4),
        ("fem", 5),
        ("sex", 6),
        ("seks", 6),
        ("sju", 7),
        ("syv", 7),
        ("åtta", 8),
        ("otte", 8),
        ("nio", 9),
        ("ni", 9),
        ("tio", 10),
        ("ti", 10),
        ("elva", 11),
        ("elleve", 11),
        ("tolv", 12),
        ("femton", 15),
        ("femten", 15),
        ("tjugo", 20),
        ("tyve", 20),
        ("trettio", 30),
        ("tredive", 30),
    ];
    if let Ok(n) = word.parse::<i64>() {
        return (0..=999).contains(&n).then_some(n);
    }
    let table: &[(&str, i64)] = if scandinavian { &NORDIC } else { &EN };
    table.iter().find(|(w, _)| *w == word).map(|&(_, n)| n)
}

/// A unit of duration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unit {
    /// Minutes: an instant from now.
    Minute,
    /// Hours: an instant from now.
    Hour,
    /// Whole days.
    Day,
    /// Whole weeks (seven days).
    Week,
    /// Calendar months.
    Month,
    /// Calendar years.
    Year,
}

/// A unit word. `scandinavian` accepts Danish "time"/"timer" as hours (in English "time" is
/// not a unit).
pub(crate) fn unit(word: &str, scandinavian: bool) -> Option<Unit> {
    let u = match word {
        "minute" | "minutes" | "min" | "mins" | "minut" | "minuter" | "minutter" => Unit::Minute,
        "hour" | "hours" | "hr" | "hrs" | "timme" | "timmar" | "timma" | "timmes" => Unit::Hour,
        "time" | "timer" if scandinavian => Unit::Hour,
        "day" | "days" | "dag" | "dagar" | "dage" | "dygn" | "døgn" => Unit::Day,
        "week" | "weeks" | "vecka" | "veckor" | "uge" | "uger" => Unit::Week,
        "month" | "months" | "månad" | "månader" | "måned" | "måneder" => Unit::Month,
        "year" | "years" | "år" => Unit::Year,
        _ => return None,
    };
    Some(u)
}

/// A part-of-day word that narrows a day named just before it ("tomorrow night", "fredag
/// eftermiddag", "i går kväll"). Not a time on its own.
pub(crate) fn part_word(word: &str) -> Option<Part> {
    let p = match word {
        "morning" | "morgon" | "morgonen" | "förmiddag" | "förmiddagen" | "bitti" | "morgenen"
        | "formiddag" | "formiddagen" | "tidlig" => Part::Morning,
        "afternoon" | "eftermiddag" | "eftermiddagen" => Part::Afternoon,
        "evening" | "kväll" | "kvällen" | "aften" | "aftenen" => Part::Evening,
        "night" | "natt" | "natten" | "nat" => Part::Night,
        _ => return None,
    };
    Some(p)
}

/// Words that negate the time right after them ("not Tuesday", "inte på torsdag", "ikke kl.
/// 9"): the rejected value of a correction.
pub(crate) const NEGATIONS: &[&str] = &[
    "not", "never", "isn't", "wasn't", "inte", "icke", "ej", "aldrig", "ikke", "aldri",
];

/// Words that may stand between two parts of one time expression ("tomorrow at 7:30",
/// "Thursday the 12th", "kl. 16.30 på lørdag", "fredag i næste uge").
pub(crate) const CONNECTORS: &[&str] = &[
    ",", ".", "at", "on", "the", "in", "of", "kl", "klockan", "klokken", "i", "på", "den", "-",
    "–", "around", "about", "ca", "cirka", "omkring", "vid", "ved",
];

/// Words before a time that make it a deadline: from the message time up to the end of it.
pub(crate) const DEADLINES: &[&str] = &["by", "senast", "senest"];

/// Words before a time that make it open-ended or vague: no interval.
pub(crate) const OPEN_ENDED: &[&str] = &["since", "sedan", "siden", "every", "varje", "hver"];
