//! Forgetting from the panel: one episode, a conversation, the last minutes, or the whole open
//! context. The UI asks `preview_forget` first for any scope wider than one episode and shows
//! the counts in a confirmation dialog; `forget` returns the engine's receipt.

use minne::forget::{ForgetPreview, ForgetReceipt, ForgetScope};
use minne::model::{EpisodeId, SessionId};
use serde::Deserialize;
use tauri::State;

use crate::error::{CommandError, ErrorCode};
use crate::state::AppState;

/// The longest "forget the last …" the panel offers a shortcut for: one year, in minutes.
const MAX_LAST_MINUTES: i64 = 366 * 24 * 60;

/// What to forget, as the UI sends it: `{ "kind": "episode", "id": 7 }`,
/// `{ "kind": "session", "id": 2 }`, `{ "kind": "last", "minutes": 60 }`,
/// `{ "kind": "context" }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Scope {
    /// One episode by id.
    Episode {
        /// The episode's id.
        id: i64,
    },
    /// One conversation (session) by id.
    Session {
        /// The session's id.
        id: i64,
    },
    /// Every message written in the last `minutes` minutes (1 to one year).
    Last {
        /// How far back, in minutes.
        minutes: i64,
    },
    /// Everything in the open context.
    Context,
}

impl Scope {
    fn to_engine(self) -> Result<ForgetScope, CommandError> {
        Ok(match self {
            Scope::Episode { id } => ForgetScope::Episode(EpisodeId(id)),
            Scope::Session { id } => ForgetScope::Session(SessionId(id)),
            Scope::Last { minutes } if (1..=MAX_LAST_MINUTES).contains(&minutes) => {
                ForgetScope::Last(chrono::Duration::minutes(minutes))
            }
            Scope::Last { minutes } => {
                return Err(CommandError {
                    code: ErrorCode::InvalidInput,
                    message: format!(
                        "Cannot forget the last {minutes} minutes: choose between 1 minute and \
                         one year."
                    ),
                });
            }
            Scope::Context => ForgetScope::Context,
        })
    }
}

/// Counts what `scope` covers in the open context, changing nothing.
#[tauri::command]
pub async fn preview_forget(
    state: State<'_, AppState>,
    scope: Scope,
) -> Result<ForgetPreview, CommandError> {
    let scope = scope.to_engine()?;
    state
        .memory()?
        .with_engine(|engine| engine.preview_forget(&scope))
}

/// Forgets `scope` in the open context with everything derived from it; returns the receipt.
#[tauri::command]
pub async fn forget(
    state: State<'_, AppState>,
    scope: Scope,
) -> Result<ForgetReceipt, CommandError> {
    let scope = scope.to_engine()?;
    state
        .memory()?
        .with_engine_mut(|engine| engine.forget(&scope))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_ui_scopes_deserialise_to_engine_scopes() {
        let cases = [
            (
                r#"{"kind":"episode","id":7}"#,
                ForgetScope::Episode(EpisodeId(7)),
            ),
            (
                r#"{"kind":"session","id":2}"#,
                ForgetScope::Session(SessionId(2)),
            ),
            (
                r#"{"kind":"last","minutes":60}"#,
                ForgetScope::Last(chrono::Duration::hours(1)),
            ),
            (r#"{"kind":"context"}"#, ForgetScope::Context),
        ];
        for (json, expected) in cases {
            let scope: Scope = serde_json::from_str(json).unwrap();
            assert_eq!(
                scope.to_engine().unwrap(),
                expected,
                "{json} is the scope the panel means"
            );
        }
    }

    #[test]
    fn a_nonsense_time_span_is_refused_in_plain_words() {
        for minutes in [0, -5, MAX_LAST_MINUTES + 1] {
            let error = Scope::Last { minutes }.to_engine().unwrap_err();
            assert_eq!(error.code, ErrorCode::InvalidInput, "{minutes} minutes");
            assert!(
                error.message.contains("between 1 minute and one year"),
                "the message says what is allowed: {}",
                error.message
            );
        }
    }
}
