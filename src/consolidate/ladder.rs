//! Applying a claim to the stored facts: the confidence ladder, duplicates and supersedes
//! (seed 003: "detect contradictions, keep provenance and validity dates, and ask for
//! confirmation when the authoritative value is unclear; 'latest wins' is unsafe for delayed,
//! quoted or malicious input").

use rusqlite::{OptionalExtension, Transaction, params};
use sha2::{Digest, Sha256};

use super::facts::Claim;
use super::{ConsolidationReport, EpisodeRow, active_fact, procedures};
use crate::error::Result;
use crate::import::transcript::hex;

/// Records what `claim` from episode `ep` says:
/// - the value no longer holds (`ends`, the user's own unquoted words): the held fact ends,
///   see [`retract`];
/// - the same value is already held (active or waiting): one more supporting episode; so is
///   the held name said in part ("Bertil" of "Bertil Andersson", see
///   [`super::facts::Attribute::says_in_part`]), unless it corrects it;
/// - the same evidence was rejected before: nothing (a rejected candidate is not proposed
///   again from the same evidence);
/// - quoted or reported words: a candidate (`inferred`) for review, or a conflict with the
///   current value;
/// - a single-valued attribute with another current value: the new value supersedes it when
///   said later; said earlier than the current value holds (a delayed import), both go to the
///   review queue as a conflict;
/// - otherwise a new active, `stated` fact.
pub(crate) fn apply(
    tx: &Transaction<'_>,
    claim: &Claim,
    ep: &EpisodeRow,
    now: &str,
    report: &mut ConsolidationReport,
) -> Result<()> {
    let attribute = claim.attribute.key();
    let norm = claim.value.trim().to_lowercase();
    if claim.ends {
        // Only the user's own, unquoted words end a value, and only one held when they spoke.
        if !claim.quoted {
            report.facts_superseded += retract(tx, &attribute, &claim.value, ep, now)?;
        }
        return Ok(());
    }
    let same: Option<(i64, String, String)> = tx
        .query_row(
            "SELECT id, status, confidence FROM facts WHERE attribute = ?1 AND norm = ?2
               AND status IN ('active', 'candidate')
             ORDER BY status = 'active' DESC, id DESC LIMIT 1",
            params![attribute, norm],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    if let Some((id, status, confidence)) = same {
        report.facts_supported += link(tx, id, ep.id)?;
        if status == "candidate" && confidence == "inferred" && !claim.quoted {
            promote(tx, claim, id, ep, now, report)?;
        }
        return Ok(());
    }
    // "Jag heter Bertil" with "Bertil Andersson" held: the same name said in part, so one
    // more source of the held value, never a new one; a correction still replaces it.
    if !claim.correction
        && claim.replaces.is_none()
        && let Some((held, held_norm, _)) = active_fact(tx, &attribute)?
        && claim.attribute.says_in_part(&held_norm, &norm)
    {
        report.facts_supported += link(tx, held, ep.id)?;
        return Ok(());
    }
    let key = evidence_key(&attribute, &norm, ep);
    let rejected: Option<i64> = tx
        .query_row(
            "SELECT id FROM review_queue WHERE evidence_key = ?1",
            [&key],
            |r| r.get(0),
        )
        .optional()?;
    if rejected.is_some() {
        return Ok(());
    }
    let was_rejected: bool = tx
        .query_row(
            "SELECT 1 FROM facts WHERE attribute = ?1 AND norm = ?2 AND status = 'rejected' LIMIT 1",
            params![attribute, norm],
            |_| Ok(()),
        )
        .optional()?
        .is_some();
    let current = if claim.attribute.single_valued() {
        active_fact(tx, &attribute)?
    } else {
        None
    };
    match current {
        Some((old, _, valid_from))
            if claim.quoted || was_rejected || ep.occurred_at < valid_from =>
        {
            let confidence = if claim.quoted { "inferred" } else { "stated" };
            let new = insert(
                tx,
                &attribute,
                &claim.value,
                &norm,
                confidence,
                "candidate",
                ep,
                now,
            )?;
            let reason = if claim.quoted {
                "quoted or reported words disagree with the current value"
            } else if was_rejected {
                "a value the user rejected before is said again"
            } else {
                "said before the current value was, but arrived later"
            };
            enqueue(
                tx,
                "conflict",
                Some(new),
                Some(old),
                None,
                reason,
                &key,
                now,
            )?;
            report.conflicts += 1;
        }
        _ if claim.quoted || was_rejected => {
            let confidence = if claim.quoted { "inferred" } else { "stated" };
            let new = insert(
                tx,
                &attribute,
                &claim.value,
                &norm,
                confidence,
                "candidate",
                ep,
                now,
            )?;
            let reason = if claim.quoted {
                "quoted or reported words, not the user's own statement"
            } else {
                "a value the user rejected before is said again"
            };
            enqueue(tx, "candidate", Some(new), None, None, reason, &key, now)?;
            report.candidates += 1;
        }
        Some((old, _, _)) => {
            let new = insert(
                tx,
                &attribute,
                &claim.value,
                &norm,
                "stated",
                "active",
                ep,
                now,
            )?;
            tx.execute(
                "UPDATE facts SET status = 'superseded', valid_to = ?2, superseded_by = ?3, updated_at = ?4
                 WHERE id = ?1",
                params![old, ep.occurred_at, new, now],
            )?;
            report.facts_added += 1;
            report.facts_superseded += 1;
        }
        None => {
            let new = insert(
                tx,
                &attribute,
                &claim.value,
                &norm,
                "stated",
                "active",
                ep,
                now,
            )?;
            report.facts_added += 1;
            // "My daughter is Maja, not Maria": a correction that names the wrong value
            // supersedes it even where values may stand side by side.
            if let Some(old) = claim.replaces.as_deref().filter(|_| !claim.quoted) {
                report.facts_superseded += tx.execute(
                    "UPDATE facts SET status = 'superseded', valid_to = ?3, superseded_by = ?4, updated_at = ?5
                     WHERE attribute = ?1 AND status = 'active' AND id != ?4 AND instr(norm, ?2) > 0",
                    params![attribute, old.to_lowercase(), ep.occurred_at, new, now],
                )?;
            }
        }
    }
    Ok(())
}

/// How the value of a retraction record starts: the rest is the value the user retracted.
pub(crate) const RETRACTED_BY_USER: &str = "retracted by the user: ";

/// The user's own words in `ep` say `value` of `attribute` no longer holds ("I'm not allergic
/// to peanuts anymore", "I left Nordhav"): every active fact of that attribute held when they
/// spoke (`valid_from` ≤ the episode's time) whose value is `value`, or starts with it and a
/// space, ends at the episode's time with status `retracted`, its `superseded_by` pointing at
/// a retraction record. The record is a
/// `superseded` fact of the same attribute, `stated`, valid from and to the episode's time,
/// valued [`RETRACTED_BY_USER`] + `value` and resting on `ep`: so the history (`facts --all`)
/// shows who ended the fact, with what words and when, recall pairs the two episodes as a
/// conflict, and no profile or context shows either (seed 003: a user correction wins, the
/// old value is kept in history with its valid-to time; issue 5). Nothing held, nothing done,
/// so a second run changes nothing. Returns how many facts ended.
fn retract(
    tx: &Transaction<'_>,
    attribute: &str,
    value: &str,
    ep: &EpisodeRow,
    now: &str,
) -> Result<usize> {
    let norm = value.trim().to_lowercase();
    let held: Vec<i64> = {
        let mut stmt = tx.prepare(
            "SELECT id FROM facts
             WHERE attribute = ?1 AND status = 'active' AND valid_from <= ?3
               AND (norm = ?2 OR norm LIKE ?2 || ' %')",
        )?;
        let rows = stmt.query_map(params![attribute, norm, ep.occurred_at], |r| r.get(0))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    if held.is_empty() {
        return Ok(0);
    }
    let record = format!("{RETRACTED_BY_USER}{}", value.trim());
    tx.execute(
        "INSERT INTO facts (attribute, value, norm, confidence, status, valid_from, valid_to, created_at, updated_at)
         VALUES (?1, ?2, ?3, 'stated', 'superseded', ?4, ?4, ?5, ?5)",
        params![attribute, record, record.to_lowercase(), ep.occurred_at, now],
    )?;
    let by = tx.last_insert_rowid();
    link(tx, by, ep.id)?;
    for id in &held {
        tx.execute(
            "UPDATE facts SET status = 'retracted', valid_to = ?2, superseded_by = ?3, updated_at = ?4
             WHERE id = ?1",
            params![id, ep.occurred_at, by, now],
        )?;
    }
    Ok(held.len())
}

/// The user now says outright what was only quoted before: the candidate becomes their
/// stated fact from now, its review entry is no longer a question, and for a single-valued
/// attribute it supersedes the current value if said after it (else it stays for review).
fn promote(
    tx: &Transaction<'_>,
    claim: &Claim,
    id: i64,
    ep: &EpisodeRow,
    now: &str,
    report: &mut ConsolidationReport,
) -> Result<()> {
    let attribute = claim.attribute.key();
    let current = if claim.attribute.single_valued() {
        active_fact(tx, &attribute)?
    } else {
        None
    };
    if let Some((_, _, valid_from)) = &current
        && ep.occurred_at < *valid_from
    {
        tx.execute(
            "UPDATE facts SET confidence = 'stated', updated_at = ?2 WHERE id = ?1",
            params![id, now],
        )?;
        return Ok(());
    }
    if let Some((old, _, _)) = current {
        tx.execute(
            "UPDATE facts SET status = 'superseded', valid_to = ?2, superseded_by = ?3, updated_at = ?4
             WHERE id = ?1",
            params![old, ep.occurred_at, id, now],
        )?;
        report.facts_superseded += 1;
    }
    tx.execute(
        "UPDATE facts SET status = 'active', confidence = 'stated', valid_from = ?2, updated_at = ?3 WHERE id = ?1",
        params![id, ep.occurred_at, now],
    )?;
    tx.execute(
        "DELETE FROM review_queue WHERE fact_id = ?1 AND status = 'open'",
        [id],
    )?;
    report.facts_added += 1;
    Ok(())
}

/// Records an explicit instruction as an active procedure, or one more source of the same.
pub(crate) fn add_procedure(
    tx: &Transaction<'_>,
    instruction: &str,
    ep: &EpisodeRow,
    now: &str,
    report: &mut ConsolidationReport,
) -> Result<()> {
    let norm = procedures::norm(instruction);
    report.procedures_added += tx.execute(
        "INSERT OR IGNORE INTO procedures (instruction, norm, status, confidence, created_at, updated_at)
         VALUES (?1, ?2, 'active', 'stated', ?3, ?3)",
        params![instruction, norm, now],
    )?;
    let id: i64 = tx.query_row("SELECT id FROM procedures WHERE norm = ?1", [&norm], |r| {
        r.get(0)
    })?;
    tx.execute(
        "INSERT OR IGNORE INTO procedure_sources (procedure_id, episode_id) VALUES (?1, ?2)",
        params![id, ep.id],
    )?;
    Ok(())
}

/// How many times the same request must recur before the user is asked whether it should
/// become a procedure.
const REQUEST_AFTER: i64 = 3;

/// Records a repeated request about how to answer ("keep it short"): a candidate procedure
/// that gains a source each time; at [`REQUEST_AFTER`] sources it goes to the review queue
/// as a procedure request (seed 003: repetition may trigger a request for confirmation, never
/// a procedure by itself). A rejected one is never proposed again.
pub(crate) fn add_pattern(
    tx: &Transaction<'_>,
    request: &str,
    ep: &EpisodeRow,
    now: &str,
    report: &mut ConsolidationReport,
) -> Result<()> {
    let norm = procedures::norm(request);
    tx.execute(
        "INSERT OR IGNORE INTO procedures (instruction, norm, status, confidence, created_at, updated_at)
         VALUES (?1, ?2, 'candidate', 'inferred', ?3, ?3)",
        params![request, norm, now],
    )?;
    let (id, status): (i64, String) = tx.query_row(
        "SELECT id, status FROM procedures WHERE norm = ?1",
        [&norm],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    if status == "rejected" {
        return Ok(());
    }
    tx.execute(
        "INSERT OR IGNORE INTO procedure_sources (procedure_id, episode_id) VALUES (?1, ?2)",
        params![id, ep.id],
    )?;
    let seen: i64 = tx.query_row(
        "SELECT count(*) FROM procedure_sources WHERE procedure_id = ?1",
        [id],
        |r| r.get(0),
    )?;
    if status == "candidate" && seen >= REQUEST_AFTER {
        let key = hex(&Sha256::digest(
            format!("procedure_request\n{norm}").as_bytes(),
        ));
        report.procedure_requests += enqueue(
            tx,
            "procedure_request",
            None,
            None,
            Some(id),
            "the same request about how to answer recurred; make it a standing procedure?",
            &key,
            now,
        )?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn insert(
    tx: &Transaction<'_>,
    attribute: &str,
    value: &str,
    norm: &str,
    confidence: &str,
    status: &str,
    ep: &EpisodeRow,
    now: &str,
) -> Result<i64> {
    tx.execute(
        "INSERT INTO facts (attribute, value, norm, confidence, status, valid_from, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
        params![attribute, value.trim(), norm, confidence, status, ep.occurred_at, now],
    )?;
    let id = tx.last_insert_rowid();
    link(tx, id, ep.id)?;
    Ok(id)
}

fn link(tx: &Transaction<'_>, fact: i64, episode: i64) -> Result<usize> {
    Ok(tx.execute(
        "INSERT OR IGNORE INTO fact_sources (fact_id, episode_id) VALUES (?1, ?2)",
        params![fact, episode],
    )?)
}

/// A queue entry, unless the same evidence is already queued (or was rejected).
#[allow(clippy::too_many_arguments)]
pub(crate) fn enqueue(
    tx: &Transaction<'_>,
    kind: &str,
    fact: Option<i64>,
    other: Option<i64>,
    procedure: Option<i64>,
    reason: &str,
    key: &str,
    now: &str,
) -> Result<usize> {
    Ok(tx.execute(
        "INSERT OR IGNORE INTO review_queue
           (kind, fact_id, other_fact_id, procedure_id, reason, evidence_key, status, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'open', ?7)",
        params![kind, fact, other, procedure, reason, key, now],
    )?)
}

/// The same claim from the same words at the same time is the same evidence, even when a
/// re-import gives the episode a new id.
fn evidence_key(attribute: &str, norm: &str, ep: &EpisodeRow) -> String {
    let digest =
        Sha256::digest(format!("{attribute}\n{norm}\n{}\n{}", ep.occurred_at, ep.text).as_bytes());
    hex(&digest)
}
