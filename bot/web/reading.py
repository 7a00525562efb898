"""What the page reads of a game: only what anyone watching may see.

Every view taken here is ``view(state, None)``: of the game as it stands before any
decision its player may still take back (``settled_public_view``: a card played and
taken back before the turn passed is never shown), and the step-through's
``public_turns``, the same public views a replay GIF is drawn from. No
hand, seat's private log, seed, key or player setting is read into what a page is drawn
from: a ``PublicGame`` holds the public view, the public log, whose turn it is by side
and the clocks by side (players are never named: a page is for anyone with the link).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import render
from bot.delivery.notices import public_log, result_line, role_name
from bot.storage.errors import Damaged
from bot.storage.rows import GameRow, ResultRow
from bot.storage.store import Store
from bot.tables.clocks import clock_pass
from bot.tables.loading import rules_or_none, settled_public_view
from bot.tables.records.replay import WATCHABLE, export_game
from bot.tables.records.replay_movie import public_turns

#: The most log lines a live page shows (the latest); the step-through shows each turn's.
LOG_LINES = 200


@dataclass(frozen=True)
class PublicGame:
    """A game as anyone watching may see it, at one version."""

    id: int
    game_name: str
    title: str
    status: str
    version: int
    guild_id: str | None
    view: dict[str, Any]
    log: tuple[str, ...]
    #: Who owes a decision, by side ("Union"), or what the game waits for.
    turn: str
    clocks: tuple[str, ...]
    has_board: bool

    @property
    def over(self) -> bool:
        return self.status in WATCHABLE

    @property
    def alt(self) -> str:
        """The board's alt text: the turn's own words, its latest public log line."""
        latest = self.log[-1] if self.log else "the set-up"
        return f"{self.title}, game #{self.id}, the board after: {latest}"


def turn_words(
    row: GameRow, view: dict[str, Any], active: tuple[str, ...], result: ResultRow | None
) -> str:
    game = rules_or_none(row.game_name)
    if row.status == "lobby":
        return "Waiting for players to join."
    if row.status == "finished":
        # The recorded result: a resignation or a loss on time is not in the rules' view.
        outcome = view.get("outcome")
        if result is not None:
            outcome = {"winner": result.winner, "reason": result.reason}
        return result_line(game, outcome) if isinstance(outcome, dict) else "Game over."
    if row.status != "active":
        return "The game was abandoned, without a result."
    if not active:
        return "Nobody owes a decision just now."
    sides = " and ".join(role_name(game, role) for role in active)
    return f"{sides} to play."


async def read_public(store: Store, game_id: int) -> PublicGame | None:
    """The game as anyone may see it now; None when there is no such game or its record
    cannot be read (the page then answers as for a link that does not open)."""
    async with store.read() as db:
        row = await db.game(game_id)
        if row is None:
            return None
        seats = await db.seats(row.id)
        clock_rows = await db.clocks.clock_rows(row.id) if row.status == "active" else []
        away = await clock_pass.away(db, row, seats) if clock_rows else {}
        result = await db.records.result(row.id) if row.status == "finished" else None
    try:
        # A lobby has no deal yet: nothing to draw, its page says it waits for players.
        # A decision its player may still take back is not shown until it stands.
        view = {} if row.status == "lobby" else settled_public_view(row)
    except Damaged:
        return None
    active = tuple(row.active_roles) if row.status == "active" else ()
    clocks = clock_pass.lines_for(clock_rows, seats, store.clock(), plain=True, away_until=away)
    game = rules_or_none(row.game_name)
    return PublicGame(
        id=row.id,
        game_name=row.game_name,
        title=(game.title if game else row.game_name) or row.game_name,
        status=row.status,
        version=row.version,
        guild_id=row.guild_id,
        view=view,
        log=tuple(public_log(view)[-LOG_LINES:]),
        turn=turn_words(row, view, active, result),
        clocks=tuple(clocks),
        has_board=bool(game and game.renderer is not None and row.status != "lobby"),
    )


@dataclass(frozen=True)
class Turns:
    """A finished game's public views, after the set-up and after each turn."""

    game_id: int
    game_name: str
    views: tuple[dict[str, Any], ...]

    def log_at(self, step: int) -> list[str]:
        return public_log(self.views[step])


class TurnsCache:
    """The step-through's views of finished games (which never change), replayed off the
    event loop once and kept for the few games being watched."""

    def __init__(self, keep: int = 8) -> None:
        self.keep = keep
        self._turns: OrderedDict[int, Turns] = OrderedDict()
        self._lock = asyncio.Lock()

    async def turns(self, store: Store, game: PublicGame) -> Turns | None:
        if not game.over:
            return None
        async with self._lock:
            found = self._turns.get(game.id)
            if found is None:
                found = await _replayed(store, game)
                self._turns[game.id] = found
                while len(self._turns) > self.keep:
                    self._turns.popitem(last=False)
            self._turns.move_to_end(game.id)
            return found


async def _replayed(store: Store, game: PublicGame) -> Turns:
    # The export (with its seed or key) stays inside this function: only the public
    # views replayed from it are kept.
    data = await export_game(store, game.id)
    views, _ = await asyncio.to_thread(public_turns, data)
    return Turns(game.id, game.game_name, tuple(views))


class Boards:
    """Board PNGs drawn from public views, off the event loop, the latest few kept (a
    page's spectators all ask for the same board after a turn: it is drawn once)."""

    def __init__(self, keep: int = 32) -> None:
        self.keep = keep
        self._png: OrderedDict[tuple[int, str], bytes] = OrderedDict()
        # One drawing at a time: the machine's cores are the bot's first.
        self._lock = asyncio.Lock()

    async def png(self, key: tuple[int, str], game_name: str, view: dict[str, Any]) -> bytes:
        async with self._lock:
            found = self._png.get(key)
            if found is None:
                found = await asyncio.to_thread(render.board_png, game_name, view)
                self._png[key] = found
                while len(self._png) > self.keep:
                    self._png.popitem(last=False)
            self._png.move_to_end(key)
        return found
