"""The Fate Die's six faces, and the Card Display slots each one turns face up.

The faces (ids used in the state and the log) and what each allows are described where
they are read: ``rules.solo.fate`` for the CDG Solo System, ``rules.fate_die.opponent``
for the opponent in our own games.
"""

from __future__ import annotations

FACES = ("c_low", "event_low", "abc", "ab", "cde", "de")

#: The slots a face flips (``event_low`` flips by choice instead).
FLIPS: dict[str, tuple[str, ...]] = {
    "c_low": ("C",),
    "event_low": (),
    "abc": ("A", "B", "C"),
    "ab": ("A", "B"),
    "cde": ("C", "D", "E"),
    "de": ("D", "E"),
}
