use super::Env;
use crate::output;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// At most this many episodes.
    #[arg(long, default_value_t = 50)]
    limit: usize,
    /// Skip this many (newest first).
    #[arg(long, default_value_t = 0)]
    offset: usize,
    /// Print as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let engine = env.open()?;
    let episodes = engine.list_episodes(args.limit, args.offset)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&episodes)?);
        return Ok(());
    }
    if episodes.is_empty() {
        println!(
            "No episodes in `{}` yet: `minne import` brings a conversation in.",
            env.context
        );
    }
    for e in &episodes {
        println!("{}", output::episode_line(e));
    }
    Ok(())
}
