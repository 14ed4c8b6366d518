//! The error every command returns: `{ code, message }`, serialised to the UI. The UI branches
//! on `code` (stable, snake_case) and shows `message` (the engine's actionable sentence); it
//! never parses the text.

use serde::Serialize;

/// What kind of failure, for the UI to branch on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorCode {
    /// The request was not valid (bad context name, empty query).
    InvalidInput,
    /// The asked-for context does not exist.
    UnknownContext,
    /// The asked-for record does not exist.
    NotFound,
    /// A file to import could not be parsed.
    Import,
    /// A file could not be read or written.
    Io,
    /// The embedding model is missing or failed: `scripts/setup-models.sh` installs it.
    Embedding,
    /// The database failed.
    Database,
    /// The store was written by a newer Minne.
    SchemaTooNew,
    /// Anything else the engine reported.
    Internal,
}

/// A failed command as the UI receives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CommandError {
    /// What kind of failure.
    pub code: ErrorCode,
    /// What went wrong and what to do, for a person.
    pub message: String,
}

impl CommandError {
    /// The app could not open its memory at start; every command reports this until restart.
    pub(crate) fn at_startup(error: minne::Error) -> CommandError {
        let CommandError { code, message } = error.into();
        CommandError {
            code,
            message: format!("Minne could not open its memory: {message}"),
        }
    }
}

impl std::fmt::Display for CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CommandError {}

impl From<minne::Error> for CommandError {
    fn from(error: minne::Error) -> CommandError {
        use minne::Error as E;
        let code = match &error {
            E::InvalidInput(_) | E::InvalidContextName(_) => ErrorCode::InvalidInput,
            E::UnknownContext(_) => ErrorCode::UnknownContext,
            E::NotFound { .. } => ErrorCode::NotFound,
            E::Import { .. } => ErrorCode::Import,
            E::Io { .. } => ErrorCode::Io,
            E::Embedding(_) => ErrorCode::Embedding,
            E::Database(_) => ErrorCode::Database,
            E::SchemaTooNew { .. } => ErrorCode::SchemaTooNew,
            _ => ErrorCode::Internal,
        };
        CommandError {
            code,
            message: error.to_string(),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn crosses_the_boundary_as_code_and_message() {
        let error: CommandError = minne::Error::InvalidContextName("Work".into()).into();
        let json = serde_json::to_value(&error).unwrap();
        assert_eq!(
            json["code"], "invalid_input",
            "the UI branches on a stable snake_case code"
        );
        assert!(
            json["message"].as_str().unwrap().contains("lowercase"),
            "the message carries the engine's advice: {json}"
        );
        assert_eq!(
            json.as_object().unwrap().len(),
            2,
            "exactly {{ code, message }}: {json}"
        );
    }

    #[test]
    fn a_startup_failure_keeps_its_code() {
        let error = CommandError::at_startup(minne::Error::Embedding("no model".into()));
        assert_eq!(
            error.code,
            ErrorCode::Embedding,
            "the UI can point at setup-models.sh"
        );
        assert!(
            error.message.starts_with("Minne could not open its memory"),
            "{}",
            error.message
        );
    }
}
