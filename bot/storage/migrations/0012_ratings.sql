-- Ratings: one per player per game per server, from openskill's
-- Plackett-Luce model (bot/tables/ratings.py). A player is a user id, or one of
-- Dispatch's levels ("Dispatch (hard)"). ``scope`` is the guild id, or '' for games
-- outside a server. ``points`` is the shown rating (openskill's ordinal, mu - 3 sigma,
-- scaled: 1500 for a newcomer) kept beside mu and sigma so that the leaderboard is read
-- in order from its index.
CREATE TABLE ratings (
    scope      TEXT    NOT NULL,
    game_name  TEXT    NOT NULL,
    player_id  TEXT    NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    points     REAL    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (scope, game_name, player_id)
);
CREATE INDEX ratings_leaderboard ON ratings (scope, game_name, points DESC, player_id);

-- What one rated game changed, seat by seat: written in the transaction that records the
-- result, so a game is rated exactly once (the primary key refuses a second time) and
-- its end post, built in the same transaction, says the same as the leaderboard.
CREATE TABLE rating_changes (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    role        TEXT    NOT NULL,
    player_id   TEXT    NOT NULL,
    points_was  REAL    NOT NULL,
    points_now  REAL    NOT NULL,
    PRIMARY KEY (game_id, role)
);
