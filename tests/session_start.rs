//! The session-start block on a real store (SQLite file, real model, real capture and
//! consolidation): the exact block a fresh-user tester's kind of store gives, at a large budget
//! and at small ones (a line of each part first), overdue items marked, inferred facts never
//! shown, the budget held by the block's own estimator, modes and the read policy obeyed, and
//! an empty context saying so.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

mod common;

use std::path::Path;
use std::sync::{Arc, OnceLock};

use chrono::{DateTime, Duration, FixedOffset, TimeZone, Utc};
use minne::clock::FixedClock;
use minne::consolidate::Confidence;
use minne::embed::Embedder;
use minne::import::{NewMessage, NewSession};
use minne::mode::Mode;
use minne::model::Role;
use minne::session_start::{EMPTY, HEADER, PartKind, WITHHELD, estimate_tokens};
use minne::{ContextName, Engine};

fn embedder() -> Arc<dyn Embedder> {
    static E: OnceLock<Arc<dyn Embedder>> = OnceLock::new();
    E.get_or_init(common::real_embedder).clone()
}

fn day(d: i64) -> DateTime<FixedOffset> {
    FixedOffset::east_opt(3600)
        .unwrap()
        .with_ymd_and_hms(2026, 3, 2, 9, 0, 0)
        .unwrap()
        + Duration::days(d)
}

