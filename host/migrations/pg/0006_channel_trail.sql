-- The channel's trail (see ../0006_channel_trail.sql): the trail message being written, the
-- last action before its first line and the round it is for; and the channel reminders
-- still posted, as JSON [[message id, [seats]], ...].
ALTER TABLE games ADD COLUMN trail_message_id BIGINT;
ALTER TABLE games ADD COLUMN trail_seq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN trail_key TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN nudge_messages TEXT NOT NULL DEFAULT '[]';
