//! Consolidation's optional LLM path (issue 5) against a real HTTP server that speaks the
//! OpenAI chat-completions protocol, started by the test on loopback, with real stores and the
//! real embedding model: verified facts land as `inferred` with their sources, invented,
//! assistant-attributed and other people's facts are dropped, an abstractive summary is kept
//! only when every quote is found, a server error or a timeout falls back to the rules and is
//! reported, and a second run asks nothing and changes nothing.
//!
//! Each expected store is worked out independently: a second store with the same messages and
//! no LLM gives the rule path's facts and extractive summary, and the LLM's effect is asserted
//! as the difference.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use chrono::{DateTime, TimeZone, Utc};
use minne::clock::FixedClock;
use minne::consolidate::{Confidence, FactStatus};
use minne::embed::Embedder;
use minne::forget::ForgetScope;
use minne::import::{NewMessage, NewSession};
use minne::llm::{LlmConfig, OpenAiChat};
use minne::model::{ActKind, Role};
use minne::{ContextName, Engine};
use serde_json::{Value, json};

fn embedder() -> Arc<dyn Embedder> {
    static E: OnceLock<Arc<dyn Embedder>> = OnceLock::new();
    E.get_or_init(common::real_embedder).clone()
}

/// What the test server does with one request.
enum Answer {
    /// 200 with this assistant content.
    Content(String),
    /// This HTTP status, no content.
    Status(u16),
    /// Waits this long, then answers `{"facts": []}` (too late for the client's timeout).
    Sleep(Duration),
}

/// Which step of Minne asked, told by its system prompt: capture's extractor, consolidation's
/// fact reader or its summariser.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Capture,
    Facts,
    Summary,
}

fn step(system: &str) -> Step {
    if system.contains("episodic memories") {
        Step::Capture
    } else if system.contains("summarise one chat session") {
        Step::Summary
    } else {
        assert!(
            system.contains("facts about the USER"),
            "an unknown request: {system}"
        );
        Step::Facts
    }
}

type Handler = dyn Fn(Step, &str) -> Answer + Send + Sync;

/// Serves requests on loopback, one thread per connection, answering each with `handler`
/// (given the step and the user message). Returns the base URL and the log of steps asked.
fn serve(handler: Arc<Handler>) -> (String, Arc<Mutex<Vec<Step>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    let log = Arc::new(Mutex::new(Vec::new()));
    let seen = log.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let handler = handler.clone();
            let seen = seen.clone();
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut length = 0;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                        break;
                    }
                    if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                        length = v.trim().parse().unwrap_or(0);
                    }
                }
                let mut body = vec![0; length];
                let _ = reader.read_exact(&mut body);
                let request: Value = serde_json::from_slice(&body).unwrap_or_default();
                assert_eq!(request["model"], "test-model");
                let system = request["messages"][0]["content"].as_str().unwrap_or("");
                let user = request["messages"][1]["content"].as_str().unwrap_or("");
                let step = step(system);
                seen.lock().unwrap().push(step);
                let (status, content) = match handler(step, user) {
                    Answer::Content(c) => (200, c),
                    Answer::Status(s) => (s, String::new()),
                    Answer::Sleep(d) => {
                        std::thread::sleep(d);
                        (200, "{\"facts\": []}".to_string())
                    }
                };
                let reply = if status == 200 {
                    json!({"choices": [{"message": {"role": "assistant", "content": content}}]})
                        .to_string()
                } else {
                    json!({"error": {"message": "the model is overloaded"}}).to_string()
                };
                let _ = write!(
                    stream,
                    "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{reply}",
                    reply.len()
                );
            });
        }
    });
    (url, log)
}

fn at() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 4, 16, 50, 0).unwrap()
}

