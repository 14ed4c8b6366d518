//! What the runner writes for a check: the shapes of observed.json (shared/cases/README.md),
//! filled from the same engine calls the app and the CLI make. Nothing here judges.

use std::collections::BTreeMap;

use chrono::SecondsFormat;
use serde::{Deserialize, Serialize};

use crate::consolidate::{FactView, ProcedureView};
use crate::episodes::EpisodeView;

/// A memory item as a recall or a listing returned it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// Which record it is: `episode:<id>`, `fact:<id>`, `procedure:<id>` or `message:<id>`,
    /// the row ids `minne list`, `minne profile` and `recall --json` show.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The episode's words.
    pub text: String,
    /// `active` or `superseded`. Minne does not supersede episodes yet, so every episode it
    /// returns is one it holds as current: `active`.
    pub status: String,
    /// The case's ids of the messages it came from (stored as the messages' external ids).
    pub source_message_ids: Vec<String>,
    /// The context it is stored in.
    pub context: String,
    /// When it happened (ISO 8601 with offset): the time the episode refers to when it names
    /// one ("i förrgår" resolved against the message's time), else when it was said (UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub occurred_at: Option<String>,
    /// When Minne learned it (RFC 3339, UTC): when capture stored the episode, consolidation
    /// the fact or procedure, capture encoded the message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// Salience in `[0, 1]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salience: Option<f64>,
    /// How many times it was said: an episode's sources (its own message and each
    /// restatement), a fact's supporting episodes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mention_count: Option<u64>,
}

impl Item {
    /// The item for an episode stored in `context`.
    pub fn from_episode(e: &EpisodeView, context: &str) -> Item {
        let occurred_at = match &e.event_time {
            Some(t) => t.start.to_rfc3339_opts(SecondsFormat::Secs, false),
            None => e.occurred_at.to_rfc3339_opts(SecondsFormat::Secs, false),
        };
        Item {
            id: Some(format!("episode:{}", e.id)),
            text: e.text.clone(),
            status: "active".to_string(),
            source_message_ids: e.message_external_id.iter().cloned().collect(),
            context: context.to_string(),
            occurred_at: Some(occurred_at),
            created_at: Some(utc(e.created_at)),
            salience: Some(e.salience.get()),
            mention_count: None,
        }
    }

    /// The item for a message of a time window stored in `context`: its words, its id, when
    /// it was written.
    pub fn from_message(m: &crate::listing::TimeRangeItem, context: &str) -> Item {
        Item {
            id: Some(format!("message:{}", m.message_id.0)),
            text: m.text.clone(),
            status: "active".to_string(),
            source_message_ids: m.external_id.iter().cloned().collect(),
            context: context.to_string(),
            occurred_at: Some(m.sent_at.to_rfc3339_opts(SecondsFormat::Secs, true)),
            created_at: m.captured_at.map(utc),
            salience: None,
            mention_count: None,
        }
    }

    /// The item for a fact of the profile stored in `context`, with the status the panel
    /// shows (`active`, or `superseded` when a newer value replaced it).
    pub fn from_fact(f: &FactView, context: &str, status: &str) -> Item {
        Item {
            id: Some(format!("fact:{}", f.id.0)),
            text: f.text.clone(),
            status: status.to_string(),
            source_message_ids: f
                .sources
                .iter()
                .filter_map(|s| s.message_external_id.clone())
                .collect(),
            context: context.to_string(),
            occurred_at: None,
            created_at: Some(utc(f.created_at)),
            salience: None,
            mention_count: Some(f.support as u64),
        }
    }

    /// The item for an active procedure stored in `context`.
    pub fn from_procedure(p: &ProcedureView, context: &str) -> Item {
        Item {
            id: Some(format!("procedure:{}", p.id)),
            text: p.instruction.clone(),
            status: "active".to_string(),
            source_message_ids: p
                .sources
                .iter()
                .filter_map(|s| s.message_external_id.clone())
                .collect(),
            context: context.to_string(),
            occurred_at: None,
            created_at: Some(utc(p.created_at)),
            salience: None,
            mention_count: None,
        }
    }
}

/// `t` as RFC 3339 in UTC, to the second (`2025-03-03T07:12:00Z`).
fn utc(t: chrono::DateTime<chrono::Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// One check's observation, in the shape its type has in observed.json.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Observation {
    /// recall: the results in rank order and the wall time of each run.
    Recall {
        /// The results, best first.
        items: Vec<Item>,
        /// Milliseconds per run (query embedding included).
        latencies_ms: Vec<f64>,
    },
    /// inspect: what the memory panel lists for the scope.
    Inspect {
        /// The items (one page when the check asks for a page).
        items: Vec<Item>,
        /// How many items the scope holds in all.
        total_count: u64,
        /// The offset of the next page, when there is one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        next_cursor: Option<String>,
    },
    /// raw_store_scan: the printable text of each listed store.
    RawStoreScan {
        /// Store name → its text.
        stores: BTreeMap<String, String>,
    },
    /// capture_ack: what capture reported for the message.
    CaptureAck {
        /// Episodes the capture of that message stored.
        stored_items: u64,
    },
    /// export: the memories the exported document holds, and how many the panel lists.
    Export {
        /// One item per exported episode.
        items: Vec<Item>,
        /// What inspect(scope=all) counts at the same moment.
        inspect_count: u64,
    },
    /// list_time_range: what the product holds from the window, one item per message.
    ListTimeRange {
        /// The messages written in `[from, to)`, oldest first.
        items: Vec<Item>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn observations_have_the_readme_shapes() {
        let recall = Observation::Recall {
            items: vec![],
            latencies_ms: vec![1.5],
        };
        assert_eq!(
            serde_json::to_value(&recall).ok(),
            Some(serde_json::json!({"items": [], "latencies_ms": [1.5]}))
        );
        let inspect = Observation::Inspect {
            items: vec![],
            total_count: 0,
            next_cursor: None,
        };
        assert_eq!(
            serde_json::to_value(&inspect).ok(),
            Some(serde_json::json!({"items": [], "total_count": 0})),
            "no cursor when there is no next page"
        );
        let ack = Observation::CaptureAck { stored_items: 2 };
        assert_eq!(
            serde_json::to_value(&ack).ok(),
            Some(serde_json::json!({"stored_items": 2}))
        );
    }
}
