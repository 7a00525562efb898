"""Dispatch on a range of Discord shards (``DISPATCH_SHARD_IDS`` of ``DISPATCH_SHARD_COUNT``).

Discord sends each guild's events to one shard, ``(guild_id >> 22) % shard_count``, and
every DM to shard 0. A process runs the shards it is given; any process may act on any
game (the database is shared, and posting to a channel is a REST call that needs no
gateway), so a DM click for a game in another shard's guild is handled where it lands.
"""

from __future__ import annotations

import logging
from typing import Any

from discord.ext import commands

from bot.config import Config
from bot.discord_app.client import DispatchBot

log = logging.getLogger("dispatch.discord")


def shard_label(shard_ids: tuple[int, ...]) -> str:
    """``0-3,6`` for shards 0, 1, 2, 3 and 6: ranges as DISPATCH_SHARD_IDS writes them."""
    parts: list[str] = []
    start = prev = shard_ids[0]
    for shard in [*shard_ids[1:], None]:
        if shard is not None and shard == prev + 1:
            prev = shard
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if shard is not None:
            start = prev = shard
    return ",".join(parts)


class ShardedDispatchBot(DispatchBot, commands.AutoShardedBot):
    """The Dispatch client on the shards of ``config`` (an ``AutoShardedBot``)."""

    def __init__(self, config: Config, **kwargs: Any) -> None:
        assert config.shard_ids is not None and config.shard_count is not None
        super().__init__(
            config, shard_ids=list(config.shard_ids), shard_count=config.shard_count, **kwargs
        )

    async def setup_hook(self) -> None:
        assert self.config.shard_ids is not None
        log.info(
            "running shards %s of %d",
            shard_label(self.config.shard_ids),
            self.config.shard_count,
        )
        await super().setup_hook()
