//! Conflicts among recalled memories (issue 4, "Conflicts"): when two recalled memories
//! disagree, both are returned, each marked with the other's id and carrying its date, the
//! newer ranked first. The choice between them is never made silently (DESIGN principle 5).
//!
//! Two memories disagree when
//! - consolidation recorded that a fact resting on one was superseded by a fact of the same
//!   attribute resting on the other (two values of one attribute, or a change of heart:
//!   `preference:koriander`), or ended by the user's own retraction ("I'm not allergic to
//!   peanuts anymore": the retraction record that supersedes the fact rests on the retracting
//!   episode, see `consolidate::ladder`), or
//! - one is a `correction` or `retraction` (seed 004's act kinds) by the same speaker, said
//!   later than the other, about the same thing: they share a content word, and both are
//!   relevant to the question (each scores at least the model's calibrated threshold).

use std::collections::{HashMap, HashSet};

use rusqlite::Connection;

use super::{RecallHit, lexical};
use crate::error::Result;
use crate::model::{ActKind, EpisodeId};

/// Pairs `(older, newer)` of episodes whose facts superseded one another, directly or along a
/// chain of the same attribute (Lund, then Malmö, then Göteborg, then Aarhus: Aarhus disagrees
/// with all three, so it is marked against Malmö when Göteborg was not recalled), where at
/// least one side is in `ids`. Two episodes that say the same value, or one name in part and
/// in full, are no pair. Errors: database errors.
pub(crate) fn fact_pairs(conn: &Connection, ids: &[EpisodeId]) -> Result<Vec<(i64, i64)>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut stmt = conn.prepare_cached(
        "SELECT DISTINCT o.attribute, so.episode_id, sn.episode_id, o.norm, n.norm
         FROM facts o JOIN facts n
              ON n.attribute = o.attribute AND n.id <> o.id AND n.norm <> o.norm
         JOIN fact_sources so ON so.fact_id = o.id
         JOIN fact_sources sn ON sn.fact_id = n.id
         WHERE o.status IN ('superseded', 'retracted') AND n.status <> 'rejected'
           AND (o.superseded_by = n.id
                OR (o.superseded_by IS NULL AND o.valid_to IS NOT NULL
                    AND n.valid_from = o.valid_to))
           AND so.episode_id <> sn.episode_id",
    )?;
    type Row = (String, i64, i64, String, String);
    let rows = stmt.query_map([], |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
    })?;
    // Per attribute: its direct supersessions, and the value each episode gave it.
    let mut direct: HashMap<String, Chain> = HashMap::new();
    for row in rows {
        let (attribute, old, new, old_value, new_value): Row = row?;
        let (edges, values) = direct.entry(attribute).or_default();
        edges.push((old, new));
        values.entry(old).or_insert(old_value);
        values.entry(new).or_insert(new_value);
    }
    let wanted: HashSet<i64> = ids.iter().map(|i| i.0).collect();
    let text = |id: i64| -> Result<String> {
        Ok(conn
            .prepare_cached("SELECT text FROM episodes WHERE id = ?1")?
            .query_row([id], |r| r.get(0))?)
    };
    let mut out = Vec::new();
    for (attribute, (edges, values)) in &direct {
        for (old, new) in chain_closure(edges) {
            if !(wanted.contains(&old) || wanted.contains(&new)) || out.contains(&(old, new)) {
                continue;
            }
            let (old_value, new_value) = (&values[&old], &values[&new]);
            // Two episodes that say the same value disagree about nothing: "Jeg hedder Erik"
            // rests on "Erik Lindqvist" (said in part), which superseded the "Erik" of "My
            // name is Erik", and the two were marked as a conflict (a fresh user's report).
            // Nor does a name said in full after it was said in part, nor a city left and
            // moved back to.
            let same = old_value == new_value
                || crate::consolidate::facts::Attribute::parse(attribute)
                    .is_some_and(|a| a.says_in_part(new_value, old_value))
                || crate::consolidate::rules_say(&text(new)?, attribute, old_value)
                || crate::consolidate::rules_say(&text(old)?, attribute, new_value);
            if !same {
                out.push((old, new));
            }
        }
    }
    Ok(out)
}

/// One attribute's direct supersessions `(older, newer)` and the value each episode gave it.
type Chain = (Vec<(i64, i64)>, HashMap<i64, String>);

/// The pairs `(a, c)` reachable along `edges` (`(older, newer)`, one attribute's direct
/// supersessions), each once, no episode paired with itself (a value said again later).
fn chain_closure(edges: &[(i64, i64)]) -> Vec<(i64, i64)> {
    let mut next: HashMap<i64, Vec<i64>> = HashMap::new();
    for (a, b) in edges {
        next.entry(*a).or_default().push(*b);
    }
    let mut starts: Vec<i64> = next.keys().copied().collect();
    starts.sort_unstable();
    let mut out = Vec::new();
    for start in starts {
        let mut seen: HashSet<i64> = HashSet::new();
        let mut stack: Vec<i64> = next.get(&start).cloned().unwrap_or_default();
        while let Some(n) = stack.pop() {
            if !seen.insert(n) {
                continue;
            }
            if n != start {
                out.push((start, n));
            }
            if let Some(more) = next.get(&n) {
                stack.extend(more);
            }
        }
    }
    out
}