/// An engine on `dir`, the clock five minutes after the messages; with an LLM at `url` whose
/// requests time out after `timeout`.
fn engine(dir: &std::path::Path, url: Option<&str>, timeout: Duration) -> Engine {
    let clock = Arc::new(FixedClock::new(at() + chrono::Duration::minutes(5)));
    let mut engine = Engine::open(
        dir,
        &ContextName::new("personal").unwrap(),
        embedder(),
        clock,
    )
    .unwrap();
    if let Some(url) = url {
        let mut config = LlmConfig::new(url, "test-model");
        config.timeout = timeout;
        engine.set_llm(Some(Arc::new(OpenAiChat::new(config))));
    }
    engine
}

fn session(key: &str, turns: &[(Role, &str)]) -> NewSession {
    NewSession {
        key: key.into(),
        messages: turns
            .iter()
            .enumerate()
            .map(|(i, (role, text))| NewMessage {
                external_id: Some(format!("{key}-m{i}")),
                role: *role,
                actor: role.as_str().to_string(),
                text: (*text).into(),
                sent_at: (at() + chrono::Duration::seconds(10 * i as i64)).fixed_offset(),
            })
            .collect(),
    }
}

const TALLINN: &str = "I moved to Tallinn last spring.";
const WELCOME: &str =
    "I will plan your reminders for the evening, since you sound like a born night owl.";
const FIGMA: &str =
    "Most evenings I sketch furniture in Figma until midnight. Oskar hates football, by the way.";

fn facts_session() -> NewSession {
    session(
        "llm-facts",
        &[
            (Role::User, TALLINN),
            (Role::Assistant, WELCOME),
            (Role::User, FIGMA),
        ],
    )
}

const LAUNCH: &str = "No, the launch is Friday, not next week. I told the team already.";
const ACK: &str = "Got it, the launch is on Friday.";
const PRESS: &str = "I will send the press kit to Sara tomorrow.";

fn launch_session() -> NewSession {
    session(
        "llm-launch",
        &[
            (Role::User, LAUNCH),
            (Role::Assistant, ACK),
            (Role::User, PRESS),
        ],
    )
}

/// The number the transcript gives the item holding `needle` (`[3] user: …`).
fn item(transcript: &str, needle: &str) -> usize {
    let line = transcript
        .lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no item holds `{needle}` in\n{transcript}"));
    line[1..line.find(']').unwrap()].parse().unwrap()
}

/// The fact reader's reply for [`facts_session`]: one fact the rules also read, one they do
/// not, and four that must be dropped.
fn facts_reply(transcript: &str) -> String {
    let mut facts = Vec::new();
    if transcript.contains("Tallinn last spring") {
        let own = item(transcript, "I moved to Tallinn");
        facts.push(json!({"item": own, "attribute": "location", "value": "Tallinn", "quote": "I moved to Tallinn"}));
        // Invented: the user never said Riga.
        facts.push(json!({"item": own, "attribute": "location", "value": "Riga", "quote": "I moved to Riga"}));
        // The assistant's words, named as the assistant's item and as the user's.
        let welcome = item(transcript, "born night owl");
        facts.push(json!({"item": welcome, "attribute": "statement", "value": "night owl", "quote": "you sound like a born night owl"}));
        facts.push(json!({"item": own, "attribute": "statement", "value": "night owl", "quote": "a born night owl"}));
    }
    if transcript.contains("Figma") {
        let figma = item(transcript, "Figma");
        facts.push(json!({"item": figma, "attribute": "tool", "value": "Figma", "quote": "I sketch furniture in Figma"}));
        // What the user reports about another person is never the user's trait.
        let oskar = item(transcript, "Oskar hates football");
        facts.push(json!({"item": oskar, "attribute": "preference", "object": "football", "value": "dislikes", "quote": "Oskar hates football"}));
    }
    format!("```json\n{}\n```", json!({"facts": facts}))
}

const GOOD_SUMMARY: &str =
    "The user moved the launch to Friday and will send the press kit to Sara.";

