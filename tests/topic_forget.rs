//! Forgetting a topic (issue 6): every memory about it goes, from every file under the data
//! dir, with the facts resting only on it; unrelated memories stay. The same happens when the
//! user says "forget what I said about …" in conversation (seed 003), in English, Swedish and
//! Danish, and the command itself is not kept.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

mod common;

use std::path::Path;
use std::sync::Arc;

use chrono::{DateTime, TimeZone, Utc};
use minne::clock::FixedClock;
use minne::consolidate::CommandKind;
use minne::forget::ForgetScope;
use minne::import::{ImportFormat, ImportOptions, ImportReport};
use minne::keys::KeyConfig;
use minne::recall::{Ranking, RecallQuery, Weights};
use minne::{ContextName, Engine};

fn t(h: u32, m: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 2, h, m, 0).unwrap()
}

/// Unencrypted, so a byte scan of the files can see plaintext (issue 6: the bytes-gone test
/// runs with encryption switched off).
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

fn import(
    engine: &mut Engine,
    dir: &Path,
    name: &str,
    messages: &[(&str, &str, &str)],
) -> ImportReport {
    import_as(engine, dir, name, name, messages)
}

/// [`import`] from `<dir>/<file>.json`, the session's id `session`.
fn import_as(
    engine: &mut Engine,
    dir: &Path,
    file: &str,
    session: &str,
    messages: &[(&str, &str, &str)],
) -> ImportReport {
    let path = dir.join(format!("{file}.json"));
    let msgs: Vec<_> = messages
        .iter()
        .map(|(role, text, ts)| serde_json::json!({"role": role, "text": text, "timestamp": ts}))
        .collect();
    let json = serde_json::json!({"sessions": [{"id": session, "messages": msgs}]});
    std::fs::write(&path, json.to_string()).unwrap();
    engine
        .import(
            &path,
            &ImportOptions::new(ImportFormat::Transcript),
            &mut |_| {},
        )
        .unwrap()
}

fn texts(engine: &Engine) -> Vec<String> {
    engine
        .list_episodes(1000, 0)
        .unwrap()
        .into_iter()
        .map(|e| e.text)
        .collect()
}

/// Three user messages about Lena's surprise party, each with a word found nowhere else
/// (plumquartz, Nordvik, suspects), among unrelated ones.
const CHAT: [(&str, &str, &str); 10] = [
    (
        "user",
        "I'm planning a surprise party for Lena at the boathouse, the password is plumquartz.",
        "2026-03-02T08:00:00Z",
    ),
    (
        "assistant",
        "That sounds lovely. Do you need help with the guest list?",
        "2026-03-02T08:00:10Z",
    ),
    (
        "user",
        "For Lena's party I ordered a chocolate cake from Bageri Nordvik.",
        "2026-03-02T08:05:00Z",
    ),
    (
        "user",
        "My dentist appointment is on Thursday at nine.",
        "2026-03-02T08:10:00Z",
    ),
    (
        "user",
        "We decided to paint the kitchen green.",
        "2026-03-02T08:20:00Z",
    ),
    (
        "user",
        "Remember that Lena's surprise party must stay secret, she suspects nothing.",
        "2026-03-02T08:30:00Z",
    ),
    (
        "user",
        "I fixed the bike chain yesterday and it works again.",
        "2026-03-02T08:40:00Z",
    ),
    (
        "user",
        "My ex Jonas still has my record player.",
        "2026-03-02T08:50:00Z",
    ),
    ("user", "I live in Tartu.", "2026-03-02T09:00:00Z"),
    (
        "user",
        "The quarterly report for work is due on Friday.",
        "2026-03-02T09:10:00Z",
    ),
];

const UNRELATED: [&str; 6] = [
    "dentist",
    "kitchen",
    "bike chain",
    "record player",
    "Tartu",
    "quarterly report",
];

