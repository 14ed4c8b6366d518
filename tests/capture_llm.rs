//! The optional LLM extractor against a real HTTP server that speaks the OpenAI
//! chat-completions protocol, started by the test on loopback: verified quotes are stored,
//! invented ones dropped and counted, and malformed replies or a dead endpoint fall back to the
//! rules without losing a message.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use chrono::{DateTime, TimeZone, Utc};
use minne::clock::FixedClock;
use minne::import::{NewMessage, NewSession};
use minne::llm::{LlmConfig, OpenAiChat};
use minne::model::{ActKind, Role};
use minne::{ContextName, Engine};

const SEED_EXAMPLE: &str = "No, the launch is Friday, not next week. I told you. Also grabbed coffee with Sara this morning.";

/// Serves `replies[i]` as the assistant content of the i-th request (the last one repeats).
/// Returns the base URL and a request counter.
fn serve(replies: Vec<String>) -> (String, Arc<AtomicUsize>) {
    let (url, count, _) = serve_recording(replies);
    (url, count)
}

/// [`serve`], also keeping every request body it was sent.
fn serve_recording(
    replies: Vec<String>,
) -> (String, Arc<AtomicUsize>, Arc<std::sync::Mutex<Vec<String>>>) {
    let bodies = Arc::new(std::sync::Mutex::new(Vec::new()));
    let kept = bodies.clone();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    let count = Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
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
            kept.lock()
                .unwrap()
                .push(String::from_utf8_lossy(&body).into_owned());
            let request: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
            assert_eq!(
                request["model"], "test-model",
                "the configured model name is sent"
            );
            // Consolidation asks the same endpoint (facts, summaries): count capture's calls.
            let capture = request["messages"][0]["content"]
                .as_str()
                .is_some_and(|s| s.contains("episodic memories"));
            let i = if capture {
                seen.fetch_add(1, Ordering::SeqCst)
            } else {
                seen.load(Ordering::SeqCst)
            };
            let content = replies[i.min(replies.len() - 1)].clone();
            let reply = serde_json::json!({"choices": [{"message": {"role": "assistant", "content": content}}]});
            let reply = reply.to_string();
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{reply}",
                reply.len()
            );
        }
    });
    (url, count, bodies)
}

fn at() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 4, 16, 50, 0).unwrap()
}

fn engine(dir: &std::path::Path, url: Option<&str>) -> Engine {
    let clock = Arc::new(FixedClock::new(at()));
    let mut engine = Engine::open(
        dir,
        &ContextName::new("personal").unwrap(),
        common::real_embedder(),
        clock,
    )
    .unwrap();
    if let Some(url) = url {
        let mut config = LlmConfig::new(url, "test-model");
        config.timeout = Duration::from_secs(5);
        engine.set_llm(Some(Arc::new(OpenAiChat::new(config))));
    }
    engine
}

fn seed_session() -> NewSession {
    NewSession {
        key: "llm-test".into(),
        messages: vec![NewMessage {
            external_id: Some("m1".into()),
            role: Role::User,
            actor: "user".into(),
            text: SEED_EXAMPLE.into(),
            sent_at: at().fixed_offset(),
        }],
    }
}

#[test]
fn verified_quotes_are_kept_and_an_invented_one_is_dropped_and_counted() {
    let reply = serde_json::json!({"episodes": [
        {"message": 1, "quote": "the launch is Friday, not next week", "kind": "correction"},
        {"message": 1, "quote": "grabbed coffee with Sara this morning", "kind": "observation", "participants": ["Sara"]},
        // Not in the message: the launch was never said to be cancelled.
        {"message": 1, "quote": "the launch is cancelled", "kind": "decision"}
    ]})
    .to_string();
    let (url, requests) = serve(vec![format!("```json\n{reply}\n```")]);
    let dir = common::tempdir();
    let mut engine = engine(dir.path(), Some(&url));
    engine
        .import_sessions(&[seed_session()], "test", &mut |_| {})
        .unwrap();
    assert_eq!(
        requests.load(Ordering::SeqCst),
        1,
        "one call for the one window"
    );

    let episodes = engine.list_episodes(10, 0).unwrap();
    // Capture writes each resolved date after its time words ("Friday [2026-03-06]"); the
    // quote itself must be the message's words, so the labels are set aside to compare.
    let unlabelled: Vec<String> = episodes
        .iter()
        .map(|e| without_date_labels(&e.text))
        .collect();
    let mut kinds: Vec<(ActKind, &str)> = episodes
        .iter()
        .zip(&unlabelled)
        .map(|(e, t)| (e.kind, t.as_str()))
        .collect();
    kinds.sort();
    assert_eq!(
        kinds,
        [
            (ActKind::Correction, "the launch is Friday, not next week"),
            (
                ActKind::Observation,
                "grabbed coffee with Sara this morning"
            ),
        ],
        "the two quotes found in the message are stored verbatim; the invented one is not"
    );
    let coffee = episodes
        .iter()
        .find(|e| e.kind == ActKind::Observation)
        .unwrap();
    assert_eq!(coffee.participants, ["Sara"]);
    let status = engine.capture_status(1).unwrap();
    let job = &status.recent_jobs[0];
    assert_eq!(
        job.suspected_hallucinations, 1,
        "the invented quote is counted as a suspected hallucination"
    );
    assert_eq!(job.extractor, "llm:test-model");
    assert_eq!(job.status, "done");
}

