//! ChatGPT's data export (`conversations.json`): a list of conversations, each a tree of
//! messages in `mapping` (node id → `{id, parent, children, message}`), with `current_node`
//! naming the last message of the branch the user sees.
//!
//! The rules, and why:
//! - **The current branch only.** An edited prompt or a regenerated answer starts a new
//!   branch; the old one stays in `mapping` but is not what the user ended up saying. The
//!   transcript is the path from `current_node` up through `parent`, reversed. Without a
//!   usable `current_node`, the leaf with the latest message is taken.
//! - **What a person reads.** Only `user` and `assistant` messages whose `recipient` is `all`
//!   (or absent) and whose `content_type` is `text` or `multimodal_text` are kept: system
//!   prompts, tool output, code sent to a tool, hidden context
//!   (`metadata.is_visually_hidden_from_conversation`), custom instructions
//!   (`metadata.is_user_system_message`, or `content_type` `user_editable_context`) and
//!   reasoning (`thoughts`, `reasoning_recap`) are left out, as are messages with no words.
//! - **Parts.** A string part is text; an object part counts when it carries a `text` string
//!   (a voice transcription); images and other attachments carry no words and are skipped.
//!   Parts are joined with a line break.
//! - **Time.** `create_time` is a float of UNIX seconds (UTC), kept to the microsecond. When
//!   it is null, the message takes the time of the message before it on the branch, or for
//!   the first, the conversation's `create_time` (else `update_time`).
//! - **Ids.** The session key is `chatgpt:<conversation id>` and each message keeps its id as
//!   the external id, so re-importing a later export adds only what is new.

use std::collections::HashSet;

use chrono::{DateTime, FixedOffset};
use serde_json::{Map, Value};

use super::{ParsedMessage, ParsedSession};
use crate::model::Role;

/// Parses the text of a ChatGPT export, one conversation at a time; the error is a
/// sentence for the user.
pub(crate) fn parse(text: &str) -> Result<Vec<ParsedSession>, String> {
    super::each_conversation(text, "mapping", "ChatGPT", parse_conversation)
}

fn parse_conversation(ci: usize, conversation: &Value) -> Result<Option<ParsedSession>, String> {
    let mapping = conversation
        .get("mapping")
        .and_then(Value::as_object)
        .ok_or_else(|| {
            format!("conversation {ci} has no `mapping` object: not a ChatGPT export")
        })?;
    let id = ["conversation_id", "id"]
        .iter()
        .find_map(|k| conversation.get(*k).and_then(Value::as_str))
        .filter(|id| !id.trim().is_empty());
    let title = conversation
        .get("title")
        .and_then(Value::as_str)
        .unwrap_or("untitled");
    let conversation_time = ["create_time", "update_time"]
        .iter()
        .find_map(|k| conversation.get(*k).and_then(unix_time));

    let mut messages: Vec<ParsedMessage> = Vec::new();
    for node_id in current_branch(conversation, mapping) {
        let Some(message) = mapping
            .get(&node_id)
            .and_then(|n| n.get("message"))
            .filter(|m| m.is_object())
        else {
            continue;
        };
        let Some(role) = visible_role(message) else {
            continue;
        };
        let Some(text) = message.get("content").and_then(content_text) else {
            continue;
        };
        let stamped = message.get("create_time").filter(|v| v.is_number());
        if let Some(t) = stamped.filter(|v| unix_time(v).is_none()) {
            return Err(format!(
                "conversation {ci} (\"{title}\"): message `{node_id}` has create_time {t}, \
                 outside the times Minne stores ({}-01-01 to {}-12-31, UTC); \
                 nothing from the file was imported",
                crate::store::FIRST_STORABLE_YEAR,
                crate::store::LAST_STORABLE_YEAR - 1
            ));
        }
        let sent_at = stamped
            .and_then(unix_time)
            .or_else(|| messages.last().map(|m| m.sent_at))
            .or(conversation_time)
            .ok_or_else(|| {
                format!(
                    "conversation {ci} (\"{title}\"): message `{node_id}` has no create_time, \
                     and neither has the conversation; export it again"
                )
            })?;
        let external_id = message
            .get("id")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .unwrap_or(&node_id)
            .to_string();
        let actor = message
            .pointer("/author/name")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map_or_else(|| role.to_string(), str::to_string);
        messages.push(ParsedMessage {
            external_id: Some(external_id),
            role,
            actor,
            text,
            sent_at,
        });
    }
    let Some(first) = messages.first() else {
        return Ok(None);
    };
    let key = match id {
        Some(id) => format!("chatgpt:{id}"),
        // No conversation id (hand-trimmed files): the first message's id is stable too.
        None => format!(
            "chatgpt:first-message:{}",
            first.external_id.as_deref().unwrap_or("")
        ),
    };
    Ok(Some(ParsedSession { key, messages }))
}

