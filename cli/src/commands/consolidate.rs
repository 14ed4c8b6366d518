use super::Env;
use crate::output::plural;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let mut engine = env.open()?;
    let r = engine.consolidate()?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
        return Ok(());
    }
    println!(
        "read {}: {} added, {} reinforced, {} superseded; {} and {} to review; \
         {}, {}, {}; {} unsupported removed",
        plural(r.episodes_read, "episode", "episodes"),
        plural(r.facts_added, "fact", "facts"),
        r.facts_supported,
        r.facts_superseded,
        plural(r.candidates, "candidate", "candidates"),
        plural(r.conflicts, "conflict", "conflicts"),
        plural(r.procedures_added, "procedure", "procedures"),
        plural(r.open_items_added, "open item", "open items"),
        plural(r.summaries_written, "session summary", "session summaries"),
        r.unsupported_dropped,
    );
    Ok(())
}
