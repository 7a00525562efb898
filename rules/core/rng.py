"""A seeded random generator whose whole state is one int inside the game state.

Games never touch Python's global ``random``: every draw goes through these functions,
which read and write ``state["rng"]``. The same seed and the same actions therefore give
the same game, and a stored game can be replayed from its seed and action log.

The generator is SplitMix64 (Steele, Lea and Flood, 2014): tiny, fast in pure Python, and
good enough for shuffling cards. Drawing from the generator is new information, so every
draw also closes the undo window (see ``rules.core.undo``).
"""

from __future__ import annotations

from typing import TypeVar

from rules.core.types import State
from rules.core.undo import seal

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")


def seed_state(seed: int) -> int:
    """The generator state for a seed (any int, folded to 64 bits)."""
    return (seed * 0x2545F4914F6CDD1D + 0x632BE59BD9B4E019) & _MASK


def _next64(state: State) -> int:
    s = (int(state["rng"]) + _GOLDEN) & _MASK
    state["rng"] = s
    z = s
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def randbelow(state: State, n: int) -> int:
    """A uniform int in ``range(n)``, without modulo bias."""
    if n <= 0:
        raise ValueError("randbelow needs a positive bound")
    seal(state)
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        r = _next64(state)
        if r < limit:
            return r % n


def roll(state: State, sides: int) -> int:
    """A die roll from 1 to ``sides``."""
    return randbelow(state, sides) + 1


def shuffle(state: State, items: list[T]) -> None:
    """Shuffle ``items`` in place (Fisher-Yates)."""
    for i in range(len(items) - 1, 0, -1):
        j = randbelow(state, i + 1)
        items[i], items[j] = items[j], items[i]
    seal(state)


def choice(state: State, items: list[T]) -> T:
    """One element of a non-empty list."""
    return items[randbelow(state, len(items))]
