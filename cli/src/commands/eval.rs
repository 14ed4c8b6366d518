//! `minne eval`: measure Minne on labelled data (retrieval on LoCoMo and LongMemEval, capture
//! on the capture label file, consolidation on its hand labels). Each subcommand calls one engine harness.

use std::path::PathBuf;

use anyhow::Context as _;
use clap::Subcommand;

use super::Env;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    dataset: Dataset,
}

#[derive(Debug, Subcommand)]
enum Dataset {
    /// Retrieval on LoCoMo: every turn indexed per sample, every question asked of Minne,
    /// BM25 alone and dense alone.
    Locomo {
        /// A LoCoMo JSON file (e.g. ../shared/data/locomo/locomo-dev.json).
        path: PathBuf,
        /// Only this sample (e.g. conv-26).
        #[arg(long)]
        sample: Option<String>,
        /// The cut-offs to report, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "1,5,10,25,50")]
        k: Vec<usize>,
        #[command(flatten)]
        out: Output,
    },
    /// Retrieval on LongMemEval (official protocol: user turns indexed per question,
    /// abstention questions scored on abstaining).
    Longmemeval {
        /// A LongMemEval JSON file (e.g. ../shared/data/longmemeval/longmemeval-s-dev.json).
        path: PathBuf,
        /// Only the first N questions.
        #[arg(long)]
        limit: Option<usize>,
        /// The cut-offs to report, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "1,3,5,10,30,50")]
        k: Vec<usize>,
        #[command(flatten)]
        out: Output,
    },
    /// Speed: synthetic contexts of each size, recall latency (query embedding included),
    /// capture throughput, peak memory.
    Speed {
        /// Context sizes in messages, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "1000,10000,100000")]
        sizes: Vec<usize>,
        /// Recalls timed per size.
        #[arg(long, default_value_t = 50)]
        queries: usize,
        /// Keep each size's context in this folder and reuse it on later runs (no re-import).
        #[arg(long, value_name = "DIR")]
        keep: Option<PathBuf>,
    },
    /// Consolidation precision on hand-labelled runs (tests/data/consolidation/labels.json):
    /// each run imported into a fresh context and consolidated, every item compared with
    /// its label.
    Consolidation {
        /// The labels file.
        labels: PathBuf,
        /// The folder the runs' data paths are relative to.
        #[arg(long, value_name = "DIR", default_value = "../shared/data")]
        data: PathBuf,
        /// Only the run with this id.
        #[arg(long)]
        run: Option<String>,
        /// Print the report as JSON (every item with its label).
        #[arg(long)]
        json: bool,
    },
    /// Capture on a label file (shared/data/capture/dev.json).
    Capture {
        /// The label file.
        path: PathBuf,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, clap::Args)]
struct Output {
    /// Print the report as JSON instead of a Markdown table.
    #[arg(long)]
    json: bool,
    /// Also run ablations: Minne's ranking with one part changed or removed.
    #[arg(long)]
    ablate: bool,
    /// Only these systems (comma-separated names, e.g. `minne,minne-v6-abstain`), from the
    /// baselines and the ablations.
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    systems: Vec<String>,
    /// Write the threshold sweep (answered vs abstained) as a PNG here.
    #[arg(long, value_name = "PNG")]
    plot: Option<PathBuf>,
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let report = match args.dataset {
        Dataset::Capture { path, json } => {
            let report = minne::eval::capture::evaluate(&path)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                println!("{}", report.table());
            }
            return Ok(());
        }
        Dataset::Consolidation {
            labels,
            data,
            run,
            json,
        } => {
            let report = minne::eval::consolidation::evaluate(
                &labels,
                &data,
                embedder(env)?,
                run.as_deref(),
                &mut |l| eprintln!("{l}"),
            )?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                println!("{}", report.table());
            }
            return Ok(());
        }
        Dataset::Speed {
            sizes,
            queries,
            keep,
        } => {
            let results = minne::eval::speed::run_kept(
                embedder(env)?,
                &sizes,
                queries,
                keep.as_deref(),
                &mut |l| eprintln!("{l}"),
            )?;
            println!("{}", serde_json::to_string_pretty(&results)?);
            return Ok(());
        }
        Dataset::Locomo {
            path,
            sample,
            k,
            out,
        } => {
            let systems = systems(out.ablate, &out.systems)?;
            let mut report = minne::eval::locomo::evaluate(
                &path,
                embedder(env)?,
                sample.as_deref(),
                &systems,
                &mut |l| eprintln!("{l}"),
            )?;
            report.ks = k;
            (report, out)
        }
        Dataset::Longmemeval {
            path,
            limit,
            k,
            out,
        } => {
            let systems = systems(out.ablate, &out.systems)?;
            let mut report = minne::eval::longmemeval::evaluate(
                &path,
                embedder(env)?,
                limit,
                &systems,
                &mut |l| eprintln!("{l}"),
            )?;
            report.ks = k;
            (report, out)
        }
    };
    let (report, out) = report;
    if let Some(png) = &out.plot {
        minne::eval::plot::sweep_png(&report.sweep(), png)
            .with_context(|| format!("cannot write {}", png.display()))?;
        eprintln!("threshold sweep written to {}", png.display());
    }
    if out.json {
        println!("{}", serde_json::to_string_pretty(&report.to_json())?);
    } else {
        println!("{}", report.table());
    }
    Ok(())
}

fn systems(ablate: bool, only: &[String]) -> anyhow::Result<Vec<minne::eval::retrieval::System>> {
    let mut systems = minne::eval::retrieval::systems();
    if ablate || !only.is_empty() {
        systems.extend(minne::eval::retrieval::ablations());
    }
    if only.is_empty() {
        return Ok(systems);
    }
    let mut chosen = Vec::new();
    for name in only {
        let Some(i) = systems.iter().position(|s| &s.name == name) else {
            let known: Vec<&str> = systems.iter().map(|s| s.name.as_str()).collect();
            anyhow::bail!("no system `{name}`: choose from {}", known.join(", "));
        };
        chosen.push(systems.swap_remove(i));
    }
    Ok(chosen)
}

fn embedder(env: &Env) -> anyhow::Result<std::sync::Arc<dyn minne::embed::Embedder>> {
    minne::embed::load(&env.settings.models_dir, env.settings.model)
        .context("the evaluation needs the real embedding model: run scripts/setup-models.sh")
}
