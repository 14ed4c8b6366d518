//! What a fresh-user tester found in forget, capture, contexts and export, on the real
//! binary and real files: a forget of every context that stops half way, scopes stated in
//! part, `null` for "nothing", an interrupted capture that --if-quiet did not resume, ids
//! reused after a forget.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

/// Two user messages, each a decision, so each is an episode.
const TWO: &str = r#"{"sessions": [
  {"id": "plans", "messages": [
    {"role": "user", "text": "We decided to move the team offsite to Gothenburg in May.", "timestamp": "2026-03-02T09:20:00+01:00"},
    {"role": "user", "text": "I decided to learn the cello this autumn.", "timestamp": "2026-03-02T09:25:00+01:00"}
  ]}
]}"#;

const ONE_MORE: &str = r#"{"sessions": [
  {"id": "later", "messages": [
    {"role": "user", "text": "We decided to paint the kitchen green next week.", "timestamp": "2026-03-04T10:00:00+01:00"}
  ]}
]}"#;

fn minne(data: &Path) -> Command {
    let mut cmd = Command::cargo_bin("minne").expect("the minne binary is built for its tests");
    cmd.env("MINNE_DATA_DIR", data)
        .env("MINNE_MODEL", "all-minilm-l6-v2")
        .env_remove("MINNE_CONTEXT")
        .env_remove("MINNE_PASSPHRASE")
        .env_remove("MINNE_CONFIG_DIR");
    cmd
}

fn import(data: &Path, context: &str, file: &Path) {
    minne(data)
        .args(["-c", context, "import", "--format", "transcript"])
        .arg(file)
        .assert()
        .success();
}

fn stdout_json(cmd: &mut Command) -> Value {
    let out = cmd.assert().success().get_output().stdout.clone();
    serde_json::from_slice(&out).expect("--json prints JSON")
}

fn open_db(db: &Path) -> rusqlite::Connection {
    minne::keys::open_connection(db, &minne::keys::KeyConfig::default()).unwrap()
}

fn count(db: &Path, sql: &str) -> i64 {
    open_db(db).query_row(sql, [], |r| r.get(0)).unwrap()
}

/// Three contexts, `personal` in passphrase mode, each holding TWO.
fn three_contexts(dir: &Path) -> std::path::PathBuf {
    let data = dir.join("data");
    let file = dir.join("two.json");
    std::fs::write(&file, TWO).unwrap();
    minne(&data)
        .args(["contexts", "--create", "aaa"])
        .assert()
        .success();
    for c in ["aaa", "personal", "work"] {
        import(&data, c, &file);
    }
    minne(&data)
        .args(["-c", "personal", "key", "passphrase"])
        .env("MINNE_NEW_PASSPHRASE", "tall ships at dawn")
        .assert()
        .success();
    data
}

#[test]
fn forget_everything_with_a_locked_context_forgets_nothing_and_says_how_to_unlock() {
    let dir = tempfile::tempdir().unwrap();
    let data = three_contexts(dir.path());
    let messages_in = |c: &str| {
        count(
            &data.join(format!("{c}.sqlite")),
            "SELECT count(*) FROM messages",
        )
    };
    let (aaa, work) = (messages_in("aaa"), messages_in("work"));
    assert!(aaa > 0 && work > 0, "the imports stored messages");
    // Without MINNE_PASSPHRASE `personal` cannot be opened. Before the fix `aaa` (first in
    // name order) was wiped before `personal` failed, with no receipt for it.
    minne(&data)
        .args(["forget", "--everything", "--yes"])
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("nothing was forgotten")
                .and(predicate::str::contains("`personal`"))
                .and(predicate::str::contains("MINNE_PASSPHRASE")),
        );
    assert_eq!(messages_in("aaa"), aaa, "aaa is untouched");
    assert_eq!(messages_in("work"), work, "work is untouched");

    // Off a terminal the refusal names what every context holds, not only the first one's.
    minne(&data)
        .args(["forget", "--everything"])
        .env("MINNE_PASSPHRASE", "tall ships at dawn")
        .write_stdin("")
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("in `aaa`")
                .and(predicate::str::contains("in `personal`"))
                .and(predicate::str::contains("in `work`"))
                .and(predicate::str::contains("3 contexts"))
                .and(predicate::str::contains("add --yes")),
        );
    assert_eq!(messages_in("aaa"), aaa, "a refusal forgets nothing");

    // With the passphrase, everything goes, with one receipt per context.
    let receipts = stdout_json(
        minne(&data)
            .args(["forget", "--everything", "--yes", "--json"])
            .env("MINNE_PASSPHRASE", "tall ships at dawn"),
    );
    let contexts: Vec<&str> = receipts
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["context"].as_str().unwrap())
        .collect();
    assert_eq!(contexts, ["aaa", "personal", "work"]);
    assert_eq!(messages_in("aaa") + messages_in("work"), 0);
}

