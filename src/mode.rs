//! A context's mode (DESIGN: `remember`, `recall_only`, `paused`), enforced in the engine so
//! no front end can get around it, and kept in the context's database so it survives restarts.

use std::fmt;
use std::str::FromStr;

use rusqlite::OptionalExtension;
use serde::{Deserialize, Serialize};

use crate::engine::Engine;
use crate::error::{Error, Result};

/// What a context may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Capture and recall (the default).
    #[default]
    Remember,
    /// Recall what is stored; capture nothing new.
    RecallOnly,
    /// Incognito: nothing captured, nothing recalled.
    Paused,
}

impl Mode {
    /// `remember`, `recall_only` or `paused`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Remember => "remember",
            Mode::RecallOnly => "recall_only",
            Mode::Paused => "paused",
        }
    }
}

impl FromStr for Mode {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "remember" => Ok(Mode::Remember),
            "recall_only" | "recall-only" => Ok(Mode::RecallOnly),
            "paused" => Ok(Mode::Paused),
            other => Err(Error::InvalidInput(format!(
                "unknown mode `{other}`: use remember, recall_only or paused"
            ))),
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Engine {
    /// The context's mode, `remember` unless set.
    pub fn mode(&self) -> Result<Mode> {
        let stored: Option<String> = self
            .store
            .conn()
            .query_row(
                "SELECT value FROM context_settings WHERE key = 'mode'",
                [],
                |r| r.get(0),
            )
            .optional()?;
        stored.as_deref().map_or(Ok(Mode::Remember), str::parse)
    }

    /// Sets the context's mode; it persists across restarts.
    pub fn set_mode(&mut self, mode: Mode) -> Result<()> {
        self.store.conn().execute(
            "INSERT INTO context_settings (key, value) VALUES ('mode', ?1)
             ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [mode.as_str()],
        )?;
        Ok(())
    }

    /// [`Error::ModeForbids`] unless the mode allows capturing.
    pub(crate) fn require_capture(&self, action: &'static str) -> Result<()> {
        match self.mode()? {
            Mode::Remember => Ok(()),
            mode => Err(Error::ModeForbids {
                context: self.context.to_string(),
                mode,
                action,
            }),
        }
    }

    /// [`Error::ModeForbids`] when the context is paused.
    pub(crate) fn require_recall(&self) -> Result<()> {
        match self.mode()? {
            Mode::Paused => Err(Error::ModeForbids {
                context: self.context.to_string(),
                mode: Mode::Paused,
                action: "recall",
            }),
            _ => Ok(()),
        }
    }
}
