"""The statements of leagues and tournaments (migration 0026, ``db.leagues`` of a
session): leagues, entrants, rounds, league games, byes, the audit list, the posts a
league owes its channel, and each server's league role."""

from __future__ import annotations

from bot.storage.league_rows import (
    ENTRANT_COLUMNS,
    GAME_COLUMNS,
    LEAGUE_COLUMNS,
    ROUND_COLUMNS,
    LeagueAuditRow,
    LeagueEntrantRow,
    LeagueGameRow,
    LeaguePostRow,
    LeagueRoundRow,
    LeagueRow,
    NewLeagueRow,
    read_audit,
    read_entrant,
    read_league,
    read_league_game,
    read_post,
    read_round,
)
from bot.storage.statements.base import Statements


class LeagueStatements(Statements):
    """Leagues, their entrants, rounds, games, byes, audit list and posts."""

    __slots__ = ()

    # -- the league --------------------------------------------------------------------

    async def insert_league(self, new: NewLeagueRow) -> int:
        return await self._insert(
            "INSERT INTO leagues (guild_id, channel_id, name, game_name, format, rounds,"
            " games_per_tie, clock, entry_days, round_days, rated, cap, dispatch_may_enter,"
            " created_by, created_at, entry_deadline)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                new.guild_id,
                new.channel_id,
                new.name,
                new.game_name,
                new.format,
                new.rounds,
                new.games_per_tie,
                new.clock,
                new.entry_days,
                new.round_days,
                int(new.rated),
                new.cap,
                int(new.dispatch_may_enter),
                new.created_by,
                self.now,
                new.entry_deadline,
            ),
        )

    async def league(self, league_id: int) -> LeagueRow | None:
        r = await self._one(f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE id = ?", (league_id,))
        return read_league(r) if r is not None else None

    async def lock_league(self, league_id: int) -> LeagueRow | None:
        """Take the league's lock and read it: the UPDATE holds its row on PostgreSQL (and
        SQLite's one writer holds everything) until the transaction ends, so every
        transaction that records a result or pairs a round runs one at a time."""
        r = await self._one(
            f"UPDATE leagues SET version = version + 1 WHERE id = ? RETURNING {LEAGUE_COLUMNS}",
            (league_id,),
        )
        return read_league(r) if r is not None else None

    async def leagues_of_guild(self, guild_id: str, limit: int) -> list[LeagueRow]:
        """A server's leagues, newest first."""
        rows = await self._all(
            f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE guild_id = ? ORDER BY id DESC LIMIT ?",
            (guild_id, limit),
        )
        return [read_league(r) for r in rows]

    async def set_status(self, league_id: int, status: str) -> None:
        await self._run("UPDATE leagues SET status = ? WHERE id = ?", (status, league_id))

    async def set_round_number(self, league_id: int, number: int) -> None:
        await self._run("UPDATE leagues SET round_number = ? WHERE id = ?", (number, league_id))

    async def set_lobby_message(self, league_id: int, message_id: str) -> None:
        await self._run(
            "UPDATE leagues SET lobby_message_id = ? WHERE id = ?", (message_id, league_id)
        )

    async def entry_closed(self, now: float) -> list[int]:
        """The leagues still taking entries whose deadline has passed."""
        rows = await self._all(
            "SELECT id FROM leagues WHERE status = 'entry' AND entry_deadline <= ? ORDER BY id",
            (now,),
        )
        return [int(r[0]) for r in rows]

    # -- entrants ----------------------------------------------------------------------

    async def entrants(self, league_id: int) -> list[LeagueEntrantRow]:
        """In entry order (``place``)."""
        rows = await self._all(
            f"SELECT {ENTRANT_COLUMNS} FROM league_entrants WHERE league_id = ? ORDER BY place",
            (league_id,),
        )
        return [read_entrant(r) for r in rows]

    async def add_entrant(self, league_id: int, player: str, rating: float) -> None:
        """The next place in entry order (the caller holds the league's lock)."""
        await self._run(
            "INSERT INTO league_entrants (league_id, player, rating, place, joined_at)"
            " VALUES (?, ?, ?, (SELECT COALESCE(MAX(place), 0) + 1 FROM league_entrants"
            " WHERE league_id = ?), ?)",
            (league_id, player, rating, league_id, self.now),
        )

    async def remove_entrant(self, league_id: int, player: str) -> None:
        await self._run(
            "DELETE FROM league_entrants WHERE league_id = ? AND player = ?", (league_id, player)
        )

    async def set_entrant_status(self, league_id: int, player: str, status: str) -> None:
        await self._run(
            "UPDATE league_entrants SET status = ? WHERE league_id = ? AND player = ?",
            (status, league_id, player),
        )

    async def set_place(self, league_id: int, player: str, place: int) -> None:
        await self._run(
            "UPDATE league_entrants SET place = ? WHERE league_id = ? AND player = ?",
            (place, league_id, player),
        )

    async def rename_player(self, league_id: int, old: str, new: str) -> None:
        """``new`` takes ``old``'s place everywhere in the league: entry, games, byes."""
        await self._run(
            "UPDATE league_entrants SET player = ? WHERE league_id = ? AND player = ?",
            (new, league_id, old),
        )
        await self._run(
            "UPDATE league_games SET first_player = ? WHERE league_id = ? AND first_player = ?",
            (new, league_id, old),
        )
        await self._run(
            "UPDATE league_games SET second_player = ? WHERE league_id = ? AND second_player = ?",
            (new, league_id, old),
        )
        await self._run(
            "UPDATE league_byes SET player = ? WHERE league_id = ? AND player = ?",
            (new, league_id, old),
        )

    # -- rounds, games, byes -----------------------------------------------------------

    async def add_round(self, league_id: int, number: int, deadline_at: float) -> None:
        await self._run(
            "INSERT INTO league_rounds (league_id, number, started_at, deadline_at)"
            " VALUES (?, ?, ?, ?)",
            (league_id, number, self.now, deadline_at),
        )

    async def rounds(self, league_id: int) -> list[LeagueRoundRow]:
        rows = await self._all(
            f"SELECT {ROUND_COLUMNS} FROM league_rounds WHERE league_id = ? ORDER BY number",
            (league_id,),
        )
        return [read_round(r) for r in rows]

    async def close_round(self, league_id: int, number: int) -> bool:
        """Mark the round done; False when it already was (it advances once)."""
        r = await self._one(
            "UPDATE league_rounds SET status = 'done'"
            " WHERE league_id = ? AND number = ? AND status = 'open' RETURNING number",
            (league_id, number),
        )
        return r is not None

    async def rounds_past_deadline(self, now: float) -> list[tuple[int, int]]:
        """(league, round) of every open round whose deadline has passed."""
        rows = await self._all(
            "SELECT league_id, number FROM league_rounds WHERE status = 'open'"
            " AND deadline_at <= ? ORDER BY deadline_at",
            (now,),
        )
        return [(int(r[0]), int(r[1])) for r in rows]

    async def add_game(
        self, league_id: int, number: int, board: int, players: tuple[str, str]
    ) -> None:
        await self._run(
            "INSERT INTO league_games (league_id, round, board, first_player, second_player)"
            " VALUES (?, ?, ?, ?, ?)",
            (league_id, number, board, *players),
        )

    async def games(self, league_id: int) -> list[LeagueGameRow]:
        """Every game of the league, round by round, board by board."""
        rows = await self._all(
            f"SELECT {GAME_COLUMNS} FROM league_games WHERE league_id = ? ORDER BY round, board",
            (league_id,),
        )
        return [read_league_game(r) for r in rows]

    async def games_of_round(self, league_id: int, number: int) -> list[LeagueGameRow]:
        rows = await self._all(
            f"SELECT {GAME_COLUMNS} FROM league_games WHERE league_id = ? AND round = ?"
            " ORDER BY board",
            (league_id, number),
        )
        return [read_league_game(r) for r in rows]

    async def game_of(self, game_id: int) -> LeagueGameRow | None:
        """The league game played as game ``game_id``, if it is one."""
        r = await self._one(
            f"SELECT {GAME_COLUMNS} FROM league_games WHERE game_id = ?", (game_id,)
        )
        return read_league_game(r) if r is not None else None

    async def in_unrated_league(self, game_id: int) -> bool:
        """Whether game ``game_id`` is a game of an unrated league (it is not rated)."""
        r = await self._one(
            "SELECT 1 FROM league_games JOIN leagues ON leagues.id = league_games.league_id"
            " WHERE league_games.game_id = ? AND leagues.rated = 0",
            (game_id,),
        )
        return r is not None

    async def board(self, league_id: int, number: int, board: int) -> LeagueGameRow | None:
        r = await self._one(
            f"SELECT {GAME_COLUMNS} FROM league_games WHERE league_id = ? AND round = ?"
            " AND board = ?",
            (league_id, number, board),
        )
        return read_league_game(r) if r is not None else None

    async def set_outcome(self, row_id: int, outcome: str, decided_by: str | None) -> bool:
        """Record a league game's result; False when it already had one (one result)."""
        r = await self._one(
            "UPDATE league_games SET outcome = ?, decided_by = ?"
            " WHERE id = ? AND outcome IS NULL RETURNING id",
            (outcome, decided_by, row_id),
        )
        return r is not None

    async def claim_unopened(self, owner: str, lease_s: float, limit: int) -> list[LeagueGameRow]:
        """Claim league games paired but not opened that no live lease holds (a process
        opening one holds it, so no two open the same one)."""
        rows = await self._all(
            "UPDATE league_games SET claimed_by = ?, lease_until = ?"
            " WHERE id IN (SELECT id FROM league_games WHERE game_id IS NULL"
            " AND outcome IS NULL AND (lease_until IS NULL OR lease_until <= ?)"
            " AND league_id IN (SELECT id FROM leagues WHERE status = 'running')"
            f" ORDER BY id LIMIT ?{self._skip_locked()}) RETURNING {GAME_COLUMNS}",
            (owner, self.now + lease_s, self.now, limit),
        )
        return sorted((read_league_game(r) for r in rows), key=lambda g: g.id)

    async def set_table(self, row_id: int, channel_id: str) -> None:
        """Where the game is played, once its thread is open (kept, so a retry after a
        crash opens the game in the same thread, never a second one)."""
        await self._run(
            "UPDATE league_games SET channel_id = ? WHERE id = ? AND channel_id IS NULL",
            (channel_id, row_id),
        )

    async def link_game(self, row_id: int, game_id: int) -> bool:
        """The game of a pairing, set once: False when it has a game or a result already."""
        r = await self._one(
            "UPDATE league_games SET game_id = ?, claimed_by = NULL, lease_until = NULL"
            " WHERE id = ? AND game_id IS NULL AND outcome IS NULL RETURNING id",
            (game_id, row_id),
        )
        return r is not None

    async def release_claim(self, row_id: int, owner: str) -> None:
        await self._run(
            "UPDATE league_games SET claimed_by = NULL, lease_until = NULL"
            " WHERE id = ? AND claimed_by = ?",
            (row_id, owner),
        )

    async def add_bye(self, league_id: int, number: int, player: str) -> None:
        await self._run(
            "INSERT INTO league_byes (league_id, round, player) VALUES (?, ?, ?)",
            (league_id, number, player),
        )

    async def byes(self, league_id: int) -> list[tuple[int, str]]:
        """(round, player) of every bye, round by round."""
        rows = await self._all(
            "SELECT round, player FROM league_byes WHERE league_id = ? ORDER BY round, player",
            (league_id,),
        )
        return [(int(r[0]), str(r[1])) for r in rows]

    # -- the audit list ----------------------------------------------------------------

    async def audit(self, league_id: int, by_user: str, what: str, detail: str = "") -> None:
        await self._run(
            "INSERT INTO league_audit (league_id, at, by_user, what, detail)"
            " VALUES (?, ?, ?, ?, ?)",
            (league_id, self.now, by_user, what, detail),
        )

    async def audit_list(self, league_id: int) -> list[LeagueAuditRow]:
        rows = await self._all(
            "SELECT at, by_user, what, detail FROM league_audit WHERE league_id = ? ORDER BY id",
            (league_id,),
        )
        return [read_audit(r) for r in rows]

    # -- the league's posts ------------------------------------------------------------

    async def queue_post(self, league_id: int, payload: str) -> None:
        await self._run(
            "INSERT INTO league_posts (league_id, payload, created_at, next_try_at)"
            " VALUES (?, ?, ?, ?)",
            (league_id, payload, self.now, self.now),
        )

    async def claim_posts(self, owner: str, lease_s: float, limit: int) -> list[LeaguePostRow]:
        """Claim the posts due that no live lease holds, oldest first."""
        rows = await self._all(
            "UPDATE league_posts SET claimed_by = ?, lease_until = ?"
            " WHERE id IN (SELECT id FROM league_posts WHERE delivered_at IS NULL"
            " AND next_try_at <= ? AND (lease_until IS NULL OR lease_until <= ?)"
            f" ORDER BY id LIMIT ?{self._skip_locked()})"
            " RETURNING id, league_id, payload, attempts",
            (owner, self.now + lease_s, self.now, self.now, limit),
        )
        return sorted((read_post(r) for r in rows), key=lambda p: p.id)

    async def post_delivered(self, post_id: int) -> None:
        await self._run(
            "UPDATE league_posts SET delivered_at = ?, claimed_by = NULL, lease_until = NULL"
            " WHERE id = ?",
            (self.now, post_id),
        )

    async def post_later(self, post_id: int, next_try_at: float, *, failed: bool) -> None:
        """Try ``post_id`` again at ``next_try_at`` (``failed``: an attempt counted)."""
        counted = ", attempts = attempts + 1" if failed else ""
        await self._run(
            "UPDATE league_posts SET next_try_at = ?, claimed_by = NULL,"
            f" lease_until = NULL{counted} WHERE id = ?",
            (next_try_at, post_id),
        )

    # -- the server's league role ------------------------------------------------------

    async def league_role(self, guild_id: str) -> str | None:
        r = await self._one("SELECT role_id FROM league_roles WHERE guild_id = ?", (guild_id,))
        return str(r[0]) if r is not None else None

    async def set_league_role(self, guild_id: str, role_id: str | None) -> None:
        await self._run("DELETE FROM league_roles WHERE guild_id = ?", (guild_id,))
        if role_id is not None:
            await self._run(
                "INSERT INTO league_roles (guild_id, role_id) VALUES (?, ?)", (guild_id, role_id)
            )

    async def saved_standings(self, league_id: int, version: int) -> str | None:
        """The standings ranked at ``version`` of the league, if they were kept."""
        r = await self._one(
            "SELECT lines FROM league_standings WHERE league_id = ? AND version = ?",
            (league_id, version),
        )
        return str(r[0]) if r is not None else None

    async def save_standings(self, league_id: int, version: int, lines: str) -> None:
        """Keep the standings ranked at ``version`` (never over a later version's)."""
        await self._run(
            "INSERT INTO league_standings (league_id, version, lines) VALUES (?, ?, ?)"
            " ON CONFLICT (league_id) DO UPDATE SET version = excluded.version,"
            " lines = excluded.lines WHERE league_standings.version < excluded.version",
            (league_id, version, lines),
        )

    async def standings_rows(
        self, league_id: int
    ) -> tuple[list[LeagueEntrantRow], list[LeagueGameRow], list[tuple[int, str]]]:
        """What the standings are ranked from: entrants, games, byes."""
        return (
            await self.entrants(league_id),
            await self.games(league_id),
            await self.byes(league_id),
        )
