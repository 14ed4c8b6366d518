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
    /// The context's mode does not allow this (recall while paused, capture while paused or
    /// recall-only).
    ModeForbids,
    /// The context's key is wrong, missing, or its key store failed (keyring, key file,
    /// `MINNE_PASSPHRASE`); the message says where Minne looked and what to do.
    Key,
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
            E::ModeForbids { .. } => ErrorCode::ModeForbids,
            E::WrongKey { .. } | E::KeyMissing { .. } | E::KeyStore(_) => ErrorCode::Key,
            _ => ErrorCode::Internal,
        };
        CommandError {
            code,
            message: plain_words(&error),
        }
    }
}

/// The engine's message, reworded where it points at the command line (`minne mode …`,
/// `minne list`) so that the panel tells the user what to do in the panel.
fn plain_words(error: &minne::Error) -> String {
    use minne::Error as E;
    use minne::mode::Mode;
    match error {
        E::InvalidInput(reason) => sentence(reason),
        E::NotFound { kind, id } => format!(
            "There is no {kind} #{id} in this context any more: it may have been forgotten \
             already. The panel now shows what is there."
        ),
        E::UnknownContext(name) => format!("There is no context named “{name}”."),
        E::ModeForbids {
            context,
            mode: Mode::Paused,
            action,
        } => format!(
            "Memory is paused in “{context}”, so Minne does not {}. Set the mode to Remember \
             or Recall only to turn it back on.",
            verb(action)
        ),
        E::ModeForbids {
            context, action, ..
        } => format!(
            "“{context}” is in recall-only mode, so Minne does not {}. Set the mode to \
             Remember to store new memories.",
            verb(action)
        ),
        E::Database(e) => format!(
            "The memory database reported a problem ({e}). Try again; if it keeps happening, \
             restart Minne."
        ),
        other => sentence(&other.to_string()),
    }
}

/// What a refused action means to the user.
fn verb(action: &str) -> String {
    match action {
        "recall" => "recall anything".into(),
        "capture" => "capture anything new".into(),
        "import" => "import anything".into(),
        other => other.replace('_', " "),
    }
}

/// `text` with a capital first letter and a closing full stop.
fn sentence(text: &str) -> String {
    let text = text.trim();
    let mut chars = text.chars();
    let mut out: String = match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => return "Something went wrong.".into(),
    };
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
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
    fn a_refusal_by_mode_says_what_to_do_in_the_panel() {
        let error: CommandError = minne::Error::ModeForbids {
            context: "personal".into(),
            mode: minne::mode::Mode::Paused,
            action: "recall",
        }
        .into();
        assert_eq!(error.code, ErrorCode::ModeForbids, "the UI branches on it");
        assert_eq!(
            error.message,
            "Memory is paused in “personal”, so Minne does not recall anything. Set the mode to \
             Remember or Recall only to turn it back on.",
            "plain words that point at the panel's mode switch, not at the CLI"
        );
        assert!(!error.message.contains("minne "), "{}", error.message);
    }

    #[test]
    fn a_missing_record_does_not_send_the_user_to_the_cli() {
        let error: CommandError = minne::Error::NotFound {
            kind: "episode",
            id: 7,
        }
        .into();
        assert_eq!(error.code, ErrorCode::NotFound);
        assert!(
            error.message.starts_with("There is no episode #7") && !error.message.contains('`'),
            "{}",
            error.message
        );
    }

    #[test]
    fn engine_messages_read_as_sentences() {
        let error: CommandError =
            minne::Error::InvalidInput("the recall query is empty: say what to recall".into())
                .into();
        assert_eq!(
            error.message, "The recall query is empty: say what to recall.",
            "no `invalid input:` prefix, a capital and a full stop"
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

    /// A wrong key is its own kind, so the panel can say "unlock" rather than "internal", and
    /// the engine's hint (what to check) reaches the user.
    #[test]
    fn a_wrong_key_is_reported_as_a_key_problem_with_its_hint() {
        let error: CommandError = minne::Error::WrongKey {
            context: "personal".into(),
            hint: "check MINNE_PASSPHRASE".into(),
        }
        .into();
        assert_eq!(error.code, ErrorCode::Key);
        assert!(
            error.message.contains("MINNE_PASSPHRASE"),
            "{}",
            error.message
        );
    }
}
