-- Hints (issue 27, section 4): how many times each seat of a game asked ``/game hint``.
-- A game with any row here was played with the search's help (assisted) and is never
-- rated (bot/tables/ratings.py); read by its primary key, from the game.
CREATE TABLE hints (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    role     TEXT    NOT NULL,
    count    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, role)
);
