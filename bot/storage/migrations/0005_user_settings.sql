-- Each player's own settings, across every server: where their turn is announced.
-- 'dm': a direct message (the default; the channel is used while their DMs are closed),
-- 'channel': a mention in the game's channel, 'both'.
CREATE TABLE user_settings (
    user_id TEXT PRIMARY KEY,
    notify  TEXT NOT NULL DEFAULT 'dm' CHECK (notify IN ('dm', 'channel', 'both'))
);
