-- 14: the full-text `context` column (migration 8) holds the turn before an episode's message
-- only when another speaker wrote it (recall, issue 4). The turn before names what a reply
-- answers ("Where did you go?" for "Lisbon, with Karin"); the same speaker's previous message
-- is another statement of theirs, often about something else, and put "We are moving to
-- Copenhagen" first for a search of "dentist" because the message before it said "My dentist
-- appointment is on Friday" (a tester's store of consecutive notes). The rows of existing
-- episodes are rewritten; the triggers that keep the column in step apply the same rule.
DROP TRIGGER IF EXISTS episodes_fts_insert;
DROP TRIGGER IF EXISTS episodes_fts_update;
DROP TRIGGER IF EXISTS messages_fts_context_update;
DROP TRIGGER IF EXISTS messages_fts_context_delete;

UPDATE episodes_fts SET context = ''
WHERE context <> ''
  AND rowid IN (SELECT e.id FROM episodes e
                JOIN messages m ON m.id = e.message_id
                JOIN messages p ON p.session_id = m.session_id AND p.seq = m.seq - 1
                WHERE p.actor = m.actor);

CREATE TRIGGER episodes_fts_insert AFTER INSERT ON episodes BEGIN
    INSERT INTO episodes_fts(rowid, text, message, context)
    VALUES (new.id, new.text,
            coalesce((SELECT m.text FROM messages m WHERE m.id = new.message_id), ''),
            coalesce((SELECT p.text FROM messages m JOIN messages p
                        ON p.session_id = m.session_id AND p.seq = m.seq - 1
                      WHERE m.id = new.message_id AND p.actor <> m.actor), ''));
END;
CREATE TRIGGER episodes_fts_update AFTER UPDATE OF text, message_id ON episodes BEGIN
    UPDATE episodes_fts SET text = new.text,
        message = coalesce((SELECT m.text FROM messages m WHERE m.id = new.message_id), ''),
        context = coalesce((SELECT p.text FROM messages m JOIN messages p
                              ON p.session_id = m.session_id AND p.seq = m.seq - 1
                            WHERE m.id = new.message_id AND p.actor <> m.actor), '')
    WHERE rowid = new.id;
END;
CREATE TRIGGER messages_fts_context_update AFTER UPDATE OF text ON messages BEGIN
    UPDATE episodes_fts SET message = new.text
    WHERE rowid IN (SELECT e.id FROM episodes e WHERE e.message_id = new.id);
    UPDATE episodes_fts SET context = new.text
    WHERE rowid IN (SELECT e.id FROM episodes e JOIN messages n ON n.id = e.message_id
                    WHERE n.session_id = new.session_id AND n.seq = new.seq + 1
                      AND n.actor <> new.actor);
END;
CREATE TRIGGER messages_fts_context_delete AFTER DELETE ON messages BEGIN
    UPDATE episodes_fts SET context = ''
    WHERE rowid IN (SELECT e.id FROM episodes e JOIN messages n ON n.id = e.message_id
                    WHERE n.session_id = old.session_id AND n.seq = old.seq + 1);
END;
