//! `minne mcp` end to end: the real binary, spoken to over stdin/stdout in JSON-RPC as an
//! assistant's MCP client does, on a real SQLite file with the real embedding model.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

mod mcp_support;

use assert_cmd::Command;
use mcp_support::{McpServer, text_of};
use serde_json::{Value, json};

const PEANUTS: &str =
    "My sister Ingrid is allergic to peanuts, so the birthday cake must be nut-free.";
const OFFSITE: &str = "We decided to move the team offsite to Gothenburg in May.";
const CELLO: &str = "I play the cello in a community orchestra on Thursday evenings.";

fn hits(reply: &Value) -> Vec<String> {
    reply["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["text"].as_str().unwrap().to_string())
        .collect()
}

fn memories(server: &mut McpServer) -> Vec<Value> {
    server.call_ok("list", json!({"limit": 200}))["memories"]
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn tools_are_listed_with_their_schemas() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, init) = McpServer::start(&dir.path().join("data"), &[]);
    assert_eq!(init["serverInfo"]["name"], "minne", "{init:#}");
    assert!(
        init["capabilities"]["tools"].is_object(),
        "the server offers tools: {init:#}"
    );
    assert!(
        init["instructions"].as_str().unwrap().contains("recall"),
        "the instructions tell the assistant when to recall"
    );

    let tools = server.request("tools/list", json!({}))["tools"]
        .as_array()
        .unwrap()
        .clone();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["context", "forget", "list", "recall", "remember", "status"]
    );
    let tool = |name: &str| tools.iter().find(|t| t["name"] == name).unwrap().clone();

    let remember = tool("remember")["inputSchema"].clone();
    assert_eq!(remember["type"], "object");
    assert_eq!(
        remember["required"],
        json!(["text"]),
        "only the words are required"
    );
    assert_eq!(remember["properties"]["text"]["type"], "string");
    let role = remember["properties"]["role"].to_string();
    assert!(
        role.contains("user") && role.contains("assistant"),
        "role offers exactly the two speakers, documented in the schema: {remember:#}"
    );
    assert!(remember["properties"]["session"].is_object());

    let recall = tool("recall")["inputSchema"].clone();
    assert_eq!(recall["required"], json!(["query"]));
    assert_eq!(recall["properties"]["k"]["minimum"], 1);
    assert_eq!(recall["properties"]["k"]["maximum"], 50);
    let format = recall["properties"]["format"].to_string();
    assert!(
        format.contains("items") && format.contains("prompt"),
        "{recall:#}"
    );
    assert_eq!(tool("recall")["annotations"]["readOnlyHint"], true);

    let forget = tool("forget");
    for arg in ["id", "session", "last", "confirm"] {
        assert!(
            forget["inputSchema"]["properties"][arg].is_object(),
            "forget takes `{arg}`: {forget:#}"
        );
    }
    assert!(
        forget["inputSchema"].get("required").is_none()
            || forget["inputSchema"]["required"] == json!([]),
        "no single forget argument is required on its own: {forget:#}"
    );
    assert_eq!(forget["annotations"]["destructiveHint"], true);
    assert!(tool("list")["inputSchema"]["properties"]["cursor"].is_object());
    for t in &tools {
        assert!(
            t["description"].as_str().unwrap().len() > 60,
            "every tool explains itself to the assistant: {t:#}"
        );
    }
    assert!(server.close().success());
}

