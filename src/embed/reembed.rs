//! Keeping stored vectors in the current model's space.
//!
//! Every stored vector records the model that made it; vectors of two models are never
//! compared. When the model changes (a new default, or `MINNE_MODEL`), a store embedded with
//! the old one has no vector the new query can be compared with, so recall would silently lose
//! its dense side. [`Engine::ensure_embedded`] therefore embeds, in batches, every episode
//! without a vector from the current model and then drops other models' vectors. Recall calls
//! it first, so every front end (CLI, desktop, MCP) re-embeds an old store on its first
//! recall after a model change; the CLI also calls it itself to show progress.
//!
//! The check is one count per store and model per process: after it found nothing to do, new
//! episodes get their vectors from capture (`Engine::run_capture`), so later recalls skip it.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

use rusqlite::{Transaction, TransactionBehavior, params};

use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::import::ImportProgress;
use crate::store::vector_to_blob;

/// Episodes embedded per transaction (and per model call).
const BATCH: usize = 64;

/// (database file, model id) pairs already checked in this process and found complete.
static COMPLETE: Mutex<Option<HashSet<(PathBuf, String)>>> = Mutex::new(None);

/// Episodes without a complete vector row from model `?1`: no row, or a row without the
/// message vector although the message's words differ from the episode's (rows written before
/// migration 10).
const PENDING: &str = "FROM episodes e JOIN messages m ON m.id = e.message_id WHERE NOT EXISTS
     (SELECT 1 FROM embeddings x WHERE x.episode_id = e.id AND x.model_id = ?1
        AND (x.context_vector IS NOT NULL OR m.text = e.text))";

impl Engine {
    /// Embeds every episode that has no vector from the current model (all of them after a
    /// model change), `BATCH` (64) per transaction, calling `progress` with
    /// [`ImportProgress::Embedded`] after each batch; then deletes vectors of other models so
    /// they are never mixed. Returns the vectors added. A crash between batches loses nothing:
    /// the next call resumes with what is still missing.
    ///
    /// Cheap when nothing is missing: after the first complete check of a store and model in
    /// this process it returns `Ok(0)` at once (capture embeds what it adds).
    ///
    /// # Errors
    /// [`Error::Embedding`] when the model cannot be loaded or run (what was embedded before
    /// stays); database errors.
    pub fn ensure_embedded(&self, progress: &mut dyn FnMut(ImportProgress)) -> Result<usize> {
        let model = self.embedder.model_id().to_string();
        let key = (self.store.path().to_path_buf(), model.clone());
        let known_complete = COMPLETE
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .is_some_and(|set| set.contains(&key));
        if known_complete {
            return Ok(0);
        }
        let added = self.embed_missing(&model, progress)?;
        COMPLETE
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert_with(HashSet::new)
            .insert(key);
        Ok(added)
    }

