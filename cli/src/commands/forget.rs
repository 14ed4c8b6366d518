use std::io::{BufRead, IsTerminal, Write};

use anyhow::{anyhow, bail};
use minne::forget::{ForgetReceipt, ForgetScope};
use minne::model::{EpisodeId, SessionId};

use super::Env;
use crate::output::plural;
use crate::time::{Edge, open_end, parse_time};

#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("scope").required(true).args(["id", "session", "last", "from", "topic", "all_in_context", "everything"])))]
pub struct Args {
    /// One episode (ids are shown by `minne list`).
    #[arg(long)]
    id: Option<i64>,
    /// One conversation: its session key (`locomo:conv-26:session_2`, as `recall --json`
    /// shows it), the id it had in the imported file (`1` of `transcript:1`) or its number
    /// (`session_id` in `list --json`; `#N` is always the number).
    #[arg(long)]
    session: Option<String>,
    /// Everything written in the last DURATION: `30m`, `1h`, `2d`.
    #[arg(long, value_name = "DURATION")]
    last: Option<String>,
    /// Everything written from this time up to --to, or from then on when --to is not given
    /// (messages dated in the future included): a
    /// date (2026-03-02: from the start of that day), a time (2026-03-02T09:00), both in
    /// your local time zone, or RFC 3339 with its offset (2026-03-02T09:00:00+01:00).
    #[arg(long, value_name = "TIME")]
    from: Option<String>,
    /// End of the --from range, not included, in the same forms; a date means up to the end
    /// of that day (`--from 2026-03-02 --to 2026-03-02` is that whole day).
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

/// The conversation `--session` names: `#N` is session number N; otherwise a stored key,
/// or an import's own id (`1` for `transcript:1`, as `minne list` shows it), else a session
/// number. When a number is both another conversation's number and a key's id, nothing is
/// guessed: a fresh user's `--session 1` meant `transcript:1` and forgot session number 1.
fn session_scope(engine: &minne::engine::Engine, session: &str) -> anyhow::Result<SessionId> {
    let session = session.trim();
    if let Some(n) = session
        .strip_prefix('#')
        .and_then(|n| n.parse::<i64>().ok())
    {
        return Ok(SessionId(n));
    }
    let named = engine.sessions_named(session)?;
    let number = match session.parse::<i64>() {
        Ok(n) => engine
            .session_key(SessionId(n))?
            .map(|key| (SessionId(n), key)),
        Err(_) => None,
    };
    if let Some((id, _)) = named.iter().find(|(_, key)| key == session) {
        return Ok(*id);
    }
    match (named.as_slice(), number) {
        ([], None) => Ok(engine.session_id(session)?),
        ([(id, _)], None) => Ok(*id),
        ([], Some((n, _))) => Ok(n),
        ([(id, _)], Some((n, _))) if *id == n => Ok(n),
        (keys, number) => {
            let mut meant: Vec<String> = keys
                .iter()
                .map(|(_, key)| format!("`--session {key}`"))
                .collect();
            if let Some((n, key)) = number {
                meant.push(format!(
                    "`--session '#{}'` (session number {}, `{key}`)",
                    n.0, n.0
                ));
            }
            bail!(
                "`--session {session}` could mean more than one conversation; nothing was \
                 forgotten. Say which: {}",
                meant.join(" or ")
            )
        }
    }
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let scope = if let Some(id) = args.id {
        ForgetScope::Episode(EpisodeId(id))
    } else if let Some(session) = &args.session {
        ForgetScope::Session(session_scope(&env.open()?, session)?)
    } else if let Some(d) = &args.last {
        ForgetScope::Last(parse_duration(d)?)
    } else if let Some(query) = &args.topic {
        if query.trim().is_empty() {
            bail!(
                "--topic is empty: say what the memories are about, like --topic \"my ex\" \
                 (nothing was forgotten)"
            );
        }
        ForgetScope::Topic {
            query: query.clone(),
        }
    } else if let Some(from) = &args.from {
        let from = parse_time(from, Edge::Start).map_err(|e| anyhow!("--from: {e}"))?;
        let to = match &args.to {
            Some(to) => parse_time(to, Edge::End).map_err(|e| anyhow!("--to: {e}"))?,
            // From then on, also what is dated after now: an export with a clock ahead, or a
            // message dated in the future, is still "written from" that time (a tester's
            // future-dated message stayed behind `--from` without `--to`).
            None => open_end(),
        };
        if from >= to {
            bail!(
                "--from ({}) is not earlier than --to ({}): that range holds nothing; give a \
                 --from before --to (or leave --to out to mean from then on)",
                from.format("%Y-%m-%d %H:%M:%S UTC"),
                to.format("%Y-%m-%d %H:%M:%S UTC")
            );
        }
        ForgetScope::TimeRange { from, to }
    } else {
        ForgetScope::Context
    };
    // Files in the data dir that are certainly no Minne database (junk, another program's
    // SQLite file): --everything forgets the contexts and leaves these alone, saying so.
    let mut left_alone = Vec::new();
    let contexts = if args.everything {
        // Listing the contexts creates the built-in ones: a mistyped --data-dir is refused
        // first (`Error::NoData`), not made into an empty store with nothing to forget.
        env.require_data()?;
        let mut names = Vec::new();
        for c in minne::context::list_contexts_with(&env.settings.data_dir, &env.settings.keys)? {
            match c.not_a_store {
                Some(why) => left_alone.push(format!("{} ({why})", c.path.display())),
                None => names.push(c.name),
            }
        }
        names
    } else {
        vec![env.context.clone()]
    };
    if !left_alone.is_empty() {
        eprintln!(
            "Left alone, not Minne databases (Minne stored nothing in them, so it forgets \
             nothing there; delete them yourself if they are yours to delete): {}",
            left_alone.join("; ")
        );
    }
    let wide = !matches!(scope, ForgetScope::Episode(_));
    // Every context is opened (unlocked) before anything goes: a context that cannot be
    // opened must not leave the forget half done, with the others already wiped and no
    // receipt for them.
    let mut engines = Vec::new();
    let mut closed = Vec::new();
    for context in contexts {
        match (super::Env {
            settings: env.settings.clone(),
            context: context.clone(),
        })
        .open()
        {
            Ok(engine) => engines.push((context, engine)),
            Err(e) => closed.push(format!("{e:#}")),
        }
    }
    if !closed.is_empty() {
        if args.everything {
            bail!(
                "nothing was forgotten, in any context: {}. Unlock {} as said and run \
                 the command again (`minne key status` shows where each key lives), or forget \
                 the others one at a time with `minne --context NAME forget --all-in-context`",
                closed.join("; "),
                if closed.len() == 1 { "it" } else { "them" }
            );
        }
        bail!("{}", closed.join("; "));
    }
    // Without --yes, --everything asks once, naming what every context holds.
    if args.everything && wide && !args.yes && !matches!(scope, ForgetScope::Topic { .. }) {
        let mut parts = Vec::new();
        for (context, engine) in &engines {
            let preview = engine.preview_forget(&scope)?;
            if preview.messages > 0 {
                parts.push(format!(
                    "{} / {} in `{context}`",
                    plural(preview.messages, "message", "messages"),
                    plural(preview.episodes, "episode", "episodes"),
                ));
            }
        }
        if parts.is_empty() {
            return nothing(&args, None, "no context holds anything to forget");
        }
        let what = format!(
            "{} ({} in all)",
            parts.join(", "),
            plural(engines.len(), "context", "contexts")
        );
        let question = format!("Forget {what}? This cannot be undone. [y/N] ");
        if !confirm(&question, &format!("this forgets {what}"))? {
            eprintln!("Nothing forgotten.");
            return nothing(&args, None, "the confirmation was declined");
        }
    }
    let mut receipts: Vec<(minne::ContextName, ForgetReceipt)> = Vec::new();
    // Why nothing went, when a line already told the user (a declined prompt, an empty topic).
    let mut explained = false;
    let mut why = "nothing is in that scope";
    for (context, mut engine) in engines {
        let mut picked = Vec::new();
        if let ForgetScope::Topic { query } = &scope {
            let preview = engine.preview_forget(&scope)?;
            if preview.items.is_empty() && preview.unsure.is_empty() && preview.replies == 0 {
                eprintln!("Nothing in `{context}` is about that topic.");
                explained = true;
                why = "nothing is about that topic";
                continue;
            }
            // The list goes where the user reads it; stdout stays the receipt with --json.
            let say = |text: &str| {
                if args.json || !args.yes {
                    eprint!("{text}");
                } else {
                    print!("{text}");
                }
            };
            if !preview.items.is_empty() {
                say(&topic_list(context.as_str(), &preview.items));
                let memories = plural(preview.items.len(), "memory", "memories");
                if !args.yes
                    && !confirm(
                        &format!("Forget these {memories}? This cannot be undone. [y/N] "),
                        &format!("this forgets {memories} in `{context}` about that topic"),
                    )?
                {
                    eprintln!("Nothing forgotten in `{context}`.");
                    explained = true;
                    why = "the confirmation was declined";
                    continue;
                }
            }
            if preview.items.is_empty() && preview.replies > 0 {
                // No memory of the user's is about it, but the assistant said it: its
                // sentences about the topic are all a forget takes.
                let replies = plural(preview.replies, "reply", "replies");
                say(&format!(
                    "No memory in `{context}` is about that topic, but {replies} of the \
                     assistant's mention it.\n"
                ));
                if !args.yes
                    && !confirm(
                        &format!(
                            "Forget the sentences about it in those {replies}? This cannot be \
                             undone. [y/N] "
                        ),
                        &format!(
                            "this forgets what {replies} in `{context}` said about that topic"
                        ),
                    )?
                {
                    eprintln!("Nothing forgotten in `{context}`.");
                    explained = true;
                    why = "the confirmation was declined";
                    continue;
                }
            } else if preview.replies > 0 {
                say(&format!(
                    "With them go the assistant's sentences about it ({}).\n",
                    plural(preview.replies, "reply", "replies")
                ));
            }
            if !preview.unsure.is_empty() {
                say(&unsure_intro(context.as_str(), preview.unsure.len()));
                if args.yes {
                    say(&unsure_kept(&preview.unsure));
                } else if !std::io::stdin().is_terminal() {
                    // Only reached with no sure match (those asked first, and off a terminal
                    // that refused): --yes would forget none of these, so do not suggest it.
                    eprint!("{}", unsure_kept(&preview.unsure));
                    bail!(
                        "nothing was forgotten in `{context}`: no memory shares a word with \
                         that topic, and one close in meaning only needs its own answer; forget \
                         one with `minne forget --id ID`, or run this on a terminal to pick them"
                    );
                } else {
                    // One question per memory: none of these goes on the topic's word alone.
                    // Off a terminal `confirm` refuses, and nothing has gone yet.
                    for e in &preview.unsure {
                        if confirm(
                            &format!("  Forget {}? [y/N] ", memory_line(e)),
                            &format!(
                                "memory #{} shares no word with the topic and needs its own answer",
                                e.id
                            ),
                        )? {
                            picked.push(e.id);
                        }
                    }
                }
            }
            if preview.items.is_empty() && picked.is_empty() && preview.replies == 0 {
                eprintln!("Nothing forgotten in `{context}`.");
                explained = true;
                why = "nothing shares a word with that topic, and no memory close in meaning was picked";
                continue;
            }
            let receipt = match engine.forget_topic_with(query, &picked) {
                Ok(r) => r,
                Err(e) => {
                    return Err(anyhow::Error::new(e)
                        .context(format!("nothing was forgotten in `{context}`")));
                }
            };
            receipts.push((context, receipt));
            continue;
        } else if wide && !args.yes && !args.everything {
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
                    crate::time::shown(from),
                    crate::time::shown(to)
                ),
                _ => String::new(),
            };
            let question = format!("Forget {what}{written}? This cannot be undone. [y/N] ");
            if !confirm(&question, &format!("this forgets {what}"))? {
                eprintln!("Nothing forgotten in `{context}`.");
                explained = true;
                why = "the confirmation was declined";
                continue;
            }
        }
        // An error from the engine means its transaction rolled back: nothing went in this
        // context (a failure after the commit is a warning on the receipt instead). What went
        // in the contexts before it is still reported.
        let receipt = match engine.forget(&scope) {
            Ok(r) => r,
            Err(e) => {
                if !args.json {
                    for (c, r) in &receipts {
                        print_receipt(c.as_str(), r);
                    }
                }
                return Err(anyhow::Error::new(e).context(format!(
                    "nothing was forgotten in `{context}`{}",
                    if receipts.is_empty() {
                        ""
                    } else {
                        " (the contexts above were forgotten)"
                    }
                )));
            }
        };
        receipts.push((context, receipt));
    }
    if args.json {
        let out: Vec<_> = receipts
            .iter()
            .map(|(c, r)| serde_json::json!({"context": c, "receipt": r}))
            .collect();
        if args.everything {
            println!("{}", serde_json::to_string_pretty(&out)?);
            return Ok(());
        }
        match out.into_iter().next() {
            Some(o) => println!("{}", serde_json::to_string_pretty(&o["receipt"])?),
            None => return nothing(&args, Some(env.context.as_str()), why),
        }
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

/// Nothing was forgotten: with --json an object that says so (`{"forgotten": false, ...}`),
/// never a bare `null`; otherwise a line, unless one was printed already.
fn nothing(args: &Args, context: Option<&str>, why: &str) -> anyhow::Result<()> {
    if args.json {
        let mut value = serde_json::json!({"forgotten": false, "reason": why});
        if let Some(c) = context {
            value["context"] = serde_json::json!(c);
        }
        println!("{}", serde_json::to_string_pretty(&value)?);
    } else if why != "the confirmation was declined" {
        println!("Nothing was forgotten: {why}.");
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
    if r.exports_rewritten > 0 {
        println!(
            "  {} Minne wrote held some of it and {} rewritten without it (the rest of {} stays)",
            plural(r.exports_rewritten, "JSON export", "JSON exports"),
            if r.exports_rewritten == 1 {
                "was"
            } else {
                "were"
            },
            if r.exports_rewritten == 1 {
                "it"
            } else {
                "them"
            }
        );
    }
    if r.episodes_trimmed > 0 {
        println!(
            "  {} also about something else kept the rest of {} words (the clauses about the topic went)",
            plural(r.episodes_trimmed, "memory", "memories"),
            if r.episodes_trimmed == 1 {
                "its"
            } else {
                "their"
            }
        );
    }
    if r.echoes > 0 {
        println!(
            "  {} where a reply said the forgotten words back went with them",
            plural(r.echoes, "sentence", "sentences")
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
        out.push_str(&format!("  {}\n", memory_line(e)));
    }
    out
}

/// The heading over a topic's memories that are only close in meaning to it.
fn unsure_intro(context: &str, n: usize) -> String {
    format!(
        "{} in `{context}` {} no word with that topic and {} only close to it in meaning, \
         which this embedding model cannot tell apart from unrelated memories:\n",
        plural(n, "more memory", "more memories"),
        if n == 1 { "shares" } else { "share" },
        if n == 1 { "is" } else { "are" }
    )
}

/// With --yes, the memories close in meaning only are kept and listed, with how to forget one.
fn unsure_kept(items: &[minne::episodes::EpisodeView]) -> String {
    let mut out = String::new();
    for e in items {
        out.push_str(&format!("  {}\n", memory_line(e)));
    }
    out.push_str(&format!(
        "  {} kept (--yes forgets only memories that share a word with the topic); forget \
         one with `minne forget --id ID`.\n",
        if items.len() == 1 {
            "It was"
        } else {
            "They were"
        }
    ));
    out
}

/// One memory on one line: id, when, who, the words.
fn memory_line(e: &minne::episodes::EpisodeView) -> String {
    format!(
        "#{} {} {}: {}",
        e.id,
        crate::time::shown(e.occurred_at),
        e.actor,
        e.text
    )
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
        ForgetScope::TimeRange { from, to } if *to == open_end() => format!(
            "in `{context}` written from {} on",
            from.format("%Y-%m-%d %H:%M UTC")
        ),
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
/// `--last`'s window: checked and capped ([`crate::duration::parse_window`]), so a huge
/// count is an error that names the most, never a panic.
pub(crate) fn parse_duration(s: &str) -> anyhow::Result<chrono::Duration> {
    crate::duration::parse_window(s)
}