#[test]
fn remember_recall_forget_and_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (mut server, _) = McpServer::start(&data, &[]);

    // remember: each message is captured at once and its episodes come back.
    let peanuts = server.call_ok("remember", json!({"text": PEANUTS}));
    assert_eq!(peanuts["stored"], true, "{peanuts:#}");
    assert_eq!(peanuts["context"], "personal", "the default context");
    let episodes = peanuts["episodes"].as_array().unwrap();
    assert!(
        !episodes.is_empty(),
        "a fact about the user is worth an episode"
    );
    for e in episodes {
        let salience = e["salience"].as_f64().unwrap();
        assert!(
            (0.0..=1.0).contains(&salience),
            "salience is in [0, 1]: {e}"
        );
        assert!(e["kind"].is_string() && e["id"].is_i64());
        assert!(
            e["text"].as_str().unwrap().contains("allergic to peanuts"),
            "an episode quotes the message: {e}"
        );
    }

    // "We decided ..." is a decision (the rules' decision cue), whose salience floor is 0.75
    // (seed 004: salience is at least the act kind's floor).
    let offsite = server.call_ok(
        "remember",
        json!({"text": OFFSITE, "role": "user", "session": "team"}),
    );
    let kinds: Vec<&str> = offsite["episodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["decision"], "{offsite:#}");
    assert!(offsite["episodes"][0]["salience"].as_f64().unwrap() >= 0.75);
    assert_eq!(
        offsite["session"], "mcp:team",
        "the conversation id is kept, under source mcp"
    );
    server.call_ok("remember", json!({"text": CELLO, "session": "team"}));

    // The assistant's thanks is small talk: the reply says honestly that nothing in it was
    // worth a memory (or, if kept, that it is routine and fades fast).
    let thanks = server.call_ok(
        "remember",
        json!({"text": "Thanks, that's all for now!", "role": "assistant"}),
    );
    let kept = thanks["episodes"].as_array().unwrap().len();
    assert!(
        thanks["episodes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["kind"] == "routine"),
        "small talk is never more than routine: {thanks:#}"
    );
    let why = thanks["summary"].as_str().unwrap();
    assert!(
        (kept == 0 && why.contains("nothing in it became a memory"))
            || (kept > 0 && why.contains("routine")),
        "honest about what was worth keeping: {thanks:#}"
    );
    let stored = 3 + kept;
    assert_eq!(
        memories(&mut server).len(),
        stored,
        "one episode per fact here"
    );

    // recall finds the remembered fact, with its words.
    let found = server.call_ok("recall", json!({"query": "What is my sister allergic to?"}));
    let texts = hits(&found);
    assert!(
        texts.first().is_some_and(|t| t.contains("peanuts")),
        "the peanut allergy is the one memory about food and allergies: {found:#}"
    );
    assert!(texts.len() <= 3, "k defaults to 3 (seed 000)");
    let one = server.call_ok(
        "recall",
        json!({"query": "orchestra cello evenings", "k": 1}),
    );
    let one = hits(&one);
    assert!(
        one.len() == 1 && one[0].contains("cello"),
        "k = 1 gives the one best memory: {one:?}"
    );

    // The prompt format is seed 000's block, each memory quoted as a JSON string (data).
    let block = server.call_ok(
        "recall",
        json!({"query": "What is my sister allergic to?", "format": "prompt"}),
    );
    let block = block.as_str().unwrap();
    assert!(
        block.starts_with("Earlier in your conversations:\n"),
        "{block}"
    );
    assert!(
        block.contains("said: \"My sister Ingrid is allergic to peanuts"),
        "the memory is quoted as a JSON string: {block}"
    );

    // Nothing relevant: nothing comes back, rather than the least irrelevant memory.
    let unrelated = server.call_ok(
        "recall",
        json!({"query": "What is the boiling point of liquid nitrogen in kelvin?"}),
    );
    assert_eq!(hits(&unrelated), Vec::<String>::new(), "{unrelated:#}");
    let empty_block = server.call(
        "recall",
        json!({"query": "What is the boiling point of liquid nitrogen in kelvin?", "format": "prompt"}),
    );
    assert_eq!(text_of(&empty_block), "", "an empty block costs no tokens");

    // Bad input is a tool error that says what is wrong, and the server keeps serving.
    let wrong_type = server.call_err("recall", json!({"query": "cake", "k": "three"}));
    assert!(wrong_type.contains("invalid type"), "{wrong_type}");
    let missing = server.call_err("recall", json!({}));
    assert!(
        missing.contains("query"),
        "names the missing argument: {missing}"
    );
    let range = server.call_err("recall", json!({"query": "cake", "k": 500}));
    assert!(range.contains("1 to 50"), "{range}");
    let huge = server.call_err("remember", json!({"text": "x".repeat(5_000_000)}));
    assert!(
        huge.contains("5000000 bytes") && huge.contains("Nothing was stored"),
        "{huge}"
    );
    let blank = server.call_err("remember", json!({"text": "  \n "}));
    assert!(blank.contains("empty"), "{blank}");
    let both = server.call_err("forget", json!({"id": "1", "last": "1h"}));
    assert!(both.contains("exactly one"), "{both}");
    let duration = server.call_err("forget", json!({"last": "soon"}));
    assert!(duration.contains("not a duration"), "{duration}");
    // A line that is not JSON at all has no id to answer; the server drops it and goes on.
    server.send_raw("{this is not json");
    let status = server.call_ok("status", json!({}));
    assert_eq!(status["mode"], "remember");
    assert_eq!(status["context"], "personal");
    assert_eq!(
        status["episodes"], stored,
        "no bad call stored anything: {status:#}"
    );
    assert_eq!(status["messages_pending"], 0, "remember captures at once");

    // list pages with a cursor.
    let page = server.call_ok("list", json!({"limit": 2}));
    assert_eq!(page["memories"].as_array().unwrap().len(), 2);
    let rest = server.call_ok("list", json!({"limit": 2, "cursor": page["next_cursor"]}));
    assert_eq!(
        rest["memories"].as_array().unwrap().len(),
        stored - 2,
        "the second page holds the rest"
    );
    assert_eq!(
        rest["next_cursor"],
        Value::Null,
        "the last page has no next cursor"
    );

    // forget one episode: it no longer comes back.
    let id = found["hits"][0]["episode_id"].clone();
    let unknown = server.call_err("forget", json!({"id": "999999"}));
    assert!(unknown.contains("no episode with id 999999"), "{unknown}");
    // `confirm: false` asks first, even for one episode: it previews and keeps it.
    let asked = server.call_ok("forget", json!({"id": id, "confirm": false}));
    assert_eq!(asked["forgotten"], false, "{asked:#}");
    assert_eq!(asked["needs_confirmation"], true, "{asked:#}");
    assert_eq!(asked["preview"]["episodes"], 1, "{asked:#}");
    let still = server.call_ok(
        "recall",
        json!({"query": "What is my sister allergic to?", "k": 50}),
    );
    assert!(
        hits(&still).iter().any(|t| t.contains("peanuts")),
        "confirm false removed nothing: {still:#}"
    );
    // The id exactly as recall gave it (a number), the way an assistant passes it on.
    let receipt = server.call_ok("forget", json!({"id": id}));
    assert_eq!(receipt["forgotten"], true);
    assert_eq!(receipt["receipt"]["episodes"], 1, "{receipt:#}");
    let after = server.call_ok(
        "recall",
        json!({"query": "What is my sister allergic to?", "k": 50}),
    );
    assert!(
        hits(&after).iter().all(|t| !t.contains("peanuts")),
        "a forgotten memory never comes back: {after:#}"
    );
    // Remembering in the same conversation again hands the earlier messages in again; the
    // forgotten one must not return with them.
    server.call_ok(
        "remember",
        json!({"text": "The Gothenburg office is next to the central station.", "session": "team"}),
    );

    // A wider forget previews first and removes nothing without confirm.
    let before = memories(&mut server).len();
    let preview = server.call_ok("forget", json!({"session": "team"}));
    assert_eq!(preview["needs_confirmation"], true, "{preview:#}");
    assert_eq!(preview["forgotten"], false);
    assert_eq!(
        preview["preview"]["episodes"], 3,
        "the offsite decision, the cello and the office were said in `team`"
    );
    let listed = preview["episodes"].to_string();
    assert!(
        listed.contains("Gothenburg in May") && listed.contains("cello"),
        "the preview names what would go: {preview:#}"
    );
    assert_eq!(
        memories(&mut server).len(),
        before,
        "a preview forgets nothing"
    );
    let gone = server.call_ok("forget", json!({"session": "team", "confirm": true}));
    assert_eq!(gone["receipt"]["episodes"], 3, "{gone:#}");
    assert_eq!(
        memories(&mut server).len(),
        kept,
        "only what the thanks left (if anything) remains"
    );
    let everything = server.call_ok("forget", json!({"last": "1h", "confirm": true}));
    assert_eq!(everything["forgotten"], true, "{everything:#}");
    assert!(
        memories(&mut server).is_empty(),
        "the last hour held everything"
    );
    assert!(
        !server.stderr().is_empty(),
        "logs go to stderr (stdout held only JSON-RPC, checked on every line)"
    );
    assert!(
        server.close().success(),
        "closing stdin ends the server cleanly"
    );
}

#[test]
fn one_context_only_and_its_mode_is_obeyed() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (mut personal, _) = McpServer::start(&data, &[]);
    personal.call_ok("remember", json!({"text": PEANUTS}));
    assert!(personal.close().success());

    // The `work` server never sees what `personal` holds.
    let (mut work, _) = McpServer::start(&data, &["--context", "work"]);
    assert!(
        memories(&mut work).is_empty(),
        "a context sees only its own memories"
    );
    let nothing = work.call_ok("recall", json!({"query": "What is my sister allergic to?"}));
    assert!(
        hits(&nothing).is_empty(),
        "recall never reads another context"
    );
    assert!(work.close().success());

    // Paused (set by the CLI, persisted in the context): recall and remember are refused
    // as tool errors that say why and how to turn memory back on.
    let mut mode = Command::cargo_bin("minne").unwrap();
    mode.env("MINNE_DATA_DIR", &data)
        .args(["mode", "paused"])
        .assert()
        .success();
    let (mut paused, _) = McpServer::start(&data, &[]);
    let refused = paused.call_err("recall", json!({"query": "What is my sister allergic to?"}));
    assert!(
        refused.contains("paused") && refused.contains("minne mode remember"),
        "{refused}"
    );
    let not_stored = paused.call_err("remember", json!({"text": OFFSITE}));
    assert!(not_stored.contains("paused"), "{not_stored}");
    assert_eq!(paused.call_ok("status", json!({}))["mode"], "paused");
    // Fresh-user finding: `list` gave the assistant every memory's full text while paused
    // ("incognito"), though recall was refused. It is refused the same way now, and a forget
    // preview gives counts but no words.
    let refused = paused.call_err("list", json!({}));
    assert!(
        refused.contains("paused") && refused.contains("minne mode remember"),
        "{refused}"
    );
    let preview = paused.call_ok("forget", json!({"last": "1h"}));
    assert_eq!(preview["preview"]["episodes"], 1, "{preview:#}");
    assert!(
        !preview.to_string().contains("peanuts"),
        "no memory's words reach the assistant while paused: {preview:#}"
    );
    assert!(
        paused.close().success(),
        "a refused call does not crash the server"
    );
    // The user's own CLI list is their control panel: it still shows what is kept, and that
    // nothing new was stored while paused.
    let listed = Command::cargo_bin("minne")
        .unwrap()
        .env("MINNE_DATA_DIR", &data)
        .env_remove("MINNE_CONTEXT")
        .args(["list", "--json"])
        .output()
        .unwrap();
    assert!(listed.status.success(), "{listed:?}");
    let listed = String::from_utf8(listed.stdout).unwrap();
    assert!(listed.contains("peanuts"), "{listed}");
    assert!(
        !listed.contains("Gothenburg"),
        "nothing new while paused: {listed}"
    );
    let (paused, _) = McpServer::start(&data, &[]);
    assert!(
        paused.close().success(),
        "a refused call does not crash the server"
    );

    // recall_only: recall works, remember is refused.
    let mut mode = Command::cargo_bin("minne").unwrap();
    mode.env("MINNE_DATA_DIR", &data)
        .args(["mode", "recall_only"])
        .assert()
        .success();
    let (mut recall_only, _) = McpServer::start(&data, &[]);
    let found = recall_only.call_ok("recall", json!({"query": "What is my sister allergic to?"}));
    assert!(
        hits(&found).iter().any(|t| t.contains("peanuts")),
        "{found:#}"
    );
    let refused = recall_only.call_err("remember", json!({"text": OFFSITE}));
    assert!(refused.contains("recall_only"), "{refused}");
    assert!(recall_only.close().success());
}

/// A client that writes all its requests and closes stdin at once (`minne mcp < file`) gets
/// an answer to every request: the server drains in-flight work before it exits. The remember
/// and recall calls need the embedding model and run one at a time behind a lock, which takes
/// longer than rmcp's own 5 s drain, so this batch lost its tool answers before the fix.
#[test]
fn every_request_is_answered_when_stdin_closes_early() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = vec![
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "minne-test", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}),
    ];
    let calls = [
        ("remember", json!({"text": PEANUTS})),
        ("remember", json!({"text": OFFSITE})),
        ("remember", json!({"text": CELLO})),
        ("recall", json!({"query": "What is my sister allergic to?"})),
        ("recall", json!({"query": "Where is the offsite?"})),
        ("list", json!({})),
        ("status", json!({})),
    ];
    for (i, (name, args)) in calls.iter().enumerate() {
        lines.push(
            json!({"jsonrpc": "2.0", "id": 3 + i, "method": "tools/call",
            "params": {"name": name, "arguments": args}}),
        );
    }
    let mut input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    // A malformed line gets a JSON-RPC parse error (-32700, id null) and nothing else breaks.
    input.push_str("{broken json\n");
    let output = Command::cargo_bin("minne")
        .unwrap()
        .env("MINNE_DATA_DIR", dir.path().join("data"))
        .env_remove("MINNE_CONTEXT")
        .arg("mcp")
        .write_stdin(input)
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let replies: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut ids: Vec<u64> = replies.iter().filter_map(|r| r["id"].as_u64()).collect();
    ids.sort_unstable();
    let expected: Vec<u64> = (1..=(2 + calls.len() as u64)).collect();
    assert_eq!(ids, expected, "one answer per request: {replies:#?}");
    for reply in replies.iter().filter(|r| r["id"].as_u64() >= Some(3)) {
        assert_ne!(
            reply["result"]["isError"], true,
            "every tool call worked: {reply:#}"
        );
    }
    let parse_errors: Vec<&Value> = replies
        .iter()
        .filter(|r| r["error"]["code"] == -32700)
        .collect();
    assert_eq!(parse_errors.len(), 1, "{replies:#?}");
    // The member is there, as null: indexing a missing key also reads as null, which hid
    // that it was left out (a fresh user's client waited for it).
    assert_eq!(
        parse_errors[0].get("id"),
        Some(&Value::Null),
        "{:#}",
        parse_errors[0]
    );
}

