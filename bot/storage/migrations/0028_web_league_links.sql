-- A league's spectator page (bot/web/league_page.py, docs/web.md): its links, signed and
-- revocable like a game's (0027's web_links), and the names its players are shown by.
--
-- The page's process holds no Discord token, so it cannot ask a player's name: the bot
-- keeps here the name the league shows each player by (their name on the server) when a
-- link is asked for. A player without one is shown by their place of entry.
CREATE TABLE web_league_links (
    nonce      TEXT    PRIMARY KEY,
    league_id  INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    created_by TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    revoked_at REAL
);
CREATE INDEX web_league_links_by_league ON web_league_links (league_id, revoked_at);

CREATE TABLE web_league_names (
    league_id INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    player    TEXT    NOT NULL,
    name      TEXT    NOT NULL,
    PRIMARY KEY (league_id, player)
);
