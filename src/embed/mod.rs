//! Embeddings: text in, L2-normalised vectors out, computed on this device.
//!
//! The engine depends only on the [`Embedder`] trait. [`load`] gives the real models, run by
//! ONNX Runtime through fastembed from files that `scripts/setup-models.sh` put in the model
//! folder (shared/RECIPES.md, "Embeddings on device"):
//!
//! ```text
//! <models_dir>/onnxruntime/libonnxruntime.so.1.31.0
//! <models_dir>/models/all-minilm-l6-v2/{model.onnx, tokenizer.json, config.json,
//!                                       special_tokens_map.json, tokenizer_config.json}
//! <models_dir>/models/multilingual-e5-small/{model-int8.onnx, the same four other files}
//! ```
//!
//! [`HashEmbedder`] is a small deterministic stand-in for unit tests; integration tests and
//! benchmarks use the real model.
//!
//! Vectors of different models live in different spaces: a stored vector is comparable only
//! with a query embedded by the model whose [`Embedder::model_id`] it records.

mod hash;
mod onnx;
mod reembed;

use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;

use crate::error::{Error, Result};

pub use hash::HashEmbedder;

/// The environment variable that keeps ONNX Runtime's own telemetry off when set to `1`
/// (Microsoft's builds, which setup-models.sh installs, otherwise write a device id and queued
/// usage events under `~/.cache/Microsoft/DeveloperTools/.onnxruntime`). The runtime reads it
/// when it loads, so a program sets it at the start of `main`, before any thread starts: the
/// `minne` CLI and the desktop app do.
pub const RUNTIME_TELEMETRY_ENV: &str = "ORT_DISABLE_TELEMETRY";

/// Turns text into L2-normalised vectors of [`Embedder::dimensions`] floats.
///
/// Implementations are shared between threads; a call may block while another thread's call
/// runs on the same model.
pub trait Embedder: Send + Sync + std::fmt::Debug {
    /// Stable id recorded on every embedding row, e.g. "all-minilm-l6-v2" (for the real models,
    /// [`ModelChoice::model_id`]).
    fn model_id(&self) -> &str;

    /// Length of every vector this embedder returns (384 for both real models).
    fn dimensions(&self) -> usize;

    /// L2-normalised vectors for stored texts (e5 adds "passage: "), one per text, in order.
    ///
    /// # Errors
    /// [`Error::Embedding`] when the model fails to run.
    fn embed_passages(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>>;

    /// L2-normalised vector for a query (e5 adds "query: ").
    ///
    /// # Errors
    /// [`Error::Embedding`] when the model fails to run.
    fn embed_query(&self, text: &str) -> Result<Vec<f32>>;
}

/// The real embedding models Minne can load. Serialised as its id ("all-minilm-l6-v2").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ModelChoice {
    /// all-MiniLM-L6-v2, int8: 384 dimensions, English, fast (about 700 embeddings/s on 2 cores).
    #[serde(rename = "all-minilm-l6-v2")]
    MiniLm,
    /// multilingual-e5-small: 384 dimensions, good across Swedish, Danish and English (the
    /// default; docs/benchmarks.md, "Default embedding model"). `scripts/setup-models.sh`
    /// builds it, with int8 linear layers (a query in about 7 ms instead of 10.5 ms on two
    /// cores; docs/benchmarks.md, "Speed"). Its cosines sit in a narrow high band, so score
    /// thresholds are calibrated for it separately.
    #[serde(rename = "multilingual-e5-small")]
    E5Small,
}

impl ModelChoice {
    /// Every model, in the order a user would be offered them.
    pub const ALL: [ModelChoice; 2] = [ModelChoice::MiniLm, ModelChoice::E5Small];

    /// The model's name, as users write it (settings, `MINNE_MODEL`): "all-minilm-l6-v2" or
    /// "multilingual-e5-small". It is also the model's folder name under
    /// `<models_dir>/models/`.
    pub fn as_str(self) -> &'static str {
        match self {
            ModelChoice::MiniLm => "all-minilm-l6-v2",
            ModelChoice::E5Small => "multilingual-e5-small",
        }
    }

    /// The id recorded on every stored vector ([`Embedder::model_id`]): the name, plus what
    /// changed when the model's numbers did. "multilingual-e5-small-int8" since e5's linear
    /// layers are int8 (before: "multilingual-e5-small", fp32), so a store embedded with the
    /// fp32 model is re-embedded rather than compared with int8 queries
    /// (`Engine::ensure_embedded`). [`FromStr`] reads it back as the same choice.
    pub fn model_id(self) -> &'static str {
        match self {
            ModelChoice::MiniLm => "all-minilm-l6-v2",
            ModelChoice::E5Small => "multilingual-e5-small-int8",
        }
    }
}

impl fmt::Display for ModelChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ModelChoice {
    type Err = Error;

    /// Parses a model name ([`ModelChoice::as_str`]) or a stored vector's id
    /// ([`ModelChoice::model_id`]), so per-model calibrations keyed by either find the model.
    fn from_str(s: &str) -> Result<Self> {
        ModelChoice::ALL
            .into_iter()
            .find(|choice| choice.as_str() == s || choice.model_id() == s)
            .ok_or_else(|| {
                Error::InvalidInput(format!(
                    "unknown embedding model `{s}`: use `all-minilm-l6-v2` or `multilingual-e5-small`"
                ))
            })
    }
}

