"""The database's faults of the chaos run (tests/chaos.py), and what its settle phase and
its stop read from the database.

The faults, at even times through the play: ``restart`` stops the run's own PostgreSQL
server at once and starts it again (``chaos_server``; every connection drops, as in a
crash or a failover), ``drop`` ends every other connection to the database with
``pg_terminate_backend`` (what an idle-connection reaper or a proxy does).

The reads, each a list of problems (empty: fine):

- :func:`unsettled`: after the settle phase, undelivered outbox rows and games flagged
  damaged;
- :func:`claims_of`: the rows a process (by its pid, part of each name it claims
  under) still holds claimed, for the take-over time of a killed one;
- :func:`held_claims`: after every process was stopped, the claims still holding:
  each is a stopped process's, and delays whoever takes the work next.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import asyncpg

from bot.storage.statements.processes import CLAIMED_TABLES

#: The rows of each claimed table that still stand for work to do (a delivered outbox
#: row or a finished job keeps its claim's columns only by accident: nothing is held).
OPEN_WORK = {
    "outbox": "delivered_at IS NULL",
    "timers": "TRUE",
    "clocks": "TRUE",
    "bot_jobs": "status = 'pending'",
    "league_games": "game_id IS NULL AND outcome IS NULL",
    "league_posts": "delivered_at IS NULL",
}

Rows = Callable[[str], Awaitable[list[Any]]]


async def drop_connections(database: str) -> int:
    """End every other client connection to ``database``; returns how many."""
    conn = await asyncpg.connect(database)
    try:
        ended = await conn.fetch(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            " AND backend_type = 'client backend'"
        )
    finally:
        await conn.close()
    return sum(1 for r in ended if r[0])


def name_prefix(pid: int) -> str:
    """How every name a process of this host claims under begins (``Store.instance``,
    the bot seats' ``owner``: host, pid, a random tag)."""
    return f"{socket.gethostname()}:{pid}:"


async def claims_of(rows: Rows, pid: int) -> int:
    """How many rows of open work process ``pid`` holds claimed (lapsed or not)."""
    like = name_prefix(pid).replace("'", "''") + "%"
    counts = [
        f"(SELECT COUNT(*) FROM {t} WHERE claimed_by LIKE '{like}' AND {OPEN_WORK[t]})"
        for t in CLAIMED_TABLES
    ]
    found = await rows("SELECT " + " + ".join(counts))
    return int(found[0][0])


async def beats_of(rows: Rows, pid: int, since: float) -> bool:
    """Whether process ``pid`` beat (``bot.storage.liveness``) after ``since``."""
    like = name_prefix(pid).replace("'", "''") + "%"
    found = await rows(
        f"SELECT COUNT(*) FROM process_beats WHERE owner LIKE '{like}' AND beat_at > {since!r}"
    )
    return bool(found[0][0])


async def held_claims(rows: Rows, now: float) -> list[str]:
    """Open work still under a live lease (``now``: the database's clock, epoch s)."""
    problems = []
    for table in CLAIMED_TABLES:
        found = await rows(
            f"SELECT claimed_by, COUNT(*) FROM {table} WHERE claimed_by IS NOT NULL"
            f" AND lease_until > {now!r} AND {OPEN_WORK[table]} GROUP BY claimed_by"
        )
        problems += [f"{table}: {r[1]} row(s) held by stopped process {r[0]}" for r in found]
    return problems


async def unsettled(rows: Rows) -> list[str]:
    """Undelivered outbox rows, and games flagged damaged."""
    problems = []
    waiting = await rows(
        "SELECT game_id, COUNT(*) FROM outbox WHERE delivered_at IS NULL GROUP BY game_id"
    )
    problems += [f"game {r[0]}: {r[1]} post(s) never delivered" for r in waiting]
    damaged = await rows("SELECT id FROM games WHERE damaged IS NOT NULL")
    problems += [f"game {r[0]}: flagged damaged" for r in damaged]
    return problems


def cpu_seconds(pids: Sequence[int]) -> float:
    """CPU seconds (user and system) used so far by the processes ``pids`` and their
    living descendants (a bot's search pool), from ``/proc``; 0 for one gone."""
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
                stats[int(entry.name)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    wanted = set(pids) & stats.keys()
    while True:
        children = {pid for pid, (ppid, _) in stats.items() if ppid in wanted} - wanted
        if not children:
            break
        wanted |= children
    return sum(stats[pid][1] for pid in wanted) / os.sysconf("SC_CLK_TCK")