#[test]
fn topic_forget_lists_then_removes_the_topic_from_every_file_and_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let clock = Arc::new(FixedClock::new(t(12, 0)));
    let mut engine = open(&data, clock.clone());
    import(&mut engine, dir.path(), "s1", &CHAT);
    for marker in ["plumquartz", "nordvik", "suspects nothing"] {
        assert!(
            !common::occurrences(&data, marker).is_empty(),
            "`{marker}` is stored before the forget (else the scan proves nothing)"
        );
    }
    let secret = engine
        .facts(false)
        .unwrap()
        .into_iter()
        .find(|f| f.value.contains("suspects nothing"))
        .expect("\"remember that …\" about the party is a stated fact before the forget");

    let scope = ForgetScope::Topic {
        query: "Lena's surprise party".into(),
    };
    let preview = engine.preview_forget(&scope).unwrap();
    let listed: Vec<&str> = preview.items.iter().map(|e| e.text.as_str()).collect();
    // The three party messages name Lena and the party; nothing else in the chat does.
    for marker in ["plumquartz", "Nordvik", "suspects nothing"] {
        assert!(
            listed.iter().any(|t| t.contains(marker)),
            "the list to confirm holds the party message with `{marker}`: {listed:#?}"
        );
    }
    for other in UNRELATED {
        assert!(
            listed.iter().all(|t| !t.contains(other)),
            "`{other}` is not about the party and is not listed: {listed:#?}"
        );
    }
    assert_eq!(preview.episodes, preview.items.len());

    let receipt = engine.forget(&scope).unwrap();
    assert_eq!(receipt.scope, "topic");
    assert_eq!(
        receipt.episodes, preview.episodes,
        "exactly the confirmed list goes (the store did not change in between)"
    );
    assert!(
        receipt.tombstones >= 3,
        "each forgotten message gets a tombstone"
    );
    assert!(
        receipt.facts >= 1,
        "the remembered fact rested only on a party message and goes with it"
    );
    assert!(
        engine
            .facts(true)
            .unwrap()
            .iter()
            .all(|f| f.id != secret.id),
        "no fact about the party is left, in any status"
    );
    let left = texts(&engine);
    for other in UNRELATED {
        assert!(
            left.iter().any(|t| t.contains(other)),
            "the unrelated memory about `{other}` survives: {left:#?}"
        );
    }
    assert!(
        engine
            .facts(false)
            .unwrap()
            .iter()
            .any(|f| f.attribute == "location" && f.value == "Tartu"),
        "an unrelated fact stays"
    );
    drop(engine);
    for marker in ["plumquartz", "nordvik", "suspects nothing"] {
        assert_eq!(
            common::occurrences(&data, marker),
            Vec::<String>::new(),
            "`{marker}` is gone from every file under the data dir (DB, WAL, SHM, caches)"
        );
    }
}

/// Calibration of `TOPIC_THRESHOLD`: prints each episode's relevance to a few topics.
#[test]
#[ignore = "calibration printout, run by hand with --ignored --nocapture"]
fn print_topic_relevances() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let mut engine = open(&data, Arc::new(FixedClock::new(t(12, 0))));
    import(&mut engine, dir.path(), "s1", &CHAT);
    for q in [
        "Lena's surprise party",
        "the party",
        "my ex",
        "Jonas",
        "the dentist",
        "my bike",
    ] {
        let query = RecallQuery {
            text: q.into(),
            k: 100,
            threshold: Some(0.0),
            weights: Weights {
                similarity: 1.0,
                retrievability: 0.0,
                salience: 0.0,
                person: 0.0,
                gated: false,
            },
            ranking: Ranking {
                context: 0.0,
                neighbour: 0.0,
                ..Ranking::default()
            },
            apply_abstention: true,
        };
        println!("== {q}");
        for h in engine.recall(&query).unwrap() {
            println!(
                "{:.3} cos {:.3} bm25 {:.3} {}",
                h.score, h.parts.similarity, h.parts.lexical, h.episode.text
            );
        }
    }
}