/// Loads the real model `choice` from `models_dir` (the folder `scripts/setup-models.sh` fills).
///
/// ONNX Runtime is loaded from `<models_dir>/onnxruntime/libonnxruntime.so.1.31.0` the first
/// time this is called in the process; later calls (another model, the same one again) reuse
/// it. Loading takes about 0.3 s for MiniLM and 1.2 s for e5, so callers keep the returned
/// embedder.
///
/// # Errors
/// [`Error::Embedding`] naming every missing file and the set-up command to run, or saying why
/// ONNX Runtime or the model could not be loaded; [`Error::Io`] when a file cannot be read.
pub fn load(models_dir: &Path, choice: ModelChoice) -> Result<Arc<dyn Embedder>> {
    Ok(Arc::new(onnx::OnnxEmbedder::load(models_dir, choice)?))
}

/// Cosine similarity of two L2-normalised vectors, i.e. their dot product: in `[-1, 1]`, higher
/// is more similar. Both vectors must have the same length (checked in debug builds).
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    debug_assert_eq!(a.len(), b.len(), "cosine of vectors of different lengths");
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Scales `v` to unit length in place; a zero vector stays zero.
fn normalise(v: &mut [f32]) {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(ModelChoice::MiniLm, "all-minilm-l6-v2")]
    #[case(ModelChoice::E5Small, "multilingual-e5-small")]
    fn model_choice_round_trips_through_its_id(#[case] choice: ModelChoice, #[case] id: &str) {
        assert_eq!(
            choice.as_str(),
            id,
            "the id is recorded on stored rows and must not drift"
        );
        assert_eq!(choice.to_string(), id, "Display prints the id");
        assert_eq!(
            id.parse::<ModelChoice>().ok(),
            Some(choice),
            "FromStr reads the id back"
        );
        let json = serde_json::to_string(&choice).ok();
        assert_eq!(
            json,
            Some(format!("\"{id}\"")),
            "settings files store the id"
        );
        let back: Option<ModelChoice> = serde_json::from_str(&format!("\"{id}\"")).ok();
        assert_eq!(back, Some(choice), "settings files read the id back");
    }

    #[rstest]
    // MiniLM's file never changed; e5's id names its int8 linear layers, so vectors of the
    // earlier fp32 e5 (id "multilingual-e5-small") are never compared with int8 queries.
    #[case(ModelChoice::MiniLm, "all-minilm-l6-v2")]
    #[case(ModelChoice::E5Small, "multilingual-e5-small-int8")]
    fn the_stored_id_names_the_model_file_and_reads_back(
        #[case] choice: ModelChoice,
        #[case] id: &str,
    ) {
        assert_eq!(choice.model_id(), id, "the id recorded on stored rows");
        assert_eq!(
            id.parse::<ModelChoice>().ok(),
            Some(choice),
            "calibrations look the model up by the stored id"
        );
    }

    #[test]
    fn unknown_model_id_is_rejected_with_the_valid_ids() {
        let err = "minilm".parse::<ModelChoice>().err().map(|e| e.to_string());
        let msg = err.unwrap_or_default();
        assert!(
            msg.contains("all-minilm-l6-v2") && msg.contains("multilingual-e5-small"),
            "the error must tell the user what to write instead, got: {msg}"
        );
    }

    #[rstest]
    #[case(&[1.0, 0.0], &[1.0, 0.0], 1.0)]
    #[case(&[1.0, 0.0], &[0.0, 1.0], 0.0)]
    #[case(&[1.0, 0.0], &[-1.0, 0.0], -1.0)]
    #[case(&[0.6, 0.8], &[0.8, 0.6], 0.96)]
    fn cosine_of_unit_vectors_is_their_dot_product(
        #[case] a: &[f32],
        #[case] b: &[f32],
        #[case] expected: f32,
    ) {
        let got = cosine(a, b);
        assert!(
            (got - expected).abs() < 1e-6,
            "cosine({a:?}, {b:?}) = {got}, expected {expected}"
        );
    }

    #[test]
    fn normalise_gives_unit_length_and_leaves_zero_alone() {
        let mut v = vec![3.0, 4.0];
        normalise(&mut v);
        assert_eq!(v, vec![0.6, 0.8], "3-4-5 triangle");
        let mut zero = vec![0.0; 3];
        normalise(&mut zero);
        assert_eq!(zero, vec![0.0; 3], "a zero vector has no direction to keep");
    }

    #[test]
    fn load_names_the_missing_files_and_the_set_up_command() {
        let dir = std::env::temp_dir().join("minne-embed-test-no-models-here");
        for choice in ModelChoice::ALL {
            let msg = load(&dir, choice)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(
                msg.contains("scripts/setup-models.sh") && msg.contains("libonnxruntime.so"),
                "a user without model files must be told which file is missing and what to run, got: {msg}"
            );
            // model.onnx for MiniLM, model-int8.onnx for e5.
            let folder = format!("models/{}/model", choice.as_str());
            assert!(
                msg.contains(&folder) && msg.contains(".onnx"),
                "the model file is named too, got: {msg}"
            );
        }
    }
}
