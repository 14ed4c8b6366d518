//! Editing a memory in place: the user rewrites an episode's words; the engine keeps its
//! provenance and removes the old words from the store.

use minne::edit::EditReceipt;
use minne::model::EpisodeId;
use tauri::State;

use crate::error::CommandError;
use crate::state::AppState;

/// Replaces the words of episode `id` with `text` (trimmed, not empty). Returns what the edit
/// did: messages whose old quote was replaced, facts dropped and rebuilt.
#[tauri::command]
pub async fn edit_episode(
    state: State<'_, AppState>,
    id: i64,
    text: String,
) -> Result<EditReceipt, CommandError> {
    state
        .memory()?
        .with_engine_mut(|engine| engine.edit_episode(EpisodeId(id), &text))
}
