-- 12: ids are never reused. `episodes`, `sessions` and `messages` are rowid tables without
-- AUTOINCREMENT, so SQLite gives a new row max(id) + 1: after the newest episode is
-- forgotten, the next one took its id, and a retried `minne forget --id N` would delete a
-- memory the user never meant. `id_high_water` keeps the largest id each table ever had
-- (triggers after every delete, including ON DELETE CASCADE); the insert paths choose
-- `max(high water, max(id)) + 1` explicitly (capture::job, Engine::add_sessions). The big
-- tables are not rebuilt: every row, id, index, trigger and full-text link stays as it is.
-- On a database made before this migration the high water starts at the current max(id);
-- an id already reused before then cannot be told apart.
CREATE TABLE id_high_water (
    tbl     TEXT PRIMARY KEY,            -- `episodes`, `sessions`, `messages`
    max_id  INTEGER NOT NULL             -- the largest id the table has ever held
) WITHOUT ROWID;
INSERT INTO id_high_water (tbl, max_id)
    SELECT 'episodes', coalesce(max(id), 0) FROM episodes
    UNION ALL SELECT 'sessions', coalesce(max(id), 0) FROM sessions
    UNION ALL SELECT 'messages', coalesce(max(id), 0) FROM messages;
CREATE TRIGGER episodes_id_high_water AFTER DELETE ON episodes BEGIN
    UPDATE id_high_water SET max_id = max(max_id, old.id) WHERE tbl = 'episodes';
END;
CREATE TRIGGER sessions_id_high_water AFTER DELETE ON sessions BEGIN
    UPDATE id_high_water SET max_id = max(max_id, old.id) WHERE tbl = 'sessions';
END;
CREATE TRIGGER messages_id_high_water AFTER DELETE ON messages BEGIN
    UPDATE id_high_water SET max_id = max(max_id, old.id) WHERE tbl = 'messages';
END;
