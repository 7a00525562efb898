"""Measure how fast a bot acknowledges component clicks, through the emulator.

Latency = time from the emulator queueing INTERACTION_CREATE on the gateway socket to
the interaction callback request arriving at the emulator's REST handler. It includes
both loopback hops, JSON encoding/decoding and the bot's own dispatch + handler.
"""

from __future__ import annotations

import asyncio
import inspect
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from .actors import Emulator
from .state import Channel, Message, User

BotFactory = Callable[[], discord.Client | Awaitable[discord.Client]]
Setup = Callable[[Emulator, discord.Client, Channel, User], Awaitable[tuple[Message, str]]]

DEFAULT_CUSTOM_ID = "bench:ack"


async def _default_setup(
    emu: Emulator, bot: discord.Client, channel: Channel, user: User
) -> tuple[Message, str]:
    button = {"type": 2, "style": 1, "label": "Ack", "custom_id": DEFAULT_CUSTOM_ID}
    msg = emu.inject_message(channel, "bench", components=[{"type": 1, "components": [button]}])
    return msg, DEFAULT_CUSTOM_ID


def _summary(samples: list[float], failures: int, total: float) -> dict[str, Any]:
    ms = sorted(s * 1000 for s in samples)
    pct = statistics.quantiles(ms, n=100, method="inclusive") if len(ms) > 1 else ms * 99
    return {
        "clicks": len(ms),
        "failures": failures,
        "median_ms": statistics.median(ms),
        "p90_ms": pct[89],
        "p99_ms": pct[98],
        "mean_ms": statistics.fmean(ms),
        "min_ms": ms[0],
        "max_ms": ms[-1],
        "total_s": total,
    }


async def measure_click_latency(
    bot_factory: BotFactory,
    clicks: int = 300,
    *,
    setup: Setup | None = None,
    warmup: int = 10,
    timeout: float = 3.0,
    isolated: bool = False,
) -> dict[str, Any]:
    """Start an emulator and the bot, click ``clicks`` times one after another, return stats.

    ``bot_factory()`` returns (or returns an awaitable of) an unstarted discord.Client.
    ``setup(emu, bot, channel, user)`` returns ``(message, custom_id)`` to click; by
    default a message with one button ``bench:ack`` is injected as if the bot posted it.
    Result keys: clicks, failures, median_ms, p90_ms, p99_ms, mean_ms, min_ms, max_ms,
    total_s. A click not acknowledged within ``timeout`` counts as a failure.
    ``isolated``: before each click, wait until the bot has finished the previous one (and
    2 ms more), as with a player; otherwise clicks come back to back, each queued behind
    whatever the previous one started.
    """
    async with Emulator() as emu:
        guild = emu.add_guild("Bench")
        channel = emu.add_text_channel(guild, "bench")
        user = emu.add_member(guild, "clicker")
        bot = bot_factory()
        if inspect.isawaitable(bot):
            bot = await bot
        async with emu.running(bot):
            message, custom_id = await (setup or _default_setup)(emu, bot, channel, user)
            samples: list[float] = []
            failures = 0
            started = time.perf_counter()
            for i in range(warmup + clicks):
                if isolated:
                    # As a player clicks: not within a millisecond of the previous answer,
                    # so the bot has finished what the previous click started.
                    wait_idle = getattr(bot, "wait_idle", None)
                    if wait_idle is not None:
                        await wait_idle()
                    await asyncio.sleep(0.002)
                result = await emu.click(user, message, custom_id)
                try:
                    record = await result.acknowledged(timeout)
                except TimeoutError:
                    failures += 1
                    continue
                if i >= warmup and record.ack_latency is not None:
                    samples.append(record.ack_latency)
            total = time.perf_counter() - started
    if not samples:
        raise RuntimeError(f"no click was acknowledged ({failures} failures)")
    return _summary(samples, failures, total)
