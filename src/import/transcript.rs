//! Minne's generic transcript format, for any chat a script can write out:
//!
//! ```json
//! {"sessions": [
//!   {"id": "2026-03-02-planning",
//!    "messages": [
//!      {"role": "user", "text": "The launch is Friday.", "timestamp": "2026-03-02T09:15:00+01:00"},
//!      {"role": "assistant", "text": "Noted.", "timestamp": "2026-03-02T09:15:20+01:00", "id": "m2"}
//!    ]}
//! ]}
//! ```
//!
//! - `sessions[].id` (optional): a stable id; without it a session is keyed by its first
//!   message, so re-importing the same file still adds nothing twice.
//! - `role`: `user`, `assistant`, `system` or `tool`. `text`: the words.
//! - `timestamp`: ISO 8601 / RFC 3339 with a UTC offset (`Z` or `+01:00`); the offset is kept
//!   because relative times ("this morning") resolve in the writer's own time.
//! - `id` (optional): the message's id in its source, kept as its external id.
//! - `actor` (optional): the writer's name; defaults to the role.

use chrono::format::ParseErrorKind;
use chrono::{DateTime, FixedOffset};
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::{ParsedMessage, ParsedSession, json_error};
use crate::model::Role;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    sessions: Vec<Session>,
    /// Present in files `minne export --format json` wrote: session ids are then kept as the
    /// exact session keys, so re-importing an export into its own context adds nothing.
    #[serde(default)]
    minne_export: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct Session {
    #[serde(default)]
    id: Option<String>,
    messages: Vec<Message>,
}

#[derive(Deserialize)]
struct Message {
    role: String,
    text: String,
    timestamp: String,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    actor: Option<String>,
}

/// Parses a transcript; the error is a sentence for the user.
pub(crate) fn parse(text: &str) -> Result<Vec<ParsedSession>, String> {
    let file: File = serde_json::from_str(text).map_err(|e| json_error(&e, "transcript"))?;
    let exported = file.minne_export.is_some();
    let mut out = Vec::with_capacity(file.sessions.len());
    for (si, session) in file.sessions.into_iter().enumerate() {
        let mut messages = Vec::with_capacity(session.messages.len());
        // A message id names one message of its session: two messages with one id and other
        // words would keep only the first (the id is the message's dedupe key), silently.
        let mut ids: std::collections::HashMap<String, (usize, String)> =
            std::collections::HashMap::new();
        for (mi, m) in session.messages.into_iter().enumerate() {
            let at = || format!("sessions[{si}].messages[{mi}]");
            if let Some(id) = &m.id {
                match ids.get(id) {
                    Some((first, words)) if *words != m.text => {
                        return Err(format!(
                            "{}: id \"{id}\" is also the id of sessions[{si}].messages[{first}], which has other words; ids must be unique within a session (or leave them out: Minne then tells messages apart by time and words)",
                            at()
                        ));
                    }
                    Some(_) => {}
                    None => {
                        ids.insert(id.clone(), (mi, m.text.clone()));
                    }
                }
            }
            let role: Role = m.role.parse().map_err(|e| format!("{}: {e}", at()))?;
            let sent_at = parse_timestamp(&m.timestamp)
                .map_err(|why| format!("{}: timestamp \"{}\" {why}", at(), m.timestamp))?;
            messages.push(ParsedMessage {
                // `minne:<n>` is the exporter's stand-in for a message that had no id of its
                // own; it is not an id from the source.
                external_id: m.id.filter(|id| !(exported && id.starts_with("minne:"))),
                role,
                actor: m
                    .actor
                    .filter(|a| !a.trim().is_empty())
                    .unwrap_or_else(|| role.to_string()),
                text: m.text,
                sent_at,
            });
        }
        let key = match session.id.filter(|id| !id.trim().is_empty()) {
            Some(id) if exported => id,
            Some(id) => format!("transcript:{id}"),
            None => match messages.first() {
                Some(first) => {
                    let digest = Sha256::digest(
                        format!(
                            "{}\n{}\n{}",
                            first.role,
                            first.sent_at.to_rfc3339(),
                            first.text
                        )
                        .as_bytes(),
                    );
                    format!("transcript:first-message:{}", hex(&digest[..12]))
                }
                None => continue,
            },
        };
        out.push(ParsedSession { key, messages });
    }
    Ok(out)
}

