//! The cases format of `shared/cases/cases.json` (its `conventions` object is the normative
//! definition): cases, their messages, actions and checks, read with serde and checked once
//! before anything runs, so a bad file fails with the case and the field named.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use chrono::{DateTime, FixedOffset};
use serde::Deserialize;

use crate::error::{Error, Result};
use crate::model::Role;

/// A cases file: `{schema_version, conventions, cases: [...]}`.
#[derive(Debug, Clone, Deserialize)]
pub struct CaseFile {
    /// The format's version, as written.
    #[serde(default)]
    pub schema_version: Option<serde_json::Value>,
    /// The normative conventions, kept as written (the runner implements them).
    #[serde(default)]
    pub conventions: serde_json::Value,
    /// The cases, in file order.
    pub cases: Vec<Case>,
    /// The folder the file was read from: files a case names (bulk JSONL) are found here.
    #[serde(skip)]
    pub base_dir: PathBuf,
}

/// One case: a conversation, the user's actions and the checks, each at an instant.
#[derive(Debug, Clone, Deserialize)]
pub struct Case {
    /// `MEM-01`.
    pub id: String,
    /// A one-line title.
    #[serde(default)]
    pub title: String,
    /// The kind of fault the case stands for.
    #[serde(default)]
    pub failure_kind: String,
    /// Who, where and how the conversation is ingested.
    pub setup: Setup,
    /// The messages, in order.
    #[serde(default)]
    pub conversation: Vec<CaseMessage>,
    /// The user's actions, each at its `at`.
    #[serde(default)]
    pub actions: Vec<Action>,
    /// The checks, each at its `at`.
    #[serde(default)]
    pub checks: Vec<Check>,
}

/// A case's setup.
#[derive(Debug, Clone, Deserialize)]
pub struct Setup {
    /// The user's id in the case (Minne has one user per data dir; kept for reports).
    #[serde(default)]
    pub user_id: Option<String>,
    /// The user's IANA time zone (`Europe/Stockholm`).
    #[serde(default)]
    pub timezone: Option<String>,
    /// The contexts the case uses.
    #[serde(default)]
    pub contexts: Vec<String>,
    /// `backfill` to ingest every message at [`Setup::ingested_at`]; live capture otherwise.
    #[serde(default)]
    pub ingest_mode: Option<String>,
    /// When a backfill runs.
    #[serde(default)]
    pub ingested_at: Option<DateTime<FixedOffset>>,
    /// Generated filler messages (`bulk_generate` action).
    #[serde(default)]
    pub bulk_generate: Option<BulkSpec>,
}

impl Setup {
    /// Whether every message is ingested at once at `ingested_at` (the conventions' backfill).
    pub fn is_backfill(&self) -> bool {
        self.ingest_mode.as_deref() == Some("backfill")
    }
}

/// Where generated messages are.
#[derive(Debug, Clone, Deserialize)]
pub struct BulkSpec {
    /// A JSONL file of messages beside the cases file.
    pub file: String,
}

/// A message: `{id, role, text, timestamp, context, conversation_id}`.
#[derive(Debug, Clone, Deserialize)]
pub struct CaseMessage {
    /// The case's message id (`m3`), kept as the stored message's external id.
    pub id: String,
    /// `user` or `assistant` (`system` and `tool` are read too).
    pub role: String,
    /// The words.
    pub text: String,
    /// When it was written, with the writer's UTC offset.
    pub timestamp: DateTime<FixedOffset>,
    /// The context it belongs to; `personal` when absent.
    #[serde(default = "default_context")]
    pub context: String,
    /// The conversation (a Minne session) it belongs to.
    pub conversation_id: String,
}

impl CaseMessage {
    /// The role as Minne's [`Role`].
    pub fn role(&self) -> Result<Role> {
        self.role.parse()
    }
}

fn default_context() -> String {
    "personal".to_string()
}

/// A user action at an instant: `{type, at, args}`. The arguments are read by the runner
/// for the action types it can carry out.
#[derive(Debug, Clone, Deserialize)]
pub struct Action {
    /// `delete_memory`, `restart`, … (the conventions' `actions`).
    #[serde(rename = "type")]
    pub kind: String,
    /// When the user acts.
    pub at: DateTime<FixedOffset>,
    /// The action's arguments as written.
    #[serde(default)]
    pub args: serde_json::Value,
}

impl Action {
    /// A string argument, or an error naming the case, the action and the argument.
    pub fn str_arg(&self, case: &str, name: &str) -> Result<&str> {
        self.args.get(name).and_then(|v| v.as_str()).ok_or_else(|| {
            Error::InvalidInput(format!(
                "case {case}: action `{}` at {} needs a string `args.{name}`",
                self.kind, self.at
            ))
        })
    }
}