/// Capture is answered with broken JSON, so it uses its rules exactly as the control store
/// does; consolidation's steps get `facts` and `summary`.
fn handler(
    facts: impl Fn(&str) -> String + Send + Sync + 'static,
    summary: impl Fn(&str) -> String + Send + Sync + 'static,
) -> Arc<Handler> {
    Arc::new(move |step, user| match step {
        Step::Capture => Answer::Content("not json".into()),
        Step::Facts => Answer::Content(facts(user)),
        Step::Summary => Answer::Content(summary(user)),
    })
}

fn summary_reply(quotes: &[&str], summary: &str) -> String {
    json!({"topic": "Launch moved to Friday", "summary": summary, "quotes": quotes}).to_string()
}

fn import(engine: &mut Engine, sessions: &[NewSession]) {
    engine
        .import_sessions(sessions, "test", &mut |_| {})
        .unwrap();
}

/// (attribute, value, confidence, status, support) of every fact, sorted.
fn fact_rows(engine: &Engine) -> Vec<(String, String, Confidence, FactStatus, usize)> {
    let mut rows: Vec<_> = engine
        .facts(true)
        .unwrap()
        .into_iter()
        .map(|f| (f.attribute, f.value, f.confidence, f.status, f.support))
        .collect();
    rows.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    rows
}

fn control(sessions: &[NewSession]) -> (common::TempDataDir, Engine) {
    let dir = common::tempdir();
    let mut e = engine(dir.path(), None, Duration::from_secs(5));
    import(&mut e, sessions);
    (dir, e)
}

#[test]
fn verified_facts_land_inferred_with_their_source_and_false_ones_are_dropped() {
    let (url, log) = serve(handler(facts_reply, |_| {
        summary_reply(&["I moved to Tallinn"], "The user moved to Tallinn.")
    }));
    let dir = common::tempdir();
    let mut with_llm = engine(dir.path(), Some(&url), Duration::from_secs(5));
    import(&mut with_llm, &[facts_session()]);
    let (_c, rules_only) = control(&[facts_session()]);

    let rules = fact_rows(&rules_only);
    assert!(
        rules.iter().any(|r| r.0 == "location" && r.1 == "Tallinn"),
        "the rules read the move: {rules:?}"
    );
    assert!(
        !rules.iter().any(|r| r.1.contains("Figma")),
        "the rules do not read the sketching habit, so only the LLM can give it: {rules:?}"
    );
    // Expected: the rule path's facts unchanged (the LLM's agreeing Tallinn fact adds no second
    // source: it is the same episode) plus one inferred candidate for the tool.
    let mut expected = rules.clone();
    expected.push((
        "tool".into(),
        "Figma".into(),
        Confidence::Inferred,
        FactStatus::Candidate,
        1,
    ));
    expected.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    assert_eq!(fact_rows(&with_llm), expected);

    let figma = with_llm
        .facts(true)
        .unwrap()
        .into_iter()
        .find(|f| f.value == "Figma")
        .unwrap();
    let source = &figma.sources[0];
    assert!(
        source.quote.contains("I sketch furniture in Figma"),
        "the source is the user's episode that holds the quote: {:?}",
        source.quote
    );
    assert_eq!(source.message_external_id.as_deref(), Some("llm-facts-m2"));
    assert_eq!(
        figma.valid_from,
        at() + chrono::Duration::seconds(20),
        "it holds from when the user said it"
    );
    let review = with_llm.review_queue(false).unwrap();
    let entry = review
        .iter()
        .find(|r| r.fact.as_ref().is_some_and(|f| f.id == figma.id))
        .expect("the inferred fact waits in the review queue");
    assert!(
        entry.reason.contains("llm:test-model"),
        "the review entry says the LLM read it: {}",
        entry.reason
    );
    assert!(
        !with_llm
            .profile()
            .unwrap()
            .facts
            .iter()
            .any(|f| f.value == "Figma"),
        "an inferred fact never shows in the profile"
    );

    let llm = with_llm.last_consolidation_llm().unwrap().unwrap();
    assert_eq!(llm.model, "llm:test-model");
    assert_eq!(llm.facts_proposed, 6);
    assert_eq!(llm.facts_stated_by_rules, 1, "Tallinn");
    assert_eq!(llm.facts_inferred, 1, "Figma");
    assert_eq!(llm.quotes_not_found, 1, "Riga");
    assert_eq!(
        llm.not_the_users_words, 3,
        "two night-owl quotes of the assistant and Oskar's dislike"
    );
    assert!(llm.errors.is_empty(), "{:?}", llm.errors);
    let steps = log.lock().unwrap().clone();
    assert_eq!(
        steps.iter().filter(|s| **s == Step::Facts).count(),
        1,
        "one fact request for the session's three episodes"
    );
}