    /// The work of [`Engine::ensure_embedded`], without the once-per-process shortcut.
    pub(crate) fn embed_missing(
        &self,
        model: &str,
        progress: &mut dyn FnMut(ImportProgress),
    ) -> Result<usize> {
        let conn = self.store.conn();
        let total = conn.query_row(&format!("SELECT count(*) {PENDING}"), [model], |r| {
            r.get::<_, i64>(0)
        })? as usize;
        if total > 0 {
            tracing::info!(
                model,
                total,
                "embedding episodes that have no vector from this model"
            );
        }
        let (mut done, mut added) = (0, 0);
        // Each batch starts after the last id of the one before (keyset pagination): asking
        // for "the first 64 pending" from the start would walk past every episode embedded so
        // far again, which made re-embedding quadratic (a 100k-episode store spent over 10
        // minutes mostly decrypting the same pages again).
        let mut after = i64::MIN;
        while done < total {
            let batch: Vec<(i64, String, String)> = {
                let mut stmt = conn.prepare_cached(&format!(
                    "SELECT e.id, e.text, m.text {PENDING} AND e.id > ?3 ORDER BY e.id LIMIT ?2"
                ))?;
                let rows = stmt.query_map(params![model, BATCH as i64, after], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })?;
                rows.collect::<rusqlite::Result<_>>()?
            };
            let Some(last) = batch.last().map(|(id, _, _)| *id) else {
                break;
            };
            after = last;
            // Each distinct text once: an episode's own words, and its message's when they
            // differ (episodes of one message share it).
            let mut texts: Vec<&str> = Vec::with_capacity(batch.len() * 2);
            let mut slot: HashMap<&str, usize> = HashMap::with_capacity(batch.len() * 2);
            for (_, own, message) in &batch {
                for t in [own.as_str(), message.as_str()] {
                    slot.entry(t).or_insert_with(|| {
                        texts.push(t);
                        texts.len() - 1
                    });
                }
            }
            let vectors = self.embedder.embed_passages(&texts)?;
            if vectors.len() != texts.len() {
                return Err(Error::Embedding(format!(
                    "the model returned {} vectors for {} texts",
                    vectors.len(),
                    texts.len()
                )));
            }
            // `&self`: the engine's one connection, with no other transaction open on it here.
            let tx = Transaction::new_unchecked(conn, TransactionBehavior::Immediate)?;
            for (id, own, message) in &batch {
                let v = &vectors[slot[own.as_str()]];
                let context =
                    (message != own).then(|| vector_to_blob(&vectors[slot[message.as_str()]]));
                // The model ran outside the transaction: an episode forgotten meanwhile (by
                // another process) gets no vector, and one whose words were edited gets none
                // of its old words; the edit embeds its own (issue 30, finding 8: a forget
                // during an import failed it with "FOREIGN KEY constraint failed").
                added += tx.execute(
                    "INSERT OR REPLACE INTO embeddings (episode_id, model_id, dims, vector, context_vector)
                     SELECT ?1, ?2, ?3, ?4, ?5 FROM episodes e JOIN messages m ON m.id = e.message_id
                     WHERE e.id = ?1 AND e.text = ?6 AND m.text = ?7",
                    params![id, model, v.len() as i64, vector_to_blob(v), context, own, message],
                )?;
            }
            tx.commit()?;
            done += batch.len();
            progress(ImportProgress::Embedded {
                done: done.min(total),
                total,
            });
            tracing::debug!(model, done, total, "re-embedding");
        }
        conn.execute("DELETE FROM embeddings WHERE model_id != ?1", [model])?;
        Ok(added)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use chrono::{Duration, TimeZone, Utc};

    use super::*;
    use crate::ContextName;
    use crate::clock::{Clock, FixedClock};
    use crate::embed::{Embedder, HashEmbedder};
    use crate::import::{NewMessage, NewSession};
    use crate::model::Role;

    /// The hash embedder under another model id: a "model change" without a real model.
    #[derive(Debug)]
    struct Renamed(HashEmbedder);

    impl Embedder for Renamed {
        fn model_id(&self) -> &str {
            "hash-other"
        }
        fn dimensions(&self) -> usize {
            self.0.dimensions()
        }
        fn embed_passages(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
            self.0.embed_passages(texts)
        }
        fn embed_query(&self, text: &str) -> Result<Vec<f32>> {
            self.0.embed_query(text)
        }
    }