fn open(data: &Path) -> (Engine, Arc<FixedClock>) {
    let clock = Arc::new(FixedClock::new(
        Utc.with_ymd_and_hms(2026, 3, 2, 8, 0, 0).unwrap(),
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

/// Imports one session of user turns on day `d` (capture and consolidation run with it).
fn say(engine: &mut Engine, clock: &FixedClock, key: &str, d: i64, turns: &[&str]) {
    let messages: Vec<NewMessage> = turns
        .iter()
        .enumerate()
        .map(|(i, text)| NewMessage {
            external_id: Some(format!("{key}-m{i}")),
            role: Role::User,
            actor: "user".into(),
            text: text.to_string(),
            sent_at: day(d) + Duration::seconds(i as i64 * 10),
        })
        .collect();
    clock.set(day(d).to_utc() + Duration::hours(1));
    engine
        .import_sessions(
            &[NewSession {
                key: key.into(),
                messages,
            }],
            "test",
            &mut |_| {},
        )
        .unwrap();
    engine.consolidate().unwrap();
}

/// The session start's clock: 2026-03-08 09:00 +01:00, after every session below, after the
/// report's due day (5 March) and before the passport's (20 March).
fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 8, 8, 0, 0).unwrap()
}

/// The fresh-user tester's kind of store: identity, a procedure, two open items (one overdue
/// by [`now`]), a tool, family, a pet, a preference, and quoted words that give an inferred
/// fact. The trivia (family, pet, preference) is the newest, as in the tester's store, so a
/// newest-first profile would put it first.
fn filled(dir: &Path) -> (Engine, Arc<FixedClock>) {
    let (mut engine, clock) = open(dir);
    say(
        &mut engine,
        &clock,
        "s1",
        0,
        &[
            "My name is Astrid Lund.",
            "I work as a product manager at Blorptech.",
            "I live in Malmö.",
        ],
    );
    say(
        &mut engine,
        &clock,
        "s2",
        1,
        &[
            "I'll send the report to Lena by 5 March.",
            "I'll renew my passport by 20 March.",
        ],
    );
    say(
        &mut engine,
        &clock,
        "s3",
        2,
        &["Always answer briefly.", "I use Figma every day."],
    );
    say(
        &mut engine,
        &clock,
        "s4",
        4,
        &[
            "My sister Freja is visiting next week.",
            "My dog is called Bamse.",
            "I don't like long answers.",
        ],
    );
    // Quoted words are someone else's: consolidation keeps them as an inferred candidate.
    say(
        &mut engine,
        &clock,
        "s5",
        5,
        &["My brother wrote: \"I work as a pilot now.\""],
    );
    clock.set(now());
    (engine, clock)
}

/// The lines every budget draws from, worked out by hand from the sessions above and the
/// module's rules: procedures; identity in the order name, role, employer, location; open
/// items soonest due first, the one due 5 March 23:59 (+01:00) overdue on 8 March; other
/// facts in the order tool, family, pet; the preference as "dislikes". Recent sessions are
/// consolidation's summaries, read through the engine's own view and formatted here.
fn expected_parts(engine: &Engine) -> Vec<(&'static str, Vec<String>)> {
    let sessions = engine
        .session_summaries(20)
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "- {}: {}",
                s.ended.format("%Y-%m-%d"),
                serde_json::Value::String(s.summary.clone())
            )
        })
        .collect();
    let v = |lines: &[&str]| lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    vec![
        (
            PartKind::Procedures.label(),
            v(&[r#"- "Always answer briefly""#]),
        ),
        (
            PartKind::Identity.label(),
            v(&[
                r#"- name: "Astrid Lund" (since 2026-03-02)"#,
                r#"- role: "product manager" (since 2026-03-02)"#,
                r#"- employer: "Blorptech" (since 2026-03-02)"#,
                r#"- location: "Malmö" (since 2026-03-02)"#,
            ]),
        ),
        (
            PartKind::OpenItems.label(),
            v(&[
                r#"- "I'll send the report to Lena by 5 March [2026-03-05]." (due 2026-03-05 23:59, overdue)"#,
                r#"- "I'll renew my passport by 20 March [2026-03-20]." (due 2026-03-20 23:59)"#,
            ]),
        ),
        (
            PartKind::OtherFacts.label(),
            v(&[
                r#"- tool: "Figma" (since 2026-03-04)"#,
                r#"- family: "sister Freja" (since 2026-03-06)"#,
                r#"- pet: "dog Bamse" (since 2026-03-06)"#,
            ]),
        ),
        (
            PartKind::Preferences.label(),
            v(&[r#"- dislikes: "long answers" (since 2026-03-06)"#]),
        ),
        (PartKind::RecentSessions.label(), sessions),
    ]
}

/// The block's text from labelled parts.
fn render(parts: &[(&str, Vec<String>)]) -> String {
    let mut text = format!("{HEADER}\n");
    for (label, lines) in parts.iter().filter(|(_, l)| !l.is_empty()) {
        text.push_str(label);
        text.push('\n');
        for l in lines {
            text.push_str(l);
            text.push('\n');
        }
    }
    text
}

#[test]
fn the_block_puts_how_to_answer_and_who_first_and_never_an_inferred_fact() {
    let dir = common::tempdir();
    let (engine, _) = filled(dir.path());
    let inferred: Vec<_> = engine
        .facts(true)
        .unwrap()
        .into_iter()
        .filter(|f| f.confidence == Confidence::Inferred)
        .collect();
    assert!(
        !inferred.is_empty(),
        "setup: the quoted words gave an inferred fact, else the exclusion is untested"
    );
    let block = engine.session_start(10_000).unwrap();
    println!("{}", block.text);
    assert_eq!(block.omitted, 0, "a large budget leaves nothing out");
    let kinds: Vec<PartKind> = block.parts.iter().map(|p| p.kind).collect();
    assert_eq!(kinds, PartKind::ALL.to_vec(), "every part, in order");
    // The whole text, line for line: the order within each part, the overdue mark, the
    // preference as "dislikes: …", the user's open items as their quoted words only.
    assert_eq!(block.text, render(&expected_parts(&engine)));
    // (The summaries quote the user's words, the brother's included, which is right.)
    for f in &inferred {
        let in_facts = block
            .parts
            .iter()
            .filter(|p| p.kind != PartKind::RecentSessions)
            .flat_map(|p| &p.items)
            .any(|l| l.contains(&f.value));
        assert!(
            !in_facts,
            "an inferred fact ({}: {}) never appears",
            f.attribute, f.value
        );
    }
}

#[test]
fn a_small_budget_keeps_a_line_of_each_part_first() {
    let dir = common::tempdir();
    let (engine, _) = filled(dir.path());
    let parts = expected_parts(&engine);
    let chars = |s: &str| s.chars().count() + 1;
    // Budget 60 tokens = 240 characters. Header 59; procedures label 32 + line 26 → 117;
    // identity label 26 + the name line 41 → 184; the open items label 46 + its first line
    // 90 would pass 240 (320), so would the other facts' label 30 + "tool" line 35 (249), the
    // preference label 29 + line 46 (259) and the sessions label 32 + any summary line.
    // Pass 2: the role line (45) makes 229: taken; nothing else fits in the 11 left.
    assert_eq!(
        chars(HEADER) + chars(parts[0].0) + chars(&parts[0].1[0]),
        117,
        "the arithmetic below rests on these lengths"
    );
    let block = engine.session_start(60).unwrap();
    let expected = render(&[
        (parts[0].0, parts[0].1.clone()),
        (parts[1].0, parts[1].1[..2].to_vec()),
    ]);
    assert_eq!(block.text, expected);
    assert_eq!(block.used_tokens, 229_usize.div_ceil(4));

    // Budget 120 = 480 characters: pass 1 takes procedures (117), name (184), the overdue
    // item with its label (184 + 46 + 90 = 320), tool with its label (320 + 30 + 35 = 385),
    // the preference with its label (385 + 29 + 46 = 460); the sessions label alone (32)
    // passes the 20 left. Pass 2: no line is that short.
    let block = engine.session_start(120).unwrap();
    let expected = render(&[
        (parts[0].0, parts[0].1.clone()),
        (parts[1].0, parts[1].1[..1].to_vec()),
        (parts[2].0, parts[2].1[..1].to_vec()),
        (parts[3].0, parts[3].1[..1].to_vec()),
        (parts[4].0, parts[4].1.clone()),
    ]);
    assert_eq!(block.text, expected);
    assert_eq!(block.used_tokens, 460_usize.div_ceil(4));
    assert!(
        block.text.contains("Always answer briefly") && block.text.contains("overdue"),
        "the tester's budget of 120 now holds the procedure and the overdue item"
    );
}

#[test]
fn every_budget_is_respected_by_the_same_estimator() {
    let dir = common::tempdir();
    let (engine, _) = filled(dir.path());
    let full = engine.session_start(10_000).unwrap();
    let items = |b: &minne::session_start::SessionStart| {
        b.parts.iter().map(|p| p.items.len()).sum::<usize>()
    };
    let all = items(&full);
    for budget in [1, 10, 20, 40, 60, 80, 120, 200, 300, full.used_tokens] {
        let block = engine.session_start(budget).unwrap();
        assert!(
            estimate_tokens(&block.text) <= budget,
            "budget {budget}: the text estimates at {} tokens",
            estimate_tokens(&block.text)
        );
        assert_eq!(block.used_tokens, estimate_tokens(&block.text));
        assert_eq!(
            items(&block) + block.omitted,
            all,
            "budget {budget}: every item is either shown or counted as left out"
        );
        // What is shown is the full block's lines, in the same order.
        let shown: Vec<&String> = block.parts.iter().flat_map(|p| &p.items).collect();
        let full_lines: Vec<&String> = full.parts.iter().flat_map(|p| &p.items).collect();
        let mut it = full_lines.iter();
        assert!(
            shown.iter().all(|l| it.any(|f| f == l)),
            "budget {budget}: the lines kept are in the full block's order"
        );
    }
    assert_eq!(
        engine.session_start(full.used_tokens).unwrap().text,
        full.text,
        "exactly the full block's own size fits it whole"
    );
}

#[test]
fn paused_refuses_and_a_policy_without_itself_withholds() {
    let dir = common::tempdir();
    let (mut engine, _) = filled(dir.path());
    // As recall: a read policy that leaves the context itself out reads nothing of it.
    engine
        .set_read_policy(&[ContextName::new("work").unwrap()])
        .unwrap();
    let block = engine.session_start(500).unwrap();
    assert_eq!(block.text, format!("{WITHHELD}\n"));
    assert!(block.parts.is_empty());
    engine
        .set_read_policy(&[ContextName::new("personal").unwrap()])
        .unwrap();
    assert!(engine.session_start(500).unwrap().text.starts_with(HEADER));
    // recall_only still reads (as recall does); paused refuses, as recall does.
    engine.set_mode(Mode::RecallOnly).unwrap();
    assert!(engine.session_start(500).unwrap().text.starts_with(HEADER));
    engine.set_mode(Mode::Paused).unwrap();
    let refused = engine.session_start(500).unwrap_err().to_string();
    assert!(
        refused.contains("paused") && refused.contains("session-start"),
        "{refused}"
    );
}

#[test]
fn an_empty_context_gives_an_honest_empty_block() {
    let dir = common::tempdir();
    let (engine, _) = open(dir.path());
    let block = engine.session_start(100).unwrap();
    assert!(block.parts.is_empty());
    assert_eq!(block.omitted, 0);
    assert_eq!(
        block.text,
        format!("{EMPTY}\n"),
        "it says nothing is remembered yet"
    );
    assert_eq!(block.used_tokens, estimate_tokens(&block.text));
}

/// "I don't eat pork" is a plain statement, yet the block said `asked to remember:` before
/// it (a fresh user's report): the label claimed a request the user never made. It reads
/// `the user said:` now.
#[test]
fn a_plain_statement_is_not_labelled_as_asked_to_remember() {
    let dir = tempfile::tempdir().unwrap();
    let (mut engine, clock) = open(dir.path());
    say(&mut engine, &clock, "food", 0, &["I don't eat pork."]);
    let text = engine.session_start(10_000).unwrap().text;
    assert!(!text.contains("asked to remember"), "{text}");
    assert!(
        text.contains("the user said: \"I don't eat pork\""),
        "{text}"
    );
}

/// A fresh user's report: "my bank PIN is 4821" showed in the session-start block, which goes
/// into every conversation whatever it is about. The block masks the secret now; the memory
/// is kept, and a recall that asks for it ("what is my bank PIN?") still returns it, because
/// then the user asked.
#[test]
fn a_stated_secret_is_masked_in_the_block_and_recalled_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let (mut engine, clock) = open(dir.path());
    say(
        &mut engine,
        &clock,
        "bank",
        0,
        &["Remember that my bank PIN is 4821.", "I live in Malmö."],
    );
    let text = engine.session_start(10_000).unwrap().text;
    assert!(
        !text.contains("4821"),
        "the PIN must not reach the block:\n{text}"
    );
    assert!(
        text.contains(minne::secret::MASK),
        "the block says a secret is there, so the assistant can ask for it:\n{text}"
    );
    assert!(
        text.contains("Malmö"),
        "the rest of the block is unchanged:\n{text}"
    );
    let hits = engine
        .recall(&minne::recall::RecallQuery::new("What is my bank PIN?"))
        .unwrap();
    assert!(
        hits.iter().any(|h| h.episode.text.contains("4821")),
        "asked for, the PIN is recalled as stored: {:?}",
        hits.iter().map(|h| &h.episode.text).collect::<Vec<_>>()
    );
}
