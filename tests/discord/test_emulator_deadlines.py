"""The emulator holds a bot to Discord's interaction deadlines: 3 s for the first
response (10062 after), 15 minutes for followups and edits (50027 after), measured on a
clock a loaded machine cannot trip (``tests/emulator/deadlines.py``). The deadline tests
move a clock of their own: nothing here sleeps."""

from __future__ import annotations

import asyncio
from pathlib import Path

import discord
from discord.ext import commands

from tests.emulator import Emulator
from tests.emulator.deadlines import RunnableClock, default_clock
from tests.emulator.state import PATIENCE_S


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class SlowBot:
    """A bot whose ``/slow`` handler waits for the test before it answers, and records
    what Discord said to its answer and to its followup."""

    def __init__(self) -> None:
        self.bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
        self.entered = asyncio.Event()
        self.answer = asyncio.Event()
        self.follow = asyncio.Event()
        self.answered = asyncio.Event()
        self.finished = asyncio.Event()
        self.outcomes: list[str] = []
        self.bot.tree.command(name="slow", description="Answers when told")(self.slow)

        async def setup_hook() -> None:
            await self.bot.tree.sync()

        self.bot.setup_hook = setup_hook  # type: ignore[method-assign]

    async def slow(self, interaction: discord.Interaction) -> None:
        self.entered.set()
        await self.answer.wait()
        self.outcomes.append(await _outcome(interaction.response.defer(thinking=True)))
        self.answered.set()
        await self.follow.wait()
        self.outcomes.append(await _outcome(interaction.followup.send("done")))
        self.finished.set()


async def _outcome(request) -> str:  # type: ignore[no-untyped-def]
    try:
        await request
    except discord.HTTPException as exc:
        return f"{exc.status} {exc.code}"
    return "ok"


async def _run(answer_after: float, follow_after: float) -> tuple[list[str], bool]:
    clock = FakeClock()
    slow = SlowBot()
    async with Emulator(clock=clock) as emu:
        guild = emu.add_guild()
        channel = emu.add_text_channel(guild, "table")
        alice = emu.add_member(guild, "alice")
        async with emu.running(slow.bot):
            result = await emu.slash(alice, channel, "slow")
            await asyncio.wait_for(slow.entered.wait(), PATIENCE_S)
            clock.now += answer_after
            slow.answer.set()
            await asyncio.wait_for(slow.answered.wait(), PATIENCE_S)
            clock.now += follow_after
            slow.follow.set()
            await asyncio.wait_for(slow.finished.wait(), PATIENCE_S)
            return slow.outcomes, result.callback_type is not None


async def test_a_first_response_after_three_seconds_is_an_unknown_interaction():
    outcomes, acknowledged = await _run(answer_after=3.01, follow_after=0)
    assert outcomes[0] == "404 10062"
    assert not acknowledged


async def test_a_first_response_within_three_seconds_is_taken():
    outcomes, acknowledged = await _run(answer_after=2.9, follow_after=0)
    assert outcomes == ["ok", "ok"]
    assert acknowledged


async def test_a_followup_after_fifteen_minutes_is_refused_as_an_invalid_token():
    outcomes, _ = await _run(answer_after=0, follow_after=15 * 60 + 1)
    assert outcomes == ["ok", "401 50027"]


async def test_a_followup_within_fifteen_minutes_is_taken():
    outcomes, _ = await _run(answer_after=0, follow_after=14 * 60)
    assert outcomes == ["ok", "ok"]


def _thread(proc: Path, pid: str, tid: str, run_delay_ns: int, children: str = "") -> None:
    task = proc / pid / "task" / tid
    task.mkdir(parents=True, exist_ok=True)
    (task / "schedstat").write_text(f"123456 {run_delay_ns} 7\n")
    (task / "children").write_text(children)


def test_time_a_thread_waited_for_a_cpu_does_not_count(tmp_path):
    _thread(tmp_path, "100", "100", 5_000_000_000)
    clock = RunnableClock(tmp_path, 100)
    before = clock()
    _thread(tmp_path, "100", "100", 7_000_000_000)  # two seconds more on the run queue
    assert clock() - before < -1.9


def test_time_a_child_process_waited_for_a_cpu_does_not_count(tmp_path):
    _thread(tmp_path, "100", "100", 0, children="200")
    _thread(tmp_path, "200", "200", 1_000_000_000)  # a bot run as a process of its own
    clock = RunnableClock(tmp_path, 100)
    before = clock()
    _thread(tmp_path, "200", "200", 4_000_000_000)
    assert clock() - before < -2.9


def test_a_thread_that_ends_does_not_move_the_clock_on(tmp_path):
    _thread(tmp_path, "100", "100", 1_000_000_000)
    _thread(tmp_path, "100", "101", 9_000_000_000)
    clock = RunnableClock(tmp_path, 100)
    before = clock()
    for name in ("schedstat", "children"):
        (tmp_path / "100" / "task" / "101" / name).unlink()
    (tmp_path / "100" / "task" / "101").rmdir()
    _thread(tmp_path, "100", "102", 4_000_000_000)  # a new thread's earlier waits: not ours
    assert abs(clock() - before) < 0.5


def test_the_clock_runs_on_this_machine():
    clock = default_clock()
    assert clock() <= clock()
