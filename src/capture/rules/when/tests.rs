//! Time resolution, expression by expression, in the three languages. Dates are chosen around
//! weekends, month ends and the 2026 daylight-saving changes (29 March and 25 October in
//! Stockholm and Copenhagen), where an off-by-one shows.

use chrono::DateTime;
use rstest::rstest;

use super::*;
use crate::capture::rules::{lang, segment, token::tokenize};

/// The resolved `(start, end)` of the first usable time in `text` sent at `ts`, RFC 3339.
fn resolve_text(text: &str, ts: &str) -> Option<(String, String)> {
    let ts = DateTime::parse_from_rfc3339(ts).ok()?;
    let t = tokenize(text);
    let sentences = segment::sentences(&t);
    let all = find(&t, &sentences, lang::guess(&t));
    let when = pick(
        &t,
        text,
        &all,
        &(0..t.len()),
        false,
        &Reference::new(ts, None),
    )?;
    Some((when.start.to_rfc3339(), when.end.to_rfc3339()))
}

fn check(text: &str, ts: &str, start: &str, end: &str, why: &str) {
    assert_eq!(
        resolve_text(text, ts),
        Some((start.to_string(), end.to_string())),
        "{why}: `{text}` sent {ts}"
    );
}

#[rstest]
#[case::en_date_next_year(
    "The wedding is on June 12 next year.",
    "2026-11-20T10:00:00+01:00",
    "2027-06-12T00:00:00+01:00",
    "2027-06-13T00:00:00+01:00",
    "`next year` gives the date its year: June 12 of 2027, not the past June of 2026"
)]
#[case::sv_next_year_before_the_date(
    "Bröllopet är nästa år den 12 juni.",
    "2026-11-20T10:00:00+01:00",
    "2027-06-12T00:00:00+01:00",
    "2027-06-13T00:00:00+01:00",
    "the year word first, then the date: one expression"
)]
#[case::da_date_next_year_that_comes_this_year_too(
    "Vi flytter den 3. december næste år.",
    "2026-11-20T10:00:00+01:00",
    "2027-12-03T00:00:00+01:00",
    "2027-12-04T00:00:00+01:00",
    "December 3 is still ahead in 2026, but `næste år` says 2027"
)]
#[case::en_date_last_year(
    "We met on March 3 last year.",
    "2026-11-20T10:00:00+01:00",
    "2025-03-03T00:00:00+01:00",
    "2025-03-04T00:00:00+01:00",
    "`last year` takes the date back a year"
)]
#[case::sv_tomorrow_over_dst(
    "Vi ses i morgon.",
    "2026-03-28T10:00:00+01:00",
    "2026-03-29T00:00:00+01:00",
    "2026-03-30T00:00:00+01:00",
    "bounds stay in the message's own offset (+01:00) although Stockholm moves to +02:00 that night"
)]
#[case::da_dotted_day_before_a_shouted_month(
    "Brylluppet er den 4. JULI, ikke den 11.!!!",
    "2026-05-13T10:00:00+02:00",
    "2026-07-04T00:00:00+02:00",
    "2026-07-05T00:00:00+02:00",
    "`4.` before a month in capitals is an ordinal, so the month is part of the date"
)]
#[case::da_tomorrow_over_dst(
    "Vi ses i morgen.",
    "2026-03-28T10:00:00+01:00",
    "2026-03-29T00:00:00+01:00",
    "2026-03-30T00:00:00+01:00",
    "Danish `i morgen` is tomorrow, with the same fixed-offset rule"
)]
#[case::da_day_after_tomorrow_over_dst(
    "Jeg ringer i overmorgen.",
    "2026-03-28T10:00:00+01:00",
    "2026-03-30T00:00:00+01:00",
    "2026-03-31T00:00:00+01:00",
    "date + 2, still written at +01:00 after the change"
)]
#[case::sv_weekend_ahead_on_friday(
    "Vi åker bort i helgen.",
    "2026-06-12T17:00:00+02:00",
    "2026-06-13T00:00:00+02:00",
    "2026-06-15T00:00:00+02:00",
    "future `i helgen` is this week's Saturday to Monday"
)]
#[case::sv_weekend_past_on_sunday(
    "Vi var på landet i helgen.",
    "2026-08-30T20:00:00+02:00",
    "2026-08-29T00:00:00+02:00",
    "2026-08-31T00:00:00+02:00",
    "past `i helgen` said on Sunday is the weekend that is just ending"
)]
#[case::da_weekend_past_midweek(
    "I weekenden var vi i sommerhuset.",
    "2026-03-11T09:00:00+01:00",
    "2026-03-07T00:00:00+01:00",
    "2026-03-09T00:00:00+01:00",
    "past `i weekenden` on a Wednesday is the weekend just gone"
)]
#[case::da_in_two_days_over_month_end(
    "Jeg kommer om to dage.",
    "2026-01-30T12:00:00+01:00",
    "2026-02-01T00:00:00+01:00",
    "2026-02-02T00:00:00+01:00",
    "`om to dage` is the whole day date + 2, across the month end"
)]
#[case::sv_deadline_over_month_end(
    "Fakturan ska betalas senast på måndag.",
    "2026-01-30T12:00:00+01:00",
    "2026-01-30T12:00:00+01:00",
    "2026-02-03T00:00:00+01:00",
    "a deadline runs from the message time to the end of the named day"
)]
#[case::sv_day_after_tomorrow_into_may(
    "Vi flyttar i övermorgon.",
    "2026-04-30T09:00:00+02:00",
    "2026-05-02T00:00:00+02:00",
    "2026-05-03T00:00:00+02:00",
    "`i övermorgon` is date + 2"
)]
#[case::sv_next_week_into_may(
    "Vi ses nästa vecka.",
    "2026-04-30T09:00:00+02:00",
    "2026-05-04T00:00:00+02:00",
    "2026-05-11T00:00:00+02:00",
    "weeks start on Monday (ISO 8601)"
)]
#[case::sv_day_before_yesterday_over_month_start(
    "Det var i förrgår.",
    "2026-03-01T10:00:00+01:00",
    "2026-02-27T00:00:00+01:00",
    "2026-02-28T00:00:00+01:00",
    "`i förrgår` is date − 2, back into February"
)]
#[case::da_deadline_next_weeks_thursday(
    "Mødet er senest på torsdag i næste uge.",
    "2026-03-11T09:00:00+01:00",
    "2026-03-11T09:00:00+01:00",
    "2026-03-20T00:00:00+01:00",
    "the README's own example: ends at the end of next week's Thursday"
)]
#[case::sv_pa_fredag_on_thursday(
    "Vi ses på fredag.",
    "2026-02-26T12:00:00+01:00",
    "2026-02-27T00:00:00+01:00",
    "2026-02-28T00:00:00+01:00",
    "`på fredag` said on a Thursday is tomorrow"
)]
#[case::sv_i_fredags_on_friday(
    "Jag var där i fredags.",
    "2026-06-12T12:00:00+02:00",
    "2026-06-05T00:00:00+02:00",
    "2026-06-06T00:00:00+02:00",
    "`i fredags` is the last Friday strictly before the message day"
)]
#[case::da_week_number(
    "Montering i uge 12.",
    "2026-02-24T19:40:00+01:00",
    "2026-03-16T00:00:00+01:00",
    "2026-03-23T00:00:00+01:00",
    "week numbers are ISO weeks of the message year"
)]
#[case::sv_weekday_of_next_week(
    "Vi ses fredag nästa vecka.",
    "2026-03-11T09:00:00+01:00",
    "2026-03-20T00:00:00+01:00",
    "2026-03-21T00:00:00+01:00",
    "a weekday with a week is that day of that week"
)]
#[case::sv_in_minutes(
    "Om 20 minuter ringer jag.",
    "2026-03-11T09:50:00+01:00",
    "2026-03-11T10:10:00+01:00",
    "2026-03-11T10:10:00+01:00",
    "`om 20 minuter` is the message time plus 20 minutes, an instant"
)]
#[case::da_half_hour(
    "Om en halv time er jeg der.",
    "2026-03-11T23:45:00+01:00",
    "2026-03-12T00:15:00+01:00",
    "2026-03-12T00:15:00+01:00",
    "`om en halv time` crosses midnight as an instant"
)]
#[case::sv_relative_to_appointment(
    "Tandläkaren är kl. 14.15 i morgon, jag påminner dig en timme innan.",
    "2026-03-11T09:00:00+01:00",
    "2026-03-12T13:15:00+01:00",
    "2026-03-12T13:15:00+01:00",
    "`en timme innan` is resolved against the appointment it refers to"
)]
#[case::sv_i_morse(
    "I morse sprang jag fem kilometer.",
    "2026-03-11T15:00:00+01:00",
    "2026-03-11T06:00:00+01:00",
    "2026-03-11T12:00:00+01:00",
    "`i morse` is this morning (not `i morgon`, tomorrow)"
)]
#[case::da_last_night(
    "Jeg sov dårligt i nat.",
    "2026-03-11T08:00:00+01:00",
    "2026-03-10T18:00:00+01:00",
    "2026-03-11T06:00:00+01:00",
    "past-tense `i nat` is the night just gone"
)]
#[case::da_tonight(
    "Jeg tager nattoget i nat.",
    "2026-03-11T08:00:00+01:00",
    "2026-03-11T18:00:00+01:00",
    "2026-03-12T06:00:00+01:00",
    "present-tense `i nat` is the coming night"
)]
#[case::en_next_friday_on_wednesday(
    "See you next Friday.",
    "2026-03-11T09:00:00-04:00",
    "2026-03-20T00:00:00-04:00",
    "2026-03-21T00:00:00-04:00",
    "`next Friday` on a Wednesday is the Friday of the following week"
)]
#[case::en_end_of_month(
    "The report is due by the end of the month.",
    "2026-03-11T09:00:00-04:00",
    "2026-03-11T09:00:00-04:00",
    "2026-04-01T00:00:00-04:00",
    "`by the end of the month` ends on the 1st of next month at 00:00"
)]
#[case::en_clock_already_past(
    "Lunch is at 12:30.",
    "2026-03-11T13:00:00+00:00",
    "2026-03-12T12:30:00+00:00",
    "2026-03-12T12:30:00+00:00",
    "a clock time with no day is the next such time"
)]
#[case::en_in_two_weeks(
    "Call me in two weeks.",
    "2026-03-11T09:00:00+00:00",
    "2026-03-25T00:00:00+00:00",
    "2026-03-26T00:00:00+00:00",
    "`in N weeks` is the whole day date + 7N"
)]
#[case::en_day_of_month_past(
    "The party was on the 2nd.",
    "2026-03-11T09:00:00+00:00",
    "2026-03-02T00:00:00+00:00",
    "2026-03-03T00:00:00+00:00",
    "a bare day of month in past tense is the most recent one"
)]
#[case::en_day_of_month_rolls_over(
    "The rent is due on the 1st.",
    "2026-03-11T09:00:00+00:00",
    "2026-04-01T00:00:00+00:00",
    "2026-04-02T00:00:00+00:00",
    "a day of month already gone this month is next month's"
)]
#[case::en_am_clock_on_weekday(
    "We fly out at 6:45am on Saturday.",
    "2026-03-11T09:00:00+00:00",
    "2026-03-14T06:45:00+00:00",
    "2026-03-14T06:45:00+00:00",
    "a day and a clock make an instant on that day"
)]
#[case::en_evening_hour(
    "Dinner is at 8 tonight.",
    "2026-03-11T09:00:00+00:00",
    "2026-03-11T20:00:00+00:00",
    "2026-03-11T20:00:00+00:00",
    "`tonight` puts a bare `8` in the evening"
)]
#[case::en_negated_value_skipped(
    "It's on Wednesday, not Thursday.",
    "2026-03-16T12:10:00+00:00",
    "2026-03-18T00:00:00+00:00",
    "2026-03-19T00:00:00+00:00",
    "the negated value is the rejected one"
)]
#[case::en_month_future(
    "I'll be in Rome in May.",
    "2026-02-12T19:05:00+08:00",
    "2026-05-01T00:00:00+08:00",
    "2026-06-01T00:00:00+08:00",
    "a month in future sense is the next one, in the message's +08:00"
)]
#[case::en_month_past(
    "We were in Rome in May.",
    "2026-02-12T19:05:00+08:00",
    "2025-05-01T00:00:00+08:00",
    "2025-06-01T00:00:00+08:00",
    "a month in past sense is the most recent one"
)]
#[case::en_later_today(
    "I'll sort it later today.",
    "2026-03-02T18:00:00+00:00",
    "2026-03-02T18:00:00+00:00",
    "2026-03-03T00:00:00+00:00",
    "`later today` runs from the message time to midnight"
)]
#[case::en_weekday_and_ordinal(
    "It moved to Thursday the 2nd.",
    "2026-03-30T09:00:00+02:00",
    "2026-04-02T00:00:00+02:00",
    "2026-04-03T00:00:00+02:00",
    "a weekday named with a day of month picks the month where they agree"
)]
fn resolves(
    #[case] text: &str,
    #[case] ts: &str,
    #[case] start: &str,
    #[case] end: &str,
    #[case] why: &str,
) {
    check(text, ts, start, end, why);
}

