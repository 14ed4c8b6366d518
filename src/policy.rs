//! Per-context read policy (issue 6, "Isolation"): which contexts' memories a context may
//! read when it recalls.
//!
//! - **Default.** A context reads only itself. Nothing else is readable until the user sets a
//!   policy that names it.
//! - **Stored.** The policy lives in the reading context's own database (`context_settings`,
//!   key `read_policy`, a JSON list of names), so it survives restarts and travels with the
//!   context.
//! - **Empty means nothing.** An empty allow-list reads nothing at all, not even the context
//!   itself: it is never taken for "no filter" (the OpenMemory deny-all bug, mem0 PR 6351). A
//!   list that leaves the context itself out likewise hides its own memories from recall.
//! - **Cross-context recall** ([`recall_across`]) reads another context only when the policy
//!   names it, and logs each such read in the reader's `cross_context_reads` table (time,
//!   reader, context read, result count; never the query).

use rusqlite::{OptionalExtension, params};
use serde::Serialize;

use crate::context::ContextName;
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::recall::{RecallHit, RecallQuery};
use crate::store::fmt_utc;

/// The `context_settings` key of the policy.
const POLICY_KEY: &str = "read_policy";

/// What one context may read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReadPolicy {
    /// The reading context.
    pub context: ContextName,
    /// The contexts whose memories it may read, itself included only when listed. Empty:
    /// nothing.
    pub can_read: Vec<ContextName>,
    /// Whether the user set it (`false`: the default, the context alone).
    pub explicit: bool,
}

impl ReadPolicy {
    /// Whether `other` may be read under this policy.
    pub fn allows(&self, other: &ContextName) -> bool {
        self.can_read.contains(other)
    }
}

/// One recall hit with the context it came from.
#[derive(Debug, Clone)]
pub struct ContextHit {
    /// The context the episode is stored in.
    pub context: ContextName,
    /// The hit, as that context's recall scored it.
    pub hit: RecallHit,
}

impl Engine {
    /// This context's read policy: the stored one, else the default (itself only).
    /// Errors: [`Error::InvalidInput`] when the stored policy is not a list of context names.
    pub fn read_policy(&self) -> Result<ReadPolicy> {
        let stored: Option<String> = self
            .store
            .conn()
            .query_row(
                "SELECT value FROM context_settings WHERE key = ?1",
                [POLICY_KEY],
                |r| r.get(0),
            )
            .optional()?;
        let Some(json) = stored else {
            return Ok(ReadPolicy {
                context: self.context.clone(),
                can_read: vec![self.context.clone()],
                explicit: false,
            });
        };
        let names: Vec<String> = serde_json::from_str(&json).map_err(|e| {
            Error::InvalidInput(format!(
                "the stored read policy of `{}` is not a list of names ({e}): set it again",
                self.context
            ))
        })?;
        let can_read = names
            .iter()
            .map(String::as_str)
            .map(ContextName::new)
            .collect::<Result<Vec<_>>>()?;
        Ok(ReadPolicy {
            context: self.context.clone(),
            can_read,
            explicit: true,
        })
    }

    /// Sets which contexts this context may read (duplicates dropped, order kept); it
    /// persists. An empty list means it reads nothing, itself included.
    pub fn set_read_policy(&mut self, can_read: &[ContextName]) -> Result<ReadPolicy> {
        let mut names: Vec<&str> = Vec::with_capacity(can_read.len());
        for c in can_read {
            if !names.contains(&c.as_str()) {
                names.push(c.as_str());
            }
        }
        let json = serde_json::to_string(&names)
            .map_err(|e| Error::InvalidInput(format!("read policy: {e}")))?;
        self.store.conn().execute(
            "INSERT INTO context_settings (key, value) VALUES (?1, ?2)
             ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            params![POLICY_KEY, json],
        )?;
        self.read_policy()
    }

    /// Recall in this context under its read policy: [`Engine::recall`] when the policy
    /// lets the context read itself, else nothing (an empty list reads nothing).
    pub fn recall_own(&self, query: &RecallQuery) -> Result<Vec<RecallHit>> {
        if !self.read_policy()?.allows(&self.context) {
            return Ok(Vec::new());
        }
        self.recall(query)
    }

    /// How many cross-context reads this context has logged (as the reader).
    pub fn cross_context_reads(&self) -> Result<u64> {
        let n: i64 = self.store.conn().query_row(
            "SELECT count(*) FROM cross_context_reads WHERE reader = ?1",
            [self.context.as_str()],
            |r| r.get(0),
        )?;
        Ok(n as u64)
    }

    fn log_cross_read(&self, read: &ContextName, results: usize) -> Result<()> {
        self.store.conn().execute(
            "INSERT INTO cross_context_reads (at, reader, read_context, results) VALUES (?1, ?2, ?3, ?4)",
            params![
                fmt_utc(self.clock.now()),
                self.context.as_str(),
                read.as_str(),
                results as i64
            ],
        )?;
        Ok(())
    }
}

/// Recall for `home` across the contexts its read policy allows: `home` itself when the
/// policy lists it, and each engine of `others` the policy names (others are skipped, never
/// read). Each other context read is logged in `home`'s `cross_context_reads`. The hits of
/// all contexts are merged by score, best first, and cut to `query.k`; each context applies
/// its own threshold. With the default policy this is exactly `home`'s own recall.
/// Errors: as [`Engine::recall`].
pub fn recall_across(
    home: &Engine,
    others: &[&Engine],
    query: &RecallQuery,
) -> Result<Vec<ContextHit>> {
    let policy = home.read_policy()?;
    let mut hits: Vec<ContextHit> = Vec::new();
    if policy.allows(&home.context) {
        hits.extend(home.recall(query)?.into_iter().map(|hit| ContextHit {
            context: home.context.clone(),
            hit,
        }));
    }
    for other in others {
        if other.context == home.context || !policy.allows(&other.context) {
            continue;
        }
        let found = match other.recall_for_reader(query) {
            // A paused context recalls nothing, for any reader.
            Err(Error::ModeForbids { .. }) => continue,
            r => r?,
        };
        home.log_cross_read(&other.context, found.len())?;
        hits.extend(found.into_iter().map(|hit| ContextHit {
            context: other.context.clone(),
            hit,
        }));
    }
    hits.sort_by(|a, b| b.hit.score.total_cmp(&a.hit.score));
    hits.truncate(query.k);
    Ok(hits)
}
