//! The review queue (DESIGN principle 5: nothing silently becomes a fact or a procedure):
//! candidates, conflicts and procedure requests wait for the user, each with its source
//! quotes, to be confirmed, rejected or edited. A rejected entry keeps its evidence key, so
//! the same evidence is never proposed again.

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, Transaction, params};
use serde::Serialize;

use super::{FactId, FactView, ProcedureView, load_facts, load_procedures};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::store::{fmt_utc, parse_utc};

/// What a queue entry asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReviewKind {
    /// Should this become a fact?
    Candidate,
    /// Which of two values holds? Confirming takes the new one.
    Conflict,
    /// Should this become a procedure?
    ProcedureRequest,
}

/// One entry of the review queue, with the facts or procedure it concerns and their quotes.
#[derive(Debug, Clone, Serialize)]
pub struct ReviewItem {
    /// Its id, for `minne review confirm|reject ID`.
    pub id: i64,
    /// What it asks.
    pub kind: ReviewKind,
    /// Why it is here.
    pub reason: String,
    /// `open`, `confirmed` or `rejected`.
    pub status: String,
    /// The proposed fact (for a conflict: the new value).
    pub fact: Option<FactView>,
    /// For a conflict: the value held so far.
    pub other: Option<FactView>,
    /// For a procedure request: the procedure.
    pub procedure: Option<ProcedureView>,
    /// When it was queued (UTC).
    pub created_at: DateTime<Utc>,
}

type Entry = (
    i64,
    String,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    String,
    String,
    String,
);

impl Engine {
    /// The review queue, oldest first: open entries, or with `all` resolved ones too.
    pub fn review_queue(&self, all: bool) -> Result<Vec<ReviewItem>> {
        let conn = self.store.conn();
        let filter = if all { "1 = 1" } else { "status = 'open'" };
        let mut stmt = conn.prepare(&format!(
            "SELECT id, kind, fact_id, other_fact_id, procedure_id, reason, status, created_at
             FROM review_queue WHERE {filter} ORDER BY id"
        ))?;
        let rows: Vec<Entry> = stmt
            .query_map([], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                ))
            })?
            .collect::<rusqlite::Result<_>>()?;
        let fact = |id: Option<i64>| -> Result<Option<FactView>> {
            Ok(match id {
                Some(id) => load_facts(conn, "id = ?1", [id])?.pop(),
                None => None,
            })
        };
        let mut out = Vec::with_capacity(rows.len());
        for (id, kind, f, o, p, reason, status, created_at) in rows {
            out.push(ReviewItem {
                id,
                kind: match kind.as_str() {
                    "candidate" => ReviewKind::Candidate,
                    "conflict" => ReviewKind::Conflict,
                    _ => ReviewKind::ProcedureRequest,
                },
                reason,
                status,
                fact: fact(f)?,
                other: fact(o)?,
                procedure: match p {
                    Some(p) => load_procedures(conn, &format!("id = {p}"))?.pop(),
                    None => None,
                },
                created_at: parse_utc(&created_at)?,
            });
        }
        Ok(out)
    }

    /// Confirms an open entry: its fact becomes active and `confirmed` (for a conflict the
    /// new value wins and the old one is superseded now; a candidate said before the value
    /// held now stays history, confirmed); a procedure becomes active.
    /// Errors: [`Error::NotFound`] for an unknown or already resolved entry.
    pub fn review_confirm(&mut self, id: i64) -> Result<()> {
        self.resolve(id, None, true)
    }

    /// Rejects an open entry: its fact or procedure is marked rejected and stays out of the
    /// profile; the same evidence is not proposed again. Errors: [`Error::NotFound`].
    pub fn review_reject(&mut self, id: i64) -> Result<()> {
        self.resolve(id, None, false)
    }

    /// Edits the proposed fact's value, or a procedure request's instruction, to `value`, then
    /// confirms it. An edited procedure keeps the words it was found by, so the same request
    /// said again supports it and is not proposed again. Errors: [`Error::NotFound`];
    /// [`Error::InvalidInput`] for an empty value.
    pub fn review_edit(&mut self, id: i64, value: &str) -> Result<()> {
        if value.trim().is_empty() {
            return Err(Error::InvalidInput("the edited value is empty".into()));
        }
        self.resolve(id, Some(value.trim()), true)
    }

    /// Marks a fact confirmed by the user (the top of the ladder), making it active.
    /// Errors: [`Error::NotFound`].
    pub fn confirm_fact(&mut self, id: FactId) -> Result<()> {
        let now = fmt_utc(self.clock.now());
        let tx = self.store.conn_mut().transaction()?;
        activate(&tx, id.0, &now)?;
        tx.commit()?;
        Ok(())
    }

    fn resolve(&mut self, id: i64, edit: Option<&str>, confirm: bool) -> Result<()> {
        let now = fmt_utc(self.clock.now());
        let tx = self.store.conn_mut().transaction()?;
        let found: Option<(Option<i64>, Option<i64>, String)> = tx
            .query_row(
                "SELECT fact_id, procedure_id, kind FROM review_queue WHERE id = ?1 AND status = 'open'",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()?;
        let (fact, procedure, kind) = found.ok_or(Error::NotFound {
            kind: "open review entry",
            id,
        })?;
        match (edit, fact, procedure) {
            (Some(value), Some(fact), _) => {
                tx.execute(
                    "UPDATE facts SET value = ?2, norm = ?3, updated_at = ?4 WHERE id = ?1",
                    params![fact, value, value.to_lowercase(), now],
                )?;
            }
            // `norm` stays: it is how a repeated request finds this procedure (ladder).
            (Some(value), None, Some(procedure)) => {
                tx.execute(
                    "UPDATE procedures SET instruction = ?2, updated_at = ?3 WHERE id = ?1",
                    params![procedure, value, now],
                )?;
            }
            (Some(_), None, None) => {
                return Err(Error::InvalidInput(format!(
                    "review entry {id} has nothing to edit"
                )));
            }
            (None, _, _) => {}
        }
        match (fact, procedure, confirm) {
            // A candidate said before the value held now is confirmed as history: the user
            // says it was true, not that it still is (a fresh user confirmed an older quoted
            // city, and it replaced the newer one they had stated). A conflict is a choice
            // between the two, so its confirmation makes the candidate current.
            (Some(f), _, true) if kind == "candidate" => confirm_candidate(&tx, f, &now)?,
            (Some(f), _, true) => activate(&tx, f, &now)?,
            (Some(f), _, false) => {
                tx.execute(
                    "UPDATE facts SET status = 'rejected', valid_to = coalesce(valid_to, ?2), updated_at = ?2 WHERE id = ?1",
                    params![f, now],
                )?;
            }
            (None, Some(p), confirm) => {
                let (status, confidence) = if confirm {
                    ("active", "confirmed")
                } else {
                    ("rejected", "stated")
                };
                tx.execute(
                    "UPDATE procedures SET status = ?2, confidence = ?3, updated_at = ?4 WHERE id = ?1",
                    params![p, status, confidence, now],
                )?;
            }
            (None, None, _) => {}
        }
        tx.execute(
            "UPDATE review_queue SET status = ?2, resolved_at = ?3 WHERE id = ?1",
            params![id, if confirm { "confirmed" } else { "rejected" }, now],
        )?;
        tx.commit()?;
        Ok(())
    }
}

