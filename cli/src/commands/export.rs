use std::path::PathBuf;

use minne::export::ExportFormat;

use super::Env;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// `json` (complete, re-importable with `minne import --format transcript`) or `markdown`.
    #[arg(long, short = 'f', value_parser = ["json", "markdown"], default_value = "json")]
    format: String,
    /// The file to write (created owner-only; a later forget removes it again), or `-` for
    /// standard output (not tracked: you own what you do with it).
    #[arg(long, short = 'o')]
    out: PathBuf,
    /// Replace the file if it exists.
    #[arg(long)]
    force: bool,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let format: ExportFormat = args.format.parse()?;
    let mut engine = env.open()?;
    if args.out.as_os_str() == "-" {
        let value = engine.export_value()?;
        match format {
            ExportFormat::Json => println!("{}", serde_json::to_string_pretty(&value)?),
            ExportFormat::Markdown => print!("{}", minne::export::markdown(&value)),
        }
        return Ok(());
    }
    if args.out.exists() && !args.force {
        anyhow::bail!(
            "{} exists: choose another file, or add --force to replace it",
            args.out.display()
        );
    }
    let report = engine.export(format, &args.out)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "Exported `{}` to {}: {}, {}, {}.",
            env.context,
            report.path.display(),
            crate::output::plural(report.sessions, "session", "sessions"),
            crate::output::plural(report.messages, "message", "messages"),
            crate::output::plural(report.episodes, "episode", "episodes")
        );
    }
    Ok(())
}
