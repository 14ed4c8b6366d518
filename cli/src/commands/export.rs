use std::path::PathBuf;

use minne::export::ExportFormat;

use super::Env;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// `json` (complete, re-importable with `minne import --format transcript`) or `markdown`.
    #[arg(long, short = 'f', value_parser = ["json", "markdown"], default_value = "json")]
    format: String,
    /// The file to write (created owner-only; a later forget removes it again).
    #[arg(long, short = 'o')]
    out: PathBuf,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let format: ExportFormat = args.format.parse()?;
    let mut engine = env.open()?;
    let report = engine.export(format, &args.out)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "Exported `{}` to {}: {} sessions, {} messages, {} episodes.",
            env.context,
            report.path.display(),
            report.sessions,
            report.messages,
            report.episodes
        );
    }
    Ok(())
}
