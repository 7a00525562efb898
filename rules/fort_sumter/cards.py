"""The static content of Fort Sumter: map spaces, strategy cards and objective cards.

Everything is read once from ``data/*.json`` and checked by :func:`validate`; nothing of
it ever goes into the game state (the state only holds ids). A group owning the printed
game can swap in the real cards by editing the JSON files: the loader checks every field,
every event step against the vocabulary of :mod:`rules.fort_sumter.events` (described here
by :data:`EVENT_OPS`, so the data can be checked without the engine), and every space id.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"

ROLES = ("unionist", "secessionist")
#: The value-box colour of each side.
COLOUR = {"unionist": "blue", "secessionist": "gray"}
COLOURS = ("blue", "gray", "both")
SOURCES = ("known", "designed", "reconstructed")

#: The event vocabulary: op name -> {parameter: required?}. Shared by the data check and
#: the interpreter (events.py asserts that it implements exactly these ops).
EVENT_OPS: Mapping[str, Mapping[str, bool]] = {
    "place": {"count": True, "up_to": True, "where": True, "per_space": False, "if_control": False},
    "remove": {"count": True, "up_to": True, "side": True, "where": True, "if_control": False},
    "move": {
        "count": True,
        "up_to": True,
        "side": True,
        "from": True,
        "to": True,
        "if_control": False,
    },
    "peace_commissioner": {"where": True, "if_control": False},
}
SIDES = ("self", "opponent")


@dataclass(frozen=True)
class Space:
    id: str
    name: str
    dimension: str
    pivotal: bool
    source: str


@dataclass(frozen=True)
class Dimension:
    id: str
    name: str
    colour: str
    icon: str
    pivotal: str
    spaces: tuple[str, ...]


@dataclass(frozen=True)
class StrategyCard:
    id: str
    title: str
    value: int
    colour: str
    fc_dimension: str
    text: str
    event: tuple[Mapping[str, Any], ...]
    source: str
    known_facts: tuple[str, ...]

    def event_allowed(self, role: str) -> bool:
        """A card's event is for the side whose colour its value box shows, or both."""
        return self.colour in ("both", COLOUR[role])


@dataclass(frozen=True)
class ObjectiveCard:
    id: str
    title: str
    space: str
    text: str
    event: tuple[Mapping[str, Any], ...]
    source: str
    known_facts: tuple[str, ...]


class DataError(ValueError):
    """The data files break a rule of their format."""


