//! Capture: conversation turns become episodes (seed 004: encode, then weigh).
//!
//! [`rules::extract`] encodes a message into episodes; [`weigh`] gives each its salience from
//! its act kind's floor and the speaker's intensity; [`stability_for`] turns salience into a
//! lifespan in days, set once at capture.

pub mod job;
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
