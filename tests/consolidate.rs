//! Consolidation on real stores with the real model: seed 003's examples (a hedge gives no
//! fact, a move supersedes, a correction applies at once), attribution, duplicates, delayed
//! input going to the review queue, procedures, forgetting a fact's support, and the
//! idempotence property.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test panics on failure by design

mod common;

use common::consolidation::{day, embedder, import_turns, open, say, with};

use chrono::{Duration, FixedOffset, TimeZone};
use minne::clock::Clock;
use minne::consolidate::{Confidence, FactStatus, FactView};
use minne::forget::ForgetScope;
use minne::import::{NewMessage, NewSession};
use minne::model::Role;
use minne::{ContextName, Engine};
use proptest::prelude::*;

fn active_value(engine: &Engine, attribute: &str) -> Option<String> {
    let facts = engine.facts(false).unwrap();
    with(&facts, attribute)
        .into_iter()
        .find(|f| f.status == FactStatus::Active)
        .map(|f| f.value)
}

use Role::{Assistant as A, User as U};

#[test]
fn seed_003_a_passing_remark_gives_no_fact() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(
        &mut engine,
        &clock,
        "s1",
        &[
            (U, 0, "I might try Python for the scripts."),
            (A, 0, "Python is a good fit."),
        ],
    );
    assert!(
        engine.episode_count().unwrap() > 0,
        "the remark is captured as an episode (else the test proves nothing)"
    );
    assert!(
        engine.facts(true).unwrap().is_empty(),
        "seed 003: a passing remark (\"I might try Python\") must not become a fact"
    );
}

#[test]
fn seed_003_a_move_supersedes_the_old_city_with_dates() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(
        &mut engine,
        &clock,
        "s1",
        &[(U, 0, "I moved to Tallinn last month and love the old town.")],
    );
    say(
        &mut engine,
        &clock,
        "s2",
        &[(U, 120, "Big change: we moved to Tartu for the university.")],
    );
    let all = engine.facts(true).unwrap();
    let places = with(&all, "location");
    let tartu = places
        .iter()
        .find(|f| f.value == "Tartu")
        .expect("Tartu is stored");
    let tallinn = places
        .iter()
        .find(|f| f.value == "Tallinn")
        .expect("Tallinn stays in history");
    assert_eq!(
        tartu.status,
        FactStatus::Active,
        "the later move is the current location"
    );
    assert_eq!(
        tallinn.status,
        FactStatus::Superseded,
        "the old city is superseded, not deleted nor left active"
    );
    assert_eq!(
        tallinn.valid_to,
        Some(tartu.valid_from),
        "Tallinn held until the user said they moved to Tartu"
    );
    assert_eq!(
        tallinn.valid_from,
        day(0).to_utc(),
        "Tallinn holds from when the user said it"
    );
    assert_eq!(
        tallinn.superseded_by,
        Some(tartu.id),
        "history links the old value to its successor"
    );
    let profile = engine.profile().unwrap();
    let shown: Vec<&str> = profile
        .facts
        .iter()
        .filter(|f| f.attribute == "location")
        .map(|f| f.value.as_str())
        .collect();
    assert_eq!(
        shown,
        ["Tartu"],
        "the profile shows only the current location"
    );
}

#[test]
fn seed_003_a_name_correction_applies_at_once() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(
        &mut engine,
        &clock,
        "s1",
        &[(U, 0, "Hi! My name is Alice.")],
    );
    assert_eq!(
        active_value(&engine, "name").as_deref(),
        Some("Alice"),
        "the stated name is stored first"
    );
    say(
        &mut engine,
        &clock,
        "s1",
        &[
            (U, 0, "Hi! My name is Alice."),
            (U, 1, "Actually my name is Alex, not Alice."),
        ],
    );
    assert_eq!(
        active_value(&engine, "name").as_deref(),
        Some("Alex"),
        "seed 003: \"actually my name is Alex\" applies as soon as it is captured and consolidated"
    );
    let history = with(&engine.facts(true).unwrap(), "name");
    assert!(
        history
            .iter()
            .any(|f| f.value == "Alice" && f.status == FactStatus::Superseded),
        "the corrected name stays in history as superseded: {history:?}"
    );
}

#[test]
fn the_assistant_and_other_people_never_give_the_user_traits() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(
        &mut engine,
        &clock,
        "s1",
        &[
            (
                U,
                0,
                "Min kompis Oskar avskyr fotboll, men hans pappa har ändå anmält honom till ett fotbollsläger.",
            ),
            (A, 0, "You live in Berlin and you love football, right?"),
            (U, 0, "Själv ska jag på Malmö FF-matchen på lördag."),
        ],
    );
    let facts = engine.facts(true).unwrap();
    assert!(
        facts
            .iter()
            .all(|f| !f.attribute.contains("fotboll") && !f.attribute.contains("football")),
        "a friend's opinion and the assistant's guess are not the user's preferences: {facts:?}"
    );
    assert!(
        with(&facts, "location").is_empty(),
        "the assistant's words are never the user's location: {facts:?}"
    );
}

#[test]
fn the_same_statement_three_times_is_one_fact_with_support_three() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(
        &mut engine,
        &clock,
        "s1",
        &[
            (U, 0, "I'm allergic to peanuts."),
            (A, 0, "Noted: you're allergic to peanuts."),
        ],
    );
    say(
        &mut engine,
        &clock,
        "s2",
        &[(U, 10, "Reminder for the party: I'm allergic to peanuts.")],
    );
    say(
        &mut engine,
        &clock,
        "s3",
        &[(U, 20, "Once more, I'm allergic to peanuts.")],
    );
    let allergies = with(&engine.facts(true).unwrap(), "allergy");
    assert_eq!(
        allergies.len(),
        1,
        "duplicates reinforce one fact, never add a second: {allergies:?}"
    );
    assert_eq!(
        allergies[0].support, 3,
        "each of the user's three statements supports it; the echo does not"
    );
    assert!(
        allergies[0]
            .sources
            .iter()
            .all(|s| s.quote.contains("allergic to peanuts")),
        "every source is the user's own words"
    );
}

