//! Fading: retrievability on the FSRS-4.5 power-law forgetting curve (seed 004).
//!
//! `R(t) = (1 + F·t/S)^D` with `F = 19/81`, `D = −0.5`, so `R(0) = 1`, `R(S) = 0.9`, and a long
//! tail that never reaches zero. Time lowers only how easily a memory comes back; nothing here
//! changes what is stored.

use crate::model::Stability;

/// FSRS-4.5 factor `F = 19/81`.
pub const FSRS_FACTOR: f64 = 19.0 / 81.0;
/// FSRS-4.5 decay `D = −0.5`.
pub const FSRS_DECAY: f64 = -0.5;

/// Retrievability in `(0, 1]` of a memory of `stability` after `elapsed_days` (negative
/// elapsed time, a memory from the future, counts as 0).
pub fn retrievability(stability: Stability, elapsed_days: f64) -> f64 {
    let t = elapsed_days.max(0.0);
    (1.0 + FSRS_FACTOR * t / stability.days()).powf(FSRS_DECAY)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retrievability_is_one_at_capture_and_point_nine_at_stability() {
        let s = Stability::new(30.0).unwrap();
        assert_eq!(retrievability(s, 0.0), 1.0, "nothing has faded at t = 0");
        // (1 + 19/81)^-0.5 = (100/81)^-0.5 = 9/10 exactly.
        assert!(
            (retrievability(s, 30.0) - 0.9).abs() < 1e-12,
            "FSRS-4.5 defines R(S) = 0.9"
        );
    }

    #[test]
    fn retrievability_has_a_long_tail() {
        let s = Stability::new(1.0).unwrap();
        let r = retrievability(s, 36_500.0);
        // (1 + 19/81 · 36500)^-0.5 ≈ 0.01078: small, but never zero.
        assert!(
            r > 0.0 && (r - 0.010_78).abs() < 1e-4,
            "a century later R is ~0.0108, got {r}"
        );
    }

    proptest::proptest! {
        #[test]
        fn retrievability_falls_over_time_and_is_point_nine_at_stability(
            days in 0.01f64..5000.0, t in 0.0f64..10_000.0, dt in 0.001f64..1000.0,
        ) {
            let s = Stability::new(days).unwrap();
            let now = retrievability(s, t);
            let later = retrievability(s, t + dt);
            proptest::prop_assert!(later < now, "time only lowers retrievability: R({t}) = {now}, R({}) = {later}", t + dt);
            proptest::prop_assert!(later > 0.0 && now <= 1.0, "R stays in (0, 1]");
            // FSRS-4.5 fixes R(S) = 0.9 for every stability.
            proptest::prop_assert!((retrievability(s, days) - 0.9).abs() < 1e-9);
        }
    }
}
