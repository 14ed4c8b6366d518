//! The optional LLM extractor (issue 3): one call per window of messages returns JSON
//! episodes, each quoting its source span. Every quote is checked against the transcript; an
//! episode whose quote is not there is dropped and counted as a suspected hallucination
//! (seed 003: verify extraction against the transcript). The caller falls back to the rules
//! on any error.

use serde::Deserialize;

use crate::capture::rules::{self, Extracted};
use crate::error::{Error, Result};
use crate::llm::ChatModel;
use crate::model::{ActKind, MessageInput, Role};

/// Messages per LLM call.
pub const WINDOW: usize = 16;

const SYSTEM_PROMPT: &str = "You extract episodic memories from a chat transcript for a personal \
assistant's long-term memory. An episode is one distinct happening: a correction, decision, \
commitment, retraction, observation or routine exchange. Rules: quote the speaker's own words \
exactly as they appear in one message (a contiguous span, copied character for character); \
never paraphrase, summarise or invent. Only the user corrects; the assistant walking back its \
own claim is a retraction. Hedged intentions and other people's plans are observations. \
Greetings, thanks and lookups are routine. Answer with JSON only, in this shape: \
{\"episodes\": [{\"message\": <number of the message>, \"quote\": \"<exact words>\", \
\"kind\": \"correction|decision|commitment|retraction|observation|routine\", \
\"participants\": [\"<named people other than the user and the assistant>\"]}]}";

/// What one window gave.
#[derive(Debug, Default)]
pub struct LlmWindow {
    /// Verified episodes, each with the index (in the window) of the message it quotes.
    pub episodes: Vec<(usize, Extracted)>,
    /// Episodes dropped because their quote is not in the message they name.
    pub suspected_hallucinations: usize,
}

#[derive(Deserialize)]
struct Reply {
    episodes: Vec<ReplyEpisode>,
}

#[derive(Deserialize)]
struct ReplyEpisode {
    message: usize,
    quote: String,
    kind: String,
    #[serde(default)]
    participants: Vec<String>,
}

/// Asks `chat` for the episodes of `messages` and verifies each quote. Errors: the model's
/// error, or [`Error::Llm`] when the reply is not the JSON asked for.
pub fn extract_window(chat: &dyn ChatModel, messages: &[MessageInput<'_>]) -> Result<LlmWindow> {
    let transcript: String = messages
        .iter()
        .enumerate()
        .map(|(i, m)| {
            format!(
                "[{}] {} ({}): {}\n",
                i + 1,
                m.role,
                m.timestamp.to_rfc3339(),
                m.text
            )
        })
        .collect();
    let raw = chat.complete(SYSTEM_PROMPT, &transcript)?;
    let reply: Reply = serde_json::from_str(strip_fences(&raw)).map_err(|e| {
        Error::Llm(format!(
            "the extractor's reply is not the JSON asked for: {e}"
        ))
    })?;
    let mut out = LlmWindow::default();
    for ep in reply.episodes {
        let Some(message) = ep
            .message
            .checked_sub(1)
            .and_then(|i| messages.get(i).map(|m| (i, m)))
        else {
            out.suspected_hallucinations += 1;
            continue;
        };
        let (index, message) = message;
        let Some(span) = find_quote(message.text, &ep.quote) else {
            out.suspected_hallucinations += 1;
            continue;
        };
        let Ok(mut kind) = ep.kind.trim().to_lowercase().parse::<ActKind>() else {
            out.suspected_hallucinations += 1;
            continue;
        };
        // Seed 004: who spoke changes what it is. Only the user corrects; only the
        // assistant retracts.
        kind = match (kind, message.role) {
            (ActKind::Correction, Role::Assistant) => ActKind::Retraction,
            (ActKind::Retraction, Role::User) => ActKind::Correction,
            (k, _) => k,
        };
        let text = message.text[span.clone()].to_string();
        // The time words are resolved by the rules, against the message's own time.
        let by_rules = rules::extract(&MessageInput {
            role: message.role,
            text: &text,
            timestamp: message.timestamp,
            zone: message.zone,
        });
        let dates = by_rules
            .iter()
            .flat_map(|e| e.dates.iter())
            .map(|(at, label)| (span.start + at, label.clone()))
            .collect();
        let when = by_rules.into_iter().find_map(|e| e.when);
        // Participants must be named in the message itself.
        let participants = ep
            .participants
            .into_iter()
            .filter(|p| !p.trim().is_empty() && message.text.contains(p.trim()))
            .collect();
        out.episodes.push((
            index,
            Extracted {
                kind,
                span,
                text,
                when,
                participants,
                dates,
            },
        ));
    }
    Ok(out)
}

/// Models often wrap JSON in a Markdown fence; take what is inside.
fn strip_fences(raw: &str) -> &str {
    let t = raw.trim();
    let t = t
        .strip_prefix("```json")
        .or_else(|| t.strip_prefix("```"))
        .unwrap_or(t);
    t.strip_suffix("```").unwrap_or(t).trim()
}

/// The byte range of `quote` in `text`: an exact match, or one that differs only in runs of
/// white space. `None` when the words are not there.
pub fn find_quote(text: &str, quote: &str) -> Option<std::ops::Range<usize>> {
    let quote = quote.trim();
    if quote.is_empty() {
        return None;
    }
    if let Some(start) = text.find(quote) {
        return Some(start..start + quote.len());
    }
    // Whitespace-tolerant: match word by word.
    let words: Vec<&str> = quote.split_whitespace().collect();
    let first = words.first()?;
    let mut from = 0;
    while let Some(pos) = text[from..].find(first) {
        let start = from + pos;
        let mut at = start;
        let mut ok = true;
        for w in &words {
            let rest = &text[at..];
            let skipped = rest.len() - rest.trim_start().len();
            if at != start && skipped == 0 {
                ok = false;
                break;
            }
            if !rest[skipped..].starts_with(w) {
                ok = false;
                break;
            }
            at += skipped + w.len();
        }
        if ok {
            return Some(start..at);
        }
        from = start + first.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_found_exactly_or_across_white_space() {
        let text = "No, the launch is Friday,\n not next week.";
        assert_eq!(find_quote(text, "the launch is Friday"), Some(4..24));
        assert_eq!(
            find_quote(text, "Friday, not next week."),
            Some(18..text.len()),
            "a line break is white space"
        );
        assert_eq!(
            find_quote(text, "the launch is Monday"),
            None,
            "words not in the message are not a quote"
        );
        assert_eq!(find_quote(text, "   "), None);
    }

    #[test]
    fn fences_are_stripped() {
        assert_eq!(
            strip_fences("```json\n{\"episodes\": []}\n```"),
            "{\"episodes\": []}"
        );
        assert_eq!(strip_fences("{}"), "{}");
    }
}
