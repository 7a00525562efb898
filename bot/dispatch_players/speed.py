"""How fast this machine runs the engines, probed once per process, to scale the safety cap.

A search level is a budget of iterations, and the safety cap (``rules.ai.safety_seconds``)
only stops a runaway search, in CPU seconds of its thread. But a CPU second does less
work on a slow machine, or on a loaded one whose cores share their caches: a Fort
Sumter search of the normal budget took 4.2 to 5.5 CPU s on a busy host, past a cap
of 3. So the cap is made far wider than a search needs on a quiet core
(``rules.ai.SAFETY_FACTOR``), and is scaled again by how much slower than the reference
core this machine ran when the process first searched: :func:`probe` plays random games
of Fort Sumter on the simulation path (the way a search plays out) for a fraction of a
CPU second and counts them, as ``bench/calibrate_levels.py`` measures the engine.
"""

from __future__ import annotations

import functools
import logging
import random
import threading
import time
from collections.abc import Callable

from rules import get_game

log = logging.getLogger("dispatch.bots")

#: Random games of Fort Sumter per CPU second on a quiet core of the reference machine,
#: the one the levels' budgets were calibrated on (``bench/calibrate_levels.py``'s
#: ``QUIET_ENGINE``; ``docs/ai.md``). Measured there through ``decisions`` and a trusted
#: ``act``; ``Game.playout``, which the probe uses, ran 0.96 to 1.14 times that rate
#: side by side, the same within the noise of a probe.
REFERENCE_GAMES_PER_CPU_S = 1_664.0
#: CPU seconds the probe plays for (about 300 games on the reference core).
PROBE_CPU_S = 0.25
#: The most the cap is widened by: a probe far below the reference (a process starved
#: at the very moment it probed) must not let a runaway search hold a seat for minutes.
MAX_SLOWDOWN = 3.0
#: Longer than any game of Fort Sumter: the probe's games are played to their end.
_NO_LIMIT = 1_000_000


def probe(cpu_seconds: float = PROBE_CPU_S, clock: Callable[[], float] = time.thread_time) -> float:
    """Random games of Fort Sumter per CPU second of this thread (``clock``), played for
    about ``cpu_seconds`` from set-up seeds 0 on, with one seeded generator."""
    game = get_game("fort_sumter")
    draw = random.Random(0).random
    games = 0
    started = clock()
    while (elapsed := clock() - started) < cpu_seconds:
        game.playout(game.setup(seed=games), draw, _NO_LIMIT)
        games += 1
    return games / elapsed


def slowdown_of(games_per_cpu_s: float) -> float:
    """How many times slower than the reference core a machine that plays
    ``games_per_cpu_s`` is: never below 1 (a fast machine keeps the level's own cap),
    never above :data:`MAX_SLOWDOWN`."""
    if games_per_cpu_s <= 0:
        return MAX_SLOWDOWN
    return min(MAX_SLOWDOWN, max(1.0, REFERENCE_GAMES_PER_CPU_S / games_per_cpu_s))


#: Several games may search first at once: one of them probes, the others wait for it.
_probing = threading.Lock()


def machine_slowdown() -> float:
    """This process's slowdown against the reference core, probed the first time it is
    asked (before its first search) and kept; logged with the probe's figure."""
    with _probing:
        return _first_probe()


@functools.cache
def _first_probe() -> float:
    measured = probe()
    slowdown = slowdown_of(measured)
    log.info(
        "speed probe: %.0f random Fort Sumter games per CPU second (the reference core: "
        "%.0f); the searches' safety caps are widened %.2f times",
        measured,
        REFERENCE_GAMES_PER_CPU_S,
        slowdown,
    )
    return slowdown
