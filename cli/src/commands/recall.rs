use minne::recall::{DEFAULT_K, DEFAULT_THRESHOLD, RecallQuery};

use super::Env;
use crate::output;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to recall.
    query: String,
    /// At most this many results.
    #[arg(long, short = 'k', default_value_t = DEFAULT_K)]
    k: usize,
    /// Results must score at least this.
    #[arg(long, default_value_t = DEFAULT_THRESHOLD)]
    threshold: f64,
    /// Print the results as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let engine = env.open()?;
    let query = RecallQuery { k: args.k, threshold: args.threshold, ..RecallQuery::new(args.query) };
    let hits = engine.recall(&query)?;
    if args.json {
        let out: Vec<_> = hits.iter().map(output::hit_json).collect();
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    if hits.is_empty() {
        println!(
            "Nothing in `{}` is relevant enough (threshold {:.2}). Nothing is better than noise; lower --threshold to see weaker matches.",
            env.context, query.threshold
        );
    }
    for (i, hit) in hits.iter().enumerate() {
        println!("{}. {}", i + 1, output::hit_line(hit));
    }
    Ok(())
}
