//! Time is handed to the engine, never read inside it, so fading and "forget the last hour"
//! are testable to the second.

use std::sync::Mutex;

use chrono::{DateTime, Utc};

/// A source of the current time (UTC).
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// Now, in UTC.
    fn now(&self) -> DateTime<Utc>;

    /// Now, as a time with a (zero) UTC offset.
    fn now_fixed(&self) -> DateTime<chrono::FixedOffset> {
        self.now().fixed_offset()
    }
}

/// The system clock. Front ends hand this to the engine.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// A clock that stays where it is set: for tests and for replaying scenarios.
#[derive(Debug)]
pub struct FixedClock(Mutex<DateTime<Utc>>);

impl FixedClock {
    /// A clock showing `at`.
    pub fn new(at: DateTime<Utc>) -> Self {
        FixedClock(Mutex::new(at))
    }

    /// Moves the clock to `at`.
    pub fn set(&self, at: DateTime<Utc>) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = at;
    }
}

impl Clock for FixedClock {
    fn now(&self) -> DateTime<Utc> {
        *self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}
