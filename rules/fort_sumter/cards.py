"""The static content of Fort Sumter: map spaces, strategy cards and objective cards.

Everything is read once from ``data/*.json`` and checked by :func:`validate`; nothing of
it ever goes into the game state (the state only holds ids). A group owning the printed
game can swap in the real cards by editing the JSON files: the loader checks every field
and every space id, and :mod:`rules.fort_sumter.events` checks every event instruction
against the parameters its op declares.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.core.paths import data_dir

DATA = data_dir("fort_sumter")

ROLES = ("unionist", "secessionist")
#: The value-box colour of each side.
COLOUR = {"unionist": "blue", "secessionist": "gray"}
COLOURS = ("blue", "gray", "both")
SOURCES = ("known", "designed", "reconstructed")


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


def validate() -> list[str]:
    """Every broken rule of the data files, as sentences (empty when all is well)."""
    problems = _map_problems()
    if len(STRATEGY) != 40:
        problems.append(f"there must be 40 strategy cards, not {len(STRATEGY)}")
    for card in STRATEGY.values():
        problems += _strategy_problems(card)
    if len(OBJECTIVES) != 12:
        problems.append(f"there must be 12 objective cards, not {len(OBJECTIVES)}")
    if sorted(o.space for o in OBJECTIVES.values()) != sorted(SPACES):
        problems.append("there must be exactly one objective card per space")
    clash = set(STRATEGY) & set(OBJECTIVES) | (set(STRATEGY) | set(OBJECTIVES)) & set(SPACES)
    if clash:
        problems.append(f"ids used twice: {sorted(clash)}")
    return problems


def _map_problems() -> list[str]:
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
    return problems


def _strategy_problems(card: StrategyCard) -> list[str]:
    problems: list[str] = []
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
