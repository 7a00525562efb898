"""The game's random generator: a secret key and a counter, both inside the game state.

Games never touch Python's global ``random``: every draw goes through these functions,
which read and write ``state["rng"]``. The same key and the same actions give the same
game, so a stored game can be replayed from its key and action log.

Hidden cards are the product, so the generator must not be predictable from what the
table sees. Draw number *n* is a keyed BLAKE2b hash of *n* (a pseudorandom function
of the counter, as in counter-mode stream ciphers): without the key, the cards already
shown say nothing about the ones still hidden. A new game's key is 256 bits from
``secrets`` (see :func:`new_key`); it lives in ``state["rng"]["key"]`` and no view, log
line or image ever carries it. The bot keeps the export, which holds it, back until the
game is over.

A game may also be started from a small *chosen* seed, for practice and tests: its key
is derived from the seed, so anyone who knows the seed can work out every hidden card.
The table is told so when such a game is created.

Generators, by the shape of ``state["rng"]``:

- ``{"alg": "blake2b", "key": <64 hex digits>, "n": <draws so far>}``: every game set
  up by this version;
- ``{"alg": "splitmix64", "s": <int>}``: games stored before the keyed generator
  existed keep SplitMix64 (Steele, Lea and Flood, 2014) for ever, so their future does
  not change; ``upgrade_generator`` names the old bare int this way when such a state
  is upgraded.

Drawing from the generator is new information, so every draw also closes the undo
window (see ``rules.core.undo``).
"""

from __future__ import annotations

import hashlib
import secrets
import struct
import sys
from array import array
from collections import deque
from functools import lru_cache
from itertools import repeat
from operator import mod
from typing import Any, TypeVar

from rules.core.types import State
from rules.core.undo import seal

T = TypeVar("T")

KEYED = "blake2b"
SPLITMIX = "splitmix64"
#: Bytes of key for a new game: 256 bits.
KEY_BYTES = 32

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def new_key() -> str:
    """A fresh secret key (hex) for a game nobody may predict."""
    return secrets.token_hex(KEY_BYTES)


def is_key(seed: object) -> bool:
    """Whether ``seed`` is a key (hex text of at least 128 bits), not a chosen seed."""
    if not isinstance(seed, str) or len(seed) < 32 or len(seed) % 2:
        return False
    try:
        bytes.fromhex(seed)
    except ValueError:
        return False
    return True


def chosen_key(seed: int) -> str:
    """The key of a game started from a chosen seed: public, since the seed is."""
    return hashlib.blake2b(f"dispatch chosen seed {int(seed)}".encode(), digest_size=32).hexdigest()


def legacy_seed(seed: int) -> str:
    """How an export names the seed of a game stored before the keyed generator, so that
    replaying it sets up SplitMix64 as the game did."""
    return f"{SPLITMIX}:{int(seed)}"


def generator(seed: int | str) -> dict[str, Any]:
    """The generator state of a new game: from a key, from a chosen int seed, or (replays
    of old games) from a ``legacy_seed``."""
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise TypeError("a game's seed is an int (chosen) or a hex key")
    if isinstance(seed, str) and seed.startswith(SPLITMIX + ":"):
        old = int(seed.partition(":")[2])
        return {"alg": SPLITMIX, "s": (old * 0x2545F4914F6CDD1D + 0x632BE59BD9B4E019) & _MASK}
    key = seed.lower() if isinstance(seed, str) else chosen_key(seed)
    if not is_key(key):
        raise ValueError("a key is hex text of at least 128 bits")
    return {"alg": KEYED, "key": key, "n": 0}


def upgrade_generator(document: State) -> None:
    """Name the generator of a state stored before the keyed one: a bare int is SplitMix64."""
    value = document.get("rng")
    if isinstance(value, int) and not isinstance(value, bool):
        document["rng"] = {"alg": SPLITMIX, "s": value}


@lru_cache(maxsize=256)
def _keyed(key: str) -> hashlib.blake2b:
    """A BLAKE2b hasher that has taken in ``key`` and nothing else: copying it is a third
    cheaper than keying a new one for every draw, and gives the same digests."""
    return hashlib.blake2b(key=bytes.fromhex(key), digest_size=8)


