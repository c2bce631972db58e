-- Skill ratings (see ../0009_ratings.sql): per player (a user id as text, or "bot:hard")
-- per game kind, and what each rated game changed.
CREATE TABLE ratings (
    game       TEXT             NOT NULL,
    player     TEXT             NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    games      INTEGER          NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game, player)
);
CREATE INDEX ratings_by_player ON ratings (player);

CREATE TABLE rating_changes (
    game_id      BIGINT           NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player       TEXT             NOT NULL,
    game         TEXT             NOT NULL,
    mu_before    DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu           DOUBLE PRECISION NOT NULL,
    sigma        DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, player)
);
CREATE INDEX rating_changes_by_game ON rating_changes (game, player);
