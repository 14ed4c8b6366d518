//! Checked durations for the command line and the MCP tools: a window such as `30m` or `2d`
//! (`forget --last`, MCP `forget {"last": …}`) and a number of seconds (`capture --if-quiet`).
//!
//! chrono's `Duration::days(n)` and friends panic when `n` is out of range, and a valid but
//! huge duration still panics when subtracted from now; so every window is built with checked
//! arithmetic and capped at [`MAX_DAYS`], and a longer one is a clear error.

use anyhow::bail;
use chrono::TimeDelta;

/// The longest window Minne takes: 36,525 days (100 Julian years). Longer than any memory it
/// can hold, and far inside what a UTC time minus the window can represent.
pub const MAX_DAYS: i64 = 36_525;

/// The longest window in seconds (`MAX_DAYS` × 86,400).
pub const MAX_SECONDS: i64 = MAX_DAYS * 86_400;

/// `30m`, `1h`, `2d`, `90s`, `1w`: a positive whole number and a unit (`s`, `m` or `min`,
/// `h`, `d`, `w`), at most [`MAX_DAYS`] days. Errors: anything else; zero (a window that
/// holds nothing); a window longer than the most, which says what the most is.
pub fn parse_window(s: &str) -> anyhow::Result<TimeDelta> {
    let s = s.trim();
    let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (digits, unit) = s.split_at(split);
    let unit_seconds: i64 = match unit {
        "s" => 1,
        "m" | "min" => 60,
        "h" => 3_600,
        "d" => 86_400,
        "w" => 7 * 86_400,
        _ => bail!("`{s}` is not a duration: use a number and s, m, h, d or w (like 1h)"),
    };
    if digits.is_empty() {
        bail!("`{s}` is not a duration: use a number and s, m, h, d or w (like 1h)");
    }
    // All digits: parsing fails only by overflow, which is too long as well.
    let seconds = digits
        .parse::<i64>()
        .ok()
        .and_then(|n| n.checked_mul(unit_seconds));
    match seconds {
        Some(0) => bail!(
            "`{s}` is no time at all, so it would forget nothing: give a positive duration like 30m or 1h"
        ),
        Some(n) if n <= MAX_SECONDS => seconds_window(n),
        _ => bail!("`{s}` is too long; the most is {MAX_DAYS}d (100 years)"),
    }
}

/// `seconds` as a duration, for a count given in seconds (`capture --if-quiet`): 0 to
/// [`MAX_SECONDS`]. Errors: a negative count, or more than the most (which it names).
pub fn seconds_window(seconds: i64) -> anyhow::Result<TimeDelta> {
    if seconds < 0 {
        bail!("{seconds} seconds is negative: give 0 or more");
    }
    if seconds > MAX_SECONDS {
        bail!(
            "{seconds} seconds is too long; the most is {MAX_SECONDS} seconds ({MAX_DAYS} days, 100 years)"
        );
    }
    match TimeDelta::try_seconds(seconds) {
        Some(d) => Ok(d),
        None => bail!("{seconds} seconds is too long; the most is {MAX_SECONDS} seconds"),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn windows_parse_and_huge_ones_are_errors_not_panics() {
        // 2d is 2 × 86,400 s; 90s is 90 s; 1w is 7 days.
        assert_eq!(parse_window("2d").unwrap(), TimeDelta::seconds(172_800));
        assert_eq!(parse_window(" 90s ").unwrap(), TimeDelta::seconds(90));
        assert_eq!(parse_window("1w").unwrap(), TimeDelta::days(7));
        assert_eq!(parse_window("36525d").unwrap(), TimeDelta::days(MAX_DAYS));
        // chrono's Duration::days panics past i64::MAX ms (about 1.07e14 days), and
        // `now - 99999999d` panics too: both must be clear errors, naming the most.
        for huge in [
            "99999999999999d",
            "36526d",
            "99999999999999999999999w",
            "5300w",
        ] {
            let e = parse_window(huge).unwrap_err().to_string();
            assert!(
                e.contains("too long") && e.contains("36525d"),
                "{huge}: {e}"
            );
        }
        for bad in ["", "h", "1y", "-1h", "0m"] {
            assert!(parse_window(bad).is_err(), "{bad}");
        }
        assert!(
            seconds_window(999_999_999_999_999_999)
                .unwrap_err()
                .to_string()
                .contains("too long")
        );
        assert_eq!(seconds_window(120).unwrap(), TimeDelta::seconds(120));
    }
}
