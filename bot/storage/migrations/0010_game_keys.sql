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
SELECT id, json_extract(state, '$.rng.key')
FROM games
WHERE seed = -1 AND json_valid(state) AND json_type(state, '$.rng.key') = 'text';
