"""One "bot" process of the chaos run (tests/chaos.py), killed and restarted at will.

    python tests/chaos_player.py DATABASE INDEX PROCESSES ACK_FILE ITERATIONS

The manager as a bot process runs it: its background pass (deliveries, clocks, and the
bot seats' jobs when no worker is alive, or lapsed ones), plus the scripted clicks of the
human player of every game ``id % PROCESSES == INDEX``: a greedy move from her own view,
submitted with its version like a button. Each acknowledged click (``act`` returned) is
appended to ACK_FILE as ``game version milliseconds``, flushed at once.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import rules  # noqa: E402
from bot import errors  # noqa: E402
from bot.delivery.port import NullFrontEnd  # noqa: E402
from bot.tables.bots import BotSeats  # noqa: E402
from bot.tables.manager import GameManager  # noqa: E402
from bot.tables.requests import Move  # noqa: E402
from rules.ai import make_player  # noqa: E402

HUMAN = "alice"


async def click_once(manager: GameManager, game_id: int, ack: object) -> bool:
    """One scripted click in ``game_id`` if the human owes one; True when acknowledged."""
    info = await manager.get_game_info(game_id)
    if info.status != "active":
        return False
    mine = [s for s in info.seats if s.user_id == HUMAN and s.role in info.active_roles]
    if not mine:
        return False
    role = mine[0].role
    pv = await manager.view_for(game_id, HUMAN, role=role)
    if not pv.view.get("actions"):
        return False
    player = make_player(rules.get_game(info.game_name), role, "easy", seed=game_id)
    verb, arg = player.choose(pv.view)
    started = time.perf_counter()
    try:
        done = await manager.act(game_id, HUMAN, Move(verb, arg, pv.version, role=role))
    except (errors.StalePrompt, errors.NotYourTurn, errors.GameNotActive):
        return False
    elapsed = (time.perf_counter() - started) * 1000
    ack.write(f"{game_id} {done.version} {elapsed:.2f}\n")  # type: ignore[attr-defined]
    ack.flush()  # type: ignore[attr-defined]
    return True


async def main(database: str, index: int, processes: int, ack_path: str, iterations: int) -> None:
    manager = await GameManager.open(database, NullFrontEnd())
    seats = BotSeats.attach(manager, workers="thread", iterations=iterations)
    background = asyncio.get_running_loop().create_task(manager.run_background(0.2))
    with open(ack_path, "a", buffering=1) as ack:
        while True:
            async with manager.store.read() as db:
                games = await db.games_awaiting([HUMAN])
            mine = [g for g in games if g % processes == index]
            clicked = [await click_once(manager, g, ack) for g in mine]
            await seats.resume()
            if not any(clicked):
                await asyncio.sleep(0.05)
            if background.done():
                background.result()


if __name__ == "__main__":
    db, idx, procs, ack_file, its = sys.argv[1:6]
    asyncio.run(main(db, int(idx), int(procs), ack_file, int(its)))