#[rstest::rstest]
#[case::en("Forget what I said about Jonas.", "Okay.")]
#[case::sv("Glöm det jag sa om Jonas.", "Okej.")]
#[case::da("Glem hvad jeg sagde om Jonas.", "Okay.")]
fn forget_command_in_conversation_acts_at_once_and_is_not_kept(
    #[case] command: &str,
    #[case] reply: &str,
) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let clock = Arc::new(FixedClock::new(t(12, 0)));
    let mut engine = open(&data, clock);
    let chat = [
        (
            "user",
            "My ex Jonas still has my record player, xyloqwerty is his code name.",
            "2026-03-02T08:00:00Z",
        ),
        (
            "user",
            "We decided to paint the kitchen green.",
            "2026-03-02T08:10:00Z",
        ),
        (
            "user",
            "Jonas called me again last night about the record player.",
            "2026-03-02T08:20:00Z",
        ),
        (
            "user",
            "My dentist appointment is on Thursday at nine.",
            "2026-03-02T08:30:00Z",
        ),
        ("user", command, "2026-03-02T08:40:00Z"),
        ("assistant", reply, "2026-03-02T08:40:10Z"),
    ];
    let report = import(&mut engine, dir.path(), "s1", &chat);
    let forgets: Vec<_> = report
        .commands
        .iter()
        .filter(|c| c.kind == CommandKind::Forget)
        .collect();
    assert_eq!(
        forgets.len(),
        1,
        "the import reports the one forget command it acted on: {:#?}",
        report.commands
    );
    assert_eq!(
        forgets[0].removed, 3,
        "two memories about Jonas and the command's own episode went"
    );
    assert!(
        forgets[0].outcome.contains("Jonas"),
        "the report names the topic: {}",
        forgets[0].outcome
    );
    let left = texts(&engine);
    assert!(
        left.iter().all(|t| !t.contains("Jonas")),
        "nothing about Jonas is left: {left:#?}"
    );
    for other in ["kitchen", "dentist"] {
        assert!(
            left.iter().any(|t| t.contains(other)),
            "`{other}` stays: {left:#?}"
        );
    }
    // Idempotent: a second consolidation finds no command and changes nothing.
    let again = engine.consolidate().unwrap();
    assert!(
        again.commands.is_empty(),
        "the command was applied once: {again:?}"
    );
    drop(engine);
    for gone in ["xyloqwerty", "jonas", command.trim_end_matches('.')] {
        assert_eq!(
            common::occurrences(&data, gone),
            Vec::<String>::new(),
            "`{gone}` is in no file: the topic and the command itself are gone"
        );
    }
}

/// "Forget that my favourite colour is green" names one statement: the memory saying it goes
/// with the command, while other favourites ("favourite food"), other mentions of green ("paint
/// the kitchen green") and the rest stay. As a topic the same words would have taken every
/// memory holding "favourite" or "green" (a fresh user's "Forget that …" was instead stored).
#[rstest::rstest]
#[case::en(
    "My favourite colour is green.",
    "Forget that my favourite colour is green.",
    &["My favourite food is sushi.", "We decided to paint the kitchen green."]
)]
#[case::sv(
    "Min favoritfärg är grön.",
    "Glöm att min favoritfärg är grön.",
    &["Min favoritmat är sushi.", "Vi målar köket grönt och min favoritfärg blir nog vit."]
)]
#[case::da(
    "Min yndlingsfarve er grøn.",
    "Glem at min yndlingsfarve er grøn.",
    &["Min yndlingsmad er sushi.", "Bilen er grøn, og den er min bror Lars' bil."]
)]
fn forget_that_statement_takes_only_the_memory_saying_it(
    #[case] said: &str,
    #[case] command: &str,
    #[case] others: &[&str],
) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let clock = Arc::new(FixedClock::new(t(12, 0)));
    let mut engine = open(&data, clock);
    let mut chat = vec![("user", said, "2026-03-02T08:00:00Z")];
    chat.push(("user", others[0], "2026-03-02T08:10:00Z"));
    chat.push(("user", others[1], "2026-03-02T08:20:00Z"));
    chat.push(("user", command, "2026-03-02T08:40:00Z"));
    let report = import(&mut engine, dir.path(), "s1", &chat);
    let forgets: Vec<_> = report
        .commands
        .iter()
        .filter(|c| c.kind == CommandKind::Forget)
        .collect();
    assert_eq!(
        forgets.len(),
        1,
        "`{command}` is a forget command: {:#?}",
        report.commands
    );
    assert_eq!(
        forgets[0].removed, 2,
        "the one memory saying it and the command's own episode went: {}",
        forgets[0].outcome
    );
    let left = texts(&engine);
    assert!(
        !left.iter().any(|t| t.contains(said.trim_end_matches('.'))),
        "`{said}` is gone: {left:#?}"
    );
    for other in others {
        assert!(
            left.iter().any(|t| t.contains(other.trim_end_matches('.'))),
            "`{other}` shares a word with the statement, not the statement, and stays: {left:#?}"
        );
    }
}