#[test]
fn an_older_statement_arriving_later_goes_to_review_not_silently_applied() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(&mut engine, &clock, "now", &[(U, 200, "I live in Tartu.")]);
    // A delayed import of an older conversation.
    say(&mut engine, &clock, "old", &[(U, 3, "I live in Tallinn.")]);
    assert_eq!(
        active_value(&engine, "location").as_deref(),
        Some("Tartu"),
        "an older message arriving later must not silently replace the current value"
    );
    let queue = engine.review_queue(false).unwrap();
    assert_eq!(
        queue.len(),
        1,
        "the disagreement waits for the user as one conflict: {queue:?}"
    );
    let entry = &queue[0];
    assert_eq!(
        entry.fact.as_ref().map(|f| f.value.as_str()),
        Some("Tallinn"),
        "the conflict shows the new value"
    );
    assert_eq!(
        entry.other.as_ref().map(|f| f.value.as_str()),
        Some("Tartu"),
        "and the value held so far"
    );
    assert!(
        entry.fact.as_ref().is_some_and(|f| !f.sources.is_empty()),
        "a review entry carries its source quotes"
    );

    engine.review_reject(entry.id).unwrap();
    engine.consolidate().unwrap();
    say(&mut engine, &clock, "old", &[(U, 3, "I live in Tallinn.")]);
    assert!(
        engine.review_queue(false).unwrap().is_empty(),
        "a rejected candidate is not proposed again from the same evidence"
    );
    assert_eq!(
        active_value(&engine, "location").as_deref(),
        Some("Tartu"),
        "rejecting keeps the current value"
    );
}

#[test]
fn confirming_a_conflict_makes_the_new_value_confirmed_and_current() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(&mut engine, &clock, "now", &[(U, 200, "Jag bor i Malmö.")]);
    say(&mut engine, &clock, "old", &[(U, 3, "Jag bor i Lund.")]);
    let id = engine.review_queue(false).unwrap()[0].id;
    engine.review_confirm(id).unwrap();
    let location = with(&engine.facts(true).unwrap(), "location");
    let lund = location.iter().find(|f| f.value == "Lund").unwrap();
    assert_eq!(
        (lund.status, lund.confidence),
        (FactStatus::Active, Confidence::Confirmed),
        "the user chose Lund"
    );
    assert!(
        location
            .iter()
            .any(|f| f.value == "Malmö" && f.status == FactStatus::Superseded),
        "the other value stays in history"
    );
}

#[test]
fn job_change_and_a_changed_preference_supersede() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(
        &mut engine,
        &clock,
        "c1",
        &[
            (
                U,
                0,
                "Long day. I've been a warehouse planner at Nordhav Logistics for three years and the stock count is brutal.",
            ),
            (
                U,
                1,
                "Jeg elsker koriander – smid gerne en ekstra håndfuld i alle opskrifter til mig.",
            ),
            (
                U,
                80,
                "Big news: I handed in my notice at Nordhav in March and today was my first day as production coordinator at Bryggverket, the brewery in Gävle.",
            ),
            (
                U,
                81,
                "Ret lige det der: jeg kan ikke længere lide koriander, det smager af sæbe for mig nu.",
            ),
        ],
    );
    assert_eq!(
        active_value(&engine, "employer").as_deref(),
        Some("Bryggverket"),
        "the new employer is current"
    );
    let all = engine.facts(true).unwrap();
    assert!(
        with(&all, "employer")
            .iter()
            .any(|f| f.value == "Nordhav Logistics"
                && matches!(f.status, FactStatus::Superseded | FactStatus::Retracted)),
        // "I handed in my notice at Nordhav" ends it in the user's words (retracted) when
        // capture reads it as its own episode before the new job; else the new job supersedes.
        "the old employer is history, not left active beside the new one"
    );
    assert_eq!(
        active_value(&engine, "preference:koriander").as_deref(),
        Some("dislikes"),
        "the corrected preference wins and is not lost"
    );
}

#[test]
fn explicit_instructions_become_procedures_and_habits_do_not() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(
        &mut engine,
        &clock,
        "s1",
        &[
            (
                U,
                0,
                "When I ask for a meeting, always offer three time slots.",
            ),
            (U, 0, "Svara alltid kort."),
            (U, 0, "I always go running on Sundays."),
            (A, 0, "Always happy to help!"),
        ],
    );
    let procedures = engine.procedures(false).unwrap();
    let texts: Vec<&str> = procedures.iter().map(|p| p.instruction.as_str()).collect();
    assert_eq!(
        texts.len(),
        2,
        "two explicit instructions, no habit and nothing from the assistant: {texts:?}"
    );
    assert!(
        texts.iter().any(|t| t.contains("three time slots")),
        "the meeting rule is a procedure: {texts:?}"
    );
    assert!(
        texts.iter().any(|t| t.contains("Svara alltid kort")),
        "the Swedish instruction is a procedure: {texts:?}"
    );
}

#[test]
fn forgetting_the_only_source_removes_the_fact_and_restores_the_previous_value() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(&mut engine, &clock, "s1", &[(U, 0, "I live in Tallinn.")]);
    say(&mut engine, &clock, "s2", &[(U, 50, "We moved to Tartu.")]);
    let tartu = with(&engine.facts(false).unwrap(), "location")
        .into_iter()
        .find(|f| f.value == "Tartu")
        .unwrap();
    engine
        .forget(&ForgetScope::Episode(tartu.sources[0].episode_id))
        .unwrap();
    engine.consolidate().unwrap();
    let all = engine.facts(true).unwrap();
    assert!(
        !all.iter().any(|f| f.value == "Tartu"),
        "a fact whose only source was forgotten is removed with it (DESIGN principle 3)"
    );
    assert_eq!(
        active_value(&engine, "location").as_deref(),
        Some("Tallinn"),
        "the value it had superseded is current again"
    );
}

