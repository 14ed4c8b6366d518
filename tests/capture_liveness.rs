//! A capture job's status tells a live capture from one whose process is gone, on a real store
//! with the real model (a fresh user's killed capture showed `running` in `minne status`
//! forever): `running` while a capture runs in another engine, `interrupted` once the job is
//! left open with nobody capturing, and the next capture resumes that very job.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test panics on failure by design

mod common;

use std::sync::mpsc;
use std::time::Duration;

use minne::capture::job::{CaptureReason, INTERRUPTED};
use minne::import::{ImportProgress, NewMessage, NewSession};
use minne::model::Role;

use common::consolidation::{day, open};

fn session() -> NewSession {
    NewSession {
        key: "plans".into(),
        messages: [
            "We decided to move the team offsite to Gothenburg in May.",
            "I decided to learn the cello this autumn.",
        ]
        .iter()
        .enumerate()
        .map(|(i, text)| NewMessage {
            external_id: Some(format!("plans-{i}")),
            role: Role::User,
            actor: "user".into(),
            text: text.to_string(),
            sent_at: day(0) + chrono::Duration::minutes(i as i64),
        })
        .collect(),
    }
}

#[test]
fn a_job_is_running_only_while_a_process_captures_it() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (reader, _clock) = open(&data);

    let (reached, at_capture) = mpsc::channel();
    let (go, wait) = mpsc::channel::<()>();
    let capturing = std::thread::spawn({
        let data = data.clone();
        move || {
            let (mut engine, _clock) = open(&data);
            let mut paused = false;
            engine
                .import_sessions(&[session()], "test", &mut |p| {
                    // Stop once, with the batch committed and the job still running.
                    if matches!(p, ImportProgress::Captured { .. }) && !paused {
                        paused = true;
                        reached.send(()).unwrap();
                        wait.recv().unwrap();
                    }
                })
                .unwrap()
        }
    });
    at_capture.recv_timeout(Duration::from_secs(300)).unwrap();
    let status = reader.capture_status(5).unwrap();
    assert_eq!(
        status.recent_jobs[0].status, "running",
        "a job whose capture is under way in another engine is running"
    );
    go.send(()).unwrap();
    capturing.join().unwrap();
    let job = reader.capture_status(5).unwrap().recent_jobs[0].clone();
    assert_eq!(job.status, "done", "the finished job is done");

    // What a kill -9 in the middle of capture leaves: the job recorded as running, and no
    // process holding the capture lock.
    let conn =
        minne::keys::open_connection(reader.db_path(), &minne::keys::KeyConfig::default()).unwrap();
    conn.execute(
        "UPDATE capture_jobs SET status = 'running', finished_at = NULL WHERE id = ?1",
        [job.id],
    )
    .unwrap();
    drop(conn);
    assert_eq!(
        reader.capture_status(5).unwrap().recent_jobs[0].status,
        INTERRUPTED,
        "a job recorded running with nobody capturing was interrupted"
    );
    assert_eq!(
        reader.capture_status(0).unwrap().recent_jobs.len(),
        0,
        "no jobs asked, none shown"
    );

    let mut reader = reader;
    let resumed = reader
        .run_capture(CaptureReason::Checkpoint, &mut |_| {})
        .unwrap()
        .expect("an interrupted job is work to resume");
    assert_eq!(
        resumed.id, job.id,
        "the interrupted job itself is resumed (DESIGN principle 6), not a new one"
    );
    assert_eq!(resumed.status, "done");
}
