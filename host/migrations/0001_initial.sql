-- Games, seats, the action log and votes.
CREATE TABLE games (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         INTEGER,
    channel_id       INTEGER NOT NULL,
    game             TEXT    NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'over', 'abandoned')),
    options          TEXT    NOT NULL DEFAULT '{}',
    seed             INTEGER NOT NULL,
    version          INTEGER NOT NULL DEFAULT 0,
    state            TEXT,
    lang             TEXT    NOT NULL DEFAULT 'en',
    owner_id         INTEGER NOT NULL,
    lobby_message_id INTEGER,
    table_message_id INTEGER,
    table_to_move    TEXT    NOT NULL DEFAULT '[]',
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL,
    finished_at      REAL
);
CREATE UNIQUE INDEX games_one_live_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_guild ON games (guild_id, status);

CREATE TABLE seats (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user_id  INTEGER,
    is_bot   INTEGER NOT NULL DEFAULT 0,
    name     TEXT    NOT NULL,
    locale   TEXT    NOT NULL DEFAULT 'en',
    dm_open  INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_by_user ON seats (user_id);

CREATE TABLE actions (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    choice   TEXT    NOT NULL,
    by_user  INTEGER,
    by_bot   INTEGER NOT NULL DEFAULT 0,
    events   TEXT    NOT NULL DEFAULT '[]',
    at       REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE votes (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind     TEXT    NOT NULL,
    user_id  INTEGER NOT NULL,
    at       REAL    NOT NULL,
    PRIMARY KEY (game_id, kind, user_id)
);

-- The private panel last sent to each seat by DM, so a player is sent a panel once per
-- decision and the old panel's buttons can be retired.
CREATE TABLE dm_panels (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    token      TEXT    NOT NULL,
    channel_id INTEGER,
    message_id INTEGER,
    PRIMARY KEY (game_id, seat)
);
