use minne::recall::{DEFAULT_K, LeftOut, RecallQuery, prompt};

use super::Env;
use crate::output;

/// How many near-misses `--explain` lists.
const NEAR_MISSES: usize = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// Scores, words and score parts, for a person.
    Text,
    /// JSON, for scripts.
    Json,
    /// Seed 000's prompt block: "Earlier in your conversations:" and one quoted line per
    /// memory with its age and relevance.
    Prompt,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to recall.
    query: String,
    /// At most this many results.
    #[arg(long, short = 'k', default_value_t = DEFAULT_K as u16, value_parser = clap::value_parser!(u16).range(1..))]
    k: u16,
    /// Results must score at least this, from 0 to 1 [default: calibrated per model: 0.30 for
    /// multilingual-e5-small, 0.34 for all-minilm-l6-v2].
    #[arg(long, value_parser = parse_threshold)]
    threshold: Option<f64>,
    /// Print the results as JSON (same as --format json).
    #[arg(long)]
    json: bool,
    /// How to print the results.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Also list the best candidates left out and why (under the threshold, outside k).
    #[arg(long)]
    explain: bool,
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let mut engine = env.open()?;
    let threshold = args
        .threshold
        .unwrap_or_else(|| minne::recall::default_threshold_for(engine.model_id()));
    // A model change (MINNE_MODEL) re-embeds what has no vector from this model yet, instead
    // of scoring against vectors of another model.
    let pending = engine.capture_status(0)?.embeddings_pending;
    if pending > 0 {
        eprintln!(
            "Embedding {} with {} first (they have no vector from this model yet: new, or stored \
             under another model or model version); this is done once…",
            crate::output::plural(pending, "episode", "episodes"),
            engine.model_id()
        );
        // A bar on a terminal, lines otherwise: after a model change a large store takes
        // minutes, and silence would look like a hang.
        let mut progress = crate::progress::Progress::stderr("recall");
        let done = engine.embed_pending(&mut |p| {
            if let minne::import::ImportProgress::Embedded { done, total } = p {
                progress.advance("embedding", "episodes", done as u64, total as u64);
            }
        });
        progress.finish();
        done?;
    }
    let query = RecallQuery {
        k: usize::from(args.k),
        threshold: Some(threshold),
        ..RecallQuery::new(args.query)
    };
    let explained = engine.recall_explained(&query, if args.explain { NEAR_MISSES } else { 0 })?;
    let hits = &explained.hits;
    let format = if args.json { Format::Json } else { args.format };
    match format {
        Format::Prompt => {
            print!("{}", prompt::block(hits));
            return Ok(());
        }
        Format::Json => {
            let mut out = serde_json::json!({ "hits": output::hits_json(&engine, hits)? });
            if args.explain {
                out["near_misses"] = explained
                    .near_misses
                    .iter()
                    .map(|m| {
                        let mut v = output::hit_json(&m.hit);
                        v["left_out"] = serde_json::to_value(m.reason).unwrap_or_default();
                        v
                    })
                    .collect();
                out["people"] = serde_json::json!(explained.people);
                out["terms"] = serde_json::json!(explained.terms);
                out["took_ms"] = serde_json::json!(explained.took_ms);
                out["abstained"] = serde_json::json!(explained.abstained);
                println!("{}", serde_json::to_string_pretty(&out)?);
            } else {
                println!("{}", serde_json::to_string_pretty(&out["hits"])?);
            }
            return Ok(());
        }
        Format::Text => {}
    }
    if hits.is_empty() {
        match &explained.abstained {
            // Candidates cleared the threshold, but the memories do not hold what the
            // question asks about: say so, rather than blame the threshold.
            Some(why) => println!(
                "Nothing in `{}` answers this: {why}. Nothing is better than a wrong memory; --explain shows what was left out.",
                env.context
            ),
            None => println!(
                "Nothing in `{}` is relevant enough (threshold {:.2}). Nothing is better than noise; lower --threshold to see weaker matches.",
                env.context, threshold
            ),
        }
    }
    for (i, hit) in hits.iter().enumerate() {
        println!("{}. {}", i + 1, output::hit_line(hit));
    }
    if args.explain {
        println!(
            "\nsearched for: {} · people: {} · {:.1} ms",
            if explained.terms.is_empty() {
                "(no content words)".to_string()
            } else {
                explained.terms.join(", ")
            },
            if explained.people.is_empty() {
                "none".to_string()
            } else {
                explained.people.join(", ")
            },
            explained.took_ms
        );
        if explained.near_misses.is_empty() {
            println!("no near-misses: nothing else was considered");
        } else {
            println!("left out:");
        }
        for m in &explained.near_misses {
            let why = match m.reason {
                LeftOut::UnderThreshold { threshold } => {
                    format!("under the threshold {threshold:.2}")
                }
                LeftOut::OutsideK { rank, k } => format!("outside k: rank {rank} of k = {k}"),
                LeftOut::Abstained => match &explained.abstained {
                    Some(why) => format!("abstained: {why}"),
                    None => "abstained".into(),
                },
            };
            println!("-  ({why}) {}", output::hit_line(&m.hit));
        }
    }
    Ok(())
}

/// A `--threshold`: a number from 0 to 1, the range relevance scores fall in. A threshold
/// above 1 would refuse every memory and one below 0 would let every memory through, so
/// either is refused rather than quietly returning nothing or noise.
fn parse_threshold(s: &str) -> Result<f64, String> {
    let not_a_number = || format!("`{s}` is not a number: give a score from 0 to 1, like 0.3");
    let value: f64 = s.trim().parse().map_err(|_| not_a_number())?;
    if value.is_nan() {
        return Err(not_a_number());
    }
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(format!(
            "{s} is outside the range 0 to 1: relevance scores run from 0 (unrelated) to 1 (a perfect match), so give a threshold in that range, like 0.3"
        ))
    }
}

#[cfg(test)]
mod tests {
    use clap::{Args as _, Command};

    use super::Args;

    /// The `--threshold` help names the defaults by value, so it must follow the calibrated
    /// constants: a recalibration that forgets the help fails here (it once said 0.53 for e5
    /// when the constant was 0.30).
    #[test]
    fn threshold_help_names_the_calibrated_defaults() {
        let help = Args::augment_args(Command::new("recall"))
            .render_long_help()
            .to_string();
        for (value, model) in [
            (minne::recall::E5_SMALL_THRESHOLD, "multilingual-e5-small"),
            (minne::recall::MINILM_THRESHOLD, "all-minilm-l6-v2"),
        ] {
            let named = format!("{value:.2} for {model}");
            assert!(help.contains(&named), "help must say `{named}`:\n{help}");
        }
    }
}
