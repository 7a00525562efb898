"""A simple automated Fort Sumter player, for golden playthroughs and demos.

``choose(game, view)`` looks only at one role's view (never the state) and returns one of
the listed actions as ``(verb, arg)``. It is greedy and deterministic: it places where a
token wins or keeps control (pivotal spaces, Fort Sumter and its own objective first),
removes where that breaks the opponent's control, guards its leads with the Peace
Commissioner, prefers events of its own colour, and never passes up a free token.
"""

from __future__ import annotations

from typing import Any

from rules.core import Arg, Game, View

_ORDER_OF_PREFERENCE = (
    "keep",
    "order",
    "event",
    "value",
    "place",
    "remove",
    "remove_any",
    "from",
    "to",
    "space",
    "done",
)


def _spaces(view: View) -> dict[str, dict[str, Any]]:
    return {s["id"]: s for s in view["spaces"]}


def _opponent(view: View) -> str:
    return "secessionist" if view["role"] == "unionist" else "unionist"


def _objective_space(view: View) -> str | None:
    objective = view.get("objective")
    return objective["space"] if objective else None


def _weight(view: View, space: dict[str, Any]) -> float:
    weight = 1.0
    if space["pivotal"]:
        weight += 0.5
    if space["id"] == "fort_sumter":
        weight += 0.7
    if space["id"] == _objective_space(view):
        weight += 0.8
    return weight


def placement_score(view: View, space_id: str, side: str | None = None) -> float:
    """How much one more token of ``side`` (default: me) in the space is worth to me."""
    me = view["role"]
    side = side or me
    space = _spaces(view)[space_id]
    mine, theirs = space["tokens"][side], space["tokens"][_other(side)]
    if mine + 1 > theirs >= mine:
        gain = 3.0  # wins control (from a tie or a one-token deficit)
    elif mine == theirs + 1:
        gain = 0.6  # a safer lead
    elif mine > theirs:
        gain = 0.1
    else:
        gain = 0.4  # catching up
    score = gain * _weight(view, space)
    return score if side == me else -score


def _other(side: str) -> str:
    return "secessionist" if side == "unionist" else "unionist"


def removal_score(view: View, space_id: str, side: str) -> float:
    """How much taking one ``side`` token out of the space is worth to me."""
    space = _spaces(view)[space_id]
    theirs, mine = space["tokens"][side], space["tokens"][_other(side)]
    if theirs > mine >= theirs - 1:
        gain = 3.0  # breaks their control
    elif theirs > mine:
        gain = 1.0
    else:
        gain = 0.2
    score = gain * _weight(view, space)
    return score if side != view["role"] else -score


def _best(args: list[Any], score: Any) -> Any:
    best, best_score = args[0], float("-inf")
    for arg in args:
        value = score(arg)
        if value > best_score:
            best, best_score = arg, value
    return best


def _hand_value(view: View, card_id: str) -> int:
    for card in view.get("hand", []):
        if card["id"] == card_id:
            return int(card["value"])
    return 0


def choose(game: Game, view: View) -> tuple[str, Arg]:
    """One legal action for the role whose view this is."""
    actions = view["actions"]
    if not actions:
        raise ValueError("this role has nothing to do")
    me, step = view["role"], view["step"]
    for verb in _ORDER_OF_PREFERENCE:
        if verb not in actions:
            continue
        args = actions[verb]
        if args is True:
            return verb, None
        if verb == "keep":
            return verb, _best(args, lambda o: _objective_margin(view, o))
        if verb == "order":
            return verb, args[0]
        if verb in ("event", "value"):
            return verb, _best(args, lambda c: _hand_value(view, c))
        if verb == "place":
            return verb, _best(args, lambda s: placement_score(view, s))
        if verb in ("remove", "remove_any"):
            return _removal(view, verb, args, step)
        if verb == "from":
            if "pool" in args:
                return verb, "pool"
            return verb, _best(args, lambda s: _margin(view, s, me))
        if verb == "to":
            return verb, _best(args, lambda s: placement_score(view, s))
        if verb == "space":
            return verb, _best(
                args, lambda s: _margin(view, s, me) + _weight(view, _spaces(view)[s])
            )
    verb = next(iter(actions))
    args = actions[verb]
    return verb, None if args is True else args[0]


def _removal(view: View, verb: str, args: Any, step: str) -> tuple[str, Arg]:
    """Which token to remove: one's own where the lead is safest (the Final Crisis), either
    side's for a pivotal bonus (or stop if none is worth it), else the opponent's."""
    if step.startswith("final_crisis"):
        # Giving up own tokens: take them where the lead is safest.
        return verb, _best(args, lambda s: _margin(view, s, view["role"]))
    if ":" in str(args[0]):
        # A pivotal bonus: remove either side's token, or stop if none is worth it.
        token = _best(args, lambda t: removal_score(view, *t.split(":")))
        if removal_score(view, *token.split(":")) <= 0 and "done" in view["actions"]:
            return "done", None
        return verb, token
    label = _label(view, verb, args[0])
    victim = "unionist" if "Unionist token" in label else "secessionist"
    return verb, _best(args, lambda s, v=victim: removal_score(view, s, v))


def _label(view: View, verb: str, arg: Any) -> str:
    labels = view.get("labels", {}).get(verb, {})
    if isinstance(labels, dict):
        text: str = labels.get(str(arg), "")
        return text
    return ""


def _margin(view: View, space_id: str, side: str) -> float:
    space = _spaces(view)[space_id]
    return float(space["tokens"][side] - space["tokens"][_other(side)])


def _objective_margin(view: View, objective_id: str) -> float:
    for card in view.get("objective_offer", []):
        if card["id"] == objective_id:
            return _margin(view, card["space"], view["role"])
    return 0.0