#[test]
fn sessions_get_extractive_summaries_and_commitments_become_open_items() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(
        &mut engine,
        &clock,
        "s1",
        &[
            (
                U,
                0,
                "We decided to lead the Acme proposal with the cost-savings angle.",
            ),
            (U, 0, "I'll send the proposal to Acme on Friday."),
            (A, 0, "Sounds good."),
        ],
    );
    let summaries = engine.session_summaries(5).unwrap();
    assert_eq!(summaries.len(), 1, "one session, one summary");
    let episodes = engine.list_episodes(50, 0).unwrap();
    for id in &summaries[0].episode_ids {
        let quoted = episodes
            .iter()
            .find(|e| e.id == *id)
            .expect("a summary quotes stored episodes");
        assert!(
            summaries[0].summary.contains(&quoted.text),
            "the summary is extractive: it quotes the episode verbatim"
        );
    }
    let items = engine.open_items(true).unwrap();
    if episodes
        .iter()
        .any(|e| e.kind == minne::model::ActKind::Commitment && e.role == Role::User)
    {
        assert!(
            !items.is_empty(),
            "a user's commitment becomes an open item"
        );
    }
}

/// A snapshot of everything consolidation writes, for before/after comparisons.
fn snapshot(engine: &Engine) -> String {
    serde_json::to_string(&(
        engine.facts(true).unwrap(),
        engine.review_queue(true).unwrap(),
        engine.procedures(true).unwrap(),
        engine.open_items(false).unwrap(),
        engine.session_summaries(100).unwrap(),
    ))
    .unwrap()
}

const STATEMENTS: &[&str] = &[
    "I live in Tallinn.",
    "We moved to Tartu.",
    "My name is Alice.",
    "Actually my name is Alex, not Alice.",
    "I might try Python.",
    "I use Notion and Slack.",
    "Jeg bor i Aarhus.",
    "Always offer three time slots.",
    "I'm allergic to peanuts.",
    "Oskar hates football.",
    "I'll call the plumber tomorrow.",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    /// Consolidation is idempotent (a second run changes nothing), and every active fact
    /// rests on at least one episode that still exists, whatever the order of statements.
    #[test]
    fn consolidation_is_idempotent_and_active_facts_have_sources(
        picks in proptest::collection::vec((0..STATEMENTS.len(), 0i64..300), 1..8)
    ) {
        let dir = common::tempdir();
        let (mut engine, clock) = open(dir.path());
        for (i, (s, d)) in picks.iter().enumerate() {
            say(&mut engine, &clock, &format!("s{i}"), &[(U, *d, STATEMENTS[*s])]);
        }
        let before = snapshot(&engine);
        clock.set(clock.now() + Duration::days(3));
        let second = engine.consolidate().unwrap();
        prop_assert_eq!(second.episodes_read, 0, "every episode was already read");
        prop_assert_eq!(snapshot(&engine), before, "running consolidation twice must change nothing");
        let episodes: Vec<_> = engine.list_episodes(1000, 0).unwrap().into_iter().map(|e| e.id).collect();
        for f in engine.facts(false).unwrap().iter().filter(|f| f.status == FactStatus::Active) {
            prop_assert!(
                f.sources.iter().any(|s| episodes.contains(&s.episode_id)),
                "an active fact must rest on an existing episode: {:?}", f
            );
        }
    }
}

#[test]
fn a_correction_naming_the_wrong_value_supersedes_it_even_for_family() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(
        &mut engine,
        &clock,
        "s1",
        &[(U, 0, "My daughter Maria starts school on Monday.")],
    );
    say(
        &mut engine,
        &clock,
        "s2",
        &[(U, 2, "Sorry, my daughter Maja, not Maria.")],
    );
    let family = with(&engine.facts(true).unwrap(), "family");
    assert!(
        family
            .iter()
            .any(|f| f.value == "daughter Maja" && f.status == FactStatus::Active),
        "the corrected name is current: {family:?}"
    );
    assert!(
        family
            .iter()
            .any(|f| f.value == "daughter Maria" && f.status == FactStatus::Superseded),
        "the value named as wrong is superseded, not left beside the right one: {family:?}"
    );
}

#[test]
fn leaving_a_job_ends_the_employer_fact() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(
        &mut engine,
        &clock,
        "s1",
        &[(U, 0, "I work at Nordhav Logistics.")],
    );
    say(
        &mut engine,
        &clock,
        "s2",
        &[(U, 30, "I quit Nordhav Logistics yesterday, taking a break.")],
    );
    assert_eq!(
        active_value(&engine, "employer"),
        None,
        "a job the user left is no longer current"
    );
    let employer = with(&engine.facts(true).unwrap(), "employer");
    assert!(
        employer.iter().any(|f| f.value == "Nordhav Logistics"
            && f.status == FactStatus::Retracted
            && f.valid_to.is_some()),
        "the old job stays in history with its end, retracted by the user's words: {employer:?}"
    );
}

#[test]
fn remember_this_in_conversation_is_stored_at_once_as_a_stated_fact() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(
        &mut engine,
        &clock,
        "s1",
        &[
            (
                U,
                0,
                "Please remember this, it's important: my daughter's EpiPen is in the blue pouch in the hallway cabinet.",
            ),
            (A, 0, "Saved – EpiPen in the blue pouch, hallway cabinet."),
            (U, 0, "nice weather today"),
        ],
    );
    let profile = engine.profile().unwrap();
    let saved: Vec<&FactView> = profile
        .facts
        .iter()
        .filter(|f| f.attribute == "statement")
        .collect();
    assert_eq!(
        saved.len(),
        1,
        "one explicit request to remember, one fact; small talk adds none: {saved:?}"
    );
    assert!(
        saved[0].value.contains("blue pouch"),
        "the fact is the user's own words after the command"
    );
    assert_eq!(
        saved[0].confidence,
        Confidence::Stated,
        "an explicit request is stated, so it shows in the profile"
    );
}

