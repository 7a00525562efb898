"""The two 72-card decks: loading them from ``data/decks.json`` and checking them.

Cards are static content: the state holds only their ids ("U01".."U72" for the Union,
"C01".."C72" for the Confederacy) and everything else is looked up here. A card is one
of five kinds:

- ``infantry``, ``cavalry``, ``artillery``: units with a point value;
- ``commander``: a character with a point value and a ``boost`` printed on it, e.g. +1 to
  every other card of yours in the same column, or +1 to each of your cavalry anywhere;
- ``event``: worth nothing in a column; its ``instructions`` are run by the event
  interpreter (see ``rules.war.events``, which also checks them against the parameters
  each op declares) when it comes up in the opening flip. ``beside`` marks the
  cards the rulebook calls "place beside the battlefield" (modifiers for this battle).

Any unit or commander may carry ``another``: "play another card immediately".
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from rules.core.paths import data_dir

DATA_FILE = data_dir("war") / "decks.json"

SIDES = ("union", "confederate")
DECK_SIZE = 72
UNIT_KINDS = ("infantry", "cavalry", "artillery")
KINDS = (*UNIT_KINDS, "commander", "event")
ID_PREFIX = {"union": "U", "confederate": "C"}
MAX_VALUE = 10


@dataclass(frozen=True)
class Boost:
    """What a commander adds: ``amount`` to each other card of its side (of kind ``unit``
    when given) in the same column (``where == "column"``) or anywhere (``"battlefield"``)."""

    where: str
    amount: int
    unit: str | None


@dataclass(frozen=True)
class Card:
    id: str
    side: str
    name: str
    kind: str
    value: int
    text: str
    another: bool = False
    boost: Boost | None = None
    beside: bool = False
    instructions: tuple[dict[str, Any], ...] = ()

    @property
    def is_event(self) -> bool:
        return self.kind == "event"

    def facts(self) -> dict[str, Any]:
        """The card as a view shows it: every fact a renderer or a policy needs."""
        return {
            "id": self.id,
            "name": self.name,
            "side": self.side,
            "kind": self.kind,
            "value": self.value,
            "text": self.text,
            "another": self.another,
            "boost": None
            if self.boost is None
            else {"where": self.boost.where, "amount": self.boost.amount, "unit": self.boost.unit},
            "beside": self.beside,
        }


def raw_decks() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    return data


def _card(side: str, raw: dict[str, Any]) -> Card:
    boost = raw.get("boost")
    return Card(
        id=str(raw["id"]),
        side=side,
        name=str(raw["name"]),
        kind=str(raw["kind"]),
        value=int(raw.get("value", 0)),
        text=str(raw.get("text", "")),
        another=bool(raw.get("another", False)),
        boost=None
        if boost is None
        else Boost(str(boost["where"]), int(boost["amount"]), boost.get("unit")),
        beside=bool(raw.get("beside", False)),
        instructions=tuple(dict(i) for i in raw.get("instructions", ())),
    )


@cache
def cards() -> dict[str, Card]:
    """Every card of both decks by id (checked once, on first use)."""
    data = raw_decks()
    problems = validate(data)
    if problems:
        raise ValueError("decks.json is invalid: " + "; ".join(problems[:5]))
    return {raw["id"]: _card(side, raw) for side in SIDES for raw in data["decks"][side]["cards"]}


@cache
def card(card_id: str) -> Card:
    """One card by id (cached: every step of a battle asks for cards by id)."""
    return cards()[card_id]


def deck_ids(side: str) -> list[str]:
    """The ids of one side's deck, in data order (the game shuffles them)."""
    return list(_deck_order(side))


@cache
def _deck_order(side: str) -> tuple[str, ...]:
    """``deck_ids``, worked out once: every set-up and every determinization asks."""
    return tuple(c.id for c in cards().values() if c.side == side)


def validate(data: dict[str, Any]) -> list[str]:
    """Everything wrong with the deck data, as sentences; empty when it is sound."""
    problems: list[str] = []
    if "designed_by" not in data:
        problems.append("the designed_by marker is missing")
    seen: set[str] = set()
    names: set[str] = set()
    for side in SIDES:
        deck = data.get("decks", {}).get(side, {}).get("cards", [])
        if len(deck) != DECK_SIZE:
            problems.append(f"{side} has {len(deck)} cards, not {DECK_SIZE}")
        for raw in deck:
            problems.extend(_card_problems(side, raw, seen, names))
    return problems


def _card_problems(side: str, raw: dict[str, Any], seen: set[str], names: set[str]) -> list[str]:
    problems: list[str] = []
    cid = raw.get("id", "?")
    where = f"{side} card {cid}"
    if not isinstance(cid, str) or not cid.startswith(ID_PREFIX[side]):
        problems.append(f"{where}: id must start with {ID_PREFIX[side]}")
    if cid in seen:
        problems.append(f"{where}: duplicate id")
    seen.add(str(cid))
    if raw.get("name") in names:
        problems.append(f"{where}: duplicate name {raw.get('name')!r}")
    names.add(str(raw.get("name")))
    if not raw.get("name") or not raw.get("text"):
        problems.append(f"{where}: needs a name and a text")
    kind = raw.get("kind")
    if kind not in KINDS:
        problems.append(f"{where}: unknown kind {kind!r}")
        return problems
    if kind == "event":
        return problems + _event_problems(where, raw)
    return problems + _unit_problems(where, kind, raw)


def _event_problems(where: str, raw: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    if raw.get("value", 0) != 0:
        problems.append(f"{where}: an event is worth 0")
    if raw.get("another") or raw.get("boost"):
        problems.append(f"{where}: an event has neither another nor boost")
    instructions = raw.get("instructions")
    if not isinstance(instructions, list) or not instructions:
        problems.append(f"{where}: an event needs instructions")
    return problems


def _unit_problems(where: str, kind: str, raw: dict[str, Any]) -> list[str]:
    """A card that is not an event: its value, and a commander's boost."""
    problems: list[str] = []
    value = raw.get("value", 0)
    if not isinstance(value, int) or not 1 <= value <= MAX_VALUE:
        problems.append(f"{where}: value must be 1..{MAX_VALUE}")
    if raw.get("instructions") or raw.get("beside"):
        problems.append(f"{where}: only events have instructions or beside")
    boost = raw.get("boost")
    if kind == "commander" and boost is not None:
        if boost.get("where") not in ("column", "battlefield"):
            problems.append(f"{where}: boost.where must be column or battlefield")
        if not isinstance(boost.get("amount"), int) or not 1 <= boost["amount"] <= 3:
            problems.append(f"{where}: boost.amount must be 1..3")
        if boost.get("unit") is not None and boost["unit"] not in UNIT_KINDS:
            problems.append(f"{where}: boost.unit must be a unit kind or null")
    elif kind != "commander" and boost is not None:
        problems.append(f"{where}: only commanders boost")
    return problems
