use minne::capture::job::{CaptureReason, DEFAULT_QUIET_SECONDS, INTERRUPTED};

use super::Env;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Capture only if the conversation has been quiet this many seconds (otherwise now).
    #[arg(long, value_name = "SECONDS", num_args = 0..=1, default_missing_value = "120")]
    if_quiet: Option<i64>,
    /// Print the job as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let mut engine = env.open_or_create()?;
    let job = match args.if_quiet {
        // A job a killed process left open, or episodes left without vectors, are work already
        // begun, not a conversation still going on: --if-quiet resumes them as plain
        // `capture` does, whatever the quiet time.
        Some(_) if interrupted(&engine)? => {
            engine.run_capture(CaptureReason::Checkpoint, &mut |_| {})?
        }
        Some(seconds) => {
            engine.capture_if_quiet(crate::duration::seconds_window(seconds)?, &mut |_| {})?
        }
        None => engine.run_capture(CaptureReason::Checkpoint, &mut |_| {})?,
    };
    if args.json {
        let value = match &job {
            Some(j) => serde_json::to_value(j)?,
            // An object that says nothing ran, never a bare `null`.
            None => serde_json::json!({
                "captured": false,
                "reason": if args.if_quiet.is_some() {
                    "no messages are waiting, or the conversation is not yet quiet"
                } else {
                    "every message is already captured and embedded"
                },
            }),
        };
        println!("{}", serde_json::to_string_pretty(&value)?);
        return Ok(());
    }
    match job {
        Some(j) => {
            println!(
                "Capture job #{} {}: {} encoded, {} stored.",
                j.id,
                j.status,
                crate::output::plural(j.messages_done, "message", "messages"),
                crate::output::plural(j.episodes_added, "episode", "episodes")
            );
            for line in crate::output::commands_applied(&j.commands) {
                println!("{line}");
            }
        }
        None if args.if_quiet.is_some() => println!(
            "Nothing captured: no messages are waiting, or the conversation is not yet quiet (default {DEFAULT_QUIET_SECONDS} s)."
        ),
        None => println!("Nothing to capture: every message is already captured and embedded."),
    }
    Ok(())
}

/// Whether a capture job is still open (`interrupted`: its process was killed; or `queued`
/// or `running` in another process) or episodes wait for their vectors: work that
/// `run_capture` resumes.
fn interrupted(engine: &minne::Engine) -> anyhow::Result<bool> {
    let status = engine.capture_status(5)?;
    Ok(status.embeddings_pending > 0
        || status
            .recent_jobs
            .iter()
            .any(|j| j.status == INTERRUPTED || j.status == "queued" || j.status == "running"))
}
