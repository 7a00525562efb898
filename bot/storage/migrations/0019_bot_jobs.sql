-- AI workers anywhere.
-- ``bot_jobs``: one row per move Dispatch owes, written in the transaction of the turn
-- that made it owe the move (``bot.tables.bot_jobs.owe_moves``), so a crash never loses
-- one and it is written once (the primary key). A process (a ``dispatch worker`` or the
-- bot's own pool) claims a pending row with a lease (``claimed_by``, ``lease_until``,
-- ``attempts`` counted at each claim); a row whose lease lapsed (its process died) is
-- claimed again. ``status``: pending, done (the move was applied), stale (the game moved
-- on without it: ended, undone, reseated), failed (given up after too many attempts).
-- The move is submitted with ``version``, so a stale or repeated job never applies twice.
CREATE TABLE bot_jobs (
    game_id     INTEGER NOT NULL,
    role        TEXT NOT NULL,
    version     INTEGER NOT NULL,
    level       TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'pending',
    attempts    INTEGER NOT NULL DEFAULT 0,
    claimed_by  TEXT,
    lease_until DOUBLE PRECISION,
    created_at  DOUBLE PRECISION NOT NULL,
    finished_at DOUBLE PRECISION,
    PRIMARY KEY (game_id, role, version)
);
-- What claims read: the pending jobs, oldest first, and whose lease has lapsed.
CREATE INDEX IF NOT EXISTS bot_jobs_pending ON bot_jobs (status, lease_until, created_at);

-- ``bot_workers``: the sign of life of each ``dispatch worker`` process. The bot leaves
-- jobs to workers while one has beaten within a lease, and plays them itself otherwise.
CREATE TABLE bot_workers (
    worker_id    TEXT PRIMARY KEY,
    started_at   DOUBLE PRECISION NOT NULL,
    heartbeat_at DOUBLE PRECISION NOT NULL,
    jobs_done    INTEGER NOT NULL DEFAULT 0,
    jobs_stale   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS bot_workers_heartbeat ON bot_workers (heartbeat_at);
