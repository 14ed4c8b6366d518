//! The engine: one open context with its store, embedder and clock.

use std::path::Path;
use std::sync::Arc;

use rusqlite::params;
use sha2::{Digest, Sha256};

use crate::capture::job::CaptureReason;
use crate::clock::Clock;
use crate::context::{ContextName, ensure_data_dir};
use crate::embed::Embedder;
use crate::episodes::{self, EpisodeView};
use crate::error::{Error, Result};
use crate::import::transcript::hex;
use crate::import::{self, ImportOptions, ImportProgress, ImportReport, NewSession, ParsedSession};
use crate::llm::ChatModel;
use crate::model::Role;
use crate::store::{Store, fmt_fixed, fmt_utc, vector_to_blob};

/// Episodes embedded per embedding transaction (and per model call).
const EMBED_BATCH: usize = 64;

/// One open context: its store, the embedder and the clock handed in by the front end.
#[derive(Debug)]
pub struct Engine {
    pub(crate) store: Store,
    pub(crate) context: ContextName,
    pub(crate) embedder: Arc<dyn Embedder>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) llm: Option<Arc<dyn ChatModel>>,
}

impl Engine {
    /// Opens `context` under `data_dir`, creating the data dir and the built-in contexts
    /// (`work`, `personal`) on first use. Errors: [`Error::UnknownContext`] for a context
    /// that was never created, [`Error::Io`] / [`Error::Database`] for file trouble.
    pub fn open(
        data_dir: &Path,
        context: &ContextName,
        embedder: Arc<dyn Embedder>,
        clock: Arc<dyn Clock>,
    ) -> Result<Engine> {
        ensure_data_dir(data_dir)?;
        let path = context.db_path(data_dir);
        if !path.exists() {
            return Err(Error::UnknownContext(context.to_string()));
        }
        let store = Store::open(&path)?;
        Ok(Engine {
            store,
            context: context.clone(),
            embedder,
            clock,
            llm: None,
        })
    }

    /// Lets capture use an LLM (`None`: the rules only). With one set, capture asks it per
    /// window of messages, verifies every quote, and falls back to the rules on any error.
    pub fn set_llm(&mut self, llm: Option<Arc<dyn ChatModel>>) {
        self.llm = llm;
    }

    /// The open context.
    pub fn context(&self) -> &ContextName {
        &self.context
    }

    /// The store's database file.
    pub fn db_path(&self) -> &Path {
        self.store.path()
    }

    /// The embedding model's id.
    pub fn model_id(&self) -> &str {
        self.embedder.model_id()
    }

    /// Episodes newest first, `limit` from `offset`, with retrievability now.
    pub fn list_episodes(&self, limit: usize, offset: usize) -> Result<Vec<EpisodeView>> {
        episodes::list(self.store.conn(), self.clock.now(), limit, offset)
    }

    /// How many episodes the context holds.
    pub fn episode_count(&self) -> Result<u64> {
        let n: i64 = self
            .store
            .conn()
            .query_row("SELECT count(*) FROM episodes", [], |r| r.get(0))?;
        Ok(n as u64)
    }

    /// Imports a file: parses it whole (a broken file changes nothing), stores the sessions
    /// and messages not already stored, then captures and embeds what is new. `progress`
    /// is called as each stage advances.
    pub fn import(
        &mut self,
        path: &Path,
        options: &ImportOptions,
        progress: &mut dyn FnMut(ImportProgress),
    ) -> Result<ImportReport> {
        self.require_capture("import")?;
        let sessions = import::parse_file(path, options)?;
        let messages_seen = sessions.iter().map(|s| s.messages.len()).sum();
        progress(ImportProgress::Parsed {
            sessions: sessions.len(),
            messages: messages_seen,
        });
        let source = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("import")
            .to_string();
        self.import_sessions(&sessions, &source, progress)
    }

    /// Stores sessions handed in by a caller (an evaluation harness, the MCP server) under
    /// `source`, then captures and embeds what is new, as [`Engine::import`] does for a file.
    pub fn import_sessions(
        &mut self,
        sessions: &[NewSession],
        source: &str,
        progress: &mut dyn FnMut(ImportProgress),
    ) -> Result<ImportReport> {
        self.require_capture("capture")?;
        let messages_seen = sessions.iter().map(|s| s.messages.len()).sum();
        let mut sessions = sessions.to_vec();
        let (messages_truncated, messages_cleaned) = import::sanitise(&mut sessions);
        let (sessions_added, messages_added) = self.store_sessions(&sessions, source)?;
        let job = self.run_capture(CaptureReason::Import, progress)?;
        let episodes_added = job.as_ref().map_or(0, |j| j.episodes_added as usize);
        Ok(ImportReport {
            sessions_seen: sessions.len(),
            sessions_added,
            messages_seen,
            messages_added,
            episodes_added,
            messages_truncated,
            messages_cleaned,
        })
    }