#[test]
fn an_abstractive_summary_is_kept_only_when_its_quotes_are_found() {
    let (_c, rules_only) = control(&[launch_session()]);
    let extractive = rules_only.session_summaries(5).unwrap().remove(0);
    assert_eq!(extractive.method, "extractive");

    // Verified: both quotes are in the session's messages (the second across a line of its
    // own words, whole).
    let good = summary_reply(
        &[
            "the launch is Friday, not next week",
            "I will send the press kit to Sara",
        ],
        GOOD_SUMMARY,
    );
    // Invented: nobody said the launch was cancelled.
    let fake = summary_reply(&["the launch is cancelled"], GOOD_SUMMARY);
    // The listed quote is real, but the summary puts invented words in quotation marks.
    let inline = summary_reply(
        &["the launch is Friday, not next week"],
        "The user said “we are cancelling the launch” and moved it.",
    );
    // The quotes are real, but the summary adds a city and a date nobody said.
    let invented = summary_reply(
        &[
            "the launch is Friday, not next week",
            "I will send the press kit to Sara",
        ],
        "The user moved the launch to Friday and will fly to Berlin on 12 May.",
    );
    for (reply, method) in [
        (good, "abstractive (llm:test-model)"),
        (fake, "extractive (llm quote not found)"),
        (inline, "extractive (llm quote not found)"),
        (invented, "extractive (llm summary says what was not said)"),
    ] {
        let (url, _log) = serve(handler(
            |_| "{\"facts\": []}".into(),
            move |_| reply.clone(),
        ));
        let dir = common::tempdir();
        let mut with_llm = engine(dir.path(), Some(&url), Duration::from_secs(5));
        import(&mut with_llm, &[launch_session()]);
        let got = with_llm.session_summaries(5).unwrap().remove(0);
        assert_eq!(got.method, method);
        if method.starts_with("abstractive") {
            assert_eq!(got.summary, GOOD_SUMMARY);
            assert_eq!(got.topic, "Launch moved to Friday");
            // It covers every episode of the messages the model read (those with at least
            // one non-routine episode), so forgetting any of them removes it.
            let episodes = with_llm.list_episodes(50, 0).unwrap();
            let read: Vec<_> = episodes
                .iter()
                .filter(|e| e.kind != ActKind::Routine)
                .map(|e| e.message_id)
                .collect();
            let mut covered: Vec<_> = episodes
                .iter()
                .filter(|e| read.contains(&e.message_id))
                .map(|e| e.id)
                .collect();
            covered.sort();
            assert_eq!(got.episode_ids, covered);
            with_llm
                .forget(&ForgetScope::Episode(got.episode_ids[0]))
                .unwrap();
            assert!(
                with_llm
                    .session_summaries(5)
                    .unwrap()
                    .iter()
                    .all(|s| s.summary != GOOD_SUMMARY),
                "forgetting an episode it covers removes the abstractive summary"
            );
        } else {
            assert_eq!(
                (got.topic.as_str(), got.summary.as_str(), &got.episode_ids),
                (
                    extractive.topic.as_str(),
                    extractive.summary.as_str(),
                    &extractive.episode_ids
                ),
                "the rejected summary leaves exactly the extractive one"
            );
            let llm = with_llm.last_consolidation_llm().unwrap().unwrap();
            assert_eq!(llm.summaries_rejected, 1);
        }
    }
}

