//! An embedder that loads the model on first use, so commands that never embed (`list`,
//! `forget`, `contexts`) start instantly and work before the models are installed.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use minne::embed::{Embedder, ModelChoice};

/// Loads `choice` from `models_dir` the first time a vector is needed.
#[derive(Debug)]
pub struct LazyEmbedder {
    models_dir: PathBuf,
    choice: ModelChoice,
    loaded: OnceLock<Arc<dyn Embedder>>,
}

impl LazyEmbedder {
    pub fn new(models_dir: PathBuf, choice: ModelChoice) -> Self {
        LazyEmbedder {
            models_dir,
            choice,
            loaded: OnceLock::new(),
        }
    }

    fn get(&self) -> minne::Result<&Arc<dyn Embedder>> {
        if let Some(e) = self.loaded.get() {
            return Ok(e);
        }
        let e = minne::embed::load(&self.models_dir, self.choice)?;
        Ok(self.loaded.get_or_init(|| e))
    }
}

impl Embedder for LazyEmbedder {
    fn model_id(&self) -> &str {
        self.choice.model_id()
    }

    fn dimensions(&self) -> usize {
        self.get().map(|e| e.dimensions()).unwrap_or(0)
    }

    fn embed_passages(&self, texts: &[&str]) -> minne::Result<Vec<Vec<f32>>> {
        self.get()?.embed_passages(texts)
    }

    fn embed_query(&self, text: &str) -> minne::Result<Vec<f32>> {
        self.get()?.embed_query(text)
    }
}