/// Node ids from the root to the current node. A parent chain that loops or leaves the
/// mapping ends the walk there, so a damaged file cannot hang the import.
fn current_branch(conversation: &Value, mapping: &Map<String, Value>) -> Vec<String> {
    let start = conversation
        .get("current_node")
        .and_then(Value::as_str)
        .filter(|id| mapping.contains_key(*id))
        .map(str::to_string)
        .or_else(|| latest_leaf(mapping));
    let mut path = Vec::new();
    let mut seen = HashSet::new();
    let mut node = start;
    while let Some(id) = node {
        if !seen.insert(id.clone()) {
            break;
        }
        node = mapping
            .get(&id)
            .and_then(|n| n.get("parent"))
            .and_then(Value::as_str)
            .filter(|p| mapping.contains_key(*p))
            .map(str::to_string);
        path.push(id);
    }
    path.reverse();
    path
}

/// The leaf (a node without children) whose message is newest; ties go to the later id.
fn latest_leaf(mapping: &Map<String, Value>) -> Option<String> {
    mapping
        .iter()
        .filter(|(_, n)| {
            n.get("children")
                .and_then(Value::as_array)
                .is_none_or(|c| c.is_empty())
        })
        .map(|(id, n)| {
            let t = n
                .pointer("/message/create_time")
                .and_then(Value::as_f64)
                .unwrap_or(f64::NEG_INFINITY);
            (t, id)
        })
        .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(b.1)))
        .map(|(_, id)| id.clone())
}

/// `user` or `assistant` when the message is one the user sees in the chat, else `None`.
fn visible_role(message: &Value) -> Option<Role> {
    let role = match message.pointer("/author/role").and_then(Value::as_str)? {
        "user" => Role::User,
        "assistant" => Role::Assistant,
        _ => return None,
    };
    // Hidden context (the empty system prompt) and custom instructions sent as a user
    // message are flagged in `metadata`.
    let hidden = [
        "/metadata/is_visually_hidden_from_conversation",
        "/metadata/is_user_system_message",
    ]
    .iter()
    .any(|flag| message.pointer(flag).and_then(Value::as_bool) == Some(true));
    // An assistant message addressed to a tool (`python`, `browser`, `bio`) is a call, not
    // a reply.
    let to_everyone = message
        .get("recipient")
        .and_then(Value::as_str)
        .is_none_or(|r| r == "all");
    (!hidden && to_everyone).then_some(role)
}

/// The words of a `content` object, or `None` when it has none a person would read.
fn content_text(content: &Value) -> Option<String> {
    match content.get("content_type").and_then(Value::as_str) {
        None | Some("text" | "multimodal_text") => {}
        Some(_) => return None,
    }
    let parts = content.get("parts")?.as_array()?;
    let words: Vec<&str> = parts
        .iter()
        .filter_map(|p| match p {
            Value::String(s) => Some(s.as_str()),
            Value::Object(o) => o.get("text").and_then(Value::as_str),
            _ => None,
        })
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    let text = words.join("\n");
    (!text.is_empty()).then_some(text)
}