def _read(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    return document


def _load_map(doc: Mapping[str, Any]) -> tuple[dict[str, Space], dict[str, Dimension]]:
    spaces = {
        s["id"]: Space(s["id"], s["name"], s["dimension"], bool(s["pivotal"]), s["source"])
        for s in doc["spaces"]
    }
    dimensions = {
        d["id"]: Dimension(
            d["id"], d["name"], d["colour"], d["icon"], d["pivotal"], tuple(d["spaces"])
        )
        for d in doc["dimensions"]
    }
    return spaces, dimensions


def _where_problems(where: Any, label: str) -> list[str]:
    if not isinstance(where, dict) or len(where) != 1:
        return [f"{label}: a place must be one of spaces/dimension/anywhere"]
    ((kind, value),) = where.items()
    if kind == "spaces":
        if not isinstance(value, list) or not value:
            return [f"{label}: 'spaces' must be a non-empty list"]
        return [f"{label}: unknown space {s!r}" for s in value if s not in SPACES]
    if kind == "dimension":
        return [] if value in DIMENSIONS else [f"{label}: unknown dimension {value!r}"]
    if kind == "anywhere":
        return [] if value is True else [f"{label}: 'anywhere' must be true"]
    return [f"{label}: unknown place kind {kind!r}"]


def event_problems(steps: Sequence[Mapping[str, Any]], label: str) -> list[str]:
    """Everything wrong with one event's steps (empty when it is valid)."""
    problems: list[str] = []
    if not steps:
        problems.append(f"{label}: the event has no steps")
    for number, step in enumerate(steps, 1):
        where = f"{label} step {number}"
        op = step.get("op")
        spec = EVENT_OPS.get(str(op))
        if spec is None:
            problems.append(f"{where}: unknown op {op!r}")
            continue
        for key in step:
            if key != "op" and key not in spec:
                problems.append(f"{where}: {op} takes no parameter {key!r}")
        for key, required in spec.items():
            if required and key not in step:
                problems.append(f"{where}: {op} needs {key!r}")
        count = step.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 8:
            problems.append(f"{where}: count must be 1-8")
        if "up_to" in step and not isinstance(step["up_to"], bool):
            problems.append(f"{where}: up_to must be true or false")
        if "per_space" in step and not (
            isinstance(step["per_space"], int) and 1 <= step["per_space"] <= 4
        ):
            problems.append(f"{where}: per_space must be 1-4")
        if "side" in step and step["side"] not in SIDES:
            problems.append(f"{where}: side must be one of {SIDES}")
        if "if_control" in step and step["if_control"] not in SPACES:
            problems.append(f"{where}: unknown space {step['if_control']!r}")
        for key in ("where", "from", "to"):
            if key in step:
                problems.extend(_where_problems(step[key], f"{where} {key}"))
    return problems


def validate() -> list[str]:
    """Every broken rule of the data files, as sentences (empty when all is well)."""
    problems: list[str] = []
    if len(SPACES) != 12 or len(DIMENSIONS) != 4:
        problems.append("the map must have 12 spaces in 4 dimensions")
    for dim in DIMENSIONS.values():
        members = [s for s in SPACES.values() if s.dimension == dim.id]
        if tuple(s.id for s in members) != dim.spaces or len(members) != 3:
            problems.append(f"dimension {dim.id}: its spaces do not match the map")
        pivotal = [s.id for s in members if s.pivotal]
        if pivotal != [dim.pivotal]:
            problems.append(f"dimension {dim.id}: exactly its pivotal space must be marked")
    for space in SPACES.values():
        if space.source not in ("known", "reconstructed"):
            problems.append(f"space {space.id}: source must be known or reconstructed")
    if len(STRATEGY) != 40:
        problems.append(f"there must be 40 strategy cards, not {len(STRATEGY)}")
    for card in STRATEGY.values():
        if card.value not in (1, 2, 3):
            problems.append(f"{card.id}: value must be 1-3")
        if card.colour not in COLOURS:
            problems.append(f"{card.id}: colour must be one of {COLOURS}")
        if card.fc_dimension not in DIMENSIONS:
            problems.append(f"{card.id}: unknown Final Crisis dimension")
        if card.source not in ("known", "designed"):
            problems.append(f"{card.id}: source must be known or designed")
        if card.source == "known" and not card.known_facts:
            problems.append(f"{card.id}: a known card must list its known facts")
        if not card.title or not card.text:
            problems.append(f"{card.id}: title and text are required")
        problems.extend(event_problems(card.event, card.id))
    if len(OBJECTIVES) != 12:
        problems.append(f"there must be 12 objective cards, not {len(OBJECTIVES)}")
    if sorted(o.space for o in OBJECTIVES.values()) != sorted(SPACES):
        problems.append("there must be exactly one objective card per space")
    for objective in OBJECTIVES.values():
        problems.extend(event_problems(objective.event, objective.id))
    clash = set(STRATEGY) & set(OBJECTIVES) | (set(STRATEGY) | set(OBJECTIVES)) & set(SPACES)
    if clash:
        problems.append(f"ids used twice: {sorted(clash)}")
    return problems


_MAP = _read("map")
SPACES, DIMENSIONS = _load_map(_MAP)
#: Map order of the spaces and dimensions (the order of the data file).
SPACE_IDS: tuple[str, ...] = tuple(SPACES)
PIVOTAL_SPACES: tuple[str, ...] = tuple(d.pivotal for d in DIMENSIONS.values())

STRATEGY: dict[str, StrategyCard] = {
    c["id"]: StrategyCard(
        c["id"],
        c["title"],
        c["value"],
        c["colour"],
        c["fc_dimension"],
        c["text"],
        tuple(c["event"]),
        c["source"],
        tuple(c.get("known_facts", ())),
    )
    for c in _read("strategy_cards")["cards"]
}
OBJECTIVES: dict[str, ObjectiveCard] = {
    c["id"]: ObjectiveCard(
        c["id"],
        c["title"],
        c["space"],
        c["text"],
        tuple(c["event"]),
        c["source"],
        tuple(c.get("known_facts", ())),
    )
    for c in _read("objective_cards")["cards"]
}

_problems = validate()
if _problems:
    raise DataError("Fort Sumter data files are invalid: " + "; ".join(_problems))


def space_name(space: str) -> str:
    return SPACES[space].name


def strategy_facts(card_id: str) -> dict[str, Any]:
    """A strategy card as public facts (for views and the catalogue)."""
    card = STRATEGY[card_id]
    return {
        "id": card.id,
        "title": card.title,
        "value": card.value,
        "colour": card.colour,
        "event_for": [r for r in ROLES if card.event_allowed(r)],
        "fc_dimension": card.fc_dimension,
        "fc_dimension_name": DIMENSIONS[card.fc_dimension].name,
        "text": card.text,
        "source": card.source,
    }


def objective_facts(card_id: str) -> dict[str, Any]:
    """An objective card as public facts."""
    card = OBJECTIVES[card_id]
    return {
        "id": card.id,
        "title": card.title,
        "space": card.space,
        "space_name": space_name(card.space),
        "dimension": SPACES[card.space].dimension,
        "text": card.text,
        "source": card.source,
    }
