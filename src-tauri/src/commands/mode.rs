//! The open context's mode: `remember`, `recall_only` or `paused` (DESIGN: modes). The engine
//! enforces it; the panel shows it and sets it.

use minne::mode::Mode;
use tauri::State;

use crate::commands::contexts::{Status, status};
use crate::error::CommandError;
use crate::state::AppState;

/// Sets the open context's mode (`remember`, `recall_only` or `paused`); it persists. Returns
/// the new status, which carries the mode.
#[tauri::command]
pub async fn set_mode(state: State<'_, AppState>, mode: String) -> Result<Status, CommandError> {
    let mode: Mode = mode.parse()?;
    state
        .memory()?
        .with_engine_mut(|engine| engine.set_mode(mode))?;
    status(state).await
}