#[test]
fn contexts_blames_the_key_not_the_file_when_the_passphrase_is_missing_or_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let data = three_contexts(dir.path());
    for passphrase in [None, Some("wrong words")] {
        let mut cmd = minne(&data);
        cmd.arg("contexts");
        if let Some(p) = passphrase {
            cmd.env("MINNE_PASSPHRASE", p);
        }
        let out = cmd.assert().success().get_output().stdout.clone();
        let out = String::from_utf8(out).unwrap();
        let line = out.lines().find(|l| l.contains("personal")).unwrap();
        // The key is the cause; the file is intact, so "damaged" would send the user astray.
        assert!(line.contains("MINNE_PASSPHRASE"), "{line}");
        assert!(!line.contains("damaged"), "{line}");
    }
}

#[test]
fn nothing_to_do_is_a_json_object_not_null() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("two.json");
    std::fs::write(&file, TWO).unwrap();
    import(&data, "personal", &file);
    // The messages are from March 2026, long before the last hour.
    let forget = stdout_json(minne(&data).args(["forget", "--json", "--last", "1h"]));
    assert_eq!(forget["forgotten"], Value::Bool(false), "{forget}");
    assert!(forget["reason"].is_string(), "{forget}");
    // Everything was captured at import: nothing waits.
    let capture = stdout_json(minne(&data).args(["capture", "--if-quiet", "0", "--json"]));
    assert_eq!(capture["captured"], Value::Bool(false), "{capture}");
    assert!(capture["reason"].is_string(), "{capture}");
}

#[test]
fn capture_if_quiet_resumes_an_interrupted_job() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let db = data.join("personal.sqlite");
    let file = dir.path().join("two.json");
    std::fs::write(&file, TWO).unwrap();
    import(&data, "personal", &file);
    let episodes = count(&db, "SELECT count(*) FROM episodes");
    assert!(episodes > 0);
    // What a kill -9 during an import leaves: every message captured, the job still
    // `running`, the episodes without vectors.
    {
        let conn = open_db(&db);
        conn.execute(
            "UPDATE capture_jobs SET status = 'running', finished_at = NULL",
            [],
        )
        .unwrap();
        conn.execute("DELETE FROM embeddings", []).unwrap();
    }
    let job = stdout_json(minne(&data).args(["capture", "--if-quiet", "0", "--json"]));
    assert_eq!(job["status"], "done", "{job}");
    assert_eq!(
        count(&db, "SELECT count(*) FROM embeddings"),
        episodes,
        "every episode has its vector again"
    );
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM capture_jobs WHERE status = 'running'"
        ),
        0
    );
}

#[test]
fn a_forgotten_episode_id_is_never_given_to_a_new_memory() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let db = data.join("personal.sqlite");
    let (first, later) = (dir.path().join("two.json"), dir.path().join("later.json"));
    std::fs::write(&first, TWO).unwrap();
    std::fs::write(&later, ONE_MORE).unwrap();
    import(&data, "personal", &first);
    let newest = count(&db, "SELECT max(id) FROM episodes");
    let newest_session = count(&db, "SELECT max(id) FROM sessions");
    // Forget the whole context, so no row is left to hold the ids up: SQLite's rowid choice
    // (max + 1) would start again at 1.
    minne(&data)
        .args(["forget", "--all-in-context", "--yes"])
        .assert()
        .success();
    import(&data, "personal", &later);
    let new_min = count(&db, "SELECT min(id) FROM episodes");
    assert!(
        new_min > newest,
        "a retried `forget --id {newest}` must not reach the new memory (id {new_min})"
    );
    assert!(count(&db, "SELECT min(id) FROM sessions") > newest_session);
    // A retried forget of the old id finds nothing and says so.
    minne(&data)
        .args(["forget", "--id", &newest.to_string()])
        .assert()
        .failure()
        .stderr(predicate::str::contains("no episode with id"));
    assert_eq!(count(&db, "SELECT count(*) FROM episodes"), 1);
}

#[test]
fn export_names_the_episodes_it_counts() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("two.json");
    std::fs::write(&file, TWO).unwrap();
    import(&data, "personal", &file);
    let episodes = count(
        &data.join("personal.sqlite"),
        "SELECT count(*) FROM episodes",
    );
    let out = dir.path().join("out.json");
    minne(&data)
        .args(["export", "-o"])
        .arg(&out)
        .assert()
        .success()
        .stdout(predicate::str::contains(if episodes == 1 {
            "1 episode.".to_string()
        } else {
            format!("{episodes} episodes.")
        }));
}

