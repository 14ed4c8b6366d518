//! One module per subcommand; each calls one engine function.

use std::sync::Arc;

use anyhow::Context as _;
use minne::clock::SystemClock;
use minne::llm::OpenAiChat;
use minne::settings::Settings;
use minne::{ContextName, Engine};

use crate::lazy::LazyEmbedder;

pub mod capture;
pub mod consolidate;
pub mod context;
pub mod contexts;
pub mod edit;
pub mod eval;
pub mod export;
pub mod facts;
pub mod forget;
pub mod import;
pub mod items;
pub mod key;
pub mod list;
pub mod mcp;
pub mod mode;
pub mod profile;
pub mod recall;
pub mod review;
pub mod scenario;
pub mod status;

/// What every subcommand gets: the settings and the chosen context.
#[derive(Debug)]
pub struct Env {
    pub settings: Settings,
    pub context: ContextName,
}

impl Env {
    /// Opens the chosen context for a command that reads or changes what is stored, creating
    /// nothing in a data dir that holds no Minne data: a mistyped `--data-dir` or
    /// `MINNE_DATA_DIR` is reported ([`minne::Error::NoData`]) instead of becoming an empty
    /// store. The platform data dir is the exception: on a new install it is created as the
    /// app creates it, so a read there says that nothing is stored yet.
    pub fn open(&self) -> anyhow::Result<Engine> {
        self.require_data()?;
        self.open_or_create()
    }

    /// Refuses a data dir the user chose that holds no Minne data (see [`Env::open`]).
    pub fn require_data(&self) -> anyhow::Result<()> {
        if !self.settings.data_dir_is_default() {
            minne::context::require_data(&self.settings.data_dir)?;
        }
        Ok(())
    }

    /// Opens the chosen context with the system clock and a lazily loaded embedder, creating
    /// the data dir and the built-in contexts on first use: for the commands that bring
    /// memories in (import, capture, mcp, setting a mode, creating a context).
    pub fn open_or_create(&self) -> anyhow::Result<Engine> {
        let embedder = Arc::new(LazyEmbedder::new(
            self.settings.models_dir.clone(),
            self.settings.model,
        ));
        let mut engine = Engine::open_with(
            &self.settings.data_dir,
            &self.context,
            &self.settings.keys,
            embedder,
            Arc::new(SystemClock),
        )
        .with_context(|| {
            format!(
                "cannot open the context `{}` in {}",
                self.context,
                self.settings.data_dir.display()
            )
        })?;
        if let Some(note) = engine.take_key_notice() {
            eprintln!("note: {note}");
        }
        // The user's local days are this machine's (TZ, else the system's zone).
        engine
            .set_time_zone(minne::zone::from_env())
            .context("cannot store the time zone")?;
        if let Some(config) = &self.settings.llm {
            engine.set_llm(Some(Arc::new(OpenAiChat::new(config.clone()))));
        }
        Ok(engine)
    }
}
