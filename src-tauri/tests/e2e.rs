//! End to end: the real app in a real WebKitGTK window, driven over WebDriver
//! (shared/RECIPES.md, "End-to-end WebDriver tests").
//!
//! The test fills a temporary data folder through the real engine (a small transcript, the
//! real embedding model), starts its own X server (`Xvfb`, unless `DISPLAY` is set) and
//! `tauri-driver`, each in its own process group, and drives the app: the episode list, a
//! recall, a context switch; forgetting one memory, the last hour, a conversation and the
//! whole context (the wider ones after a confirmation), each with its receipt; editing a
//! memory in place; the review queue and the profile; the mode switch, with recall refused
//! while paused. A last test makes the app one of three writers of one context (issue 6): it
//! edits memories through its controls and its backend door while a `minne import` and a
//! `minne mcp` server write the same context, and every write must land. Screenshots go to
//! `$CARGO_TARGET_DIR/artifacts/e2e-*.png`.
//!
//! Needs `scripts/setup-system.sh` (Xvfb, WebKitWebDriver, tauri-driver),
//! `scripts/setup-models.sh` (the embedding model) and the `minne` CLI built beside this test
//! (`cargo test --workspace` builds it; else `cargo build -p minne-cli`). Run with
//! `cargo test -p minne-desktop --test e2e`.

// A test's `expect("what")` is its assertion message.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{FixedOffset, Utc};
use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use minne::clock::SystemClock;
use minne::episodes::EpisodeView;
use minne::import::{ImportFormat, ImportOptions};
use minne::settings::Settings;
use minne::{ContextName, Engine, embed};
use nix::sys::signal::{Signal, killpg};
use nix::sys::wait::{WaitPidFlag, waitpid};
use nix::unistd::Pid;

/// How long the UI may take to show something (the app loads the model at start).
const UI_TIMEOUT: Duration = Duration::from_secs(30);
/// How long the app may take to open its window (about a second when all is well).
const SESSION_TIMEOUT: Duration = Duration::from_secs(45);

/// The episode the recall must find, the unrelated one it must not prefer, and the query.
const OFFSITE: &str = "We decided to hold the team offsite in Lisbon in the second week of May.";
const RUNNING: &str = "I usually go for a 5 km run along the river before breakfast.";
/// What the test rewrites the running routine to.
const RUNNING_EDITED: &str = "I usually go for a 10 km run along the river after work.";
const QUERY: &str = "Where is the team offsite this year?";
/// The commitment the test forgets as one memory.
const BUDGET: &str = "I'll send the quarterly budget report to Marta by Friday.";
/// Written 20 minutes before the test: the only message "forget the last hour" reaches.
const PASSPORT: &str = "Remind me to renew my passport before the trip.";
/// The user's own statement (an active, stated fact) and reported words that disagree with it
/// (a conflict in the review queue: reported words never replace the user's own silently).
const TARTU: &str = "I live in Tartu.";
/// The only message of a second conversation, forgotten as a whole conversation.
const GARDEN: &str = "We should plant tomatoes in the garden this spring.";
const OSLO_REPORTED: &str = "My brother wrote: \"I live in Oslo now.\"";

/// One app window at a time: two WebKit processes on two cores would race the timeouts.
static ONE_APP_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

#[tokio::test]
async fn the_panel_lists_recalls_and_switches_context() {
    let _one = ONE_APP_AT_A_TIME.lock().await;
    let root = tempfile::tempdir().expect("a temp dir for the data");
    let data = data_dir_in(&root);
    let stored = prepare_memory(&data);
    let run = App::launch(&data, &[]).await;

    // 1. The default context lists the imported episodes, newest first, as the engine has them.
    run.wait(
        "#episodes[data-state='ready'][data-context='personal']",
        "the episodes of `personal`",
    )
    .await;
    let texts = run.texts("#episodes .episode .text").await;
    let expected: Vec<&str> = stored.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(
        texts, expected,
        "the panel lists every episode of `personal`, newest first"
    );
    // Lower-cased: WebDriver returns the text as rendered, and the badge is upper case.
    let kinds: Vec<String> = run
        .texts("#episodes .episode .kind")
        .await
        .iter()
        .map(|k| k.to_lowercase())
        .collect();
    let expected_kinds: Vec<String> = stored.iter().map(|e| e.kind.to_string()).collect();
    assert_eq!(kinds, expected_kinds, "each episode shows its act kind");
    for part in ["gauge-salience", "when", "source-name"] {
        let shown = run.texts(&format!("#episodes .episode .{part}")).await;
        assert!(
            shown.len() == stored.len() && shown.iter().all(|t| !t.trim().is_empty()),
            "each episode shows its {part}: {shown:?}"
        );
    }
    // Capture is a recorded job and its status is visible (issue 3): the import's job is done
    // and nothing waits.
    let capture = run.texts("#capture-status").await;
    assert!(
        capture.len() == 1 && capture[0].contains("0 waiting") && capture[0].contains("done"),
        "the footer shows the capture status: {capture:?}"
    );
    run.screenshot("episodes").await;

    // 2. Recall finds the offsite decision and shows each part of its score.
    let input = run.wait("#search-input", "the search box").await;
    input
        .send_keys(QUERY)
        .await
        .expect("typing into the search box");
    run.click("#search-button").await;
    run.wait(
        "#recall[data-state='ready'][data-context='personal']",
        "recall results in `personal`",
    )
    .await;
    let hits = run.texts("#recall .hit .text").await;
    assert_eq!(
        hits.first().map(String::as_str),
        Some(OFFSITE),
        "the offsite decision answers the question best: {hits:?}"
    );
    if let Some(running) = hits.iter().position(|t| t == RUNNING) {
        assert!(
            running > 0,
            "the running routine shares no meaning with the offsite question, so it may only \
             rank below the offsite decision, if it clears the threshold at all: {hits:?}"
        );
    }
    for part in [
        "score-value",
        "gauge-similarity",
        "gauge-retrievability",
        "gauge-salience",
    ] {
        let values = run.texts(&format!("#recall .hit .{part}")).await;
        let numbers: Vec<f64> = values
            .iter()
            .filter_map(|v| v.trim_start_matches(char::is_alphabetic).parse().ok())
            .collect();
        assert_eq!(
            numbers.len(),
            hits.len(),
            "every hit shows its {part} as a number, so the score can be explained: {values:?}"
        );
    }
    run.screenshot("recall").await;

    // 3. Switching to `work` shows an empty context: the personal memories are not there,
    // neither in the list nor in recall (the query is re-run in the new context).
    run.click("#contexts button[data-context='work']").await;
    run.wait(
        "#episodes[data-state='empty'][data-context='work']",
        "the empty `work` context",
    )
    .await;
    run.wait(
        "#recall[data-state='empty'][data-context='work']",
        "the recall re-run in `work`",
    )
    .await;
    let leaked = run.texts("#episodes .episode, #recall .hit").await;
    assert!(
        leaked.is_empty(),
        "contexts are isolated: `work` shows nothing of `personal`: {leaked:?}"
    );
    run.wait(
        "#contexts button[data-context='work'][aria-pressed='true']",
        "`work` marked open",
    )
    .await;
    run.screenshot("work").await;

    // 4. And back: `personal` still has its episodes.
    run.click("#contexts button[data-context='personal']").await;
    run.wait(
        "#episodes[data-state='ready'][data-context='personal']",
        "`personal` again",
    )
    .await;
    let again = run.texts("#episodes .episode .text").await;
    assert_eq!(
        again.len(),
        stored.len(),
        "switching back shows `personal` again"
    );

    let error = run.wait("#error", "the error banner").await;
    assert!(
        error
            .attr("hidden")
            .await
            .expect("reading #error")
            .is_some(),
        "no error was shown along the way: {:?}",
        error.text().await
    );

    run.close().await;
}

