//! Scenario runner: replays the real-failure cases of `shared/cases/cases.json` against the
//! engine and writes what the product returned for each check (observed.json). It observes
//! and never judges: `shared/cases/evaluate.py` gives the verdicts.
//!
//! How the conventions map onto Minne:
//! - Each case runs in a fresh data dir with a [`FixedClock`](crate::clock::FixedClock) the
//!   runner holds; before each step (message, action, check, in time order) the clock is set
//!   to the step's instant.
//! - Live messages are stored in their session at their position and captured on arrival
//!   ([`Engine::import_sessions`](crate::Engine::import_sessions), source `chat`); the case's
//!   message id is the stored message's external id, so provenance maps back to it. With
//!   `ingest_mode: backfill` every message is imported at once at `ingested_at`, with its
//!   own timestamp.
//! - Actions go through the calls the app and the CLI make: `delete_memory` lists the
//!   episodes and forgets each one whose text contains the match; `edit_memory` edits each
//!   ([`Engine::edit_episode`](crate::Engine::edit_episode); tags, which Minne lacks, block
//!   the case); `delete_conversation`, `forget_time_range` (in every context) and
//!   `forget_context` call [`Engine::forget`](crate::Engine::forget); `set_context_policy`
//!   sets the read policy ([`crate::policy`]); `run_consolidation` consolidates every
//!   context; `restart` closes every engine; `bulk_generate` imports the JSONL file beside the
//!   cases file; `export` writes each context's export under `<data dir>/exports/`. An action
//!   Minne has no engine call for is noted, and every later check of the case is left out
//!   (MISSING for the evaluator), never imitated.
//! - Checks: `recall` (k = 10 unless the check says, the product's own threshold, across the
//!   contexts the read policy allows ([`crate::policy::recall_across`]), wall time per run),
//!   `inspect` of `all` or `context:<name>` (the panel's listing, paged by offset), of
//!   `entity:<name>` ([`Engine::list_entity`](crate::Engine::list_entity)) and of
//!   `user_profile` (the profile's facts and procedures, superseded facts too when asked);
//!   each episode item carries every source message (restatements too) and `mention_count`;
//!   `raw_store_scan` (the printable text of the raw bytes of every file in the data dir, WAL
//!   included, split by the table that owns each page: [`scan`]), `capture_ack` (the capture
//!   report of that message), `list_time_range`
//!   ([`Engine::list_time_range`](crate::Engine::list_time_range), one item per message) and
//!   `export` (a JSON export per context, read back, with the panel's count).
//!
//! ```no_run
//! # fn main() -> minne::Result<()> {
//! use minne::scenario::{self, RunOptions};
//! let settings = minne::settings::Settings::from_env()?;
//! let embedder = minne::embed::load(&settings.models_dir, settings.model)?;
//! let file = scenario::load("cases.json".as_ref())?;
//! let options = RunOptions { only: None, scratch_dir: "/tmp/minne-scenarios".into(), keep_data: false };
//! let report = scenario::run(&file, embedder, &options, &mut |case| eprintln!("{} done", case.id))?;
//! println!("{}", serde_json::to_string_pretty(&report.observed).unwrap_or_default());
//! # Ok(())
//! # }
//! ```

mod actions;
pub mod cases;
mod checks;
pub mod observe;
pub mod runner;
pub mod scan;

pub use cases::{CaseFile, load};
pub use observe::{Item, Observation};
pub use runner::{CaseReport, LeftOut, RunOptions, RunReport, run};