/// A statement said in one message beside another: "Forget that my favourite colour is
/// green." cuts its sentence and keeps "My favourite food is sushi." of the same memory, which
/// shares only "favourite" with it (a tester's whole memory went, the sushi with it). The
/// colour's words are in no file afterwards.
#[test]
fn forget_that_statement_cuts_its_sentence_and_keeps_the_rest_of_the_memory() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let mut engine = open(&data, Arc::new(FixedClock::new(t(12, 0))));
    let chat = vec![
        (
            "user",
            "My favourite colour is turquoise. My favourite food is sushi.",
            "2026-03-02T08:00:00Z",
        ),
        (
            "user",
            "Forget that my favourite colour is turquoise.",
            "2026-03-02T08:40:00Z",
        ),
    ];
    let report = import(&mut engine, dir.path(), "s1", &chat);
    let forget = report
        .commands
        .iter()
        .find(|c| c.kind == CommandKind::Forget)
        .unwrap_or_else(|| panic!("a forget command: {:#?}", report.commands));
    // One memory said the colour, whether capture kept the two sentences as one episode (cut)
    // or two (one removed): the receipt counts it either way, never "forgot 0 memories".
    assert!(
        forget.outcome.starts_with("forgot 1 memory about"),
        "the receipt counts the one memory: {}",
        forget.outcome
    );
    let left = texts(&engine);
    assert!(
        left.iter()
            .any(|t| t.contains("My favourite food is sushi")),
        "the other sentence of the memory stays: {left:#?}"
    );
    assert!(
        !left.iter().any(|t| t.contains("turquoise")),
        "the statement is gone: {left:#?}"
    );
    drop(engine);
    assert_eq!(
        common::occurrences(&data, "turquoise"),
        Vec::<String>::new(),
        "no file holds the forgotten colour"
    );
}

/// A "forget what I said about …" that matches more than `FORGET_SAID_MAX` memories forgets
/// none of them unasked and says how to review them: a fresh user's "Forget what I said about
/// city." handed in over MCP had removed 300 memories. The command itself is not kept.
#[test]
fn a_forget_command_that_matches_too_many_memories_holds_them_all_back() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let mut engine = open(&data, Arc::new(FixedClock::new(t(12, 0))));
    let n = minne::consolidate::FORGET_SAID_MAX + 5;
    let notes: Vec<(String, String)> = (0..n)
        .map(|i| {
            (
                format!("I walked through the old city and found bookshop number {i}."),
                format!("2026-03-02T08:{:02}:00Z", i),
            )
        })
        .collect();
    let mut chat: Vec<(&str, &str, &str)> = notes
        .iter()
        .map(|(text, ts)| ("user", text.as_str(), ts.as_str()))
        .collect();
    chat.push((
        "user",
        "Forget what I said about the city.",
        "2026-03-02T09:00:00Z",
    ));
    let report = import(&mut engine, dir.path(), "s1", &chat);
    let forget = report
        .commands
        .iter()
        .find(|c| c.kind == CommandKind::Forget)
        .expect("the command is reported");
    assert!(
        forget.outcome.contains("none went") && forget.outcome.contains("minne forget --topic"),
        "the report says nothing went and how to review: {}",
        forget.outcome
    );
    let left = texts(&engine);
    assert_eq!(
        left.iter().filter(|t| t.contains("bookshop")).count(),
        n,
        "every memory about the city stays: {left:#?}"
    );
    assert!(
        left.iter().all(|t| !t.contains("Forget what I said")),
        "the command itself is not kept"
    );
}