#[test]
fn a_forgotten_session_takes_its_facts_and_summaries_out_of_every_file() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    let place = "Quokkavik";
    say(
        &mut engine,
        &clock,
        "s1",
        &[(
            U,
            0,
            "We moved to Quokkavik in the spring. Always answer in English.",
        )],
    );
    let fact = with(&engine.facts(false).unwrap(), "location");
    assert_eq!(
        fact.len(),
        1,
        "the move is a fact before the forget (else the test proves nothing)"
    );
    let session = fact[0].sources[0].session_id;
    let receipt = engine.forget(&ForgetScope::Session(session)).unwrap();
    assert!(
        receipt.facts >= 1,
        "the fact lost its only source, so the forget itself takes it: {receipt:?}"
    );
    engine.consolidate().unwrap();
    assert!(
        engine.facts(true).unwrap().is_empty(),
        "no fact outlives the words it came from"
    );
    assert!(
        engine.procedures(true).unwrap().is_empty(),
        "nor does a procedure"
    );
    assert!(
        engine.session_summaries(10).unwrap().is_empty(),
        "nor a summary quoting them"
    );
    assert_eq!(
        common::occurrences(dir.path(), place),
        Vec::<String>::new(),
        "the words are gone from every file"
    );
}

#[test]
fn a_commitment_is_an_open_item_until_the_user_reports_it_done() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(
        &mut engine,
        &clock,
        "s1",
        &[(U, 0, "I'll send the proposal to Acme on Friday.")],
    );
    let episodes = engine.list_episodes(10, 0).unwrap();
    if !episodes
        .iter()
        .any(|e| e.kind == minne::model::ActKind::Commitment)
    {
        eprintln!("skipped: capture did not read the promise as a commitment");
        return;
    }
    let open = engine.open_items(true).unwrap();
    assert_eq!(open.len(), 1, "the user's promise is one open item");
    assert!(
        open[0].due_start.is_some(),
        "its due time is the resolved \"Friday\""
    );
    say(
        &mut engine,
        &clock,
        "s2",
        &[(U, 4, "I sent the proposal to Acme this morning.")],
    );
    assert!(
        engine.open_items(true).unwrap().is_empty(),
        "the user reported it done, so it is no longer open"
    );
    assert_eq!(
        engine.open_items(false).unwrap()[0].status,
        "done",
        "and it stays listed as done"
    );
}

#[test]
fn a_repeated_request_asks_for_confirmation_and_never_becomes_a_procedure_by_itself() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    for (i, d) in [0, 3, 9].into_iter().enumerate() {
        say(
            &mut engine,
            &clock,
            &format!("s{i}"),
            &[(U, d, "Keep your answers short, please.")],
        );
    }
    assert!(
        engine.procedures(false).unwrap().is_empty(),
        "seed 003: repetition alone never silently creates a procedure"
    );
    let queue = engine.review_queue(false).unwrap();
    assert_eq!(
        queue.len(),
        1,
        "the third repetition raises one confirmation request: {queue:?}"
    );
    assert_eq!(
        queue[0].kind,
        minne::consolidate::ReviewKind::ProcedureRequest,
        "it is a procedure request"
    );
    assert_eq!(
        queue[0].procedure.as_ref().map(|p| p.sources.len()),
        Some(3),
        "with its three sources"
    );
    engine.review_confirm(queue[0].id).unwrap();
    let active = engine.procedures(false).unwrap();
    assert_eq!(active.len(), 1, "once the user confirms, it is a procedure");
    assert_eq!(
        active[0].confidence,
        Confidence::Confirmed,
        "confirmed by the user"
    );
}

#[test]
fn quoted_words_wait_for_review_until_the_user_says_them_outright() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(
        &mut engine,
        &clock,
        "s1",
        &[(U, 0, "My sister wrote: \"I live in Oslo now.\"")],
    );
    let facts = with(&engine.facts(true).unwrap(), "location");
    assert!(
        facts
            .iter()
            .all(|f| f.status == FactStatus::Candidate && f.confidence == Confidence::Inferred),
        "quoted words are not the user's statement: a candidate only: {facts:?}"
    );
    assert!(
        engine.profile().unwrap().facts.is_empty(),
        "an inferred candidate never shows as the profile"
    );
    say(&mut engine, &clock, "s2", &[(U, 5, "I live in Oslo.")]);
    let facts = with(&engine.facts(true).unwrap(), "location");
    assert_eq!(facts.len(), 1, "one fact, not a second copy: {facts:?}");
    assert_eq!(
        (facts[0].status, facts[0].confidence),
        (FactStatus::Active, Confidence::Stated),
        "now the user stated it"
    );
    assert!(
        engine.review_queue(false).unwrap().is_empty(),
        "so it is no longer a question for the user"
    );
}

