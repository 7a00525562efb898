"""Where ``/game hint`` searches are asked for: once per position, one per player at a time.

A hint is a whole search of the normal level (about a CPU second), run in the worker
that also makes Dispatch's moves, so a player who asks over and over could hold up every
game that worker plays. One position of one game always gives the same hint (its seed
is made from the game, the role and the version: ``hints.hint_seed``), so the queue
searches it once: askers of a position being searched wait for that search, and the
last :data:`KEPT_HINTS` positions answer again at once. A player waits for one hint at a
time: asked for another position meanwhile (another game), the queue refuses politely.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from bot import errors
from bot.tables.hints import Hint

#: How many positions' hints are kept to be answered again without a search.
KEPT_HINTS = 256

#: A position: the game, the role and the version, and the search's budget.
HintKey = tuple[int, str, int, int | None]


class HintQueue:
    """The hints being searched and the last ones found, for one manager."""

    def __init__(self, kept: int = KEPT_HINTS) -> None:
        self.kept = kept
        self._found: OrderedDict[HintKey, Hint] = OrderedDict()
        self._running: dict[HintKey, asyncio.Task[Hint]] = {}
        #: Which position each player waits for.
        self._waiting: dict[str, HintKey] = {}

    async def ask(self, key: HintKey, user_id: str, search: Callable[[], Awaitable[Hint]]) -> Hint:
        """The hint of position ``key`` for ``user_id``: kept, being searched, or searched
        now by ``search``."""
        found = self._found.get(key)
        if found is not None:
            self._found.move_to_end(key)
            return found
        if self._waiting.get(user_id, key) != key:
            raise errors.HintRefused(
                "Your last hint is still being worked out: ask again once it has come."
            )
        task = self._running.get(key)
        if task is None:
            task = asyncio.get_running_loop().create_task(_run(search))
            self._running[key] = task
            task.add_done_callback(lambda done: self._settle(key, done))
        self._waiting[user_id] = key
        try:
            # Shielded: an asker who gives up does not end the search the others wait for.
            return await asyncio.shield(task)
        finally:
            if self._waiting.get(user_id) == key:
                del self._waiting[user_id]

    def _settle(self, key: HintKey, task: asyncio.Task[Hint]) -> None:
        self._running.pop(key, None)
        if task.cancelled() or task.exception() is not None:
            return  # not kept: the next asker searches again
        self._found[key] = task.result()
        while len(self._found) > self.kept:
            self._found.popitem(last=False)


async def _run(search: Callable[[], Awaitable[Hint]]) -> Hint:
    return await search()
