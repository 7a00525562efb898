-- PostgreSQL twin of 0010_game_keys.sql (see bot/storage/migrate.py): the same schema in
-- PostgreSQL's words (DOUBLE PRECISION for REAL, identity columns for AUTOINCREMENT).
-- The secret key of a game dealt from one (rules.core.rng; the seed column then holds -1),
-- kept beside the state as well as inside it: a game whose state is damaged can still be
-- replayed from a moderator's rescue export. Read only by the export (once the game is
-- over, or that rescue); never part of a view, post or log line.
CREATE TABLE game_keys (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    key     TEXT NOT NULL
);

-- Games stored before this table: their key, where their state still holds it.
INSERT INTO game_keys (game_id, key)
SELECT id, state::jsonb #>> '{rng,key}'
FROM games
WHERE seed = -1 AND jsonb_typeof(state::jsonb #> '{rng,key}') = 'string';
