-- The game version the channel's table shows; a table that lags (a crash between a
-- commit and its publication) is brought up to date by the pacing tick.
ALTER TABLE games ADD COLUMN published_version INTEGER NOT NULL DEFAULT 0;
