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
        let info = minne::context::create_context_with(
            &env.settings.data_dir,
            &minne::ContextName::new(name)?,
            &env.settings.keys,
        )?;
        eprintln!(
            "Created the context `{}` at {}.",
            info.name,
            info.path.display()
        );
    } else {
        // Listing only reads: a mistyped data dir is not made into an empty one.
        env.require_data()?;
    }
    let contexts = minne::context::list_contexts_with(&env.settings.data_dir, &env.settings.keys)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&contexts)?);
        return Ok(());
    }
    for c in &contexts {
        let marker = if c.name == env.context { "*" } else { " " };
        match &c.problem {
            None => println!(
                "{marker} {:<16} {:>16}  {}",
                c.name.as_str(),
                crate::output::plural(c.episodes, "episode", "episodes"),
                c.path.display()
            ),
            Some(p) => println!(
                "{marker} {:<16} {:>16}  {}: {p}",
                c.name.as_str(),
                "? episodes",
                c.path.display()
            ),
        }
    }
    Ok(())
}
