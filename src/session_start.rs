//! The session-start block (issue 4, "Session start"): what an assistant should know when a
//! conversation begins, within a token budget.
//!
//! The block holds these parts, in this order, each under its own label:
//!
//! 1. **Procedures**: how the user wants things done ("always answer briefly"), confirmed
//!    first, then in the order given.
//! 2. **Who the user is**: the identity attributes, in this order: name, role, employer,
//!    location, timezone, language, communication style.
//! 3. **Open items**: commitments not done yet, soonest due first (so overdue ones lead, each
//!    marked `overdue`: its due time is before the engine clock's now), undated last.
//! 4. **More about the user**: every other fact: allergy, diet, what the user asked to be
//!    remembered, tools, expertise, family, pets, then any other attribute.
//! 5. **Likes and dislikes**: preferences ("dislikes: \"long answers\"").
//! 6. **Recent sessions**: session summaries, newest first.
//!
//! Within a fact part, attributes come in the order above; one attribute's values come
//! confirmed first, then newest first. Facts and procedures of confidence `inferred` never
//! appear (seed 003: an inference is a candidate only).
//!
//! The order is what an assistant needs first: how to answer and who it is talking to shape
//! every reply; what is owed comes next; other facts and tastes matter for some replies only;
//! what was merely talked about comes last. The budget is filled in two passes, so a small
//! budget shows a little of every part rather than all of one: first each part's first line
//! that fits (in part order), then the remaining lines in part order. A line that does not
//! fit is left out (and counted), and a smaller later line may still fit. A part's label
//! appears only with at least one line.
//!
//! Tokens are estimated as [`estimate_tokens`]: characters / 4, rounded up, the usual rule of
//! thumb for English text with BPE tokenizers (OpenAI's "about 4 characters per token"). It is
//! an estimate, not a tokenizer's count: callers who need exact counts should leave headroom.
//!
//! Memory text (values, instructions, open items, summaries) is quoted as a JSON string, as in
//! the recall prompt block (`recall::prompt`), so a stored instruction cannot pass itself off
//! as part of the prompt. Runs of whitespace, line breaks included, are shown as one space
//! first (a line break would read as `\n` inside the quote), and a quote is cut at
//! [`crate::recall::prompt::MAX_QUOTED_CHARS`] characters as there.
//!
//! The block reaches every conversation, whatever it is about, so secrets in memory text (a
//! PIN, a password, a card or personnummer, an API key: [`crate::secret`]) show as
//! [`crate::secret::MASK`]; a recall that asks for one still returns it.
//!
//! The context's mode and read policy apply as they do to recall: a `paused` context refuses
//! the block ([`crate::Error::ModeForbids`]); a read policy that does not list the context
//! itself gives [`WITHHELD`] and no memory.

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::consolidate::{Confidence, FactView, OpenItem};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::mode::Mode;
use crate::recall::prompt;

/// Session summaries read before the budget is applied.
const SUMMARIES_READ: usize = 20;

/// The budget a front end uses when none is given, in estimated tokens: the CLI's
/// `minne context --session-start` and the MCP tool `context` share it.
pub const BUDGET_DEFAULT: u32 = 500;

/// The smallest budget a front end takes, in estimated tokens: the header and a short line
/// or two of each part need about 50; less shows nothing useful. The CLI and the MCP tool
/// refuse a smaller one; [`Engine::session_start`] itself takes any budget.
pub const BUDGET_MIN: u32 = 50;

/// The largest budget a front end takes, in estimated tokens: 20 session summaries at the
/// 600-character quote limit, with a large profile, stay below it.
pub const BUDGET_MAX: u32 = 10_000;

/// The block's first line.
pub const HEADER: &str = "What you know about the user at the start of this session:";

/// The line the block is when nothing is remembered yet.
pub const EMPTY: &str =
    "Nothing remembered yet: no profile, procedures, open items or session summaries.";

/// The line the block is when the context's read policy does not list the context itself
/// (recall then finds nothing either; see `policy`).
pub const WITHHELD: &str = "Nothing to show: this context's read policy does not include its own \
memories, so none are given to the assistant.";

/// The identity attributes ("who the user is"), in the order they are shown.
pub const IDENTITY: [&str; 7] = [
    "name",
    "role",
    "employer",
    "location",
    "timezone",
    "language",
    "communication_style",
];

