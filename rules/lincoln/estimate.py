"""Who is winning a Lincoln position, judged without playing on: for the search's
playouts, which stop after ``Lincoln.playout_horizon`` actions (``rules.ai.ismcts``).

The judgement is a logistic model, the Union's chance of winning being
``1 / (1 + exp(-z))`` with ``z`` the weighted sum of the features below. The weights are
not designed by hand: ``bench/fit_lincoln_estimate.py`` fitted them to the turn-start
positions of 4,000 games of the automated player (``rules.lincoln.strategy``) against
itself, making a uniformly random move instead at 15% of its decisions in half of the
games and 40% in the other half (so the positions are more varied than its own play
would make them), about 207,000 positions with each game's winner. On the positions of
one game in five, held out of the fit, the model's log loss is 0.510 against 0.632 for
the base rate alone, and it names the winner in 72.7% of them.

The features, all read from the board and the piles (a complete state: in a search, a
determinized one):

- ``vp``: the Union's VP now (``board.union_vp``);
- ``margin``: that VP less what the Union needs at its next reshuffle check (2, then 5,
  then 12 when its deck runs out a third time);
- ``late_margin``: the margin times how far through its current deck the Union is, so a
  shortfall counts for more as the check nears;
- ``europe``: the Europe marker's position (the Confederacy wins at the far end);
- ``union_armies`` and ``confederate_armies``: the strength of each side's armies on the
  map;
- ``captures``: the Union-coloured locations the Confederacy holds;
- ``union_cards``: the Union's cards still in play (deck, hand and discard pile);
- ``union_deck``: the share of those still in the Union's deck.
"""

from __future__ import annotations

import math

from rules.core import State
from rules.lincoln import board
from rules.lincoln.piles import RESHUFFLE_CHECKS, WIN_VP

#: The fitted weights (``bench/fit_lincoln_estimate.py``), per unit of each feature.
WEIGHTS: dict[str, float] = {
    "bias": 0.2235,
    "vp": 0.1061,
    "margin": 0.0826,
    "late_margin": 0.2090,
    "europe": -0.0624,
    "union_armies": 0.0552,
    "confederate_armies": -0.0369,
    "captures": -0.2231,
    "union_cards": -0.0206,
    "union_deck": 1.6004,
}


def features(state: State) -> dict[str, float]:
    """The model's inputs for ``state`` (see the module docstring)."""
    union = state["piles"]["union"]
    vp = board.union_vp(state)
    need = {0: RESHUFFLE_CHECKS[1], 1: RESHUFFLE_CHECKS[2]}.get(union["reshuffles"], WIN_VP)
    cards = len(union["deck"]) + len(union["hand"]) + len(union["discard"])
    deck = len(union["deck"]) / cards if cards else 0.0
    armies = {"union": 0, "confederate": 0}
    for halves in state["board"].values():
        for half in halves:
            for unit in half:
                if unit["kind"] == "army":
                    armies[unit["side"]] += unit["strength"]
    return {
        "vp": vp,
        "margin": vp - need,
        "late_margin": (vp - need) * (1.0 - deck),
        "europe": state["europe"],
        "union_armies": armies["union"],
        "confederate_armies": armies["confederate"],
        "captures": len(state["captures"]),
        "union_cards": cards,
        "union_deck": deck,
    }


def union_chance(state: State, weights: dict[str, float] = WEIGHTS) -> float:
    """The Union's chance of winning from ``state``, by the model."""
    z = weights["bias"] + sum(weights[name] * value for name, value in features(state).items())
    return 1.0 / (1.0 + math.exp(-z))


def chances(state: State) -> dict[str, float]:
    """Each side's chance of winning from ``state`` (``Game.estimate``)."""
    union = union_chance(state)
    return {"union": union, "confederate": 1.0 - union}
