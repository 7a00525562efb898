"""The seven playsheets as data: ``data/<name>.json`` holds each sheet's facts.

A playsheet says how the automated side's Card Display behaves in one host game: set-up
(Standard or Standard+), Max Hand Size, one shared deck or one deck per side, how each
Fate Die face refills the emptied slot, and which extra procedures and named cards the
game needs. The engine reads the flags here and never branches on a game's name except
through them.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from rules.core.paths import data_dir

DATA = data_dir("solo")

#: Every playsheet shipped, in the order of the rules text.
SHEETS: tuple[str, ...] = (
    "washingtons_war",
    "caesar",
    "paths_of_glory",
    "illusions_of_glory",
    "for_the_people",
    "cc_ancients",
    "cc_samurai",
)

Sheet = dict[str, Any]


@cache
def _load(name: str) -> str:
    return (DATA / f"{name}.json").read_text(encoding="utf-8")


def sheet(name: str) -> Sheet:
    """The playsheet ``name`` as a fresh dict (callers may not share mutations)."""
    if name not in SHEETS:
        raise KeyError(name)
    data: Sheet = json.loads(_load(name))
    return data


def named(sheet_data: Sheet, key: str) -> list[Any]:
    """The card numbers (or ids) a playsheet names for a rule, e.g. ``"random_discard"``."""
    value: list[Any] = sheet_data.get("named", {}).get(key, [])
    return value


@cache
def _shared(name: str) -> Sheet:
    return sheet(name)


def of(state: dict[str, Any]) -> Sheet:
    """The playsheet of a solo session (shared: read it, never change it)."""
    return _shared(str(state["playsheet"]))
