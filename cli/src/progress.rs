//! Progress of a long command on stderr: an indicatif bar on a terminal, plain lines when
//! stderr is not one (piped, redirected to a file, CI logs), so a long import never looks hung
//! and never shows a bar of unknown length as `0/0`.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// Without a terminal, a line at least this often while a phase advances (seconds)...
const LINE_EVERY: Duration = Duration::from_secs(5);
/// ...and at every tenth of the phase done.
const LINE_STEPS: u64 = 10;

/// Where progress goes: a bar, or lines prefixed with the command's name.
#[derive(Debug)]
pub struct Progress {
    out: Out,
    /// The phase shown now (`capturing`), with its unit (`messages`).
    phase: Option<(&'static str, &'static str)>,
}

#[derive(Debug)]
enum Out {
    Bar(ProgressBar),
    Lines {
        /// `import`, starting each line.
        command: &'static str,
        started: Instant,
        last_line: Instant,
        /// Tenths of the phase already reported.
        last_step: u64,
    },
}

impl Progress {
    /// A bar when stderr is a terminal, plain lines otherwise.
    pub fn stderr(command: &'static str) -> Self {
        if std::io::stderr().is_terminal() {
            Progress::bar()
        } else {
            Progress::lines(command)
        }
    }

    fn bar() -> Self {
        Progress {
            out: Out::Bar(spinner("")),
            phase: None,
        }
    }

    fn lines(command: &'static str) -> Self {
        let now = Instant::now();
        Progress {
            out: Out::Lines {
                command,
                started: now,
                last_line: now,
                last_step: 0,
            },
            phase: None,
        }
    }

    /// A step of unknown length (reading, storing, consolidating): a spinner with `message`
    /// on a terminal, one line otherwise.
    pub fn note(&mut self, message: &str) {
        self.phase = None;
        match &mut self.out {
            // A new bar per step, so no frame ever mixes one step's style with another's length.
            Out::Bar(bar) => {
                bar.finish_and_clear();
                *bar = spinner(message);
            }
            Out::Lines {
                command,
                started,
                last_line,
                ..
            } => {
                eprintln!(
                    "{command}: {message} [{:.1} s]",
                    started.elapsed().as_secs_f64()
                );
                *last_line = Instant::now();
            }
        }
    }

    /// `done` of `total` `unit` (`messages`) in `phase` (`capturing`). A phase with nothing to
    /// do (`total` 0) shows nothing: a bar is only ever drawn with its real length.
    pub fn advance(&mut self, phase: &'static str, unit: &'static str, done: u64, total: u64) {
        if total == 0 {
            return;
        }
        let done = done.min(total);
        let after_note = self.phase.is_none();
        let new_phase = self.phase != Some((phase, unit));
        self.phase = Some((phase, unit));
        match &mut self.out {
            Out::Bar(bar) => {
                if new_phase {
                    // A spinner just before was this phase's wait for its first batch.
                    let waited = if after_note {
                        bar.elapsed()
                    } else {
                        Duration::ZERO
                    };
                    bar.finish_and_clear();
                    *bar = ProgressBar::new(total)
                        .with_style(bar_style(unit))
                        .with_message(phase)
                        .with_position(done)
                        .with_elapsed(waited);
                    bar.enable_steady_tick(TICK);
                } else {
                    bar.set_length(total);
                    bar.set_position(done);
                }
            }
            Out::Lines {
                command,
                started,
                last_line,
                last_step,
            } => {
                let step = done * LINE_STEPS / total;
                if new_phase {
                    *last_step = 0;
                }
                if new_phase
                    || done == total
                    || step > *last_step
                    || last_line.elapsed() >= LINE_EVERY
                {
                    eprintln!(
                        "{command}: {phase} {done}/{total} {unit} ({}%) [{:.1} s]",
                        done * 100 / total,
                        started.elapsed().as_secs_f64()
                    );
                    *last_line = Instant::now();
                    *last_step = step;
                }
            }
        }
    }

    /// Clears the bar (the summary follows on stdout); lines stay as they are.
    pub fn finish(self) {
        if let Out::Bar(bar) = self.out {
            bar.finish_and_clear();
        }
    }
}

/// How often a bar redraws on its own, so its clock moves between updates.
const TICK: Duration = Duration::from_millis(120);

/// A spinner with `message` and the time this step has taken.
fn spinner(message: &str) -> ProgressBar {
    let style = ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
        .unwrap_or_else(|_| ProgressStyle::default_spinner());
    let bar = ProgressBar::new_spinner()
        .with_style(style)
        .with_message(message.to_string());
    bar.enable_steady_tick(TICK);
    bar
}

fn bar_style(unit: &str) -> ProgressStyle {
    ProgressStyle::with_template(&format!(
        "{{msg:>10}} [{{bar:30}}] {{pos}}/{{len}} {unit} ({{elapsed}}, about {{eta}} left)"
    ))
    .map(|s| s.progress_chars("=> "))
    .unwrap_or_else(|_| ProgressStyle::default_bar())
}
