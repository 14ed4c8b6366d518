//! # Minne: a local-first long-term memory for a personal AI assistant
//!
//! Conversations come in (import, chat, MCP), capture encodes them into **episodes** with an
//! act kind and a salience (seed 004), each episode fades on the FSRS-4.5 forgetting curve,
//! and recall brings back the few that matter, or nothing (seed 000). Each **context**
//! (`work`, `personal`, …) is its own SQLite file; no call reads two.
//!
//! ```no_run
//! use std::sync::Arc;
//! use minne::{Engine, ContextName, clock::SystemClock, embed, recall::RecallQuery, settings::Settings};
//! use minne::import::{ImportFormat, ImportOptions};
//!
//! # fn main() -> minne::Result<()> {
//! let settings = Settings::from_env()?;
//! let embedder = embed::load(&settings.models_dir, settings.model)?;
//! let context = ContextName::new(ContextName::DEFAULT)?;
//! let mut engine = Engine::open(&settings.data_dir, &context, embedder, Arc::new(SystemClock))?;
//! engine.import("chat.json".as_ref(), &ImportOptions::new(ImportFormat::Transcript), &mut |_| {})?;
//! for hit in engine.recall(&RecallQuery::new("when is the launch?"))? {
//!     println!("{:.2} {}", hit.score, hit.episode.text);
//! }
//! # Ok(())
//! # }
//! ```
#![deny(missing_docs)]
#![deny(unsafe_code)]

pub mod capture;
pub mod clock;
pub mod consolidate;
pub mod context;
pub mod edit;
pub mod embed;
pub mod engine;
pub mod episodes;
pub mod error;
pub mod eval;
pub mod export;
pub mod fade;
pub mod forget;
pub mod import;
pub mod keys;
pub mod listing;
pub mod llm;
pub mod mode;
pub mod model;
pub mod policy;
pub mod recall;
pub mod retention;
pub mod scenario;
pub mod secret;
pub mod session_start;
pub mod settings;
pub(crate) mod store;
#[cfg(test)]
mod tests;
pub mod zone;

pub use context::{ContextInfo, ContextName, list_contexts};
pub use engine::Engine;
pub use error::{Error, Result};
