//! The app's managed state: the settings, the embedding model loaded once, and the engine
//! open on the current context. Switching context reopens the engine on another database
//! file with the same embedder; only one context is open at a time (DESIGN: isolation by
//! construction).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use minne::clock::SystemClock;
use minne::embed::{self, Embedder};
use minne::keys::KeyConfig;
use minne::settings::Settings;
use minne::{ContextName, Engine};

use crate::error::CommandError;

/// What the commands reach through `State<AppState>`.
#[derive(Debug)]
pub struct AppState(Result<Memory, CommandError>);

impl AppState {
    /// Reads the settings, loads the embedder and opens the default context. A failure is kept
    /// and reported by every command, so the window opens and shows it.
    pub fn start() -> AppState {
        AppState(Memory::open_default().map_err(CommandError::at_startup))
    }

    /// The open memory, or the reason it could not be opened.
    pub fn memory(&self) -> Result<&Memory, CommandError> {
        self.0.as_ref().map_err(Clone::clone)
    }
}

/// The engine open on one context, and what it needs to open another.
#[derive(Debug)]
pub struct Memory {
    data_dir: PathBuf,
    /// Where each context's key comes from (keyring, key file, `MINNE_PASSPHRASE`), as for
    /// the CLI.
    keys: KeyConfig,
    embedder: Arc<dyn Embedder>,
    // The engine holds a SQLite connection: `Send` but not `Sync`, hence the mutex.
    current: Mutex<Current>,
}

#[derive(Debug)]
struct Current {
    name: ContextName,
    engine: Engine,
}

impl Memory {
    fn open_default() -> minne::Result<Memory> {
        let settings = Settings::from_env()?;
        let embedder = embed::load(&settings.models_dir, settings.model)?;
        let name = ContextName::new(ContextName::DEFAULT)?;
        let engine = open_engine(&settings.data_dir, &name, &settings.keys, &embedder)?;
        Ok(Memory {
            data_dir: settings.data_dir,
            keys: settings.keys,
            embedder,
            current: Mutex::new(Current { name, engine }),
        })
    }

    /// The folder holding one database per context.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// Where the contexts' keys come from.
    pub fn keys(&self) -> &KeyConfig {
        &self.keys
    }

    /// The embedding model's id.
    pub fn model_id(&self) -> &str {
        self.embedder.model_id()
    }

    /// The name of the open context.
    pub fn context(&self) -> ContextName {
        self.lock().name.clone()
    }

    /// Runs `f` on the engine of the open context.
    pub fn with_engine<T>(
        &self,
        f: impl FnOnce(&Engine) -> minne::Result<T>,
    ) -> Result<T, CommandError> {
        Ok(f(&self.lock().engine)?)
    }

    /// Runs `f` on the engine of the open context, for calls that change it (forget, mode,
    /// review).
    pub fn with_engine_mut<T>(
        &self,
        f: impl FnOnce(&mut Engine) -> minne::Result<T>,
    ) -> Result<T, CommandError> {
        Ok(f(&mut self.lock().engine)?)
    }

    /// Opens `name` in place of the current context. On failure the current one stays open.
    pub fn switch(&self, name: &str) -> Result<ContextName, CommandError> {
        let name = ContextName::new(name)?;
        let mut current = self.lock();
        if current.name != name {
            let engine = open_engine(&self.data_dir, &name, &self.keys, &self.embedder)?;
            *current = Current {
                name: name.clone(),
                engine,
            };
        }
        Ok(name)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Current> {
        // A panic inside an engine call leaves no half-written state behind (SQLite rolls back
        // the transaction), so a poisoned lock is safe to keep using.
        self.current.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

fn open_engine(
    data_dir: &Path,
    name: &ContextName,
    keys: &KeyConfig,
    embedder: &Arc<dyn Embedder>,
) -> minne::Result<Engine> {
    let engine = Engine::open_with(
        data_dir,
        name,
        keys,
        embedder.clone(),
        Arc::new(SystemClock),
    )?;
    // The user's local days are this machine's (TZ, else the system's zone).
    engine.set_time_zone(minne::zone::from_env())?;
    Ok(engine)
}
