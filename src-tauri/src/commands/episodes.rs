//! Episodes of the open context.

use minne::episodes::EpisodeView;
use tauri::State;

use crate::error::CommandError;
use crate::state::AppState;

/// Episodes newest first: `limit` (default 50, at most 500) from `offset` (default 0).
#[tauri::command]
pub async fn list_episodes(
    state: State<'_, AppState>,
    limit: Option<usize>,
    offset: Option<usize>,
) -> Result<Vec<EpisodeView>, CommandError> {
    let limit = limit.unwrap_or(50).min(500);
    state
        .memory()?
        .with_engine(|engine| engine.list_episodes(limit, offset.unwrap_or(0)))
}