#[tokio::test]
async fn the_panel_forgets_reviews_and_pauses() {
    let _one = ONE_APP_AT_A_TIME.lock().await;
    let root = tempfile::tempdir().expect("a temp dir for the data");
    let data = data_dir_in(&root);
    let stored = prepare_memory(&data);
    let run = App::launch(&data, &[]).await;
    run.wait(
        "#episodes[data-state='ready'][data-context='personal']",
        "the episodes of `personal`",
    )
    .await;

    // 1. The profile holds what the user said outright, with its confidence and source; the
    // reported words that disagree wait in the review queue as one conflict.
    run.wait(
        "#profile[data-state='ready'] .fact[data-attribute='location'][data-confidence='stated']",
        "the stated location in the profile",
    )
    .await;
    let location = run
        .texts("#profile .fact[data-attribute='location'] .fact-value")
        .await;
    assert_eq!(location, ["Tartu"], "the user said “{TARTU}” outright");
    let quotes = run
        .texts("#profile .fact[data-attribute='location'] q")
        .await;
    assert_eq!(quotes, [TARTU], "the fact shows the words it rests on");
    run.wait(
        "#review[data-state='ready'] .review-item[data-kind='conflict']",
        "the conflict in the review queue",
    )
    .await;
    let values = run.texts("#review .review-item .fact-value").await;
    assert_eq!(
        values,
        ["Oslo", "Tartu"],
        "the conflict shows the reported value and the one held: {values:?}"
    );
    run.screenshot("panel").await;

    // 2. Forgetting one memory: it leaves the list at once, the receipt counts one episode,
    // and no confirmation is asked for a single item.
    let budget = stored
        .iter()
        // Capture may append the resolved time of "by Friday" to the words.
        .find(|e| e.text.starts_with(BUDGET.trim_end_matches('.')))
        .expect("the budget commitment was captured as an episode");
    run.click(&format!(
        "#episodes li.episode[data-id='{}'] button[data-action='forget-episode']",
        budget.id
    ))
    .await;
    run.wait(
        "#receipt[data-scope='episode']",
        "the receipt of one memory",
    )
    .await;
    assert_eq!(
        run.attr("#receipt li[data-kind='episodes']", "data-count")
            .await,
        "1",
        "the receipt counts the one episode forgotten"
    );
    assert!(
        run.texts("#confirm[open]").await.is_empty(),
        "one memory is forgotten without a confirmation"
    );
    let left = run
        .wait_for_texts("#episodes .episode .text", "the list without it", |t| {
            !t.iter().any(|x| x == &budget.text)
        })
        .await;
    assert_eq!(
        left.len(),
        stored.len() - 1,
        "exactly one memory left the list: {left:?}"
    );
    run.screenshot("forget-episode").await;

    // 3. "Forget the last hour" asks first, with the counts; Cancel keeps everything.
    let now = Utc::now();
    let in_last_hour = stored
        .iter()
        .filter(|e| now - e.occurred_at < chrono::Duration::hours(1))
        .count();
    assert_eq!(
        in_last_hour, 1,
        "only the passport reminder was written in the last hour"
    );
    run.click("#forget-hour").await;
    run.wait(
        "#confirm[open][data-scope='last']",
        "the confirmation dialog",
    )
    .await;
    let question = run.texts("#confirm-detail").await.join(" ");
    assert!(
        question.contains("1 message") && question.contains(&format!("{in_last_hour} episode")),
        "the dialog says what will go before it goes: {question:?}"
    );
    run.screenshot("confirm").await;
    run.click("#confirm-cancel").await;
    run.wait("#confirm:not([open])", "the dialog closed").await;
    let kept = run.texts("#episodes .episode .text").await;
    assert!(
        kept.iter().any(|t| t == PASSPORT) && kept.len() == stored.len() - 1,
        "Cancel forgets nothing: {kept:?}"
    );

    // Confirmed, the last hour goes, and only it.
    run.click("#forget-hour").await;
    run.wait(
        "#confirm[open][data-scope='last']",
        "the confirmation dialog",
    )
    .await;
    run.click("#confirm-ok").await;
    run.wait(
        "#receipt[data-scope='time_range']",
        "the receipt of the last hour",
    )
    .await;
    assert_eq!(
        run.attr("#receipt li[data-kind='messages']", "data-count")
            .await,
        "1",
        "one message was written in the last hour"
    );
    assert_eq!(
        run.attr("#receipt li[data-kind='episodes']", "data-count")
            .await,
        in_last_hour.to_string(),
        "its episodes went with it"
    );
    let range = run.texts("#receipt .receipt-range").await.join(" ");
    assert!(
        range.contains("written at"),
        "the receipt gives the time of what went: {range:?}"
    );
    let left = run
        .wait_for_texts(
            "#episodes .episode .text",
            "the list without the last hour",
            |t| !t.iter().any(|x| x == PASSPORT),
        )
        .await;
    assert_eq!(
        left.len(),
        stored.len() - 2,
        "the older memories stay: {left:?}"
    );
    run.screenshot("forget-hour").await;

    // 4. Confirming the conflict: the user's choice becomes the confirmed, current value.
    run.click("#review .review-item[data-kind='conflict'] button[data-action='confirm']")
        .await;
    run.wait("#review[data-state='empty']", "the emptied review queue")
        .await;
    run.wait(
        "#profile[data-state='ready'] .fact[data-attribute='location'][data-confidence='confirmed']",
        "the confirmed location",
    )
    .await;
    let location = run
        .texts("#profile .fact[data-attribute='location'] .fact-value")
        .await;
    assert_eq!(
        location,
        ["Oslo"],
        "confirming a conflict takes the new value, confirmed by the user"
    );
    run.screenshot("review").await;

    // 4b. Editing a memory in place: new words, same place in the list, a receipt.
    let running = stored
        .iter()
        .find(|e| e.text == RUNNING)
        .expect("the running routine was captured as an episode");
    let row = format!("#episodes li.episode[data-id='{}']", running.id);
    run.click(&format!("{row} button[data-action='edit']"))
        .await;
    let area = run
        .wait(&format!("{row} textarea.edit-text"), "the editor")
        .await;
    area.clear().await.expect("clearing the editor");
    area.send_keys(RUNNING_EDITED)
        .await
        .expect("typing the new words");
    run.screenshot("edit").await;
    run.click(&format!("{row} button[data-action='edit-save']"))
        .await;
    run.wait("#receipt[data-scope='edit']", "the receipt of the edit")
        .await;
    let edited = run
        .wait_for_texts(&format!("{row} .text"), "the edited words", |t| {
            t == [RUNNING_EDITED]
        })
        .await;
    assert_eq!(
        edited,
        [RUNNING_EDITED],
        "the memory keeps its id and shows the new words"
    );
    let all = run.texts("#episodes .episode .text").await;
    assert!(
        !all.iter().any(|t| t == RUNNING) && all.len() == stored.len() - 2,
        "the old words are gone and no memory was added or lost: {all:?}"
    );

    // 4c. Forgetting a conversation asks first, then takes that conversation and nothing else.
    let garden = stored
        .iter()
        .find(|e| e.text == GARDEN)
        .expect("the garden plan was captured as an episode");
    let in_garden_session = stored
        .iter()
        .filter(|e| e.session_id == garden.session_id)
        .count();
    run.click(&format!(
        "#episodes li.episode[data-id='{}'] button[data-action='forget-session']",
        garden.id
    ))
    .await;
    run.wait(
        "#confirm[open][data-scope='session']",
        "the confirmation dialog",
    )
    .await;
    run.click("#confirm-ok").await;
    run.wait(
        "#receipt[data-scope='session']",
        "the receipt of the conversation",
    )
    .await;
    assert_eq!(
        run.attr("#receipt li[data-kind='sessions']", "data-count")
            .await,
        "1",
        "the conversation itself went"
    );
    assert_eq!(
        run.attr("#receipt li[data-kind='episodes']", "data-count")
            .await,
        in_garden_session.to_string(),
        "with every memory from it"
    );
    let left = run
        .wait_for_texts("#episodes .episode .text", "the list without it", |t| {
            !t.iter().any(|x| x == GARDEN)
        })
        .await;
    assert_eq!(
        left.len(),
        stored.len() - 2 - in_garden_session,
        "the other conversation stays: {left:?}"
    );

    // 5. Paused: the banner says so, and recall is refused in plain words, not as a failure.
    run.click("#mode button[data-mode='paused']").await;
    run.wait("#paused-banner:not([hidden])", "the paused banner")
        .await;
    run.wait(
        "#mode button[data-mode='paused'][aria-pressed='true']",
        "paused marked",
    )
    .await;
    let input = run.wait("#search-input", "the search box").await;
    input
        .send_keys(QUERY)
        .await
        .expect("typing into the search box");
    run.click("#search-button").await;
    run.wait(
        "#recall[data-state='refused']",
        "recall refused while paused",
    )
    .await;
    let refusal = run.texts("#recall").await.join(" ");
    assert!(
        refusal.contains("paused") && refusal.contains("Remember") && !refusal.contains('`'),
        "the refusal says why and what to do, in the panel's words: {refusal:?}"
    );
    run.assert_no_error().await;
    run.screenshot("paused").await;

    // Resuming brings recall back, with its explanation.
    run.click("#resume").await;
    run.wait("#paused-banner[hidden]", "the banner gone").await;
    run.wait("#recall[data-state='ready']", "recall answering again")
        .await;
    let hits = run.texts("#recall .hit .text").await;
    assert_eq!(
        hits.first().map(String::as_str),
        Some(OFFSITE),
        "the offsite decision answers again: {hits:?}"
    );
    assert_eq!(
        run.texts("#recall details.explain summary").await,
        ["Why these results?"],
        "recall offers its explanation"
    );

    // 6. Forgetting the whole context asks first, then leaves nothing, the profile included.
    run.click("#forget-context").await;
    run.wait(
        "#confirm[open][data-scope='context']",
        "the confirmation dialog",
    )
    .await;
    run.click("#confirm-ok").await;
    run.wait(
        "#receipt[data-scope='context']",
        "the receipt of the context",
    )
    .await;
    assert_eq!(
        run.attr("#receipt li[data-kind='episodes']", "data-count")
            .await,
        (stored.len() - 2 - in_garden_session).to_string(),
        "every memory that was left went"
    );
    run.wait(
        "#episodes[data-state='empty'][data-context='personal']",
        "the empty context",
    )
    .await;
    run.wait("#profile[data-state='empty']", "the empty profile")
        .await;
    run.assert_no_error().await;
    run.screenshot("forget-context").await;
    run.close().await;
}

