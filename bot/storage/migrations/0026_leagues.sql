-- Leagues and tournaments (bot/tables/leagues/): a league, its entrants, its rounds, the
-- games each round pairs, its byes, its audit list, the posts it owes its channel, and
-- each server's league role. Portable: one file serves both engines.

-- A league. ``version`` is bumped by every change to the league: the UPDATE that bumps it
-- is the league's lock (a row lock on PostgreSQL, the write lock on SQLite), taken first
-- by every transaction that records a result or pairs a round, so a round advances once.
CREATE TABLE leagues (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id           TEXT    NOT NULL,
    channel_id         TEXT    NOT NULL,
    name               TEXT    NOT NULL,
    game_name          TEXT    NOT NULL,
    format             TEXT    NOT NULL
                       CHECK (format IN ('round_robin', 'double_round_robin', 'swiss',
                                         'elimination')),
    rounds             INTEGER,
    games_per_tie      INTEGER NOT NULL DEFAULT 1,
    clock              TEXT,
    entry_days         REAL    NOT NULL,
    round_days         REAL    NOT NULL,
    rated              INTEGER NOT NULL,
    cap                INTEGER,
    dispatch_may_enter INTEGER NOT NULL,
    status             TEXT    NOT NULL DEFAULT 'entry'
                       CHECK (status IN ('entry', 'running', 'finished', 'cancelled')),
    round_number       INTEGER NOT NULL DEFAULT 0,
    created_by         TEXT    NOT NULL,
    created_at         REAL    NOT NULL,
    entry_deadline     REAL    NOT NULL,
    lobby_message_id   TEXT,
    version            INTEGER NOT NULL DEFAULT 0
);
-- A server's leagues, newest first (lists, autocomplete).
CREATE INDEX leagues_by_guild ON leagues (guild_id, id);
-- The entry deadlines passed (the background pass): only leagues still taking entries.
CREATE INDEX leagues_entry_open ON leagues (entry_deadline) WHERE status = 'entry';
-- The leagues running, whose pairings are opened (``claim_unopened``).
CREATE INDEX leagues_running ON leagues (id) WHERE status = 'running';

-- Who entered, in entry order (``place``: the round robin's order), with the rating that
-- seeds them, read at entry from the records' ratings of that game on that server.
CREATE TABLE league_entrants (
    league_id INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    player    TEXT    NOT NULL,
    rating    REAL    NOT NULL,
    status    TEXT    NOT NULL DEFAULT 'in'
              CHECK (status IN ('in', 'withdrawn', 'disqualified')),
    place     INTEGER NOT NULL,
    joined_at REAL    NOT NULL,
    PRIMARY KEY (league_id, player)
);

-- A round: open while its games are played, done once each has a result.
CREATE TABLE league_rounds (
    league_id   INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    number      INTEGER NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'done')),
    started_at  REAL    NOT NULL,
    deadline_at REAL    NOT NULL,
    PRIMARY KEY (league_id, number)
);
-- The round deadlines passed (the background pass): only open rounds.
CREATE INDEX league_rounds_open ON league_rounds (deadline_at) WHERE status = 'open';

-- A round's pairings. ``game_id`` is set once its game is opened (conditional on NULL,
-- in the transaction that creates the game); until then a process opening it holds a
-- claim (``claimed_by``, ``lease_until``), so two processes never open one twice.
CREATE TABLE league_games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    league_id   INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    round       INTEGER NOT NULL,
    board       INTEGER NOT NULL,
    first_player  TEXT  NOT NULL,
    second_player TEXT  NOT NULL,
    game_id     INTEGER,
    channel_id  TEXT,
    outcome     TEXT
                CHECK (outcome IN ('first wins', 'second wins', 'draw', 'first forfeits',
                                   'second forfeits')),
    decided_by  TEXT,
    claimed_by  TEXT,
    lease_until REAL,
    UNIQUE (league_id, round, board)
);
-- "Is this game a league's?" at every game's end.
CREATE INDEX league_games_by_game ON league_games (game_id);
-- The pairings still to open (the background pass, after every round paired).
CREATE INDEX league_games_unopened ON league_games (league_id)
    WHERE game_id IS NULL AND outcome IS NULL;

CREATE TABLE league_byes (
    league_id INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    round     INTEGER NOT NULL,
    player    TEXT    NOT NULL,
    PRIMARY KEY (league_id, round, player)
);

-- Every change of a league, who made it and when: /league export carries the list.
CREATE TABLE league_audit (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    league_id INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    at        REAL    NOT NULL,
    by_user   TEXT    NOT NULL,
    what      TEXT    NOT NULL,
    detail    TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX league_audit_by_league ON league_audit (league_id, id);

-- What a league owes its channel (round posts, the final standings, notices): written in
-- the transaction that decides it, delivered after the commit, retried until it goes out.
CREATE TABLE league_posts (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    league_id    INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    payload      TEXT    NOT NULL,
    created_at   REAL    NOT NULL,
    delivered_at REAL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_try_at  REAL    NOT NULL,
    claimed_by   TEXT,
    lease_until  REAL
);
CREATE INDEX league_posts_due ON league_posts (next_try_at) WHERE delivered_at IS NULL;

-- The role that lets its members run leagues on a server (besides Manage Server).
CREATE TABLE league_roles (
    guild_id TEXT PRIMARY KEY,
    role_id  TEXT NOT NULL
);

-- A league's standings as last ranked, with the league's version they were ranked at:
-- every change to a league bumps its version, so a copy of the same version is the
-- standings still, and a season of thousands of games is ranked once per change rather
-- than at every look (``bot.tables.leagues.table``).
CREATE TABLE league_standings (
    league_id INTEGER PRIMARY KEY REFERENCES leagues (id) ON DELETE CASCADE,
    version   INTEGER NOT NULL,
    lines     TEXT    NOT NULL
);
