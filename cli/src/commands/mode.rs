use minne::mode::Mode;

use super::Env;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The new mode: `remember` (capture and recall), `recall_only` (no new memories) or
    /// `paused` (incognito: nothing captured or recalled). Without it, shows the mode.
    #[arg(value_parser = ["remember", "recall_only", "paused"])]
    mode: Option<String>,
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    // Setting a mode may come before anything is stored (pause a context before the first
    // capture); showing it only reads.
    let mut engine = if args.mode.is_some() {
        env.open_or_create()?
    } else {
        env.open()?
    };
    if let Some(mode) = args.mode {
        let mode: Mode = mode.parse()?;
        engine.set_mode(mode)?;
        println!("`{}` is now in `{mode}` mode.", env.context);
    } else {
        println!("{}", engine.mode()?);
    }
    Ok(())
}