    #[test]
    fn a_model_change_re_embeds_every_episode_across_batches() {
        let dir = tempfile::tempdir().unwrap();
        let start = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap();
        let clock = Arc::new(FixedClock::new(start));
        let personal = ContextName::new("personal").unwrap();
        // 150 messages: more than two batches of BATCH (64), so the batches must follow on
        // from each other's last id without skipping or repeating an episode.
        let messages: Vec<NewMessage> = (0..150)
            .map(|i| NewMessage {
                external_id: Some(format!("m{i}")),
                role: Role::User,
                actor: "user".into(),
                text: format!("Note {i}: the parcel for number {i} goes to the north depot."),
                sent_at: clock.now_fixed() + Duration::minutes(i),
            })
            .collect();
        {
            let hash = Arc::new(HashEmbedder::new(64));
            let mut engine = Engine::open(dir.path(), &personal, hash, clock.clone()).unwrap();
            let session = NewSession {
                key: "s1".into(),
                messages,
            };
            engine
                .import_sessions(&[session], "test", &mut |_| {})
                .unwrap();
        }
        let renamed = Arc::new(Renamed(HashEmbedder::new(64)));
        let mut engine = Engine::open(dir.path(), &personal, renamed, clock).unwrap();
        let episodes = engine.episode_count().unwrap() as usize;
        assert!(
            episodes > 2 * BATCH,
            "{episodes} episodes span three batches"
        );
        // Every episode has only the old model's vector, so every one is embedded, once.
        let added = engine.embed_pending(&mut |_| {}).unwrap();
        assert_eq!(added, episodes, "each episode embedded exactly once");
        let (new, old): (i64, i64) = engine
            .store
            .conn()
            .query_row(
                "SELECT sum(model_id = 'hash-other'), sum(model_id != 'hash-other') FROM embeddings",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!(new as usize, episodes, "one new vector per episode");
        assert_eq!(old, 0, "the old model's vectors are gone");
        assert_eq!(
            engine.embed_pending(&mut |_| {}).unwrap(),
            0,
            "nothing left"
        );
    }

    /// The hash embedder under another model id, which forgets the context's first episode
    /// from a second connection (another process) while it makes the first batch's vectors.
    #[derive(Debug)]
    struct ForgetsMidway {
        hash: HashEmbedder,
        db: PathBuf,
        done: Mutex<bool>,
    }

    impl Embedder for ForgetsMidway {
        fn model_id(&self) -> &str {
            "hash-other"
        }
        fn dimensions(&self) -> usize {
            self.hash.dimensions()
        }
        fn embed_passages(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
            let mut done = self.done.lock().unwrap();
            if !*done {
                *done = true;
                let other =
                    crate::keys::open_connection(&self.db, &crate::keys::KeyConfig::default())?;
                other.execute_batch(
                    "PRAGMA foreign_keys = ON;
                     DELETE FROM episodes WHERE id = (SELECT min(id) FROM episodes);",
                )?;
            }
            self.hash.embed_passages(texts)
        }
        fn embed_query(&self, text: &str) -> Result<Vec<f32>> {
            self.hash.embed_query(text)
        }
    }

    #[test]
    fn finding_8_an_episode_forgotten_while_its_vector_is_made_gets_none_and_no_error() {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(FixedClock::new(
            Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap(),
        ));
        let personal = ContextName::new("personal").unwrap();
        let messages: Vec<NewMessage> = (0..3)
            .map(|i| NewMessage {
                external_id: Some(format!("m{i}")),
                role: Role::User,
                actor: "user".into(),
                text: format!("Note {i}: the parcel for number {i} goes to the north depot."),
                sent_at: clock.now_fixed() + Duration::minutes(i),
            })
            .collect();
        let db = {
            let hash = Arc::new(HashEmbedder::new(64));
            let mut engine = Engine::open(dir.path(), &personal, hash, clock.clone()).unwrap();
            let session = NewSession {
                key: "s1".into(),
                messages,
            };
            engine
                .import_sessions(&[session], "test", &mut |_| {})
                .unwrap();
            engine.store.path().to_path_buf()
        };
        let embedder = Arc::new(ForgetsMidway {
            hash: HashEmbedder::new(64),
            db,
            done: Mutex::new(false),
        });
        let mut engine = Engine::open(dir.path(), &personal, embedder, clock).unwrap();
        let before = engine.episode_count().unwrap() as usize;
        assert_eq!(before, 3, "one episode per note");
        // All three are read for the new model; one is forgotten while the model runs.
        let added = engine
            .embed_pending(&mut |_| {})
            .expect("a memory forgotten meanwhile is no error");
        assert_eq!(added, 2, "the two that remain get their vectors");
        let (episodes, vectors): (i64, i64) = engine
            .store
            .conn()
            .query_row(
                "SELECT (SELECT count(*) FROM episodes), (SELECT count(*) FROM embeddings)",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!(
            (episodes, vectors),
            (2, 2),
            "no vector of the forgotten one"
        );
    }
}
