-- A dead process's claims are taken over soon (not when their leases lapse, up to two
-- minutes later): every process that claims work beats here under each name it claims
-- with (``Store.instance``, the bot seats' ``owner``), every few seconds
-- (``bot.storage.liveness``). A name whose beat is two beats old loses its claims on the
-- outbox, timers, clocks and bot jobs, and its row here, to any process still beating.
CREATE TABLE process_beats (
    owner   TEXT PRIMARY KEY,
    beat_at DOUBLE PRECISION NOT NULL
);
-- What the reaper reads: the few names whose beat is old.
CREATE INDEX process_beats_beat_at ON process_beats (beat_at);
