//! Times given on the command line (`forget --from/--to`, `list --from/--to`).
//!
//! Three forms are taken, and one rule reads the two without an offset: they are wall-clock
//! times in the user's local time zone (the `TZ` variable, else the system's), as a user
//! reads the times on their own messages.
//! - `2026-03-02`: a whole day. As a start it is the first moment of that day; as an end
//!   (not included) it is the first moment of the next day, so `--from 2026-03-02 --to
//!   2026-03-02` is that whole day.
//! - `2026-03-02T09:00` (or with seconds, or a space for the `T`): that local wall-clock time.
//! - RFC 3339 with its offset, `2026-03-02T09:00:00+01:00` or `…Z`: exactly that instant.

use anyhow::bail;
use chrono::{DateTime, Local, NaiveDate, NaiveDateTime, TimeZone, Utc};

/// Which end of a range a time is: a plain date starts its day, or ends it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    /// The start, included: a date is the first moment of that day.
    Start,
    /// The end, not included: a date is the first moment of the next day.
    End,
}

/// The forms a time may take, for help texts and errors.
pub const FORMS: &str = "a date (2026-03-02), a local time (2026-03-02T09:00) \
                         or an RFC 3339 time with its offset (2026-03-02T09:00:00+01:00)";

/// Reads `s` as the `edge` of a range, in the local time zone (see the module doc).
/// Errors: none of the forms, naming them; a local time the clocks skip over (a daylight
/// saving change), asking for an offset.
pub fn parse_time(s: &str, edge: Edge) -> anyhow::Result<DateTime<Utc>> {
    parse_time_in(s, edge, &Local)
}

/// [`parse_time`] in the time zone `tz`, so tests need not depend on the machine's zone.
pub fn parse_time_in<Tz: TimeZone>(s: &str, edge: Edge, tz: &Tz) -> anyhow::Result<DateTime<Utc>> {
    let t = s.trim();
    if let Ok(exact) = DateTime::parse_from_rfc3339(t) {
        return Ok(exact.to_utc());
    }
    // `%.f` also matches no fraction at all, so whole seconds need no form of their own.
    let local_forms = [
        "%Y-%m-%dT%H:%M:%S%.f",
        "%Y-%m-%dT%H:%M",
        "%Y-%m-%d %H:%M:%S%.f",
        "%Y-%m-%d %H:%M",
    ];
    if let Some(naive) = local_forms
        .iter()
        .find_map(|f| NaiveDateTime::parse_from_str(t, f).ok())
    {
        return local(s, naive, tz);
    }
    if let Ok(day) = NaiveDate::parse_from_str(t, "%Y-%m-%d") {
        let day = match edge {
            Edge::Start => Some(day),
            Edge::End => day.succ_opt(),
        };
        if let Some(midnight) = day.and_then(|d| d.and_hms_opt(0, 0, 0)) {
            return local(s, midnight, tz);
        }
    }
    if t.contains('T') || t.contains(' ') {
        // Most likely an offset written in a way RFC 3339 does not take (`+0100`, `+01`).
        bail!("`{s}` is not a time Minne reads: give {FORMS}; an offset is written +01:00 or Z");
    }
    bail!("`{s}` is not a time Minne reads: give {FORMS}")
}

/// A wall-clock time in `tz`. When the clocks go back and the time happens twice, the first
/// is taken (for a day's edge that is when the day begins).
fn local<Tz: TimeZone>(s: &str, naive: NaiveDateTime, tz: &Tz) -> anyhow::Result<DateTime<Utc>> {
    match tz.from_local_datetime(&naive).earliest() {
        Some(t) => Ok(t.to_utc()),
        None => bail!(
            "`{s}` does not exist in the local time zone (the clocks skip it when they go \
             forward): give it with its offset, like {}+01:00",
            naive.format("%Y-%m-%dT%H:%M:%S")
        ),
    }
}

/// `t` as the user reads it on a terminal: the local wall-clock time to the minute
/// (`2026-03-02 09:00`), in the zone [`parse_time`] reads `--from`/`--to` in, so a time `list`
/// shows can be typed back as it stands. A tester read UTC times, unlabelled, as local ones.
pub fn shown(t: DateTime<Utc>) -> String {
    shown_in(t, &Local)
}

