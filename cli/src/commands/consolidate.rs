use super::Env;

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
        "read {} episodes: {} facts added, {} reinforced, {} superseded; {} candidates and {} conflicts to review; \
         {} procedures, {} open items, {} session summaries; {} unsupported removed",
        r.episodes_read,
        r.facts_added,
        r.facts_supported,
        r.facts_superseded,
        r.candidates,
        r.conflicts,
        r.procedures_added,
        r.open_items_added,
        r.summaries_written,
        r.unsupported_dropped,
    );
    Ok(())
}
