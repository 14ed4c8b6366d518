//! Recall in the open context, with each hit's score parts and the near misses that explain
//! what was left out.

use minne::recall::{RecallExplained, RecallQuery};
use tauri::State;

use crate::error::CommandError;
use crate::state::AppState;

/// How many left-out candidates the panel shows under "Why these?".
const NEAR_MISSES: usize = 5;

/// The memories that answer `text` (the engine's default k and threshold), best first, with
/// the best candidates left out and why (under the threshold, or outside k).
#[tauri::command]
pub async fn recall(
    state: State<'_, AppState>,
    text: String,
) -> Result<RecallExplained, CommandError> {
    state
        .memory()?
        .with_engine(|engine| engine.recall_explained(&RecallQuery::new(text), NEAR_MISSES))
}
