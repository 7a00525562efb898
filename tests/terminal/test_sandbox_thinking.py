"""The sandbox answers while Dispatch thinks, and says so; input that ends mid-search
stops it at once, leaving no semaphore behind and no attempt of Dispatch's job spent."""

from __future__ import annotations

import asyncio
import io
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bot.dispatch_players.bots import BotSeats
from bot.tables.manager import GameManager
from bot.terminal.frontend import TerminalFrontEnd
from bot.terminal.sandbox import Sandbox

ROOT = Path(__file__).resolve().parents[2]
#: A guard against a hang only: the sandbox is expected to end within a second or two.
HANG_S = 120


def test_input_ending_mid_search_stops_the_sandbox_and_leaves_nothing(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    command = [sys.executable, "-m", "tests.sandbox_endless", "--db", str(db)]
    sandbox = subprocess.Popen(
        [*command, "--out", str(tmp_path / "out")],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert sandbox.stdin is not None and sandbox.stdout is not None
    # Before: `new` waited for Dispatch's first placement, `help` too, and input ending
    # mid-search waited for the search to end (never, here).
    sandbox.stdin.write("new war 7 dispatch hard\nhelp\n")
    sandbox.stdin.flush()
    # Read until the search began and help answered, in whichever order a busy machine
    # prints them (help waiting for the search would never come: the watchdog's kill
    # then ends the reading, and the check below fails).
    seen = []
    watchdog = threading.Timer(HANG_S, sandbox.kill)
    watchdog.start()
    try:
        for line in sandbox.stdout:
            seen.append(line)
            text = "".join(seen)
            if "SEARCH BEGINS" in text and "Commands:" in text:
                break
    finally:
        watchdog.cancel()
    try:
        _out, err = sandbox.communicate("", timeout=HANG_S)  # the input ends, mid-search
    except subprocess.TimeoutExpired:
        sandbox.kill()
        sandbox.communicate()
        pytest.fail("the sandbox did not end when its input did: it waited for the search")
    assert sandbox.returncode == 0, err
    assert "Commands:" in "".join(seen)  # help answered at once
    assert "leaked semaphore" not in err and "resource_tracker" not in err, err
    with sqlite3.connect(db) as con:
        jobs = con.execute("SELECT status, attempts, claimed_by FROM bot_jobs").fetchall()
    # The job is given back as it was: no attempt spent, no claim left to lapse.
    assert jobs == [("pending", 0, None)]


async def test_commands_answer_while_dispatch_thinks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = asyncio.Event()
    decide = BotSeats._decide

    async def thinking(self: BotSeats, *args: object) -> object:
        await held.wait()  # Dispatch thinks until the test lets it move
        return await decide(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(BotSeats, "_decide", thinking)
    out = io.StringIO()
    front_end = TerminalFrontEnd(out=out, out_dir=tmp_path / "out")
    manager = await GameManager.open(tmp_path / "s.sqlite3", front_end, deliver=False)
    BotSeats.attach(manager, workers="thread")
    sandbox = Sandbox(manager, front_end, seed=1)
    sandbox.interactive = True
    try:

        async def answered(line: str) -> str:
            start = len(out.getvalue())
            await asyncio.wait_for(sandbox.handle(line), HANG_S)
            return out.getvalue()[start:]

        await answered("new fort_sumter 7 dispatch easy")
        # Alice keeps an objective; Dispatch's keep is still being thought over.
        assert "Dispatch is thinking…" in await answered("1")
        assert "Commands:" in await answered("help")
        assert "Dispatch is thinking…" in await answered("status")
        before = await manager.get_game_info(sandbox.game_id or 0)
        told = await answered("1")  # a move typed meanwhile: answered, nothing done
        assert "Dispatch is thinking…; your prompt shows here when it has moved." in told
        assert (await manager.get_game_info(before.id)).version == before.version
        held.set()
        await sandbox.bots.idle()
        watch = sandbox._watch
        assert watch is not None
        await asyncio.wait_for(watch, HANG_S)
        after = out.getvalue()[len(out.getvalue()) - 2000 :]
        assert "alice (unionist):" in after  # her prompt, printed once Dispatch moved
    finally:
        held.set()
        await manager.close()