/// The other known attributes ("more about the user"), in the order they are shown; any
/// attribute not named here or in [`IDENTITY`] (nor a `preference:`) follows them, by name.
pub const OTHER_FACTS: [&str; 7] = [
    "allergy",
    "diet",
    "statement",
    "tool",
    "expertise",
    "family",
    "pet",
];

/// Estimated tokens of `text`: its characters (Unicode scalar values) / 4, rounded up.
pub fn estimate_tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

/// The parts of the block, in the order they appear.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PartKind {
    /// Stated or confirmed procedures.
    Procedures,
    /// The identity attributes ([`IDENTITY`]).
    Identity,
    /// Open commitments.
    OpenItems,
    /// Every other stated or confirmed fact but preferences.
    OtherFacts,
    /// Preferences (`preference:<object>`).
    Preferences,
    /// Session summaries.
    RecentSessions,
}

impl PartKind {
    /// Every part, in the order shown (see the module doc).
    pub const ALL: [PartKind; 6] = [
        PartKind::Procedures,
        PartKind::Identity,
        PartKind::OpenItems,
        PartKind::OtherFacts,
        PartKind::Preferences,
        PartKind::RecentSessions,
    ];

    /// The label printed above the part. The three fact parts start with "Profile".
    pub fn label(self) -> &'static str {
        match self {
            PartKind::Procedures => "How the user wants things done:",
            PartKind::Identity => "Profile, who the user is:",
            PartKind::OpenItems => "Open items (not done yet, soonest due first):",
            PartKind::OtherFacts => "Profile, more about the user:",
            PartKind::Preferences => "Profile, likes and dislikes:",
            PartKind::RecentSessions => "Recent sessions (newest first):",
        }
    }
}

/// One part with the lines that fit.
#[derive(Debug, Clone, Serialize)]
pub struct Part {
    /// Which part.
    pub kind: PartKind,
    /// Its label.
    pub label: &'static str,
    /// Its lines, as they appear in [`SessionStart::text`], each starting with "- ".
    pub items: Vec<String>,
    /// Items of this part left out because they did not fit the budget.
    pub omitted: usize,
}

/// The session-start block.
#[derive(Debug, Clone, Serialize)]
pub struct SessionStart {
    /// The budget asked for, in estimated tokens.
    pub budget_tokens: usize,
    /// Estimated tokens of [`SessionStart::text`]; never more than the budget.
    pub used_tokens: usize,
    /// The parts that have at least one item in the block, in order.
    pub parts: Vec<Part>,
    /// Items left out for the budget, over every part.
    pub omitted: usize,
    /// The block as text: [`HEADER`], then each part's label and lines; [`EMPTY`] when the
    /// context holds nothing of the kind; [`WITHHELD`] when its read policy withholds it;
    /// empty when not even the header and one line fit the budget.
    pub text: String,
}

/// Builds the block within `budget` estimated tokens from candidate lines per part, in the
/// two passes of the module doc.
fn assemble(budget: usize, candidates: Vec<(PartKind, Vec<String>)>) -> SessionStart {
    let total: usize = candidates.iter().map(|(_, c)| c.len()).sum();
    let mut out = SessionStart {
        budget_tokens: budget,
        used_tokens: 0,
        parts: Vec::new(),
        omitted: total,
        text: String::new(),
    };
    if total == 0 {
        return single_line(out, EMPTY);
    }
    let header = format!("{HEADER}\n");
    // Characters used so far; every line and label costs its characters and a newline.
    let mut chars = header.chars().count();
    let fits = |chars: usize| chars.div_ceil(4) <= budget;
    let cost = |s: &str| s.chars().count() + 1;
    let mut taken: Vec<Vec<bool>> = candidates
        .iter()
        .map(|(_, lines)| vec![false; lines.len()])
        .collect();
    // Pass 1: each part's first line that fits, with its label.
    for (p, (kind, lines)) in candidates.iter().enumerate() {
        let label = cost(kind.label());
        if let Some(i) = lines.iter().position(|l| fits(chars + label + cost(l))) {
            chars += label + cost(&lines[i]);
            taken[p][i] = true;
        }
    }
    // Pass 2: the rest, part by part, in order.
    for (p, (kind, lines)) in candidates.iter().enumerate() {
        for (i, line) in lines.iter().enumerate() {
            if taken[p][i] {
                continue;
            }
            let label = if taken[p].contains(&true) {
                0
            } else {
                cost(kind.label())
            };
            if fits(chars + label + cost(line)) {
                chars += label + cost(line);
                taken[p][i] = true;
            }
        }
    }
    let mut text = header;
    for ((kind, lines), taken) in candidates.into_iter().zip(taken) {
        let items: Vec<String> = lines
            .into_iter()
            .zip(&taken)
            .filter_map(|(l, t)| t.then_some(l))
            .collect();
        if items.is_empty() {
            continue;
        }
        text.push_str(kind.label());
        text.push('\n');
        for l in &items {
            text.push_str(l);
            text.push('\n');
        }
        out.omitted -= items.len();
        out.parts.push(Part {
            kind,
            label: kind.label(),
            omitted: taken.len() - items.len(),
            items,
        });
    }
    if out.parts.is_empty() {
        // Not one item fits after the header: say so rather than print a bare header.
        text.clear();
    }
    debug_assert_eq!(
        text.chars().count(),
        if text.is_empty() { 0 } else { chars }
    );
    out.used_tokens = estimate_tokens(&text);
    out.text = text;
    out
}