/// A check at an instant. Which fields apply depends on [`Check::kind`]; the assertions are
/// the evaluator's business and are not read here.
#[derive(Debug, Clone, Deserialize)]
pub struct Check {
    /// `MEM-01.c1`: the key of its observation in observed.json.
    pub id: String,
    /// `recall`, `inspect`, `raw_store_scan`, `capture_ack`, `list_time_range` or `export`.
    #[serde(rename = "type")]
    pub kind: String,
    /// When the product is asked.
    pub at: DateTime<FixedOffset>,
    /// recall: the context asked in (`personal` when absent).
    #[serde(default)]
    pub context: Option<String>,
    /// recall: the query.
    #[serde(default)]
    pub query: Option<String>,
    /// recall: top-k (10 when absent, per the conventions).
    #[serde(default)]
    pub k: Option<usize>,
    /// recall: how many times to run the same recall, for latencies (1 when absent).
    #[serde(default)]
    pub repeat: Option<usize>,
    /// inspect: `all`, `user_profile`, `context:<name>` or `entity:<name>`.
    #[serde(default)]
    pub scope: Option<String>,
    /// inspect: whether superseded items are listed too.
    #[serde(default)]
    pub include_superseded: Option<bool>,
    /// inspect: one page of this size.
    #[serde(default)]
    pub page: Option<Page>,
    /// raw_store_scan: the stores to dump.
    #[serde(default)]
    pub stores: Vec<String>,
    /// capture_ack: the case message whose capture report is asked for.
    #[serde(default)]
    pub message_id: Option<String>,
    /// list_time_range: the start (inclusive).
    #[serde(default)]
    pub from: Option<DateTime<FixedOffset>>,
    /// list_time_range: the end (exclusive).
    #[serde(default)]
    pub to: Option<DateTime<FixedOffset>>,
}

