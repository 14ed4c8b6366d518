//! `minne key status | rotate | passphrase`: where each context's encryption key lives, a new
//! key, and passphrase mode on or off (docs/encryption.md).

use std::io::{BufRead, IsTerminal, Write};

use anyhow::Context as _;
use minne::keys::{self, KeySource, KeyStatus, Passphrase};

use super::Env;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(Debug, clap::Subcommand)]
enum Sub {
    /// Show where each context's key lives: the OS keyring, a key file, or a passphrase.
    Status {
        /// Print as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Give the context (`--context`) a new random key. A running `minne mcp` server reopens
    /// the context with the new key at its next call. A passphrase-mode context changes its
    /// passphrase with `key passphrase`.
    Rotate,
    /// Switch the context (`--context`) to passphrase mode, or change its passphrase. The new
    /// passphrase is read from MINNE_NEW_PASSPHRASE, else (for a context with a stored key)
    /// from MINNE_PASSPHRASE, else from standard input without echo. The current passphrase,
    /// if any, comes from MINNE_PASSPHRASE.
    Passphrase {
        /// Switch back from a passphrase to a random stored key (keyring or key file).
        #[arg(long)]
        off: bool,
    },
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let data_dir = &env.settings.data_dir;
    let config = &env.settings.keys;
    let context = env.context.as_str();
    match args.command {
        Sub::Status { json } => {
            let all = keys::status(data_dir, config)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&all)?);
            } else if all.is_empty() {
                println!("No contexts in {} yet.", data_dir.display());
            } else {
                for s in &all {
                    print_status(s);
                }
            }
        }
        Sub::Rotate => {
            let status = keys::rotate(data_dir, context, config)?;
            eprintln!(
                "The context `{context}` has a new key. A running `minne mcp` server reopens it with the new key at its next call; restart anything else that had it open (the desktop app)."
            );
            print_status(&status);
        }
        Sub::Passphrase { off: true } => {
            let status = keys::remove_passphrase(data_dir, context, config)?;
            eprintln!("The context `{context}` no longer uses a passphrase.");
            print_status(&status);
        }
        Sub::Passphrase { off: false } => {
            let keyed = keys::status(data_dir, config)?
                .into_iter()
                .find(|s| s.context == context)
                .is_some_and(|s| {
                    matches!(s.source, KeySource::Keyring { .. } | KeySource::File { .. })
                });
            let new = new_passphrase(keyed)?;
            let status = keys::set_passphrase(data_dir, context, config, &new)?;
            eprintln!(
                "The context `{context}` now opens with the passphrase only: set MINNE_PASSPHRASE to use it. Forget the passphrase and the memories are gone."
            );
            print_status(&status);
        }
    }
    Ok(())
}

fn print_status(s: &KeyStatus) {
    let pending = if s.rotation_pending {
        "  (a rotation did not finish: run `minne key rotate`)"
    } else {
        ""
    };
    println!("{:<16} {}{pending}", s.context, s.source);
}

/// The new passphrase: MINNE_NEW_PASSPHRASE, else MINNE_PASSPHRASE when the context has a
/// stored key (so the variable is not also the current passphrase), else standard input.
fn new_passphrase(keyed: bool) -> anyhow::Result<Passphrase> {
    let from_env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    if let Some(p) = from_env("MINNE_NEW_PASSPHRASE") {
        return Ok(Passphrase::new(&p)?);
    }
    if keyed && let Some(p) = from_env("MINNE_PASSPHRASE") {
        return Ok(Passphrase::new(&p)?);
    }
    let stdin = std::io::stdin();
    let terminal = stdin.is_terminal();
    if terminal {
        eprint!("New passphrase: ");
        std::io::stderr().flush().ok();
        set_echo(false);
    }
    let mut line = String::new();
    let read = stdin.lock().read_line(&mut line);
    if terminal {
        set_echo(true);
        eprintln!();
    }
    read.context("cannot read the new passphrase from standard input")?;
    if !terminal && line.trim().is_empty() {
        anyhow::bail!(
            "no new passphrase given: set MINNE_NEW_PASSPHRASE, pipe it on standard input, or run this in a terminal to type it"
        );
    }
    Ok(Passphrase::new(&line)?)
}

/// Turns the terminal's echo off or on (`stty`), so a typed passphrase is not shown.
fn set_echo(on: bool) {
    let _ = std::process::Command::new("stty")
        .arg(if on { "echo" } else { "-echo" })
        .stdin(std::process::Stdio::inherit())
        .status();
}