/// Makes fact `id` active and confirmed; for a single-valued attribute the value active
/// until now is superseded now.
/// Confirms candidate `id`: made current ([`activate`]) unless its attribute is single-valued
/// and the value active now became valid after the candidate did; then it is kept as
/// confirmed history, valid until the active value began and superseded by it.
fn confirm_candidate(tx: &Transaction<'_>, id: i64, now: &str) -> Result<()> {
    let found: Option<(String, String)> = tx
        .query_row(
            "SELECT attribute, valid_from FROM facts WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let (attribute, valid_from) = found.ok_or(Error::NotFound { kind: "fact", id })?;
    let single = super::Attribute::parse(&attribute).is_some_and(|a| a.single_valued());
    let newer: Option<(i64, String)> = if single {
        tx.query_row(
            "SELECT id, valid_from FROM facts WHERE attribute = ?1 AND status = 'active'
               AND id != ?2 AND valid_from > ?3
             ORDER BY valid_from DESC, id DESC LIMIT 1",
            params![attribute, id, valid_from],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?
    } else {
        None
    };
    match newer {
        Some((current, since)) => {
            tx.execute(
                "UPDATE facts SET status = 'superseded', confidence = 'confirmed', valid_to = ?2,
                        superseded_by = ?3, updated_at = ?4 WHERE id = ?1",
                params![id, since, current, now],
            )?;
            Ok(())
        }
        None => activate(tx, id, now),
    }
}

fn activate(tx: &Transaction<'_>, id: i64, now: &str) -> Result<()> {
    let attribute: Option<String> = tx
        .query_row("SELECT attribute FROM facts WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .optional()?;
    let attribute = attribute.ok_or(Error::NotFound { kind: "fact", id })?;
    let single = super::Attribute::parse(&attribute).is_some_and(|a| a.single_valued());
    if single {
        tx.execute(
            "UPDATE facts SET status = 'superseded', valid_to = ?3, superseded_by = ?2, updated_at = ?3
             WHERE attribute = ?1 AND status = 'active' AND id != ?2",
            params![attribute, id, now],
        )?;
    }
    tx.execute(
        "UPDATE facts SET status = 'active', confidence = 'confirmed', valid_to = NULL, updated_at = ?2 WHERE id = ?1",
        params![id, now],
    )?;
    Ok(())
}
