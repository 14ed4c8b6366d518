//! The real models: fastembed running an ONNX file on ONNX Runtime, all loaded from local files.

use std::path::Path;
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use fastembed::{
    InitOptionsUserDefined, Pooling, TextEmbedding, TokenizerFiles, UserDefinedEmbeddingModel,
};
use ort::environment::Environment;

use super::{Embedder, ModelChoice};
use crate::error::{Error, Result};

/// The ONNX Runtime library, relative to the models folder. fastembed 7.7 pins ort 2.0.0-rc.15,
/// which needs ONNX Runtime 1.24 or newer.
const RUNTIME_LIB: &str = "onnxruntime/libonnxruntime.so.1.31.0";

/// What differs between the models Minne loads.
struct Spec {
    /// The ONNX file in the model's folder.
    file: &'static str,
    dimensions: usize,
    /// Tokens per text; longer texts are cut. MiniLM was trained on 256 (sentence-transformers'
    /// `max_seq_length`); e5 on 512.
    max_tokens: usize,
    query_prefix: &'static str,
    passage_prefix: &'static str,
    /// Texts per ONNX Runtime call. For an fp32 model, 32: large enough to amortise a call,
    /// small enough that padding to the longest text in a batch wastes little. For a
    /// dynamically quantised (int8) model, 1: its activations are quantised with a scale taken
    /// from the whole batch, so a text's vector depended on its batch neighbours (cosine 0.9975
    /// between one passage embedded alone and in a batch of 32) and a passage no longer
    /// matched its own query embedding exactly. One at a time is also faster here, since no
    /// text is padded to a longer one's length.
    batch_size: usize,
    /// What to run when the files are missing.
    setup: &'static str,
}

fn spec(choice: ModelChoice) -> Spec {
    match choice {
        ModelChoice::MiniLm => Spec {
            file: "model.onnx",
            dimensions: 384,
            max_tokens: 256,
            query_prefix: "",
            passage_prefix: "",
            batch_size: 32,
            setup: "scripts/setup-models.sh",
        },
        // e5 was trained with these prefixes; leaving them out costs retrieval quality.
        // The int8 file: its query runs in p50 6.8–7.6 ms against 9.8–11.5 ms for the fp32
        // model.onnx beside it (same session options, inside recall, 2026-11-30), and LoCoMo
        // dev turn recall@10 is 0.7960 against 0.7971 (docs/benchmarks.md, "Speed").
        ModelChoice::E5Small => Spec {
            file: "model-int8.onnx",
            dimensions: 384,
            max_tokens: 512,
            query_prefix: "query: ",
            passage_prefix: "passage: ",
            batch_size: 1,
            setup: "scripts/setup-models.sh",
        },
    }
}

/// ONNX Runtime allows one environment per process, and ort refuses a second one even after the
/// first is dropped, so the first is kept for the life of the process and shared by every model.
/// A failed attempt stores nothing, so a later call (after the user ran the set-up) can succeed.
static RUNTIME: Mutex<Option<Environment>> = Mutex::new(None);

fn runtime(lib: &Path) -> Result<Environment> {
    let mut slot = RUNTIME.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(env) = slot.as_ref() {
        // The library is loaded once per process; a different `lib` now cannot replace it.
        return Ok(env.clone());
    }
    let env = ort::init_from(lib)
        .map_err(|e| {
            Error::Embedding(format!(
                "cannot load ONNX Runtime from {}: {e}",
                lib.display()
            ))
        })?
        .with_name("minne")
        // Microsoft's builds send usage telemetry by default; nothing leaves this machine.
        .with_telemetry(false)
        .build()
        .map_err(|e| Error::Embedding(format!("cannot start ONNX Runtime: {e}")))?;
    *slot = Some(env.clone());
    Ok(env)
}

/// A real model. fastembed's `embed` needs `&mut`, hence the mutex: concurrent calls take turns,
/// which costs nothing since one call already keeps every core busy.
pub(super) struct OnnxEmbedder {
    choice: ModelChoice,
    spec: Spec,
    model: Mutex<TextEmbedding>,
}

impl std::fmt::Debug for OnnxEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OnnxEmbedder")
            .field("model", &self.choice.as_str())
            .field("dimensions", &self.spec.dimensions)
            .finish_non_exhaustive()
    }
}

