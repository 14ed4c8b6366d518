use super::Env;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Create a new, empty context with this name (its own database file).
    #[arg(long, value_name = "NAME")]
    create: Option<String>,
    /// Print as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    if let Some(name) = &args.create {
        let info = minne::context::create_context(
            &env.settings.data_dir,
            &minne::ContextName::new(name)?,
        )?;
        eprintln!(
            "Created the context `{}` at {}.",
            info.name,
            info.path.display()
        );
    }
    let contexts = minne::list_contexts(&env.settings.data_dir)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&contexts)?);
        return Ok(());
    }
    for c in &contexts {
        let marker = if c.name == env.context { "*" } else { " " };
        match &c.problem {
            None => println!(
                "{marker} {:<16} {:>7} episodes  {}",
                c.name.as_str(),
                c.episodes,
                c.path.display()
            ),
            Some(p) => println!(
                "{marker} {:<16}       ? episodes  {}: {p}",
                c.name.as_str(),
                c.path.display()
            ),
        }
    }
    Ok(())
}
