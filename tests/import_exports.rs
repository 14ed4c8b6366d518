//! Real chat exports (`../shared/data/exports`): ChatGPT and Claude `conversations.json`
//! imported with auto-detection into a real store with the real model; bad input refused or
//! cleaned without losing what was stored. Tests on shared data skip when it is absent.
//!
//! The expected counts were worked out outside Minne with jq over the files (walk from
//! `current_node` up through `parent`, keep `user`/`assistant` messages with recipient `all`,
//! `content_type` `text` and some non-blank part):
//!
//! ```sh
//! jq '.[] | . as $c | [.current_node | recurse($c.mapping[.].parent // empty)] | reverse
//!     | map($c.mapping[.].message | select(. != null)
//!       | select(.author.role=="user" or .author.role=="assistant")
//!       | select((.recipient // "all")=="all") | select(.content.content_type=="text")
//!       | select(([.content.parts[] | strings] | join("") | gsub("\\s";"")) != ""))
//!     | length' chatgpt-real-export.json chatgpt-branching.json     # → 20, 4
//! ```
//!
//! and the times with Python's `datetime.fromtimestamp(t, timezone.utc)`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

mod common;

use std::path::Path;
use std::sync::Arc;

use chrono::{TimeZone, Utc};
use minne::clock::FixedClock;
use minne::import::{ImportFormat, ImportOptions, parse_str};
use minne::model::Role;
use minne::{ContextName, Engine};

fn engine(dir: &Path) -> Engine {
    let clock = Arc::new(FixedClock::new(
        Utc.with_ymd_and_hms(2026, 11, 29, 12, 0, 0).unwrap(),
    ));
    let context = ContextName::new("personal").unwrap();
    Engine::open(dir, &context, common::real_embedder(), clock).unwrap()
}

fn auto() -> ImportOptions {
    ImportOptions::new(ImportFormat::Auto)
}

/// Every stored message as (session key, external id, role, text, timestamp), from the
/// engine's own export.
fn stored(engine: &Engine) -> Vec<(String, String, String, String, String)> {
    let export = engine.export_value().unwrap();
    let mut out = Vec::new();
    for s in export["sessions"].as_array().unwrap() {
        for m in s["messages"].as_array().unwrap() {
            let field = |k: &str| m[k].as_str().unwrap().to_string();
            out.push((
                s["id"].as_str().unwrap().to_string(),
                field("id"),
                field("role"),
                field("text"),
                field("timestamp"),
            ));
        }
    }
    out
}

