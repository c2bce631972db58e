-- Timers of timed decisions (as ../0005_timers.sql).
CREATE TABLE timers (
    game_id   BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    key       TEXT    NOT NULL,
    seat      INTEGER NOT NULL,
    started   DOUBLE PRECISION NOT NULL,
    seconds   DOUBLE PRECISION NOT NULL,
    open      INTEGER NOT NULL DEFAULT 1,
    fired_at  DOUBLE PRECISION,
    fired_seq INTEGER,
    PRIMARY KEY (game_id, key)
);
CREATE INDEX timers_running ON timers (game_id) WHERE fired_at IS NULL;

ALTER TABLE actions ADD COLUMN timer TEXT;
