-- The pacing tick looks only at what is due (as ../0007_due_tick.sql).
ALTER TABLE games ADD COLUMN wake_at DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN paused TEXT;
ALTER TABLE games ADD COLUMN paused_at DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN publish_fails INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN retry_at DOUBLE PRECISION;

CREATE INDEX games_wake ON games (wake_at) WHERE status = 'active';
CREATE INDEX games_lagging ON games (id)
    WHERE status IN ('active', 'over') AND published_version < version;
CREATE INDEX timers_due ON timers ((started + seconds)) WHERE fired_at IS NULL AND open = 1;

UPDATE games SET wake_at = (SELECT MIN(since) FROM waits WHERE waits.game_id = games.id)
    WHERE status = 'active';