#[test]
fn malformed_json_falls_back_to_the_rules() {
    let (url, requests) = serve(vec!["{\"episodes\": [{\"message\": 1, \"quote\": ".into()]);
    let dir = common::tempdir();
    let mut with_llm = engine(dir.path(), Some(&url));
    with_llm
        .import_sessions(&[seed_session()], "test", &mut |_| {})
        .unwrap();
    assert_eq!(requests.load(Ordering::SeqCst), 1);

    let rules_dir = common::tempdir();
    let mut rules_only = engine(rules_dir.path(), None);
    rules_only
        .import_sessions(&[seed_session()], "test", &mut |_| {})
        .unwrap();

    let texts = |e: &Engine| {
        let mut v: Vec<(ActKind, String)> = e
            .list_episodes(10, 0)
            .unwrap()
            .into_iter()
            .map(|e| (e.kind, e.text))
            .collect();
        v.sort();
        v
    };
    let got = texts(&with_llm);
    assert!(
        !got.is_empty(),
        "a broken reply loses nothing: the rules still capture the message"
    );
    assert_eq!(
        got,
        texts(&rules_only),
        "the fallback is exactly the rule-based capture"
    );
    assert_eq!(
        with_llm.capture_status(1).unwrap().recent_jobs[0].status,
        "done"
    );
}

#[test]
fn an_unreachable_endpoint_falls_back_without_blocking() {
    // A port that was free a moment ago: nothing listens there.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = common::tempdir();
    let mut engine = engine(dir.path(), Some(&format!("http://127.0.0.1:{port}/v1")));
    let report = engine
        .import_sessions(&[seed_session()], "test", &mut |_| {})
        .unwrap();
    assert!(
        report.episodes_added >= 1,
        "capture falls back to the rules and still stores the message's episodes"
    );
    let status = engine.capture_status(1).unwrap();
    assert_eq!(status.messages_pending, 0, "no message is left waiting");
    let note = status.recent_jobs[0].error.as_deref().unwrap_or_default();
    assert!(
        note.contains("LLM failed for 1 windows"),
        "the job says the rules stood in: {note:?}"
    );
}

/// `text` without capture's resolved-date labels (" [2026-03-06]", " [2027-03-01 – 2027-03-31]").
fn without_date_labels(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find(" [") {
        let after = &rest[open + 2..];
        match after.find(']') {
            Some(close) if after[..close].starts_with(|c: char| c.is_ascii_digit()) => {
                out.push_str(&rest[..open]);
                rest = &after[close + 1..];
            }
            _ => {
                out.push_str(&rest[..open + 2]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A message the user asked not to be kept never reaches the model (a fresh user's fake
/// endpoint received "PIN is 4821"), and a "remember that …" the model returned nothing for
/// is still captured, by the rules (the same user's saves were lost to `{"episodes": []}`).
#[test]
fn a_withheld_message_never_reaches_the_model_and_a_save_survives_an_empty_reply() {
    let (url, _, bodies) = serve_recording(vec![r#"{"episodes": []}"#.into()]);
    let dir = common::tempdir();
    let mut engine = engine(dir.path(), Some(&url));
    let message = |id: &str, text: &str| NewMessage {
        external_id: Some(id.into()),
        role: Role::User,
        actor: "user".into(),
        text: text.into(),
        sent_at: at().fixed_offset(),
    };
    engine
        .import_sessions(
            &[NewSession {
                key: "llm-private".into(),
                messages: vec![
                    message("m1", "Don't remember this: my PIN is 4821."),
                    message("m2", "Remember that my locker number is 118."),
                ],
            }],
            "test",
            &mut |_| {},
        )
        .unwrap();
    let sent = bodies.lock().unwrap().join("\n");
    assert!(!sent.is_empty(), "the model was asked");
    assert!(
        !sent.contains("4821"),
        "the withheld words were sent: {sent}"
    );
    assert!(sent.contains("118"), "the other message was sent as it is");
    let texts: Vec<String> = engine
        .list_episodes(10, 0)
        .unwrap()
        .into_iter()
        .map(|e| e.text)
        .collect();
    assert!(
        texts.iter().any(|t| t.contains("locker number is 118")),
        "the explicit save is a memory: {texts:?}"
    );
    assert!(texts.iter().all(|t| !t.contains("4821")), "{texts:?}");
}
