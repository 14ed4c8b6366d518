//! Settings handed to the engine by the front ends. This is the one place that reads the
//! environment; the engine's logic never does.

use std::path::PathBuf;

use crate::embed::ModelChoice;
use crate::error::{Error, Result};
use crate::keys::{Encryption, KeyConfig, Passphrase};
use crate::llm::LlmConfig;

/// Where Minne keeps its files and which model it embeds with.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The folder holding one database per context.
    pub data_dir: PathBuf,
    /// The folder holding `onnxruntime/` and `models/`, filled by `scripts/setup-models.sh`.
    pub models_dir: PathBuf,
    /// The embedding model.
    pub model: ModelChoice,
    /// The optional LLM endpoint; `None` keeps everything on the rule-based paths.
    pub llm: Option<LlmConfig>,
    /// How the contexts' encryption keys are found and made (see [`crate::keys`]).
    pub keys: KeyConfig,
}

/// The default embedding model.
pub const DEFAULT_MODEL: ModelChoice = ModelChoice::E5Small;

impl Settings {
    /// The platform data dir, used when `MINNE_DATA_DIR` is unset (`~/.local/share/minne` on
    /// Linux); `None` without a home folder. A front end tells a data dir the user chose from
    /// the default with it: the default is created on first use, a chosen one that holds no
    /// data is most likely a typo.
    pub fn platform_data_dir() -> Option<PathBuf> {
        project_dirs().map(|d| d.data_dir().to_path_buf())
    }

    /// Whether `data_dir` is the platform data dir ([`Settings::platform_data_dir`]).
    pub fn data_dir_is_default(&self) -> bool {
        Settings::platform_data_dir().is_some_and(|d| d == self.data_dir)
    }

    /// Settings from the environment, falling back to the platform folders:
    /// `MINNE_DATA_DIR` (default: the platform data dir, `~/.local/share/minne` on Linux),
    /// `MINNE_MODELS_DIR` (default: the platform cache dir, `~/.cache/minne`) and
    /// `MINNE_MODEL` (`all-minilm-l6-v2` or `multilingual-e5-small`), and the optional LLM:
    /// `MINNE_LLM_URL`, `MINNE_LLM_MODEL` and `MINNE_LLM_API_KEY`.
    ///
    /// Keys ([`crate::keys`]): `MINNE_CONFIG_DIR` (keys go to `$MINNE_CONFIG_DIR/keys`;
    /// unset: the platform config dir, `~/.config/minne/keys`, for the platform data dir, and
    /// `<data dir>.keys` beside any other data dir), `MINNE_PASSPHRASE` (passphrase mode),
    /// `MINNE_KEYRING` (`on` or `off`; default: on for a config dir, off beside a data dir)
    /// and `MINNE_UNENCRYPTED=1` (plain SQLite files, for diagnostics only).
    pub fn from_env() -> Result<Settings> {
        let dirs = project_dirs().ok_or_else(|| {
            Error::InvalidInput(
                "no home folder found: set MINNE_DATA_DIR and MINNE_MODELS_DIR".into(),
            )
        })?;
        let data_dir = non_empty_env("MINNE_DATA_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| dirs.data_dir().to_path_buf());
        let models_dir = non_empty_env("MINNE_MODELS_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| dirs.cache_dir().to_path_buf());
        let model = match non_empty_env("MINNE_MODEL") {
            Some(id) => id.parse()?,
            None => DEFAULT_MODEL,
        };
        let llm = match (
            non_empty_env("MINNE_LLM_URL"),
            non_empty_env("MINNE_LLM_MODEL"),
        ) {
            (Some(url), Some(model)) => {
                let mut config = LlmConfig::new(url, model);
                config.api_key = non_empty_env("MINNE_LLM_API_KEY");
                Some(config)
            }
            (None, None) => None,
            _ => {
                return Err(Error::InvalidInput(
                    "set both MINNE_LLM_URL (like http://localhost:11434/v1) and MINNE_LLM_MODEL, or neither".into(),
                ));
            }
        };
        Ok(Settings {
            data_dir,
            models_dir,
            model,
            llm,
            keys: keys_from_env()?,
        })
    }
}

fn project_dirs() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("", "", "minne")
}

fn keys_from_env() -> Result<KeyConfig> {
    let encryption = match non_empty_env("MINNE_UNENCRYPTED").as_deref() {
        None | Some("0") => Encryption::On,
        Some("1") => Encryption::Off,
        Some(other) => {
            return Err(Error::InvalidInput(format!(
                "MINNE_UNENCRYPTED is `{other}`: use 1 (plain files, for diagnostics only) or leave it unset"
            )));
        }
    };
    let keyring = match non_empty_env("MINNE_KEYRING").as_deref() {
        None => None,
        Some("on" | "1") => Some(true),
        Some("off" | "0") => Some(false),
        Some(other) => {
            return Err(Error::InvalidInput(format!(
                "MINNE_KEYRING is `{other}`: use `on` or `off`"
            )));
        }
    };
    // The passphrase is taken as given (no trimming of inner spaces), only a final newline
    // from a `$(cat file)` is dropped.
    let passphrase = match std::env::var("MINNE_PASSPHRASE") {
        Ok(p) if !p.is_empty() => Some(Passphrase::new(&p)?),
        _ => None,
    };
    Ok(KeyConfig {
        encryption,
        key_dir: non_empty_env("MINNE_CONFIG_DIR").map(|d| PathBuf::from(d).join("keys")),
        keyring,
        passphrase,
    })
}

fn non_empty_env(key: &str) -> Option<String> {
    std::env::var(key).ok().filter(|v| !v.trim().is_empty())
}
