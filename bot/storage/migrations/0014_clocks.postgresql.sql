-- PostgreSQL twin of 0014_clocks.sql (see bot/storage/migrate.py): the same schema in
-- PostgreSQL's words (DOUBLE PRECISION for REAL, identity columns for AUTOINCREMENT).
-- Clocks: a game's time control, and one clock per seated person.
-- ``game_clocks``: the control chosen at /game new (a game without a row has no clock).
-- ``clocks``: one row per (game, role) held by a person (Dispatch's seats have none):
-- the seconds left when it last stopped or started, since when it runs (NULL: stopped)
-- and, while it runs, its deadline (running_since + remaining_s). The expiry pass reads
-- only the running rows whose deadline has passed, through ``clocks_deadline``: a partial
-- index that holds running clocks alone, so it never scans live games.
CREATE TABLE game_clocks (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    initial_s   DOUBLE PRECISION    NOT NULL,
    increment_s DOUBLE PRECISION    NOT NULL,
    cap_s       DOUBLE PRECISION    NOT NULL
);

CREATE TABLE clocks (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    role          TEXT    NOT NULL,
    remaining_s   DOUBLE PRECISION    NOT NULL,
    running_since DOUBLE PRECISION,
    deadline      DOUBLE PRECISION,
    -- While it runs: when the player is next warned (24 h, then 2 h left), NULL: no more.
    warn_at       DOUBLE PRECISION,
    PRIMARY KEY (game_id, role)
);
CREATE INDEX clocks_deadline ON clocks (deadline) WHERE deadline IS NOT NULL;
CREATE INDEX clocks_warn_at ON clocks (warn_at) WHERE warn_at IS NOT NULL;

-- The bot's heartbeat: when it was last known to be running (one row). On start-up,
-- running clocks are moved on by the time since then, so downtime is never charged.
CREATE TABLE heartbeat (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    beat_at DOUBLE PRECISION    NOT NULL
);

-- A server's default time control for new games (``/game settings clock_default:``):
-- a preset name or a written control; practice and solo games have none whatever it is.
CREATE TABLE clock_defaults (
    guild_id TEXT PRIMARY KEY,
    clock    TEXT NOT NULL
);
