-- The channel's trail: one short text message per stretch of play (a round, or until it
-- is full) that lists the public moves, kept above the one live table message.
-- trail_message_id: the trail message being written (NULL: the next move opens a new one);
-- trail_seq: the last action before the trail's first line; trail_key: the round it is for.
ALTER TABLE games ADD COLUMN trail_message_id INTEGER;
ALTER TABLE games ADD COLUMN trail_seq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN trail_key TEXT NOT NULL DEFAULT '';
-- Reminders posted in the channel, as JSON [[message id, [seats]], ...]: each is deleted
-- once none of its seats is waited for any more (a stale "waiting for you" misleads).
ALTER TABLE games ADD COLUMN nudge_messages TEXT NOT NULL DEFAULT '[]';
