use minne::model::EpisodeId;

use super::Env;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The episode to forget (ids are shown by `minne list`).
    #[arg(long)]
    id: i64,
    /// Print the receipt as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let mut engine = env.open()?;
    let receipt = engine.forget_episode(EpisodeId(args.id))?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&receipt)?);
    } else {
        println!(
            "Forgot episode {} in `{}`: {} episode, {} embedding, {} participant rows removed.",
            args.id, env.context, receipt.episodes, receipt.embeddings, receipt.participants
        );
        for note in &receipt.notes {
            println!("  note: {note}");
        }
    }
    Ok(())
}