/// Two conversations whose ids in the file are "2" and "1", imported in that order, so
/// session number 1 is `transcript:2`: a fresh user's `forget --session 1` meant the one
/// `list` shows as `transcript:1` and forgot the other. A word that names two conversations
/// forgets nothing and names both; `#1` and the full key each say which.
#[test]
fn a_session_number_that_is_also_an_imported_id_is_not_guessed() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("two.json");
    std::fs::write(
        &file,
        r#"{"sessions": [
          {"id": "2", "messages": [{"role": "user", "text": "We decided to visit Paris in May.", "timestamp": "2026-10-09T10:00:00Z"}]},
          {"id": "1", "messages": [{"role": "user", "text": "We decided to visit Oslo in June.", "timestamp": "2026-10-02T10:00:00Z"}]}
        ]}"#,
    )
    .unwrap();
    import(&data, "personal", &file);
    let db = data.join("personal.sqlite");
    let number_of = |key: &str| {
        count(
            &db,
            &format!("SELECT id FROM sessions WHERE external_id = 'transcript:{key}'"),
        )
    };
    assert_eq!(
        number_of("2"),
        1,
        "the first conversation imported is number 1"
    );
    minne(&data)
        .args(["forget", "--session", "1", "--yes"])
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("nothing was forgotten")
                .and(predicate::str::contains("--session transcript:1"))
                .and(predicate::str::contains("'#1'")),
        );
    assert_eq!(count(&db, "SELECT count(*) FROM messages"), 2, "both kept");
    minne(&data)
        .args(["forget", "--session", "transcript:1", "--yes"])
        .assert()
        .success();
    let left: String = open_db(&db)
        .query_row("SELECT text FROM messages", [], |r| r.get(0))
        .unwrap();
    assert!(left.contains("Paris"), "Oslo's conversation went: {left}");
    // With `transcript:1` gone, `1` names only session number 1 left: `#1` says it outright.
    minne(&data)
        .args(["forget", "--session", "#1", "--yes"])
        .assert()
        .success();
    assert_eq!(count(&db, "SELECT count(*) FROM messages"), 0);
}

/// An export through a symbolic link wrote into its target, and a later forget replaced the
/// link, leaving the forgotten words in the target; `--force` over a file another program
/// made kept its mode 0644. Now a link is refused and its target left as it was, and a
/// replaced export is owner-only (0600), like a new one.
#[cfg(unix)]
#[test]
fn an_export_is_never_written_through_a_link_and_a_replaced_one_is_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("two.json");
    std::fs::write(&file, TWO).unwrap();
    import(&data, "personal", &file);
    let target = dir.path().join("target.json");
    std::fs::write(&target, "someone else's file").unwrap();
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    minne(&data)
        .args(["export", "--force", "-o"])
        .arg(&link)
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("is a symbolic link")
                .and(predicate::str::contains("nothing was written")),
        );
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "someone else's file",
        "the link's target is untouched"
    );
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link is left as it was"
    );

    let shared = dir.path().join("shared.json");
    std::fs::write(&shared, "old").unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o644)).unwrap();
    minne(&data)
        .args(["export", "--force", "-o"])
        .arg(&shared)
        .assert()
        .success();
    let mode = std::fs::metadata(&shared).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "owner-only, not the replaced file's {mode:o}");
    assert!(
        std::fs::read_to_string(&shared).unwrap().contains("cello"),
        "the export replaced the old words"
    );
}

/// `export --force -o /dev/null` renamed a file of memories over the device node (a fresh
/// user's find). A pipe stands in for a device here (making one needs no root): it and a
/// folder are refused with nothing written, and the pipe is still a pipe afterwards.
#[cfg(unix)]
#[test]
fn an_export_over_a_pipe_or_a_folder_is_refused_and_leaves_it_as_it_was() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("two.json");
    std::fs::write(&file, TWO).unwrap();
    import(&data, "personal", &file);
    let pipe = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .unwrap();
    assert!(made.success(), "mkfifo made the pipe");
    minne(&data)
        .args(["export", "--force", "-o"])
        .arg(&pipe)
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("not a regular file")
                .and(predicate::str::contains("nothing was written")),
        );
    let kind = std::fs::symlink_metadata(&pipe).unwrap().file_type();
    assert!(
        kind.is_fifo(),
        "the pipe is still a pipe, not a file: {kind:?}"
    );

    let folder = dir.path().join("folder");
    std::fs::create_dir(&folder).unwrap();
    minne(&data)
        .args(["export", "--force", "-o"])
        .arg(&folder)
        .assert()
        .failure();
    assert!(std::fs::metadata(&folder).unwrap().is_dir());
}