/// A memory about a topic and something else loses only its clauses about the topic, and the
/// assistant's reply that said those words back loses its echo: "forget what I said about
/// coriander" must not take the sailing with it, nor leave "you hate coriander" in the
/// transcript (a fresh-user test found both).
#[test]
fn a_topic_forget_cuts_the_clause_and_its_echo_and_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let clock = Arc::new(FixedClock::new(t(12, 0)));
    let mut engine = open(&data, clock.clone());
    import(
        &mut engine,
        dir.path(),
        "s1",
        &[
            (
                "user",
                "I love sailing in the summer, and I hate coriander.",
                "2026-03-02T08:00:00Z",
            ),
            (
                "assistant",
                "Noted, you hate coriander. Shall I plan a sailing trip for July?",
                "2026-03-02T08:00:10Z",
            ),
            (
                "user",
                "My dentist appointment is on Thursday at nine.",
                "2026-03-02T08:10:00Z",
            ),
        ],
    );
    assert!(
        !common::occurrences(&data, "coriander").is_empty(),
        "stored before the forget (else the scan proves nothing)"
    );
    // A backup written before the forget (outside the data dir).
    let backup = dir.path().join("backup.json");
    engine
        .export(minne::export::ExportFormat::Json, &backup)
        .unwrap();

    let receipt = engine
        .forget(&ForgetScope::Topic {
            query: "coriander".into(),
        })
        .unwrap();
    // The backup keeps every message, with what is left of the two that lost words: a
    // fresh-user test found both dropped whole (the sailing memory lost from the backup)
    // while a trim alone left the backup untouched, coriander and all.
    assert_eq!(receipt.exports_rewritten, 1, "{receipt:?}");
    let kept = std::fs::read_to_string(&backup).unwrap();
    assert!(!kept.to_lowercase().contains("coriander"), "{kept}");
    assert!(kept.contains("I love sailing in the summer."), "{kept}");
    assert!(
        kept.contains("Shall I plan a sailing trip for July?"),
        "{kept}"
    );
    assert!(kept.contains("dentist"), "{kept}");
    // One episode held both clauses: it is trimmed, not removed.
    assert_eq!(receipt.episodes_trimmed, 1, "{receipt:?}");
    assert_eq!(receipt.episodes, 0, "nothing went whole: {receipt:?}");
    // "Noted, you hate coriander." repeats both content words of "I hate coriander."
    assert_eq!(receipt.echoes, 1, "{receipt:?}");
    let left = texts(&engine);
    assert!(
        left.iter().any(|t| t == "I love sailing in the summer."),
        "the sailing clause stays as its own memory: {left:#?}"
    );
    assert!(left.iter().any(|t| t.contains("dentist")), "{left:#?}");
    let hits = engine.recall(&RecallQuery::new("sailing")).unwrap();
    assert!(
        hits.iter().any(|h| h.episode.text.contains("sailing")),
        "the trimmed memory has a vector and is recalled"
    );
    let export = engine.export_value().unwrap().to_string();
    assert!(
        export.contains("Shall I plan a sailing trip for July?"),
        "the reply's other sentence stays: {export}"
    );
    drop(engine);
    assert_eq!(
        common::occurrences(&data, "coriander"),
        Vec::<String>::new(),
        "the clause and its echo are gone from every file under the data dir"
    );
}

/// Forgetting one memory takes the assistant's reply that only repeated it: a reply that is
/// all echo, with no memory of its own, goes whole.
#[test]
fn forgetting_a_memory_removes_a_reply_that_only_repeated_it() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let clock = Arc::new(FixedClock::new(t(12, 0)));
    let mut engine = open(&data, clock.clone());
    import(
        &mut engine,
        dir.path(),
        "s1",
        &[
            ("user", "My bank PIN is 4711.", "2026-03-02T08:00:00Z"),
            (
                "assistant",
                "Got it: your bank PIN is 4711.",
                "2026-03-02T08:00:10Z",
            ),
            (
                "user",
                "We decided to paint the kitchen green.",
                "2026-03-02T08:10:00Z",
            ),
        ],
    );
    let pin = engine
        .list_episodes(100, 0)
        .unwrap()
        .into_iter()
        .find(|e| e.text.contains("4711"))
        .expect("the PIN is a memory");
    let receipt = engine.forget(&ForgetScope::Episode(pin.id)).unwrap();
    // The user's message and the reply go whole: two messages, one echo.
    assert_eq!(receipt.messages, 2, "{receipt:?}");
    assert_eq!(receipt.echoes, 1, "{receipt:?}");
    assert!(texts(&engine).iter().any(|t| t.contains("kitchen")));
    drop(engine);
    assert_eq!(common::occurrences(&data, "4711"), Vec::<String>::new());
}

