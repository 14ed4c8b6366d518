//! LoCoMo (Maharana et al., ACL 2024, arXiv 2402.17753): a list of samples, each with
//! `conversation.speaker_a`, `speaker_b`, `session_<n>` turn lists and
//! `session_<n>_date_time` strings such as "1:56 pm on 8 May, 2023".
//!
//! Session times carry no zone, so they are read as UTC. Turns inside a session are spaced
//! [`TURN_SPACING_SECONDS`] apart from the session's time, in order. A turn's image caption
//! (`blip_caption`) is appended to its text as `[shared a photo: …]`, since the words
//! that follow often answer it. The `dia_id` is kept as the message's external id.

use chrono::{DateTime, Duration, FixedOffset, NaiveDateTime};
use serde::Deserialize;
use serde_json::Value;

use super::{ImportOptions, ParsedMessage, ParsedSession, json_error};
use crate::model::Role;

/// Seconds between consecutive turns of a LoCoMo session.
pub const TURN_SPACING_SECONDS: i64 = 60;

#[derive(Deserialize)]
struct Sample {
    sample_id: String,
    conversation: serde_json::Map<String, Value>,
}

#[derive(Deserialize)]
struct Turn {
    speaker: String,
    dia_id: String,
    text: String,
    #[serde(default)]
    blip_caption: Option<String>,
}

/// Parses a LoCoMo file; the error is a sentence for the user.
pub(crate) fn parse(text: &str, options: &ImportOptions) -> Result<Vec<ParsedSession>, String> {
    let samples: Vec<Sample> = serde_json::from_str(text).map_err(|e| json_error(&e, "LoCoMo"))?;
    let chosen: Vec<&Sample> = match &options.sample {
        Some(id) => samples.iter().filter(|s| &s.sample_id == id).collect(),
        None => samples.iter().collect(),
    };
    if chosen.is_empty() {
        let ids: Vec<&str> = samples.iter().map(|s| s.sample_id.as_str()).collect();
        return Err(match &options.sample {
            Some(id) => format!("no sample `{id}`; the file has: {}", ids.join(", ")),
            None => "the file holds no samples".to_string(),
        });
    }
    let mut sessions = Vec::new();
    for sample in chosen {
        sessions.extend(parse_sample(sample, options.as_speaker.as_deref())?);
    }
    Ok(sessions)
}

fn parse_sample(sample: &Sample, as_speaker: Option<&str>) -> Result<Vec<ParsedSession>, String> {
    let conv = &sample.conversation;
    let speaker = |key: &str| {
        conv.get(key)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("sample `{}` has no `conversation.{key}`", sample.sample_id))
    };
    let (a, b) = (speaker("speaker_a")?, speaker("speaker_b")?);
    let user = match as_speaker.unwrap_or("speaker_a") {
        "speaker_a" => a.clone(),
        "speaker_b" => b.clone(),
        name if name == a || name == b => name.to_string(),
        other => {
            return Err(format!(
                "`--as {other}` names no speaker of `{}`: use speaker_a ({a}), speaker_b ({b}) or a name",
                sample.sample_id
            ));
        }
    };

    // Sessions are the `session_<n>` keys holding a list; some samples have stray
    // `*_date_time` keys without a session.
    let mut numbers: Vec<u32> = conv
        .iter()
        .filter(|(_, v)| v.is_array())
        .filter_map(|(k, _)| k.strip_prefix("session_")?.parse().ok())
        .collect();
    numbers.sort_unstable();

    let mut out = Vec::new();
    for n in numbers {
        let key = format!("session_{n}");
        let when = conv
            .get(&format!("{key}_date_time"))
            .and_then(Value::as_str)
            .ok_or_else(|| format!("`{}` {key} has no `{key}_date_time`", sample.sample_id))?;
        let start = parse_locomo_time(when).ok_or_else(|| {
            format!(
                "`{}` {key}: cannot read the time \"{when}\"",
                sample.sample_id
            )
        })?;
        let turns: Vec<Turn> = serde_json::from_value(conv[&key].clone())
            .map_err(|e| format!("`{}` {key}: {e}", sample.sample_id))?;
        let messages = turns
            .into_iter()
            .enumerate()
            .map(|(i, t)| {
                let role = if t.speaker == user {
                    Role::User
                } else {
                    Role::Assistant
                };
                let text = match t.blip_caption.as_deref().map(str::trim) {
                    Some(c) if !c.is_empty() => format!("{} [shared a photo: {c}]", t.text),
                    _ => t.text,
                };
                ParsedMessage {
                    external_id: Some(t.dia_id),
                    role,
                    actor: t.speaker,
                    text,
                    sent_at: start + Duration::seconds(TURN_SPACING_SECONDS * i as i64),
                }
            })
            .collect();
        out.push(ParsedSession {
            key: format!("locomo:{}:{key}", sample.sample_id),
            messages,
        });
    }
    Ok(out)
}

/// Reads "1:56 pm on 8 May, 2023" as UTC.
pub(crate) fn parse_locomo_time(s: &str) -> Option<DateTime<FixedOffset>> {
    let normalised = s.trim().replace("  ", " ");
    let naive = NaiveDateTime::parse_from_str(&normalised, "%I:%M %p on %d %B, %Y")
        .or_else(|_| NaiveDateTime::parse_from_str(&normalised, "%I:%M %p on %d %b, %Y"))
        .ok()?;
    Some(naive.and_utc().fixed_offset())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_locomo_session_times() {
        let t = parse_locomo_time("1:56 pm on 8 May, 2023").unwrap();
        assert_eq!(
            t.to_rfc3339(),
            "2023-05-08T13:56:00+00:00",
            "pm adds twelve hours"
        );
        let t = parse_locomo_time("12:09 am on 13 September, 2023").unwrap();
        assert_eq!(
            t.to_rfc3339(),
            "2023-09-13T00:09:00+00:00",
            "12 am is midnight"
        );
    }

    #[test]
    fn as_speaker_picks_the_user_and_turns_are_spaced() {
        let json = r#"[{"sample_id":"s","conversation":{"speaker_a":"Ann","speaker_b":"Bo",
            "session_1_date_time":"1:00 pm on 1 May, 2023",
            "session_1":[{"speaker":"Ann","dia_id":"D1:1","text":"hi"},
                         {"speaker":"Bo","dia_id":"D1:2","text":"look","blip_caption":"a cat"}],
            "session_2_date_time":"1:00 pm on 2 May, 2023"}}]"#;
        let opts = ImportOptions {
            as_speaker: Some("speaker_b".into()),
            ..ImportOptions::new(super::super::ImportFormat::Locomo)
        };
        let sessions = parse(json, &opts).unwrap();
        assert_eq!(
            sessions.len(),
            1,
            "a stray date_time key without turns is not a session"
        );
        let m = &sessions[0].messages;
        assert_eq!(
            (m[0].role, m[1].role),
            (Role::Assistant, Role::User),
            "--as speaker_b makes Bo the user"
        );
        assert_eq!(m[1].text, "look [shared a photo: a cat]");
        assert_eq!(
            (m[1].sent_at - m[0].sent_at).num_seconds(),
            TURN_SPACING_SECONDS
        );
        assert_eq!(m[1].external_id.as_deref(), Some("D1:2"));
    }
}