#[tokio::test]
async fn the_panel_says_why_the_memory_cannot_open() {
    let _one = ONE_APP_AT_A_TIME.lock().await;
    let root = tempfile::tempdir().expect("a temp dir for the data");
    let data = data_dir_in(&root);
    let no_models = tempfile::tempdir().expect("an empty models folder");
    let run = App::launch(&data, &[("MINNE_MODELS_DIR", no_models.path())]).await;

    let error = run
        .wait(
            "#error:not([hidden])[data-code='embedding']",
            "the error banner for a missing model",
        )
        .await;
    let message = error.text().await.expect("reading the error banner");
    assert!(
        message.contains("setup-models.sh"),
        "a missing model is reported with the command that installs it: {message:?}"
    );
    run.wait(
        "#episodes[data-state='error']",
        "the episode list marked unavailable",
    )
    .await;
    run.screenshot("startup-error").await;
    run.close().await;
}

#[tokio::test]
async fn the_app_a_cli_and_the_mcp_server_write_one_context_at_once() {
    let _one = ONE_APP_AT_A_TIME.lock().await;
    let root = tempfile::tempdir().expect("a temp dir for the data");
    let data = data_dir_in(&root);
    let stored = prepare_memory(&data);
    let prepared_messages = count_rows(&data, "SELECT count(*) FROM messages");
    let cli = cli_binary();
    let run = App::launch(&data, &[]).await;
    run.wait(
        "#episodes[data-state='ready'][data-context='personal']",
        "the episodes of `personal`",
    )
    .await;

    // The two other writers start together and write `personal` while the app does: a CLI
    // import of a transcript (one process, its capture embedding each message) and an
    // assistant talking to `minne mcp`, one `remember` per message.
    let started = Instant::now();
    let file = root.path().join("cli-writer.json");
    std::fs::write(&file, writer_transcript(WRITES_PER_WRITER)).expect("the CLI's transcript");
    let cli_writer = {
        let (cli, data) = (cli.clone(), data.clone());
        std::thread::spawn(move || {
            let output = Command::new(&cli)
                .env("MINNE_DATA_DIR", &data)
                .env_remove("MINNE_CONTEXT")
                .args(["import", "--format", "transcript"])
                .arg(&file)
                .output()
                .expect("running `minne import`");
            (output, started.elapsed())
        })
    };
    let mcp_writer = {
        let (cli, data) = (cli.clone(), data.clone());
        std::thread::spawn(move || {
            let mut server = Mcp::start(&cli, &data);
            for i in 0..WRITES_PER_WRITER {
                server.remember(&format!(
                    "MCP note {i}: the pallet of crate {} leaves from gate {}.",
                    2000 + i,
                    i % 5
                ));
            }
            let status = server.close();
            (status, started.elapsed())
        })
    };

    // The app writes through the panel for as long as the others do: each round edits one
    // memory through the UI's controls (click, type, save) and every other imported memory
    // through the panel's backend door (ui/backend.js, the same `edit_episode` command the
    // controls call). Every write must be acknowledged; none may fail on a locked database.
    let by_ui = stored
        .iter()
        .find(|e| e.text == RUNNING)
        .expect("the running routine was captured as an episode");
    let by_backend: Vec<&EpisodeView> = stored.iter().filter(|e| e.id != by_ui.id).collect();
    let mut last_text: std::collections::BTreeMap<i64, String> = Default::default();
    let mut app_writes = 0usize;
    let mut round = 0usize;
    while round < 2 || !(cli_writer.is_finished() && mcp_writer.is_finished()) {
        assert!(
            started.elapsed() < WRITERS_GUARD,
            "the CLI and MCP writers did not finish within {WRITERS_GUARD:?}"
        );
        round += 1;
        let text = format!("{RUNNING} (app edit {round}, through the controls)");
        run.edit_through_controls(by_ui.id.0, &text).await;
        last_text.insert(by_ui.id.0, text);
        app_writes += 1;

        let edits: Vec<(i64, String)> = by_backend
            .iter()
            .map(|e| (e.id.0, format!("{} (app edit {round})", e.text)))
            .collect();
        run.edit_through_backend(&edits).await;
        app_writes += edits.len();
        last_text.extend(edits);
    }
    let app_done = started.elapsed();
    let (cli_out, cli_done) = cli_writer.join().expect("the CLI writer thread");
    assert!(
        cli_out.status.success(),
        "the CLI import succeeds while the app and the MCP server write: {}",
        String::from_utf8_lossy(&cli_out.stderr)
    );
    let (mcp_status, mcp_done) = mcp_writer.join().expect("every MCP remember succeeds");
    assert!(mcp_status.success(), "the MCP server ends cleanly");
    println!(
        "three writers: the app made {app_writes} edits in {round} rounds until {:.1} s; the CLI \
         import ended at {:.1} s, the MCP server's {WRITES_PER_WRITER} remembers at {:.1} s",
        app_done.as_secs_f64(),
        cli_done.as_secs_f64(),
        mcp_done.as_secs_f64()
    );

    // The app sees what the others wrote: its own count of the context's episodes.
    let app_count = run.app_episode_count("personal").await;
    run.assert_no_error().await;
    run.screenshot("three-writers").await;
    run.close().await;

    // Every write landed, counted in the file itself.
    let count = |sql: &str| count_rows(&data, sql);
    let n = WRITES_PER_WRITER as i64;
    assert_eq!(
        count("SELECT count(*) FROM messages WHERE text LIKE 'CLI note %'"),
        n,
        "every message the CLI imported is stored"
    );
    assert_eq!(
        count("SELECT count(*) FROM messages WHERE text LIKE 'MCP note %'"),
        n,
        "every message the MCP server acknowledged is stored"
    );
    assert_eq!(
        count("SELECT count(*) FROM messages"),
        prepared_messages + 2 * n,
        "no message was lost or duplicated: the prepared ones plus both writers'"
    );
    assert_eq!(
        count("SELECT count(*) FROM messages WHERE captured_at IS NULL"),
        0,
        "every message was captured"
    );
    for (id, text) in &last_text {
        let held = text_row(&data, "SELECT text FROM episodes WHERE id = ?1", Some(*id));
        assert_eq!(&held, text, "the app's last edit of episode {id} landed");
    }
    let episodes = count("SELECT count(*) FROM episodes");
    assert_eq!(
        count("SELECT count(*) FROM embeddings"),
        episodes,
        "each episode has exactly one vector, however the writers interleaved"
    );
    assert_eq!(
        app_count, episodes,
        "the app counted every episode, its own and the other writers'"
    );
    assert_eq!(
        text_row(&data, "PRAGMA integrity_check", None),
        "ok",
        "the file is sound after three writers"
    );
}

