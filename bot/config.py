"""Settings from the environment.

DISCORD_TOKEN       the bot token (required to run on Discord, not for the sandbox)
DISPATCH_DB         SQLite file path (default ``dispatch.sqlite3`` in the working directory)
DISPATCH_DATABASE_URL  a ``postgresql://user:password@host/db`` URL: the store lives in
                    PostgreSQL instead of the SQLite file (several bot processes may
                    then share it); unset, SQLite is used
DISPATCH_DEV_GUILD  optional guild id where slash commands are synced instantly while
                    developing (global sync can take an hour to show up)
DISPATCH_LOG_LEVEL  logging level name (default INFO); DEBUG applies to Dispatch's own
                    lines, never to aiosqlite's or discord.py's (see ``setup_logging``)
DISPATCH_SHARD_COUNT  the number of Discord shards over all processes (unset: no sharding,
                    one connection, as a small bot needs)
DISPATCH_SHARD_IDS  the shards this process runs: ranges and ids such as ``0-3`` or
                    ``0,1`` or ``0-1,4`` (unset: every shard of DISPATCH_SHARD_COUNT)
DISPATCH_HEALTH_FILE  a file the running process keeps fresh for ``dispatch health``
                    (container healthchecks; unset: none is written)
DISPATCH_OUTBOX_KEEP_DAYS  how many days delivered messages are kept in the outbox before
                    the background pass deletes them (default 30; fractions allowed)
DISPATCH_WEB_PORT   serve the spectator page (docs/web.md) inside the bot's process on
                    this port (unset: not served there; ``dispatch web`` serves it alone)
DISPATCH_WEB_HOST   the address the page listens on (default 127.0.0.1: behind a proxy)
DISPATCH_WEB_URL    the page's public address, such as https://dispatch.example.org:
                    ``/game link`` answers with links under it (unset: no links)
DISPATCH_WEB_SECRET  the secret links are signed with (unset: one kept in the store)
DISPATCH_WEB_TRUST_PROXY  ``1``: the page is behind a reverse proxy, and a client's
                    address (for the rate limit) is the last one of X-Forwarded-For
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DB = "dispatch.sqlite3"
#: Days delivered outbox rows are kept by default (``bot.delivery.retention``).
DEFAULT_OUTBOX_KEEP_DAYS = 30.0
#: A Discord id (a snowflake): a positive number of at most 20 digits.
SNOWFLAKE = re.compile(r"[0-9]{1,20}")
#: What ``DISPATCH_LOG_LEVEL`` may say (in any case): logging's own level names.
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


@dataclass(frozen=True)
class WebSettings:
    """The spectator page's settings (docs/web.md)."""

    #: Where the bot's own process serves the page (None: it does not).
    port: int | None = None
    host: str = "127.0.0.1"
    #: The page's public address, without a trailing slash (None: no links are given).
    url: str | None = None
    #: The links' signing secret (None: one kept in the store).
    secret: str | None = None
    trust_proxy: bool = False


class ConfigError(ValueError):
    """A setting that cannot be right; ``str()`` is one line for an administrator."""

    #: Exit code of ``python -m bot``, as for a usage error.
    exit_code = 2


@dataclass(frozen=True)
class Config:
    token: str | None
    db_path: Path
    dev_guild_id: str | None
    log_level: str
    #: The shards this process runs, or None for one unsharded connection.
    shard_ids: tuple[int, ...] | None = None
    #: The number of shards over all processes (None: no sharding).
    shard_count: int | None = None
    #: Where the running process writes its sign of life (bot/process/health.py), if any.
    health_file: Path | None = None
    #: The PostgreSQL database (``DISPATCH_DATABASE_URL``); None: the SQLite file.
    database_url: str | None = None
    #: Days delivered outbox rows are kept (``DISPATCH_OUTBOX_KEEP_DAYS``).
    outbox_keep_days: float = DEFAULT_OUTBOX_KEEP_DAYS
    #: The spectator page's settings (``DISPATCH_WEB_*``): off unless set.
    web: WebSettings = WebSettings()

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    @property
    def store_target(self) -> Path | str:
        """What ``Store.open`` is given: the PostgreSQL URL when set, else the file."""
        return self.database_url or self.db_path

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        env = os.environ if env is None else env
        token = (env.get("DISCORD_TOKEN") or "").strip() or None
        db = (env.get("DISPATCH_DB") or "").strip() or DEFAULT_DB
        guild = (env.get("DISPATCH_DEV_GUILD") or "").strip() or None
        if guild is not None and not (SNOWFLAKE.fullmatch(guild) and 0 < int(guild) < 2**64):
            raise ConfigError(
                f"DISPATCH_DEV_GUILD must be a server id (a number such as "
                f"123456789012345678), not {guild[:40]!r}; leave it unset to sync globally."
            )
        level = (env.get("DISPATCH_LOG_LEVEL") or "INFO").strip().upper()
        if level not in LOG_LEVELS:
            raise ConfigError(
                f"DISPATCH_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, "
                f"not {level[:40]!r}; leave it unset for INFO."
            )
        shard_ids, shard_count = parse_shards(
            (env.get("DISPATCH_SHARD_IDS") or "").strip(),
            (env.get("DISPATCH_SHARD_COUNT") or "").strip(),
        )
        url = (env.get("DISPATCH_DATABASE_URL") or "").strip() or None
        if url is not None and not url.startswith(("postgresql://", "postgres://")):
            raise ConfigError(
                "DISPATCH_DATABASE_URL must be a PostgreSQL URL such as "
                "postgresql://dispatch:secret@localhost/dispatch; leave it unset to use "
                "the SQLite file (DISPATCH_DB)."
            )
        return cls(
            token=token,
            db_path=Path(db).expanduser(),
            dev_guild_id=guild,
            log_level=level,
            shard_ids=shard_ids,
            shard_count=shard_count,
            health_file=health_file(env),
            database_url=url,
            outbox_keep_days=outbox_keep_days(env),
            web=web_settings(env),
        )


