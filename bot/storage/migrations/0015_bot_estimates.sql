-- Hints: how many times each seat of a game asked ``/game hint``.
-- A game with any row here was played with the search's help (assisted) and is never
-- rated (bot/tables/ratings.py); read by its primary key, from the game.
CREATE TABLE hints (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    role     TEXT    NOT NULL,
    count    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, role)
);

-- Dispatch's own estimate of its chance after each of its searched decisions
-- (docs/ai.md, "Turning points"): the mean result of the chosen action in its search tree, with the public
-- log text of that move. Secret while the game runs (it would hint at Dispatch's cards);
-- read only for a finished game (bot/tables/estimates.py), by its primary key.
CREATE TABLE bot_estimates (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version   INTEGER NOT NULL,
    role      TEXT    NOT NULL,
    estimate  REAL    NOT NULL,
    move      TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (game_id, version)
);
