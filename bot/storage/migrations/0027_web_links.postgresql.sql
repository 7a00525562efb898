-- PostgreSQL twin of 0027_web_links.sql (see bot/storage/migrate.py): the same tables in
-- PostgreSQL's words, and a trigger SQLite has no use for: every change of a game's
-- version or status NOTIFYs ``dispatch_games`` with the game's id, so a spectator page
-- in any process hears of a committed turn when it commits, whichever process (the bot,
-- a ``dispatch worker``) made it. A NOTIFY is sent at COMMIT and never for a rollback.
CREATE TABLE web_links (
    nonce      TEXT             PRIMARY KEY,
    game_id    BIGINT           NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    created_by TEXT             NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    revoked_at DOUBLE PRECISION
);
CREATE INDEX web_links_by_game ON web_links (game_id, revoked_at);

CREATE TABLE web_servers (
    guild_id  TEXT    PRIMARY KEY,
    page_off  INTEGER NOT NULL DEFAULT 0,
    indexable INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE web_secret (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    secret TEXT    NOT NULL
);

CREATE FUNCTION dispatch_game_changed() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('dispatch_games', NEW.id::text);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER games_changed_notify
    AFTER UPDATE OF version, status ON games
    FOR EACH ROW
    WHEN (OLD.version IS DISTINCT FROM NEW.version OR OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION dispatch_game_changed();
