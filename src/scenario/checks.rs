//! Checks: what the product returns when asked, in the shapes of observed.json, through the
//! calls the app and the CLI make. A check Minne cannot answer yet is left out with why.

use std::time::Instant;

use crate::consolidate::{Confidence, FactStatus};
use crate::error::Result;
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
                "list_time_range" => Ok(Outcome::LeftOut(
                    "Minne has no list-by-time call yet".into(),
                )),
                "export" => Ok(Outcome::LeftOut("Minne has no export call yet".into())),
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
        let Some(engine) = self.engine(&context)? else {
            return Ok(Outcome::LeftOut(unknown_context(&context, "the recall")));
        };
        let query = RecallQuery {
            k: check.k.unwrap_or(DEFAULT_CHECK_K),
            ..RecallQuery::new(text)
        };
        let mut latencies_ms = Vec::new();
        let mut first = None;
        for _ in 0..check.repeat.unwrap_or(1).max(1) {
            let started = Instant::now();
            let hits = engine.recall(&query)?;
            latencies_ms.push(started.elapsed().as_secs_f64() * 1000.0);
            first.get_or_insert(hits);
        }
        let items = first
            .unwrap_or_default()
            .iter()
            .map(|h| Item::from_episode(&h.episode, &context))
            .collect();
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
                return Ok(Outcome::LeftOut(
                    "Minne has no per-entity listing yet".into(),
                ));
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
                items.push(Item::from_episode(&e, &name));
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