/// [`shown`] in the time zone `tz`.
pub fn shown_in<Tz: TimeZone>(t: DateTime<Utc>, tz: &Tz) -> String
where
    Tz::Offset: std::fmt::Display,
{
    t.with_timezone(tz).format("%Y-%m-%d %H:%M").to_string()
}

/// The end of a `--from` range without `--to` (`list`, `forget`; not included): the last
/// millisecond of year 9999 UTC, after every storable message (imports refuse later dates),
/// messages dated in the future included. Stored times are RFC 3339 with four-digit years and
/// milliseconds, so they compare with it as text.
pub fn open_end() -> chrono::DateTime<chrono::Utc> {
    use chrono::TimeZone;
    chrono::Utc
        .with_ymd_and_hms(9999, 12, 31, 23, 59, 59)
        .single()
        .map_or(chrono::DateTime::<chrono::Utc>::MAX_UTC, |t| {
            t + chrono::Duration::milliseconds(999)
        })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use chrono::FixedOffset;

    fn utc(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().to_utc()
    }

    #[test]
    fn times_are_shown_in_the_zone_they_are_read_in() {
        // 08:00 UTC is 09:00 in UTC+01:00 and 03:00 in UTC-05:00 (by hand); the shown time,
        // typed back as `--from`, is the same instant.
        let cet = FixedOffset::east_opt(3600).unwrap();
        let est = FixedOffset::west_opt(5 * 3600).unwrap();
        let t = utc("2026-03-02T08:00:00Z");
        assert_eq!(shown_in(t, &cet), "2026-03-02 09:00");
        assert_eq!(shown_in(t, &est), "2026-03-02 03:00");
        assert_eq!(
            shown_in(utc("2026-03-01T23:30:00Z"), &cet),
            "2026-03-02 00:30"
        );
        assert_eq!(
            parse_time_in(&shown_in(t, &cet), Edge::Start, &cet).unwrap(),
            t
        );
    }

    #[test]
    fn dates_and_local_times_are_read_in_the_local_zone() {
        // Stockholm in March is UTC+01:00, so its local midnight is 23:00 UTC the day before,
        // and 09:00 there is 08:00 UTC (worked out by hand, not by the parser).
        let cet = FixedOffset::east_opt(3600).unwrap();
        let cases = [
            ("2026-03-02", Edge::Start, "2026-03-01T23:00:00Z"),
            // An end date is not included: it ends where the next day begins.
            ("2026-03-02", Edge::End, "2026-03-02T23:00:00Z"),
            // The last day of a month (and a leap year's February) ends on the 1st.
            ("2028-02-29", Edge::End, "2028-02-29T23:00:00Z"),
            ("2026-03-02T09:00", Edge::Start, "2026-03-02T08:00:00Z"),
            ("2026-03-02T09:00", Edge::End, "2026-03-02T08:00:00Z"),
            ("2026-03-02 09:00:30", Edge::Start, "2026-03-02T08:00:30Z"),
            (
                " 2026-03-02T09:00:30.5 ",
                Edge::Start,
                "2026-03-02T08:00:30.5Z",
            ),
            // With an offset the zone plays no part: it is that instant.
            (
                "2026-03-02T09:00:00-05:00",
                Edge::Start,
                "2026-03-02T14:00:00Z",
            ),
            ("2026-03-02T09:00:00Z", Edge::End, "2026-03-02T09:00:00Z"),
        ];
        for (given, edge, want) in cases {
            assert_eq!(
                parse_time_in(given, edge, &cet).unwrap(),
                utc(want),
                "{given} as {edge:?} in UTC+01:00"
            );
        }
    }

    #[test]
    fn anything_else_names_the_forms_taken() {
        let cet = FixedOffset::east_opt(3600).unwrap();
        for bad in [
            "",
            "yesterday",
            "2026-3-2x",
            "2026-02-30",
            "02/03/2026",
            "2026-03-02T25:00",
            "2026-03-02T09:00+0100",
        ] {
            let e = parse_time_in(bad, Edge::Start, &cet)
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("(2026-03-02T09:00:00+01:00)") && e.contains("(2026-03-02)"),
                "{bad:?} must be refused with the forms that are taken: {e}"
            );
        }
    }
}
