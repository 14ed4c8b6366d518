//! `minne`: the command line of Minne, a local-first long-term memory for an AI assistant.
//! Each subcommand is a few lines calling one engine function.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod commands;
mod duration;
mod lazy;
mod output;
mod progress;
mod time;

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

    /// The context to use: `work`, `personal` or one you created [env: MINNE_CONTEXT;
    /// default: personal].
    #[arg(
        long,
        short = 'c',
        global = true,
        env = "MINNE_CONTEXT",
        hide_env = true,
        default_value = minne::ContextName::DEFAULT,
        hide_default_value = true
    )]
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
    /// List episodes, newest first, or what was said in a window (--from, --to).
    List(commands::list::Args),
    /// Rewrite a memory's words; the old words leave the store.
    Edit(commands::edit::Args),
    /// Forget memories for good, with everything derived from them: one episode (--id), a
    /// session, the last 30m/1h/2d (--last), a time range (--from, --to), a topic, the whole
    /// context or every context.
    Forget(commands::forget::Args),
    /// The session-start block: profile, procedures, open items, recent sessions, in a budget.
    Context(commands::context::Args),
    /// List the contexts and how many episodes each holds.
    Contexts(commands::contexts::Args),
    /// Export the context as JSON (re-importable) or Markdown.
    Export(commands::export::Args),
    /// Show or set the context's mode: remember, recall_only or paused.
    Mode(commands::mode::Args),
    /// Show what the context holds and where capture stands.
    Status(commands::status::Args),
    /// Encryption keys: where they live, rotation, passphrase mode.
    Key(commands::key::Args),
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
    /// List the open items (commitments and their due times), or mark one done or open again.
    Items(commands::items::Args),
    /// Serve the memory to an assistant over MCP (stdio): remember, recall, forget, list, status.
    Mcp(commands::mcp::Args),
}

fn main() -> ExitCode {
    restore_default_sigpipe();
    disable_runtime_telemetry();
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

/// Makes a closed pipe end the process quietly, as it does for other Unix tools
/// (`minne recall x | head -1` exits with status 141), instead of `println!` panicking with
/// "failed printing to stdout: Broken pipe". Rust starts programs with SIGPIPE ignored.
#[cfg(unix)]
#[allow(unsafe_code)] // one libc call, the only way to reset a signal disposition
fn restore_default_sigpipe() {
    // SAFETY: `signal` with SIG_DFL installs no handler code; it runs before any other thread
    // exists, so nothing races on the disposition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn restore_default_sigpipe() {}

/// Keeps ONNX Runtime's telemetry off: Microsoft's builds (the one setup-models.sh installs)
/// otherwise write a device id and queued usage events under `~/.cache/Microsoft` for upload,
/// and nothing about the user's machine may leave it. The library reads
/// `ORT_DISABLE_TELEMETRY` when it loads, before the engine's own
/// `with_telemetry(false)` (src/embed/onnx.rs) can act, so it is set here; a value the user
/// set is kept.
#[allow(unsafe_code)] // setting the environment is unsafe only with other threads running
fn disable_runtime_telemetry() {
    if std::env::var_os(minne::embed::RUNTIME_TELEMETRY_ENV).is_none() {
        // SAFETY: called first thing in `main`, before any other thread exists.
        unsafe { std::env::set_var(minne::embed::RUNTIME_TELEMETRY_ENV, "1") };
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
        Command::Edit(args) => commands::edit::run(&env, args),
        Command::Forget(args) => commands::forget::run(&env, args),
        Command::Context(args) => commands::context::run(&env, args),
        Command::Contexts(args) => commands::contexts::run(&env, args),
        Command::Status(args) => commands::status::run(&env, args),
        Command::Key(args) => commands::key::run(&env, args),
        Command::Mode(args) => commands::mode::run(&env, args),
        Command::Export(args) => commands::export::run(&env, args),
        Command::Capture(args) => commands::capture::run(&env, args),
        Command::Eval(args) => commands::eval::run(&env, args),
        Command::Scenario(args) => commands::scenario::run(&env, args),
        Command::Consolidate(args) => commands::consolidate::run(&env, args),
        Command::Profile(args) => commands::profile::run(&env, args),
        Command::Facts(args) => commands::facts::run(&env, args),
        Command::Review(args) => commands::review::run(&env, args),
        Command::Items(args) => commands::items::run(&env, args),
        Command::Mcp(args) => commands::mcp::run(&env, args),
    }
}