/// A page of an inspect listing.
#[derive(Debug, Clone, Deserialize)]
pub struct Page {
    /// Items per page.
    pub page_size: usize,
    /// The cursor a previous page returned; the first page when absent.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// Reads and checks a cases file. Errors: [`Error::Io`] when it cannot be read,
/// [`Error::InvalidInput`] naming the file, the case and the field when it is not valid.
pub fn load(path: &Path) -> Result<CaseFile> {
    let bytes = std::fs::read(path).map_err(|source| Error::Io {
        action: "cannot read",
        path: path.to_path_buf(),
        source,
    })?;
    let mut file = parse(&bytes).map_err(|e| match e {
        Error::InvalidInput(reason) => {
            Error::InvalidInput(format!("cases file {}: {reason}", path.display()))
        }
        other => other,
    })?;
    file.base_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    Ok(file)
}

/// Parses and checks the text of a cases file (see [`load`]).
pub fn parse(bytes: &[u8]) -> Result<CaseFile> {
    let file: CaseFile = serde_json::from_slice(bytes).map_err(|e| {
        Error::InvalidInput(format!(
            "not a cases file: {e}; the format is in the file's `conventions` and shared/cases/README.md"
        ))
    })?;
    validate(&file)?;
    Ok(file)
}

/// The checks `serde` cannot make: unique ids, known roles, the fields each check type needs.
fn validate(file: &CaseFile) -> Result<()> {
    let bad = |case: &str, what: String| Err(Error::InvalidInput(format!("case {case}: {what}")));
    let mut case_ids = HashSet::new();
    let mut check_ids = HashSet::new();
    for case in &file.cases {
        if !case_ids.insert(case.id.as_str()) {
            return bad(&case.id, "the case id is used twice".into());
        }
        if case.setup.is_backfill() && case.setup.ingested_at.is_none() {
            return bad(
                &case.id,
                "`ingest_mode: backfill` needs `setup.ingested_at`".into(),
            );
        }
        let mut message_ids = HashSet::new();
        for m in &case.conversation {
            if !message_ids.insert(m.id.as_str()) {
                return bad(&case.id, format!("message id `{}` is used twice", m.id));
            }
            if let Err(e) = m.role() {
                return bad(&case.id, format!("message `{}`: {e}", m.id));
            }
        }
        for action in &case.actions {
            let args: &[&str] = match action.kind.as_str() {
                "delete_memory" => &["match"],
                "delete_conversation" => &["conversation_id"],
                "forget_context" => &["context"],
                "forget_time_range" => &["from", "to"],
                _ => &[],
            };
            for name in args {
                action.str_arg(&case.id, name)?;
            }
            if action.kind == "forget_time_range" {
                for name in ["from", "to"] {
                    let text = action.str_arg(&case.id, name)?;
                    if let Err(e) = DateTime::parse_from_rfc3339(text) {
                        return bad(
                            &case.id,
                            format!(
                                "action forget_time_range: args.{name} `{text}` is not ISO 8601 with an offset: {e}"
                            ),
                        );
                    }
                }
            }
        }
        for check in &case.checks {
            if !check_ids.insert(check.id.as_str()) {
                return bad(
                    &case.id,
                    format!("check id `{}` is used twice in the file", check.id),
                );
            }
            let needs = |field: &str, present: bool| {
                if present {
                    Ok(())
                } else {
                    bad(
                        &case.id,
                        format!("check `{}` ({}) needs `{field}`", check.id, check.kind),
                    )
                }
            };
            match check.kind.as_str() {
                "recall" => needs(
                    "query",
                    check.query.as_deref().is_some_and(|q| !q.trim().is_empty()),
                )?,
                "inspect" => needs("scope", check.scope.is_some())?,
                "raw_store_scan" => needs("stores", !check.stores.is_empty())?,
                "capture_ack" => {
                    needs("message_id", check.message_id.is_some())?;
                    if let Some(id) = &check.message_id
                        && !message_ids.contains(id.as_str())
                    {
                        return bad(
                            &case.id,
                            format!(
                                "check `{}` names message `{id}`, which is not in the conversation",
                                check.id
                            ),
                        );
                    }
                }
                "list_time_range" => {
                    needs("from` and `to", check.from.is_some() && check.to.is_some())?
                }
                // Unknown types are read and left unobserved (MISSING), so newer files still run.
                _ => {}
            }
            if check.page.as_ref().is_some_and(|p| p.page_size == 0) {
                return bad(
                    &case.id,
                    format!("check `{}`: `page.page_size` must be at least 1", check.id),
                );
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(cases: &str) -> String {
        format!(r#"{{"schema_version": 1, "conventions": {{}}, "cases": [{cases}]}}"#)
    }

    const MESSAGE: &str = r#"{"id": "m1", "role": "user", "text": "hi", "timestamp": "2025-01-13T19:02:00+01:00", "conversation_id": "c1"}"#;

    #[test]
    fn a_minimal_case_reads_with_its_defaults() {
        let text = file(&format!(
            r#"{{"id": "X-1", "setup": {{}}, "conversation": [{MESSAGE}],
                "checks": [{{"id": "X-1.c1", "type": "recall", "at": "2025-01-14T09:00:00+01:00", "query": "hi?"}}]}}"#
        ));
        let parsed = parse(text.as_bytes()).unwrap();
        let case = &parsed.cases[0];
        assert_eq!(
            case.conversation[0].context, "personal",
            "the conventions' default context is personal"
        );
        assert!(
            !case.setup.is_backfill(),
            "live capture unless ingest_mode says backfill"
        );
        assert_eq!(
            case.checks[0].k, None,
            "k is left to the runner's default of 10"
        );
    }

    #[test]
    fn a_bad_timestamp_names_where_it_is() {
        let text = file(&format!(
            r#"{{"id": "X-1", "setup": {{}}, "conversation": [{}]}}"#,
            MESSAGE.replace("2025-01-13T19:02:00+01:00", "yesterday")
        ));
        let err = parse(text.as_bytes())
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            err.contains("line 1 column") && err.contains("not a cases file"),
            "the error must say where: {err}"
        );
    }

    #[test]
    fn duplicate_check_ids_and_missing_fields_are_refused() {
        let check = r#"{"id": "X-1.c1", "type": "recall", "at": "2025-01-14T09:00:00+01:00", "query": "q"}"#;
        let text = file(&format!(
            r#"{{"id": "X-1", "setup": {{}}, "checks": [{check}, {check}]}}"#
        ));
        let err = parse(text.as_bytes())
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            err.contains("X-1.c1") && err.contains("twice"),
            "observed.json is keyed by check id: {err}"
        );

        let text = file(
            r#"{"id": "X-1", "setup": {}, "checks": [{"id": "X-1.c1", "type": "recall", "at": "2025-01-14T09:00:00+01:00"}]}"#,
        );
        let err = parse(text.as_bytes())
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            err.contains("needs `query`"),
            "a recall without a query cannot run: {err}"
        );

        let text = file(r#"{"id": "X-1", "setup": {"ingest_mode": "backfill"}}"#);
        let err = parse(text.as_bytes())
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            err.contains("ingested_at"),
            "a backfill needs its instant: {err}"
        );
    }
}