/// Whether `later` corrects or retracts `earlier`: said after it, by the same speaker, as a
/// correction or retraction, both scoring at least `floor` (the model's calibrated threshold:
/// a shared word alone pairs too much; on LongMemEval-S dev, where users often say
/// "actually", corrections far down the ranking that shared any word with the best memory
/// were moved before it in 7 of 62 questions), sharing a content word (compared on their
/// first five letters, a cheap stem: "koriander"/"korianderen", "allergy"/"allergic").
fn corrects(later: &RecallHit, earlier: &RecallHit, floor: f64) -> bool {
    let (l, e) = (&later.episode, &earlier.episode);
    if !matches!(l.kind, ActKind::Correction | ActKind::Retraction)
        || l.actor != e.actor
        || l.occurred_at <= e.occurred_at
        || l.id == e.id
        || later.score < floor
        || earlier.score < floor
    {
        return false;
    }
    let stem = |w: &String| w.chars().take(5).collect::<String>();
    let words: HashSet<String> = lexical::content_words(&e.text, &[])
        .iter()
        .filter(|w| w.chars().count() >= 3)
        .map(stem)
        .collect();
    lexical::content_words(&l.text, &[])
        .iter()
        .filter(|w| w.chars().count() >= 3)
        .any(|w| words.contains(&stem(w)))
}

/// Marks every disagreeing pair among `hits` (each hit's `conflict_with` gets the other's id)
/// and moves the newer of each pair right before the older when it ranked below it.
/// `pairs` are `(older, newer)` episode ids known to disagree (from [`fact_pairs`]).
pub(crate) fn mark(hits: &mut Vec<RecallHit>, pairs: &[(i64, i64)], floor: f64) {
    let mut found: Vec<(EpisodeId, EpisodeId)> = Vec::new();
    for (old, new) in pairs {
        let has = |id: i64| hits.iter().any(|h| h.episode.id.0 == id);
        if has(*old) && has(*new) {
            found.push((EpisodeId(*old), EpisodeId(*new)));
        }
    }
    for later in hits.iter() {
        for earlier in hits.iter() {
            if corrects(later, earlier, floor) {
                found.push((earlier.episode.id, later.episode.id));
            }
        }
    }
    for (old, new) in &found {
        for h in hits.iter_mut() {
            let other = if h.episode.id == *old {
                *new
            } else if h.episode.id == *new {
                *old
            } else {
                continue;
            };
            if !h.conflict_with.contains(&other) {
                h.conflict_with.push(other);
            }
        }
    }
    // Newer first: the latest word on a matter leads, the older follows it. A chain (three
    // moves) may need more than one pass; each move only brings a newer memory forward, so
    // the passes end (at most one per hit, as a guard).
    for _ in 0..hits.len().max(1) {
        let mut moved = false;
        for (old, new) in &found {
            let pos =
                |id: EpisodeId, hits: &[RecallHit]| hits.iter().position(|h| h.episode.id == id);
            if let (Some(o), Some(n)) = (pos(*old, hits), pos(*new, hits))
                && n > o
            {
                let newer = hits.remove(n);
                hits.insert(o, newer);
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recall::testing::hit;

    /// An earlier statement (score 0.8) and a later correction by the same user that shares
    /// "postgres" with it, with score `later_score`, the correction ranked second.
    fn pair(later_score: f64) -> Vec<RecallHit> {
        let earlier = hit(1, "We decided to use Postgres for billing.");
        let mut later = hit(2, "Actually we switched from Postgres to MySQL.");
        later.episode.kind = ActKind::Correction;
        later.episode.occurred_at += chrono::Duration::days(3);
        later.score = later_score;
        vec![earlier, later]
    }

    #[test]
    fn a_chain_of_supersessions_pairs_every_older_value_with_every_newer_one() {
        // Lund (1) -> Malmö (2) -> Göteborg (3) -> Aarhus (4), and a side edge 1 -> 5.
        let mut got = chain_closure(&[(1, 2), (2, 3), (3, 4), (1, 5)]);
        got.sort_unstable();
        assert_eq!(
            got,
            vec![(1, 2), (1, 3), (1, 4), (1, 5), (2, 3), (2, 4), (3, 4)],
            "six pairs along the chain, plus the side edge; nothing runs backwards"
        );
        // A value said again after a change (Malmö, Lund, Malmö as one episode 2) loops: no
        // episode is paired with itself and the walk ends.
        let mut looped = chain_closure(&[(2, 1), (1, 2)]);
        looped.sort_unstable();
        assert_eq!(looped, vec![(1, 2), (2, 1)]);
    }

    #[test]
    fn a_relevant_correction_is_paired_and_leads() {
        // 0.35 clears a threshold of 0.3: about what was asked, so it corrects and goes first.
        let mut hits = pair(0.35);
        mark(&mut hits, &[], 0.3);
        let ids: Vec<i64> = hits.iter().map(|h| h.episode.id.0).collect();
        assert_eq!(ids, vec![2, 1], "the newer word on the matter leads");
        assert_eq!(hits[0].conflict_with, vec![EpisodeId(1)]);
        assert_eq!(hits[1].conflict_with, vec![EpisodeId(2)]);
    }

    #[test]
    fn a_correction_under_the_threshold_is_not_paired() {
        // 0.25 < 0.3: it shares a word but is not what the question is about; the ranking
        // stays as scored (the LongMemEval finding in `corrects`' docs).
        let mut hits = pair(0.25);
        mark(&mut hits, &[], 0.3);
        let ids: Vec<i64> = hits.iter().map(|h| h.episode.id.0).collect();
        assert_eq!(ids, vec![1, 2]);
        assert!(hits.iter().all(|h| h.conflict_with.is_empty()));
    }
}
