-- 13: open items the rules derived, and that the current rules no longer derive from their
-- source episode, are withdrawn (issue 5: junk open items stored by older builds), never
-- deleted: `withdrawn_at` (UTC RFC 3339) hides such an item from every listing, the
-- session-start context and the profile. `user_set_at` records when the user last marked
-- the item done or open again, so an item the user acted on is never withdrawn.
ALTER TABLE open_items ADD COLUMN withdrawn_at TEXT;
ALTER TABLE open_items ADD COLUMN user_set_at TEXT;