/// Fresh-user findings: an unknown method answered with the bare method name as its message,
/// and `forget` with a `last` that is no duration leaked the parser's "cannot parse integer
/// from empty string". Both now say what went wrong and what to send instead.
#[test]
fn errors_say_what_went_wrong_and_what_to_send() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (mut server, _) = McpServer::start(&data, &[]);
    let reply = server.request_raw("bogus/method", json!({}));
    assert_eq!(
        reply["error"]["code"], -32601,
        "JSON-RPC's method-not-found code"
    );
    let message = reply["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("method not found: bogus/method"),
        "the message names the problem, not only the method: {reply}"
    );

    // Fresh-user finding: `tools/call` without `params` answered -32601 "method not found";
    // the method exists and its params are missing, which JSON-RPC 2.0 §5.1 calls invalid
    // params (-32602).
    let reply = server.request_message(json!({"jsonrpc": "2.0", "method": "tools/call"}));
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("`name`"),
        "it says what to send: {reply}"
    );

    let error = server.call_err("forget", json!({"last": "banana", "confirm": true}));
    assert!(
        error.contains("a duration such as 30m, 1h, 2d"),
        "the error gives the format: {error}"
    );
    assert!(
        !error.contains("cannot parse integer"),
        "no parser internals: {error}"
    );
    assert!(server.close().success());
}