/// In an imported chat between two people, the other person's words are their own memories,
/// not the assistant's echo: forgetting what the user said leaves Melanie's reply about the
/// same thing, which shares its words (adoption, agency).
#[test]
fn a_named_other_persons_reply_is_no_echo() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let clock = Arc::new(FixedClock::new(t(12, 0)));
    let mut engine = open(&data, clock);
    let path = dir.path().join("two.json");
    let json = serde_json::json!({"sessions": [{"id": "two", "messages": [
        {"role": "user", "actor": "Caroline", "text": "I contacted an adoption agency today.",
         "timestamp": "2026-03-02T08:00:00Z"},
        {"role": "assistant", "actor": "Melanie",
         "text": "Wow, an adoption agency! I visited an adoption agency with my sister once.",
         "timestamp": "2026-03-02T08:01:00Z"}
    ]}]});
    std::fs::write(&path, json.to_string()).unwrap();
    engine
        .import(
            &path,
            &ImportOptions::new(ImportFormat::Transcript),
            &mut |_| {},
        )
        .unwrap();
    let hers = texts(&engine)
        .into_iter()
        .filter(|t| t.contains("my sister"))
        .count();
    assert_eq!(hers, 1, "Melanie's words are a memory before the forget");
    let caroline = engine
        .list_episodes(100, 0)
        .unwrap()
        .into_iter()
        .find(|e| e.text.contains("contacted"))
        .expect("Caroline's memory");
    let receipt = engine.forget(&ForgetScope::Episode(caroline.id)).unwrap();
    assert_eq!(receipt.echoes, 0, "{receipt:?}");
    assert!(
        texts(&engine).iter().any(|t| t.contains("my sister")),
        "Melanie's memory stays"
    );
}

/// A topic forget takes what the assistant said about the topic anywhere in the context, not
/// only the reply right after: a fresh user found "since coriander is out, try parsley" two
/// turns later, and the next day's "tacos without the coriander you dislike", left behind.
#[test]
fn a_topic_forget_takes_the_assistants_later_mentions_of_the_topic() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let clock = Arc::new(FixedClock::new(t(12, 0)));
    let mut engine = open(&data, clock);
    import(
        &mut engine,
        dir.path(),
        "d1",
        &[
            ("user", "I hate coriander.", "2026-03-02T08:00:00Z"),
            ("assistant", "Understood.", "2026-03-02T08:00:10Z"),
            (
                "user",
                "We decided to paint the kitchen green.",
                "2026-03-02T08:05:00Z",
            ),
            (
                "assistant",
                "Green is a good choice. By the way, since coriander is out, try parsley instead.",
                "2026-03-02T08:05:10Z",
            ),
        ],
    );
    import(
        &mut engine,
        dir.path(),
        "d2",
        &[
            (
                "user",
                "What should I cook tonight?",
                "2026-03-02T10:00:00Z",
            ),
            (
                "assistant",
                "How about tacos without the coriander you dislike? Add lime.",
                "2026-03-02T10:00:10Z",
            ),
        ],
    );
    let receipt = engine
        .forget(&ForgetScope::Topic {
            query: "coriander".into(),
        })
        .unwrap();
    // One sentence in each of the two replies that name coriander.
    assert_eq!(receipt.echoes, 2, "{receipt:?}");
    let export = engine.export_value().unwrap().to_string();
    assert!(export.contains("Green is a good choice."), "{export}");
    assert!(export.contains("Add lime."), "{export}");
    assert!(texts(&engine).iter().any(|t| t.contains("kitchen")));
    drop(engine);
    assert_eq!(
        common::occurrences(&data, "coriander"),
        Vec::<String>::new()
    );
}

