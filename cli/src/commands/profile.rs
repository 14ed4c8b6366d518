use super::Env;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let engine = env.open()?;
    let profile = engine.profile()?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&profile)?);
        return Ok(());
    }
    if profile.facts.is_empty() && profile.procedures.is_empty() && profile.open_items.is_empty() {
        println!(
            "Nothing in the profile of `{}` yet: `minne consolidate` reads captured episodes.",
            env.context
        );
    }
    for f in &profile.facts {
        println!(
            "{:<22} {}  ({}, support {})",
            f.attribute,
            f.value,
            f.confidence.as_str(),
            f.support
        );
    }
    for p in &profile.procedures {
        println!(
            "procedure #{:<5} \"{}\"  ({})",
            p.id,
            p.instruction,
            p.confidence.as_str()
        );
    }
    let now = chrono::Utc::now();
    for o in &profile.open_items {
        // The profile lists open items only, so each past its due time is overdue.
        println!(
            "open item #{:<5} {}: \"{}\"{}  (episode #{})",
            o.id,
            o.actor,
            o.text,
            crate::output::due_words(o, now),
            o.episode_id
        );
    }
    Ok(())
}
