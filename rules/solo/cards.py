"""What a card is: its facts, wherever they come from.

- Paths of Glory is fully managed: every card of both decks is in
  ``data/paths_of_glory_cards.json`` and the display shows names and values.
- The other six games have no public card list. Their decks are made of *tokens*
  (``"k17"``, or ``"cp17"``/``"ap17"`` for one deck per side) that stand for "whatever
  card you drew"; when a token is turned face up the player tells its facts. Facts given
  with a card number go into a per-deck *library* so the same card is never asked twice,
  and a group can import a whole list as CSV (:func:`parse_card_list`).

Facts of a card: ``number`` (int or None), ``name``, ``value`` (Ops / AP; None where the
value depends on the board), ``event`` (it has an event or is a tactic), ``kind`` (one
word of the playsheet's list: plain, mandatory, battle, combat, surprise, reaction,
campaign, section, tactic, first_strike, order_one_unit ...).
"""

from __future__ import annotations

import csv
import io
import json
from functools import cache
from typing import Any

from rules.core import IllegalAction, State
from rules.solo.sheets import DATA, Sheet

Facts = dict[str, Any]


@cache
def _pog_text() -> str:
    return (DATA / "paths_of_glory_cards.json").read_text(encoding="utf-8")


def pog_cards() -> dict[str, Facts]:
    """All 130 Paths of Glory cards by id (``"CP17"``), as facts."""
    out: dict[str, Facts] = {}
    for raw in json.loads(_pog_text())["cards"]:
        out[raw["id"]] = {
            "number": raw["number"],
            "name": raw["name"],
            "value": raw["value"],
            "sr": raw["sr"],
            "event": True,
            "kind": "combat" if raw["combat"] else "plain",
            "side": raw["side"],
            "commitment": raw["commitment"],
            "removed_after_event": raw["removed_after_event"],
            "war_status": raw["war_status"],
        }
    return out


_POG: dict[str, Facts] = pog_cards()


@cache
def _side_cards(side: str) -> tuple[str, ...]:
    return tuple(c for c, f in pog_cards().items() if f["side"] == side)


def side_cards(side: str) -> list[str]:
    """The ids of one side's Paths of Glory cards, in the list's order (read once: the
    conservation check asks at every action)."""
    return list(_side_cards(side))


def managed(sheet_data: Sheet) -> bool:
    """Does Dispatch know every card of this game (and so manage the decks itself)?"""
    return str(sheet_data["name"]) == "paths_of_glory"


def facts(state: State, card: str) -> Facts | None:
    """The facts of ``card``, or None while nobody has told them."""
    if card in _POG:
        return _POG[card]
    known: Facts | None = state["identity"].get(card)
    return known


def value(state: State, card: str) -> int | None:
    known = facts(state, card)
    return None if known is None else known.get("value")


def kind(state: State, card: str) -> str:
    known = facts(state, card)
    return "" if known is None else str(known.get("kind", ""))


def number(state: State, card: str) -> int | None:
    known = facts(state, card)
    return None if known is None else known.get("number")


def is_event(state: State, card: str) -> bool:
    known = facts(state, card)
    return bool(known and known.get("event"))


def name(state: State, card: str) -> str:
    """How the log and the display call a card: its name or number once known."""
    known = facts(state, card)
    if known is None:
        return "a face-down card"
    if known.get("name"):
        return f"#{known['number']} {known['name']}" if known.get("number") else str(known["name"])
    if known.get("number") is not None:
        return f"card #{known['number']}"
    kind = str(known.get("kind") or "plain")
    if kind == "plain":
        return "an unnumbered card"
    return f"an unnumbered {kind.replace('_', ' ')} card"


_TRUE = {"1", "yes", "y", "true", "t", "x"}
_FALSE = {"0", "no", "n", "false", "f", ""}


def parse_card_list(text: str, sheet_data: Sheet) -> dict[str, dict[str, Facts]]:
    """A group's card list (CSV with a header row) as a library ``{deck: {number: facts}}``.

    Columns: ``number`` (required), ``name``, ``value``, ``event`` (yes/no), ``kind`` (one of
    the playsheet's kinds, default the first), and ``side`` for games with one deck per
    side. Raises :class:`IllegalAction` naming the first bad line (a card number listed twice
    for one deck names both lines); nothing is half-imported.
    """
    kinds = list(sheet_data["kinds"])
    dual = sheet_data["deck"] == "dual"
    reader = csv.DictReader(io.StringIO(text.strip()))
    if reader.fieldnames is None or "number" not in [f.strip().lower() for f in reader.fieldnames]:
        raise IllegalAction("A card list needs a header row with at least a 'number' column.")
    library: dict[str, dict[str, Facts]] = {}
    seen: dict[tuple[str, int], int] = {}  # (deck, number): the line that listed it
    for line, raw in enumerate(reader, start=2):
        row = {str(k).strip().lower(): (v or "").strip() for k, v in raw.items() if k}
        try:
            num = int(row["number"])
        except ValueError:
            raise IllegalAction(
                f"Line {line}: the number {row['number']!r} is not a number."
            ) from None
        if num < 1:
            raise IllegalAction(f"Line {line}: card numbers start at 1.")
        deck = "shared"
        if dual:
            deck = row.get("side", "").lower().replace(" ", "_")
            if deck not in sheet_data["sides"]:
                sides = ", ".join(sheet_data["sides"])
                raise IllegalAction(f"Line {line}: the side must be one of {sides}.")
        if (deck, num) in seen:
            # A library holds one card per number: keeping either row silently would play
            # a card the player never meant, so the player chooses which line to keep.
            first = seen[deck, num]
            raise IllegalAction(
                f"Line {line}: card #{num} is listed already on line {first}; keep one of "
                f"lines {first} and {line}."
            )
        seen[deck, num] = line
        card_value: int | None = None
        if row.get("value"):
            try:
                card_value = int(row["value"])
            except ValueError:
                raise IllegalAction(f"Line {line}: the value must be a whole number.") from None
        event_text = row.get("event", "").lower()
        if event_text not in _TRUE | _FALSE:
            raise IllegalAction(f"Line {line}: 'event' must be yes or no.")
        card_kind = row.get("kind", "").lower() or kinds[0]
        if card_kind not in kinds:
            raise IllegalAction(f"Line {line}: the kind must be one of {', '.join(kinds)}.")
        event = event_text in _TRUE or card_kind in ("tactic", "first_strike")
        entry: Facts = {
            "number": num,
            "name": row.get("name", ""),
            "value": card_value,
            "event": event,
            "kind": card_kind,
        }
        library.setdefault(deck, {})[str(num)] = entry
    if not library:
        raise IllegalAction("The card list has no cards in it.")
    return library
