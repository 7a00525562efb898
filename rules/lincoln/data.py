"""The static content of Lincoln: the map, the tracks, the counters and both decks.

Read once from ``data/map.json`` and ``data/cards.json``; nothing of it goes into the
game state (the state holds location and card ids only). Every entry is marked
``"source": "known"`` (with the ``"fact"`` it rests on) or ``"designed"``, so a group
owning the printed game can swap in the real board and cards.
"""

from __future__ import annotations

import json
from typing import Any

from rules.core.paths import data_dir

DATA = data_dir("lincoln")

ROLES: tuple[str, str] = ("union", "confederate")
ROLE_NAMES = {"union": "Union", "confederate": "Confederate"}
TOP_KINDS = ("army", "ship", "fort", "politician", "none")
TIMINGS = ("action", "free", "benefit", "none")
WAVES = ("base", "I", "II")


def _load(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return loaded


MAP = _load("map.json")
CARD_FILE = _load("cards.json")

LOCATIONS: dict[str, dict[str, Any]] = {loc["id"]: loc for loc in MAP["locations"]}
LOCATION_IDS: tuple[str, ...] = tuple(LOCATIONS)
LINKS: list[dict[str, Any]] = MAP["links"]
TRACKS: dict[str, Any] = MAP["tracks"]
BLOCKADE: list[dict[str, Any]] = TRACKS["blockade"]["spaces"]
EUROPE: list[str] = TRACKS["europe"]["spaces"]
EUROPE_START: int = TRACKS["europe"]["start"]
EUROPE_END = len(EUROPE) - 1
COUNTERS: dict[str, Any] = MAP["counters"]
SETUP: dict[str, Any] = MAP["setup"]
PORTS: tuple[str, ...] = tuple(i for i, loc in LOCATIONS.items() if loc["port"])
TOP_THREE: frozenset[str] = frozenset(i for i, loc in LOCATIONS.items() if loc["top_three"])
SUPPLY_SOURCES: dict[str, tuple[str, ...]] = {
    role: tuple(i for i, loc in LOCATIONS.items() if loc["supply_source"] and loc["colour"] == role)
    for role in ROLES
}

#: For each location: (half here, neighbour, half there, link index), in data order.
ADJACENT: dict[str, list[tuple[int, str, int, int]]] = {i: [] for i in LOCATIONS}
for _index, _link in enumerate(LINKS):
    ADJACENT[_link["a"]].append((_link["a_half"], _link["b"], _link["b_half"], _index))
    ADJACENT[_link["b"]].append((_link["b_half"], _link["a"], _link["a_half"], _index))

CARDS: dict[str, dict[str, Any]] = {card["id"]: card for card in CARD_FILE["cards"]}


def link_between(a: str, b: str) -> int:
    """The index of the rail link joining ``a`` and ``b``."""
    for _here, there, _half, index in ADJACENT[a]:
        if there == b:
            return index
    raise KeyError(f"no rail link {a}-{b}")


def name(location: str) -> str:
    return str(LOCATIONS[location]["name"])


def half_name(location: str, half: int) -> str:
    return str(LOCATIONS[location]["halves"][half])


def card_name(card: str) -> str:
    return str(CARDS[card]["name"])


def card_facts(card: str) -> dict[str, Any]:
    """A card as the view shows it (to whoever may see it)."""
    data = CARDS[card]
    return {
        "id": card,
        "name": data["name"],
        "side": data["side"],
        "wave": data["wave"],
        "top": dict(data["top"]),
        "icons": dict(data["icons"]),
        "timing": data["timing"],
        "text": data["text"],
    }


#: Each side's cards of each wave, in data order (every set-up deals from them).
_CARDS_OF: dict[tuple[str, str], tuple[str, ...]] = {
    (side, wave): tuple(
        c for c, data in CARDS.items() if data["side"] == side and data["wave"] == wave
    )
    for side in ROLES
    for wave in WAVES
}


def cards_of(side: str, wave: str) -> list[str]:
    return list(_CARDS_OF.get((side, wave), ()))


def opponent(role: str) -> str:
    return "confederate" if role == "union" else "union"