#[test]
fn commands_in_conversation_act_at_once_and_the_capture_reports_each() {
    use minne::consolidate::CommandKind;
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(&mut engine, &clock, "s1", &[(U, 0, "My name is Alice.")]);
    let report = import_turns(
        &mut engine,
        &clock,
        "s2",
        &[
            (U, 1, "Actually my name is Alex, not Alice."),
            (U, 1, "Remember that the gate code changes in May."),
            (U, 1, "Always offer three time slots."),
            (U, 1, "Svara alltid kort."),
            (U, 1, "Skriv altid på dansk."),
        ],
    );
    let kinds: Vec<(CommandKind, &str)> = report
        .commands
        .iter()
        .map(|c| (c.kind, c.outcome.as_str()))
        .collect();
    // One entry per command, in the order said; each names what it stored.
    assert_eq!(kinds.len(), 5, "five commands, five reports: {kinds:#?}");
    assert_eq!(kinds[0].0, CommandKind::Correction);
    assert!(kinds[0].1.contains("Alex"), "{}", kinds[0].1);
    assert_eq!(kinds[1].0, CommandKind::Remember);
    assert!(
        kinds[1].1.contains("gate code changes in May"),
        "{}",
        kinds[1].1
    );
    for (i, words) in [
        (2, "three time slots"),
        (3, "alltid kort"),
        (4, "altid på dansk"),
    ] {
        assert_eq!(kinds[i].0, CommandKind::Always, "{kinds:#?}");
        assert!(kinds[i].1.contains(words), "{}", kinds[i].1);
    }
    // Applied, not only reported: the profile already holds them, with no extra run.
    assert_eq!(active_value(&engine, "name").as_deref(), Some("Alex"));
    let profile = engine.profile().unwrap();
    assert_eq!(profile.procedures.len(), 3, "{:#?}", profile.procedures);
    assert!(
        profile
            .facts
            .iter()
            .any(|f| f.attribute == "statement" && f.value.contains("gate code")),
    );
}

#[test]
fn free_statements_are_facts_from_the_users_words_merged_with_support() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(
        &mut engine,
        &clock,
        "s1",
        &[
            (U, 0, "I'm terrified of flying."),
            (A, 0, "You're terrified of flying, so let's look at trains."),
            (U, 0, "Oskar is terrified of spiders."),
            (U, 0, "I might be afraid of heights."),
        ],
    );
    say(
        &mut engine,
        &clock,
        "s2",
        &[(U, 3, "I'm terrified of flying.")],
    );
    say(
        &mut engine,
        &clock,
        "s3",
        &[(U, 9, "Jeg lider af migræne.")],
    );
    let facts = engine.facts(true).unwrap();
    let statements = with(&facts, "statement");
    let values: Vec<&str> = statements.iter().map(|f| f.value.as_str()).collect();
    // The user's two sentences about flying are one fact; Oskar's fear, the assistant's echo
    // and the hedge give nothing; the Danish statement is a second fact.
    assert_eq!(
        values,
        ["Jeg lider af migræne", "I'm terrified of flying"],
        "{statements:#?}"
    );
    let flying = &statements[1];
    assert_eq!(flying.support, 2, "said twice by the user: support 2");
    assert_eq!(flying.status, FactStatus::Active);
    assert_eq!(flying.confidence, Confidence::Stated);
    assert!(
        flying
            .sources
            .iter()
            .all(|s| s.quote.contains("terrified of flying") && !s.quote.starts_with("You")),
        "the sources are the user's words, never the assistant's echo"
    );
}

#[test]
fn consolidation_runs_nightly_when_the_last_run_is_a_day_old() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(&mut engine, &clock, "s1", &[(U, 0, "I live in Tartu.")]);
    let ran = engine
        .last_consolidation()
        .unwrap()
        .expect("capture ran it");
    assert_eq!(
        ran,
        clock.now(),
        "the run after capture is recorded at the engine's time"
    );

    clock.set(ran + Duration::hours(23));
    assert!(
        engine.consolidate_if_due().unwrap().is_none(),
        "23 h after the last run it is not due"
    );
    drop(engine);
    let reopened = Engine::open(
        dir.path(),
        &ContextName::new("personal").unwrap(),
        embedder(),
        clock.clone(),
    )
    .unwrap();
    assert_eq!(
        reopened.last_consolidation().unwrap(),
        Some(ran),
        "opening within the day does not run it again"
    );
    drop(reopened);

    let later = ran + Duration::hours(25);
    clock.set(later);
    let reopened = Engine::open(
        dir.path(),
        &ContextName::new("personal").unwrap(),
        embedder(),
        clock.clone(),
    )
    .unwrap();
    assert_eq!(
        reopened.last_consolidation().unwrap(),
        Some(later),
        "opening the context 25 h after the last run runs the nightly consolidation"
    );
    assert_eq!(
        active_value(&reopened, "location").as_deref(),
        Some("Tartu"),
        "and the nightly run changes no fact"
    );
}

/// In an imported chat between the user and another named person (a LoCoMo-style two-person
/// conversation), "remember …", "always …" and "forget what I said about …" are said to that
/// person, not to Minne: they must neither store, nor make procedures, nor forget anything.
/// The same words said to the assistant act at once (the test above), so the difference is
/// only who was addressed.
#[test]
fn commands_said_to_another_person_do_not_act_on_the_memory() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(
        &mut engine,
        &clock,
        "s0",
        &[(U, 0, "I adopted a rescue dog called Pixel last spring.")],
    );
    let before = engine.episode_count().unwrap();
    let turns = [
        (
            Role::User,
            "Remember that the wait can be hard, so prepare emotionally.",
        ),
        (Role::Assistant, "Thanks, I will. How is Pixel doing?"),
        (Role::User, "Always follow your dreams, Melanie!"),
        (
            Role::User,
            "Forget what I said about Pixel, it was nothing.",
        ),
    ];
    let messages: Vec<NewMessage> = turns
        .iter()
        .enumerate()
        .map(|(i, (role, text))| NewMessage {
            external_id: Some(format!("s1-m{i}")),
            role: *role,
            // The other party is a named person, as LoCoMo's speakers are.
            actor: if *role == Role::User {
                "Caroline"
            } else {
                "Melanie"
            }
            .to_string(),
            text: text.to_string(),
            sent_at: day(1) + Duration::seconds(i as i64 * 10),
        })
        .collect();
    clock.set(day(1).to_utc() + Duration::minutes(5));
    let report = engine
        .import_sessions(
            &[NewSession {
                key: "s1".into(),
                messages,
            }],
            "locomo",
            &mut |_| {},
        )
        .unwrap();
    engine.consolidate().unwrap();
    assert!(
        report.commands.is_empty(),
        "nothing addressed to Minne, nothing applied: {:#?}",
        report.commands
    );
    let profile = engine.profile().unwrap();
    assert!(profile.procedures.is_empty(), "{:#?}", profile.procedures);
    assert!(
        !profile
            .facts
            .iter()
            .any(|f| f.value.contains("prepare emotionally")),
        "{:#?}",
        profile.facts
    );
    // The Pixel memory from before is still there: the "forget" was not for Minne.
    let n = engine.episode_count().unwrap() as usize;
    let texts: Vec<String> = engine
        .list_episodes(n, 0)
        .unwrap()
        .into_iter()
        .map(|e| e.text)
        .collect();
    assert!(
        texts.iter().any(|t| t.contains("Pixel last spring")),
        "{texts:#?}"
    );
    assert!(engine.episode_count().unwrap() >= before);
}

