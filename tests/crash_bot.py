"""The Dispatch bot as its own process, for tests/discord/test_discord_crash.py to kill
with SIGKILL.

    python tests/crash_bot.py API_BASE WS_URL TOKEN DB DEV_GUILD_ID [--no-nonce] [--graceful]
        [--files=DIR] [--lease=SECONDS]

The real bot (``create_bot``) with the test game registered, pointed at a loopback
emulator that runs in the test's process. Nothing here cleans up: it is meant to die.
``--no-nonce`` (for bench/bench_crash_repeats.py) sends without the outbox row's nonce,
as the bot did before, so the two can be compared. ``--graceful`` runs it as ``dispatch``
does (``bot.discord_app.serve``), so tests/process/test_graceful_stop.py can stop it with SIGTERM.
``DB`` is the SQLite file, or a ``postgresql://`` URL; then ``--files=DIR`` is where the
bot keeps its files beside the database (the synced commands' digest). ``--lease`` makes
the claims' lease that short: on PostgreSQL a killed process's claims are taken over only
once their lease lapses (SQLite's one process gives them back when it reopens the file).
"""

from __future__ import annotations

import asyncio
import importlib
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

from bot.config import Config, health_file  # noqa: E402
from bot.discord_app import create_bot, serve  # noqa: E402
from bot.storage.engines import is_postgres_url  # noqa: E402
from tests.discord_helpers import register_test_game  # noqa: E402

#: The module and name whose nonce ``--no-nonce`` blanks: the name the courier calls for
#: each row. ``tests/delivery/test_delivery_nonce.py`` fails if the courier stops reading it, so the
#: comparison in bench/bench_crash_repeats.py cannot silently compare the bot with itself.
NONCE_TARGET = ("bot.delivery.courier", "delivery_nonce")


def no_row_nonce(row_id: int, created_at: float) -> str:
    """No nonce: discord.py then sends its own random one, as the bot did before."""
    return ""


def shorten_leases(seconds: float) -> None:
    """Every claim of background work lapses ``seconds`` after it was taken."""
    for name, module in list(sys.modules.items()):
        if name.startswith("bot.") and hasattr(module, "LEASE_S"):
            module.LEASE_S = seconds


def disable_row_nonce() -> None:
    """Make every send go out without its outbox row's nonce (``--no-nonce``)."""
    module, name = NONCE_TARGET
    setattr(importlib.import_module(module), name, no_row_nonce)


async def main(
    api_base: str, ws_url: str, token: str, db_path: str, guild_id: str, *flags: str
) -> None:
    if "--no-nonce" in flags:
        disable_row_nonce()
    for flag in flags:
        if flag.startswith("--lease="):
            shorten_leases(float(flag.removeprefix("--lease=")))
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(ws_url)
    register_test_game()
    url = db_path if is_postgres_url(db_path) else None
    files = next((f.removeprefix("--files=") for f in flags if f.startswith("--files=")), "")
    config = Config(
        token=token,
        db_path=Path(files) / "dispatch.sqlite3" if url else Path(db_path),
        dev_guild_id=guild_id,
        log_level="INFO",
        health_file=health_file(os.environ),
        database_url=url,
    )
    client = create_bot(
        config,
        delivery_interval=0.05,
        manager_options={"retry_base_s": 0.05, "retry_cap_s": 0.2},
    )
    client._connection.guild_ready_timeout = 0.05
    if "--graceful" in flags:
        await serve(client, token, config.health_file)  # as ``dispatch`` runs it
        return
    async with client:
        await client.start(token)


if __name__ == "__main__":
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    asyncio.run(main(*sys.argv[1:]))
