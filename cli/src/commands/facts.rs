use super::Env;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Include superseded, rejected and retracted facts.
    #[arg(long)]
    all: bool,
    /// Print as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let engine = env.open()?;
    let facts = engine.facts(args.all)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&facts)?);
        return Ok(());
    }
    if facts.is_empty() {
        println!(
            "No facts in `{}`: `minne consolidate` reads captured episodes.",
            env.context
        );
    }
    for f in &facts {
        let to = f
            .valid_to
            .map(|t| t.format("%Y-%m-%d").to_string())
            .unwrap_or_else(|| "now".into());
        println!(
            "fact #{:<5} {:<10} {:<9} {:<22} {}  [{} → {}]  support {}",
            f.id.0,
            f.status.as_str(),
            f.confidence.as_str(),
            f.attribute,
            f.value,
            f.valid_from.format("%Y-%m-%d"),
            to,
            f.support,
        );
        for s in &f.sources {
            println!(
                "             episode #{} {}: \"{}\"",
                s.episode_id,
                crate::time::shown(s.said_at),
                s.quote
            );
        }
    }
    if !facts.is_empty() {
        println!(
            "A fact goes when the episodes it rests on go: `minne forget --id EPISODE` takes an \
             episode number, not a fact number."
        );
    }
    Ok(())
}
