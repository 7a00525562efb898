"""An automated player for War Between the States, for balance runs, demos and goldens.

``choose(game, view)`` picks one legal action from a role's own view only (never the
state), so it sees exactly what a human in that seat sees. It is greedy and simple:

- reinforcements: try every way to put the cards in hand on the free columns and keep the
  one with the best expected worth, where a column is worth the cards at stake in it
  times a smooth estimate of the chance to win it, against an opponent expected to add
  an average card to each column it can still reinforce;
- event choices: the column where the event's effect raises that worth the most;
- ``done`` as soon as everything is placed.
"""

from __future__ import annotations

import math
from itertools import permutations
from typing import Any

from rules.core import Arg, Game, View

#: What an unseen card (a reinforcement, a chained card) is expected to add.
AVERAGE_CARD = 4.5
#: How sharply the chance of winning a column follows the expected margin.
SPREAD = 3.0


def choose(game: Game, view: View) -> tuple[str, Arg]:
    """One of ``view["actions"]``: what this policy does now."""
    actions = view["actions"]
    if not actions:
        raise ValueError("nothing to choose: this role has no action now")
    if "done" in actions:
        return "done", None
    if "place" in actions:
        return "place", _best_placement(view)
    if "column" in actions and isinstance(actions["column"], list):
        return "column", _best_column(view, [str(a) for a in actions["column"]])
    verb = sorted(v for v in actions if v != "undo")[0]
    args = actions[verb]
    return verb, args[0] if isinstance(args, list) else None


def _opponent(view: View) -> str:
    role = str(view["role"])
    return next(str(r) for r in view["sides"] if r != role)


def _worth(mine: float, theirs: float, n_mine: int, n_theirs: int) -> float:
    """The expected cards kept and taken in one column."""
    if n_mine == 0:
        return 0.0
    if n_theirs == 0 and theirs <= 0:
        return float(n_mine)
    chance = 1.0 / (1.0 + math.exp(-(mine - theirs) / SPREAD))
    return chance * (n_mine + n_theirs)


def _expected_from_opponent(view: View) -> tuple[float, float]:
    """(points, cards) the opponent is expected to add to each column."""
    other = view["sides"][_opponent(view)]
    pending = other["hand"] + other["placed"]
    if view["step"] != "position":
        pending = min(3, other["deck"] + other["survivors"])
    share = min(1.0, pending / 3)
    return AVERAGE_CARD * share, share


def _card_gain(view: View, column: dict[str, Any], facts: dict[str, Any]) -> float:
    """Roughly what ``facts`` adds to the viewer's total in ``column``."""
    if facts["kind"] == "event":
        return 0.0
    role = str(view["role"])
    gain = float(facts["value"])
    boost = facts.get("boost")
    own_cards = column[role]["cards"]
    if boost and boost["where"] == "column":
        gain += boost["amount"] * sum(
            1 for c in own_cards if c["kind"] != "event" and boost["unit"] in (None, c["kind"])
        )
    for other in own_cards:
        b = other.get("boost")
        if b and b["where"] == "column" and b["unit"] in (None, facts["kind"]):
            gain += b["amount"]
    if facts.get("another"):
        gain += AVERAGE_CARD
    return gain


def _best_placement(view: View) -> str:
    role = str(view["role"])
    columns = {c["column"]: c for c in view["columns"]}
    taken = {p["column"] for p in view["placements"]}
    free = [name for name in columns if name not in taken]
    hand = view["hand"]
    their_add, their_cards = _expected_from_opponent(view)
    placed_gain = {
        p["column"]: _card_gain(view, columns[p["column"]], p["card"]) for p in view["placements"]
    }
    best: tuple[float, str] | None = None
    for target in permutations(free, len(hand)):
        score = 0.0
        assignment = dict(zip(target, hand, strict=True))
        for name, column in columns.items():
            mine = column[role]["total"] + placed_gain.get(name, 0.0)
            n_mine = len(column[role]["cards"]) + (1 if name in placed_gain else 0)
            if name in assignment:
                mine += _card_gain(view, column, assignment[name])
                n_mine += 1
            theirs = column[_opponent(view)]["total"] + their_add
            n_theirs = len(column[_opponent(view)]["cards"])
            score += _worth(mine, theirs, n_mine, n_theirs + (1 if their_cards >= 0.5 else 0))
        first = f"{target[0]}:{hand[0]['id']}"
        if best is None or score > best[0] + 1e-9:
            best = (score, first)
    assert best is not None
    return best[1]


def _best_column(view: View, options: list[str]) -> str:
    role = str(view["role"])
    enemy = _opponent(view)
    choice = view.get("choice") or {}
    op = choice.get("op")
    their_add, _ = _expected_from_opponent(view)
    columns = {c["column"]: c for c in view["columns"]}

    def worth(column: dict[str, Any], mine_delta: float, theirs_delta: float, extra: int) -> float:
        n_mine = len(column[role]["cards"]) + (extra if extra > 0 else 0)
        n_theirs = len(column[enemy]["cards"]) + (extra if extra < 0 else 0)
        return _worth(
            column[role]["total"] + AVERAGE_CARD + mine_delta,
            column[enemy]["total"] + their_add + theirs_delta,
            n_mine + 1,
            n_theirs + 1,
        )

    def gain(name: str) -> float:
        column = columns[name]
        before = worth(column, 0, 0, 0)
        amount = float(choice.get("amount") or 0)
        unit = choice.get("unit")
        if op == "modify":
            target = role if choice.get("target") == "self" else enemy
            count = sum(1 for c in column[target]["cards"] if unit in (None, c["kind"]))
            delta = amount * (count if unit else 1)
            if target == role:
                return worth(column, delta, 0, 0) - before
            return worth(column, 0, delta, 0) - before
        if op == "strike":
            top = column[enemy]["cards"][-1]
            return worth(column, 0, -float(top.get("points", top["value"])), -1) - before
        if op == "march":
            return worth(column, AVERAGE_CARD, 0, 1) - before
        return 0.0

    best: str = max(options, key=lambda name: (gain(name), -options.index(name)))
    return best
