-- PostgreSQL twin of 0007_live_prompts.sql (see bot/storage/migrate.py): the same schema in
-- PostgreSQL's words (DOUBLE PRECISION for REAL, identity columns for AUTOINCREMENT).
-- The direct message that holds each player's live prompt in a game, so that a newer
-- prompt, an answer given elsewhere, an undo, the end or an abandon closes the old one:
-- no button anywhere looks live once it is stale. A row exists only while its prompt is
-- live, so the table stays empty however many finished games a server keeps.
CREATE TABLE live_prompts (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
