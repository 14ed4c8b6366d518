//! `minne context --session-start --budget TOKENS [--json]`: what the assistant should know as
//! a session begins (procedures, who the user is, open items with overdue ones marked, more
//! about the user, likes and dislikes, recent sessions; see `minne::session_start`) within a
//! token budget. The MCP tool `context` gives the same block. Not to be confused with
//! `minne contexts`, which lists the contexts.

use minne::session_start::{BUDGET_DEFAULT, BUDGET_MAX, BUDGET_MIN};

use super::Env;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the session-start block (the only view for now; required so later views can be
    /// added beside it).
    #[arg(long, required = true)]
    session_start: bool,
    /// The most estimated tokens (characters / 4, rounded up) the block may take: 50 to
    /// 10,000, as the MCP tool `context` takes (minne::session_start::BUDGET_MIN and
    /// BUDGET_MAX).
    #[arg(
        long,
        default_value_t = BUDGET_DEFAULT,
        value_parser = clap::value_parser!(u32).range(i64::from(BUDGET_MIN)..=i64::from(BUDGET_MAX))
    )]
    budget: u32,
    /// Print as JSON: budget_tokens, used_tokens, parts (kind, label, items, omitted),
    /// omitted, text.
    #[arg(long)]
    json: bool,
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    debug_assert!(args.session_start);
    let engine = env.open()?;
    let block = engine.session_start(args.budget as usize)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&block)?);
        return Ok(());
    }
    if block.text.is_empty() {
        println!(
            "A budget of {} tokens holds not even one item ({} left out): raise --budget.",
            args.budget, block.omitted
        );
        return Ok(());
    }
    print!("{}", block.text);
    if block.omitted > 0 {
        eprintln!(
            "({} left out to stay within {} tokens; used {})",
            crate::output::plural(block.omitted, "more item", "more items"),
            block.budget_tokens,
            block.used_tokens
        );
    }
    Ok(())
}
