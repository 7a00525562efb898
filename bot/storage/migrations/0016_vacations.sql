-- Vacations and the claim of a win on time.
--
-- ``clocks.flagged_at``: on a server whose clocks are claimed (``on_time`` 'claim'),
-- when a player's clock ran out and their opponent was offered the Claim the win button.
-- A flagged clock has no deadline (it leaves the ``clocks_deadline`` index, so the
-- expiry pass meets it once), shows nothing left, and gains no time until the game ends.
ALTER TABLE clocks ADD COLUMN flagged_at DOUBLE PRECISION;

-- A server's rules for clocks: what happens at zero ('lose': the game ends, 'claim': the
-- opponent may claim the win) and the vacation days each player has a rolling year
-- (0: no vacations). A server without a row: 'lose' and 14 days.
CREATE TABLE clock_rules (
    guild_id      TEXT    PRIMARY KEY,
    on_time       TEXT    NOT NULL DEFAULT 'lose' CHECK (on_time IN ('lose', 'claim')),
    vacation_days INTEGER NOT NULL DEFAULT 14
);

-- Each vacation a player took (``/game vacation days:``): it pauses every clock of theirs
-- in the games of ``scope`` (the server; '' for games outside one) from ``starts_at``
-- to ``ends_at``; ``days`` are the days it counts against the allowance (cut down to the
-- whole days used when it is ended early). The primary key answers both questions asked
-- of it, "days used this year" and "is this player on vacation", for one player.
CREATE TABLE vacations (
    user_id   TEXT             NOT NULL,
    scope     TEXT             NOT NULL,
    starts_at DOUBLE PRECISION NOT NULL,
    ends_at   DOUBLE PRECISION NOT NULL,
    days      INTEGER          NOT NULL,
    PRIMARY KEY (user_id, scope, starts_at)
);

-- History counts passed seats: a player who passed their seat still
-- finds the game among their finished games (``/games``), a page at a time, from this
-- index, as their seats come from ``seats_by_user``.
CREATE INDEX seat_changes_by_passer ON seat_changes (from_user, game_id);
