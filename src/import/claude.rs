//! Claude's data export (`conversations.json`): a list of conversations
//! `{uuid, name, created_at, chat_messages}`, each message
//! `{uuid, sender, created_at, text, content}`.
//!
//! The rules, and why:
//! - **Roles.** `sender` `human` is the user, `assistant` the assistant; any other sender is
//!   left out.
//! - **Words.** The `text` blocks of `content`, joined by a blank line. `thinking`,
//!   `tool_use` and `tool_result` blocks are left out: they are the model's working, not what
//!   was said, and the flat `text` field can hold the thinking too, so it is used only when
//!   `content` has no text block (older exports have no `content`). A message with no words
//!   is left out.
//! - **Branches.** When the conversation names `current_leaf_message_uuid` and messages carry
//!   `parent_message_uuid`, the branch from that leaf up to the root is kept, as the user last
//!   saw it; otherwise messages are taken in file order.
//! - **Time.** `created_at` is ISO 8601 with its offset (Claude writes UTC, `Z`). A message
//!   without one takes the time of the message before it, or for the first, the
//!   conversation's `created_at`.
//! - **Ids.** The session key is `claude:<conversation uuid>` and each message keeps its
//!   `uuid` as the external id, so re-importing a later export adds only what is new.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, FixedOffset};
use serde_json::Value;

use super::{ParsedMessage, ParsedSession};
use crate::model::Role;

/// Parses the text of a Claude export, one conversation at a time; the error is a
/// sentence for the user.
pub(crate) fn parse(text: &str) -> Result<Vec<ParsedSession>, String> {
    super::each_conversation(text, "chat_messages", "Claude", parse_conversation)
}

fn parse_conversation(ci: usize, conversation: &Value) -> Result<Option<ParsedSession>, String> {
    let all = conversation
        .get("chat_messages")
        .and_then(Value::as_array)
        .ok_or_else(|| {
            format!("conversation {ci} has no `chat_messages` list: not a Claude export")
        })?;
    let name = conversation
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("untitled");
    let conversation_time = conversation.get("created_at").and_then(iso_time);

    let mut messages: Vec<ParsedMessage> = Vec::new();
    for (mi, message) in current_branch(conversation, all).into_iter().enumerate() {
        let role = match message.get("sender").and_then(Value::as_str) {
            Some("human") => Role::User,
            Some("assistant") => Role::Assistant,
            _ => continue,
        };
        let Some(text) = message_text(message) else {
            continue;
        };
        let sent_at = message
            .get("created_at")
            .and_then(iso_time)
            .or_else(|| messages.last().map(|m| m.sent_at))
            .or(conversation_time)
            .ok_or_else(|| {
                format!(
                    "conversation {ci} (\"{name}\"): message {mi} {}, and the conversation {}; \
                     export it again",
                    time_problem(message.get("created_at")),
                    time_problem(conversation.get("created_at")),
                )
            })?;
        messages.push(ParsedMessage {
            external_id: message
                .get("uuid")
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .map(str::to_string),
            role,
            actor: role.to_string(),
            text,
            sent_at,
        });
    }
    let Some(first) = messages.first() else {
        return Ok(None);
    };
    let key = match conversation
        .get("uuid")
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
    {
        Some(uuid) => format!("claude:{uuid}"),
        None => match &first.external_id {
            Some(id) => format!("claude:first-message:{id}"),
            None => format!(
                "claude:first-message:{}",
                super::transcript::hex(&sha2_digest(&format!("{}\n{}", first.sent_at, first.text)))
            ),
        },
    };
    Ok(Some(ParsedSession { key, messages }))
}

fn sha2_digest(s: &str) -> Vec<u8> {
    use sha2::{Digest, Sha256};
    Sha256::digest(s.as_bytes())[..12].to_vec()
}

/// The messages of the current branch, root first; all of them in file order when the
/// export has no branch information. A parent chain that loops ends the walk.
fn current_branch<'a>(conversation: &Value, all: &'a [Value]) -> Vec<&'a Value> {
    let by_id: HashMap<&str, &Value> = all
        .iter()
        .filter_map(|m| Some((m.get("uuid")?.as_str()?, m)))
        .collect();
    let Some(leaf) = conversation
        .get("current_leaf_message_uuid")
        .and_then(Value::as_str)
        .and_then(|id| by_id.get(id))
    else {
        return all.iter().collect();
    };
    let mut branch = Vec::new();
    let mut seen = HashSet::new();
    let mut node = Some(*leaf);
    while let Some(m) = node {
        let id = m.get("uuid").and_then(Value::as_str).unwrap_or("");
        if !seen.insert(id) {
            break;
        }
        branch.push(m);
        node = m
            .get("parent_message_uuid")
            .and_then(Value::as_str)
            .and_then(|p| by_id.get(p).copied());
    }
    branch.reverse();
    branch
}