/// Messages each of the CLI and MCP writers adds in the three-writer test.
const WRITES_PER_WRITER: usize = 30;
/// How long the CLI and MCP writers may take before the test gives up (a guard against a
/// hang, not a measure: they take seconds).
const WRITERS_GUARD: Duration = Duration::from_secs(300);

/// `<temp dir>/data`: a data dir inside the temp dir, so the key dir the engine puts beside
/// it (`<data dir>.keys`, docs/encryption.md) is inside the temp dir too and goes with it.
fn data_dir_in(root: &tempfile::TempDir) -> PathBuf {
    root.path().join("data")
}

/// The number `sql` (one row, one integer) counts in `personal` under `data_dir`, read from
/// the file opened with its key as the engine finds it.
fn count_rows(data_dir: &Path, sql: &str) -> i64 {
    minne::keys::open_connection(
        &data_dir.join("personal.sqlite"),
        &minne::keys::KeyConfig::default(),
    )
    .expect("opening `personal` with its key")
    .query_row(sql, [], |r| r.get(0))
    .expect(sql)
}

/// `personal` under `data_dir`, opened with its key as the engine finds it, answers `sql`
/// (one row, one text column, with one integer parameter or none).
fn text_row(data_dir: &Path, sql: &str, id: Option<i64>) -> String {
    let conn = minne::keys::open_connection(
        &data_dir.join("personal.sqlite"),
        &minne::keys::KeyConfig::default(),
    )
    .expect("opening `personal` with its key");
    match id {
        Some(id) => conn.query_row(sql, [id], |r| r.get(0)),
        None => conn.query_row(sql, [], |r| r.get(0)),
    }
    .expect(sql)
}