/// The block as one line (`line`), when it fits the budget; else empty.
fn single_line(mut out: SessionStart, line: &str) -> SessionStart {
    let text = format!("{line}\n");
    if estimate_tokens(&text) <= out.budget_tokens {
        out.text = text;
    }
    out.used_tokens = estimate_tokens(&out.text);
    out
}

/// Memory text as the block quotes it: whitespace runs (line breaks too) as one space,
/// secrets masked ([`crate::secret::mask`]), then quoted and cut as the recall prompt block
/// does (`recall::prompt::memory`).
pub fn quoted(text: &str) -> String {
    let flat: Vec<&str> = text.split_whitespace().collect();
    prompt::memory(&crate::secret::mask(&flat.join(" ")))
}

/// Where `attribute` sits in its part: its index in [`IDENTITY`] or [`OTHER_FACTS`], unknown
/// attributes after those.
fn attribute_rank(attribute: &str) -> usize {
    IDENTITY
        .iter()
        .chain(OTHER_FACTS.iter())
        .position(|a| *a == attribute)
        .unwrap_or(usize::MAX)
}

/// Attribute order, then confirmed before stated, then newest first.
fn fact_order(a: &FactView, b: &FactView) -> std::cmp::Ordering {
    attribute_rank(&a.attribute)
        .cmp(&attribute_rank(&b.attribute))
        .then_with(|| a.attribute.cmp(&b.attribute))
        .then(b.confidence.cmp(&a.confidence))
        .then(b.valid_from.cmp(&a.valid_from))
        .then(b.id.cmp(&a.id))
}

/// `(confirmed, "scope", since 2026-03-02)`: what is known about where a fact comes from.
fn fact_note(f: &FactView) -> String {
    let mut note = Vec::new();
    if f.confidence == Confidence::Confirmed {
        note.push("confirmed".to_string());
    }
    if let Some(scope) = &f.scope {
        note.push(format!("for {}", quoted(scope)));
    }
    note.push(format!("since {}", f.valid_from.format("%Y-%m-%d")));
    format!("({})", note.join(", "))
}

/// A fact line: `- location: "Malmö" (since 2026-11-10)`; a preference reads
/// `- dislikes: "long answers" (since …)`; a statement about themselves that fits no
/// attribute `- the user said: "…"` (not "asked to remember": most were plain statements,
/// "I don't eat pork", and the label claimed a request the user never made).
fn fact_line(f: &FactView) -> String {
    let note = fact_note(f);
    if let Some(object) = f.attribute.strip_prefix("preference:") {
        return match f.value.as_str() {
            "likes" | "dislikes" => format!("- {}: {} {note}", f.value, quoted(object)),
            other => format!("- preference {}: {} {note}", quoted(object), quoted(other)),
        };
    }
    let attribute = match f.attribute.as_str() {
        "statement" => "the user said",
        "communication_style" => "communication style",
        other => other,
    };
    format!("- {attribute}: {} {note}", quoted(&f.value))
}

/// An open item line: the user's own commitment as its quoted words, the assistant's as
/// "you promised", anyone else's under their quoted name; then its due time in the writer's
/// offset and `overdue` when that is before `now`.
fn open_item_line(o: &OpenItem, now: DateTime<Utc>) -> String {
    let who = match o.actor.as_str() {
        "user" => String::new(),
        "assistant" => "you promised: ".to_string(),
        other => format!("{} said: ", quoted(other)),
    };
    let due = match o.due_start {
        Some(d) if d.to_utc() < now => format!(" (due {}, overdue)", d.format("%Y-%m-%d %H:%M")),
        Some(d) => format!(" (due {})", d.format("%Y-%m-%d %H:%M")),
        None => String::new(),
    };
    format!("- {who}{}{due}", quoted(&o.text))
}