/// Fresh-user finding: "…to Jonas by Friday [2026-06-12]." showed "due 2026-06-10 10:02",
/// the message time. A deadline resolves to the span from the message time to the end of the
/// day it names, so the item is due at the end of that day; without a time it has no due time.
#[test]
fn an_open_item_is_due_when_its_words_say_not_when_they_were_said() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    // day(0) is Monday 5 January 2026, 09:00 at UTC+01:00; "by Friday" is Friday 9 January.
    say(
        &mut engine,
        &clock,
        "s1",
        &[
            (U, 0, "I'll send the signed contract to Jonas by Friday."),
            (U, 0, "I'll call the plumber back about the leak."),
        ],
    );
    let open = engine.open_items(true).unwrap();
    let item = |needle: &str| open.iter().find(|o| o.text.contains(needle)).cloned();
    let Some(contract) = item("contract") else {
        eprintln!("skipped: capture did not read the promise as a commitment: {open:?}");
        return;
    };
    let friday_end = FixedOffset::east_opt(3600)
        .unwrap()
        .with_ymd_and_hms(2026, 1, 9, 23, 59, 59)
        .unwrap();
    assert_eq!(
        contract.due_start,
        Some(friday_end),
        "due at the end of that Friday in the writer's offset, not at the message time"
    );
    assert_ne!(contract.due_start, Some(day(0)), "never the message time");
    if let Some(plumber) = item("plumber") {
        assert_eq!(plumber.due_start, None, "no time named, so no due time");
    }

    // An edit that moves the deadline moves the due time with it (Thursday 8 January).
    engine
        .edit_episode(
            contract.episode_id,
            "I'll send the signed contract to Jonas by Thursday.",
        )
        .unwrap();
    let moved = engine
        .open_items(true)
        .unwrap()
        .into_iter()
        .find(|o| o.episode_id == contract.episode_id)
        .expect("the edited item is still open");
    assert_eq!(
        moved.due_start,
        Some(friday_end - Duration::days(1)),
        "the edited words' deadline: the end of Thursday"
    );
}

/// The user's own first-person retraction of a held value, with what ends and a sentence
/// that must leave it held: (first statement, attribute, value, retraction).
const RETRACTIONS: &[(&str, &str, &str, &str)] = &[
    (
        "I'm allergic to peanuts.",
        "allergy",
        "peanuts",
        "I'm not allergic to peanuts anymore, my doctor says it's gone.",
    ),
    (
        "I use Notion.",
        "tool",
        "Notion",
        "I don't use Notion any longer.",
    ),
    (
        "Jag är allergisk mot jordnötter.",
        "allergy",
        "jordnötter",
        "Jag är inte allergisk mot jordnötter längre.",
    ),
    (
        "Jag använder Slack.",
        "tool",
        "Slack",
        "Jag har slutat använda Slack.",
    ),
    (
        "Jeg er allergisk over for jordnødder.",
        "allergy",
        "jordnødder",
        "Jeg er ikke længere allergisk over for jordnødder.",
    ),
    (
        "Jeg bruger Trello.",
        "tool",
        "Trello",
        "Jeg er holdt op med at bruge Trello.",
    ),
];

/// Issue 5 ("a user correction wins over everything"): a first-person "not … anymore" ends
/// the held value at the time it was said, with the retracting words on record, and nothing
/// that shows the user's current state (facts, profile, session start) lists it any more.
#[rstest::rstest]
fn a_users_own_retraction_ends_the_fact(#[values(0, 1, 2, 3, 4, 5)] case: usize) {
    let (first, attribute, value, retraction) = RETRACTIONS[case];
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(&mut engine, &clock, "s1", &[(U, 0, first)]);
    assert_eq!(
        active_value(&engine, attribute).as_deref(),
        Some(value),
        "`{first}` states the value outright"
    );
    say(&mut engine, &clock, "s2", &[(U, 10, retraction)]);
    assert!(
        !engine
            .facts(false)
            .unwrap()
            .iter()
            .any(|f| f.attribute == attribute),
        "`{retraction}` ends the value and starts none: {:#?}",
        engine.facts(false).unwrap()
    );
    assert!(
        !engine
            .profile()
            .unwrap()
            .facts
            .iter()
            .any(|f| f.attribute == attribute),
        "the profile no longer shows it"
    );
    let start = engine.session_start(2000).unwrap();
    // Every part but the recent sessions, whose summaries rightly quote the retraction.
    let profile_lines: Vec<&String> = start
        .parts
        .iter()
        .filter(|p| !p.label.starts_with("Recent sessions"))
        .flat_map(|p| p.items.iter())
        .collect();
    // By value: a line's wording may change, the value may not appear in any profile line.
    assert!(
        !profile_lines.iter().any(|l| l.contains(value)),
        "session start no longer lists it: {profile_lines:?}"
    );
    let history = with(&engine.facts(true).unwrap(), attribute);
    let old = history
        .iter()
        .find(|f| f.value == value)
        .expect("the old value stays in history");
    // The retraction was said on day 10 (the first message of its session): the old value
    // held until then.
    let said = day(10).to_utc();
    // Its own status says the user retracted it (migration 11), not that a newer value
    // replaced it.
    assert_eq!(old.status, FactStatus::Retracted, "{history:#?}");
    assert_eq!(
        old.valid_to,
        Some(said),
        "it ends when the user retracted it"
    );
    let by = history
        .iter()
        .find(|f| Some(f.id) == old.superseded_by)
        .expect("the old value points at what ended it");
    assert_eq!(
        by.value,
        format!("retracted by the user: {value}"),
        "the record says the user retracted it: {by:#?}"
    );
    assert_eq!(by.confidence, Confidence::Stated);
    assert_eq!((by.valid_from, by.valid_to), (said, Some(said)));
    assert!(by.text.starts_with("no longer "), "{}", by.text);
    assert_eq!(
        by.sources
            .iter()
            .map(|s| s.quote.as_str())
            .collect::<Vec<_>>(),
        [retraction],
        "the retracting words are its source"
    );
}

