"""A sign of life for container healthchecks: ``dispatch health``.

A running process (bot or worker) that is healthy writes the time into a small file
(``DISPATCH_HEALTH_FILE``) every ``BEAT_EVERY_S``; ``dispatch health``, run by Docker's
healthcheck inside the same container, says whether that file is fresh. The bot counts
as healthy while it is connected to Discord (ready and not closing); a process that
hangs, lost Discord for good or stopped writes nothing, and the healthcheck fails after
``STALE_AFTER_S``, so the orchestrator restarts it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger("dispatch.health")

#: How often a healthy process writes its sign of life.
BEAT_EVERY_S = 15.0
#: A sign of life older than this means the process is not healthy.
STALE_AFTER_S = 90.0


def beat(path: Path, healthy: Callable[[], bool], now: Callable[[], float] = time.time) -> bool:
    """Write the time to ``path`` if ``healthy()``; True when written."""
    if not healthy():
        return False
    try:
        temporary = path.with_name(path.name + ".new")
        temporary.write_text(f"{now():.3f}\n")
        os.replace(temporary, path)  # never a half-written file for the reader
    except OSError as exc:
        log.warning("cannot write the health file %s: %s", path, exc)
        return False
    return True


async def keep_alive(
    path: Path, healthy: Callable[[], bool], every_s: float = BEAT_EVERY_S
) -> None:
    """Write a sign of life every ``every_s`` while ``healthy()`` (and look again each
    second until it is, so a process that just connected is seen at once); cancel to stop."""
    while True:
        wrote = beat(path, healthy)
        await asyncio.sleep(every_s if wrote else min(1.0, every_s))


def forget(path: Path) -> None:
    """Remove the sign of life (a stopped process is not healthy)."""
    with contextlib.suppress(OSError):
        path.unlink()


def check(
    path: Path | None, now: Callable[[], float] = time.time, stale_after_s: float = STALE_AFTER_S
) -> tuple[bool, str]:
    """(healthy, one line saying why) from the health file at ``path``."""
    if path is None:
        return False, "DISPATCH_HEALTH_FILE is not set; the process writes no sign of life"
    try:
        written = float(path.read_text().strip())
    except FileNotFoundError:
        return False, f"no sign of life yet in {path} (starting, stopped, or not connected)"
    except (OSError, ValueError) as exc:
        return False, f"cannot read the sign of life in {path}: {exc}"
    age = now() - written
    if age > stale_after_s:
        return False, f"the last sign of life is {age:.0f} s old (over {stale_after_s:.0f} s)"
    return True, f"healthy: last sign of life {max(age, 0.0):.0f} s ago"
