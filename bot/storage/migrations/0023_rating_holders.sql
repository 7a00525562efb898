-- Everyone who played a seat is rated on the game's result, not only its holder at the
-- end: a seat handed over or offered after three decisions still carries its first
-- player's result (docs/ratings.md). One seat may so have several rated players, so a
-- game's changes are keyed by (game, role, player). A second rating of the same game
-- is still refused by the key. The table is rebuilt (SQLite cannot change a primary key
-- in place); the rows kept aside first, so the new key keeps its usual name on PostgreSQL.
CREATE TABLE rating_changes_kept (
    game_id     INTEGER NOT NULL,
    role        TEXT    NOT NULL,
    player_id   TEXT    NOT NULL,
    points_was  DOUBLE PRECISION    NOT NULL,
    points_now  DOUBLE PRECISION    NOT NULL
);
INSERT INTO rating_changes_kept (game_id, role, player_id, points_was, points_now)
    SELECT game_id, role, player_id, points_was, points_now FROM rating_changes;
DROP TABLE rating_changes;
CREATE TABLE rating_changes (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    role        TEXT    NOT NULL,
    player_id   TEXT    NOT NULL,
    points_was  DOUBLE PRECISION    NOT NULL,
    points_now  DOUBLE PRECISION    NOT NULL,
    PRIMARY KEY (game_id, role, player_id)
);
INSERT INTO rating_changes (game_id, role, player_id, points_was, points_now)
    SELECT game_id, role, player_id, points_was, points_now FROM rating_changes_kept;
DROP TABLE rating_changes_kept;
