use super::Env;
use crate::output::plural;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let mut engine = env.open()?;
    let r = engine.consolidate()?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
        return Ok(());
    }
    println!(
        "read {}: {} added, {} reinforced, {} superseded; {} and {} to review; \
         {}, {}, {}; {} unsupported removed",
        plural(r.episodes_read, "episode", "episodes"),
        plural(r.facts_added, "fact", "facts"),
        r.facts_supported,
        r.facts_superseded,
        plural(r.candidates, "candidate", "candidates"),
        plural(r.conflicts, "conflict", "conflicts"),
        plural(r.procedures_added, "procedure", "procedures"),
        plural(r.open_items_added, "open item", "open items"),
        plural(r.summaries_written, "session summary", "session summaries"),
        r.unsupported_dropped,
    );
    if r.open_items_done > 0 || r.open_items_redated > 0 || r.open_items_withdrawn > 0 {
        println!(
            "open items: {} reported done, {} given the due time their words name, {} withdrawn \
             (the current rules no longer read a commitment in their words)",
            r.open_items_done, r.open_items_redated, r.open_items_withdrawn
        );
    }
    for c in &r.commands {
        println!("command: {}", c.outcome);
    }
    // What the optional LLM did: this run's report when it asked the model, else the last
    // run that did (consolidation after an import or capture asks it, and a run with nothing
    // new to read asks nothing), so a failing model is never silent in the text output.
    match &r.llm {
        Some(llm) if llm.requests > 0 || !llm.errors.is_empty() => print!("{}", llm_lines(llm)),
        _ => {
            if let Some(last) = engine.last_consolidation_llm()? {
                println!("(nothing new for the LLM in this run; its last run:)");
                print!("{}", llm_lines(&last));
            }
        }
    }
    Ok(())
}

/// What the optional LLM did, for the text output: one line of counts, then one line per
/// error the rules stood in for (the same report `--json` gives as `llm`), so a failing model
/// is never silent.
fn llm_lines(llm: &minne::consolidate::LlmConsolidation) -> String {
    let mut out = format!(
        "llm {}: {}, {} proposed, {} also stated by the rules, {} inferred, {} quotes not found, \
         {} not the user's words, {} invalid; summaries: {} abstractive, {} rejected\n",
        llm.model,
        plural(llm.requests, "request", "requests"),
        llm.facts_proposed,
        llm.facts_stated_by_rules,
        llm.facts_inferred,
        llm.quotes_not_found,
        llm.not_the_users_words,
        llm.facts_invalid,
        llm.summaries_abstractive,
        llm.summaries_rejected,
    );
    if llm.errors.is_empty() {
        out.push_str("llm errors: none\n");
    } else {
        out.push_str(&format!(
            "llm errors ({}; the rules stood in for each):\n",
            llm.errors.len()
        ));
        for e in &llm.errors {
            out.push_str(&format!("  - {e}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llm_errors_are_listed_one_per_line() {
        let llm = minne::consolidate::LlmConsolidation {
            model: "llm:test".into(),
            requests: 1,
            errors: vec![
                "facts for session 3: connection refused".into(),
                "summary of session 3: skipped after an error".into(),
            ],
            ..Default::default()
        };
        let text = llm_lines(&llm);
        assert!(text.starts_with("llm llm:test: 1 request,"), "{text}");
        assert!(
            text.contains("llm errors (2; the rules stood in for each):\n  - facts for session 3: connection refused\n  - summary of session 3"),
            "{text}"
        );
        let quiet = llm_lines(&minne::consolidate::LlmConsolidation::default());
        assert!(quiet.ends_with("llm errors: none\n"), "{quiet}");
    }
}