/// Hedges, questions, reported speech and other people's negations retract nothing (seed
/// 003: better to miss something than to hallucinate).
#[rstest::rstest]
#[case::hedge_en("Maybe I'm not allergic to peanuts anymore.")]
#[case::question_en("Am I not allergic to peanuts anymore?")]
#[case::sister_en("My sister is not allergic to peanuts anymore.")]
#[case::friend_en("Oskar isn't allergic to peanuts any more.")]
#[case::reported_en("Oskar says I'm not allergic to peanuts anymore.")]
#[case::not_sure_en("I'm not sure I'm allergic to peanuts anymore.")]
#[case::sister_sv("Min syster är inte allergisk mot peanuts längre.")]
#[case::hedge_sv("Jag är kanske inte allergisk mot peanuts längre.")]
#[case::friend_da("Oskar er ikke længere allergisk over for peanuts.")]
#[case::hedge_da("Måske er jeg ikke allergisk over for peanuts længere.")]
fn no_retraction_from(#[case] text: &str) {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(
        &mut engine,
        &clock,
        "s1",
        &[(U, 0, "I'm allergic to peanuts.")],
    );
    say(&mut engine, &clock, "s2", &[(U, 10, text)]);
    assert_eq!(
        active_value(&engine, "allergy").as_deref(),
        Some("peanuts"),
        "`{text}` is not the user retracting their own allergy"
    );
    assert!(
        !engine
            .facts(true)
            .unwrap()
            .iter()
            .any(|f| matches!(f.status, FactStatus::Superseded | FactStatus::Retracted)),
        "nothing was ended: {:#?}",
        engine.facts(true).unwrap()
    );
}

/// Recall (issue 4, "Conflicts") returns the stated allergy and its retraction as a pair in
/// conflict, the retraction first, and the prompt block says both with their dates.
#[test]
fn recall_marks_a_retraction_and_what_it_retracts_as_in_conflict() {
    use minne::recall::{RecallQuery, prompt};
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(
        &mut engine,
        &clock,
        "s1",
        &[(U, 0, "I'm allergic to peanuts, properly allergic.")],
    );
    say(
        &mut engine,
        &clock,
        "s2",
        &[(
            U,
            40,
            "I'm not allergic to peanuts anymore, my doctor says it's gone.",
        )],
    );
    let mut query = RecallQuery::new("Am I allergic to peanuts?");
    query.k = 5;
    query.threshold = Some(0.0);
    let hits = engine.recall(&query).unwrap();
    let pos = |needle: &str| {
        hits.iter()
            .position(|h| h.episode.text.contains(needle))
            .unwrap_or_else(|| panic!("`{needle}` is recalled: {hits:#?}"))
    };
    let (old, new) = (pos("properly allergic"), pos("anymore"));
    assert!(new < old, "the newer word on the matter ranks first");
    assert_eq!(hits[old].conflict_with, [hits[new].episode.id]);
    assert_eq!(hits[new].conflict_with, [hits[old].episode.id]);
    let block = prompt::block(&hits);
    // Day 0 and day 40 of the test calendar, 09:00 +01:00 → UTC dates.
    let (d0, d40) = (
        day(0).to_utc().format("%Y-%m-%d").to_string(),
        day(40).to_utc().format("%Y-%m-%d").to_string(),
    );
    assert!(
        block.contains(&format!("you said \"I'm allergic to peanuts, properly allergic.\" on {d0}, but \"I'm not allergic to peanuts anymore")) 
            && block.contains(&format!("on {d40}")),
        "{block}"
    );
}

/// A retraction is applied once: consolidating again changes nothing, and saying it again
/// ends nothing more (the value is no longer held).
#[test]
fn a_retraction_is_idempotent() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(
        &mut engine,
        &clock,
        "s1",
        &[(U, 0, "Jeg er allergisk over for jordnødder.")],
    );
    say(
        &mut engine,
        &clock,
        "s2",
        &[(U, 5, "Jeg er ikke allergisk over for jordnødder længere.")],
    );
    let before = snapshot(&engine);
    clock.set(clock.now() + Duration::days(1));
    let again = engine.consolidate().unwrap();
    assert_eq!(again.episodes_read, 0);
    assert_eq!(snapshot(&engine), before, "a second run changes nothing");
    say(
        &mut engine,
        &clock,
        "s3",
        &[(U, 9, "Jeg er ikke længere allergisk over for jordnødder.")],
    );
    let allergy = with(&engine.facts(true).unwrap(), "allergy");
    // One stated value, one retraction record: the repeat finds nothing held to end.
    assert_eq!(allergy.len(), 2, "{allergy:#?}");
    let statuses: Vec<FactStatus> = allergy.iter().map(|f| f.status).collect();
    assert!(
        statuses.contains(&FactStatus::Retracted) && statuses.contains(&FactStatus::Superseded),
        "the stated value is retracted, the record that ended it is history: {allergy:#?}"
    );
}

