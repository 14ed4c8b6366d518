//! The session-start block (issue 4, "Session start"): what an assistant should know when a
//! conversation begins, within a token budget.
//!
//! The block holds, most important first, each part under its own label:
//!
//! 1. **Profile**: active facts the user stated or confirmed (confirmed first, then newest).
//!    Facts of confidence `inferred` never appear (seed 003: an inference is a candidate only).
//! 2. **Procedures**: how the user wants things done, the same rule (no inferred ones).
//! 3. **Open items**: commitments not done yet, soonest due first, undated last.
//! 4. **Recent sessions**: session summaries, newest first.
//!
//! Who the user is and how they want things done shape every reply, so they come first; what
//! is owed comes before what was merely talked about. Items are added in that order while the
//! whole block stays within the budget; an item that does not fit is left out (and counted)
//! and smaller later items may still fit. A part's label appears only with at least one item.
//!
//! Tokens are estimated as [`estimate_tokens`]: characters / 4, rounded up, the usual rule of
//! thumb for English text with BPE tokenizers (OpenAI's "about 4 characters per token"). It is
//! an estimate, not a tokenizer's count: callers who need exact counts should leave headroom.
//!
//! Memory text is quoted as a JSON string, as in the recall prompt block, so a stored
//! instruction cannot pass itself off as part of the prompt.

use serde::Serialize;

use crate::consolidate::Confidence;
use crate::engine::Engine;
use crate::error::Result;

/// Session summaries read before the budget is applied.
const SUMMARIES_READ: usize = 20;

/// The block's first line.
pub const HEADER: &str = "What you know about the user at the start of this session:";

/// The line the block is when nothing is remembered yet.
pub const EMPTY: &str =
    "Nothing remembered yet: no profile, procedures, open items or session summaries.";

/// Estimated tokens of `text`: its characters (Unicode scalar values) / 4, rounded up.
pub fn estimate_tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

/// The parts of the block, in the order they appear.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PartKind {
    /// Stated or confirmed facts.
    Profile,
    /// Stated or confirmed procedures.
    Procedures,
    /// Open commitments.
    OpenItems,
    /// Session summaries.
    RecentSessions,
}

impl PartKind {
    /// Every part, most important first.
    pub const ALL: [PartKind; 4] = [
        PartKind::Profile,
        PartKind::Procedures,
        PartKind::OpenItems,
        PartKind::RecentSessions,
    ];

    /// The label printed above the part.
    pub fn label(self) -> &'static str {
        match self {
            PartKind::Profile => "Profile (stated or confirmed by the user):",
            PartKind::Procedures => "Procedures (how the user wants things done):",
            PartKind::OpenItems => "Open items (not done yet):",
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
    /// context holds nothing of the kind; empty when not even the header fits the budget.
    pub text: String,
}

/// Builds the block within `budget` estimated tokens from candidate lines per part.
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
        if estimate_tokens(&format!("{EMPTY}\n")) <= budget {
            out.text = format!("{EMPTY}\n");
        }
        out.used_tokens = estimate_tokens(&out.text);
        return out;
    }
    let header = format!("{HEADER}\n");
    if estimate_tokens(&header) > budget {
        return out;
    }
    let mut chars = header.chars().count();
    let mut text = header;
    let fits = |chars: usize| chars.div_ceil(4) <= budget;
    for (kind, lines) in candidates {
        let mut part = Part {
            kind,
            label: kind.label(),
            items: Vec::new(),
            omitted: 0,
        };
        let label = format!("{}\n", kind.label());
        let label_chars = label.chars().count();
        for line in lines {
            let line = format!("{line}\n");
            let need = line.chars().count()
                + if part.items.is_empty() {
                    label_chars
                } else {
                    0
                };
            if fits(chars + need) {
                if part.items.is_empty() {
                    text.push_str(&label);
                }
                text.push_str(&line);
                chars += need;
                part.items.push(line.trim_end().to_string());
            } else {
                part.omitted += 1;
            }
        }
        if !part.items.is_empty() {
            out.omitted -= part.items.len();
            out.parts.push(part);
        }
    }
    if out.parts.is_empty() {
        // Not one item fits after the header: say so rather than print a bare header.
        text.clear();
    }
    out.used_tokens = estimate_tokens(&text);
    out.text = text;
    out
}

