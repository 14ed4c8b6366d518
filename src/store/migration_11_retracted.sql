-- 11: a fact the user retracted ("I'm not allergic to peanuts anymore", "I stopped using
-- Slack") gets its own status, `retracted`, instead of passing as `superseded` (issue 5).
-- SQLite cannot change a CHECK constraint in place, so `facts` is rebuilt. Foreign keys are
-- on inside the migration's transaction, and dropping `facts` would cascade to the rows that
-- reference it, so the two tables that do (`fact_sources`, `review_queue`) are rebuilt with
-- it: new tables are made pointing at `facts_new`, every row is copied with its id, the old
-- tables are dropped children first (nothing references them any more), and the renames
-- carry the references over to the final names. Indexes are made again.
CREATE TABLE facts_new (
    id             INTEGER PRIMARY KEY,
    attribute      TEXT NOT NULL,        -- `name`, `location`, …, `preference:<object>`
    value          TEXT NOT NULL,        -- in the user's words
    norm           TEXT NOT NULL,        -- value lowercased, for duplicates
    scope          TEXT,                 -- where it applies, NULL for everywhere in the context
    confidence     TEXT NOT NULL CHECK (confidence IN ('inferred', 'stated', 'confirmed')),
    status         TEXT NOT NULL
                   CHECK (status IN ('candidate', 'active', 'superseded', 'rejected', 'retracted')),
    valid_from     TEXT NOT NULL,        -- RFC 3339 UTC: when the user said it
    valid_to       TEXT,                 -- RFC 3339 UTC: when a newer value replaced it
    superseded_by  INTEGER REFERENCES facts_new(id) ON DELETE SET NULL,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
);
INSERT INTO facts_new (id, attribute, value, norm, scope, confidence, status, valid_from,
                       valid_to, superseded_by, created_at, updated_at)
    SELECT id, attribute, value, norm, scope, confidence, status, valid_from, valid_to,
           superseded_by, created_at, updated_at
    FROM facts;

CREATE TABLE fact_sources_new (
    fact_id     INTEGER NOT NULL REFERENCES facts_new(id) ON DELETE CASCADE,
    episode_id  INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
    PRIMARY KEY (fact_id, episode_id)
);
INSERT INTO fact_sources_new (fact_id, episode_id) SELECT fact_id, episode_id FROM fact_sources;

CREATE TABLE review_queue_new (
    id             INTEGER PRIMARY KEY,
    kind           TEXT NOT NULL CHECK (kind IN ('candidate', 'conflict', 'procedure_request')),
    fact_id        INTEGER REFERENCES facts_new(id) ON DELETE CASCADE,
    other_fact_id  INTEGER REFERENCES facts_new(id) ON DELETE CASCADE,
    procedure_id   INTEGER REFERENCES procedures(id) ON DELETE CASCADE,
    reason         TEXT NOT NULL,
    evidence_key   TEXT NOT NULL UNIQUE, -- SHA-256 of kind, claim and source episodes
    status         TEXT NOT NULL CHECK (status IN ('open', 'confirmed', 'rejected')),
    created_at     TEXT NOT NULL,
    resolved_at    TEXT
);
INSERT INTO review_queue_new (id, kind, fact_id, other_fact_id, procedure_id, reason,
                              evidence_key, status, created_at, resolved_at)
    SELECT id, kind, fact_id, other_fact_id, procedure_id, reason, evidence_key, status,
           created_at, resolved_at
    FROM review_queue;

DROP TABLE review_queue;
DROP TABLE fact_sources;
DROP TABLE facts;
ALTER TABLE facts_new RENAME TO facts;
ALTER TABLE fact_sources_new RENAME TO fact_sources;
ALTER TABLE review_queue_new RENAME TO review_queue;
CREATE INDEX facts_attribute ON facts(attribute, status);
CREATE INDEX fact_sources_episode ON fact_sources(episode_id);
