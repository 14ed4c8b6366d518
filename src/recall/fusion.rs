//! Fusing the dense and the lexical side into one relevance, and spreading it to neighbours.

use serde::Serialize;

/// How the dense and the lexical scores become one relevance in `[0, 1]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "method")]
pub enum Fusion {
    /// Each side on an absolute scale: the cosine clipped to `[0, 1]`, and BM25 divided by
    /// the sum of the query words' IDFs (about the score of a memory holding every query word
    /// once: an IDF-weighted share of the question's words found), clipped to `[0, 1]`. The
    /// result means the same from query to query, so one absolute threshold can act on it.
    Absolute,
    /// Each side min-max normalised over this query's candidates, then weighted. Relative:
    /// the best candidate always scores near 1, relevant or not.
    MinMax,
    /// Each side on the absolute scale of [`Fusion::Absolute`], joined as independent
    /// evidence: `1 − (1 − w_d·d)(1 − w_l·l)` with the weights scaled so the larger is 1. A
    /// memory strong on one side alone (a paraphrase or another language with no shared
    /// word) is not halved, and agreement of both sides still ranks highest.
    SoftOr,
    /// Reciprocal rank fusion, `Σ 1/(k + rank)`, scaled so rank 1 on both sides is 1.
    Rrf {
        /// The rank offset, 60 in the original paper.
        k: f64,
    },
}

/// Weighted fusion of `dense` and `lexical` (one value per candidate, same order), using the
/// absolute scales `dense_abs`/`lexical_abs` for [`Fusion::Absolute`].
pub(crate) fn fuse(
    fusion: Fusion,
    w_dense: f64,
    w_lexical: f64,
    dense: &[f64],
    lexical: &[f64],
    lexical_scale: f64,
) -> Vec<f64> {
    let total = (w_dense + w_lexical).max(f64::EPSILON);
    match fusion {
        Fusion::Absolute => dense
            .iter()
            .zip(lexical)
            .map(|(d, l)| {
                let l = if lexical_scale > 0.0 {
                    (l / lexical_scale).min(1.0)
                } else {
                    0.0
                };
                (w_dense * d.clamp(0.0, 1.0) + w_lexical * l) / total
            })
            .collect(),
        Fusion::SoftOr => {
            let top = w_dense.max(w_lexical).max(f64::EPSILON);
            let (wd, wl) = (w_dense / top, w_lexical / top);
            dense
                .iter()
                .zip(lexical)
                .map(|(d, l)| {
                    let l = if lexical_scale > 0.0 {
                        (l / lexical_scale).min(1.0)
                    } else {
                        0.0
                    };
                    1.0 - (1.0 - wd * d.clamp(0.0, 1.0)) * (1.0 - wl * l)
                })
                .collect()
        }
        Fusion::MinMax => {
            let d = min_max(dense);
            let l = min_max(lexical);
            d.iter()
                .zip(&l)
                .map(|(d, l)| (w_dense * d + w_lexical * l) / total)
                .collect()
        }
        Fusion::Rrf { k } => {
            let d = ranks(dense);
            let l = ranks(lexical);
            let best = 1.0 / (k + 1.0);
            d.iter()
                .zip(&l)
                .zip(lexical)
                .map(|((rd, rl), lx)| {
                    // A memory the lexical side did not match at all gets nothing from it.
                    let lex = if *lx > 0.0 {
                        w_lexical / (k + *rl as f64)
                    } else {
                        0.0
                    };
                    (w_dense / (k + *rd as f64) + lex) / (total * best)
                })
                .collect()
        }
    }
}

/// Scales to `[0, 1]` by the minimum and maximum; all equal gives all 0.
pub(crate) fn min_max(xs: &[f64]) -> Vec<f64> {
    let (lo, hi) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    if (hi - lo).partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return vec![0.0; xs.len()];
    }
    xs.iter().map(|x| (x - lo) / (hi - lo)).collect()
}

/// 1-based rank of each value, highest first (ties by position).
fn ranks(xs: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..xs.len()).collect();
    order.sort_by(|&a, &b| xs[b].total_cmp(&xs[a]).then(a.cmp(&b)));
    let mut out = vec![0; xs.len()];
    for (r, i) in order.into_iter().enumerate() {
        out[i] = r + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_max_spans_zero_to_one() {
        assert_eq!(min_max(&[1.0, 3.0, 2.0]), vec![0.0, 1.0, 0.5]);
        assert_eq!(
            min_max(&[2.0, 2.0]),
            vec![0.0, 0.0],
            "no spread means no evidence either way"
        );
    }

    #[test]
    fn absolute_fusion_is_weighted_and_clipped() {
        let got = fuse(Fusion::Absolute, 0.5, 0.5, &[0.6, -0.2], &[4.0, 0.0], 2.0);
        assert_eq!(
            got,
            vec![0.8, 0.0],
            "lexical 4/2 clips to 1; a negative cosine counts 0"
        );
    }

    #[test]
    fn rrf_gives_one_to_the_top_of_both() {
        let got = fuse(
            Fusion::Rrf { k: 60.0 },
            1.0,
            1.0,
            &[0.9, 0.1],
            &[5.0, 1.0],
            1.0,
        );
        assert!((got[0] - 1.0).abs() < 1e-12 && got[1] < got[0]);
    }
}