/// The CLI writer's transcript: `messages` messages in one session, written in March 2026.
fn writer_transcript(messages: usize) -> String {
    let messages: Vec<_> = (0..messages)
        .map(|i| {
            serde_json::json!({
                "role": if i % 2 == 0 { "user" } else { "assistant" },
                "text": format!(
                    "CLI note {i}: the shipment of item {} arrives on dock {}.",
                    1000 + i,
                    i % 7
                ),
                "timestamp": format!("2026-03-02T10:{i:02}:00Z"),
            })
        })
        .collect();
    serde_json::json!({"sessions": [{"id": "cli-writer", "messages": messages}]}).to_string()
}

/// The `minne` CLI binary: `MINNE_CLI_BIN`, else the one beside this test's build
/// (`cargo test --workspace` builds it; alone, build it with `cargo build -p minne-cli`).
fn cli_binary() -> PathBuf {
    if let Some(bin) = std::env::var_os("MINNE_CLI_BIN").filter(|b| !b.is_empty()) {
        return PathBuf::from(bin);
    }
    // This test runs as <target>/debug/deps/e2e-<hash>; the binaries sit in <target>/debug.
    let exe = std::env::current_exe().expect("the test's own path");
    let bin = exe
        .parent()
        .and_then(Path::parent)
        .expect("the test runs inside a target dir")
        .join("minne");
    assert!(
        bin.is_file(),
        "the `minne` CLI writes beside the app in this test, but {} is missing: run \
         `cargo build -p minne-cli` first (or set MINNE_CLI_BIN)",
        bin.display()
    );
    bin
}

/// A `minne mcp` server spoken to over its stdin and stdout, one JSON-RPC message per line,
/// as an assistant's client does.
struct Mcp {
    child: Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::sync::mpsc::Receiver<String>,
    next_id: u64,
}

impl Mcp {
    /// How long one reply may take (the first `remember` loads the model). A guard only.
    const REPLY_GUARD: Duration = Duration::from_secs(180);

