//! Checks: what the product returns when asked, in the shapes of observed.json, through the
//! calls the app and the CLI make. A check Minne cannot answer yet is left out with why.

use std::time::Instant;

use crate::consolidate::{Confidence, FactStatus};
use crate::engine::Engine;
use crate::episodes::EpisodeView;
use crate::error::{Error, Result};
use crate::export::ExportFormat;
use crate::policy::recall_across;
use crate::recall::RecallQuery;
use crate::scenario::cases::Check;
use crate::scenario::observe::{Item, Observation};
use crate::scenario::runner::{CaseRun, DEFAULT_CHECK_K, LeftOut, unknown_context};
use crate::scenario::scan::store_dumps;

/// What a check gave: an observation, or why there is none.
enum Outcome {
    Observed(Observation),
    LeftOut(String),
}

impl CaseRun<'_> {
    /// Observes `check`, or records why it is left out (then MISSING for the evaluator).
    pub(super) fn check(&mut self, check: &Check) {
        let outcome = match &self.blocked {
            Some(reason) => Ok(Outcome::LeftOut(format!(
                "after an unsupported step: {reason}"
            ))),
            None => match check.kind.as_str() {
                "recall" => self.recall(check),
                "inspect" => self.inspect(check),
                "raw_store_scan" => self.raw_store_scan(check),
                "capture_ack" => Ok(self.capture_ack(check)),
                "list_time_range" => self.list_time_range(check),
                "export" => self.export_check(check),
                other => Ok(Outcome::LeftOut(format!(
                    "`{other}` is not a check type of the conventions"
                ))),
            },
        };
        match outcome {
            Ok(Outcome::Observed(obs)) => {
                self.observed.insert(check.id.clone(), obs);
                self.report.observed.push(check.id.clone());
            }
            Ok(Outcome::LeftOut(reason)) => {
                self.report.left_out.push(LeftOut {
                    check: check.id.clone(),
                    reason,
                });
            }
            Err(e) => {
                let reason = format!("the engine failed at check {}: {e}", check.id);
                self.report.left_out.push(LeftOut {
                    check: check.id.clone(),
                    reason: reason.clone(),
                });
                self.block(reason);
            }
        }
    }

    /// The product's recall with the check's k (10 by default) and its own threshold, run
    /// `repeat` times for the latencies.
    fn recall(&mut self, check: &Check) -> Result<Outcome> {
        let context = check
            .context
            .clone()
            .unwrap_or_else(|| "personal".to_string());
        let text = check.query.clone().unwrap_or_default();
        if self.engine(&context)?.is_none() {
            return Ok(Outcome::LeftOut(unknown_context(&context, "the recall")));
        }
        // Every context is open, as in a running app; the read policy of the recalling
        // context decides which of them recall may read (itself only, by default).
        for name in self.context_names()? {
            self.engine(&name)?;
        }
        let Some(home) = self.engines.get(&context) else {
            return Ok(Outcome::LeftOut(unknown_context(&context, "the recall")));
        };
        let others: Vec<&Engine> = self
            .engines
            .iter()
            .filter(|(name, _)| **name != context)
            .map(|(_, e)| e)
            .collect();
        let query = RecallQuery {
            k: check.k.unwrap_or(DEFAULT_CHECK_K),
            ..RecallQuery::new(text)
        };
        let mut latencies_ms = Vec::new();
        let mut first = None;
        for _ in 0..check.repeat.unwrap_or(1).max(1) {
            let started = Instant::now();
            let hits = recall_across(home, &others, &query)?;
            latencies_ms.push(started.elapsed().as_secs_f64() * 1000.0);
            first.get_or_insert(hits);
        }
        let hits = first.unwrap_or_default();
        // Recall returns both sides of a conflict, each naming the other (issue 4); the older
        // side of a pair is what the newer corrected or superseded, so it is reported as
        // superseded, never as a second active truth.
        let newer_of = |h: &crate::policy::ContextHit| {
            hits.iter().any(|o| {
                o.context == h.context
                    && h.hit.conflict_with.contains(&o.hit.episode.id)
                    && o.hit.episode.occurred_at > h.hit.episode.occurred_at
            })
        };
        let mut items = Vec::new();
        for h in &hits {
            let Some(engine) = self.engines.get(h.context.as_str()) else {
                continue;
            };
            let mut item = episode_item(engine, &h.hit.episode, h.context.as_str())?;
            if newer_of(h) {
                item.status = "superseded".to_string();
            }
            items.push(item);
        }
        Ok(Outcome::Observed(Observation::Recall {
            items,
            latencies_ms,
        }))
    }

    /// What the memory panel lists: `all` (every context) or `context:<name>`, paged by
    /// offset as the panel and `minne list --offset` page. Minne supersedes nothing yet, so
    /// `include_superseded` changes nothing.
    fn inspect(&mut self, check: &Check) -> Result<Outcome> {
        let scope = check.scope.as_deref().unwrap_or("all");
        let contexts = match scope {
            "all" => self.context_names()?,
            s if s.starts_with("context:") => vec![s.trim_start_matches("context:").to_string()],
            "user_profile" => return self.profile(check),
            s if s.starts_with("entity:") => {
                return self.entity(s.trim_start_matches("entity:"));
            }
            other => {
                return Ok(Outcome::LeftOut(format!(
                    "`{other}` is not an inspect scope of the conventions"
                )));
            }
        };
        let offset = match check.page.as_ref().and_then(|p| p.cursor.as_deref()) {
            None => 0,
            Some(c) => match c.parse::<usize>() {
                Ok(n) => n,
                Err(_) => {
                    return Ok(Outcome::LeftOut(format!(
                        "cursor `{c}` is not an offset Minne gave"
                    )));
                }
            },
        };
        let page_size = check.page.as_ref().map(|p| p.page_size);
        let mut items = Vec::new();
        let mut total = 0u64;
        let mut skip = offset;
        for name in contexts {
            let Some(engine) = self.engine(&name)? else {
                return Ok(Outcome::LeftOut(unknown_context(&name, "the listing")));
            };
            let count = engine.episode_count()?;
            total += count;
            let count = count as usize;
            if skip >= count {
                skip -= count;
                continue;
            }
            let want = page_size.map_or(count, |size| size.saturating_sub(items.len()));
            if want == 0 {
                continue;
            }
            for e in engine.list_episodes(want, skip)? {
                items.push(episode_item(engine, &e, &name)?);
            }
            skip = 0;
        }
        let next = offset + items.len();
        let next_cursor = (page_size.is_some() && (next as u64) < total).then(|| next.to_string());
        Ok(Outcome::Observed(Observation::Inspect {
            items,
            total_count: total,
            next_cursor,
        }))
    }

    /// The panel's listing of the memories that mention a person or another named entity
    /// ([`Engine::list_entity`]), in every context.
    fn entity(&mut self, name: &str) -> Result<Outcome> {
        let mut items = Vec::new();
        for context in self.context_names()? {
            let Some(engine) = self.engine(&context)? else {
                continue;
            };
            for e in engine.list_entity(name)? {
                items.push(episode_item(engine, &e, &context)?);
            }
        }
        let total_count = items.len() as u64;
        Ok(Outcome::Observed(Observation::Inspect {
            items,
            total_count,
            next_cursor: None,
        }))
    }

    /// The product's list-by-time call ([`Engine::list_time_range`]) for `[from, to)` in
    /// every context: one item per message written in the window.
    fn list_time_range(&mut self, check: &Check) -> Result<Outcome> {
        let (Some(from), Some(to)) = (check.from, check.to) else {
            return Ok(Outcome::LeftOut(
                "the check gives no `from` and `to`".into(),
            ));
        };
        let mut items = Vec::new();
        for context in self.context_names()? {
            let Some(engine) = self.engine(&context)? else {
                continue;
            };
            for m in engine.list_time_range(from.to_utc(), to.to_utc())? {
                items.push(Item::from_message(&m, &context));
            }
        }
        Ok(Outcome::Observed(Observation::ListTimeRange { items }))
    }

    /// One export (JSON, the complete format) per context, as the user's export action
    /// writes it, read back from the file: one item per exported episode, with the count the
    /// panel shows at the same moment.
    fn export_check(&mut self, check: &Check) -> Result<Outcome> {
        let mut items = Vec::new();
        let mut inspect_count = 0;
        for context in self.context_names()? {
            let path = self.export_path(&context, &check.id, ExportFormat::Json);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|source| Error::Io {
                    action: "cannot create",
                    path: dir.to_path_buf(),
                    source,
                })?;
            }
            let Some(engine) = self.engine(&context)? else {
                continue;
            };
            inspect_count += engine.episode_count()?;
            engine.export(ExportFormat::Json, &path)?;
            let bytes = std::fs::read(&path).map_err(|source| Error::Io {
                action: "cannot read the export",
                path: path.clone(),
                source,
            })?;
            let doc: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| {
                Error::InvalidInput(format!("the export {} is not JSON: {e}", path.display()))
            })?;
            items.extend(exported_items(&doc, &context));
        }
        Ok(Outcome::Observed(Observation::Export {
            items,
            inspect_count,
        }))
    }

    /// The raw bytes of every file in the data dir, WAL included, split by store (see
    /// [`store_dumps`]). Every context is open while the files are read, as in a running app.
    fn raw_store_scan(&mut self, check: &Check) -> Result<Outcome> {
        for name in self.context_names()? {
            self.engine(&name)?;
        }
        let stores = store_dumps(&self.data_dir, &check.stores)?;
        Ok(Outcome::Observed(Observation::RawStoreScan { stores }))
    }

    fn capture_ack(&mut self, check: &Check) -> Outcome {
        let id = check.message_id.clone().unwrap_or_default();
        match self.acks.get(&id) {
            Some(&n) => Outcome::Observed(Observation::CaptureAck { stored_items: n }),
            None if self.case.setup.is_backfill() => Outcome::LeftOut(
                "a backfill is one import with one report, not one per message".into(),
            ),
            None => Outcome::LeftOut(format!(
                "message {id} had not been captured at {}",
                check.at
            )),
        }
    }

    /// The profile as the panel shows it, in every context: the facts the user stated or
    /// confirmed and the active procedures; with `include_superseded`, the facts a newer
    /// value replaced too, marked `superseded`. Candidates wait in the review queue and
    /// inferred facts never show, so neither is listed.
    fn profile(&mut self, check: &Check) -> Result<Outcome> {
        let with_history = check.include_superseded.unwrap_or(false);
        let mut items = Vec::new();
        for name in self.context_names()? {
            let Some(engine) = self.engine(&name)? else {
                continue;
            };
            let profile = engine.profile()?;
            if with_history {
                for f in engine.facts(true)? {
                    let status = match f.status {
                        FactStatus::Active if f.confidence != Confidence::Inferred => "active",
                        FactStatus::Superseded => "superseded",
                        _ => continue,
                    };
                    items.push(Item::from_fact(&f, &name, status));
                }
            } else {
                items.extend(
                    profile
                        .facts
                        .iter()
                        .map(|f| Item::from_fact(f, &name, "active")),
                );
            }
            items.extend(
                profile
                    .procedures
                    .iter()
                    .map(|p| Item::from_procedure(p, &name)),
            );
        }
        let total_count = items.len() as u64;
        Ok(Outcome::Observed(Observation::Inspect {
            items,
            total_count,
            next_cursor: None,
        }))
    }
}