#[rstest]
#[case("I might take up the cello some day.")]
#[case("Vi hörs snart.")]
#[case("Det gør vi en dag.")]
#[case("We've been friends since May.")]
#[case("I go swimming every Friday.")]
#[case("Good morning!")]
#[case("18% of 240 is 43.2.")]
fn vague_or_no_time_resolves_to_nothing(#[case] text: &str) {
    assert_eq!(
        resolve_text(text, "2026-03-11T09:00:00+00:00"),
        None,
        "vague, open-ended or absent times get no interval, never a guessed date: {text}"
    );
}

/// [`resolve_text`] with the user's zone.
fn resolve_in(text: &str, ts: &str, zone: chrono_tz::Tz) -> Option<(String, String)> {
    let ts = DateTime::parse_from_rfc3339(ts).ok()?;
    let t = tokenize(text);
    let sentences = segment::sentences(&t);
    let all = find(&t, &sentences, lang::guess(&t));
    let r = Reference::new(ts, Some(zone));
    let when = pick(&t, text, &all, &(0..t.len()), false, &r)?;
    Some((when.start.to_rfc3339(), when.end.to_rfc3339()))
}

#[rstest]
#[case::sv_tomorrow_over_the_spring_change(
    "Vi ses i morgon.",
    "2026-03-28T12:00:00+01:00",
    chrono_tz::Tz::Europe__Stockholm,
    // Sunday 29 March begins at +01:00; the clocks go forward at 02:00 that night, so Monday
    // begins at 00:00+02:00 (22:00 UTC Sunday), not 00:00+01:00.
    ("2026-03-29T00:00:00+01:00", "2026-03-30T00:00:00+02:00")
)]
#[case::da_a_summer_day_named_in_winter(
    "Vi flytter den 5. juni 2027.",
    "2026-12-03T20:00:00+01:00",
    chrono_tz::Tz::Europe__Copenhagen,
    // 5 June 2027 is summer time in Copenhagen: +02:00 both ends.
    ("2027-06-05T00:00:00+02:00", "2027-06-06T00:00:00+02:00")
)]
#[case::en_a_utc_stored_import_reads_as_local(
    "We land on Friday.",
    // An import stored 23:30 UTC on Wednesday 14 January: 00:30 Thursday 15 in Stockholm, so
    // "Friday" is the 16th there, midnight to midnight at +01:00.
    "2026-01-14T23:30:00+00:00",
    chrono_tz::Tz::Europe__Stockholm,
    ("2026-01-16T00:00:00+01:00", "2026-01-17T00:00:00+01:00")
)]
#[case::en_a_message_from_elsewhere_keeps_its_own_offset(
    "We land on Friday.",
    // Written at +09:00 (a trip to Tokyo), which is not Stockholm's offset: its own stands.
    "2026-01-14T10:00:00+09:00",
    chrono_tz::Tz::Europe__Stockholm,
    ("2026-01-16T00:00:00+09:00", "2026-01-17T00:00:00+09:00")
)]
fn a_day_takes_its_own_offset_in_the_users_zone(
    #[case] text: &str,
    #[case] ts: &str,
    #[case] zone: chrono_tz::Tz,
    #[case] want: (&str, &str),
) {
    assert_eq!(
        resolve_in(text, ts, zone),
        Some((want.0.to_string(), want.1.to_string())),
        "`{text}` sent {ts} in {zone}"
    );
}

