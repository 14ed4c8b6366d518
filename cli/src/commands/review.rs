use minne::consolidate::{FactView, ReviewKind, Source};

use super::Env;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Option<Action>,
    /// Include resolved entries.
    #[arg(long)]
    all: bool,
    /// Print as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Accept an entry: its fact or procedure becomes active and confirmed.
    Confirm {
        /// The entry's id, from `minne review`.
        id: i64,
    },
    /// Reject an entry: it is not proposed again from the same evidence.
    Reject {
        /// The entry's id.
        id: i64,
    },
    /// Change the proposed value (or a procedure request's instruction), then confirm it.
    Edit {
        /// The entry's id.
        id: i64,
        /// The corrected value or instruction.
        value: String,
    },
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let mut engine = env.open()?;
    match args.action {
        Some(Action::Confirm { id }) => {
            engine.review_confirm(id).map_err(|e| entry_error(e, id))?;
            println!("Confirmed review entry #{id}.");
            return Ok(());
        }
        Some(Action::Reject { id }) => {
            engine.review_reject(id).map_err(|e| entry_error(e, id))?;
            println!(
                "Rejected review entry #{id}; it will not be proposed again from the same evidence."
            );
            return Ok(());
        }
        Some(Action::Edit { id, value }) => {
            engine
                .review_edit(id, &value)
                .map_err(|e| entry_error(e, id))?;
            println!("Edited and confirmed review entry #{id}.");
            return Ok(());
        }
        None => {}
    }
    let queue = engine.review_queue(args.all)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&queue)?);
        return Ok(());
    }
    if queue.is_empty() {
        println!("Nothing to review in `{}`.", env.context);
    }
    for item in &queue {
        let kind = match item.kind {
            ReviewKind::Candidate => "candidate",
            ReviewKind::Conflict => "conflict",
            ReviewKind::ProcedureRequest => "procedure",
        };
        println!(
            "#{:<5} {:<9} {:<9} {}",
            item.id, kind, item.status, item.reason
        );
        if let Some(f) = &item.fact {
            print_fact(
                if item.kind == ReviewKind::Conflict {
                    "new"
                } else {
                    "fact"
                },
                f,
            );
        }
        if let Some(f) = &item.other {
            print_fact("held", f);
        }
        if let Some(p) = &item.procedure {
            println!("       procedure \"{}\"", p.instruction);
            print_sources(&p.sources);
        }
    }
    Ok(())
}

fn print_fact(label: &str, f: &FactView) {
    println!(
        "       {label:<4} {} = {}  (since {})",
        f.attribute,
        f.value,
        f.valid_from.format("%Y-%m-%d")
    );
    print_sources(&f.sources);
}

/// The user's words an entry rests on, one line each: every entry shows its source quotes.
fn print_sources(sources: &[Source]) {
    for s in sources {
        println!(
            "            \"{}\"  episode #{} {}",
            s.quote,
            s.episode_id,
            crate::time::shown(s.said_at)
        );
    }
}

/// The engine's not-found message points to `minne list`, which shows episodes, not review
/// entries: point to the command that lists these ids.
fn entry_error(e: minne::Error, id: i64) -> anyhow::Error {
    match e {
        minne::Error::NotFound { .. } => anyhow::anyhow!(
            "no review entry with id {id} in this context: `minne review` shows the ids \
             (`minne review --all` includes resolved ones)"
        ),
        other => other.into(),
    }
}
