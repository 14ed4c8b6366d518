use std::path::PathBuf;

use minne::import::{ImportFormat, ImportOptions, ImportProgress};

use super::Env;
use crate::output::plural;
use crate::progress::Progress;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The file to import.
    file: PathBuf,
    /// Its format: `chatgpt` or `claude` (their data exports' conversations.json),
    /// `transcript`, `locomo`, or `auto` to tell it from the file (see the README).
    #[arg(long, short = 'f', default_value = "auto", value_parser = ImportFormat::NAMES)]
    format: String,
    /// LoCoMo: import only this sample (`conv-26`).
    #[arg(long)]
    sample: Option<String>,
    /// LoCoMo: whose memory this is: `speaker_a` (default), `speaker_b` or a speaker's name.
    #[arg(long = "as", value_name = "SPEAKER")]
    as_speaker: Option<String>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(env: &Env, args: Args) -> anyhow::Result<()> {
    let format: ImportFormat = args.format.parse()?;
    let options = ImportOptions {
        format,
        sample: args.sample,
        as_speaker: args.as_speaker,
    };
    let mut progress = Progress::stderr("import");
    progress.note(&format!("reading {}", args.file.display()));
    let started = std::time::Instant::now();
    // Read before the context is opened: a file that cannot be read or parsed leaves no
    // new context and no key behind (a fresh user's `import /nonexistent` made both).
    let sessions = match minne::import::read_file(&args.file, &options) {
        Ok(sessions) => sessions,
        Err(e) => {
            progress.finish();
            return Err(anyhow::Error::new(e).context(format!(
                "import of {} failed; nothing from it was kept",
                args.file.display()
            )));
        }
    };
    let mut engine = env.open_or_create()?;
    let result = engine.import_parsed(&args.file, &sessions, &mut |p| match p {
        ImportProgress::Parsed { sessions, messages } => progress.note(&format!(
            "parsed {} in {}; storing the new ones",
            plural(messages, "message", "messages"),
            plural(sessions, "session", "sessions")
        )),
        ImportProgress::Backlog { messages } => progress.note(&format!(
            "{} stored earlier but never captured (an import that was stopped) are \
             captured with these",
            plural(messages, "message", "messages")
        )),
        ImportProgress::Captured { done, total } => {
            progress.advance("capturing", "messages", done as u64, total as u64);
            if done == total {
                progress.note("embedding the new episodes");
            }
        }
        ImportProgress::Embedded { done, total } => {
            progress.advance("embedding", "episodes", done as u64, total as u64);
            if done == total {
                progress.note("consolidating");
            }
        }
    });
    // Cleared before any error or warning, so it never sits above them.
    progress.finish();
    let report = result.map_err(|e| {
        let what = match e {
            // The file was refused before anything was written.
            minne::Error::Import { .. }
            | minne::Error::Io { .. }
            | minne::Error::InvalidInput(_) => "nothing from it was kept",
            // The mode is checked before anything is read or stored.
            minne::Error::ModeForbids { .. } => {
                "nothing from it was stored; after `minne mode remember`, run the import again"
            }
            // Messages already stored stay; capture resumes on the next run.
            _ => {
                "what was stored is kept: `minne status` shows what waits, `minne capture` \
                 finishes it"
            }
        };
        anyhow::Error::new(e).context(format!("import of {} failed; {what}", args.file.display()))
    })?;
    if report.messages_truncated > 0 {
        eprintln!(
            "warning: {} longer than {} kB and stored cut to that length",
            was_were(report.messages_truncated),
            minne::import::MAX_MESSAGE_BYTES / 1000
        );
    }
    if report.messages_cleaned > 0 {
        eprintln!(
            "warning: {} NUL or control characters, which were left out",
            if report.messages_cleaned == 1 {
                "1 message held".to_string()
            } else {
                format!("{} messages held", report.messages_cleaned)
            }
        );
    }
    if report.messages_in_future > 0 {
        eprintln!(
            "warning: {} dated later than now (kept with the time it carries; check the \
             clock of the device that wrote the file)",
            plural(report.messages_in_future, "message is", "messages are")
        );
    }
    if report.messages_at_epoch > 0 {
        eprintln!(
            "warning: {} dated 1970-01-01 00:00:00 UTC (a time of 0, which exporters write \
             when they have none); kept with that date: ages and time ranges read it as 1970",
            plural(report.messages_at_epoch, "message is", "messages are")
        );
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "Imported {} into `{}` in {:.1} s: {} of {} and {} of {} were new; {} captured.",
            args.file.display(),
            env.context,
            started.elapsed().as_secs_f64(),
            report.sessions_added,
            plural(report.sessions_seen, "session", "sessions"),
            report.messages_added,
            plural(report.messages_seen, "message", "messages"),
            plural(report.episodes_added, "episode", "episodes"),
        );
        if report.messages_resumed > 0 {
            println!(
                "  finished an earlier, interrupted import of this file: {} it had stored \
                 were captured now, {} captured",
                plural(report.messages_resumed, "message", "messages"),
                plural(report.episodes_resumed, "episode", "episodes"),
            );
        }
        if report.messages_backlog > 0 {
            println!(
                "  also captured {} an earlier import had stored but not captured (it was \
                 stopped before it finished)",
                plural(report.messages_backlog, "message", "messages"),
            );
        }
        for line in crate::output::commands_applied(&report.commands) {
            println!("{line}");
        }
        if report.messages_withheld > 0 {
            println!(
                "  not kept, as asked: {} (\"don't remember this\", \"off the record\"); no memory was made of them or of the replies to them, and their words left the transcript",
                plural(report.messages_withheld, "message", "messages")
            );
        }
    }
    Ok(())
}

/// "1 message was" / "3 messages were".
fn was_were(n: usize) -> String {
    if n == 1 {
        "1 message was".to_string()
    } else {
        format!("{n} messages were")
    }
}