#: An unsigned 64-bit integer, little-endian: a draw's counter and digest.
_U64 = struct.Struct("<Q")
#: The hasher methods ``keyed_words`` maps over its hashers.
_COPY = hashlib.blake2b.copy
_UPDATE = hashlib.blake2b.update
_DIGEST = hashlib.blake2b.digest


def _next64(state: State) -> int:
    rng = state["rng"]
    if rng["alg"] == KEYED:
        n = rng["n"]
        rng["n"] = n + 1
        hasher = _keyed(rng["key"]).copy()
        hasher.update(n.to_bytes(8, "little"))
        return int.from_bytes(hasher.digest(), "little")
    if rng["alg"] == SPLITMIX:
        s = (int(rng["s"]) + _GOLDEN) & _MASK
        rng["s"] = s
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)
    raise ValueError(f"unknown random generator {rng['alg']!r}")


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
    """Shuffle ``items`` in place (Fisher-Yates).

    The same draws, swaps and seals as calling :func:`randbelow` once per position and
    sealing at the end (``test_shuffle_is_randbelow_per_position`` holds it to that), with
    the seals counted in one go: a search shuffles a deck at every determinization.
    """
    seal(state)
    state["seal"] += max(len(items) - 1, 0)
    rng = state["rng"]
    if rng["alg"] == KEYED:
        _shuffle_keyed(rng, items)
        return
    span = 1 << 64
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = span - (span % n)
        r = _next64(state)
        while r >= limit:
            r = _next64(state)
        j = r % n
        items[i], items[j] = items[j], items[i]


def keyed_words(key: str, start: int, count: int) -> list[int]:
    """Draws ``start`` to ``start + count - 1`` of the keyed generator, as ``_next64``
    makes them one at a time, made together: the hashers are copied, fed their counters
    and finished inside C loops (``map``), and the digests are read as one array of
    64-bit words, so a draw costs no Python bytecode."""
    hashers = list(map(_COPY, repeat(_keyed(key), count)))
    deque(map(_UPDATE, hashers, map(_U64.pack, range(start, start + count))), maxlen=0)
    words = array("Q", b"".join(map(_DIGEST, hashers)))
    if sys.byteorder != "little":  # the digests are little-endian, as in ``_next64``
        words.byteswap()
    return words.tolist()


def _shuffle_keyed(rng: dict[str, Any], items: list[T]) -> None:
    """The Fisher-Yates loop of :func:`shuffle` for the keyed generator: the same draws
    as ``_next64`` one per position, taken from one batch of ``keyed_words`` (a search
    shuffles decks at every determinization)."""
    key, top = rng["key"], len(items) - 1
    span = 1 << 64
    # ``span % n`` is below ``n``, so a draw under ``span - len(items)`` is never refused:
    # the exact bound is worked out only above that.
    sure = span - len(items)
    while top > 0:  # once, unless a draw is refused
        start = rng["n"]
        words = keyed_words(key, start, top)
        if max(words) < sure:
            # No draw of the batch can be refused (nearly always): every ``r % n`` is
            # worked out in C, and the loop only swaps.
            targets = map(mod, words, range(top + 1, 1, -1))
            for i, j in zip(range(top, 0, -1), targets, strict=True):
                items[i], items[j] = items[j], items[i]
            rng["n"] = start + top
            return
        for i, r in zip(range(top, 0, -1), words, strict=True):
            n = i + 1
            if r >= sure and r >= span - span % n:
                # Refused (about once in 2**59 draws), to keep ``r % n`` unbiased: this
                # position draws again, so every later draw is one counter further on.
                rng["n"] = start + top - i + 1
                top = i
                break
            j = r % n
            items[i], items[j] = items[j], items[i]
        else:
            rng["n"] = start + top
            return


def choice(state: State, items: list[T]) -> T:
    """One element of a non-empty list."""
    return items[randbelow(state, len(items))]
