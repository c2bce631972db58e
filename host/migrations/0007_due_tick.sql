-- The pacing tick looks only at what is due (issue 14).
-- wake_at: the next time a reminder, a deadline or a forced move needs the tick (NULL:
-- nothing until the game moves); the host writes it with every change of the game's waits.
-- Timers need no column: the running timers are their own schedule (indexed below).
ALTER TABLE games ADD COLUMN wake_at REAL;
-- A game whose channel the bot cannot reach (deleted: 'deleted'; access or permissions
-- lost: 'no_access' / 'no_permission') is paused, since paused_at, until it is reachable.
ALTER TABLE games ADD COLUMN paused TEXT;
ALTER TABLE games ADD COLUMN paused_at REAL;
-- Other failures to publish the table: how many in a row, and when the tick tries again.
ALTER TABLE games ADD COLUMN publish_fails INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN retry_at REAL;

CREATE INDEX games_wake ON games (wake_at) WHERE status = 'active';
CREATE INDEX games_lagging ON games (id)
    WHERE status IN ('active', 'over') AND published_version < version;
CREATE INDEX timers_due ON timers ((started + seconds)) WHERE fired_at IS NULL AND open = 1;

-- Backfill: a game that waits for someone is looked at by the first tick, which writes its
-- exact wake_at (a lower bound here: no reminder comes before the wait began).
UPDATE games SET wake_at = (SELECT MIN(since) FROM waits WHERE waits.game_id = games.id)
    WHERE status = 'active';
