"""``python -m tests.sandbox_endless --db ... --out ...``: the sandbox with Dispatch's
searches in worker processes, as ``dispatch sandbox`` runs them, but endless (no search
ends by itself: only stopping the sandbox ends it), and a line "SEARCH BEGINS" printed as
each is handed to its worker, so a test can end the input mid-search without a clock."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from typing import Any

from bot.dispatch_players import bots
from bot.terminal import sandbox

_attach = bots.BotSeats.attach.__func__  # type: ignore[attr-defined]
_off_loop = bots.BotSeats.off_loop


def endless(cls: type[bots.BotSeats], manager: Any, **options: Any) -> bots.BotSeats:
    options.update(iterations=10**9, cap_seconds=10**6)
    return _attach(cls, manager, **options)  # type: ignore[no-any-return]


async def announced(self: bots.BotSeats, game_id: int, call: Callable[[], Any]) -> Any:
    print("SEARCH BEGINS", flush=True)
    return await _off_loop(self, game_id, call)


if __name__ == "__main__":
    bots.BotSeats.attach = classmethod(endless)  # type: ignore[method-assign, assignment]
    bots.BotSeats.off_loop = announced  # type: ignore[method-assign]
    args = sandbox.build_parser().parse_args(sys.argv[1:])
    sys.exit(asyncio.run(sandbox.run_sandbox(args)))
