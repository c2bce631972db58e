-- Skill ratings (OpenSkill, Plackett-Luce; see host/ratings.py). One row per player per game
-- kind: ``player`` is a Discord user id written as text, or a bot level ("bot:hard").
-- ``mu`` and ``sigma`` are the rating; ``games`` the finished games it counts.
CREATE TABLE ratings (
    game       TEXT    NOT NULL,
    player     TEXT    NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    games      INTEGER NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (game, player)
);
CREATE INDEX ratings_by_player ON ratings (player);

-- What each rated game changed, per player: the final message shows it, and a game with
-- rows here is not rated twice. Written in the transaction that stores the game's results.
CREATE TABLE rating_changes (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player       TEXT    NOT NULL,
    game         TEXT    NOT NULL,
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu           REAL    NOT NULL,
    sigma        REAL    NOT NULL,
    PRIMARY KEY (game_id, player)
);
CREATE INDEX rating_changes_by_game ON rating_changes (game, player);