    fn start(cli: &Path, data_dir: &Path) -> Mcp {
        let mut child = Command::new(cli)
            .env("MINNE_DATA_DIR", data_dir)
            .env_remove("MINNE_CONTEXT")
            .arg("mcp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("starting `minne mcp`");
        let stdout = child.stdout.take().expect("the server's stdout is piped");
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut server = Mcp {
            stdin: child.stdin.take(),
            child,
            lines,
            next_id: 1,
        };
        server.request(
            "initialize",
            serde_json::json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "minne-e2e", "version": "0"}
            }),
        );
        server.send(&serde_json::json!({
            "jsonrpc": "2.0", "method": "notifications/initialized", "params": {}
        }));
        server
    }

    fn send(&mut self, message: &serde_json::Value) {
        use std::io::Write;
        let stdin = self.stdin.as_mut().expect("the server's stdin is open");
        writeln!(stdin, "{message}").expect("writing to `minne mcp`");
        stdin.flush().expect("flushing to `minne mcp`");
    }

    /// Sends a request and returns its `result`; a protocol error fails the test.
    fn request(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(
            &serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
        );
        loop {
            let line = self
                .lines
                .recv_timeout(Self::REPLY_GUARD)
                .unwrap_or_else(|e| panic!("`minne mcp` did not answer {method}: {e}"));
            let reply: serde_json::Value = serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("`minne mcp` wrote a non-JSON line ({e}): {line}"));
            if reply["id"] == serde_json::json!(id) {
                assert!(
                    reply.get("error").is_none(),
                    "{method} is answered without a protocol error: {reply}"
                );
                return reply["result"].clone();
            }
        }
    }

    /// One `remember`, which must be acknowledged as stored.
    fn remember(&mut self, text: &str) {
        let result = self.request(
            "tools/call",
            serde_json::json!({
                "name": "remember",
                "arguments": {"text": text, "role": "user", "session": "mcp-writer"}
            }),
        );
        assert_ne!(
            result["isError"],
            serde_json::json!(true),
            "remember {text:?} succeeds while the app and the CLI write: {result}"
        );
    }

    /// Closes stdin, as a client does when done, and waits for the server to exit.
    fn close(mut self) -> std::process::ExitStatus {
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = self.child.try_wait().expect("waiting for `minne mcp`") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "`minne mcp` did not exit within a minute of its stdin closing"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        // A failed assertion must not leave a server behind.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Imports a small transcript into `personal` under `data_dir` with the real model, and
/// returns the episodes as the engine lists them (newest first).
fn prepare_memory(data_dir: &Path) -> Vec<EpisodeView> {
    let settings = Settings::from_env().expect("settings");
    let embedder = embed::load(&settings.models_dir, settings.model).unwrap_or_else(|e| {
        panic!("the real embedding model is needed: run scripts/setup-models.sh ({e})")
    });
    let personal = ContextName::new(ContextName::DEFAULT).expect("the default context name");
    let mut engine = Engine::open(data_dir, &personal, embedder, Arc::new(SystemClock))
        .expect("opening `personal`");

    // Recent times, so the test does not depend on today's date; written in UTC+1.
    let cet = FixedOffset::east_opt(3600).expect("UTC+1");
    let at = |minutes_ago: i64| {
        (Utc::now() - chrono::Duration::minutes(minutes_ago)).with_timezone(&cet)
    };
    let messages = [
        (72 * 60, "user", RUNNING),
        (50 * 60, "user", TARTU),
        (48 * 60, "user", BUDGET),
        (30 * 60, "user", OSLO_REPORTED),
        (26 * 60, "user", OFFSITE),
        (
            25 * 60,
            "assistant",
            "Noted. Do you want me to look at flights?",
        ),
        (
            3 * 60,
            "user",
            "Actually, my sister's name is Ingrid, not Inga. I told you before.",
        ),
        (20, "user", PASSPORT),
    ];
    let transcript = serde_json::json!({
        "sessions": [{
            "id": "e2e-s1",
            "messages": messages.iter().map(|(minutes, role, text)| serde_json::json!({
                "role": role,
                "text": text,
                "timestamp": at(*minutes).to_rfc3339(),
            })).collect::<Vec<_>>(),
        }, {
            // A second, older conversation: the one the test forgets whole.
            "id": "e2e-s2",
            "messages": [{ "role": "user", "text": GARDEN, "timestamp": at(5 * 24 * 60).to_rfc3339() }],
        }]
    });
    // Outside the data folder; the panel shows the file's name as the episodes' source.
    let inbox = tempfile::tempdir().expect("a temp dir for the transcript");
    let file = inbox.path().join("chat-export.json");
    std::fs::write(&file, transcript.to_string()).expect("writing the transcript");
    let report = engine
        .import(
            &file,
            &ImportOptions::new(ImportFormat::Transcript),
            &mut |_| {},
        )
        .expect("importing the transcript");
    assert_eq!(
        report.messages_added,
        messages.len() + 1,
        "every message of the transcript is new"
    );
    let episodes = engine.list_episodes(100, 0).expect("listing episodes");
    assert!(
        episodes.iter().any(|e| e.text == OFFSITE) && episodes.iter().any(|e| e.text == RUNNING),
        "capture keeps the user's own words as episodes: {:?}",
        episodes.iter().map(|e| &e.text).collect::<Vec<_>>()
    );
    episodes
}

/// The app under WebDriver, with its X display and driver. Fields drop in order: the
/// session, then the driver's process group (with the app), then the X server.
struct App {
    c: Client,
    _driver: Driver,
    _display: Display,
}

impl App {
    /// Starts the app on `data_dir`, with `env` added to its environment.
    async fn launch(data_dir: &Path, env: &[(&str, &Path)]) -> App {
        let display = Display::start();
        let driver = Driver::start(&display.name, data_dir, env);
        let c = driver.connect().await;
        App {
            c,
            _driver: driver,
            _display: display,
        }
    }

    async fn close(self) {
        let App {
            c,
            _driver,
            _display,
        } = self;
        c.close().await.expect("ending the WebDriver session");
    }

    async fn wait(&self, css: &str, what: &str) -> Element {
        match self
            .c
            .wait()
            .at_most(UI_TIMEOUT)
            .every(Duration::from_millis(100))
            .for_element(Locator::Css(css))
            .await
        {
            Ok(element) => element,
            Err(e) => {
                self.fail(&format!("{what}: `{css}` did not appear ({e})"))
                    .await
            }
        }
    }

    async fn click(&self, css: &str) {
        let element = self.wait(css, "a control to click").await;
        // Into the middle of its scrolling column, as a user would scroll before clicking.
        let _ = self
            .c
            .execute(
                "arguments[0].scrollIntoView({block: 'center'});",
                vec![serde_json::to_value(&element).expect("an element as a script argument")],
            )
            .await;
        if let Err(e) = element.click().await {
            self.fail(&format!("cannot click `{css}`: {e}")).await;
        }
    }

    async fn texts(&self, css: &str) -> Vec<String> {
        let elements = self
            .c
            .find_all(Locator::Css(css))
            .await
            .expect("querying the page");
        let mut out = Vec::with_capacity(elements.len());
        for element in elements {
            out.push(element.text().await.expect("reading an element's text"));
        }
        out
    }

    /// Polls the texts under `css` until `ok` holds (a list re-renders after each change).
    async fn wait_for_texts(
        &self,
        css: &str,
        what: &str,
        ok: impl Fn(&[String]) -> bool,
    ) -> Vec<String> {
        let deadline = Instant::now() + UI_TIMEOUT;
        loop {
            // A re-render between finding and reading leaves stale elements: read again.
            if let Ok(texts) = self.try_texts(css).await
                && ok(&texts)
            {
                return texts;
            }
            if Instant::now() >= deadline {
                let shown = self.try_texts(css).await.unwrap_or_default();
                self.fail(&format!("{what}: `{css}` showed {shown:?}"))
                    .await;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn try_texts(&self, css: &str) -> Result<Vec<String>, fantoccini::error::CmdError> {
        let mut out = Vec::new();
        for element in self.c.find_all(Locator::Css(css)).await? {
            out.push(element.text().await?);
        }
        Ok(out)
    }

    /// The attribute `name` of the first element under `css`.
    async fn attr(&self, css: &str, name: &str) -> String {
        let element = self.wait(css, "an element to read").await;
        match element.attr(name).await {
            Ok(Some(value)) => value,
            other => {
                self.fail(&format!("`{css}` has no {name}: {other:?}"))
                    .await
            }
        }
    }

    /// The error banner stayed hidden.
    async fn assert_no_error(&self) {
        let error = self.wait("#error", "the error banner").await;
        assert!(
            error
                .attr("hidden")
                .await
                .expect("reading #error")
                .is_some(),
            "no error was shown along the way: {:?}",
            error.text().await
        );
    }

    /// Rewrites episode `id` through the panel's controls: its edit button, the editor, save;
    /// returns once the row shows the new words.
    async fn edit_through_controls(&self, id: i64, text: &str) {
        let row = format!("#episodes li.episode[data-id='{id}']");
        self.click(&format!("{row} button[data-action='edit']"))
            .await;
        let area = self
            .wait(&format!("{row} textarea.edit-text"), "the editor")
            .await;
        area.clear().await.expect("clearing the editor");
        area.send_keys(text).await.expect("typing the new words");
        self.click(&format!("{row} button[data-action='edit-save']"))
            .await;
        self.wait_for_texts(&format!("{row} .text"), "the edited words", |t| t == [text])
            .await;
    }

    /// Rewrites each `(id, text)` in order through the panel's backend module
    /// (ui/backend.js `editEpisode`, the door the controls use), inside the app's page.
    /// Every edit must be acknowledged.
    async fn edit_through_backend(&self, edits: &[(i64, String)]) {
        const SCRIPT: &str = r#"
const [edits, done] = arguments;
(async () => {
  const results = [];
  try {
    const backend = await import("/backend.js");
    for (const [id, text] of edits) {
      try {
        const receipt = await backend.editEpisode(id, text);
        results.push({ id, ok: receipt.text === text, text: receipt.text });
      } catch (e) {
        results.push({ id, ok: false, error: `${e.code}: ${e.message}` });
      }
    }
  } catch (e) {
    results.push({ ok: false, error: `the panel's backend module did not load: ${e}` });
  }
  done(results);
})();"#;
        let results = self
            .c
            .execute_async(SCRIPT, vec![serde_json::json!(edits)])
            .await
            .expect("running the edits in the page");
        let results = results.as_array().cloned().unwrap_or_default();
        let failed: Vec<_> = results.iter().filter(|r| r["ok"] != true).collect();
        assert!(
            results.len() == edits.len() && failed.is_empty(),
            "every edit through the app is acknowledged with its new words: {failed:?}"
        );
    }

    /// The number of episodes of `context` as the app counts them (`list_contexts`).
    async fn app_episode_count(&self, context: &str) -> i64 {
        const SCRIPT: &str = r#"
const [name, done] = arguments;
import("/backend.js")
  .then((b) => b.listContexts())
  .then((all) => done(all.find((c) => c.name === name)?.episodes ?? null))
  .catch((e) => done(`error: ${e.message ?? e}`));"#;
        let value = self
            .c
            .execute_async(SCRIPT, vec![serde_json::json!(context)])
            .await
            .expect("asking the app for its contexts");
        value
            .as_i64()
            .unwrap_or_else(|| panic!("the app counts the episodes of `{context}`: {value}"))
    }

    async fn screenshot(&self, name: &str) -> PathBuf {
        // WebKit's snapshot can show the frame before the latest DOM change: wait for two
        // animation frames, so the picture shows what the assertions just saw.
        let _ = self
            .c
            .execute_async(
                "const done = arguments[0]; \
                 requestAnimationFrame(() => requestAnimationFrame(() => done(true)));",
                vec![],
            )
            .await;
        tokio::time::sleep(Duration::from_millis(150)).await;
        let png = self.c.screenshot().await.expect("taking a screenshot");
        let dir = artifacts_dir();
        std::fs::create_dir_all(&dir).expect("creating the artifacts folder");
        let path = dir.join(format!("e2e-{name}.png"));
        std::fs::write(&path, png).expect("writing the screenshot");
        println!("screenshot: {}", path.display());
        path
    }

    async fn fail(&self, why: &str) -> ! {
        if let Ok(png) = self.c.screenshot().await {
            let path = artifacts_dir().join("e2e-failure.png");
            if std::fs::create_dir_all(artifacts_dir()).is_ok()
                && std::fs::write(&path, png).is_ok()
            {
                println!("screenshot of the failure: {}", path.display());
            }
        }
        if let Ok(html) = self.c.source().await {
            println!("page at the failure:\n{html}");
        }
        panic!("{why}");
    }
}

fn artifacts_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir).join("artifacts"),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/artifacts"),
    }
}

/// An X display: `DISPLAY` if set, else our own `Xvfb`.
struct Display {
    name: String,
    _xvfb: Option<ProcessGroup>,
}

impl Display {
    fn start() -> Display {
        if let Some(name) = std::env::var("DISPLAY").ok().filter(|d| !d.is_empty()) {
            return Display { name, _xvfb: None };
        }
        let mut command = watched("Xvfb");
        // -displayfd: Xvfb picks a free display and writes its number on fd 1 once ready.
        command
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1280x800x24",
                "-nolisten",
                "tcp",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut xvfb = ProcessGroup::spawn("Xvfb", command);
        let stdout = xvfb.child.stdout.take().expect("Xvfb's stdout is piped");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("reading Xvfb's display number");
        let number = line.trim();
        assert!(
            !number.is_empty() && number.chars().all(|c| c.is_ascii_digit()),
            "Xvfb did not report a display number (got {line:?})"
        );
        Display {
            name: format!(":{number}"),
            _xvfb: Some(xvfb),
        }
    }
}

/// `tauri-driver` (and, below it, WebKitWebDriver and the app) in one process group.
struct Driver {
    port: u16,
    _group: ProcessGroup,
}

impl Driver {
    fn start(display: &str, data_dir: &Path, env: &[(&str, &Path)]) -> Driver {
        let port = free_port();
        let native_port = loop {
            let p = free_port();
            if p != port {
                break p;
            }
        };
        let mut command = watched("tauri-driver");
        command
            .args([
                "--port",
                &port.to_string(),
                "--native-port",
                &native_port.to_string(),
            ])
            // The app inherits this environment through WebKitWebDriver.
            .env("DISPLAY", display)
            .env("MINNE_DATA_DIR", data_dir)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit());
        let group = ProcessGroup::spawn("tauri-driver", command);
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "tauri-driver did not listen on port {port} within 20 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Driver {
            port,
            _group: group,
        }
    }

    async fn connect(&self) -> Client {
        let mut capabilities = serde_json::Map::new();
        capabilities.insert("browserName".into(), "wry".into());
        capabilities.insert(
            "tauri:options".into(),
            serde_json::json!({ "application": env!("CARGO_BIN_EXE_minne-desktop") }),
        );
        let url = format!("http://127.0.0.1:{}", self.port);
        let mut attempt = 1;
        loop {
            let mut builder = ClientBuilder::native();
            builder.capabilities(capabilities.clone());
            let session = builder.connect(&url);
            // WebKitWebDriver waits for ever on an app that died at start (no display, a
            // panic): give up and let the drops end the processes.
            match tokio::time::timeout(SESSION_TIMEOUT, session).await {
                Ok(Ok(client)) => return client,
                // tauri-driver listens before WebKitWebDriver below it does: under load its
                // first hop can find nobody there ("did not respond", seen once in a full
                // run, never alone). No app was started, so asking again is safe.
                Ok(Err(e)) if attempt < 3 && e.to_string().contains("did not respond") => {
                    attempt += 1;
                    tokio::time::sleep(Duration::from_secs(2)).await;
                }
                Ok(Err(e)) => panic!("no WebDriver session with the app: {e}"),
                Err(_) => panic!(
                    "no WebDriver session with the app within {SESSION_TIMEOUT:?}: did it \
                     crash at start? Its stderr is above"
                ),
            }
        }
    }
}

