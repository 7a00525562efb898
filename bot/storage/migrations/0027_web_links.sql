-- The spectator page (bot/web, docs/web.md): its links, a server's say over it, and the
-- secret the links are signed with.
--
-- A link is a game's id and a random nonce signed with the secret (bot/web/tokens.py):
-- only a nonce recorded here and not revoked opens the page, so revoking a link is
-- setting ``revoked_at``, and a new link for the same game gets a new nonce.
CREATE TABLE web_links (
    nonce      TEXT    PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    created_by TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    revoked_at REAL
);
-- "Does this game have a live link?" (/game link gives the same one again).
CREATE INDEX web_links_by_game ON web_links (game_id, revoked_at);

-- A server's say over the pages of its games: off (every link of its games answers
-- 404), and whether search engines may index them (off unless a moderator says so).
CREATE TABLE web_servers (
    guild_id  TEXT    PRIMARY KEY,
    page_off  INTEGER NOT NULL DEFAULT 0,
    indexable INTEGER NOT NULL DEFAULT 0
);

-- The links' signing secret when DISPATCH_WEB_SECRET does not give one: made once by the
-- bot, read by the page's read-only process. One row at most.
CREATE TABLE web_secret (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    secret TEXT    NOT NULL
);
