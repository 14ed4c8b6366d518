use minne::capture::job::INTERRUPTED;

use super::Env;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// How many recent capture jobs to show.
    #[arg(long, default_value_t = 5)]
    jobs: usize,
    /// Print as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let engine = env.open()?;
    let status = engine.capture_status(args.jobs)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&status)?);
        return Ok(());
    }
    println!(
        "context   {}  ({})",
        env.context,
        engine.db_path().display()
    );
    println!("mode      {}", engine.mode()?);
    println!("model     {}", engine.model_id());
    println!(
        "messages  {} stored, {} waiting for capture{}",
        status.messages,
        status.messages_pending,
        status
            .newest_pending_at
            .map(|t| format!(" (newest {})", t.format("%Y-%m-%d %H:%M:%S UTC")))
            .unwrap_or_default()
    );
    println!(
        "episodes  {} stored, {} waiting for an embedding",
        status.episodes, status.embeddings_pending
    );
    if status.recent_jobs.is_empty() {
        println!("capture   no jobs yet");
    }
    for j in &status.recent_jobs {
        println!(
            "capture   #{} {:<8} {:<10} {}/{}, {}, started {}{}",
            j.id,
            j.status,
            j.reason,
            j.messages_done,
            crate::output::plural(j.messages_total, "message", "messages"),
            crate::output::plural(j.episodes_added, "episode", "episodes"),
            j.started_at
                .map(|t| t.format("%Y-%m-%d %H:%M:%S UTC").to_string())
                .unwrap_or_else(|| "-".into()),
            j.error
                .as_deref()
                .map(|e| format!("; error: {e}"))
                .unwrap_or_default(),
        );
        if j.status == INTERRUPTED {
            println!(
                "          its process stopped before the job finished (killed or crashed); \
                 `minne capture` resumes it, and nothing captured so far is lost"
            );
        }
    }
    Ok(())
}