impl Engine {
    /// The session-start block of this context within `budget` estimated tokens
    /// ([`estimate_tokens`]): procedures, who the user is, open items (overdue ones marked by
    /// the engine's clock), other facts, likes and dislikes, recent session summaries, in the
    /// order and with the two-pass fill of the module doc; inferred facts and procedures never
    /// appear. An empty context gives [`EMPTY`] as its text; one whose read policy leaves
    /// itself out gives [`WITHHELD`].
    ///
    /// # Errors
    /// [`crate::Error::ModeForbids`] when the context is paused; database errors.
    pub fn session_start(&self, budget: usize) -> Result<SessionStart> {
        if self.mode()? == Mode::Paused {
            return Err(Error::ModeForbids {
                context: self.context.to_string(),
                mode: Mode::Paused,
                action: "showing the session-start context",
            });
        }
        if !self.read_policy()?.allows(&self.context) {
            let out = SessionStart {
                budget_tokens: budget,
                used_tokens: 0,
                parts: Vec::new(),
                omitted: 0,
                text: String::new(),
            };
            return Ok(single_line(out, WITHHELD));
        }
        let profile = self.profile()?;
        let mut facts = profile.facts;
        facts.retain(|f| f.confidence != Confidence::Inferred);
        facts.sort_by(fact_order);
        let (mut identity, mut other, mut preferences) = (Vec::new(), Vec::new(), Vec::new());
        for f in &facts {
            let part = if f.attribute.starts_with("preference:") {
                &mut preferences
            } else if IDENTITY.contains(&f.attribute.as_str()) {
                &mut identity
            } else {
                &mut other
            };
            part.push((f, fact_line(f)));
        }
        // Preferences: newest first (their attribute is the object, which ranks nothing).
        preferences.sort_by(|(a, _), (b, _)| {
            b.confidence
                .cmp(&a.confidence)
                .then(b.valid_from.cmp(&a.valid_from))
                .then(b.id.cmp(&a.id))
        });
        let lines = |v: Vec<(&FactView, String)>| v.into_iter().map(|(_, l)| l).collect();
        let mut procedures = profile.procedures;
        procedures.retain(|p| p.confidence != Confidence::Inferred);
        procedures.sort_by(|a, b| b.confidence.cmp(&a.confidence).then(a.id.cmp(&b.id)));
        let procedures = procedures
            .iter()
            .map(|p| {
                let note = if p.confidence == Confidence::Confirmed {
                    " (confirmed)"
                } else {
                    ""
                };
                format!("- {}{note}", quoted(&p.instruction))
            })
            .collect();
        let now = self.clock.now();
        let open_items = profile
            .open_items
            .iter()
            .map(|o| open_item_line(o, now))
            .collect();
        let sessions = self
            .session_summaries(SUMMARIES_READ)?
            .iter()
            .map(|s| format!("- {}: {}", s.ended.format("%Y-%m-%d"), quoted(&s.summary)))
            .collect();
        Ok(assemble(
            budget,
            vec![
                (PartKind::Procedures, procedures),
                (PartKind::Identity, lines(identity)),
                (PartKind::OpenItems, open_items),
                (PartKind::OtherFacts, lines(other)),
                (PartKind::Preferences, lines(preferences)),
                (PartKind::RecentSessions, sessions),
            ],
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(prefix: &str, n: usize, chars: usize) -> Vec<String> {
        (0..n)
            .map(|i| {
                let mut s = format!("- {prefix}{i} ");
                while s.chars().count() < chars {
                    s.push('x');
                }
                s
            })
            .collect()
    }

    #[test]
    fn estimate_is_characters_over_four_rounded_up() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens("abcd"), 1);
        assert_eq!(estimate_tokens("abcde"), 2);
        // Characters, not bytes: "åäöæø" is 5 characters (10 bytes) → 2 tokens.
        assert_eq!(estimate_tokens("åäöæø"), 2);
    }

    #[test]
    fn a_small_budget_keeps_one_line_of_each_part_before_filling_one() {
        // Header 58 chars + newline = 59. Procedures label 31 + 1 = 32, identity label 25 + 1
        // = 26, lines 39 + 1 = 40. Budget 60 tokens = 240 chars. Pass 1: 59 + 32 + 40 = 131,
        // then 131 + 26 + 40 = 197. Pass 2: a second procedure would make 237 ≤ 240: taken;
        // a third 277: left out; a second identity line too. Filling the procedures first
        // (the old way) would have shown three procedures and no identity line.
        let out = assemble(
            60,
            vec![
                (PartKind::Procedures, lines("proc", 3, 39)),
                (PartKind::Identity, lines("fact", 2, 39)),
            ],
        );
        assert_eq!(
            out.text,
            format!(
                "{HEADER}\n{}\n{}\n{}\n{}\n{}\n",
                PartKind::Procedures.label(),
                lines("proc", 1, 39)[0],
                lines("proc", 2, 39)[1],
                PartKind::Identity.label(),
                lines("fact", 1, 39)[0],
            )
        );
        assert_eq!(out.used_tokens, 237_usize.div_ceil(4));
        assert_eq!(estimate_tokens(&out.text), out.used_tokens);
        assert_eq!(out.omitted, 2, "one procedure and one fact left out");
        assert_eq!(out.parts[0].omitted, 1);
        assert_eq!(out.parts[1].omitted, 1);
    }

    #[test]
    fn a_line_too_long_for_pass_one_gives_way_to_a_shorter_one_of_its_part() {
        // Budget 40 tokens = 160 chars: header 59 + identity label 26 = 85, 75 left. The first
        // identity line (100 chars + newline) does not fit; the second (30 + 1) does.
        let mut identity = lines("long", 1, 100);
        identity.extend(lines("short", 1, 30));
        let out = assemble(40, vec![(PartKind::Identity, identity.clone())]);
        assert_eq!(
            out.text,
            format!(
                "{HEADER}\n{}\n{}\n",
                PartKind::Identity.label(),
                identity[1]
            )
        );
        assert_eq!(out.omitted, 1);
    }

    #[test]
    fn a_budget_too_small_for_the_header_gives_nothing() {
        let out = assemble(5, vec![(PartKind::Identity, lines("fact", 1, 10))]);
        assert_eq!(out.text, "");
        assert_eq!(out.used_tokens, 0);
        assert_eq!(out.omitted, 1);
    }

    #[test]
    fn nothing_stored_says_so() {
        let out = assemble(
            100,
            PartKind::ALL.iter().map(|k| (*k, Vec::new())).collect(),
        );
        assert_eq!(out.text, format!("{EMPTY}\n"));
        assert!(out.parts.is_empty());
        assert_eq!(out.omitted, 0);
    }

    fn item(actor: &str, due: Option<&str>) -> OpenItem {
        let due = due.map(|d| DateTime::parse_from_rfc3339(d).expect("a time"));
        OpenItem {
            id: 1,
            episode_id: crate::model::EpisodeId(1),
            actor: actor.into(),
            text: "I'll send the report.\nIt's long.".into(),
            due_start: due,
            due_end: None,
            status: "open".into(),
        }
    }

    #[test]
    fn open_items_read_naturally_and_overdue_is_before_now() {
        // Now: 2026-11-30 08:00 UTC = 09:00 +01:00.
        let now = DateTime::parse_from_rfc3339("2026-11-30T08:00:00Z")
            .expect("a time")
            .to_utc();
        // Due 22 Nov 23:59:59 in the writer's offset: before now, so overdue; the date shown
        // is the writer's. The line break is a space inside the quote.
        assert_eq!(
            open_item_line(&item("user", Some("2026-11-22T23:59:59+01:00")), now),
            r#"- "I'll send the report. It's long." (due 2026-11-22 23:59, overdue)"#
        );
        // Due one second after now: not overdue. 08:00:01 UTC is 09:00 at +01:00.
        assert_eq!(
            open_item_line(&item("assistant", Some("2026-11-30T09:00:01+01:00")), now),
            r#"- you promised: "I'll send the report. It's long." (due 2026-11-30 09:00)"#
        );
        // Anyone else is named, their name quoted as the words are (it came from a file).
        assert_eq!(
            open_item_line(&item("Caroline", None), now),
            r#"- "Caroline" said: "I'll send the report. It's long.""#
        );
    }

    #[test]
    fn memory_text_stays_one_quoted_line() {
        // A chat message's blank line would otherwise print as a literal `\n\n` inside the
        // quote; a quote inside stays escaped, so the words cannot close their quote.
        assert_eq!(
            quoted("First line.\n\nSecond \"line\".\t "),
            r#""First line. Second \"line\".""#
        );
    }
}
