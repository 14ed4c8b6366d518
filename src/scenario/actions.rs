//! Actions: what the user does, through the engine calls the app and the CLI make. An action
//! Minne has no call for is noted and blocks the case's later checks, never imitated.

use chrono::{DateTime, Utc};

use crate::context::ContextName;
use crate::error::{Error, Result};
use crate::export::ExportFormat;
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
                    "delete_memory `{needle}`: {deleted} {}",
                    if deleted == 1 {
                        "episode forgotten"
                    } else {
                        "episodes forgotten"
                    }
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
            "set_context_policy" => self.set_context_policy(action),
            "edit_memory" => self.edit_memory(action),
            "export" => self.export(action),
            other => {
                self.block(format!(
                    "action `{other}` at {}: not an action of the conventions",
                    action.at
                ));
                Ok(())
            }
        }
    }

    /// Sets which contexts a context may read ([`Engine::set_read_policy`]); an empty list
    /// reads nothing.
    fn set_context_policy(&mut self, action: &Action) -> Result<()> {
        let context = action.str_arg(&self.case.id, "context")?.to_string();
        let list = action.args.get("can_read").and_then(|v| v.as_array());
        let Some(list) = list else {
            return Err(Error::InvalidInput(format!(
                "case {}: action `set_context_policy` needs args.can_read, a list of context names",
                self.case.id
            )));
        };
        let mut can_read = Vec::with_capacity(list.len());
        for name in list {
            let name = name.as_str().unwrap_or_default();
            can_read.push(ContextName::new(name)?);
        }
        let Some(engine) = self.engine(&context)? else {
            self.block(unknown_context(&context, "set_context_policy"));
            return Ok(());
        };
        let policy = engine.set_read_policy(&can_read)?;
        let names: Vec<&str> = policy.can_read.iter().map(ContextName::as_str).collect();
        self.report.notes.push(format!(
            "set_context_policy `{context}` may read [{}]",
            names.join(", ")
        ));
        Ok(())
    }

    /// Edits, as the panel does, every episode whose text contains the match
    /// ([`Engine::edit_episode`]). Minne has no tags, so an edit that adds tags is a step it
    /// cannot carry out.
    fn edit_memory(&mut self, action: &Action) -> Result<()> {
        let needle = action.str_arg(&self.case.id, "match")?.to_lowercase();
        let tags = action
            .args
            .get("add_tags")
            .and_then(|t| t.as_array())
            .is_some_and(|t| !t.is_empty());
        if tags {
            self.block(format!(
                "edit_memory at {}: Minne has no tags, so it cannot add them",
                action.at
            ));
            return Ok(());
        }
        let Some(new_text) = action.args.get("new_text").and_then(|t| t.as_str()) else {
            self.report.notes.push(format!(
                "edit_memory `{needle}`: no new text, nothing to change"
            ));
            return Ok(());
        };
        let mut edited = 0;
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
                engine.edit_episode(id, new_text)?;
                edited += 1;
            }
        }
        self.report.notes.push(format!(
            "edit_memory `{needle}`: {edited} {}",
            if edited == 1 {
                "episode edited"
            } else {
                "episodes edited"
            }
        ));
        Ok(())
    }

    /// The user's export, one file per context ([`Engine::export`]), written under the data
    /// dir and tracked there as the product tracks every export.
    fn export(&mut self, action: &Action) -> Result<()> {
        let format: ExportFormat = action
            .args
            .get("format")
            .and_then(|f| f.as_str())
            .unwrap_or("json")
            .parse()?;
        let label = action.at.to_rfc3339();
        for name in self.context_names()? {
            let path = self.export_path(&name, &label, format);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|source| Error::Io {
                    action: "cannot create",
                    path: dir.to_path_buf(),
                    source,
                })?;
            }
            let Some(engine) = self.engine(&name)? else {
                continue;
            };
            let report = engine.export(format, &path)?;
            self.report.notes.push(format!(
                "export `{name}`: {} episodes to {}",
                report.episodes,
                path.display()
            ));
        }
        Ok(())
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
