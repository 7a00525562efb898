-- Dispatch schema, version 1.
-- Times are epoch seconds (REAL, UTC). User, guild and channel ids are TEXT: Discord
-- snowflakes as strings, or plain names ("alice") in the terminal sandbox.

CREATE TABLE games (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        TEXT,
    channel_id      TEXT    NOT NULL,
    game_name       TEXT    NOT NULL,
    options         TEXT    NOT NULL DEFAULT '{}',
    seed            INTEGER NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'lobby'
                    CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'abandoned')),
    state           TEXT,
    -- One step per applied action; buttons carry it so stale prompts are refused.
    version         INTEGER NOT NULL DEFAULT 0,
    creator_id      TEXT    NOT NULL,
    -- One user may hold several seats only when the game was created as hot-seat.
    hotseat         INTEGER NOT NULL DEFAULT 0,
    -- Cached from the rules after each action so listings need not load every state.
    active_roles    TEXT    NOT NULL DEFAULT '[]',
    -- How many public log lines the table has already been shown.
    posted_log      INTEGER NOT NULL DEFAULT 0,
    created_at      REAL    NOT NULL,
    updated_at      REAL    NOT NULL,
    turn_started_at REAL
);

-- One game per channel among games still being set up or played.
CREATE UNIQUE INDEX games_one_live_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'active');

CREATE TABLE seats (
    game_id           INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    role              TEXT    NOT NULL,
    user_id           TEXT    NOT NULL,
    dm_failed         INTEGER NOT NULL DEFAULT 0,
    abandon_requested INTEGER NOT NULL DEFAULT 0,
    -- How many private log lines this seat has already been sent.
    private_seen      INTEGER NOT NULL DEFAULT 0,
    joined_at         REAL    NOT NULL,
    PRIMARY KEY (game_id, role)
);
CREATE INDEX seats_by_user ON seats (user_id);

-- Append-only: setup(seed) + these rows, in seq order, is the whole game.
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    role    TEXT    NOT NULL,
    user_id TEXT    NOT NULL,
    verb    TEXT    NOT NULL,
    arg     TEXT    NOT NULL,
    at      REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind            TEXT    NOT NULL CHECK (kind IN ('table', 'private')),
    -- The role a private message goes to; NULL for the table.
    target          TEXT,
    payload         TEXT    NOT NULL,
    created_at      REAL    NOT NULL,
    delivered_at    REAL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    last_error      TEXT,
    next_attempt_at REAL    NOT NULL
);
CREATE INDEX outbox_pending ON outbox (next_attempt_at) WHERE delivered_at IS NULL;

CREATE TABLE timers (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL,
    role       TEXT,
    user_id    TEXT,
    due_at     REAL    NOT NULL,
    -- Seconds until the next firing; grows after every firing.
    interval_s REAL    NOT NULL,
    fired      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX timers_due ON timers (due_at);
CREATE UNIQUE INDEX timers_one_per_role ON timers (game_id, kind, role);

CREATE TABLE results (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    winner      TEXT,
    reason      TEXT    NOT NULL,
    score       TEXT    NOT NULL DEFAULT '{}',
    finished_at REAL    NOT NULL
);

CREATE TABLE channel_settings (
    channel_id     TEXT PRIMARY KEY,
    guild_id       TEXT,
    reminder_hours REAL NOT NULL DEFAULT 24
);