/// Runs the facts and launch sessions against an LLM that fails with `answer`, and checks the
/// store is exactly the rule path's and the failure is reported.
fn falls_back(answer: fn() -> Answer, timeout: Duration, expect_in_error: &str) {
    let handler: Arc<Handler> = Arc::new(move |step, _| match step {
        Step::Capture => Answer::Content("not json".into()),
        _ => answer(),
    });
    let (url, log) = serve(handler);
    let sessions = [facts_session(), launch_session()];
    let dir = common::tempdir();
    let mut with_llm = engine(dir.path(), Some(&url), timeout);
    import(&mut with_llm, &sessions);
    let (_c, rules_only) = control(&sessions);
    assert_eq!(
        fact_rows(&with_llm),
        fact_rows(&rules_only),
        "the rules stood in: the same facts as without an LLM"
    );
    let summaries = with_llm.session_summaries(5).unwrap();
    assert_eq!(summaries.len(), 2);
    for s in &summaries {
        assert_eq!(
            s.method, "extractive (llm failed)",
            "the record says why it is extractive"
        );
    }
    let llm = with_llm.last_consolidation_llm().unwrap().unwrap();
    assert_eq!(
        llm.errors.len(),
        1,
        "one failure, then the LLM is left alone for the run: {:?}",
        llm.errors
    );
    assert!(
        llm.errors[0].contains(expect_in_error) && llm.errors[0].contains("the rules stood in"),
        "{:?}",
        llm.errors
    );
    let steps = log.lock().unwrap().clone();
    assert_eq!(
        steps.iter().filter(|s| **s != Step::Capture).count(),
        1,
        "no second request after the first failed: {steps:?}"
    );
}

#[test]
fn a_server_error_falls_back_to_the_rules_and_is_reported() {
    falls_back(|| Answer::Status(500), Duration::from_secs(5), "500");
}

#[test]
fn a_timeout_falls_back_to_the_rules_and_is_reported() {
    falls_back(
        || Answer::Sleep(Duration::from_secs(3)),
        Duration::from_secs(1),
        "facts for",
    );
}

#[test]
fn running_twice_asks_nothing_and_changes_nothing() {
    let good = summary_reply(&["the launch is Friday, not next week"], GOOD_SUMMARY);
    let (url, log) = serve(handler(facts_reply, move |_| good.clone()));
    let dir = common::tempdir();
    let sessions = [facts_session(), launch_session()];
    let mut engine_a = engine(dir.path(), Some(&url), Duration::from_secs(5));
    import(&mut engine_a, &sessions);
    let snapshot = |e: &Engine| {
        json!({
            "facts": serde_json::to_value(e.facts(true).unwrap()).unwrap(),
            "review": serde_json::to_value(e.review_queue(true).unwrap()).unwrap(),
            "summaries": serde_json::to_value(e.session_summaries(10).unwrap()).unwrap(),
        })
    };
    let before = snapshot(&engine_a);
    let asked = log.lock().unwrap().len();
    assert!(
        before["summaries"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["method"] == "abstractive (llm:test-model)"),
        "the first run used the LLM: {before}"
    );

    let report = engine_a.consolidate().unwrap();
    assert_eq!(report.episodes_read, 0);
    assert_eq!(report.summaries_written, 0);
    assert_eq!(report.llm.as_ref().unwrap().requests, 0, "nothing to ask");
    // The same import again: every message is a duplicate, nothing is captured or asked.
    import(&mut engine_a, &sessions);
    drop(engine_a);
    let mut engine_b = engine(dir.path(), Some(&url), Duration::from_secs(5));
    engine_b.consolidate().unwrap();
    assert_eq!(
        log.lock().unwrap().len(),
        asked,
        "no request after the first run"
    );
    assert_eq!(snapshot(&engine_b), before, "and no record changed");
}