/// `facts`, `items` and `profile` print their own numbers ("#2") beside episodes' numbers,
/// and `forget --id` takes an episode's: a fresh user ran `forget --id` with a fact's number
/// and reached another memory. Each number now says what it numbers, and the episode a fact or
/// an item rests on is printed, so the one `forget --id` needs is on screen; forgetting that
/// episode takes the item with it.
#[test]
fn listed_facts_and_items_name_their_episode_numbers_for_forget() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("chat.json");
    // Filler first, so episode numbers and fact / item numbers differ.
    std::fs::write(
        &file,
        r#"{"sessions": [{"id": "s", "messages": [
  {"role": "user", "text": "We decided to move the team offsite to Gothenburg in May.", "timestamp": "2026-03-02T09:00:00+01:00"},
  {"role": "user", "text": "I decided to learn the cello this autumn.", "timestamp": "2026-03-02T09:01:00+01:00"},
  {"role": "user", "text": "My name is Karin.", "timestamp": "2026-03-02T09:02:00+01:00"},
  {"role": "user", "text": "I'll send the proposal to Acme on Friday.", "timestamp": "2026-03-02T09:03:00+01:00"}
]}]}"#,
    )
    .unwrap();
    let text = |args: &[&str]| {
        let out = minne(&data).args(args).assert().success();
        String::from_utf8_lossy(&out.get_output().stdout).to_string()
    };
    import(&data, "personal", &file);
    text(&["-c", "personal", "consolidate"]);

    let facts = stdout_json(minne(&data).args(["-c", "personal", "facts", "--json"]));
    let name = facts
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["value"] == "Karin")
        .unwrap_or_else(|| panic!("the name is a fact: {facts}"));
    let listed = text(&["-c", "personal", "facts"]);
    assert!(
        listed.contains(&format!("fact #{}", name["id"])),
        "the fact's number is labelled as a fact's: {listed}"
    );
    let source = name["sources"][0]["episode_id"].as_i64().unwrap();
    assert!(
        listed.contains(&format!("episode #{source} ")),
        "the episode it rests on is printed with its number: {listed}"
    );
    assert!(
        listed.contains("forget --id EPISODE"),
        "the listing says which number `forget --id` takes: {listed}"
    );

    let items = stdout_json(minne(&data).args(["-c", "personal", "items", "--json"]));
    let item = &items.as_array().unwrap()[0];
    let episode = item["episode_id"].as_i64().unwrap();
    assert_ne!(
        item["id"].as_i64().unwrap(),
        episode,
        "the setup makes the two numbers differ: {items}"
    );
    for listing in [
        text(&["-c", "personal", "items"]),
        text(&["-c", "personal", "profile"]),
    ] {
        assert!(
            listing.contains(&format!("item #{}", item["id"]))
                && listing.contains(&format!("(episode #{episode})")),
            "an item shows its own number and its episode's: {listing}"
        );
    }
    text(&["-c", "personal", "forget", "--id", &episode.to_string()]);
    let after = stdout_json(minne(&data).args(["-c", "personal", "items", "--json"]));
    assert_eq!(
        after,
        serde_json::json!([]),
        "forgetting the printed episode takes the item with it"
    );
}

/// A tester imported a message dated in the future (a clock ahead, a typo in the year):
/// `forget --from` without `--to` said it ran "until now" and left it behind, and `list --from`
/// did not show it. From then on means every later message.
#[test]
fn forget_from_without_to_takes_messages_dated_in_the_future_too() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let db = data.join("personal.sqlite");
    let file = dir.path().join("future.json");
    std::fs::write(
        &file,
        r#"{"sessions": [{"id": "ahead", "messages": [
          {"role": "user", "text": "We decided to paint the kitchen green next week.", "timestamp": "2026-03-04T10:00:00+01:00"},
          {"role": "user", "text": "I decided to sell the old sailing boat in spring.", "timestamp": "2031-06-01T10:00:00+02:00"}
        ]}]}"#,
    )
    .unwrap();
    import(&data, "personal", &file);
    let listed = stdout_json(minne(&data).args(["list", "--from", "2026-03-05", "--json"]));
    let text = listed.to_string();
    assert!(
        text.contains("sailing boat") && !text.contains("kitchen"),
        "list --from shows the later message, the future one included: {text}"
    );
    minne(&data)
        .args(["forget", "--from", "2026-03-05", "--yes"])
        .assert()
        .success();
    // Only the message of 2031 was after 2026-03-05: it is gone, the earlier one stays.
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM messages WHERE text LIKE '%sailing%'"
        ),
        0
    );
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM messages WHERE text LIKE '%kitchen%'"
        ),
        1
    );
}