/// An RFC 3339 timestamp, or what is wrong with it: a well-formed one naming a day or time
/// that does not exist ("2026-02-30T10:00:00Z", hour 25) is told apart from one that is not
/// ISO 8601 with an offset at all, so the message says what to fix.
fn parse_timestamp(s: &str) -> Result<DateTime<FixedOffset>, &'static str> {
    DateTime::parse_from_rfc3339(s.trim()).map_err(|e| match e.kind() {
        ParseErrorKind::OutOfRange | ParseErrorKind::Impossible => {
            "names no such date or time: check the day of the month, the month and the hour"
        }
        _ => "is not ISO 8601 with a UTC offset (like 2026-03-02T09:15:00+01:00)",
    })
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_impossible_date_is_told_apart_from_a_malformed_timestamp() {
        // A fresh user's "2026-02-30T10:00:00Z" was called "not ISO 8601 with a UTC
        // offset", though it has one: February has no 30th.
        assert_eq!(
            parse_timestamp("2026-02-30T10:00:00Z"),
            Err("names no such date or time: check the day of the month, the month and the hour")
        );
        assert_eq!(
            parse_timestamp("2026-02-28 10:00"),
            Err("is not ISO 8601 with a UTC offset (like 2026-03-02T09:15:00+01:00)"),
            "no offset: the format is what is wrong"
        );
        assert!(parse_timestamp("2026-02-28T10:00:00+01:00").is_ok());
    }

    #[test]
    fn one_id_for_two_different_messages_is_refused() {
        // A fresh user's file lost "B two different" to the first message's id, with no word.
        let err = match parse(
            r#"{"sessions":[{"messages":[
            {"id":"m1","role":"user","text":"A one","timestamp":"2026-03-02T09:15:00+01:00"},
            {"id":"m1","role":"user","text":"B two different","timestamp":"2026-03-02T09:16:00+01:00"}]}]}"#,
        ) {
            Err(e) => e,
            Ok(s) => panic!(
                "two messages under one id must be refused, got {} sessions",
                s.len()
            ),
        };
        assert!(
            err.contains("sessions[0].messages[1]")
                && err.contains("\"m1\"")
                && err.contains("unique"),
            "the error names the message, the id and what to do: {err}"
        );
        // The same message written twice is one message, as a re-import is.
        let s = parse(
            r#"{"sessions":[{"messages":[
            {"id":"m1","role":"user","text":"A one","timestamp":"2026-03-02T09:15:00+01:00"},
            {"id":"m1","role":"user","text":"A one","timestamp":"2026-03-02T09:15:00+01:00"}]}]}"#,
        )
        .unwrap();
        assert_eq!(
            s[0].messages.len(),
            2,
            "parsed as written; the store keeps one"
        );
    }

    #[test]
    fn keeps_the_writers_offset() {
        let s = parse(r#"{"sessions":[{"messages":[{"role":"user","text":"hi","timestamp":"2026-03-02T09:15:00+01:00"}]}]}"#)
            .unwrap();
        assert_eq!(
            s[0].messages[0].sent_at.offset().local_minus_utc(),
            3600,
            "the offset resolves 'this morning'"
        );
        assert!(
            s[0].key.starts_with("transcript:first-message:"),
            "no id: keyed by its first message"
        );
    }

    #[test]
    fn rejects_a_timestamp_without_offset_and_an_unknown_role() {
        let e = parse(r#"{"sessions":[{"messages":[{"role":"user","text":"hi","timestamp":"2026-03-02T09:15:00"}]}]}"#)
            .unwrap_err();
        assert!(
            e.contains("sessions[0].messages[0]") && e.contains("UTC offset"),
            "{e}"
        );
        let e = parse(r#"{"sessions":[{"messages":[{"role":"bot","text":"hi","timestamp":"2026-03-02T09:15:00Z"}]}]}"#)
            .unwrap_err();
        assert!(e.contains("unknown role `bot`"), "{e}");
    }
}
