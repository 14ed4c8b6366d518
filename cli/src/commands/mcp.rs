//! `minne mcp`: Minne as a Model Context Protocol server for an assistant, over stdio.
//!
//! The server works on ONE context, chosen at start (`--context`, default `personal`); no tool
//! can name or reach another. Each tool is a few lines over one engine call, so the engine
//! enforces the context's mode exactly as it does for the CLI and the app:
//!
//! | tool | arguments | what it does |
//! |---|---|---|
//! | `remember` | `text`, `role?` (`user`\|`assistant`), `session?` | stores a message (source `mcp`), runs capture, returns the episodes with act kind and salience |
//! | `recall` | `query`, `k?` (1..=50, default 3), `format?` (`items`\|`prompt`) | `minne recall`: the top k that clear the threshold; empty when nothing is relevant |
//! | `forget` | one of `id`, `session`, `last` (`30m`, `1h`, `2d`); `confirm?` | forgets with a receipt; `session` or `last` needs `confirm: true`, else returns a preview |
//! | `list` | `limit?` (1..=200, default 20), `cursor?` | recent episodes, newest first; refused when `paused` |
//! | `status` | none | context, mode, counts and the latest capture jobs |
//! | `context` | `budget?` (50..=10000 estimated tokens, default 500: `minne::session_start::BUDGET_*`, which `minne context --budget` takes too) | `minne context --session-start`: the session-start block as text, and as JSON in the structured content; refused when `paused` |
//!
//! Requests are handled one at a time in the order received (transport.rs), so a pipelining
//! client sees each request take effect before the next. A key rotated while the server runs
//! makes it reopen the context with the new key (server.rs).
//!
//! stdout carries the protocol only; everything else goes to stderr. Bad arguments come back
//! as tool errors (`isError: true`) that say what is wrong, and the server keeps serving.

mod server;
mod tools;
mod transport;

use anyhow::Context as _;

use super::Env;

#[derive(Debug, clap::Args)]
pub struct Args {}

/// Serves the MCP tools on stdin/stdout until the client closes stdin.
pub fn run(env: &Env, _args: Args) -> anyhow::Result<()> {
    let engine = env.open_or_create()?;
    let mode = engine.mode()?;
    eprintln!(
        "minne mcp: serving the context `{}` ({mode} mode, {}) over stdio",
        env.context,
        engine.db_path().display()
    );
    // The same context, opened again with its key as stored now: after `minne key rotate`,
    // the open connection's key no longer reads the database.
    let again = Env {
        settings: env.settings.clone(),
        context: env.context.clone(),
    };
    let server = server::MinneServer::new(engine, Box::new(move || again.open()));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime for the MCP server")?;
    runtime.block_on(server.serve_stdio())?;
    eprintln!("minne mcp: the client closed stdin and every request is answered; stopping");
    Ok(())
}
