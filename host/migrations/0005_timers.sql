-- Timers of timed decisions (core.contract.Timer): when each timer key was first seen
-- open, for how long it runs, and whether it fired. The firing action is committed in the
-- same transaction that marks the timer fired, so a timer never fires twice.
CREATE TABLE timers (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    key       TEXT    NOT NULL,
    seat      INTEGER NOT NULL,  -- the first seat seen carrying it
    started   REAL    NOT NULL,
    seconds   REAL    NOT NULL,
    open      INTEGER NOT NULL DEFAULT 1,  -- 1 while a decision with this key is open
    fired_at  REAL,              -- NULL while it runs
    fired_seq INTEGER,           -- the action it applied (NULL if it had nothing to apply)
    PRIMARY KEY (game_id, key)
);
-- The running timers of a game (PostgreSQL only: SQLite searches the primary key).
-- pg: CREATE INDEX timers_running ON timers (game_id) WHERE fired_at IS NULL;

-- The timer key when the host made this move because that timer ran out.
ALTER TABLE actions ADD COLUMN timer TEXT;