/// `s` as a JSON string literal (see the module doc).
fn quote(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

impl Engine {
    /// The session-start block of this context within `budget` estimated tokens
    /// ([`estimate_tokens`]): profile, procedures, open items and recent session summaries,
    /// most important first, each part labelled; inferred facts and procedures never appear.
    /// An empty context gives [`EMPTY`] as its text.
    ///
    /// # Errors
    /// [`crate::Error::ModeForbids`] when the context is paused; database errors.
    pub fn session_start(&self, budget: usize) -> Result<SessionStart> {
        let profile = self.profile()?;
        let mut facts = profile.facts;
        facts.retain(|f| f.confidence != Confidence::Inferred);
        // Confirmed before stated, then the newest first.
        facts.sort_by(|a, b| {
            b.confidence
                .cmp(&a.confidence)
                .then(b.valid_from.cmp(&a.valid_from))
                .then(b.id.cmp(&a.id))
        });
        let facts = facts
            .iter()
            .map(|f| {
                let scope = f
                    .scope
                    .as_deref()
                    .map(|s| format!(", {s}"))
                    .unwrap_or_default();
                format!(
                    "- {}: {} ({}{scope}, since {})",
                    f.attribute,
                    quote(&f.value),
                    f.confidence.as_str(),
                    f.valid_from.format("%Y-%m-%d")
                )
            })
            .collect();
        let mut procedures = profile.procedures;
        procedures.retain(|p| p.confidence != Confidence::Inferred);
        procedures.sort_by(|a, b| b.confidence.cmp(&a.confidence).then(a.id.cmp(&b.id)));
        let procedures = procedures
            .iter()
            .map(|p| format!("- {} ({})", quote(&p.instruction), p.confidence.as_str()))
            .collect();
        let open_items = profile
            .open_items
            .iter()
            .map(|o| {
                let due = o
                    .due_start
                    .map(|d| format!(" (due {})", d.format("%Y-%m-%d %H:%M")))
                    .unwrap_or_default();
                format!("- {}: {}{due}", quote(&o.actor), quote(&o.text))
            })
            .collect();
        let sessions = self
            .session_summaries(SUMMARIES_READ)?
            .iter()
            .map(|s| format!("- {}: {}", s.ended.format("%Y-%m-%d"), quote(&s.summary)))
            .collect();
        Ok(assemble(
            budget,
            vec![
                (PartKind::Profile, facts),
                (PartKind::Procedures, procedures),
                (PartKind::OpenItems, open_items),
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
    fn assemble_stays_in_budget_and_keeps_the_order() {
        // Header 58 chars + newline = 59; profile label 42 + 1; lines 39 chars + 1. With a
        // budget of 60 tokens (240 chars): header 59 + label 43 + two lines 80 = 182 chars, then
        // the procedures label 45 + a line 40 would make 267 > 240, so no procedure fits.
        let out = assemble(
            60,
            vec![
                (PartKind::Profile, lines("fact", 2, 39)),
                (PartKind::Procedures, lines("proc", 3, 39)),
            ],
        );
        assert!(out.used_tokens <= 60, "{out:?}");
        assert_eq!(estimate_tokens(&out.text), out.used_tokens);
        assert_eq!(out.parts.len(), 1, "{}", out.text);
        assert_eq!(out.parts[0].kind, PartKind::Profile);
        assert_eq!(out.parts[0].items.len(), 2);
        assert_eq!(out.omitted, 3, "the three procedures were left out");
        assert!(out.text.starts_with(HEADER));
    }

    #[test]
    fn a_budget_too_small_for_the_header_gives_nothing() {
        let out = assemble(5, vec![(PartKind::Profile, lines("fact", 1, 10))]);
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
}
