//! Contexts: which ones exist, which one is open, switching.

use std::path::PathBuf;

use minne::{ContextInfo, ContextName};
use serde::Serialize;
use tauri::State;

use crate::error::CommandError;
use crate::state::AppState;

/// What the panel shows in its header and footer.
#[derive(Debug, Clone, Serialize)]
pub struct Status {
    /// The open context.
    pub context: ContextName,
    /// The folder holding one database per context.
    pub data_dir: PathBuf,
    /// The embedding model's id.
    pub model: String,
    /// The open context's mode: `remember`, `recall_only` or `paused`.
    pub mode: minne::mode::Mode,
    /// What waits for capture and the latest capture job (issue 3: status visible in the app).
    pub capture: minne::capture::job::CaptureStatus,
}

/// The contexts under the data folder, sorted by name, with their episode counts.
#[tauri::command]
pub async fn list_contexts(state: State<'_, AppState>) -> Result<Vec<ContextInfo>, CommandError> {
    let memory = state.memory()?;
    Ok(minne::context::list_contexts_with(
        memory.data_dir(),
        memory.keys(),
    )?)
}

/// The open context, its mode, the data folder, the model and the capture status.
#[tauri::command]
pub async fn status(state: State<'_, AppState>) -> Result<Status, CommandError> {
    let memory = state.memory()?;
    Ok(Status {
        context: memory.context(),
        data_dir: memory.data_dir().to_path_buf(),
        model: memory.model_id().to_string(),
        mode: memory.with_engine(|engine| engine.mode())?,
        capture: memory.with_engine(|engine| engine.capture_status(1))?,
    })
}

/// Opens the context `name` in place of the current one and returns the new status.
#[tauri::command]
pub async fn switch_context(
    state: State<'_, AppState>,
    name: String,
) -> Result<Status, CommandError> {
    state.memory()?.switch(&name)?;
    status(state).await
}
