//! Append-only schema migrations. Never edit one that has landed: add a new one.

/// The migrations, in order; `MIGRATIONS[i]` brings the schema from version `i` to `i + 1`.
pub(crate) const MIGRATIONS: &[&str] = &[
    // 1: sessions, messages, episodes and their embeddings.
    r#"
    CREATE TABLE sessions (
        id           INTEGER PRIMARY KEY,
        external_id  TEXT NOT NULL UNIQUE,   -- source-scoped key: `locomo:conv-26:session_3`
        source       TEXT NOT NULL,          -- import file name, `mcp`, `chat`
        started_at   TEXT NOT NULL,          -- RFC 3339 UTC
        ended_at     TEXT NOT NULL,
        topic        TEXT
    );

    CREATE TABLE messages (
        id            INTEGER PRIMARY KEY,
        session_id    INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        external_id   TEXT,                  -- LoCoMo `dia_id`, a transcript message id
        dedupe_key    TEXT NOT NULL UNIQUE,  -- SHA-256 of session key, role, time and text
        role          TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'system', 'tool')),
        actor         TEXT NOT NULL,         -- who wrote it: `user`, `assistant` or a name
        text          TEXT NOT NULL,
        sent_at       TEXT NOT NULL,         -- RFC 3339 UTC
        utc_offset_s  INTEGER NOT NULL,      -- the writer's UTC offset, seconds east
        seq           INTEGER NOT NULL,      -- position in its session
        captured_at   TEXT                   -- NULL until capture has encoded it
    );
    CREATE INDEX messages_session ON messages(session_id, seq);
    CREATE INDEX messages_uncaptured ON messages(id) WHERE captured_at IS NULL;

    CREATE TABLE episodes (
        id               INTEGER PRIMARY KEY,
        message_id       INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        actor            TEXT NOT NULL,
        role             TEXT NOT NULL,
        kind             TEXT NOT NULL CHECK (kind IN ('correction', 'decision', 'commitment',
                                               'retraction', 'observation', 'routine')),
        text             TEXT NOT NULL,
        span_start       INTEGER NOT NULL,   -- byte range of the quote in the message text
        span_end         INTEGER NOT NULL,
        occurred_at      TEXT NOT NULL,      -- the message's time, RFC 3339 UTC
        event_expression TEXT,               -- the time words, when the episode names a time
        event_start      TEXT,               -- RFC 3339 with the message's offset
        event_end        TEXT,
        salience         REAL NOT NULL CHECK (salience >= 0 AND salience <= 1),
        stability_days   REAL NOT NULL CHECK (stability_days > 0),
        captured_at      TEXT NOT NULL,
        UNIQUE (message_id, span_start, span_end)
    );
    CREATE INDEX episodes_occurred ON episodes(occurred_at);

    CREATE TABLE episode_participants (
        episode_id  INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
        name        TEXT NOT NULL,
        PRIMARY KEY (episode_id, name)
    );

    CREATE TABLE embeddings (
        episode_id  INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
        model_id    TEXT NOT NULL,
        dims        INTEGER NOT NULL,
        vector      BLOB NOT NULL,           -- little-endian f32 x dims, L2-normalised
        PRIMARY KEY (episode_id, model_id)
    );

    CREATE TABLE speaker_baselines (
        actor     TEXT PRIMARY KEY,
        baseline  TEXT NOT NULL              -- JSON of capture::tone::ToneBaseline
    );
    "#,
];