#[test]
fn a_time_the_clocks_skip_takes_the_offset_before_the_change() {
    // 02:30 on 29 March 2026 does not exist in Stockholm: read at +01:00 it is 01:30 UTC,
    // which the clocks show as 03:30+02:00.
    let naive = chrono::NaiveDate::from_ymd_opt(2026, 3, 29)
        .unwrap()
        .and_hms_opt(2, 30, 0)
        .unwrap();
    let t = resolve::local_in(chrono_tz::Tz::Europe__Stockholm, naive).unwrap();
    assert_eq!(t.to_utc().to_rfc3339(), "2026-03-29T01:30:00+00:00");
}

#[rstest]
#[case::en_past_midnight_is_the_one_just_passed(
    "It's past midnight and I've just packed my bag.",
    "2026-01-16T00:25:00+01:00",
    "2026-01-16T00:00:00+01:00",
    "said 25 minutes after midnight, `past midnight` is that midnight, not the next one"
)]
#[case::no_over_midnatt(
    "Det er over midnatt, og jeg har akkurat sendt søknaden.",
    "2026-05-17T00:30:00+02:00",
    "2026-05-17T00:00:00+02:00",
    "Norwegian `over midnatt` at 00:30: the midnight that began the 17th"
)]
#[case::en_a_past_tense_clock_time_is_earlier_today(
    "I finished the report at 23:10.",
    "2026-01-16T23:40:00+01:00",
    "2026-01-16T23:10:00+01:00",
    "a past tense said at 23:40 tells of 23:10 half an hour ago, not of tomorrow's"
)]
#[case::en_after_in_a_plan_stays_ahead(
    "I'll call you after 18:00.",
    "2026-01-16T12:00:00+01:00",
    "2026-01-16T18:00:00+01:00",
    "a future clause keeps the next 18:00, `after` or not"
)]
#[case::en_after_long_ago_is_not_just_passed(
    "Come over after 18:00.",
    "2026-01-16T12:00:00+01:00",
    "2026-01-16T18:00:00+01:00",
    "18 hours after the last 18:00 is no `just passed`: the next one"
)]
fn a_clock_time_behind_the_message_is_the_last_one(
    #[case] text: &str,
    #[case] ts: &str,
    #[case] at: &str,
    #[case] why: &str,
) {
    check(text, ts, at, at, why);
}
