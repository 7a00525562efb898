"""A store as a busy server leaves it after years: 10,000 finished games (and some live
ones) written in a few statements of portable SQL, for the query-plan tests and the
history bench on either engine.

The rows are made by set-based INSERT ... SELECT over a counting CTE (no game is played,
so it takes seconds, not hours); they are shaped like real play where the plans care:
one server holds every game, one regular player sits in a tenth of them, Dispatch at
normal in half, each game has eight actions, four delivered outbox rows, a result,
clocks (stopped once the game ended), rating changes and Dispatch's finished jobs, while
the live games have running clocks, reminders, pending jobs and a few undelivered rows.
The states are empty objects: the rows serve the queries, not a replay.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.store import Store
from bot.tables.bot_users import bot_user

#: When the first game was made (epoch seconds); games follow ten minutes apart.
T0 = 1_600_000_000.0
#: The server every game is on, the player in a tenth of them, and Dispatch's user.
SERVER = "bench"
PLAYER = "regular"
DISPATCH = bot_user("normal")


@dataclass(frozen=True)
class Shape:
    finished: int = 10_000
    #: Games being played: a few hundred at a time on a server with years of them.
    live: int = 300

    @property
    def games(self) -> int:
        return self.finished + self.live

    @property
    def now(self) -> float:
        """A moment after the last game started: a few live clocks and timers are due."""
        return T0 + self.games * 600.0 + 600.0


def _series(name: str, upto: int) -> str:
    return (
        f"WITH RECURSIVE {name}(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM {name}"
        f" WHERE i < {int(upto)}) "
    )


def statements(shape: Shape) -> list[str]:
    """The INSERTs, in order; portable SQL (SQLite and PostgreSQL alike)."""
    n, games, now = shape.finished, shape.games, shape.now
    finished = f"g.id <= {n}"
    return [
        _series("n", games) + "INSERT INTO games (id, guild_id, channel_id, game_name, options,"
        " seed, status, state, version, creator_id, hotseat, active_roles, posted_log,"
        " created_at, updated_at, turn_started_at)"
        f" SELECT i, '{SERVER}', 'c' || i,"
        " CASE i % 3 WHEN 0 THEN 'war' WHEN 1 THEN 'fort_sumter' ELSE 'lincoln' END,"
        f" '{{}}', i, CASE WHEN i <= {n} THEN 'finished' ELSE 'active' END, '{{}}', 12,"
        f" 'p' || (i % 2000), 0, CASE WHEN i <= {n} THEN '[]' ELSE '[\"north\"]' END, 0,"
        f" {T0} + i * 600.0, {T0} + i * 600.0 + 3600.0, {T0} + i * 600.0 + 3600.0 FROM n",
        # North: the regular player in every tenth game, else one of 2,000 players; south:
        # Dispatch in the odd games, else one of 500 players.
        "INSERT INTO seats (game_id, role, user_id, joined_at)"
        f" SELECT id, 'north', CASE WHEN id % 10 = 0 THEN '{PLAYER}' ELSE 'p' || (id % 2000)"
        " END, created_at FROM games",
        "INSERT INTO seats (game_id, role, user_id, joined_at)"
        f" SELECT id, 'south', CASE WHEN id % 2 = 1 THEN '{DISPATCH}' ELSE 'q' || (id % 500)"
        " END, created_at FROM games",
        _series("k", 8) + "INSERT INTO actions (game_id, seq, role, user_id, verb, arg, at)"
        " SELECT s.game_id, k.i, s.role, s.user_id, 'play', '\"x\"', g.created_at + k.i * 300.0"
        " FROM k JOIN seats s ON s.role = CASE WHEN k.i % 2 = 1 THEN 'north' ELSE 'south' END"
        " JOIN games g ON g.id = s.game_id",
        "INSERT INTO results (game_id, winner, reason, score, finished_at, code)"
        " SELECT id, CASE WHEN id % 3 = 0 THEN 'south' ELSE 'north' END, 'won', '{}',"
        " updated_at, 'victory' FROM games g WHERE " + finished,
        # Delivered rows keep no payload; six a game.
        _series("k", 4) + "INSERT INTO outbox (game_id, kind, target, payload, created_at,"
        " delivered_at, attempts, next_attempt_at)"
        " SELECT g.id, CASE WHEN k.i % 2 = 1 THEN 'table' ELSE 'private' END,"
        " CASE WHEN k.i % 2 = 1 THEN NULL ELSE 'north' END, '', g.created_at + k.i * 300.0,"
        " g.created_at + k.i * 300.0 + 1.0, 1, g.created_at + k.i * 300.0 FROM k, games g",
        "INSERT INTO outbox (game_id, kind, target, payload, created_at, attempts,"
        " next_attempt_at)"
        " SELECT id, 'table', NULL, '', updated_at, 0, updated_at FROM games"
        f" WHERE id > {n} AND id % 50 = 0",
        "INSERT INTO outbox_payloads (outbox_id, payload)"
        " SELECT id, '{}' FROM outbox WHERE delivered_at IS NULL",
        "INSERT INTO game_clocks (game_id, initial_s, increment_s, cap_s)"
        " SELECT id, 259200.0, 86400.0, 604800.0 FROM games",
        "INSERT INTO clocks (game_id, role, remaining_s, running_since, deadline, warn_at)"
        " SELECT game_id, role, 100000.0,"
        f" CASE WHEN game_id > {n} AND role = 'north' THEN {now} - 3600.0 END,"
        f" CASE WHEN game_id > {n} AND role = 'north' THEN {now} + (game_id - {n}) * 600.0"
        " - 3000.0 END,"
        f" CASE WHEN game_id > {n} AND role = 'north' THEN {now} + (game_id - {n}) * 600.0"
        " - 10200.0 END FROM seats WHERE user_id <> '" + DISPATCH + "'",
        "INSERT INTO timers (game_id, kind, role, user_id, due_at, interval_s)"
        f" SELECT s.game_id, 'reminder', s.role, s.user_id, {now} + (g.id - {n}) * 60.0 - 600.0,"
        " 86400.0"
        f" FROM seats s JOIN games g ON g.id = s.game_id WHERE g.id > {n}",
        "INSERT INTO live_prompts (game_id, user_id, channel_id, message_id)"
        f" SELECT game_id, user_id, 'dm-' || user_id, 'm' || game_id FROM seats"
        f" WHERE game_id > {n} AND user_id <> '{DISPATCH}'",
        "INSERT INTO game_lobbies (game_id, channel_id, message_id)"
        " SELECT id, 'lobby' || (id % 20), 'm' || id FROM games",
        "INSERT INTO channel_settings (channel_id, guild_id, reminder_hours)"
        f" SELECT 'c' || id, '{SERVER}', 24 FROM games WHERE id % 5 = 0",
        "INSERT INTO rating_changes (game_id, role, player_id, points_was, points_now)"
        " SELECT s.game_id, s.role, s.user_id, 1500.0, 1510.0 FROM seats s"
        f" WHERE s.game_id <= {n}",
        "INSERT INTO ratings (scope, game_name, player_id, mu, sigma, points, games, wins,"
        " updated_at) SELECT g.guild_id, g.game_name, s.user_id, 25.0, 4.0,"
        " 1500.0 + MAX(g.id % 700), COUNT(*), 0, MAX(g.updated_at)"
        " FROM seats s JOIN games g ON g.id = s.game_id"
        " GROUP BY g.guild_id, g.game_name, s.user_id",
        _series("k", 3) + "INSERT INTO vacations (user_id, scope, starts_at, ends_at, days)"
        f" SELECT 'p' || (g.id % 2000), '{SERVER}', g.created_at + k.i, g.created_at + k.i"
        f" + 86400.0, 1 FROM k, games g WHERE g.id <= 2000",
        "INSERT INTO seat_changes (game_id, role, from_user, to_user, by_user, how,"
        " at_version, at) SELECT id, 'north', CASE WHEN id % 400 = 5 THEN"
        f" '{PLAYER}' ELSE 'r' || (id % 300) END, 'p' || (id % 2000), 'p' || (id % 2000),"
        f" 'offer', 3, created_at + 900.0 FROM games WHERE id % 10 = 5",
        "INSERT INTO seat_offers (game_id, role, from_user, to_user, at_version, created_at,"
        " expires_at, status) SELECT id, 'north', 'p' || (id % 2000), 'r' || (id % 300), 3,"
        f" created_at, created_at + 86400.0, CASE WHEN id > {n} THEN 'open' ELSE 'declined'"
        " END FROM games WHERE id % 10 = 7",
        _series("k", 6) + "INSERT INTO bot_jobs (game_id, role, version, level, status,"
        " attempts, created_at, finished_at) SELECT g.id, 'south', 2 * k.i, 'normal', 'done', 1,"
        " g.created_at + k.i * 600.0, g.created_at + k.i * 600.0 + 3.0 FROM k, games g"
        f" WHERE g.id % 2 = 1 AND g.id <= {n}",
        "INSERT INTO bot_jobs (game_id, role, version, level, status, attempts, created_at)"
        " SELECT id, 'south', 13, 'normal', 'pending', 0, updated_at FROM games"
        f" WHERE id > {n} AND id % 2 = 1 AND id % 20 = 1",
        "INSERT INTO bot_estimates (game_id, version, role, estimate, move)"
        " SELECT game_id, version, role, 0.5, 'a move' FROM bot_jobs WHERE status = 'done'",
        "INSERT INTO hints (game_id, role, count) SELECT id, 'north', 1 FROM games"
        " WHERE id % 7 = 0",
        # Other servers' rules beside this one's.
        "INSERT INTO clock_rules (guild_id, on_time, vacation_days)"
        f" SELECT CASE WHEN id = 1 THEN '{SERVER}' ELSE 's' || id END, 'claim', 14 FROM games"
        " WHERE id <= 2000",
    ]


#: The tables whose ids the fill writes, and PostgreSQL's identity sequences to move on.
IDENTITIES = ("games", "outbox", "timers", "seat_changes", "seat_offers")


async def fill(store: Store, shape: Shape = Shape()) -> None:
    """Write ``shape``'s games into an empty, migrated store; ANALYZE it."""
    async with store.transaction() as db:
        for sql in statements(shape):
            await db._run(sql)
        if store.dialect == "postgresql":
            for table in IDENTITIES:
                await db._run(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                    f" (SELECT MAX(id) FROM {table}))"
                )
    async with store.write() as db:
        await db._run("ANALYZE")
