-- A thread per game.
-- ``thread_settings``: a server's choice (``/game settings threads:``); no row: on.
CREATE TABLE thread_settings (
    guild_id TEXT PRIMARY KEY,
    threads  INTEGER NOT NULL
);

-- Where a game's lobby post is, when the game lives elsewhere (its thread or forum
-- post): the parent channel and the message, edited when the game starts and ends.
CREATE TABLE game_lobbies (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    channel_id TEXT NOT NULL,
    message_id TEXT
);
-- The games whose lobby is in a channel: which games live here (in their threads).
CREATE INDEX IF NOT EXISTS game_lobbies_channel ON game_lobbies (channel_id);
