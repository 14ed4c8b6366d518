//! The consolidation tests' store, calendar and conversation helpers (tests/consolidate.rs,
//! tests/consolidate_status.rs, tests/open_items_done.rs).

use std::path::Path;
use std::sync::{Arc, OnceLock};

use chrono::{DateTime, Duration, FixedOffset, TimeZone, Utc};
use minne::clock::{Clock, FixedClock};
use minne::consolidate::FactView;
use minne::embed::Embedder;
use minne::import::{ImportReport, NewMessage, NewSession};
use minne::model::Role;
use minne::{ContextName, Engine};

/// One real model for every test of a file (loading it per test would only cost time).
pub fn embedder() -> Arc<dyn Embedder> {
    static E: OnceLock<Arc<dyn Embedder>> = OnceLock::new();
    E.get_or_init(super::real_embedder).clone()
}

/// The context `personal` in `data`, with a clock at 2026-01-05 08:00 UTC (an hour before
/// [`day`] 0).
pub fn open(data: &Path) -> (Engine, Arc<FixedClock>) {
    let clock = Arc::new(FixedClock::new(
        Utc.with_ymd_and_hms(2026, 1, 5, 8, 0, 0).unwrap(),
    ));
    let engine = Engine::open(
        data,
        &ContextName::new("personal").unwrap(),
        embedder(),
        clock.clone(),
    )
    .unwrap();
    (engine, clock)
}

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
    import_turns(engine, clock, key, turns);
    engine.consolidate().unwrap();
}

/// Imports one session as [`say`] does, without consolidating again, and returns what the
/// import reported.
pub fn import_turns(
    engine: &mut Engine,
    clock: &FixedClock,
    key: &str,
    turns: &[(Role, i64, &str)],
) -> ImportReport {
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
        .unwrap()
}

/// The facts of `attribute`.
pub fn with(facts: &[FactView], attribute: &str) -> Vec<FactView> {
    facts
        .iter()
        .filter(|f| f.attribute == attribute)
        .cloned()
        .collect()
}
