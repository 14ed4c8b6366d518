//! Actions: what the user does, through the engine calls the app and the CLI make. An action
//! Minne has no call for is noted and blocks the case's later checks, never imitated.

use chrono::{DateTime, Utc};

use crate::error::{Error, Result};
use crate::forget::{ForgetReceipt, ForgetScope};
use crate::scenario::cases::Action;
use crate::scenario::runner::{CaseRun, session_key, unknown_context};

impl CaseRun<'_> {
    /// Carries out a user action through the engine; one Minne has no call for blocks the
    /// case's later checks.
    pub(super) fn action(&mut self, action: &Action) -> Result<()> {
        match action.kind.as_str() {
            "delete_memory" => {
                let needle = action.str_arg(&self.case.id, "match")?.to_lowercase();
                let mut deleted = 0;
                for name in self.context_names()? {
                    let Some(engine) = self.engine(&name)? else {
                        continue;
                    };
                    let count = engine.episode_count()? as usize;
                    let matching: Vec<_> = engine
                        .list_episodes(count, 0)?
                        .into_iter()
                        .filter(|e| e.text.to_lowercase().contains(&needle))
                        .map(|e| e.id)
                        .collect();
                    for id in matching {
                        engine.forget(&ForgetScope::Episode(id))?;
                        deleted += 1;
                    }
                }
                self.report.notes.push(format!(
                    "delete_memory `{needle}`: {deleted} episodes forgotten"
                ));
                Ok(())
            }
            "restart" => {
                // Closing every engine drops its connection and whatever it cached; the
                // embedding model holds no memories and is kept loaded.
                self.engines.clear();
                Ok(())
            }
            "bulk_generate" => {
                let name = action
                    .args
                    .get("file")
                    .and_then(|f| f.as_str())
                    .map(str::to_string)
                    .or_else(|| {
                        self.case
                            .setup
                            .bulk_generate
                            .as_ref()
                            .map(|b| b.file.clone())
                    })
                    .unwrap_or_default();
                let messages = self.bulk.get(&name).cloned().unwrap_or_default();
                self.import_messages(&messages, &name)
            }
            "delete_conversation" => {
                let conversation = action.str_arg(&self.case.id, "conversation_id")?;
                self.delete_conversation(conversation)
            }
            "forget_time_range" => {
                let from = instant_arg(action, &self.case.id, "from")?;
                let to = instant_arg(action, &self.case.id, "to")?;
                self.forget_everywhere(&ForgetScope::TimeRange { from, to })
            }
            "forget_context" => {
                let context = action.str_arg(&self.case.id, "context")?.to_string();
                let Some(engine) = self.engine(&context)? else {
                    self.block(unknown_context(&context, "forget_context"));
                    return Ok(());
                };
                let receipt = engine.forget(&ForgetScope::Context)?;
                self.note_receipt(&format!("forget_context `{context}`"), &receipt);
                Ok(())
            }
            "run_consolidation" => {
                for name in self.context_names()? {
                    let Some(engine) = self.engine(&name)? else {
                        continue;
                    };
                    let r = engine.consolidate()?;
                    if r.episodes_read > 0 {
                        self.report.notes.push(format!(
                            "consolidation in `{name}`: {} episodes read, {} facts added, {} superseded, {} procedures, {} open items",
                            r.episodes_read, r.facts_added, r.facts_superseded, r.procedures_added, r.open_items_added
                        ));
                    }
                }
                Ok(())
            }
            "edit_memory" | "set_context_policy" | "export" => {
                self.block(format!(
                    "action `{}` at {}: Minne has no engine call for it yet",
                    action.kind, action.at
                ));
                Ok(())
            }
            other => {
                self.block(format!(
                    "action `{other}` at {}: not an action of the conventions",
                    action.at
                ));
                Ok(())
            }
        }
    }

    /// Forgets a conversation in every context that holds it. Minne reaches a session by id;
    /// the id is found through the session's episodes, as the panel shows them.
    fn delete_conversation(&mut self, conversation: &str) -> Result<()> {
        let key = session_key(conversation);
        let mut found = false;
        for name in self.context_names()? {
            let Some(engine) = self.engine(&name)? else {
                continue;
            };
            let count = engine.episode_count()? as usize;
            let session = engine
                .list_episodes(count, 0)?
                .into_iter()
                .find(|e| e.session_external_id == key)
                .map(|e| e.session_id);
            if let Some(id) = session {
                let receipt = engine.forget(&ForgetScope::Session(id))?;
                self.note_receipt(
                    &format!("delete_conversation `{conversation}` in `{name}`"),
                    &receipt,
                );
                found = true;
            }
        }
        if !found {
            self.block(format!(
                "delete_conversation `{conversation}`: no episode of it is listed, and Minne has no \
                 call that finds a session by its conversation id"
            ));
        }
        Ok(())
    }

    /// Forgets `scope` in every context: the user asked to forget, not to forget in one place.
    fn forget_everywhere(&mut self, scope: &ForgetScope) -> Result<()> {
        for name in self.context_names()? {
            let Some(engine) = self.engine(&name)? else {
                continue;
            };
            let receipt = engine.forget(scope)?;
            if receipt.messages + receipt.messages_redacted + receipt.episodes > 0 {
                self.note_receipt(&format!("forget {} in `{name}`", receipt.scope), &receipt);
            }
        }
        Ok(())
    }

    fn note_receipt(&mut self, what: &str, r: &ForgetReceipt) {
        self.report.notes.push(format!(
            "{what}: {} messages, {} redacted, {} episodes, {} embeddings, {} sessions, {} tombstones",
            r.messages, r.messages_redacted, r.episodes, r.embeddings, r.sessions, r.tombstones
        ));
    }
}

/// An instant argument (ISO 8601 with offset) in UTC.
fn instant_arg(action: &Action, case: &str, name: &str) -> Result<DateTime<Utc>> {
    let text = action.str_arg(case, name)?;
    DateTime::parse_from_rfc3339(text).map(|t| t.to_utc()).map_err(|e| {
        Error::InvalidInput(format!(
            "case {case}: action `{}` args.{name} = `{text}` is not ISO 8601 with an offset: {e}",
            action.kind
        ))
    })
}
