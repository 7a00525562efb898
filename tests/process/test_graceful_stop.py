"""SIGTERM stops the bot cleanly: ``docker stop`` no longer kills it mid-click.

The real bot runs as its own process (tests/crash_bot.py ``--graceful``, the same
``serve`` as ``dispatch``) against the loopback emulator in this one. A click is being
answered (Discord is made slow to acknowledge it) when SIGTERM arrives: the process
finishes that click, stops, and exits 0 well inside Docker's 10 s. The acknowledged move
is in the database, and a restarted process carries the game on.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from bot.discord_app import components as c
from bot.process.health import check
from tests.discord.test_discord_crash import START_TIMEOUT, kill_9, spawn
from tests.discord_helpers import (
    action_components,
    choices_of,
    register_test_game,
    wait_until,
)
from tests.emulator import Emulator, Message, User
from tests.emulator.state import PATIENCE_S

pytestmark = pytest.mark.slow

#: Docker's default grace period; the bot must be gone well before it.
DOCKER_GRACE_S = 10.0


def prompt_of(emu: Emulator, user: User) -> Message | None:
    msgs = [emu.message(m.id) for m in emu.dms(user.id)]
    with_actions = [m for m in msgs if action_components(m)]
    return max(with_actions, key=lambda m: m.id) if with_actions else None


def actions_in(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0]


async def stopped_by_sigterm(process: asyncio.subprocess.Process) -> tuple[int, float]:
    """SIGTERM, then the exit code and how long the process took to end."""
    began = time.monotonic()
    os.kill(process.pid, signal.SIGTERM)
    code = await asyncio.wait_for(process.wait(), DOCKER_GRACE_S + 20)
    return code, time.monotonic() - began


async def test_sigterm_mid_click_finishes_it_exits_0_and_a_restart_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    register_test_game()
    db, log = tmp_path / "dispatch.sqlite3", tmp_path / "bot.log"
    alive = tmp_path / "health"
    monkeypatch.setenv("DISPATCH_HEALTH_FILE", str(alive))  # the bot processes inherit it
    async with Emulator() as emu:
        guild = emu.add_guild()
        table = emu.add_text_channel(guild, "games")
        alice, bob = emu.add_member(guild, "alice"), emu.add_member(guild, "bob")
        first = await spawn(emu, db, guild.id, log, "--graceful")
        second = None
        try:
            await emu.wait_for_commands("game", timeout=START_TIMEOUT)
            await emu.wait_ready(timeout=START_TIMEOUT)
            # Connected, the process shows a sign of life for ``dispatch health``.
            await wait_until(lambda: check(alive)[0], START_TIMEOUT, "a sign of life")
            started = await emu.slash(alice, table, "game new", game="skirmish", opponent=bob)
            await started.response()
            await emu.world.wait_until(
                lambda: prompt_of(emu, alice) and prompt_of(emu, bob),
                PATIENCE_S,
                "both hand prompts",
            )
            before = actions_in(db)

            # alice plays a card; Discord takes the answer but is slow to say so, so the
            # click is still being handled when SIGTERM arrives.
            prompt = prompt_of(emu, alice)
            assert prompt is not None
            cid, _ = choices_of(prompt)[0]
            emu.slow_next("POST /interactions/*/callback", 1.5)
            click = await emu.click(alice, prompt, cid)
            await emu.world.wait_until(
                lambda: click.record.callback_type is not None,
                PATIENCE_S,
                "the click to be answered",
            )
            code, took = await stopped_by_sigterm(first)
            assert code == 0, log.read_text()[-3000:]
            assert took < DOCKER_GRACE_S - 2, f"took {took:.1f} s to stop"
            # The acknowledged move was committed before the process ended.
            assert "You chose" in emu.message(prompt.id).text()
            assert actions_in(db) == before + 1
            assert not emu.gateway.connected
            assert not alive.exists()  # a stopped process is not healthy

            # Restarted, the game goes on from there: bob plays, the round is revealed with
            # the card alice chose before the stop.
            second = await spawn(emu, db, guild.id, log, "--graceful")
            await emu.world.wait_until(lambda: emu.gateway.connected, START_TIMEOUT, "restart")
            bob_prompt = prompt_of(emu, bob)
            assert bob_prompt is not None
            reply = await emu.click(bob, bob_prompt, choices_of(bob_prompt)[0][0])
            await reply.response()
            chosen = c.parse(cid).arg
            await emu.world.wait_until(
                lambda: any(  # in the game's thread of the table
                    f"north played {chosen}" in m.text() for m in emu.world.messages.values()
                ),
                PATIENCE_S,
                "the round's reveal",
            )
            assert actions_in(db) == before + 2
            code, took = await stopped_by_sigterm(second)
            assert code == 0 and took < DOCKER_GRACE_S - 2
        finally:
            for process in (first, second):
                if process is not None:
                    await kill_9(process)
    said = log.read_text()
    assert said.count("SIGTERM received: stopping cleanly") == 2, said[-3000:]
    assert "Traceback" not in said, said[-3000:]
