use std::io::{BufRead, IsTerminal, Write};

use anyhow::{Context as _, bail};
use chrono::{DateTime, Utc};
use minne::forget::{ForgetReceipt, ForgetScope};
use minne::model::{EpisodeId, SessionId};

use super::Env;

#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("scope").required(true).args(["id", "session", "last", "from", "all_in_context", "everything"])))]
pub struct Args {
    /// One episode (ids are shown by `minne list`).
    #[arg(long)]
    id: Option<i64>,
    /// One conversation: its session key (`locomo:conv-26:session_2`, as `recall --json`
    /// shows it) or its number (`session_id` in `list --json`).
    #[arg(long)]
    session: Option<String>,
    /// Everything written in the last DURATION: `30m`, `1h`, `2d`.
    #[arg(long, value_name = "DURATION")]
    last: Option<String>,
    /// Everything written from this time (RFC 3339, like 2026-03-02T09:00:00+01:00)...
    #[arg(long, requires = "to")]
    from: Option<String>,
    /// ...up to (not including) this time.
    #[arg(long, requires = "from")]
    to: Option<String>,
    /// Everything in this context.
    #[arg(long)]
    all_in_context: bool,
    /// Everything in every context.
    #[arg(long)]
    everything: bool,
    /// Do not ask for confirmation (needed for wide scopes when not on a terminal).
    #[arg(long, short = 'y')]
    yes: bool,
    /// Print the receipt as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let scope = if let Some(id) = args.id {
        ForgetScope::Episode(EpisodeId(id))
    } else if let Some(session) = &args.session {
        match session.parse::<i64>() {
            Ok(id) => ForgetScope::Session(SessionId(id)),
            Err(_) => ForgetScope::Session(env.open()?.session_id(session)?),
        }
    } else if let Some(d) = &args.last {
        ForgetScope::Last(parse_duration(d)?)
    } else if let (Some(from), Some(to)) = (&args.from, &args.to) {
        ForgetScope::TimeRange {
            from: parse_time(from)?,
            to: parse_time(to)?,
        }
    } else {
        ForgetScope::Context
    };
    let contexts = if args.everything {
        minne::list_contexts(&env.settings.data_dir)?
            .into_iter()
            .map(|c| c.name)
            .collect()
    } else {
        vec![env.context.clone()]
    };
    let wide = !matches!(scope, ForgetScope::Episode(_));
    let mut receipts = Vec::new();
    for context in contexts {
        let mut engine = super::Env {
            settings: env.settings.clone(),
            context: context.clone(),
        }
        .open()?;
        if wide && !args.yes {
            let preview = engine.preview_forget(&scope)?;
            if preview.messages == 0 {
                continue;
            }
            let question = format!(
                "Forget {} messages and {} episodes in `{context}` ({} to {})? This cannot be undone. [y/N] ",
                preview.messages,
                preview.episodes,
                preview
                    .from
                    .map(|t| t.format("%Y-%m-%d %H:%M").to_string())
                    .unwrap_or_default(),
                preview
                    .to
                    .map(|t| t.format("%Y-%m-%d %H:%M").to_string())
                    .unwrap_or_default(),
            );
            if !confirm(&question)? {
                eprintln!("Nothing forgotten in `{context}`.");
                continue;
            }
        }
        let receipt = engine.forget(&scope)?;
        receipts.push((context, receipt));
    }
    if args.json {
        let out: Vec<_> = receipts
            .iter()
            .map(|(c, r)| serde_json::json!({"context": c, "receipt": r}))
            .collect();
        let value = if args.everything {
            serde_json::Value::Array(out)
        } else {
            out.into_iter()
                .next()
                .map(|o| o["receipt"].clone())
                .unwrap_or(serde_json::Value::Null)
        };
        println!("{}", serde_json::to_string_pretty(&value)?);
        return Ok(());
    }
    if receipts.is_empty() {
        println!("Nothing was forgotten.");
    }
    for (context, r) in &receipts {
        print_receipt(context.as_str(), r);
    }
    Ok(())
}

fn print_receipt(context: &str, r: &ForgetReceipt) {
    println!(
        "Forgot in `{context}` ({}): {} messages removed, {} redacted; {} episodes, {} embeddings, {} participant rows, {} sessions; {} tombstones written.",
        r.scope,
        r.messages,
        r.messages_redacted,
        r.episodes,
        r.embeddings,
        r.participants,
        r.sessions,
        r.tombstones
    );
    if let (Some(from), Some(to)) = (r.from, r.to) {
        println!(
            "  written between {} and {}",
            from.format("%Y-%m-%d %H:%M UTC"),
            to.format("%Y-%m-%d %H:%M UTC")
        );
    }
    if r.exports > 0 {
        println!(
            "  {} export files Minne wrote held some of it and were removed",
            r.exports
        );
    }
    if r.facts > 0 {
        println!("  {} facts rested only on it and were removed", r.facts);
    }
    for n in &r.not_reached {
        println!("  not reached: {n}");
    }
}

fn confirm(question: &str) -> anyhow::Result<bool> {
    if !std::io::stdin().is_terminal() {
        bail!("this forgets more than one item: add --yes to confirm when not on a terminal");
    }
    eprint!("{question}");
    std::io::stderr().flush().ok();
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    Ok(matches!(line.trim(), "y" | "Y" | "yes"))
}

/// `30m`, `1h`, `2d`, `90s`, `1w`.
fn parse_duration(s: &str) -> anyhow::Result<chrono::Duration> {
    let s = s.trim();
    let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (n, unit) = s.split_at(split);
    let n: i64 = n.parse().with_context(|| {
        format!("`{s}` is not a duration: use a number and s, m, h, d or w (like 1h)")
    })?;
    Ok(match unit {
        "s" => chrono::Duration::seconds(n),
        "m" | "min" => chrono::Duration::minutes(n),
        "h" => chrono::Duration::hours(n),
        "d" => chrono::Duration::days(n),
        "w" => chrono::Duration::weeks(n),
        _ => bail!("`{s}` is not a duration: use a number and s, m, h, d or w (like 1h)"),
    })
}

fn parse_time(s: &str) -> anyhow::Result<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(s.trim())
        .map(|t| t.to_utc())
        .with_context(|| format!("`{s}` is not an RFC 3339 time like 2026-03-02T09:00:00+01:00"))
}