/// A float of UNIX seconds as a UTC time, to the microsecond; `None` for null, a non-number
/// or a time chrono cannot hold.
pub(crate) fn unix_time(v: &Value) -> Option<DateTime<FixedOffset>> {
    let t = v.as_f64().filter(|t| t.is_finite())?;
    let secs = t.floor();
    // Saturating casts: a wild value lands outside chrono's range and gives `None`.
    let micros = (((t - secs) * 1e6).round() as u32).min(999_999);
    DateTime::from_timestamp(secs as i64, micros * 1000).map(|d| d.fixed_offset())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(id: &str, parent: Option<&str>, children: &[&str], message: Value) -> (String, Value) {
        (
            id.to_string(),
            serde_json::json!({"id": id, "parent": parent, "children": children, "message": message}),
        )
    }

    fn msg(id: &str, role: &str, parts: Value, time: Value) -> Value {
        serde_json::json!({"id": id, "author": {"role": role}, "create_time": time,
            "content": {"content_type": "text", "parts": parts}, "recipient": "all"})
    }

    #[test]
    fn follows_the_current_branch_and_skips_what_is_not_said() {
        let mapping: Map<String, Value> = [
            node("r", None, &["s"], Value::Null),
            node(
                "s",
                Some("r"),
                &["a"],
                msg("s", "system", serde_json::json!([""]), Value::Null),
            ),
            node(
                "a",
                Some("s"),
                &["b1", "b2"],
                msg(
                    "a",
                    "user",
                    serde_json::json!(["hi", {"content_type": "image_asset_pointer"}]),
                    serde_json::json!(100.25),
                ),
            ),
            node(
                "b1",
                Some("a"),
                &[],
                msg(
                    "b1",
                    "assistant",
                    serde_json::json!(["old answer"]),
                    serde_json::json!(101),
                ),
            ),
            node(
                "b2",
                Some("a"),
                &[],
                msg(
                    "b2",
                    "assistant",
                    serde_json::json!(["", {"text": "new answer"}]),
                    Value::Null,
                ),
            ),
        ]
        .into_iter()
        .collect();
        let conv = serde_json::json!({"id": "c1", "create_time": 50, "current_node": "b2", "mapping": mapping});
        let sessions = parse(&Value::Array(vec![conv]).to_string()).unwrap();
        assert_eq!(sessions[0].key, "chatgpt:c1");
        let m = &sessions[0].messages;
        // The system prompt is skipped; b1 is on the abandoned branch.
        let texts: Vec<&str> = m.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["hi", "new answer"]);
        assert_eq!((m[0].role, m[1].role), (Role::User, Role::Assistant));
        assert_eq!(
            m[0].sent_at.timestamp_micros(),
            100_250_000,
            "a float keeps its fraction"
        );
        assert_eq!(
            m[1].sent_at, m[0].sent_at,
            "a null time takes the previous message's"
        );
        assert_eq!(m[1].external_id.as_deref(), Some("b2"));
    }

    #[test]
    fn a_looping_parent_chain_ends_the_walk() {
        let mapping: Map<String, Value> = [
            node(
                "a",
                Some("b"),
                &["b"],
                msg("a", "user", serde_json::json!(["x"]), serde_json::json!(1)),
            ),
            node(
                "b",
                Some("a"),
                &["a"],
                msg(
                    "b",
                    "assistant",
                    serde_json::json!(["y"]),
                    serde_json::json!(2),
                ),
            ),
        ]
        .into_iter()
        .collect();
        let conv = serde_json::json!({"id": "c", "current_node": "b", "mapping": mapping});
        let sessions = parse(&conv.to_string()).unwrap();
        assert_eq!(sessions[0].messages.len(), 2, "each node once, then stop");
    }

    #[test]
    fn wild_times_are_not_times() {
        assert!(unix_time(&serde_json::json!(1e300)).is_none());
        assert!(unix_time(&serde_json::json!("1700000000")).is_none());
        assert_eq!(
            unix_time(&serde_json::json!(-0.5)).map(|t| t.timestamp_micros()),
            Some(-500_000),
            "before 1970 still counts from the epoch"
        );
    }
}
