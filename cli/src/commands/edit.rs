//! `minne edit ID TEXT`: rewrite a memory's words; the old words leave the store.

use super::Env;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The episode's id (`minne list` shows it).
    id: i64,
    /// Its new words.
    text: String,
    /// Print the receipt as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let mut engine = env.open()?;
    let receipt = engine.edit_episode(minne::model::EpisodeId(args.id), &args.text)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&receipt)?);
    } else if receipt.changed {
        println!(
            "Episode #{} now reads \"{}\"; the old words were removed from {}.",
            receipt.episode,
            receipt.text,
            crate::output::plural(receipt.messages_redacted, "message", "messages")
        );
        if receipt.echoes > 0 {
            println!(
                "Replies that said the old words back: {} now read [edited].",
                crate::output::plural(receipt.echoes, "sentence", "sentences")
            );
        }
    } else {
        println!(
            "Episode #{} already reads that; nothing changed.",
            receipt.episode
        );
    }
    Ok(())
}
