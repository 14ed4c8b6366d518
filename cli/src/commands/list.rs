use anyhow::{Context as _, bail};
use chrono::{DateTime, Utc};

use super::Env;
use crate::output;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// At most this many episodes (1 or more).
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..))]
    limit: u32,
    /// Skip this many (newest first).
    #[arg(long, default_value_t = 0)]
    offset: usize,
    /// List what was said from this time on instead (RFC 3339, like
    /// 2025-03-20T14:00:00+01:00): each message with its episodes, oldest first. Needs --to.
    #[arg(long, requires = "to", value_name = "TIME")]
    from: Option<String>,
    /// End of the window, not included (RFC 3339). Needs --from.
    #[arg(long, requires = "from", value_name = "TIME")]
    to: Option<String>,
    /// Print as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let engine = env.open()?;
    if let (Some(from), Some(to)) = (&args.from, &args.to) {
        let (from, to) = (parse_time(from)?, parse_time(to)?);
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
                m.sent_at.format("%Y-%m-%d %H:%M"),
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

fn parse_time(s: &str) -> anyhow::Result<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(s.trim())
        .map(|t| t.to_utc())
        .with_context(|| format!("`{s}` is not an RFC 3339 time like 2025-03-20T14:00:00+01:00"))
}
