//! Ranking metrics over ids: recall@k (share, any, all), precision@k, NDCG@k with binary
//! relevance, and latency percentiles. `ranked` lists ids best first without repeats;
//! `relevant` is the set of evidence ids.

use std::collections::HashSet;

/// Share of `relevant` found in the first `k` of `ranked`; `None` when nothing is relevant.
pub fn recall_at(ranked: &[String], relevant: &HashSet<String>, k: usize) -> Option<f64> {
    if relevant.is_empty() {
        return None;
    }
    let found = ranked
        .iter()
        .take(k)
        .filter(|id| relevant.contains(*id))
        .count();
    Some(found as f64 / relevant.len() as f64)
}

/// 1 if any relevant id is in the first `k`, else 0; `None` when nothing is relevant.
pub fn recall_any_at(ranked: &[String], relevant: &HashSet<String>, k: usize) -> Option<f64> {
    if relevant.is_empty() {
        return None;
    }
    Some(f64::from(u8::from(
        ranked.iter().take(k).any(|id| relevant.contains(id)),
    )))
}

/// 1 if every relevant id is in the first `k`, else 0; `None` when nothing is relevant.
pub fn recall_all_at(ranked: &[String], relevant: &HashSet<String>, k: usize) -> Option<f64> {
    if relevant.is_empty() {
        return None;
    }
    let top: HashSet<&String> = ranked.iter().take(k).collect();
    Some(f64::from(u8::from(
        relevant.iter().all(|id| top.contains(id)),
    )))
}

/// Relevant ids among the first `k`, divided by `k`; `None` when nothing is relevant or
/// `k` is 0.
pub fn precision_at(ranked: &[String], relevant: &HashSet<String>, k: usize) -> Option<f64> {
    if relevant.is_empty() || k == 0 {
        return None;
    }
    let found = ranked
        .iter()
        .take(k)
        .filter(|id| relevant.contains(*id))
        .count();
    Some(found as f64 / k as f64)
}

/// NDCG@k with binary relevance: `DCG = Σ_{i ≤ k} rel_i / log2(i + 1)` over 1-based ranks,
/// divided by the DCG of the ideal ranking (all relevant first). `None` when nothing is
/// relevant.
pub fn ndcg_at(ranked: &[String], relevant: &HashSet<String>, k: usize) -> Option<f64> {
    if relevant.is_empty() {
        return None;
    }
    let gain = |i: usize| 1.0 / ((i + 2) as f64).log2();
    let dcg: f64 = ranked
        .iter()
        .take(k)
        .enumerate()
        .filter(|(_, id)| relevant.contains(*id))
        .map(|(i, _)| gain(i))
        .sum();
    let ideal: f64 = (0..relevant.len().min(k)).map(gain).sum();
    Some(dcg / ideal)
}

/// The `p`-th percentile (0..=100) by the nearest-rank method; `None` for no values.
pub fn percentile(values: &[f64], p: f64) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * v.len() as f64).ceil().max(1.0) as usize;
    Some(v[rank.min(v.len()) - 1])
}

/// Area under the ROC curve of `scores` separating `positives` (true) from negatives: the
/// chance that a random positive scores above a random negative (ties count half).
/// `None` without both kinds.
pub fn auroc(scores: &[(f64, bool)]) -> Option<f64> {
    let pos: Vec<f64> = scores.iter().filter(|s| s.1).map(|s| s.0).collect();
    let neg: Vec<f64> = scores.iter().filter(|s| !s.1).map(|s| s.0).collect();
    if pos.is_empty() || neg.is_empty() {
        return None;
    }
    let mut wins = 0.0;
    for p in &pos {
        for n in &neg {
            wins += if p > n {
                1.0
            } else if p == n {
                0.5
            } else {
                0.0
            };
        }
    }
    Some(wins / (pos.len() * neg.len()) as f64)
}

/// Ids in order without repeats (the first occurrence keeps its place).
pub fn dedupe<I: IntoIterator<Item = String>>(ids: I) -> Vec<String> {
    let mut seen = HashSet::new();
    ids.into_iter()
        .filter(|id| seen.insert(id.clone()))
        .collect()
}

/// The mean of the values; `None` for none.
pub fn mean(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        None
    } else {
        Some(values.iter().sum::<f64>() / values.len() as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|s| s.to_string()).collect()
    }

    fn set(xs: &[&str]) -> HashSet<String> {
        xs.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn recall_counts_the_share_of_evidence_in_the_top_k() {
        let ranked = ids(&["a", "b", "c", "d"]);
        let rel = set(&["b", "d"]);
        assert_eq!(recall_at(&ranked, &rel, 1), Some(0.0));
        assert_eq!(
            recall_at(&ranked, &rel, 2),
            Some(0.5),
            "b is at rank 2, d is not yet in"
        );
        assert_eq!(
            recall_at(&ranked, &rel, 10),
            Some(1.0),
            "k beyond the list takes it all"
        );
        assert_eq!(recall_any_at(&ranked, &rel, 2), Some(1.0));
        assert_eq!(
            recall_all_at(&ranked, &rel, 2),
            Some(0.0),
            "d is missing at k = 2"
        );
        assert_eq!(recall_all_at(&ranked, &rel, 4), Some(1.0));
        assert_eq!(precision_at(&ranked, &rel, 4), Some(0.5));
        assert_eq!(
            recall_at(&ranked, &set(&[]), 3),
            None,
            "no evidence: not counted"
        );
    }

    #[test]
    fn ndcg_matches_a_hand_computed_value() {
        // Relevant at ranks 2 and 3 of 3: DCG = 1/log2(3) + 1/log2(4) = 0.6309 + 0.5 = 1.1309;
        // ideal = 1 + 0.6309 = 1.6309; NDCG = 0.6934.
        let got = ndcg_at(&ids(&["x", "a", "b"]), &set(&["a", "b"]), 3).unwrap();
        assert!((got - 0.693_426).abs() < 1e-5, "got {got}");
        assert_eq!(
            ndcg_at(&ids(&["a", "b"]), &set(&["a", "b"]), 2),
            Some(1.0),
            "ideal order scores 1"
        );
        assert_eq!(ndcg_at(&ids(&["x"]), &set(&["a"]), 1), Some(0.0));
    }

    #[test]
    fn percentiles_use_the_nearest_rank() {
        let v: Vec<f64> = (1..=20).map(f64::from).collect();
        assert_eq!(percentile(&v, 50.0), Some(10.0));
        assert_eq!(percentile(&v, 95.0), Some(19.0));
        assert_eq!(percentile(&[], 50.0), None);
    }

    #[test]
    fn auroc_is_the_chance_a_positive_outscores_a_negative() {
        assert_eq!(auroc(&[(0.9, true), (0.1, false)]), Some(1.0));
        assert_eq!(
            auroc(&[(0.5, true), (0.5, false), (0.2, false)]),
            Some(0.75),
            "a tie counts half"
        );
    }

    #[test]
    fn dedupe_keeps_first_places() {
        assert_eq!(
            dedupe(ids(&["a", "b", "a", "c", "b"])),
            ids(&["a", "b", "c"])
        );
    }
}
