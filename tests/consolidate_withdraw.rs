//! Issue 5: junk open items stored by older builds. On `consolidate`, an open item the rules
//! derived, that the user never touched and that the current rules no longer derive from its
//! source episode, is withdrawn: gone from `open_items`, the profile and the session-start
//! context, once (a second run withdraws nothing). Items the user marked done, reopened or
//! whose words the user edited stay; facts are never touched. Real store, real model.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test panics on failure by design

mod common;

use std::path::Path;
use std::sync::Arc;

use chrono::{TimeZone, Utc};
use minne::clock::FixedClock;
use minne::keys::KeyConfig;
use minne::model::{EpisodeId, Role};
use minne::session_start::PartKind;
use minne::{ContextName, Engine};

/// An unencrypted store, so the test can write rows as an older build did.
fn open(data: &Path, clock: Arc<FixedClock>) -> Engine {
    Engine::open_with(
        data,
        &ContextName::new("personal").unwrap(),
        &KeyConfig::unencrypted(),
        common::real_embedder(),
        clock,
    )
    .unwrap()
}

/// The episode whose words contain `needle`.
fn episode(engine: &Engine, needle: &str) -> EpisodeId {
    engine
        .list_episodes(100, 0)
        .unwrap()
        .into_iter()
        .find(|e| e.text.contains(needle))
        .unwrap_or_else(|| panic!("no episode with `{needle}`"))
        .id
}

/// What an older build stored: an open item on episode `id`, open, untouched.
fn store_as_old_build(data: &Path, id: EpisodeId) -> i64 {
    let conn = rusqlite::Connection::open(data.join("personal.sqlite")).unwrap();
    conn.execute(
        "INSERT INTO open_items (episode_id, actor, status, created_at)
         VALUES (?1, 'user', 'open', '2026-01-05T08:00:00.000Z')",
        [id.0],
    )
    .unwrap();
    conn.last_insert_rowid()
}

#[test]
fn junk_open_items_of_older_builds_are_withdrawn_once_and_the_users_own_stay() {
    let dir = common::tempdir();
    let data = dir.path().to_path_buf();
    let clock = Arc::new(FixedClock::new(
        Utc.with_ymd_and_hms(2026, 1, 5, 8, 0, 0).unwrap(),
    ));
    let mut engine = open(&data, clock.clone());
    common::consolidation::say(
        &mut engine,
        &clock,
        "s1",
        &[
            (Role::User, 0, "I live in Tartu."),
            (Role::User, 0, "I'll check out these options."),
            (Role::User, 0, "Can you help me write a cover letter?"),
            (Role::User, 0, "I'll definitely look into those resources."),
            (Role::User, 0, "I'll check out one of those gyms."),
            (Role::User, 0, "I'll definitely check out these resources."),
            (
                Role::User,
                0,
                "I'll send the signed contract to Jonas by Friday.",
            ),
        ],
    );
    // The current rules read none of the four as an open item: an acknowledgement of the
    // assistant's suggestions, a question, and so on (see `summary::not_a_commitment`).
    let current: Vec<String> = engine
        .open_items(false)
        .unwrap()
        .into_iter()
        .map(|o| o.text)
        .collect();
    for junk in [
        "these options",
        "cover letter",
        "those resources",
        "those gyms",
    ] {
        assert!(
            !current.iter().any(|t| t.contains(junk)),
            "setup: the current rules make no open item of `{junk}`: {current:?}"
        );
    }
    let contract_kept = current.iter().any(|t| t.contains("contract"));
    let facts_before = engine.facts(true).unwrap();
    let stale = [
        "these options",
        "cover letter",
        "those resources",
        "those gyms",
        "these resources",
    ]
    .map(|n| (n, episode(&engine, n)));
    // The user rewrites the words of one (an edit consolidates at once, so it comes first).
    engine
        .edit_episode(
            stale[4].1,
            "I'll definitely check out these resources for the grant.",
        )
        .unwrap();
    drop(engine);
    let ids: Vec<(&str, i64)> = stale
        .iter()
        .map(|(n, id)| (*n, store_as_old_build(&data, *id)))
        .collect();
    let id_of = |n: &str| ids.iter().find(|(m, _)| *m == n).unwrap().1;

    let mut engine = open(&data, clock.clone());
    // The user acts on two of them: theirs now.
    engine
        .set_open_item_done(id_of("those resources"), true)
        .unwrap();
    engine
        .set_open_item_done(id_of("those gyms"), true)
        .unwrap();
    engine
        .set_open_item_done(id_of("those gyms"), false)
        .unwrap();
    let listed = engine.open_items(false).unwrap().len();

    let first = engine.consolidate().unwrap();
    assert_eq!(
        first.open_items_withdrawn, 2,
        "the two untouched items the rules no longer derive (`these options`, the question)"
    );
    let after: Vec<String> = engine
        .open_items(false)
        .unwrap()
        .into_iter()
        .map(|o| o.text)
        .collect();
    assert_eq!(
        after.len(),
        listed - 2,
        "exactly those two leave the listing"
    );
    for gone in ["these options", "cover letter"] {
        assert!(
            !after.iter().any(|t| t.contains(gone)),
            "withdrawn, so not listed: {after:?}"
        );
    }
    for kept in ["those resources", "those gyms", "for the grant"] {
        assert!(
            after.iter().any(|t| t.contains(kept)),
            "`{kept}`: the user marked, reopened or edited it, so it stays: {after:?}"
        );
    }
    if contract_kept {
        assert!(
            after.iter().any(|t| t.contains("contract")),
            "an item the current rules derive stays: {after:?}"
        );
    }
    let profile = engine.profile().unwrap();
    assert!(
        !profile
            .open_items
            .iter()
            .any(|o| o.text.contains("these options") || o.text.contains("cover letter")),
        "withdrawn items are not in the profile"
    );
    // The session's summary may quote the words; the open items part must not list them.
    let start = engine.session_start(2000).unwrap();
    let listed_at_start: Vec<&String> = start
        .parts
        .iter()
        .filter(|p| p.kind == PartKind::OpenItems)
        .flat_map(|p| &p.items)
        .collect();
    assert!(
        listed_at_start.iter().any(|t| t.contains("those gyms")),
        "setup: the session-start context lists open items: {listed_at_start:?}"
    );
    assert!(
        !listed_at_start
            .iter()
            .any(|t| t.contains("these options") || t.contains("cover letter")),
        "withdrawn items are not in the session-start context: {listed_at_start:?}"
    );
    let key = |f: &minne::consolidate::FactView| (f.id, f.attribute.clone(), f.value.clone());
    assert_eq!(
        engine
            .facts(true)
            .unwrap()
            .iter()
            .map(key)
            .collect::<Vec<_>>(),
        facts_before.iter().map(key).collect::<Vec<_>>(),
        "withdrawing open items never touches a fact"
    );

    let second = engine.consolidate().unwrap();
    assert_eq!(second.open_items_withdrawn, 0, "idempotent");
    assert_eq!(engine.open_items(false).unwrap().len(), listed - 2);

    // The user's word brings a withdrawn item back: marking it done shows it again.
    engine
        .set_open_item_done(id_of("these options"), true)
        .unwrap();
    let third = engine.consolidate().unwrap();
    assert_eq!(
        third.open_items_withdrawn, 0,
        "an item the user marked stays"
    );
    assert!(
        engine
            .open_items(false)
            .unwrap()
            .iter()
            .any(|o| o.text.contains("these options")),
        "marked done by the user, it is listed again"
    );
}
