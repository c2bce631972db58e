-- Pacing, autopilot, undo, stats and preferences (as ../0003_play_over_days.sql).
ALTER TABLE games ADD COLUMN host_options TEXT NOT NULL DEFAULT '{}';

ALTER TABLE seats ADD COLUMN autopilot INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN missed INTEGER NOT NULL DEFAULT 0;

ALTER TABLE actions ADD COLUMN undone TEXT;
ALTER TABLE actions ADD COLUMN think DOUBLE PRECISION;

CREATE TABLE waits (
    game_id   BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,
    since     DOUBLE PRECISION NOT NULL,
    nudges    INTEGER NOT NULL DEFAULT 0,
    deadline  INTEGER NOT NULL DEFAULT 0,  -- 0 running, 1 passed and announced, 2 covered
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE results (
    game_id     BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    user_id     BIGINT,
    guild_id    BIGINT,
    game        TEXT    NOT NULL,
    score       INTEGER NOT NULL,
    rank        INTEGER NOT NULL,
    with_bots   INTEGER NOT NULL,
    finished_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX results_by_user ON results (user_id);
CREATE INDEX results_by_guild ON results (guild_id, game);

CREATE TABLE user_settings (
    user_id  BIGINT  PRIMARY KEY,
    dm_turn  INTEGER NOT NULL DEFAULT 0,
    lang     TEXT
);

CREATE TABLE guild_settings (
    guild_id  BIGINT PRIMARY KEY,
    lang      TEXT,
    reminders TEXT
);