#[test]
fn chatgpt_real_export_keeps_the_visible_conversation() {
    let Some(path) = common::shared_data("exports/chatgpt-real-export.json") else {
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap();
    let (format, sessions) = parse_str(&text, &auto()).unwrap();
    assert_eq!(
        format,
        ImportFormat::Chatgpt,
        "a list with `mapping` is ChatGPT"
    );
    assert_eq!(sessions.len(), 1, "the file holds one conversation");
    let s = &sessions[0];
    assert_eq!(s.key, "chatgpt:966da5c4-5bb7-4e4d-ab6d-a7316b96266e");
    // jq (module doc): 20 on the branch, 8 user and 12 assistant; the 11 code cells sent to
    // python, the 11 tool outputs and the 2 empty system prompts are left out.
    assert_eq!(s.messages.len(), 20);
    let users = s.messages.iter().filter(|m| m.role == Role::User).count();
    assert_eq!((users, s.messages.len() - users), (8, 12));
    assert!(
        s.messages
            .iter()
            .all(|m| !m.text.contains("<<ImageDisplayed>>") && !m.text.contains("import numpy")),
        "tool output and code cells are not conversation"
    );
    let first = &s.messages[0];
    assert!(
        first
            .text
            .starts_with("given two random independent variables")
    );
    // create_time 1695326273.969279 → 2023-09-21T19:57:53.969279Z (Python datetime).
    assert_eq!(
        first.sent_at.to_rfc3339(),
        "2023-09-21T19:57:53.969279+00:00"
    );
    // The last message on the branch is current_node 875ad56f, create_time 1695370984.654074.
    let last = s.messages.last().unwrap();
    assert_eq!(
        last.external_id.as_deref(),
        Some("875ad56f-8b75-4e69-9fdc-f96acf212f9c")
    );
    assert_eq!(
        last.sent_at.to_rfc3339(),
        "2023-09-22T08:23:04.654074+00:00"
    );
    assert!(
        s.messages.windows(2).all(|w| w[0].sent_at <= w[1].sent_at),
        "root to leaf is oldest to newest"
    );
}

#[test]
fn chatgpt_branching_imports_only_the_current_branch() {
    let Some(path) = common::shared_data("exports/chatgpt-branching.json") else {
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap();
    let (_, sessions) = parse_str(&text, &ImportOptions::new(ImportFormat::Chatgpt)).unwrap();
    let m = &sessions[0].messages;
    // current_node msg-6 → msg-4 → msg-3 → msg-2 → msg-1 (an empty system prompt, left out).
    let ids: Vec<&str> = m.iter().filter_map(|m| m.external_id.as_deref()).collect();
    assert_eq!(ids, ["msg-2", "msg-3", "msg-4", "msg-6"]);
    assert!(
        m.iter().all(|m| !m.text.contains("Python instead")),
        "msg-5 is the abandoned edit and must not be imported"
    );
    let roles: Vec<Role> = m.iter().map(|m| m.role).collect();
    assert_eq!(
        roles,
        [Role::User, Role::Assistant, Role::User, Role::Assistant]
    );
    // msg-2's create_time 1704067300 is 2024-01-01T00:01:40Z.
    assert_eq!(m[0].sent_at.to_rfc3339(), "2024-01-01T00:01:40+00:00");
}

#[test]
fn claude_sample_keeps_text_blocks_roles_and_times() {
    let Some(path) = common::shared_data("exports/claude-sample.json") else {
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap();
    let (format, sessions) = parse_str(&text, &auto()).unwrap();
    assert_eq!(format, ImportFormat::Claude, "`chat_messages` is Claude");
    // jq '.[] | .chat_messages | length': 4, 2, 2; each conversation alternates human first.
    let counts: Vec<usize> = sessions.iter().map(|s| s.messages.len()).collect();
    assert_eq!(counts, [4, 2, 2]);
    assert_eq!(
        sessions[0].key,
        "claude:11111111-1111-1111-1111-111111111111"
    );
    for s in &sessions {
        for (i, m) in s.messages.iter().enumerate() {
            let want = if i % 2 == 0 {
                Role::User
            } else {
                Role::Assistant
            };
            assert_eq!(m.role, want, "human → user, assistant → assistant");
        }
    }
    let m2 = &sessions[0].messages[1];
    assert_eq!(m2.external_id.as_deref(), Some("m2"));
    assert!(
        m2.text
            .starts_with("Here's a self-contained `ProductTable` component.")
    );
    assert!(
        !m2.text.contains("The user wants a sortable table"),
        "the thinking block is not what was said"
    );
    assert!(
        !m2.text.contains("useMemo(() =>"),
        "the tool_use input (the artifact's code) is not what was said"
    );
    assert_eq!(m2.sent_at.to_rfc3339(), "2026-05-28T09:12:30+00:00");
}

/// The three files imported into one real store with auto-detection: counts as above, roles
/// and times as stored, and a second import of each adds nothing.
#[test]
fn exports_import_once_with_auto_detection() {
    let paths: Vec<_> = [
        "exports/chatgpt-real-export.json",
        "exports/chatgpt-branching.json",
        "exports/claude-sample.json",
    ]
    .iter()
    .filter_map(|p| common::shared_data(p))
    .collect();
    if paths.len() < 3 {
        return;
    }
    let dir = common::tempdir();
    let mut engine = engine(dir.path());
    // 20 + 4 + 8 messages, 1 + 1 + 3 sessions (the tests above).
    let expected = [(1, 20), (1, 4), (3, 8)];
    for (path, (sessions, messages)) in paths.iter().zip(expected) {
        let report = engine.import(path, &auto(), &mut |_| {}).unwrap();
        assert_eq!(
            (report.sessions_added, report.messages_added),
            (sessions, messages),
            "a fresh store keeps every visible message of {}",
            path.display()
        );
    }
    let before = stored(&engine);
    assert_eq!(before.len(), 32);
    for path in &paths {
        let again = engine.import(path, &auto(), &mut |_| {}).unwrap();
        assert_eq!(
            (again.sessions_added, again.messages_added),
            (0, 0),
            "message ids make a re-import of {} add nothing",
            path.display()
        );
    }
    assert_eq!(
        stored(&engine),
        before,
        "a re-import changes nothing stored"
    );

    let find = |id: &str| before.iter().find(|m| m.1 == id).unwrap().clone();
    let (key, _, role, _, ts) = find("aaa22f3c-c635-4d92-8b01-5e8c4f5a8a8a");
    assert_eq!(key, "chatgpt:966da5c4-5bb7-4e4d-ab6d-a7316b96266e");
    assert_eq!(role, "user");
    // Stored to the millisecond: 19:57:53.969279 → .969.
    assert_eq!(ts, "2023-09-21T19:57:53.969+00:00");
    let (_, _, role, _, ts) = find("m4");
    assert_eq!(
        (role.as_str(), ts.as_str()),
        ("assistant", "2026-05-28T09:30:40+00:00")
    );
    assert!(
        before.iter().all(|m| !m.3.contains("Python instead")),
        "the abandoned ChatGPT branch is not stored"
    );
}

/// Bad input: a clear error or a cleaned message, and nothing already stored is lost.
#[test]
fn bad_exports_are_refused_or_cleaned_and_lose_nothing() {
    let dir = common::tempdir();
    let files = common::tempdir();
    let mut engine = engine(dir.path());
    let write = |name: &str, bytes: &[u8]| {
        let p = files.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    };
    let good = write(
        "good.json",
        br#"[{"uuid":"c1","created_at":"2026-05-01T10:00:00Z","chat_messages":[
            {"uuid":"a","sender":"human","created_at":"2026-05-01T10:00:00Z","text":"My sister Ylva lives in Lund."}]}]"#,
    );
    engine.import(&good, &auto(), &mut |_| {}).unwrap();
    let before = stored(&engine);
    assert_eq!(before.len(), 1);

    let nested = write(
        "nested.json",
        format!("{}{}", "[".repeat(10_000), "]".repeat(10_000)).as_bytes(),
    );
    let not_utf8 = write(
        "latin1.json",
        b"[{\"uuid\":\"c\",\"name\":\"caf\xe9\",\"chat_messages\":[]}]",
    );
    let unknown = write("other.json", br#"[{"foo": 1}]"#);
    let cases = [
        (&nested, "nested more than 128 levels"),
        (&not_utf8, "not UTF-8"),
        (&unknown, "--format chatgpt, claude, transcript or locomo"),
    ];
    for (path, says) in cases {
        let e = engine
            .import(path, &auto(), &mut |_| {})
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(says),
            "{}: the error should say `{says}`, got: {e}",
            path.display()
        );
    }
    assert_eq!(
        stored(&engine),
        before,
        "a refused file loses nothing stored"
    );

    // NUL and a 5 MB message in a ChatGPT export: stored cleaned and cut, and counted.
    let huge = "word ".repeat(1_000_000); // 5,000,000 bytes
    let conv = serde_json::json!([{"id": "big", "create_time": 1.7e9, "current_node": "b",
        "mapping": {
            "a": {"parent": null, "children": ["b"], "message": {"id": "a", "author": {"role": "user"},
                  "create_time": 1.7e9, "content": {"content_type": "text", "parts": ["nul\u{0}here"]}}},
            "b": {"parent": "a", "children": [], "message": {"id": "b", "author": {"role": "assistant"},
                  "create_time": 1.7e9 + 1.0, "content": {"content_type": "text", "parts": [huge]}}}}}]);
    let big = write("big.json", conv.to_string().as_bytes());
    let report = engine.import(&big, &auto(), &mut |_| {}).unwrap();
    assert_eq!(
        (
            report.messages_added,
            report.messages_cleaned,
            report.messages_truncated
        ),
        (2, 1, 1),
        "one message loses its NUL, the 5 MB one is cut, both are stored"
    );
    let after = stored(&engine);
    assert!(
        after.contains(&before[0]),
        "the earlier message is still there"
    );
    let text_of = |id: &str| after.iter().find(|m| m.1 == id).unwrap().3.clone();
    // A control character between words becomes one space, so the words stay apart.
    assert_eq!(text_of("a"), "nul here");
    assert_eq!(text_of("b").len(), minne::import::MAX_MESSAGE_BYTES);
}

/// The error for a file of no known shape names every format and the flag.
#[test]
fn undetectable_files_name_the_formats() {
    for text in ["[]", "{}", "42", r#"[{"messages": []}]"#] {
        let e = parse_str(text, &auto()).unwrap_err().to_string();
        for name in ["ChatGPT", "Claude", "transcript", "LoCoMo", "--format"] {
            assert!(
                e.contains(name),
                "`{text}`: the error should name {name}: {e}"
            );
        }
    }
    assert_eq!(
        minne::import::detect_text(r#"{"sessions": []}"#).unwrap(),
        Some(ImportFormat::Transcript)
    );
}