/// The item for an episode of `engine`'s context, with every source message (its own and its
/// restatements') and how many times it was said.
pub(super) fn episode_item(engine: &Engine, e: &EpisodeView, context: &str) -> Result<Item> {
    let mut item = Item::from_episode(e, context);
    item.source_message_ids = engine
        .episode_sources(e.id)?
        .into_iter()
        .filter_map(|m| m.external_id)
        .collect();
    item.mention_count = Some(engine.mention_count(e.id)?);
    Ok(item)
}

/// The episodes of an export document (Minne's JSON export) as items: each with its words,
/// the id of the message it came from, its time, salience and context.
fn exported_items(doc: &serde_json::Value, context: &str) -> Vec<Item> {
    let mut items = Vec::new();
    let sessions = doc["sessions"].as_array().map_or(&[][..], Vec::as_slice);
    for session in sessions {
        let messages = session["messages"]
            .as_array()
            .map_or(&[][..], Vec::as_slice);
        for m in messages {
            let episodes = m["episodes"].as_array().map_or(&[][..], Vec::as_slice);
            for e in episodes {
                let sources = match e["source_message_ids"].as_array() {
                    Some(ids) => ids
                        .iter()
                        .filter_map(|id| id.as_str().map(str::to_string))
                        .collect(),
                    None => m["id"].as_str().map(str::to_string).into_iter().collect(),
                };
                items.push(Item {
                    id: e["id"].as_i64().map(|id| format!("episode:{id}")),
                    text: e["text"].as_str().unwrap_or_default().to_string(),
                    status: "active".to_string(),
                    source_message_ids: sources,
                    context: context.to_string(),
                    occurred_at: m["timestamp"].as_str().map(str::to_string),
                    created_at: e["created_at"].as_str().map(str::to_string),
                    salience: e["salience"].as_f64(),
                    mention_count: None,
                });
            }
        }
    }
    items
}
