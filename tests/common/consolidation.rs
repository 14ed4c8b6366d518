//! The consolidation tests' calendar and conversation helpers (tests/consolidate.rs,
//! tests/consolidate_status.rs).

use chrono::{DateTime, Duration, FixedOffset, TimeZone};
use minne::Engine;
use minne::clock::{Clock, FixedClock};
use minne::consolidate::FactView;
use minne::import::{NewMessage, NewSession};
use minne::model::Role;

/// Day `d` of the test calendar: Monday 5 January 2026 09:00 at UTC+01:00, plus `d` days.
pub fn day(d: i64) -> DateTime<FixedOffset> {
    FixedOffset::east_opt(3600)
        .unwrap()
        .with_ymd_and_hms(2026, 1, 5, 9, 0, 0)
        .unwrap()
        + Duration::days(d)
}

/// Imports one session `key` of (role, day, text), ten seconds apart, and consolidates, with
/// the clock five minutes after its last message.
pub fn say(engine: &mut Engine, clock: &FixedClock, key: &str, turns: &[(Role, i64, &str)]) {
    let messages: Vec<NewMessage> = turns
        .iter()
        .enumerate()
        .map(|(i, (role, d, text))| NewMessage {
            external_id: Some(format!("{key}-m{i}")),
            role: *role,
            actor: role.as_str().to_string(),
            text: text.to_string(),
            sent_at: day(*d) + Duration::seconds(i as i64 * 10),
        })
        .collect();
    let last = messages.iter().map(|m| m.sent_at.to_utc()).max().unwrap();
    clock.set(clock.now().max(last) + Duration::minutes(5));
    engine
        .import_sessions(
            &[NewSession {
                key: key.to_string(),
                messages,
            }],
            "test",
            &mut |_| {},
        )
        .unwrap();
    engine.consolidate().unwrap();
}

/// The facts of `attribute`.
pub fn with(facts: &[FactView], attribute: &str) -> Vec<FactView> {
    facts
        .iter()
        .filter(|f| f.attribute == attribute)
        .cloned()
        .collect()
}
