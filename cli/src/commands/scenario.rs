//! `minne scenario run CASES.json --out observed.json`: replays real-failure cases against
//! the engine and writes what it returned for each check; `evaluate.py` judges.

use std::path::PathBuf;

use anyhow::Context as _;
use minne::scenario::{self, RunOptions};

use super::Env;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(Debug, clap::Subcommand)]
enum Sub {
    /// Run each case in a fresh data dir (the clock set to each step's instant) and write
    /// observed.json: check id → what Minne returned. Checks Minne cannot observe yet are
    /// left out (MISSING); nothing is judged here.
    Run(RunArgs),
}

#[derive(Debug, clap::Args)]
struct RunArgs {
    /// The cases file (shared/cases/cases.json or any file in its format).
    cases: PathBuf,
    /// Where to write observed.json.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Run only these cases, comma-separated (`MEM-01,MEM-05`).
    #[arg(long, value_delimiter = ',', value_name = "IDS")]
    only: Option<Vec<String>>,
    /// Keep each case's data dir here for inspection (default: a temporary folder, removed).
    #[arg(long, value_name = "DIR")]
    keep_data: Option<PathBuf>,
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let Sub::Run(args) = args.command;
    let file = scenario::load(&args.cases)?;
    let embedder = minne::embed::load(&env.settings.models_dir, env.settings.model)?;
    let temp = std::env::temp_dir().join(format!("minne-scenario-{}", std::process::id()));
    let options = RunOptions {
        only: args.only,
        scratch_dir: args.keep_data.clone().unwrap_or_else(|| temp.clone()),
        keep_data: args.keep_data.is_some(),
    };
    let result = scenario::run(&file, embedder, &options, &mut |case| {
        eprintln!(
            "{:<8} {} observed, {} left out ({:.1} s)",
            case.id,
            case.observed.len(),
            case.left_out.len(),
            case.seconds
        );
        for note in &case.notes {
            eprintln!("           note: {note}");
        }
        for left in &case.left_out {
            eprintln!("           left out {}: {}", left.check, left.reason);
        }
    });
    if args.keep_data.is_none() {
        // Each case removes its own folder; this removes the (now empty) parent.
        let _ = std::fs::remove_dir(&temp);
    }
    let report = result?;
    let json = serde_json::to_string_pretty(&report.observed)?;
    std::fs::write(&args.out, json + "\n")
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    let checks: usize = report
        .cases
        .iter()
        .map(|c| c.observed.len() + c.left_out.len())
        .sum();
    println!(
        "{}, {} of {} observed, written to {}",
        crate::output::plural(report.cases.len(), "case", "cases"),
        report.observed.len(),
        crate::output::plural(checks, "check", "checks"),
        args.out.display()
    );
    Ok(())
}
