//! `minne items`: the open items (commitments with their due times, seed 003's session
//! layer), and marking one done or open again. The user's word is final: an item set done
//! here is never reopened or withdrawn by a later consolidation.

use chrono::Utc;

use super::Env;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Option<Action>,
    /// Also list the items that are done.
    #[arg(long)]
    all: bool,
    /// Print as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Mark open item ID done (ids are shown by `minne items`).
    Done { id: i64 },
    /// Mark item ID open again.
    Reopen { id: i64 },
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let mut engine = env.open()?;
    if let Some(action) = args.action {
        let (id, done) = match action {
            Action::Done { id } => (id, true),
            Action::Reopen { id } => (id, false),
        };
        engine.set_open_item_done(id, done).map_err(|e| match e {
            minne::Error::NotFound { .. } => anyhow::anyhow!(
                "there is no open item #{id} in `{}`: `minne items --all` lists them with their ids",
                env.context
            ),
            e => e.into(),
        })?;
        if args.json {
            println!(
                "{}",
                serde_json::json!({"id": id, "status": if done { "done" } else { "open" }})
            );
        } else if done {
            println!("Open item #{id} is done.");
        } else {
            println!("Open item #{id} is open again.");
        }
        return Ok(());
    }
    let items = engine.open_items(!args.all)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&items)?);
        return Ok(());
    }
    if items.is_empty() {
        println!(
            "No {}items in `{}`: a commitment (\"I'll send it by Friday\") becomes one when it is captured.",
            if args.all { "" } else { "open " },
            env.context
        );
        return Ok(());
    }
    let now = Utc::now();
    for o in &items {
        println!(
            "item #{:<5} {:<4} {}: \"{}\"{}  (episode #{})",
            o.id,
            o.status,
            o.actor,
            o.text,
            crate::output::due_words(o, now),
            o.episode_id
        );
    }
    Ok(())
}
