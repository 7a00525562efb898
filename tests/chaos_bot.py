"""One bot process of the chaos run (tests/chaos.py), killed with SIGKILL and restarted.

    python tests/chaos_bot.py API_BASE WS_URL TOKEN DATABASE SHARD SHARD_COUNT FOLDER ITERATIONS

The real Dispatch bot (``create_bot``, as ``dispatch`` builds it) on shard SHARD of
SHARD_COUNT, on the shared database DATABASE (a PostgreSQL URL, or a SQLite file for a
one-process run), connected to the loopback emulator that runs in the chaos run's own
process. FOLDER holds what the bot keeps next to its database (the slash commands'
digest). ITERATIONS is every search's budget when the bot plays Dispatch's moves itself
(no worker alive), so that a run measures the bot, not the search. The background
pass (retries, take-overs, timers) comes every ``DISPATCH_CHAOS_BACKGROUND_S`` seconds
(1 by default): a worker's posts wake the bot at once (NOTIFY), so no pass has to come
often for them, and every pass costs each process the same, however many there are.
Killed with SIGKILL it cleans up nothing; SIGTERM stops it as it stops ``dispatch``
(``serve``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import discord.gateway  # noqa: E402
import discord.http  # noqa: E402
import yarl  # noqa: E402

from bot.config import Config  # noqa: E402
from bot.discord_app import create_bot, serve  # noqa: E402
from bot.dispatch_players.bots import BotSeats  # noqa: E402
from bot.storage.engines import is_postgres_url  # noqa: E402


def config_for(token: str, database: str, shard: int, shard_count: int, folder: Path) -> Config:
    postgres = is_postgres_url(database)
    return Config(
        token=token,
        db_path=folder / f"shard{shard}.sqlite3" if postgres else Path(database),
        dev_guild_id=None,
        log_level="INFO",
        shard_ids=(shard,),
        shard_count=shard_count,
        database_url=database if postgres else None,
    )


async def main(
    api_base: str,
    ws_url: str,
    token: str,
    database: str,
    shard: str,
    shard_count: str,
    folder: str,
    iterations: str,
) -> None:
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(ws_url)
    config = config_for(token, database, int(shard), int(shard_count), Path(folder))
    client = create_bot(
        config,
        delivery_interval=float(os.environ.get("DISPATCH_CHAOS_BACKGROUND_S", "1.0")),
        manager_options={"retry_base_s": 0.05, "retry_cap_s": 0.2},
    )
    client._connection.guild_ready_timeout = 0.05
    opened = client.setup_hook

    async def setup_hook() -> None:
        await opened()
        BotSeats.of(client.manager).iterations = int(iterations)

    client.setup_hook = setup_hook
    # As ``dispatch`` serves it: SIGTERM stops it cleanly (the chaos run's stop checks so).
    await serve(client, token)


if __name__ == "__main__":
    logging.basicConfig(
        level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    asyncio.run(main(*sys.argv[1:]))
