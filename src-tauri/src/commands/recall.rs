//! Recall in the open context, with each hit's score parts.

use minne::recall::{RecallHit, RecallQuery};
use tauri::State;

use crate::error::CommandError;
use crate::state::AppState;

/// The memories that answer `text` (the engine's default k and threshold), best first.
#[tauri::command]
pub async fn recall(
    state: State<'_, AppState>,
    text: String,
) -> Result<Vec<RecallHit>, CommandError> {
    state
        .memory()?
        .with_engine(|engine| engine.recall(&RecallQuery::new(text)))
}
