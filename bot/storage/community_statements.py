"""The statements of the community layer: ratings, clocks, hints, seats that change
hands, vacations and claims on time, a thread per game. Part of
``bot.storage.session.Session``."""

from __future__ import annotations

from collections.abc import Iterable

from bot.storage.queries import hot_sql
from bot.storage.rows import (
    BotEstimateRow,
    ClockRow,
    GameRow,
    RatingChangeRow,
    RatingRow,
    SeatChangeRow,
    SeatOfferRow,
    VacationRow,
    read_game,
    read_rating,
    read_seat_change,
    read_seat_offer,
)
from bot.storage.statements import Statements


class CommunityStatements(Statements):
    """Ratings, clocks, hints, seat changes, vacations, threads."""

    # ratings (migration 0012) ---------------------------------
    async def rating(self, scope: str, game_name: str, player_id: str) -> RatingRow | None:
        r = await self._one(hot_sql("ratings_of"), (scope, game_name, player_id))
        return read_rating(r) if r is not None else None

    async def save_rating(self, rating: RatingRow) -> None:
        await self._run(
            "INSERT INTO ratings (scope, game_name, player_id, mu, sigma, points,"
            " games, wins, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (scope, game_name, player_id) DO UPDATE SET mu = excluded.mu,"
            " sigma = excluded.sigma, points = excluded.points, games = excluded.games,"
            " wins = excluded.wins, updated_at = excluded.updated_at",
            (
                rating.scope,
                rating.game_name,
                rating.player_id,
                rating.mu,
                rating.sigma,
                rating.points,
                rating.games,
                rating.wins,
                self.now,
            ),
        )

    async def leaderboard(self, scope: str, game_name: str, limit: int) -> list[RatingRow]:
        rows = await self._all(hot_sql("leaderboard"), (scope, game_name, limit))
        return [read_rating(r) for r in rows]

    async def add_rating_change(self, change: RatingChangeRow) -> None:
        """Raises ``sqlite3.IntegrityError`` for a player of a seat of a game already rated."""
        await self._run(
            "INSERT INTO rating_changes (game_id, role, player_id, points_was, points_now)"
            " VALUES (?, ?, ?, ?, ?)",
            (change.game_id, change.role, change.player_id, change.points_was, change.points_now),
        )

    async def rating_changes(self, game_id: int) -> list[RatingChangeRow]:
        rows = await self._all(hot_sql("rating_changes"), (game_id,))
        return [
            RatingChangeRow(
                r["game_id"], r["role"], r["player_id"], r["points_was"], r["points_now"]
            )
            for r in rows
        ]

    async def decisions_by_role(self, game_id: int) -> dict[str, int]:
        """How many actions each role took (undos not counted)."""
        rows = await self._all(hot_sql("decisions_by_role"), (game_id,))
        return {str(r["role"]): int(r["n"]) for r in rows}

    async def decisions_by_holder(self, game_id: int) -> dict[tuple[str, str], int]:
        """How many actions each (role, user) took (undos not counted): a seat that changed
        hands has a count for each of its players."""
        rows = await self._all(hot_sql("decisions_by_holder"), (game_id,))
        return {(str(r["role"]), str(r["user_id"])): int(r["n"]) for r in rows}

    # -- clocks (migration 0014_clocks) ----------------------------
    async def set_game_clock(
        self, game_id: int, initial_s: float, increment_s: float, cap_s: float
    ) -> None:
        await self._run(
            "INSERT INTO game_clocks (game_id, initial_s, increment_s, cap_s)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
            " initial_s = excluded.initial_s, increment_s = excluded.increment_s,"
            " cap_s = excluded.cap_s",
            (game_id, initial_s, increment_s, cap_s),
        )

    async def game_clock(self, game_id: int) -> tuple[float, float, float] | None:
        """(start, increment, cap) of the game's time control, None for no clock."""
        r = await self._one(hot_sql("game_clock"), (game_id,))
        return (r["initial_s"], r["increment_s"], r["cap_s"]) if r else None

    async def clock_rows(self, game_id: int) -> list[ClockRow]:
        rows = await self._all(hot_sql("clock_rows"), (game_id,))
        return [
            ClockRow(
                r["role"],
                r["remaining_s"],
                r["running_since"],
                r["deadline"],
                r["warn_at"],
                r["flagged_at"],
            )
            for r in rows
        ]

    async def save_clocks(self, game_id: int, rows: Iterable[ClockRow]) -> None:
        for c in rows:
            await self._run(
                "INSERT INTO clocks (game_id, role, remaining_s, running_since, deadline,"
                " warn_at, flagged_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id, role) DO UPDATE SET remaining_s = excluded.remaining_s,"
                " running_since = excluded.running_since, deadline = excluded.deadline,"
                " warn_at = excluded.warn_at, flagged_at = excluded.flagged_at,"
                " claimed_by = NULL, lease_until = NULL",
                (
                    game_id,
                    c.role,
                    c.remaining_s,
                    c.running_since,
                    c.deadline,
                    c.warn_at,
                    c.flagged_at,
                ),
            )

    async def delete_clock(self, game_id: int, role: str) -> None:
        await self._run("DELETE FROM clocks WHERE game_id = ? AND role = ?", (game_id, role))

    async def expired_clocks(self, now: float, limit: int = 100) -> list[tuple[int, str]]:
        """(game, role) of the running clocks whose deadline is at or before ``now``."""
        rows = await self._all(hot_sql("expired_clocks"), (now, limit))
        return [(int(r["game_id"]), str(r["role"])) for r in rows]

    async def due_clock_warnings(self, now: float, limit: int = 100) -> list[tuple[int, str]]:
        """(game, role) of the running clocks whose next warning is due at ``now``."""
        rows = await self._all(hot_sql("due_clock_warnings"), (now, limit))
        return [(int(r["game_id"]), str(r["role"])) for r in rows]

    async def set_clock_warning(self, game_id: int, role: str, warn_at: float | None) -> None:
        await self._run(
            "UPDATE clocks SET warn_at = ? WHERE game_id = ? AND role = ?",
            (warn_at, game_id, role),
        )

    async def default_clock(self, guild_id: str) -> str | None:
        """A server's default clock for new games (None: never set)."""
        r = await self._one("SELECT clock FROM clock_defaults WHERE guild_id = ?", (guild_id,))
        return str(r[0]) if r else None

    async def set_default_clock(self, guild_id: str, clock: str) -> None:
        await self._run(
            "INSERT INTO clock_defaults (guild_id, clock) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET clock = excluded.clock",
            (guild_id, clock),
        )

    async def beat(self) -> None:
        """The bot is running at ``now`` (the heartbeat)."""
        await self._run(
            "INSERT INTO heartbeat (id, beat_at) VALUES (1, ?)"
            " ON CONFLICT (id) DO UPDATE SET beat_at = excluded.beat_at",
            (self.now,),
        )

    async def last_beat(self) -> float | None:
        r = await self._one("SELECT beat_at FROM heartbeat WHERE id = 1")
        return float(r[0]) if r else None

    async def shift_running_clocks(self, since: float) -> None:
        """Give back to every clock what it ran between ``since`` and now (the bot was
        down): all of it for one running before, the part after its start for one that
        started meanwhile, nothing for one still paused (read through the deadline index)."""
        now, down = self.now, self.now - since
        # This order: once moved on, a clock of the first kind would match the second.
        await self._run(hot_sql("shift_clocks_started_while_down"), (now, now, now, since, now))
        await self._run(hot_sql("shift_running_clocks"), (down, down, down, since))

    # -- end of clocks ------------------------------------------------------------------
    # hints (migration 0015) -----------------------------------
    async def add_hint(self, game_id: int, role: str) -> None:
        """Count one ``/game hint`` by ``role``: the game is assisted from now on."""
        await self._run(
            "INSERT INTO hints (game_id, role, count) VALUES (?, ?, 1)"
            " ON CONFLICT (game_id, role) DO UPDATE SET count = hints.count + 1",
            (game_id, role),
        )

    async def hints_used(self, game_id: int) -> int:
        """How many hints were asked in the game, by every seat together."""
        r = await self._one(hot_sql("hints_used"), (game_id,))
        return int(r["n"]) if r is not None else 0

    async def add_bot_estimate(self, row: BotEstimateRow) -> None:
        await self._run(
            "INSERT INTO bot_estimates (game_id, version, role, estimate, move)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, version) DO UPDATE SET"
            " role = excluded.role, estimate = excluded.estimate, move = excluded.move",
            (row.game_id, row.version, row.role, row.estimate, row.move),
        )

    async def drop_bot_estimate(self, game_id: int, version: int) -> None:
        await self._run(
            "DELETE FROM bot_estimates WHERE game_id = ? AND version = ?", (game_id, version)
        )

    async def name_bot_move(self, game_id: int, version: int, move: str) -> None:
        await self._run(
            "UPDATE bot_estimates SET move = ? WHERE game_id = ? AND version = ?",
            (move, game_id, version),
        )

    async def bot_estimates(self, game_id: int) -> list[BotEstimateRow]:
        """Dispatch's estimates in a game, in the order of its moves."""
        rows = await self._all(hot_sql("bot_estimates"), (game_id,))
        return [
            BotEstimateRow(r["game_id"], r["version"], r["role"], r["estimate"], r["move"])
            for r in rows
        ]

    # seats that change hands (migration 0013) -----------------
    async def set_seat_user(self, game_id: int, role: str, user_id: str, version: int) -> None:
        """The seat has a new holder: their DMs are presumed open, they asked nothing yet,
        and their prompt is fresh from ``version`` (the old holder's buttons are theirs)."""
        await self._run(
            "UPDATE seats SET user_id = ?, dm_failed = 0, abandon_requested = 0,"
            " prompt_version = ? WHERE game_id = ? AND role = ?",
            (user_id, version, game_id, role),
        )

    async def add_seat_change(
        self, game_id: int, role: str, users: tuple[str, str, str], how: str, version: int
    ) -> None:
        """``users``: (from, to, by)."""
        await self._run(
            "INSERT INTO seat_changes (game_id, role, from_user, to_user, by_user, how,"
            " at_version, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, role, *users, how, version, self.now),
        )

    async def seat_changes(self, game_id: int) -> list[SeatChangeRow]:
        return [read_seat_change(r) for r in await self._all(hot_sql("seat_changes"), (game_id,))]

    async def seat_passed(self, game_id: int, user_id: str) -> SeatChangeRow | None:
        """The last seat ``user_id`` gave up in the game, if any."""
        r = await self._one(hot_sql("seat_passed"), (game_id, user_id))
        return read_seat_change(r) if r is not None else None

    async def add_seat_offer(
        self, game_id: int, role: str, users: tuple[str, str], version: int, expires_at: float
    ) -> int:
        """``users``: (from, to). An earlier open offer of the same seat is withdrawn."""
        await self._run(
            "UPDATE seat_offers SET status = 'withdrawn'"
            " WHERE game_id = ? AND status = 'open' AND role = ?",
            (game_id, role),
        )
        return await self._insert(
            "INSERT INTO seat_offers (game_id, role, from_user, to_user, at_version,"
            " created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, role, *users, version, self.now, expires_at),
        )

    async def seat_offer(self, offer_id: int) -> SeatOfferRow | None:
        r = await self._one(hot_sql("seat_offer"), (offer_id,))
        return read_seat_offer(r) if r is not None else None

    async def open_seat_offers(self, game_id: int) -> list[SeatOfferRow]:
        return [
            read_seat_offer(r) for r in await self._all(hot_sql("open_seat_offers"), (game_id,))
        ]

    async def set_offer_status(self, offer_id: int, status: str) -> None:
        await self._run("UPDATE seat_offers SET status = ? WHERE id = ?", (status, offer_id))

    async def withdraw_seat_offers(self, game_id: int) -> None:
        """Every open offer of the game lapses (a seat changed hands)."""
        await self._run(
            "UPDATE seat_offers SET status = 'withdrawn' WHERE game_id = ? AND status = 'open'",
            (game_id,),
        )

    # end of seats that change hands ------------------------------------------------

    # vacations and claims on time (migration 0016) ------------
    async def clock_rules(self, guild_id: str) -> tuple[str, int] | None:
        """A server's (on_time, vacation_days), None when never set."""
        r = await self._one(hot_sql("clock_rules"), (guild_id,))
        return (str(r["on_time"]), int(r["vacation_days"])) if r else None

    async def set_clock_rules(self, guild_id: str, on_time: str, vacation_days: int) -> None:
        await self._run(
            "INSERT INTO clock_rules (guild_id, on_time, vacation_days) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET on_time = excluded.on_time,"
            " vacation_days = excluded.vacation_days",
            (guild_id, on_time, vacation_days),
        )

    async def vacation_days_used(self, user_id: str, scope: str, since: float) -> int:
        """Days of the vacations ``user_id`` began in ``scope`` after ``since``."""
        r = await self._one(hot_sql("vacation_days_used"), (user_id, scope, since))
        return int(r["n"]) if r else 0

    async def current_vacation(self, user_id: str, scope: str) -> VacationRow | None:
        """The vacation ``user_id`` is on in ``scope`` now, if any."""
        r = await self._one(hot_sql("current_vacation"), (user_id, scope, self.now))
        return VacationRow(**{k: r[k] for k in VacationRow.__dataclass_fields__}) if r else None

    async def add_vacation(self, row: VacationRow) -> None:
        """A vacation from now on, its end to be told at the player's tables (``back_due``)."""
        await self._run(
            "INSERT INTO vacations (user_id, scope, starts_at, ends_at, days, back_due)"
            " VALUES (?, ?, ?, ?, ?, 1)",
            (row.user_id, row.scope, row.starts_at, row.ends_at, row.days),
        )

    async def cut_vacation(self, row: VacationRow, ends_at: float, days: int) -> None:
        """End ``row`` early at ``ends_at``; it counts ``days`` from now on. Its end is told
        by whoever ends it, so it is no longer due to the background pass."""
        await self._run(
            "UPDATE vacations SET ends_at = ?, days = ?, back_due = 0"
            " WHERE user_id = ? AND scope = ? AND starts_at = ?",
            (ends_at, days, row.user_id, row.scope, row.starts_at),
        )

    async def vacations_back_due(self) -> list[VacationRow]:
        """Vacations that ran to their end by now and whose end is not told yet, the
        earliest end first (at most 50 a pass), from the index of the due ones."""
        rows = await self._all(hot_sql("vacations_back_due"), (self.now,))
        return [VacationRow(**{k: r[k] for k in VacationRow.__dataclass_fields__}) for r in rows]

    async def claim_vacation_back(self, row: VacationRow) -> bool:
        """Take the telling of ``row``'s end: True for the one transaction that takes it
        (of several processes' passes, the others find it taken)."""
        taken = await self._all(
            "UPDATE vacations SET back_due = 0"
            " WHERE user_id = ? AND scope = ? AND starts_at = ? AND back_due = 1"
            " RETURNING 1",
            (row.user_id, row.scope, row.starts_at),
        )
        return bool(taken)

    async def clocked_seats_of(self, user_id: str, scope: str) -> list[tuple[int, str]]:
        """(game, role) of each clocked seat ``user_id`` holds in a running game of
        ``scope`` (a server's id, '' for games outside one)."""
        rows = await self._all(hot_sql("clocked_seats_of"), (user_id, scope))
        return [(int(r["game_id"]), str(r["role"])) for r in rows]

    # end of vacations and claims on time -------------------------------------------

    # -- a thread per game ------------------------------------
    async def threads_setting(self, guild_id: str) -> bool | None:
        """Whether ``/game new`` opens a thread per game on this server (None: never set)."""
        r = await self._one("SELECT threads FROM thread_settings WHERE guild_id = ?", (guild_id,))
        return bool(r[0]) if r else None

    async def set_threads_setting(self, guild_id: str, on: bool) -> None:
        await self._run(
            "INSERT INTO thread_settings (guild_id, threads) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET threads = excluded.threads",
            (guild_id, int(on)),
        )

    async def set_game_lobby(self, game_id: int, channel_id: str, message_id: str | None) -> None:
        """The game's lobby post is ``message_id`` in ``channel_id`` (the thread's parent)."""
        await self._run(
            "INSERT INTO game_lobbies (game_id, channel_id, message_id) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET channel_id = excluded.channel_id,"
            " message_id = excluded.message_id",
            (game_id, channel_id, message_id),
        )

    async def game_lobby(self, game_id: int) -> tuple[str, str | None] | None:
        """(channel, message) of the game's lobby post in a parent channel, if it has one."""
        r = await self._one(
            "SELECT channel_id, message_id FROM game_lobbies WHERE game_id = ?", (game_id,)
        )
        return (str(r[0]), str(r[1]) if r[1] is not None else None) if r else None

    async def live_games_from(self, channel_id: str) -> list[GameRow]:
        """The games being set up or played whose lobby is in ``channel_id`` (they live
        in threads of it), oldest first."""
        rows = await self._all(
            "SELECT games.* FROM game_lobbies JOIN games ON games.id = game_lobbies.game_id"
            " WHERE game_lobbies.channel_id = ? AND games.status IN ('lobby', 'active')"
            " ORDER BY games.id LIMIT 25",
            (channel_id,),
        )
        return [read_game(r) for r in rows]

    async def move_game(self, game_id: int, channel_id: str) -> None:
        """The game is played in ``channel_id`` from now on; its table posts that waited
        for the old channel (parked) are due again, now."""
        await self._run(
            "UPDATE games SET channel_id = ?, updated_at = ? WHERE id = ?",
            (channel_id, self.now, game_id),
        )
        await self._run(
            "UPDATE outbox SET next_attempt_at = ?, last_error = NULL"
            " WHERE game_id = ? AND kind = 'table' AND delivered_at IS NULL",
            (self.now, game_id),
        )

    # -- a hint still for the decision it was asked for (hint_desk) -----------
    async def acted_since(self, game_id: int, role: str, version: int) -> bool:
        """Whether ``role`` took an action after ``version`` (the actions' primary key:
        the game's actions from that version on)."""
        row = await self._one(
            "SELECT 1 FROM actions WHERE game_id = ? AND seq > ? AND role = ? LIMIT 1",
            (game_id, version, role),
        )
        return row is not None
