"""A bot seat's search asked of its worker: the limits, the machine's slowdown, and the
turn so far when the worker kept no tree for it."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections.abc import Callable

from bot.dispatch_players.decision import Decision, Earlier, SearchLimits, SeatTurn, decide
from bot.dispatch_players.manager_protocol import GameManager
from bot.dispatch_players.processes import WorkerPools
from bot.dispatch_players.speed import machine_slowdown
from bot.dispatch_players.turn_replay import earlier_decisions
from bot.storage.rows import ActionRow
from bot.tables.records.replay import replay_seed
from rules.core import View

log = logging.getLogger("dispatch.bots")


class Searching(WorkerPools):
    """Runs a seat's decision in its game's worker, as the seats' limits say."""

    manager: GameManager
    #: Iterations of every search instead of each level's budget (tests, benches).
    iterations: int | None
    #: The safety cap in CPU seconds instead of each level's ``safety_seconds``.
    cap_seconds: float | None
    #: The search thread's CPU clock for the cap (tests; None: ``time.thread_time``).
    clock: Callable[[], float] | None

    async def _decide(
        self, game_name: str, game_id: int, role: str, level: str, view: View, seat: SeatTurn
    ) -> Decision:
        call = functools.partial(
            decide,
            game_name,
            game_id,
            role,
            level,
            view,
            SearchLimits(self.iterations, self.cap_seconds, self.clock, await self._slowdown()),
            seat,
        )
        return await self.off_loop(game_id, call)

    async def _slowdown(self) -> float | None:
        """The machine's slowdown for the searches' caps: probed once in this process, in
        a thread (not on the event loop), and handed to every worker; None when the seats
        have a cap of their own."""
        if self.cap_seconds is not None:
            return None
        return await asyncio.to_thread(machine_slowdown)

    async def _earlier(
        self, game_id: int, role: str, played: list[ActionRow], turn: int, secret: str | None
    ) -> tuple[Earlier, ...]:
        """The views and moves of ``role``'s last ``turn`` actions, from a replay of the
        game (in a thread: the whole log is played); none when it does not replay (a
        damaged record: the turn then goes on from a fresh search)."""
        async with self.manager.store.read() as db:
            row = await db.game(game_id)
        if row is None:
            return ()
        try:
            options = json.loads(row.options_json)
            seed = replay_seed(row, secret)
            return await asyncio.to_thread(
                earlier_decisions, row.game_name, options, seed, played, role, turn
            )
        except Exception as exc:
            # The kind of failure only: a rules message may name a hidden card, and whoever
            # reads the server log may be a player.
            log.warning(
                "game=%d: the turn so far did not replay (%s); searching afresh",
                game_id,
                type(exc).__name__,
            )
            return ()
