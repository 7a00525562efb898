"""The hints desk (``manager.hints``): ``/game hint`` for a player's current decision in
a practice game, searched off the event loop, once per position (``queue``), and counted
(an assisted game is never rated)."""

from __future__ import annotations

import functools
import logging

from bot import errors
from bot.storage.session import Session
from bot.tables import hints, validate
from bot.tables.core import Core
from bot.tables.hints.queue import HintQueue
from bot.tables.loading import GameRef, find_row, safe_view
from bot.tables.results import PlayerView

log = logging.getLogger("dispatch.manager")


class HintsDesk:
    """Hints for the core's games, searched by the core's search runner."""

    def __init__(self, core: Core) -> None:
        self._core = core
        #: Hints searched once per position, one per player at a time (``queue``).
        self.queue = HintQueue()

    async def ask(self, game: GameRef, user_id: str) -> hints.Hint:
        """The search's top choices for ``user_id``'s current decision, from their own view
        (a practice game only; see ``hints``). Counts the hint: the game is then assisted
        and never rated. The search runs in the bot seats' worker, off the event loop."""
        user_id = validate.user_id(user_id)
        core = self._core
        pv = await core.view_for(game, user_id)
        if pv.role is None:
            raise errors.NotSeated()
        if pv.game.status != "active":
            raise errors.GameNotActive(pv.game.status)
        if not pv.view.get("actions"):
            raise errors.HintRefused("You have nothing to decide right now, so there is no hint.")
        # First whether the search plays the game at all: a game played alone is no game
        # between players, whatever its seed.
        hints.searchable(pv.game.game_name)
        async with core.store.read() as db:
            row = await find_row(db, pv.game.id, live=False)
            refusal = hints.practice_refusal(
                row,
                await db.seats(row.id),
                decided=(await db.records.decisions_by_role(row.id)).get(str(pv.role), 0),
                assisted=await db.hints.hints_used(row.id) > 0,
            )
        if refusal:
            raise errors.HintRefused(refusal)
        call = functools.partial(
            hints.compute_hint,
            row.game_name,
            row.id,
            pv.version,
            pv.view,
            iterations=core.searches.iterations,
        )
        key = (row.id, pv.role, pv.version, core.searches.iterations)
        found = await self.queue.ask(
            key, user_id, functools.partial(core.searches.off_loop, row.id, call)
        )
        # Counted with the decision checked, under the game's lock: a hint is shown only
        # for the decision still owed, and counted before any later end rates the game.
        async with core.game_locks[row.id], core.store.transaction(game=row.id) as db:
            if not await _still_owed(db, row.id, pv, user_id):
                raise errors.Outdated(
                    "The game changed while your hint was worked out: ask again for your "
                    "decision now."
                )
            await db.hints.add_hint(row.id, pv.role)
        log.info("game=%d user=%s role=%s asked for a hint", row.id, user_id, pv.role)
        return found


async def _still_owed(db: Session, game_id: int, pv: PlayerView, user_id: str) -> bool:
    """Whether the decision ``pv`` showed ``user_id`` is still theirs to make: the game
    is on, the seat is still theirs, its role has not acted since and is offered the
    same actions. (Another side's move meanwhile, in a phase where both decide at
    once, leaves a hint good: it was worked out from what the asker knew then, which
    is never more than now.)"""
    now = await db.game(game_id)
    if now is None or now.status != "active" or pv.role is None:
        return False
    if not any(s.role == pv.role and s.user_id == user_id for s in await db.seats(game_id)):
        return False
    if now.version != pv.version and await db.hints.acted_since(game_id, pv.role, pv.version):
        return False
    return bool(safe_view(now, pv.role).get("actions") == pv.view.get("actions"))