/// The words of a message: its `text` blocks, else its flat `text`; `None` when empty.
fn message_text(message: &Value) -> Option<String> {
    let blocks: Vec<&str> = message
        .get("content")
        .and_then(Value::as_array)
        .map(|blocks| {
            blocks
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|b| b.get("text").and_then(Value::as_str))
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .collect()
        })
        .unwrap_or_default();
    let text = if blocks.is_empty() {
        message
            .get("text")
            .and_then(Value::as_str)
            .map(str::trim)
            .unwrap_or("")
            .to_string()
    } else {
        blocks.join("\n\n")
    };
    (!text.is_empty()).then_some(text)
}

/// An ISO 8601 / RFC 3339 time with its offset; `None` for anything else.
fn iso_time(v: &Value) -> Option<DateTime<FixedOffset>> {
    DateTime::parse_from_rfc3339(v.as_str()?.trim()).ok()
}

/// What is wrong with a `created_at` that [`iso_time`] cannot read, for an error: absent
/// (or null), or present but no RFC 3339 time, quoted (the first 40 characters).
fn time_problem(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => "has no created_at".to_string(),
        Some(v) => {
            let shown: String = match v.as_str() {
                Some(s) => s.chars().take(40).collect(),
                None => v.to_string().chars().take(40).collect(),
            };
            format!(
                "has created_at {shown:?}, which is no ISO 8601 time with an offset \
                 (such as 2026-05-28T09:00:00Z)"
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefers_text_blocks_over_the_flat_text() {
        let conv = serde_json::json!([{"uuid": "c", "created_at": "2026-05-28T09:00:00Z",
        "chat_messages": [
            {"uuid": "1", "sender": "human", "text": "flat only"},
            {"uuid": "2", "sender": "assistant", "created_at": "2026-05-28T09:01:00+02:00",
             "text": "thinking... answer",
             "content": [{"type": "thinking", "thinking": "hmm"}, {"type": "text", "text": "answer"},
                         {"type": "tool_use", "name": "x", "input": {}}]},
            {"uuid": "3", "sender": "system", "text": "ignored"},
            {"uuid": "4", "sender": "human", "content": [{"type": "text", "text": "  "}]}
        ]}]);
        let s = parse(&conv.to_string()).unwrap();
        let m = &s[0].messages;
        assert_eq!(s[0].key, "claude:c");
        assert_eq!(m.len(), 2, "unknown sender and empty message are left out");
        assert_eq!(m[0].text, "flat only", "no content: the flat text");
        assert_eq!(m[1].text, "answer", "text blocks only, no thinking");
        assert_eq!(
            m[0].sent_at.to_rfc3339(),
            "2026-05-28T09:00:00+00:00",
            "no created_at: the conversation's time"
        );
        assert_eq!(
            m[1].sent_at.offset().local_minus_utc(),
            7200,
            "the offset is kept"
        );
    }

    #[test]
    fn follows_the_current_leaf_when_the_export_has_branches() {
        let conv = serde_json::json!({"uuid": "c", "created_at": "2026-05-28T09:00:00Z",
        "current_leaf_message_uuid": "3b",
        "chat_messages": [
            {"uuid": "1", "sender": "human", "text": "q", "parent_message_uuid": "root"},
            {"uuid": "2a", "sender": "assistant", "text": "abandoned", "parent_message_uuid": "1"},
            {"uuid": "3b", "sender": "assistant", "text": "kept", "parent_message_uuid": "1"}
        ]});
        let s = parse(&conv.to_string()).unwrap();
        let texts: Vec<&str> = s[0].messages.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["q", "kept"]);
    }

    #[test]
    fn an_unreadable_created_at_is_named_not_called_missing() {
        let conv = serde_json::json!([{"uuid": "c", "name": "Plans", "created_at": 17,
        "chat_messages": [
            {"uuid": "1", "sender": "human", "created_at": "yesterday", "text": "hi"}
        ]}]);
        let e = parse(&conv.to_string()).unwrap_err();
        assert!(
            e.contains(r#"message 0 has created_at "yesterday", which is no ISO 8601 time"#)
                && e.contains("the conversation has created_at \"17\""),
            "issue 30, LOW 22: the error says the time is unreadable, not absent: {e}"
        );
        let conv = serde_json::json!([{"uuid": "c", "chat_messages": [
            {"uuid": "1", "sender": "human", "text": "hi"}]}]);
        let e = parse(&conv.to_string()).unwrap_err();
        assert!(
            e.contains("message 0 has no created_at, and the conversation has no created_at"),
            "{e}"
        );
    }
}