#[test]
fn forgetting_a_retraction_restores_what_it_ended() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(
        &mut engine,
        &clock,
        "s1",
        &[(U, 0, "I'm allergic to peanuts, properly allergic.")],
    );
    say(
        &mut engine,
        &clock,
        "s2",
        &[(
            U,
            40,
            "I'm not allergic to peanuts anymore, my doctor says it's gone.",
        )],
    );
    assert_eq!(
        active_value(&engine, "allergy"),
        None,
        "the retraction ended it"
    );
    let retraction = engine
        .facts(true)
        .unwrap()
        .into_iter()
        .find(|f| f.value.starts_with("retracted by the user"))
        .expect("the retraction is on record");
    engine
        .forget(&ForgetScope::Episode(retraction.sources[0].episode_id))
        .unwrap();
    engine.consolidate().unwrap();
    // The only evidence left is the first statement: nothing the forgotten words derived
    // (the end date, the link, the record) may outlive them.
    assert_eq!(
        active_value(&engine, "allergy").as_deref(),
        Some("peanuts"),
        "with the retraction forgotten, the allergy is current again: {:#?}",
        engine.facts(true).unwrap()
    );
    assert!(
        !engine
            .facts(true)
            .unwrap()
            .iter()
            .any(|f| f.value.starts_with("retracted by the user")),
        "the retraction record goes with its only source"
    );
}

/// A chain of moves (Lund, Malmö, Göteborg, Aarhus): each newer city disagrees with every
/// older one, not only with the one it directly replaced, so recall marks the newest against
/// all three older ones, newest first (a fresh user's finding: Aarhus was marked only against
/// Göteborg, and not at all when Göteborg was not recalled).
#[test]
fn recall_marks_every_older_city_of_a_chain_of_moves_against_the_newest() {
    use minne::recall::RecallQuery;
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    let moves = [
        (0, "I live in Lund, close to the cathedral."),
        (100, "We moved to Malmö last week."),
        (200, "We moved to Göteborg for my new job."),
        (300, "We moved to Aarhus in Denmark last month."),
    ];
    for (i, (days, text)) in moves.iter().enumerate() {
        say(&mut engine, &clock, &format!("s{i}"), &[(U, *days, text)]);
    }
    let places = with(&engine.facts(true).unwrap(), "location");
    assert_eq!(
        places
            .iter()
            .filter(|f| f.status == FactStatus::Superseded)
            .count(),
        3,
        "three cities were left (else the chain is not there to test): {places:#?}"
    );
    let mut query = RecallQuery::new("Where do I live?");
    query.k = 10;
    query.threshold = Some(0.0);
    let hits = engine.recall(&query).unwrap();
    let id = |needle: &str| {
        hits.iter()
            .find(|h| h.episode.text.contains(needle))
            .unwrap_or_else(|| panic!("`{needle}` is recalled: {hits:#?}"))
            .episode
            .id
    };
    let (lund, malmo, goteborg, aarhus) = (id("Lund"), id("Malmö"), id("Göteborg"), id("Aarhus"));
    let newest = hits.iter().find(|h| h.episode.id == aarhus).unwrap();
    let mut with_aarhus = newest.conflict_with.clone();
    with_aarhus.sort_unstable();
    let mut older = vec![lund, malmo, goteborg];
    older.sort_unstable();
    assert_eq!(with_aarhus, older, "Aarhus disagrees with every older city");
    let lund_hit = hits.iter().find(|h| h.episode.id == lund).unwrap();
    assert!(
        lund_hit.conflict_with.contains(&aarhus) && lund_hit.conflict_with.contains(&malmo),
        "{:?}",
        lund_hit.conflict_with
    );
    let pos = |e| hits.iter().position(|h| h.episode.id == e).unwrap();
    assert!(
        pos(aarhus) < pos(goteborg) && pos(aarhus) < pos(malmo) && pos(aarhus) < pos(lund),
        "the newest city leads the older ones"
    );
}

/// A quoted city waits as a candidate; the user then states another city outright, and later
/// confirms the old candidate from the review queue. A fresh user saw the confirmed old
/// candidate replace the newer stated city. Confirming says it was true, not that it is
/// still: the stated city stays current, the confirmed one is history up to it.
#[test]
fn confirming_an_older_candidate_keeps_the_newer_stated_value_current() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(
        &mut engine,
        &clock,
        "s1",
        &[(U, 0, "My sister wrote: \"I live in Oslo now.\"")],
    );
    say(&mut engine, &clock, "s2", &[(U, 5, "I live in Bergen.")]);
    let queue = engine.review_queue(false).unwrap();
    let entry = queue
        .iter()
        .find(|e| e.fact.as_ref().is_some_and(|f| f.value == "Oslo"))
        .unwrap_or_else(|| panic!("Oslo waits for review: {queue:#?}"));
    engine.review_confirm(entry.id).unwrap();
    let places = with(&engine.facts(true).unwrap(), "location");
    let status = |value: &str| {
        places
            .iter()
            .find(|f| f.value == value)
            .map(|f| (f.status, f.confidence))
            .unwrap_or_else(|| panic!("{value}: {places:#?}"))
    };
    assert_eq!(status("Bergen"), (FactStatus::Active, Confidence::Stated));
    assert_eq!(
        status("Oslo"),
        (FactStatus::Superseded, Confidence::Confirmed),
        "confirmed, and history"
    );
    let oslo = places.iter().find(|f| f.value == "Oslo").unwrap();
    let bergen = places.iter().find(|f| f.value == "Bergen").unwrap();
    assert_eq!(
        oslo.valid_to,
        Some(bergen.valid_from),
        "Oslo held until Bergen"
    );
}
