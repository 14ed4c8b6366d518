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
    // 2: durable capture jobs (seed 003: write status visible, never assume an end-of-session
    // hook ran) and per-context settings such as the mode.
    r#"
    CREATE TABLE capture_jobs (
        id              INTEGER PRIMARY KEY,
        status          TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
        reason          TEXT NOT NULL,       -- `import`, `quiet`, `checkpoint`
        extractor       TEXT NOT NULL,       -- `rules`, or `llm:<model>`
        created_at      TEXT NOT NULL,       -- RFC 3339 UTC
        started_at      TEXT,
        finished_at     TEXT,
        messages_total  INTEGER NOT NULL DEFAULT 0,
        messages_done   INTEGER NOT NULL DEFAULT 0,
        episodes_added  INTEGER NOT NULL DEFAULT 0,
        suspected_hallucinations INTEGER NOT NULL DEFAULT 0,
        error           TEXT
    );
    CREATE INDEX capture_jobs_open ON capture_jobs(status) WHERE status IN ('queued', 'running');

    CREATE TABLE context_settings (
        key    TEXT PRIMARY KEY,
        value  TEXT NOT NULL
    );
    "#,
    // 3: full-text index of episodes for BM25 recall (seed 000: retrieve cheaply and broadly).
    // `text` is the episode's words; `context` the words of the turn before its message in the
    // same session (an answer usually follows the question that names its topic), weighted
    // at query time. Porter stemming on top of unicode61 keeps å ä ö æ ø as letters. FTS5
    // `secure-delete` removes a deleted row's terms from the index itself (DESIGN principle
    // 3); triggers keep the index in step with episodes and messages on every connection.
    r#"
    CREATE VIRTUAL TABLE episodes_fts USING fts5(
        text, context,
        tokenize = 'porter unicode61 remove_diacritics 0'
    );
    INSERT INTO episodes_fts(episodes_fts, rank) VALUES ('secure-delete', 1);

    INSERT INTO episodes_fts(rowid, text, context)
    SELECT e.id, e.text,
           coalesce((SELECT p.text FROM messages m JOIN messages p
                       ON p.session_id = m.session_id AND p.seq = m.seq - 1
                     WHERE m.id = e.message_id), '')
    FROM episodes e;

    CREATE TRIGGER episodes_fts_insert AFTER INSERT ON episodes BEGIN
        INSERT INTO episodes_fts(rowid, text, context)
        VALUES (new.id, new.text,
                coalesce((SELECT p.text FROM messages m JOIN messages p
                            ON p.session_id = m.session_id AND p.seq = m.seq - 1
                          WHERE m.id = new.message_id), ''));
    END;
    CREATE TRIGGER episodes_fts_delete AFTER DELETE ON episodes BEGIN
        DELETE FROM episodes_fts WHERE rowid = old.id;
    END;
    CREATE TRIGGER episodes_fts_update AFTER UPDATE OF text, message_id ON episodes BEGIN
        UPDATE episodes_fts SET text = new.text,
            context = coalesce((SELECT p.text FROM messages m JOIN messages p
                                  ON p.session_id = m.session_id AND p.seq = m.seq - 1
                                WHERE m.id = new.message_id), '')
        WHERE rowid = new.id;
    END;
    -- A message's words live on in the next turn's context: edit and delete them there too.
    CREATE TRIGGER messages_fts_context_update AFTER UPDATE OF text ON messages BEGIN
        UPDATE episodes_fts SET context = new.text
        WHERE rowid IN (SELECT e.id FROM episodes e JOIN messages n ON n.id = e.message_id
                        WHERE n.session_id = new.session_id AND n.seq = new.seq + 1);
    END;
    CREATE TRIGGER messages_fts_context_delete AFTER DELETE ON messages BEGIN
        UPDATE episodes_fts SET context = ''
        WHERE rowid IN (SELECT e.id FROM episodes e JOIN messages n ON n.id = e.message_id
                        WHERE n.session_id = old.session_id AND n.seq = old.seq + 1);
    END;
    "#,
    // 4: tombstones (DESIGN: a keyed hash of forgotten content, so a re-import does not bring
    // it back; no plaintext) and a log of forgets without their content (receipts).
    r#"
    CREATE TABLE tombstones (
        hash        TEXT PRIMARY KEY,        -- hex HMAC-SHA-256 of the normalised message text
        created_at  TEXT NOT NULL            -- RFC 3339 UTC
    );

    CREATE TABLE forget_log (
        id        INTEGER PRIMARY KEY,
        at        TEXT NOT NULL,             -- RFC 3339 UTC
        scope     TEXT NOT NULL,             -- `episode`, `session`, `time_range`, `context`; never the words
        receipt   TEXT NOT NULL              -- JSON counts per kind of record removed
    );
    "#,
    // 5: export files Minne wrote, tracked so a forget can remove them too (seed 003:
    // deletion reaches exports).
    r#"
    CREATE TABLE exports (
        id          INTEGER PRIMARY KEY,
        path        TEXT NOT NULL,           -- absolute path of the file written
        format      TEXT NOT NULL,           -- `json` or `markdown`
        sha256      TEXT NOT NULL,           -- of the bytes written, to notice a changed file
        created_at  TEXT NOT NULL            -- RFC 3339 UTC
    );
    "#,
    // 6: consolidation (seed 003's semantic, procedural and session layers; seed 004's
    // neocortex stage). Facts rest on episodes through fact_sources (ON DELETE CASCADE), so
    // forgetting an episode drops its support; a fact left without support is removed by
    // consolidate::drop_unsupported_facts. Summaries hold copies of episode words, so deleting
    // any episode they quote deletes them (trigger) and the next consolidation rebuilds them.
    r#"
    CREATE TABLE facts (
        id             INTEGER PRIMARY KEY,
        attribute      TEXT NOT NULL,        -- `name`, `location`, …, `preference:<object>`
        value          TEXT NOT NULL,        -- in the user's words
        norm           TEXT NOT NULL,        -- value lowercased, for duplicates
        scope          TEXT,                 -- where it applies, NULL for everywhere in the context
        confidence     TEXT NOT NULL CHECK (confidence IN ('inferred', 'stated', 'confirmed')),
        status         TEXT NOT NULL CHECK (status IN ('candidate', 'active', 'superseded', 'rejected')),
        valid_from     TEXT NOT NULL,        -- RFC 3339 UTC: when the user said it
        valid_to       TEXT,                 -- RFC 3339 UTC: when a newer value replaced it
        superseded_by  INTEGER REFERENCES facts(id) ON DELETE SET NULL,
        created_at     TEXT NOT NULL,
        updated_at     TEXT NOT NULL
    );
    CREATE INDEX facts_attribute ON facts(attribute, status);

    CREATE TABLE fact_sources (
        fact_id     INTEGER NOT NULL REFERENCES facts(id) ON DELETE CASCADE,
        episode_id  INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
        PRIMARY KEY (fact_id, episode_id)
    );
    CREATE INDEX fact_sources_episode ON fact_sources(episode_id);

    CREATE TABLE procedures (
        id           INTEGER PRIMARY KEY,
        instruction  TEXT NOT NULL,          -- the user's instruction, verbatim
        norm         TEXT NOT NULL UNIQUE,   -- lowercased words, for duplicates
        status       TEXT NOT NULL CHECK (status IN ('candidate', 'active', 'superseded', 'rejected')),
        confidence   TEXT NOT NULL CHECK (confidence IN ('inferred', 'stated', 'confirmed')),
        created_at   TEXT NOT NULL,
        updated_at   TEXT NOT NULL
    );

    CREATE TABLE procedure_sources (
        procedure_id  INTEGER NOT NULL REFERENCES procedures(id) ON DELETE CASCADE,
        episode_id    INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
        PRIMARY KEY (procedure_id, episode_id)
    );
    CREATE INDEX procedure_sources_episode ON procedure_sources(episode_id);

    CREATE TABLE open_items (
        id          INTEGER PRIMARY KEY,
        episode_id  INTEGER NOT NULL UNIQUE REFERENCES episodes(id) ON DELETE CASCADE,
        actor       TEXT NOT NULL,           -- who committed: `user`, `assistant` or a name
        due_start   TEXT,                    -- RFC 3339 with the message's offset
        due_end     TEXT,
        status      TEXT NOT NULL CHECK (status IN ('open', 'done')),
        created_at  TEXT NOT NULL,
        done_at     TEXT
    );

    CREATE TABLE session_summaries (
        id           INTEGER PRIMARY KEY,
        session_id   INTEGER NOT NULL UNIQUE REFERENCES sessions(id) ON DELETE CASCADE,
        topic        TEXT NOT NULL,
        summary      TEXT NOT NULL,          -- the quoted episodes, joined
        episode_ids  TEXT NOT NULL,          -- `,1,5,9,`: the episodes it quotes
        covered_to   INTEGER NOT NULL,       -- the newest episode id of the session it saw
        created_at   TEXT NOT NULL
    );
    CREATE TRIGGER session_summaries_episode_delete AFTER DELETE ON episodes BEGIN
        DELETE FROM session_summaries WHERE instr(episode_ids, ',' || old.id || ',') > 0;
    END;

    CREATE TABLE review_queue (
        id             INTEGER PRIMARY KEY,
        kind           TEXT NOT NULL CHECK (kind IN ('candidate', 'conflict', 'procedure_request')),
        fact_id        INTEGER REFERENCES facts(id) ON DELETE CASCADE,
        other_fact_id  INTEGER REFERENCES facts(id) ON DELETE CASCADE,
        procedure_id   INTEGER REFERENCES procedures(id) ON DELETE CASCADE,
        reason         TEXT NOT NULL,
        evidence_key   TEXT NOT NULL UNIQUE, -- SHA-256 of kind, claim and source episodes
        status         TEXT NOT NULL CHECK (status IN ('open', 'confirmed', 'rejected')),
        created_at     TEXT NOT NULL,
        resolved_at    TEXT
    );

    CREATE TABLE consolidated_episodes (
        episode_id  INTEGER PRIMARY KEY REFERENCES episodes(id) ON DELETE CASCADE,
        at          TEXT NOT NULL
    );
    "#,
    // 7: restatements, edits and cross-context reads (issue 7). A user who says the same thing
    // again reinforces one episode instead of adding a copy: each later source message is a
    // mention (ON DELETE CASCADE, so forgetting that message drops only its link) and
    // `mention_count` counts the sources, the episode's own message included (triggers keep it
    // in step). `edited_at` marks an episode the user rewrote. `cross_context_reads` logs every
    // recall that read another context under the read policy (counts only, never the query).
    r#"
    CREATE TABLE episode_mentions (
        episode_id  INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
        message_id  INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        span_start  INTEGER NOT NULL,       -- byte range of the restatement in that message
        span_end    INTEGER NOT NULL,
        PRIMARY KEY (episode_id, message_id)
    );
    CREATE INDEX episode_mentions_message ON episode_mentions(message_id);

    ALTER TABLE episodes ADD COLUMN mention_count INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE episodes ADD COLUMN edited_at TEXT;  -- RFC 3339 UTC, when the user rewrote it

    CREATE TRIGGER episode_mentions_insert AFTER INSERT ON episode_mentions BEGIN
        UPDATE episodes SET mention_count = mention_count + 1 WHERE id = new.episode_id;
    END;
    CREATE TRIGGER episode_mentions_delete AFTER DELETE ON episode_mentions BEGIN
        UPDATE episodes SET mention_count = max(1, mention_count - 1) WHERE id = old.episode_id;
    END;

    CREATE TABLE cross_context_reads (
        id            INTEGER PRIMARY KEY,
        at            TEXT NOT NULL,        -- RFC 3339 UTC
        reader        TEXT NOT NULL,        -- the context that recalled
        read_context  TEXT NOT NULL,        -- the context it read
        results       INTEGER NOT NULL      -- how many of that context's episodes it returned
    );
    "#,
    // 8: the full-text index also holds each episode's whole source message (recall, issue 4).
    // An episode is a span of its message; the words around the span (who, where, why) are
    // often what a question names, and a turn's evidence is the whole turn. Columns: `text`
    // the episode's words, `message` its whole message, `context` the turn before; each is
    // weighted at query time. Same tokenizer, secure-delete and triggers as migration 3; a
    // message's edit or deletion reaches both the `message` column of its own episodes and
    // the `context` column of the next turn's.
    r#"
    DROP TRIGGER IF EXISTS episodes_fts_insert;
    DROP TRIGGER IF EXISTS episodes_fts_delete;
    DROP TRIGGER IF EXISTS episodes_fts_update;
    DROP TRIGGER IF EXISTS messages_fts_context_update;
    DROP TRIGGER IF EXISTS messages_fts_context_delete;
    DROP TABLE IF EXISTS episodes_fts;

    CREATE VIRTUAL TABLE episodes_fts USING fts5(
        text, message, context,
        tokenize = 'porter unicode61 remove_diacritics 0'
    );
    INSERT INTO episodes_fts(episodes_fts, rank) VALUES ('secure-delete', 1);

    INSERT INTO episodes_fts(rowid, text, message, context)
    SELECT e.id, e.text, m.text,
           coalesce((SELECT p.text FROM messages p
                     WHERE p.session_id = m.session_id AND p.seq = m.seq - 1), '')
    FROM episodes e JOIN messages m ON m.id = e.message_id;

    CREATE TRIGGER episodes_fts_insert AFTER INSERT ON episodes BEGIN
        INSERT INTO episodes_fts(rowid, text, message, context)
        VALUES (new.id, new.text,
                coalesce((SELECT m.text FROM messages m WHERE m.id = new.message_id), ''),
                coalesce((SELECT p.text FROM messages m JOIN messages p
                            ON p.session_id = m.session_id AND p.seq = m.seq - 1
                          WHERE m.id = new.message_id), ''));
    END;
    CREATE TRIGGER episodes_fts_delete AFTER DELETE ON episodes BEGIN
        DELETE FROM episodes_fts WHERE rowid = old.id;
    END;
    CREATE TRIGGER episodes_fts_update AFTER UPDATE OF text, message_id ON episodes BEGIN
        UPDATE episodes_fts SET text = new.text,
            message = coalesce((SELECT m.text FROM messages m WHERE m.id = new.message_id), ''),
            context = coalesce((SELECT p.text FROM messages m JOIN messages p
                                  ON p.session_id = m.session_id AND p.seq = m.seq - 1
                                WHERE m.id = new.message_id), '')
        WHERE rowid = new.id;
    END;
    CREATE TRIGGER messages_fts_context_update AFTER UPDATE OF text ON messages BEGIN
        UPDATE episodes_fts SET message = new.text
        WHERE rowid IN (SELECT e.id FROM episodes e WHERE e.message_id = new.id);
        UPDATE episodes_fts SET context = new.text
        WHERE rowid IN (SELECT e.id FROM episodes e JOIN messages n ON n.id = e.message_id
                        WHERE n.session_id = new.session_id AND n.seq = new.seq + 1);
    END;
    CREATE TRIGGER messages_fts_context_delete AFTER DELETE ON messages BEGIN
        UPDATE episodes_fts SET context = ''
        WHERE rowid IN (SELECT e.id FROM episodes e JOIN messages n ON n.id = e.message_id
                        WHERE n.session_id = old.session_id AND n.seq = old.seq + 1);
    END;
    "#,
    // 9: how each session summary was made (issue 5): `extractive`, `abstractive (llm:<model>)`
    // when the optional LLM wrote it and every quote it cites was found in the session, or
    // `extractive (llm …)` when the LLM's summary was rejected or the LLM failed.
    r#"
    ALTER TABLE session_summaries ADD COLUMN method TEXT NOT NULL DEFAULT 'extractive';
    "#,
    // 10: each episode's vector row also holds its whole source message's vector (recall,
    // issue 4): an episode is a span, and the rest of its message (a shared photo, the
    // question it answers) often says what it is about. NULL when the message's words are
    // the episode's own. A change of a message's words (an edit, a forget that cut a span)
    // deletes the rows of all its episodes, so no vector of removed words survives and the
    // next embedding pass (`embed::reembed`) makes both again.
    r#"
    ALTER TABLE embeddings ADD COLUMN context_vector BLOB;
    CREATE TRIGGER messages_text_embeddings AFTER UPDATE OF text ON messages
    WHEN old.text IS NOT new.text BEGIN
        DELETE FROM embeddings WHERE episode_id IN
            (SELECT id FROM episodes WHERE message_id = new.id);
    END;
    "#,
    // 11: a fact the user retracted gets the status `retracted` (issue 5); see the file.
    include_str!("migration_11_retracted.sql"),
    // 12: ids are never reused after a forget; see the file.
    include_str!("migration_12_id_high_water.sql"),
    // 13: open items withdrawn when the rules no longer derive them; see the file.
    include_str!("migration_13_open_item_withdrawn.sql"),
    // 14: the `context` column holds the turn before only when another speaker wrote it;
    // see the file.
    include_str!("migration_14_context_other_speaker.sql"),
];
