use super::Env;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let contexts = minne::list_contexts(&env.settings.data_dir)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&contexts)?);
        return Ok(());
    }
    for c in &contexts {
        let marker = if c.name == env.context { "*" } else { " " };
        println!("{marker} {:<16} {:>7} episodes  {}", c.name.as_str(), c.episodes, c.path.display());
    }
    Ok(())
}
