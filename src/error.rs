//! The engine's typed errors. Each variant says what went wrong and what to do.

use std::path::PathBuf;

/// A result with the engine's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything the engine can fail with.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Input the engine was given is not valid; the message says which part and why.
    #[error("invalid input: {0}")]
    InvalidInput(String),

    /// A file to import could not be parsed.
    #[error("cannot import {path}: {reason}")]
    Import {
        /// The file.
        path: PathBuf,
        /// What is wrong with it and what to do.
        reason: String,
    },

    /// A file could not be read or written.
    #[error("{action} {path}: {source}")]
    Io {
        /// What the engine was doing ("cannot read", "cannot create").
        action: &'static str,
        /// The path involved.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },

    /// A context name is not allowed.
    #[error(
        "invalid context name `{0}`: use 1 to 64 lowercase letters, digits, `-` or `_`, starting with a letter"
    )]
    InvalidContextName(String),

    /// The data dir holds no Minne data: it does not exist, or no context database is in it.
    /// Most often a mistyped path; a read creates nothing there ([`crate::context::require_data`]).
    #[error(
        "no Minne data at {0}: check --data-dir and MINNE_DATA_DIR for a typo, or import a conversation there first (`minne import FILE`)"
    )]
    NoData(PathBuf),

    /// The asked-for context does not exist.
    #[error("no context named `{0}`: `minne contexts` lists them")]
    UnknownContext(String),

    /// No item with this id.
    #[error("no {kind} with id {id} in this context: `minne list` shows the ids")]
    NotFound {
        /// What kind of record ("episode").
        kind: &'static str,
        /// The id asked for.
        id: i64,
    },

    /// The embedding model could not be loaded or run.
    #[error("embedding model: {0}")]
    Embedding(String),

    /// The LLM endpoint failed (transport, status, timeout or reply shape). Capture falls
    /// back to its rules when this happens.
    #[error("LLM endpoint: {0}")]
    Llm(String),

    /// The context's mode does not allow this.
    #[error(
        "the context `{context}` is in `{mode}` mode, which does not allow {action}: `minne mode remember` turns memory back on"
    )]
    ModeForbids {
        /// The context.
        context: String,
        /// Its mode.
        mode: crate::mode::Mode,
        /// What was refused (`capture`, `import`, `recall`).
        action: &'static str,
    },

    /// The database said no.
    #[error("database error: {0}")]
    Database(#[from] rusqlite::Error),

    /// The stored key or the passphrase does not open the context's database. Nothing was
    /// written: the file is as it was.
    #[error("cannot unlock the context `{context}`: {hint}")]
    WrongKey {
        /// The context.
        context: String,
        /// What to do (check `MINNE_PASSPHRASE`, restore the key from backup).
        hint: String,
    },

    /// The context's database is encrypted and no key for it was found.
    #[error(
        "no key for the encrypted context `{context}`: looked in {looked_in}. If it was made with a passphrase, set MINNE_PASSPHRASE; otherwise restore its key from your backup (docs/encryption.md)"
    )]
    KeyMissing {
        /// The context.
        context: String,
        /// Where the key was looked for (the keyring entry, the key file's path).
        looked_in: String,
    },

    /// The key store (the OS keyring or a key file) could not be used; the message says why
    /// and what to do.
    #[error("key store: {0}")]
    KeyStore(String),

    /// The store was written by a newer Minne.
    #[error(
        "the store at {path} has schema version {found}, newer than this Minne knows ({known}): upgrade Minne"
    )]
    SchemaTooNew {
        /// The database file.
        path: PathBuf,
        /// The version in the file.
        found: i64,
        /// The newest version this build knows.
        known: i64,
    },
}
