//! Capture: conversation turns become episodes (seed 004: encode, then weigh).
//!
//! [`rules::extract`] encodes a message into episodes; [`weigh`] gives each its salience from
//! its act kind's floor and the speaker's intensity; [`stability_for`] turns salience into a
//! lifespan in days, set once at capture.

pub mod job;
pub mod llm;
pub mod rules;
pub mod tone;

use crate::model::{ActKind, Salience, Stability};

/// Salience of an episode (seed 004): the higher of the act kind's floor and the speaker's
/// intensity against their own baseline, in `[0, 1]`.
pub fn weigh(kind: ActKind, intensity: f64) -> Salience {
    let floor = kind.salience_floor().get();
    Salience::clamped(floor.max(intensity))
}

/// Shortest lifespan, for routine talk at salience 0: days.
pub const MIN_STABILITY_DAYS: f64 = 2.0;
/// Longest lifespan, for a peak at salience 1: days (three years).
pub const MAX_STABILITY_DAYS: f64 = 1095.0;

/// Lifespan from salience (seed 004: salience sets the memory's lifespan), a monotone
/// log-linear map: `S = MIN · (MAX/MIN)^salience`, so routine (≈0.05) lives about 3 days, an
/// observation (0.3) about 13, a commitment (0.65) about 120, a correction (0.9) about 570 and
/// a peak (1.0) three years. Set once at capture; recall and time never change it.
pub fn stability_for(salience: Salience) -> Stability {
    let days = MIN_STABILITY_DAYS * (MAX_STABILITY_DAYS / MIN_STABILITY_DAYS).powf(salience.get());
    Stability::new(days).unwrap_or_else(|_| unreachable_stability())
}

fn unreachable_stability() -> Stability {
    // MIN and MAX are positive constants and salience is in [0, 1], so `days` is always in
    // [MIN, MAX]; this is the smallest valid value should that ever change.
    Stability::new(MIN_STABILITY_DAYS).unwrap_or_else(|_| unreachable!("MIN_STABILITY_DAYS > 0"))
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn salience_is_in_range_and_never_below_the_floor(kind_index in 0usize..6, intensity in -2.0f64..3.0) {
            let kind = ActKind::ALL[kind_index];
            let s = weigh(kind, intensity).get();
            proptest::prop_assert!((0.0..=1.0).contains(&s), "salience {s} must be in [0, 1]");
            proptest::prop_assert!(s >= kind.salience_floor().get(), "seed 004: never below the act's floor");
        }

        #[test]
        fn stability_grows_with_salience(a in 0.0f64..=1.0, b in 0.0f64..=1.0) {
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            let (s_lo, s_hi) = (stability_for(Salience::clamped(lo)).days(), stability_for(Salience::clamped(hi)).days());
            proptest::prop_assert!(s_lo <= s_hi, "a more salient memory never has a shorter lifespan");
            proptest::prop_assert!((MIN_STABILITY_DAYS..=MAX_STABILITY_DAYS + 1e-9).contains(&s_hi));
        }
    }

    #[test]
    fn floors_are_ordered_as_seed_004_says() {
        let floors: Vec<f64> = ActKind::ALL
            .iter()
            .map(|k| k.salience_floor().get())
            .collect();
        assert!(
            floors.windows(2).all(|w| w[0] > w[1]),
            "correction > decision > commitment > retraction > observation > routine: {floors:?}"
        );
        assert!(
            stability_for(Salience::clamped(0.05)).days() < 7.0,
            "routine lives days"
        );
        assert!(
            stability_for(Salience::clamped(1.0)).days() >= 365.0,
            "a peak lives a year or more"
        );
    }
}
