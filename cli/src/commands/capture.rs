use minne::capture::job::{CaptureReason, DEFAULT_QUIET_SECONDS};

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
    let mut engine = env.open()?;
    let job = match args.if_quiet {
        Some(seconds) => {
            engine.capture_if_quiet(chrono::Duration::seconds(seconds.max(0)), &mut |_| {})?
        }
        None => engine.run_capture(CaptureReason::Checkpoint, &mut |_| {})?,
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&job)?);
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
            for c in &j.commands {
                println!("  command applied: {}", c.outcome);
            }
        }
        None if args.if_quiet.is_some() => println!(
            "Nothing captured: no messages are waiting, or the conversation is not yet quiet (default {DEFAULT_QUIET_SECONDS} s)."
        ),
        None => println!("Nothing to capture: every message is already captured and embedded."),
    }
    Ok(())
}
