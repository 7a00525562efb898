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
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DB = "dispatch.sqlite3"
#: A Discord id (a snowflake): a positive number of at most 20 digits.
SNOWFLAKE = re.compile(r"[0-9]{1,20}")


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
    #: The PostgreSQL database (``DISPATCH_DATABASE_URL``); None: the SQLite file.
    database_url: str | None = None

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
        if not isinstance(logging.getLevelName(level), int):
            level = "INFO"
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
            database_url=url,
        )


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
