use std::io::{BufRead, IsTerminal, Write};

use anyhow::{Context as _, bail};
use chrono::{DateTime, Utc};
use minne::forget::{ForgetReceipt, ForgetScope};
use minne::model::{EpisodeId, SessionId};

use super::Env;
use crate::output::plural;

#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("scope").required(true).args(["id", "session", "last", "from", "topic", "all_in_context", "everything"])))]
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
    /// Everything written from this time (RFC 3339, like 2026-03-02T09:00:00+01:00) up to
    /// --to, or up to now when --to is not given.
    #[arg(long, value_name = "TIME")]
    from: Option<String>,
    /// End of the --from range, not included (RFC 3339); must be later than --from.
    #[arg(long, requires = "from", value_name = "TIME")]
    to: Option<String>,
    /// Every memory about a topic, as recall finds it ("my ex", "the surprise party"): the
    /// list is shown and confirmed before anything goes.
    #[arg(long, value_name = "QUERY")]
    topic: Option<String>,
    /// Everything in this context.
    #[arg(long)]
    all_in_context: bool,
    /// Everything in every context.
    #[arg(long)]
    everything: bool,
    /// Do not ask for confirmation. Every scope other than --id asks first; when not on a
    /// terminal it is refused unless --yes is given.
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
    } else if let Some(query) = &args.topic {
        ForgetScope::Topic {
            query: query.clone(),
        }
    } else if let Some(from) = &args.from {
        let from = parse_time(from)?;
        let to = match &args.to {
            Some(to) => parse_time(to)?,
            None => Utc::now(),
        };
        if from >= to {
            bail!(
                "--from ({}) is not earlier than --to ({}): that range holds nothing; give a \
                 --from before --to (or leave --to out to mean now)",
                from.format("%Y-%m-%d %H:%M:%S UTC"),
                to.format("%Y-%m-%d %H:%M:%S UTC")
            );
        }
        ForgetScope::TimeRange { from, to }
    } else {
        ForgetScope::Context
    };
    let contexts = if args.everything {
        minne::context::list_contexts_with(&env.settings.data_dir, &env.settings.keys)?
            .into_iter()
            .map(|c| c.name)
            .collect()
    } else {
        vec![env.context.clone()]
    };
    let wide = !matches!(scope, ForgetScope::Episode(_));
    let mut receipts = Vec::new();
    // Whether a line already told the user why nothing went (a declined prompt, an empty topic).
    let mut explained = false;
    for context in contexts {
        let mut engine = super::Env {
            settings: env.settings.clone(),
            context: context.clone(),
        }
        .open()?;
        if matches!(scope, ForgetScope::Topic { .. }) {
            let preview = engine.preview_forget(&scope)?;
            if preview.items.is_empty() {
                eprintln!("Nothing in `{context}` is about that topic.");
                explained = true;
                continue;
            }
            // The list goes where the user reads it; stdout stays the receipt with --json.
            let list = topic_list(context.as_str(), &preview.items);
            if args.json || !args.yes {
                eprint!("{list}");
            } else {
                print!("{list}");
            }
            let memories = plural(preview.items.len(), "memory", "memories");
            if !args.yes
                && !confirm(
                    &format!("Forget these {memories}? This cannot be undone. [y/N] "),
                    &format!("this forgets {memories} in `{context}` about that topic"),
                )?
            {
                eprintln!("Nothing forgotten in `{context}`.");
                explained = true;
                continue;
            }
        } else if wide && !args.yes {
            let preview = engine.preview_forget(&scope)?;
            if preview.messages == 0 {
                continue;
            }
            let what = format!(
                "{} / {} {}",
                plural(preview.messages, "message", "messages"),
                plural(preview.episodes, "episode", "episodes"),
                scope_words(&scope, &args, context.as_str()),
            );
            let written = match (preview.from, preview.to) {
                (Some(from), Some(to)) => format!(
                    " (written {} to {})",
                    from.format("%Y-%m-%d %H:%M"),
                    to.format("%Y-%m-%d %H:%M")
                ),
                _ => String::new(),
            };
            let question = format!("Forget {what}{written}? This cannot be undone. [y/N] ");
            if !confirm(&question, &format!("this forgets {what}"))? {
                eprintln!("Nothing forgotten in `{context}`.");
                explained = true;
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
    if receipts.is_empty() && !explained {
        println!("Nothing was forgotten.");
    }
    for (context, r) in &receipts {
        print_receipt(context.as_str(), r);
    }
    Ok(())
}

fn print_receipt(context: &str, r: &ForgetReceipt) {
    println!(
        "Forgot in `{context}` ({}): {} removed, {} redacted; {}, {}, {}, {}; {} written.",
        r.scope,
        plural(r.messages, "message", "messages"),
        r.messages_redacted,
        plural(r.episodes, "episode", "episodes"),
        plural(r.embeddings, "embedding", "embeddings"),
        plural(r.participants, "participant row", "participant rows"),
        plural(r.sessions, "session", "sessions"),
        plural(r.tombstones, "tombstone", "tombstones"),
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
            "  {} Minne wrote held some of it and {} removed",
            plural(r.exports, "export file", "export files"),
            if r.exports == 1 { "was" } else { "were" }
        );
    }
    if r.facts > 0 {
        println!(
            "  {} rested only on it and {} removed",
            plural(r.facts, "fact", "facts"),
            if r.facts == 1 { "was" } else { "were" }
        );
    }
    for n in &r.not_reached {
        println!("  not reached: {n}");
    }
}

/// The memories a topic forget would remove, one line each: id, when, who, the words.
fn topic_list(context: &str, items: &[minne::episodes::EpisodeView]) -> String {
    let mut out = format!(
        "{} in `{context}` {} about that topic:\n",
        plural(items.len(), "memory", "memories"),
        if items.len() == 1 { "is" } else { "are" }
    );
    for e in items {
        out.push_str(&format!(
            "  #{} {} {}: {}\n",
            e.id,
            e.occurred_at.format("%Y-%m-%d %H:%M"),
            e.actor,
            e.text
        ));
    }
    out
}

/// Where a wide scope reaches, for the confirmation: "in `work` from the last hour".
fn scope_words(scope: &ForgetScope, args: &Args, context: &str) -> String {
    match scope {
        ForgetScope::Last(d) => format!("in `{context}` from the last {}", span_words(*d)),
        ForgetScope::Session(id) => match &args.session {
            Some(key) if key.parse::<i64>().is_err() => {
                format!("in `{context}` in the session `{key}`")
            }
            _ => format!("in `{context}` in session {}", id.0),
        },
        ForgetScope::TimeRange { from, to } => format!(
            "in `{context}` written from {} to {}",
            from.format("%Y-%m-%d %H:%M UTC"),
            to.format("%Y-%m-%d %H:%M UTC")
        ),
        _ => format!("in all of `{context}`"),
    }
}

/// A duration in the largest whole unit: "hour", "2 hours", "90 minutes", "day".
fn span_words(d: chrono::Duration) -> String {
    let s = d.num_seconds();
    let (n, one, many) = match s {
        s if s % 604_800 == 0 => (s / 604_800, "week", "weeks"),
        s if s % 86_400 == 0 => (s / 86_400, "day", "days"),
        s if s % 3_600 == 0 => (s / 3_600, "hour", "hours"),
        s if s % 60 == 0 => (s / 60, "minute", "minutes"),
        s => (s, "second", "seconds"),
    };
    if n == 1 {
        one.to_string()
    } else {
        plural(n, one, many)
    }
}

/// Asks `question` on the terminal; off a terminal, refuses with `what` ("this forgets 1
/// message / 1 episode ...") and how to confirm.
fn confirm(question: &str, what: &str) -> anyhow::Result<bool> {
    if !std::io::stdin().is_terminal() {
        bail!(
            "{what}; add --yes to confirm (every scope other than --id asks first, and there \
             is no terminal to ask on)"
        );
    }
    eprint!("{question}");
    std::io::stderr().flush().ok();
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    Ok(matches!(line.trim(), "y" | "Y" | "yes"))
}

/// `30m`, `1h`, `2d`, `90s`, `1w`: a positive whole number and a unit. Errors: anything
/// else, and zero (a window that holds nothing).
pub(crate) fn parse_duration(s: &str) -> anyhow::Result<chrono::Duration> {
    let s = s.trim();
    let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (n, unit) = s.split_at(split);
    let n: i64 = n.parse().with_context(|| {
        format!("`{s}` is not a duration: use a number and s, m, h, d or w (like 1h)")
    })?;
    if n == 0 {
        bail!(
            "`{s}` is no time at all, so it would forget nothing: give a positive duration like 30m or 1h"
        );
    }
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
