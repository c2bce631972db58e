-- How well each bot seat plays (see ../0008_bot_levels.sql): 'easy', 'normal' or 'hard';
-- NULL for people's seats and for bots made before levels existed.
ALTER TABLE seats ADD COLUMN level TEXT;
