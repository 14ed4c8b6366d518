//! What consolidation made of the episodes: the profile (facts with their confidence and
//! sources, procedures, open items) and the review queue, where nothing becomes a fact or a
//! procedure until the user says so (DESIGN principle 5).

use minne::consolidate::{Profile, ReviewItem};
use tauri::State;

use crate::error::CommandError;
use crate::state::AppState;

/// The open context's profile: active stated or confirmed facts, procedures, open items.
#[tauri::command]
pub async fn profile(state: State<'_, AppState>) -> Result<Profile, CommandError> {
    state.memory()?.with_engine(|engine| engine.profile())
}

/// The open entries of the review queue, oldest first, each with its source quotes.
#[tauri::command]
pub async fn review_queue(state: State<'_, AppState>) -> Result<Vec<ReviewItem>, CommandError> {
    state
        .memory()?
        .with_engine(|engine| engine.review_queue(false))
}

/// Confirms review entry `id`: its fact or procedure becomes active and confirmed.
#[tauri::command]
pub async fn review_confirm(state: State<'_, AppState>, id: i64) -> Result<(), CommandError> {
    state
        .memory()?
        .with_engine_mut(|engine| engine.review_confirm(id))
}

/// Rejects review entry `id`: it stays out of the profile and is not proposed again from the
/// same evidence.
#[tauri::command]
pub async fn review_reject(state: State<'_, AppState>, id: i64) -> Result<(), CommandError> {
    state
        .memory()?
        .with_engine_mut(|engine| engine.review_reject(id))
}