fn free_port() -> u16 {
    TcpListener::bind(("127.0.0.1", 0))
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free local port")
}

/// A command that runs `program` (arguments are appended by the caller) under a small `sh`
/// watchdog in the same process group: if this test process dies without running its drops
/// (killed by a CI timeout), the watchdog ends the group, so no driver, app or X server is
/// left behind holding the test's output open.
fn watched(program: &str) -> Command {
    const WATCHDOG: &str = r#""$@" &
while kill -0 "$MINNE_E2E_TEST_PID" 2>/dev/null; do sleep 0.5; done
trap '' TERM
kill -TERM 0
sleep 2
kill -KILL 0"#;
    let mut command = Command::new("sh");
    command
        .args(["-c", WATCHDOG, "sh", program])
        .env("MINNE_E2E_TEST_PID", std::process::id().to_string());
    command
}

/// A child started as the leader of its own process group. Dropping it ends the whole group:
/// TERM, then KILL after a grace period, so nothing it started (WebKitWebDriver, the app,
/// WebKit's helper processes) outlives the test.
struct ProcessGroup {
    name: &'static str,
    child: Child,
}

impl ProcessGroup {
    fn spawn(name: &'static str, mut command: Command) -> ProcessGroup {
        // Orphans of the group are re-parented to this process, which reaps them below, so
        // "no process left in the group" can be checked without relying on init.
        let _ = nix::sys::prctl::set_child_subreaper(true);
        command.process_group(0);
        let child = command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name}: {e}; run scripts/setup-system.sh"));
        ProcessGroup { name, child }
    }

    fn pgid(&self) -> Pid {
        Pid::from_raw(self.child.id() as i32)
    }

    /// Reaps every exited member of the group that is our child; true when none is left.
    fn reap(&mut self) -> bool {
        let group = Pid::from_raw(-self.pgid().as_raw());
        loop {
            match waitpid(group, Some(WaitPidFlag::WNOHANG)) {
                Ok(nix::sys::wait::WaitStatus::StillAlive) => break,
                Ok(_) => continue,
                Err(_) => break, // ECHILD: none of our children is left in the group
            }
        }
        killpg(self.pgid(), None).is_err()
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        let _ = killpg(self.pgid(), Signal::SIGTERM);
        let deadline = Instant::now() + Duration::from_secs(3);
        while !self.reap() {
            if Instant::now() >= deadline {
                eprintln!(
                    "{} did not end on TERM within 3 s: killing its process group",
                    self.name
                );
                let _ = killpg(self.pgid(), Signal::SIGKILL);
                let kill_deadline = Instant::now() + Duration::from_secs(2);
                while !self.reap() && Instant::now() < kill_deadline {
                    std::thread::sleep(Duration::from_millis(20));
                }
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.try_wait();
    }
}
