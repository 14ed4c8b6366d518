//! How episodes and recall hits look on a terminal and in `--json`.

use minne::episodes::EpisodeView;
use minne::recall::RecallHit;
use serde_json::{Value, json};

/// One line per episode: id, time, kind, salience, who, the words, the source.
pub fn episode_line(e: &EpisodeView) -> String {
    format!(
        "#{:<6} {}  {:<11} sal {:.2}  R {:.2}  {}: \"{}\"  [{}]",
        e.id,
        e.occurred_at.format("%Y-%m-%d %H:%M"),
        e.kind.as_str(),
        e.salience.get(),
        e.retrievability,
        e.actor,
        one_line(&e.text, 120),
        source(e),
    )
}

/// A recall hit: score, words, then its parts, age and source.
pub fn hit_line(h: &RecallHit) -> String {
    let e = &h.episode;
    format!(
        "{:.3}  {}: \"{}\"\n     relevance {:.3}{} (similarity {:.3} · bm25 {:.2}) · retrievability {:.3} · salience {:.2}{} · {} · {} · #{} [{}]",
        h.score,
        e.actor,
        one_line(&e.text, 160),
        h.parts.relevance,
        if h.parts.from_neighbour {
            " from a neighbouring turn"
        } else {
            ""
        },
        h.parts.similarity,
        h.parts.lexical,
        h.parts.retrievability,
        h.parts.salience,
        if h.parts.person_match {
            " · the person asked about"
        } else {
            ""
        },
        age(h.age_days),
        e.kind.as_str(),
        e.id,
        source(e),
    )
}

/// The `--json` shape of a hit: flat and stable for scripts.
pub fn hit_json(h: &RecallHit) -> Value {
    let e = &h.episode;
    json!({
        "episode_id": e.id,
        "text": e.text,
        "actor": e.actor,
        "role": e.role,
        "kind": e.kind,
        "score": h.score,
        "parts": h.parts,
        "age_days": h.age_days,
        "time": e.occurred_at,
        "event_time": e.event_time,
        "source": e.source,
        "session": e.session_external_id,
        "message_id": e.message_id,
        "external_id": e.message_external_id,
        "conflict_with": h.conflict_with,
    })
}

fn source(e: &EpisodeView) -> String {
    match &e.message_external_id {
        Some(id) => format!("{} {}", e.source, id),
        None => format!("{} {}", e.source, e.session_external_id),
    }
}

fn age(days: f64) -> String {
    match days {
        d if d < 1.0 / 24.0 => format!("{:.0} min ago", d * 1440.0),
        d if d < 1.0 => format!("{:.0} h ago", d * 24.0),
        d => format!("{d:.0} days ago"),
    }
}

fn one_line(s: &str, max_chars: usize) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max_chars {
        flat
    } else {
        let cut: String = flat.chars().take(max_chars).collect();
        format!("{cut}…")
    }
}

/// `n` and the noun agreeing with it: `plural(1, "episode", "episodes")` is "1 episode",
/// `plural(3, ...)` "3 episodes", `plural(0, ...)` "0 episodes" (English: singular for one).
pub fn plural<N: std::fmt::Display>(n: N, one: &str, many: &str) -> String {
    let n = n.to_string();
    let noun = if n == "1" { one } else { many };
    format!("{n} {noun}")
}

/// How many applied commands the text output of an import or a capture lists one by one.
pub const COMMANDS_SHOWN: usize = 5;

/// The lines for the in-conversation commands an import or a capture applied ("remember
/// that …", "forget what I said about …"): the first [`COMMANDS_SHOWN`], then one line for the
/// rest. A long history holds hundreds of them, and a screenful of "command applied" would
/// bury the summary; `--json` keeps every one.
pub fn commands_applied(commands: &[minne::consolidate::AppliedCommand]) -> Vec<String> {
    let mut lines: Vec<String> = commands
        .iter()
        .take(COMMANDS_SHOWN)
        .map(|c| format!("  command applied: {}", c.outcome))
        .collect();
    let more = commands.len().saturating_sub(COMMANDS_SHOWN);
    if more > 0 {
        lines.push(format!(
            "  … and {} applied (see --json)",
            plural(more, "more command", "more commands")
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::plural;

    #[test]
    fn plural_agrees_with_the_count() {
        assert_eq!(plural(1usize, "episode", "episodes"), "1 episode");
        assert_eq!(plural(0u64, "episode", "episodes"), "0 episodes");
        assert_eq!(plural(11i64, "entry", "entries"), "11 entries");
    }
}