    /// Stores parsed sessions in one transaction; returns (sessions added, messages added).
    fn store_sessions(
        &mut self,
        sessions: &[ParsedSession],
        source: &str,
    ) -> Result<(usize, usize)> {
        let secret = self.tombstone_secret()?;
        // Forgotten messages stay forgotten: a re-import of the same export skips them.
        let mut forgotten = std::collections::HashSet::new();
        for (si, session) in sessions.iter().enumerate() {
            for (mi, m) in session.messages.iter().enumerate() {
                if self.is_tombstoned(&secret, &m.text, m.sent_at.to_utc())? {
                    forgotten.insert((si, mi));
                }
            }
        }
        let tx = self
            .store
            .conn_mut()
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let (mut sessions_added, mut messages_added) = (0, 0);
        for (si, session) in sessions.iter().enumerate() {
            if (0..session.messages.len()).all(|mi| forgotten.contains(&(si, mi))) {
                continue;
            }
            let (Some(first), Some(last)) = (session.messages.first(), session.messages.last())
            else {
                continue;
            };
            let started = fmt_utc(first.sent_at.to_utc());
            let ended = fmt_utc(last.sent_at.to_utc());
            sessions_added += tx.execute(
                "INSERT OR IGNORE INTO sessions (external_id, source, started_at, ended_at) VALUES (?1, ?2, ?3, ?4)",
                params![session.key, source, started, ended],
            )?;
            let session_id: i64 = tx.query_row(
                "SELECT id FROM sessions WHERE external_id = ?1",
                [&session.key],
                |r| r.get(0),
            )?;
            tx.execute(
                "UPDATE sessions SET started_at = min(started_at, ?2), ended_at = max(ended_at, ?3) WHERE id = ?1",
                params![session_id, started, ended],
            )?;
            let mut insert = tx.prepare(
                "INSERT OR IGNORE INTO messages
                   (session_id, external_id, dedupe_key, role, actor, text, sent_at, utc_offset_s, seq)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            )?;
            for (seq, m) in session.messages.iter().enumerate() {
                if forgotten.contains(&(si, seq)) {
                    continue;
                }
                // A message with an id in its source is that message, whoever it is attributed
                // to (`--as speaker_b` on a file imported `--as speaker_a` adds nothing).
                let key = match &m.external_id {
                    Some(id) => dedupe_key(&session.key, Role::Tool, "external-id", id),
                    None => dedupe_key(&session.key, m.role, &fmt_fixed(m.sent_at), &m.text),
                };
                messages_added += insert.execute(params![
                    session_id,
                    m.external_id,
                    key,
                    m.role.as_str(),
                    m.actor,
                    m.text,
                    fmt_utc(m.sent_at.to_utc()),
                    m.sent_at.offset().local_minus_utc(),
                    seq as i64,
                ])?;
            }
        }
        tx.commit()?;
        Ok((sessions_added, messages_added))
    }

    /// Embeds every episode that has no vector from the current model, in batches, then
    /// drops vectors of other models so they are never mixed. Returns the vectors added.
    pub fn embed_pending(&mut self, progress: &mut dyn FnMut(ImportProgress)) -> Result<usize> {
        let model = self.embedder.model_id().to_string();
        let pending_sql = "FROM episodes e WHERE NOT EXISTS
             (SELECT 1 FROM embeddings x WHERE x.episode_id = e.id AND x.model_id = ?1)";
        let total = self.store.conn().query_row(
            &format!("SELECT count(*) {pending_sql}"),
            [&model],
            |r| r.get::<_, i64>(0),
        )? as usize;
        let mut done = 0;
        while done < total {
            let batch: Vec<(i64, String)> = {
                let mut stmt = self.store.conn().prepare(&format!(
                    "SELECT e.id, e.text {pending_sql} ORDER BY e.id LIMIT ?2"
                ))?;
                let rows = stmt.query_map(params![model, EMBED_BATCH as i64], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })?;
                rows.collect::<rusqlite::Result<_>>()?
            };
            if batch.is_empty() {
                break;
            }
            let texts: Vec<&str> = batch.iter().map(|(_, t)| t.as_str()).collect();
            let vectors = self.embedder.embed_passages(&texts)?;
            if vectors.len() != batch.len() {
                return Err(Error::Embedding(format!(
                    "the model returned {} vectors for {} texts",
                    vectors.len(),
                    batch.len()
                )));
            }
            let tx = self
                .store
                .conn_mut()
                .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            for ((id, _), v) in batch.iter().zip(&vectors) {
                tx.execute(
                    "INSERT OR REPLACE INTO embeddings (episode_id, model_id, dims, vector) VALUES (?1, ?2, ?3, ?4)",
                    params![id, model, v.len() as i64, vector_to_blob(v)],
                )?;
            }
            tx.commit()?;
            done += batch.len();
            progress(ImportProgress::Embedded {
                done: done.min(total),
                total,
            });
        }
        self.store
            .conn()
            .execute("DELETE FROM embeddings WHERE model_id != ?1", [&model])?;
        Ok(done)
    }
}

/// The key that makes re-imports idempotent: the same session, role, time and words are the
/// same message.
fn dedupe_key(session_key: &str, role: Role, sent_at: &str, text: &str) -> String {
    let digest = Sha256::digest(format!("{session_key}\n{role}\n{sent_at}\n{text}").as_bytes());
    hex(&digest)
}
