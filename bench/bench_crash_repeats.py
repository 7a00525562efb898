"""Messages posted twice per kill -9 between Discord accepting them and the outbox mark.

Run:  python bench/bench_crash_repeats.py [--kills 20] [--slow 0.3] [--seed 1]

Each trial: a fresh emulator and database; the real bot runs as its own process
(tests/crash_bot.py) and starts a game of the test game (one table post, then a DM per
player). Discord is slow: every create-message request is carried out at once and
answered only after ``--slow`` seconds. The process is SIGKILLed at a random moment while
those messages go out, restarted on the same file, and left to deliver everything. A
repeat is a message beyond one per outbox row. Printed twice: as the bot is (every send
carries its outbox row's nonce) and with ``--no-nonce`` (discord.py's random nonce per
send, as the bot sent before: docs/discord.md, *Delivery: each post and DM once*).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.discord.test_discord_crash import kill_9, outbox, posts_in, spawn
from tests.discord_helpers import register_test_game, wait_until
from tests.emulator import Emulator

START_TIMEOUT = 60.0


async def trial(workdir: Path, slow: float, kill_after: float, *flags: str) -> int:
    """One kill and restart; returns how many messages arrived beyond one per row."""
    db, log = workdir / "dispatch.sqlite3", workdir / "bot.log"
    async with Emulator() as emu:
        guild = emu.add_guild()
        table = emu.add_text_channel(guild, "games")
        alice, bob = emu.add_member(guild, "alice"), emu.add_member(guild, "bob")
        emu.slow_next("POST /channels/*/messages", slow, count=1000)
        first = await spawn(emu, db, guild.id, log, *flags)
        try:
            await emu.wait_for_commands("game", timeout=START_TIMEOUT)
            await emu.wait_ready(timeout=START_TIMEOUT)
            await emu.slash(alice, table, "game new", game="skirmish", opponent=bob)
            await emu.world.wait_until(lambda: emu.message_creates, START_TIMEOUT, "a send")
            await asyncio.sleep(kill_after)
        finally:
            await kill_9(first)
        emu.world.faults.clear()
        second = await spawn(emu, db, guild.id, log, *flags)
        try:
            await wait_until(
                lambda: all(row[3] is not None for row in outbox(db)), START_TIMEOUT, "delivery"
            )
        finally:
            await kill_9(second)
        arrived = len(posts_in(emu, table.id)) + len(emu.dms(alice.id)) + len(emu.dms(bob.id))
        sent_rows = [row for row in outbox(db) if row[4] is None]  # not skipped as stale
        return arrived - len(sent_rows)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--slow", type=float, default=0.3, help="seconds per create answer")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    register_test_game()
    rng = random.Random(args.seed)
    # The start sends three messages, one after the other: kill somewhere among them.
    moments = [rng.uniform(0.0, 3 * args.slow) for _ in range(args.kills)]
    print(f"{args.kills} kills per mode, Discord answering each create after {args.slow}s")
    for label, flags in (("row nonce (now)", ()), ("random nonce (before)", ("--no-nonce",))):
        started = time.perf_counter()
        repeats = []
        for moment in moments:
            with tempfile.TemporaryDirectory() as tmp:
                repeats.append(await trial(Path(tmp), args.slow, moment, *flags))
        took = time.perf_counter() - started
        print(
            f"{label:>22}: {sum(repeats) / len(repeats):.2f} repeats per kill "
            f"({sum(repeats)} in {len(repeats)} kills, worst {max(repeats)}; {took:.0f}s)"
        )


if __name__ == "__main__":
    asyncio.run(main())
