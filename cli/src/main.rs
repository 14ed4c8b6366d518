//! `minne`: the command line of Minne, a local-first long-term memory for an AI assistant.
//! Each subcommand is a few lines calling one engine function.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod commands;
mod lazy;
mod output;

/// Minne: a local-first long-term memory for your AI assistant.
#[derive(Debug, Parser)]
#[command(name = "minne", version, about, long_about = None)]
struct Cli {
    /// Folder holding one database per context [env: MINNE_DATA_DIR; default: the platform
    /// data dir, ~/.local/share/minne on Linux].
    #[arg(long, global = true, value_name = "DIR")]
    data_dir: Option<PathBuf>,

    /// Folder holding the ONNX Runtime and the models, filled by scripts/setup-models.sh
    /// [env: MINNE_MODELS_DIR; default: ~/.cache/minne].
    #[arg(long, global = true, value_name = "DIR")]
    models_dir: Option<PathBuf>,

    /// The context to use: `work`, `personal` or one you created.
    #[arg(long, short = 'c', global = true, env = "MINNE_CONTEXT", default_value = minne::ContextName::DEFAULT)]
    context: String,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Import a conversation file: stores its messages, captures episodes and embeds them.
    Import(commands::import::Args),
    /// Recall the memories most relevant to a query (top k that clear a threshold).
    Recall(commands::recall::Args),
    /// List episodes, newest first.
    List(commands::list::Args),
    /// Forget an episode and everything derived from it.
    Forget(commands::forget::Args),
    /// List the contexts and how many episodes each holds.
    Contexts(commands::contexts::Args),
    /// Export the context as JSON (re-importable) or Markdown.
    Export(commands::export::Args),
    /// Show or set the context's mode: remember, recall_only or paused.
    Mode(commands::mode::Args),
    /// Show what the context holds and where capture stands.
    Status(commands::status::Args),
    /// Capture waiting messages now (a checkpoint), resuming an interrupted job.
    Capture(commands::capture::Args),
    /// Measure retrieval (LoCoMo, LongMemEval) or capture on labelled data.
    Eval(commands::eval::Args),
    /// Replay real-failure cases (shared/cases) and write what Minne returned per check.
    Scenario(commands::scenario::Args),
    /// Turn captured episodes into facts, procedures, open items and session summaries now.
    Consolidate(commands::consolidate::Args),
    /// Show the profile: active facts the user stated or confirmed, procedures, open items.
    Profile(commands::profile::Args),
    /// List facts with their status, confidence, validity and sources.
    Facts(commands::facts::Args),
    /// List the review queue, or confirm, reject or edit an entry.
    Review(commands::review::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            let mut shown = e.to_string();
            for cause in e.chain().skip(1) {
                // Engine errors already quote their source; don't print it twice.
                let text = cause.to_string();
                if !shown.contains(&text) {
                    eprintln!("  caused by: {text}");
                }
                shown = text;
            }
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    let mut settings = minne::settings::Settings::from_env()?;
    if let Some(dir) = cli.data_dir {
        settings.data_dir = dir;
    }
    if let Some(dir) = cli.models_dir {
        settings.models_dir = dir;
    }
    let env = commands::Env {
        settings,
        context: minne::ContextName::new(&cli.context)?,
    };
    match cli.command {
        Command::Import(args) => commands::import::run(&env, args),
        Command::Recall(args) => commands::recall::run(&env, args),
        Command::List(args) => commands::list::run(&env, args),
        Command::Forget(args) => commands::forget::run(&env, args),
        Command::Contexts(args) => commands::contexts::run(&env, args),
        Command::Status(args) => commands::status::run(&env, args),
        Command::Mode(args) => commands::mode::run(&env, args),
        Command::Export(args) => commands::export::run(&env, args),
        Command::Capture(args) => commands::capture::run(&env, args),
        Command::Eval(args) => commands::eval::run(&env, args),
        Command::Scenario(args) => commands::scenario::run(&env, args),
        Command::Consolidate(args) => commands::consolidate::run(&env, args),
        Command::Profile(args) => commands::profile::run(&env, args),
        Command::Facts(args) => commands::facts::run(&env, args),
        Command::Review(args) => commands::review::run(&env, args),
    }
}
