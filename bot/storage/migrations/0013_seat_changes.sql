-- Seats that change hands (bot/tables/seats.py).
--
-- A seat change is not an action: the rules never see who holds a seat, so the action
-- log (which replays the game) is untouched and ``verify_replay`` holds. Each change is
-- kept here instead, beside the actions: ``at_version`` is the game version it happened
-- at, so the export can say who played each action and who took over when.
CREATE TABLE seat_changes (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    role       TEXT    NOT NULL,
    from_user  TEXT    NOT NULL,
    to_user    TEXT    NOT NULL,
    -- Who made the change: the player who offered, a moderator, or the player handing over.
    by_user    TEXT    NOT NULL,
    how        TEXT    NOT NULL CHECK (how IN ('offer', 'reseat', 'handover')),
    at_version INTEGER NOT NULL,
    at         REAL    NOT NULL
);
-- "Is this seat no longer yours?" (a stale button, /game hand) and the export.
CREATE INDEX seat_changes_by_game ON seat_changes (game_id, from_user);

-- An offer of a seat to a named user, answered with the Accept/Decline buttons. It holds
-- only while the game stays at ``at_version`` and until ``expires_at``; a row stays
-- 'open' until it is answered or replaced, and is checked for both when answered.
CREATE TABLE seat_offers (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    role       TEXT    NOT NULL,
    from_user  TEXT    NOT NULL,
    to_user    TEXT    NOT NULL,
    at_version INTEGER NOT NULL,
    created_at REAL    NOT NULL,
    expires_at REAL    NOT NULL,
    status     TEXT    NOT NULL DEFAULT 'open'
               CHECK (status IN ('open', 'accepted', 'declined', 'withdrawn'))
);
CREATE INDEX seat_offers_by_game ON seat_offers (game_id, status);
