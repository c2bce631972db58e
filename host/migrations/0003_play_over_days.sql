-- Pacing, autopilot, undo, stats and preferences.

-- Host-level lobby options (reminders, deadline, autopilot), apart from the game's own.
ALTER TABLE games ADD COLUMN host_options TEXT NOT NULL DEFAULT '{}';

-- A seat played by a bot on its owner's behalf (after missed deadlines, or leaving);
-- the owner can take it back. missed counts deadlines that passed for this seat.
ALTER TABLE seats ADD COLUMN autopilot INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN missed INTEGER NOT NULL DEFAULT 0;

-- Undone actions stay in the log (struck through) but are skipped by replay.
ALTER TABLE actions ADD COLUMN undone TEXT;
-- Seconds the seat took to make this choice (from when the game started waiting on it).
ALTER TABLE actions ADD COLUMN think REAL;

-- Since when the game waits on each seat, and what was done about it.
CREATE TABLE waits (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,
    since     REAL    NOT NULL,
    nudges    INTEGER NOT NULL DEFAULT 0,
    deadline  INTEGER NOT NULL DEFAULT 0,  -- 0 running, 1 passed and announced, 2 covered
    PRIMARY KEY (game_id, seat)
);

-- One row per seat of every finished game (not abandoned ones): stats and leaderboards.
CREATE TABLE results (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    user_id     INTEGER,
    guild_id    INTEGER,
    game        TEXT    NOT NULL,
    score       INTEGER NOT NULL,
    rank        INTEGER NOT NULL,
    with_bots   INTEGER NOT NULL,
    finished_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX results_by_user ON results (user_id);
CREATE INDEX results_by_guild ON results (guild_id, game);

CREATE TABLE user_settings (
    user_id  INTEGER PRIMARY KEY,
    dm_turn  INTEGER NOT NULL DEFAULT 0,
    lang     TEXT
);

CREATE TABLE guild_settings (
    guild_id  INTEGER PRIMARY KEY,
    lang      TEXT,
    reminders TEXT
);