/// A forget command handed in through `remember` is reported in the reply, never hidden
/// behind "nothing new became a memory": a fresh user's handed-in "Forget what I said about
/// city." removed memories while the reply spoke of small talk.
#[test]
fn remember_reports_a_forget_command_its_words_acted_on() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (mut server, _) = McpServer::start(&data, &[]);
    server.call_ok("remember", json!({"text": CELLO}));
    let reply = server.call_ok(
        "remember",
        json!({"text": "Forget what I said about the cello."}),
    );
    let commands = reply["commands"]
        .as_array()
        .expect("the commands are listed");
    assert_eq!(commands.len(), 1, "{reply:#}");
    assert_eq!(commands[0]["kind"], "forget", "{reply:#}");
    let summary = reply["summary"].as_str().unwrap();
    assert!(
        summary.contains("forgot 1 memory about “the cello”"),
        "the summary says what went: {summary}"
    );
    let left = memories(&mut server);
    assert!(
        left.iter()
            .all(|m| !m["text"].as_str().unwrap().contains("cello")),
        "{left:#?}"
    );
}

/// A handed-in message that asks not to be kept is answered as such, never as "nothing new
/// became a memory": the assistant must be able to tell the user it was not kept.
#[test]
fn remember_says_a_message_asking_not_to_be_kept_was_not_kept() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (mut server, _) = McpServer::start(&data, &[]);
    let reply = server.call_ok(
        "remember",
        json!({"text": "Don't remember this: my salary is 80000 SEK."}),
    );
    let summary = reply["summary"].as_str().unwrap();
    assert!(summary.starts_with("Not kept, as asked"), "{summary}");
    let left = memories(&mut server);
    assert!(
        left.iter()
            .all(|m| !m["text"].as_str().unwrap().contains("80000")),
        "no memory holds the salary: {left:?}"
    );
    assert!(server.close().success());
}