impl OnnxEmbedder {
    pub(super) fn load(models_dir: &Path, choice: ModelChoice) -> Result<Self> {
        let started = Instant::now();
        let spec = spec(choice);
        let model_dir = models_dir.join("models").join(choice.as_str());
        let lib = models_dir.join(RUNTIME_LIB);
        let files = [
            spec.file,
            "tokenizer.json",
            "config.json",
            "special_tokens_map.json",
            "tokenizer_config.json",
        ]
        .map(|name| model_dir.join(name));

        let missing: Vec<String> = std::iter::once(&lib)
            .chain(&files)
            .filter(|p| !p.is_file())
            .map(|p| p.display().to_string())
            .collect();
        if !missing.is_empty() {
            return Err(Error::Embedding(format!(
                "{} is not set up: missing {}: run {}",
                choice.as_str(),
                missing.join(", "),
                spec.setup
            )));
        }

        let env = runtime(&lib)?;
        let [
            onnx,
            tokenizer,
            config,
            special_tokens_map,
            tokenizer_config,
        ] = files.map(|p| read(&p));
        let user_model = UserDefinedEmbeddingModel::new(
            onnx?,
            TokenizerFiles {
                tokenizer_file: tokenizer?,
                config_file: config?,
                special_tokens_map_file: special_tokens_map?,
                tokenizer_config_file: tokenizer_config?,
            },
        )
        // Sentence embeddings are the mean of the token vectors for both models; fastembed has no
        // default for a user-defined model, so it is set here.
        .with_pooling(Pooling::Mean);
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        // ONNX Runtime's pool threads spin between the operators of a run by default. A query
        // is a short run of many small operators, and when other programs hold the cores a
        // spinning thread burns the time slice its peer needs: on the 2-core machine under
        // load, e5's query took 104–126 ms spinning and 12–13 ms with spinning off (same
        // threads, same vectors; docs/benchmarks.md, "Speed"). Passages come in batches of
        // long operators, where waking a thread costs nothing that shows.
        // Both cores, also for a single query: alone, a query takes p50 9.3 ms on two threads
        // and 10.7 ms on one for e5, 4.4 and 5.1 ms for MiniLM (300 queries each, 2026-11-30,
        // docs/benchmarks.md "Speed"). Inside recall, where BM25 runs beside the embedding,
        // two threads are as fast as one, and one session serves passages too, whose batches
        // gain most from the second core. fastembed fixes the graph optimisation at its
        // highest level (all fusions), which is what a small BERT wants.
        let options = InitOptionsUserDefined::new()
            .with_environment(env)
            .with_max_length(spec.max_tokens)
            .with_intra_threads(threads)
            .with_session_config("session.intra_op.allow_spinning", "0");
        let model = TextEmbedding::try_new_from_user_defined(user_model, options).map_err(|e| {
            Error::Embedding(format!(
                "cannot load {} from {}: {e}",
                choice,
                model_dir.display()
            ))
        })?;

        let embedder = OnnxEmbedder {
            choice,
            spec,
            model: Mutex::new(model),
        };
        // One short run now turns a wrong or corrupt model file into a load error, not a
        // surprise at the first capture.
        embedder.run(&["minne"], "")?;
        tracing::info!(
            model = choice.model_id(),
            threads,
            seconds = started.elapsed().as_secs_f64(),
            "embedding model loaded"
        );
        Ok(embedder)
    }

    /// Embeds `texts` with `prefix` before each, checking that every vector has the expected size.
    fn run(&self, texts: &[&str], prefix: &str) -> Result<Vec<Vec<f32>>> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let prefixed: Vec<String> = texts.iter().map(|t| format!("{prefix}{t}")).collect();
        // A panic inside fastembed leaves no half-updated state behind (the session is
        // stateless between calls), so a poisoned lock is still safe to use.
        let mut model = self.model.lock().unwrap_or_else(PoisonError::into_inner);
        let vectors = model
            .embed(&prefixed, Some(self.spec.batch_size))
            .map_err(|e| Error::Embedding(format!("{} failed: {e}", self.choice)))?;
        drop(model);
        if vectors.len() != texts.len() {
            return Err(Error::Embedding(format!(
                "{} returned {} vectors for {} texts",
                self.choice,
                vectors.len(),
                texts.len()
            )));
        }
        if let Some(bad) = vectors.iter().find(|v| v.len() != self.spec.dimensions) {
            return Err(Error::Embedding(format!(
                "{} returned a vector of {} dimensions, expected {}: the model file is not {}",
                self.choice,
                bad.len(),
                self.spec.dimensions,
                self.choice
            )));
        }
        Ok(vectors)
    }
}

impl Embedder for OnnxEmbedder {
    fn model_id(&self) -> &str {
        self.choice.model_id()
    }

    fn dimensions(&self) -> usize {
        self.spec.dimensions
    }

    fn embed_passages(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        self.run(texts, self.spec.passage_prefix)
    }

    fn embed_query(&self, text: &str) -> Result<Vec<f32>> {
        let mut vectors = self.run(&[text], self.spec.query_prefix)?;
        vectors.pop().ok_or_else(|| {
            Error::Embedding(format!("{} returned no vector for the query", self.choice))
        })
    }
}

fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|source| Error::Io {
        action: "cannot read",
        path: path.to_path_buf(),
        source,
    })
}
