//! How episodes and recall hits look on a terminal and in `--json`.

use chrono::{DateTime, Utc};
use minne::episodes::EpisodeView;
use minne::recall::RecallHit;
use serde_json::{Value, json};

/// One line per episode: id, time, kind, salience, who, the words, the source.
pub fn episode_line(e: &EpisodeView) -> String {
    format!(
        "#{:<6} {}  {:<11} sal {:.2}  R {:.2}  {}: \"{}\"  [{}]",
        e.id,
        crate::time::shown(e.occurred_at),
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
    ) + &conflict_note(h)
}

/// The line under a hit that disagrees with other results ("in conflict with #2 (older)"),
/// so the text output says what `--json` says in `conflict_with`; empty for none.
fn conflict_note(h: &RecallHit) -> String {
    if h.conflict_with.is_empty() {
        return String::new();
    }
    let ids: Vec<String> = h.conflict_with.iter().map(|id| format!("#{id}")).collect();
    format!(
        "\n     in conflict with {}: they disagree; the newer is listed first",
        ids.join(", ")
    )
}

/// The `--json` shape of a hit: flat and stable for scripts.
pub fn hit_json(h: &RecallHit) -> Value {
    let e = &h.episode;
    json!({
        "episode_id": e.id,
        "created_at": e.created_at,
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

/// [`hit_json`] for each of `hits`, each with `source_message_ids`: every message it came from
/// (its own first, then its restatements), by the id it had in its file, else `minne:<id>`.
/// Errors: the store could not be read.
pub fn hits_json(engine: &minne::Engine, hits: &[RecallHit]) -> anyhow::Result<Vec<Value>> {
    hits.iter()
        .map(|h| {
            let mut v = hit_json(h);
            v["source_message_ids"] = json!(engine.source_message_ids(h.episode.id)?);
            Ok(v)
        })
        .collect()
}

fn source(e: &EpisodeView) -> String {
    match &e.message_external_id {
        Some(id) => format!("{} {}", e.source, id),
        None => format!("{} {}", e.source, e.session_external_id),
    }
}

/// How long ago `days` (days before now; negative for a date after now, such as a message
/// dated 9999-12-31 or sent from a clock running ahead) was: "12 min ago", "3 h ago",
/// "40 days ago"; "in 2 days", "in 7973 years" ahead of now.
fn age(days: f64) -> String {
    if days < -1.0 / 1440.0 {
        let ahead = -days;
        return match ahead {
            d if d < 1.0 / 24.0 => format!("in {:.0} min", d * 1440.0),
            d if d < 1.0 => format!("in {:.0} h", d * 24.0),
            d if d < 365.0 => format!("in {d:.0} days"),
            d => format!("in {:.0} years", d / 365.25),
        };
    }
    match days.max(0.0) {
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

/// An open item's due time on its line in `minne items` and `minne profile`: ` due
/// 2026-03-06 23:59` in the writer's offset, then ` (overdue)` while the item is still open
/// and its due time is before `now` (as the session-start block marks it); empty when the
/// words named no time.
pub fn due_words(item: &minne::consolidate::OpenItem, now: DateTime<Utc>) -> String {
    item.due_start
        .map(|d| {
            let overdue = if item.status == "open" && d.to_utc() < now {
                " (overdue)"
            } else {
                ""
            };
            format!(" due {}{overdue}", d.format("%Y-%m-%d %H:%M"))
        })
        .unwrap_or_default()
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
    #![allow(clippy::unwrap_used)]
    use super::{age, due_words, plural};

    use chrono::{DateTime, FixedOffset, TimeZone, Utc};
    use minne::consolidate::OpenItem;
    use minne::model::EpisodeId;

    #[test]
    fn an_age_ahead_of_now_says_so_instead_of_zero_minutes_ago() {
        assert_eq!(age(0.5 / 1440.0), "0 min ago", "half a minute ago");
        assert_eq!(age(3.0 / 24.0), "3 h ago");
        assert_eq!(age(40.2), "40 days ago");
        assert_eq!(age(-2.0), "in 2 days");
        assert_eq!(age(-0.5), "in 12 h");
        // 9999-12-31 seen from 2026-12-01: 2 912 108 days, 7972.9 Julian years.
        assert_eq!(age(-2_912_108.0), "in 7973 years");
    }

    fn item(status: &str, due: Option<DateTime<FixedOffset>>) -> OpenItem {
        OpenItem {
            id: 7,
            episode_id: EpisodeId(3),
            actor: "user".to_string(),
            text: "I'll send the report by Friday".to_string(),
            due_start: due,
            due_end: None,
            status: status.to_string(),
        }
    }

    #[test]
    fn due_words_show_the_writers_time_and_overdue_only_while_open() {
        // Friday 6 March 2026 23:59:59 at +01:00 is 22:59:59 UTC; it shows as the writer
        // wrote it, 23:59, whatever zone `now` is in.
        let due = FixedOffset::east_opt(3600)
            .unwrap()
            .with_ymd_and_hms(2026, 3, 6, 23, 59, 59)
            .unwrap();
        let before = Utc.with_ymd_and_hms(2026, 3, 6, 22, 0, 0).unwrap();
        let after = Utc.with_ymd_and_hms(2026, 3, 6, 23, 0, 1).unwrap();
        assert_eq!(
            due_words(&item("open", Some(due)), before),
            " due 2026-03-06 23:59"
        );
        assert_eq!(
            due_words(&item("open", Some(due)), after),
            " due 2026-03-06 23:59 (overdue)",
            "an hour past 22:59:59 UTC an open item is overdue"
        );
        assert_eq!(
            due_words(&item("done", Some(due)), after),
            " due 2026-03-06 23:59",
            "a done item is never overdue"
        );
        assert_eq!(
            due_words(&item("open", None), after),
            "",
            "no time named, none shown"
        );
    }

    #[test]
    fn plural_agrees_with_the_count() {
        assert_eq!(plural(1usize, "episode", "episodes"), "1 episode");
        assert_eq!(plural(0u64, "episode", "episodes"), "0 episodes");
        assert_eq!(plural(11i64, "entry", "entries"), "11 entries");
    }
}
