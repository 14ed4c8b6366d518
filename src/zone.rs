//! The user's time zone (issue 31, kind 3: "a local day is local in every season").
//!
//! A message carries a fixed UTC offset, not a zone: "15 January" read from a message sent in
//! July at +02:00 would otherwise get July's offset, though Stockholm's 15 January runs from
//! 00:00+01:00 to 24:00+01:00. So each context stores the IANA zone its user lives in
//! (`context_settings.time_zone`, set by the front ends from the machine's zone, and by the
//! scenario runner from a case's `setup.timezone`), and every local day Minne computes (a
//! "tomorrow" in a message, "what did I do on 15 January?" in a question) takes that day's
//! own offset from it, daylight saving included. A store without one reads days in UTC.

use chrono_tz::Tz;
use rusqlite::{Connection, OptionalExtension};

use crate::engine::Engine;
use crate::error::{Error, Result};

/// The `context_settings` key of the zone's IANA name.
const SETTING: &str = "time_zone";

/// Reads an IANA time-zone name (`Europe/Stockholm`, `America/New_York`, `UTC`), as in the
/// tz database. A leading `:` (as `TZ` may have) and a path into a `zoneinfo` directory
/// (`/usr/share/zoneinfo/Europe/Oslo`) are taken too. Errors: [`Error::InvalidInput`] naming
/// the form, for anything else (a POSIX rule such as `CET-1CEST` included).
pub fn parse(name: &str) -> Result<Tz> {
    let t = name.trim().trim_start_matches(':');
    let t = t.rsplit_once("zoneinfo/").map_or(t, |(_, rest)| rest);
    t.parse::<Tz>().map_err(|_| {
        Error::InvalidInput(format!(
            "`{name}` is not a time zone Minne knows: give an IANA name such as \
             Europe/Stockholm, Europe/Copenhagen or UTC"
        ))
    })
}

/// This machine's zone: the `TZ` variable when it names one ([`parse`]), else the system's
/// (`/etc/localtime` and its kin, through `iana-time-zone`), else UTC.
pub fn from_env() -> Tz {
    std::env::var("TZ")
        .ok()
        .filter(|v| !v.trim().is_empty())
        .and_then(|v| parse(&v).ok())
        .or_else(|| {
            iana_time_zone::get_timezone()
                .ok()
                .and_then(|n| parse(&n).ok())
        })
        .unwrap_or(Tz::UTC)
}

/// The zone stored for the context behind `conn`; UTC when none is stored (or a stored name
/// is no longer known). Errors: database errors.
pub(crate) fn stored(conn: &Connection) -> Result<Tz> {
    Ok(stored_name(conn)?
        .and_then(|n| parse(&n).ok())
        .unwrap_or(Tz::UTC))
}

fn stored_name(conn: &Connection) -> Result<Option<String>> {
    Ok(conn
        .query_row(
            "SELECT value FROM context_settings WHERE key = ?1",
            [SETTING],
            |r| r.get(0),
        )
        .optional()?)
}

impl Engine {
    /// The context's time zone: the one last set, UTC when none was. Errors: database errors.
    pub fn time_zone(&self) -> Result<Tz> {
        stored(self.store.conn())
    }

    /// Sets the context's time zone; it persists, and every later capture, recall and
    /// listing reads local days in it. Writes only when it changes, so a front end may call
    /// it on every start. Errors: database errors (a full disk among them; nothing else
    /// changes).
    pub fn set_time_zone(&self, zone: Tz) -> Result<()> {
        let conn = self.store.conn();
        if stored_name(conn)?.as_deref() == Some(zone.name()) {
            return Ok(());
        }
        conn.execute(
            "INSERT INTO context_settings (key, value) VALUES (?1, ?2)
             ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [SETTING, zone.name()],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn names_as_tz_and_zoneinfo_write_them_are_read_and_others_named_in_the_error() {
        for (given, want) in [
            ("Europe/Stockholm", Tz::Europe__Stockholm),
            (":Europe/Copenhagen", Tz::Europe__Copenhagen),
            ("/usr/share/zoneinfo/Europe/Oslo", Tz::Europe__Oslo),
            (" UTC ", Tz::UTC),
        ] {
            assert_eq!(parse(given).unwrap(), want, "{given:?}");
        }
        for bad in ["", "CET-1CEST", "Europe/Stockholmm", "+01:00"] {
            let e = parse(bad).unwrap_err().to_string();
            assert!(
                e.contains("IANA name") && e.contains(&format!("`{bad}`")),
                "{bad:?}: {e}"
            );
        }
    }
}
