-- Games, seats, the action log and votes (PostgreSQL; same tables as ../0001_initial.sql).
-- Discord ids are BIGINT; times are seconds since the epoch (DOUBLE PRECISION); flags stay
-- INTEGER 0/1 and JSON stays TEXT, as in SQLite, so a database copies over unchanged.
CREATE TABLE games (
    id               BIGSERIAL PRIMARY KEY,
    guild_id         BIGINT,
    channel_id       BIGINT  NOT NULL,
    game             TEXT    NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'over', 'abandoned')),
    options          TEXT    NOT NULL DEFAULT '{}',
    seed             BIGINT  NOT NULL,
    version          INTEGER NOT NULL DEFAULT 0,
    state            TEXT,
    lang             TEXT    NOT NULL DEFAULT 'en',
    owner_id         BIGINT  NOT NULL,
    lobby_message_id BIGINT,
    table_message_id BIGINT,
    table_to_move    TEXT    NOT NULL DEFAULT '[]',
    created_at       DOUBLE PRECISION NOT NULL,
    updated_at       DOUBLE PRECISION NOT NULL,
    finished_at      DOUBLE PRECISION
);
CREATE UNIQUE INDEX games_one_live_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_guild ON games (guild_id, status);

CREATE TABLE seats (
    game_id  BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user_id  BIGINT,
    is_bot   INTEGER NOT NULL DEFAULT 0,
    name     TEXT    NOT NULL,
    locale   TEXT    NOT NULL DEFAULT 'en',
    dm_open  INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_by_user ON seats (user_id);

CREATE TABLE actions (
    game_id  BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    choice   TEXT    NOT NULL,
    by_user  BIGINT,
    by_bot   INTEGER NOT NULL DEFAULT 0,
    events   TEXT    NOT NULL DEFAULT '[]',
    at       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE votes (
    game_id  BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind     TEXT    NOT NULL,
    user_id  BIGINT  NOT NULL,
    at       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, kind, user_id)
);

CREATE TABLE dm_panels (
    game_id    BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    token      TEXT    NOT NULL,
    channel_id BIGINT,
    message_id BIGINT,
    PRIMARY KEY (game_id, seat)
);
