//! The domain records of Minne, named as in `shared/DESIGN.md`.
//!
//! Newtypes rule out nonsense at construction: a [`Salience`] is always in `[0, 1]`, a
//! [`Stability`] is always a positive number of days.

use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, FixedOffset, Utc};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.0)
            }
        }
    };
}

id_type!(
    /// Row id of a message in its context's store.
    MessageId
);
id_type!(
    /// Row id of a session in its context's store.
    SessionId
);
id_type!(
    /// Row id of an episode in its context's store.
    EpisodeId
);

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The person whose memory this is.
    User,
    /// The assistant (or, in an imported two-person chat, the other party).
    Assistant,
    /// A system prompt.
    System,
    /// A tool's output.
    Tool,
}

impl Role {
    /// The stored spelling: `user`, `assistant`, `system` or `tool`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::System => "system",
            Role::Tool => "tool",
        }
    }
}

impl FromStr for Role {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "user" => Ok(Role::User),
            "assistant" => Ok(Role::Assistant),
            "system" => Ok(Role::System),
            "tool" => Ok(Role::Tool),
            other => Err(Error::InvalidInput(format!(
                "unknown role `{other}`: use user, assistant, system or tool"
            ))),
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The kind of act an episode records (seed 004), from most to least weight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActKind {
    /// The user sets a truth: fixes something the assistant holds or said.
    Correction,
    /// A settled choice, including choosing not to do something.
    Decision,
    /// A promise or a firm first-person plan.
    Commitment,
    /// The assistant walks back its own claim.
    Retraction,
    /// A fact or event that comes up.
    Observation,
    /// Small talk, thanks, acknowledgements, ordinary lookups.
    Routine,
}

impl ActKind {
    /// Every kind, from most to least weight.
    pub const ALL: [ActKind; 6] = [
        ActKind::Correction,
        ActKind::Decision,
        ActKind::Commitment,
        ActKind::Retraction,
        ActKind::Observation,
        ActKind::Routine,
    ];

    /// The stored spelling, as in `shared/data/capture/README.md`.
    pub fn as_str(self) -> &'static str {
        match self {
            ActKind::Correction => "correction",
            ActKind::Decision => "decision",
            ActKind::Commitment => "commitment",
            ActKind::Retraction => "retraction",
            ActKind::Observation => "observation",
            ActKind::Routine => "routine",
        }
    }

    /// The salience floor of this kind (seed 004: salience is the higher of the act's floor
    /// and the speaker's intensity). Ordered correction > decision > commitment > retraction >
    /// observation > routine.
    pub fn salience_floor(self) -> Salience {
        Salience(match self {
            ActKind::Correction => CORRECTION_FLOOR,
            ActKind::Decision => DECISION_FLOOR,
            ActKind::Commitment => COMMITMENT_FLOOR,
            ActKind::Retraction => RETRACTION_FLOOR,
            ActKind::Observation => OBSERVATION_FLOOR,
            ActKind::Routine => ROUTINE_FLOOR,
        })
    }
}

/// Salience floor of a user's correction: the peak (seed 004).
pub const CORRECTION_FLOOR: f64 = 0.9;
/// Salience floor of a decision.
pub const DECISION_FLOOR: f64 = 0.75;
/// Salience floor of a commitment.
pub const COMMITMENT_FLOOR: f64 = 0.65;
/// Salience floor of an assistant's retraction: below anything the user sets.
pub const RETRACTION_FLOOR: f64 = 0.5;
/// Salience floor of an observation.
pub const OBSERVATION_FLOOR: f64 = 0.3;
/// Salience floor of routine talk: about zero.
pub const ROUTINE_FLOOR: f64 = 0.05;

impl FromStr for ActKind {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        ActKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| Error::InvalidInput(format!("unknown act kind `{s}`")))
    }
}

impl fmt::Display for ActKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How much a memory matters, in `[0, 1]` (seed 004, the amygdala stage).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(try_from = "f64", into = "f64")]
pub struct Salience(f64);

impl Salience {
    /// A salience, or [`Error::InvalidInput`] outside `[0, 1]` or for NaN.
    pub fn new(value: f64) -> Result<Self> {
        if (0.0..=1.0).contains(&value) {
            Ok(Salience(value))
        } else {
            Err(Error::InvalidInput(format!(
                "salience {value} is outside [0, 1]"
            )))
        }
    }

    /// A salience clamped into `[0, 1]` (NaN becomes 0).
    pub fn clamped(value: f64) -> Self {
        if value.is_nan() {
            Salience(0.0)
        } else {
            Salience(value.clamp(0.0, 1.0))
        }
    }

    /// The value in `[0, 1]`.
    pub fn get(self) -> f64 {
        self.0
    }
}

impl TryFrom<f64> for Salience {
    type Error = Error;
    fn try_from(v: f64) -> Result<Self> {
        Salience::new(v)
    }
}

impl From<Salience> for f64 {
    fn from(s: Salience) -> f64 {
        s.0
    }
}

/// A memory's lifespan in days: the time at which its retrievability falls to 0.9
/// (FSRS-4.5). Always finite and > 0.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(try_from = "f64", into = "f64")]
pub struct Stability(f64);

impl Stability {
    /// A stability in days, or [`Error::InvalidInput`] unless finite and > 0.
    pub fn new(days: f64) -> Result<Self> {
        if days.is_finite() && days > 0.0 {
            Ok(Stability(days))
        } else {
            Err(Error::InvalidInput(format!(
                "stability {days} days must be finite and > 0"
            )))
        }
    }

    /// A stability from days the caller has already bounded to a finite value > 0.
    pub(crate) const fn from_bounded_days(days: f64) -> Self {
        Stability(days)
    }

    /// The lifespan in days.
    pub fn days(self) -> f64 {
        self.0
    }
}

impl TryFrom<f64> for Stability {
    type Error = Error;
    fn try_from(v: f64) -> Result<Self> {
        Stability::new(v)
    }
}

impl From<Stability> for f64 {
    fn from(s: Stability) -> f64 {
        s.0
    }
}

/// A resolved time interval `[start, end)` an episode refers to, with the words it came from.
/// An instant ("at 7:30") has `start == end`. Bounds carry the message's own UTC offset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventTime {
    /// The expression as written ("i fredags", "tomorrow at 7:30").
    pub expression: String,
    /// Inclusive start, in the message's UTC offset.
    pub start: DateTime<FixedOffset>,
    /// Exclusive end (equal to `start` for an instant), in the message's UTC offset.
    pub end: DateTime<FixedOffset>,
}

/// One message as the capture step sees it.
#[derive(Debug, Clone)]
pub struct MessageInput<'a> {
    /// Who wrote it.
    pub role: Role,
    /// The text.
    pub text: &'a str,
    /// When it was written, with the writer's UTC offset.
    pub timestamp: DateTime<FixedOffset>,
    /// The user's time zone ([`crate::zone`]): a day the message names gets that day's own
    /// offset in it when the message was written there. `None`: the message's offset alone.
    pub zone: Option<chrono_tz::Tz>,
}

/// A time in UTC, as stored.
pub type Timestamp = DateTime<Utc>;
