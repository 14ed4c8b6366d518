use anyhow::{anyhow, bail};

use super::Env;
use crate::output;
use crate::time::{Edge, parse_time};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// At most this many episodes (1 or more).
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..))]
    limit: u32,
    /// Skip this many (newest first).
    #[arg(long, default_value_t = 0)]
    offset: usize,
    /// List what was said from this time on instead: each message with its episodes, oldest
    /// first; with no --to, from then on. A date (2025-03-20: from the start of that day), a time
    /// (2025-03-20T14:00), both in your local time zone, or RFC 3339 with its offset
    /// (2025-03-20T14:00:00+01:00), as `forget --from` takes them.
    #[arg(long, value_name = "TIME")]
    from: Option<String>,
    /// End of the window, not included, in the same forms; a date means up to the end of
    /// that day. Needs --from.
    #[arg(long, requires = "from", value_name = "TIME")]
    to: Option<String>,
    /// Print as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let engine = env.open()?;
    if let Some(from) = &args.from {
        let from = parse_time(from, Edge::Start).map_err(|e| anyhow!("--from: {e}"))?;
        // Without --to, from then on, future-dated messages included (as `forget --from`
        // alone runs).
        let to = match &args.to {
            Some(to) => parse_time(to, Edge::End).map_err(|e| anyhow!("--to: {e}"))?,
            None => crate::time::open_end(),
        };
        if to <= from {
            bail!("--to must be after --from");
        }
        let items = engine.list_time_range(from, to)?;
        if args.json {
            println!("{}", serde_json::to_string_pretty(&items)?);
            return Ok(());
        }
        if items.is_empty() {
            println!("Nothing was said in `{}` from {from} to {to}.", env.context);
        }
        for m in &items {
            println!(
                "{}  {:<9} {}: \"{}\"{}",
                crate::time::shown(m.sent_at),
                m.role.as_str(),
                m.external_id.as_deref().unwrap_or("-"),
                m.text,
                if m.captured_at.is_none() {
                    "  (not captured yet)"
                } else {
                    ""
                }
            );
            for e in &m.episodes {
                println!("    {}", output::episode_line(e));
            }
        }
        return Ok(());
    }
    let episodes = engine.list_episodes(args.limit as usize, args.offset)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&episodes)?);
        return Ok(());
    }
    if episodes.is_empty() && args.offset > 0 {
        let held = engine.episode_count()?;
        if held > 0 {
            println!(
                "No episodes at offset {} (the context `{}` holds {}): use an offset below {held}.",
                args.offset,
                env.context,
                output::plural(held, "episode", "episodes"),
            );
            return Ok(());
        }
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