/// A topic only the assistant spoke of is forgotten too: a tester's assistant repeated a PIN
/// the user never stored as a memory ("Noted: your door code is 4711"), and a topic forget of
/// "door code" found no memory of the user's about it and left the reply, code and all.
#[test]
fn a_topic_only_the_assistant_mentioned_is_cut_from_its_replies() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let clock = Arc::new(FixedClock::new(t(12, 0)));
    let mut engine = open(&data, clock);
    import(
        &mut engine,
        dir.path(),
        "d1",
        &[
            (
                "user",
                "We decided to paint the kitchen green.",
                "2026-03-02T08:05:00Z",
            ),
            (
                "assistant",
                "Green is a good choice. Noted as well: your door code is 4711.",
                "2026-03-02T08:05:10Z",
            ),
        ],
    );
    let scope = ForgetScope::Topic {
        query: "door code".into(),
    };
    let preview = engine.preview_forget(&scope).unwrap();
    assert!(
        preview.items.is_empty(),
        "no memory of the user's: {preview:?}"
    );
    assert_eq!(
        preview.replies, 1,
        "the one reply that mentions it is counted"
    );
    let receipt = engine.forget(&scope).unwrap();
    assert_eq!(
        receipt.echoes, 1,
        "its sentence about the code goes: {receipt:?}"
    );
    let export = engine.export_value().unwrap().to_string();
    assert!(export.contains("Green is a good choice."), "{export}");
    assert!(texts(&engine).iter().any(|t| t.contains("kitchen")));
    drop(engine);
    assert_eq!(common::occurrences(&data, "4711"), Vec::<String>::new());
}

/// The second attack on issue 30, finding 23: a ChatGPT file whose user lines said "Forget
/// what I said about …" silently forgot memories that came from other sources; the third
/// attack, finding 18, found that scoping by file name fails, since every ChatGPT and Claude
/// export is `conversations.json`. A command found in an imported conversation forgets what
/// that conversation held, even from another file of the same name; the same words said
/// live (over MCP) forget across the context.
#[test]
fn attack_2_finding_23_a_forget_in_an_imported_conversation_acts_only_on_that_conversation() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let clock = Arc::new(FixedClock::new(t(12, 0)));
    let mut engine = open(&data, clock);
    // Two exports, both named `conversations.json`, in two folders.
    let (first, second) = (dir.path().join("chatgpt"), dir.path().join("claude"));
    std::fs::create_dir(&first).unwrap();
    std::fs::create_dir(&second).unwrap();
    import_as(
        &mut engine,
        &first,
        "conversations",
        "earlier",
        &[
            (
                "user",
                "My ex Jonas still has my record player.",
                "2026-03-02T08:00:00Z",
            ),
            (
                "user",
                "We decided to paint the kitchen green.",
                "2026-03-02T08:05:00Z",
            ),
        ],
    );
    let report = import_as(
        &mut engine,
        &second,
        "conversations",
        "shared-export",
        &[
            (
                "user",
                "Jonas lent me his bike for the summer.",
                "2026-03-02T09:00:00Z",
            ),
            (
                "user",
                "Forget what I said about Jonas.",
                "2026-03-02T09:10:00Z",
            ),
        ],
    );
    let forget = report
        .commands
        .iter()
        .find(|c| c.kind == CommandKind::Forget)
        .unwrap_or_else(|| panic!("the import reports its forget: {:#?}", report.commands));
    assert_eq!(
        forget.removed, 2,
        "the file's own memory of Jonas and the command went: {forget:#?}"
    );
    let left = texts(&engine);
    assert!(
        left.iter().any(|t| t.contains("record player")),
        "the earlier file's Jonas memory stays: {left:#?}"
    );
    assert!(!left.iter().any(|t| t.contains("bike")), "{left:#?}");

    // Said live, over MCP, the command reaches every memory of the context.
    let live = engine
        .import_sessions(
            &[minne::import::NewSession {
                key: "mcp-live".into(),
                messages: vec![minne::import::NewMessage {
                    external_id: None,
                    role: minne::model::Role::User,
                    actor: "user".into(),
                    text: "Forget what I said about Jonas.".into(),
                    sent_at: DateTime::parse_from_rfc3339("2026-03-02T11:00:00Z").unwrap(),
                }],
            }],
            minne::import::LIVE_MCP,
            &mut |_| {},
        )
        .unwrap();
    assert!(
        live.commands.iter().any(|c| c.kind == CommandKind::Forget),
        "{:#?}",
        live.commands
    );
    let left = texts(&engine);
    assert!(!left.iter().any(|t| t.contains("Jonas")), "{left:#?}");
    assert!(left.iter().any(|t| t.contains("kitchen")), "{left:#?}");
}