def health_file(env: Mapping[str, str]) -> Path | None:
    raw = (env.get("DISPATCH_HEALTH_FILE") or "").strip()
    return Path(raw).expanduser() if raw else None


#: Discord's own ceiling is far lower for all but the largest bots; this only catches typos.
MAX_SHARDS = 65536
SHARD_PART = re.compile(r"([0-9]{1,6})(?:-([0-9]{1,6}))?")


def parse_shards(ids: str, count: str) -> tuple[tuple[int, ...] | None, int | None]:
    """``DISPATCH_SHARD_IDS`` and ``DISPATCH_SHARD_COUNT`` as (shard ids, shard count).

    Both unset: (None, None), no sharding. A count alone: every shard of it. Ids need the
    count (the total over all processes), since Discord routes by it.
    """
    if not ids and not count:
        return None, None
    if not count:
        raise ConfigError(
            f"DISPATCH_SHARD_IDS={ids[:40]!r} needs DISPATCH_SHARD_COUNT, the number of "
            "shards over all processes (for example DISPATCH_SHARD_COUNT=2)."
        )
    if not count.isdigit() or not 0 < int(count) <= MAX_SHARDS:
        raise ConfigError(
            f"DISPATCH_SHARD_COUNT must be a whole number of shards from 1 to {MAX_SHARDS}, "
            f"not {count[:40]!r}."
        )
    total = int(count)
    if not ids:
        return tuple(range(total)), total
    chosen: list[int] = []
    for part in ids.replace(" ", "").split(","):
        match = SHARD_PART.fullmatch(part)
        if match is None:
            raise ConfigError(
                f"DISPATCH_SHARD_IDS must list shard numbers and ranges such as 0-3 or "
                f"0,1 or 0-1,4, not {ids[:40]!r}."
            )
        first = int(match[1])
        last = int(match[2]) if match[2] is not None else first
        if last < first:
            raise ConfigError(
                f"DISPATCH_SHARD_IDS: the range {part} runs backwards; write {last}-{first}."
            )
        chosen.extend(range(first, last + 1))
    too_high = sorted({i for i in chosen if i >= total})
    if too_high:
        raise ConfigError(
            f"DISPATCH_SHARD_IDS names shard {too_high[0]}, but DISPATCH_SHARD_COUNT={total} "
            f"has shards 0 to {total - 1} only."
        )
    if len(set(chosen)) != len(chosen):
        raise ConfigError(f"DISPATCH_SHARD_IDS names a shard twice: {ids[:40]!r}.")
    return tuple(sorted(chosen)), total


#: Libraries whose debug lines carry what a player must not see: aiosqlite logs every
#: statement with its parameters (whole game states, every hand), discord.py every
#: request body and gateway event (the cards in a DM). Whoever reads the server log may
#: be sitting at one of its tables, so these stay at INFO whatever the level asked for.
PAYLOAD_LOGGERS = ("aiosqlite", "asyncpg", "discord")


def setup_logging(level: str) -> None:
    logging.basicConfig(
        level=level,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
    )
    floor = max(logging.INFO, logging.getLevelName(level))
    for name in PAYLOAD_LOGGERS:
        logging.getLogger(name).setLevel(floor)


def outbox_keep_days(env: Mapping[str, str]) -> float:
    """``DISPATCH_OUTBOX_KEEP_DAYS``: a number of days above zero (unset: 30)."""
    raw = (env.get("DISPATCH_OUTBOX_KEEP_DAYS") or "").strip()
    if not raw:
        return DEFAULT_OUTBOX_KEEP_DAYS
    try:
        days = float(raw)
    except ValueError:
        days = float("nan")
    if not (0 < days < 100_000):
        raise ConfigError(
            f"DISPATCH_OUTBOX_KEEP_DAYS must be a number of days above 0, such as 30 "
            f"(got {raw[:40]!r})."
        )
    return days


def web_settings(env: Mapping[str, str]) -> WebSettings:
    """``DISPATCH_WEB_*``: the spectator page's settings, each checked."""
    port = web_port(env)
    host = (env.get("DISPATCH_WEB_HOST") or "").strip() or "127.0.0.1"
    url = (env.get("DISPATCH_WEB_URL") or "").strip().rstrip("/") or None
    if url is not None and not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", url):
        raise ConfigError(
            "DISPATCH_WEB_URL must be the page's address such as https://dispatch.example.org "
            f"(got {url[:60]!r})."
        )
    secret = (env.get("DISPATCH_WEB_SECRET") or "").strip() or None
    if secret is not None and len(secret) < 16:
        raise ConfigError("DISPATCH_WEB_SECRET must be at least 16 characters long.")
    trust = (env.get("DISPATCH_WEB_TRUST_PROXY") or "").strip().lower() in ("1", "yes", "true")
    return WebSettings(port=port, host=host, url=url, secret=secret, trust_proxy=trust)


def web_port(env: Mapping[str, str]) -> int | None:
    raw = (env.get("DISPATCH_WEB_PORT") or "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        raise ConfigError(f"DISPATCH_WEB_PORT must be a port from 1 to 65535, not {raw[:20]!r}.")
    return int(raw)
