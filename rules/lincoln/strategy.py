"""A simple automated Lincoln player, for golden playthroughs, balance figures and demos.

``choose(game, view)`` looks only at one role's view (never the state) and returns one of
the listed actions as ``(verb, arg)``. It is greedy and deterministic. On its turn it
attacks where it is clearly stronger (VP locations first for the Union, Union-coloured
ones for the Confederacy, whose captures move Europe), builds the strongest army it can
near the front, plays ships and politicians, and keeps its capitals garrisoned. In a
battle it plays its best leadership card, withdraws from a fight it expects to lose,
takes its weakest counters as casualties and retreats toward its strongest neighbour.

Played against itself (bench/bench_lincoln_balance.py, seeds 0-1999) the Union won 48.4%
of games; the designed content (not the rules) was tuned to get there. Since Pass came
back, forts stopped sailing, the defender's card needs leadership, each army of a naval
action has its own port and Washington became a port, seeds 0-299 give 51.7% (52.3%
before those changes), with the Union sailing 1.10 times a game (0.27 before). It sails
only armies a port's garrison can spare, takes an empty enemy port with any of them,
and never passes while its hand is full (ruling 23).
"""

from __future__ import annotations

from typing import Any

from rules.core import Arg, Game, View

CAPITALS = {"union": ("washington",), "confederate": ("richmond", "atlanta")}
#: Leadership the strategy expects a face-down card to carry.
EXPECTED_CARD = 2


def _other(role: str) -> str:
    return "confederate" if role == "union" else "union"


def _armies(loc: dict[str, Any], side: str) -> list[dict[str, Any]]:
    return [u for half in loc["units"] for u in half if u["side"] == side and u["kind"] == "army"]


def _strength(loc: dict[str, Any], side: str) -> int:
    units = [u for half in loc["units"] for u in half if u["side"] == side]
    return sum(u["strength"] if u["kind"] == "army" else 3 for u in units)


def card_value(card: dict[str, Any]) -> float:
    """How much a card is worth keeping (low: pay or discard it first)."""
    value = float(card["icons"]["leadership"])
    value += 1.5 if card["icons"]["train"] else 0.0
    value += 1.0 if card["icons"]["naval"] else 0.0
    top = card["top"]
    if top["kind"] == "army":
        value += top["strength"] * 1.2
    elif top["kind"] in ("ship", "politician", "fort"):
        value += 2.0
    if card["timing"] in ("action", "free"):
        value += 1.0
    return value


def _hand(view: View) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in view.get("hand", [])}


def _neighbours(view: View, loc: str) -> list[str]:
    found = []
    for link in view["links"]:
        if link["a"] == loc:
            found.append(link["b"])
        elif link["b"] == loc:
            found.append(link["a"])
    return found


def _prize(view: View, dest: str) -> float:
    """What taking a location is worth to me."""
    me = view["role"]
    loc = view["locations"][dest]
    worth = 0.5
    if me == "union":
        worth += loc["vp"] * 1.5
        if dest in ("richmond", "vicksburg"):
            worth += 3
        if loc["colour"] == "union":
            worth += 3.0
    else:
        if loc["colour"] == "union":
            worth += 3.0
            if dest == "washington":
                worth += 10
        worth += loc["vp"] * 1.0
    return float(worth)


def _threat(view: View, loc: str) -> int:
    """Enemy strength next to a location."""
    them = _other(view["role"])
    return sum(_strength(view["locations"][n], them) for n in _neighbours(view, loc))


def _my_card(view: View) -> int:
    """The best leadership I hold (what my face-down card will add)."""
    return max((c["icons"]["leadership"] for c in view.get("hand", [])), default=0)


def _modifier(view: View, start: str, dest: str) -> int:
    them = _other(view["role"])
    for link in view["links"]:
        if {link["a"], link["b"]} == {start, dest} and link["colour"] == them:
            return int(link["modifier"])
    return 0


def _attack_score(view: View, dest: str, strength: int, start: str = "") -> float:
    me, them = view["role"], _other(view["role"])
    loc = view["locations"][dest]
    enemy = _strength(loc, them)
    if loc["control"] == me and not enemy:
        return -1.0
    if dest == "washington" and me == "union":
        return 50.0 + strength - enemy
    if not enemy:
        return _prize(view, dest)
    guard = 0 if loc["contested"] else _modifier(view, start, dest)
    margin = strength + _my_card(view) - (enemy + guard + EXPECTED_CARD + 1)
    if margin < 0:
        return -1.0
    return _prize(view, dest) + 1 + 0.3 * margin


def _front_score(view: View, start: str, dest: str) -> float:
    """Moving spare armies from a quiet location to a friendly one facing the enemy."""
    me = view["role"]
    here, there = view["locations"][start], view["locations"][dest]
    if there["control"] != me or there["contested"] or _threat(view, start):
        return -1.0
    if not _threat(view, dest):
        return -1.0
    del here
    return 0.2 + 0.05 * _need(view, dest)


def _movable(view: View, loc: str) -> int:
    """Strength I can take out of a location without leaving it open to the enemy next
    door, when it matters."""
    me = view["role"]
    armies = sorted(u["strength"] for u in _armies(view["locations"][loc], me))
    threat = _threat(view, loc)
    if threat and importance(view, loc) >= 3:
        keep = 0
        cover = threat + (EXPECTED_CARD + 1 if importance(view, loc) >= 8 else 0)
        while armies and keep < cover:
            keep += armies.pop()
    return sum(armies)


def _best_move(view: View) -> tuple[float, str, str] | None:
    best: tuple[float, str, str] | None = None
    me = view["role"]
    for loc_id, loc in view["locations"].items():
        spare = _movable(view, loc_id)
        if not _armies(loc, me):
            continue
        for dest in _neighbours(view, loc_id):
            if me == "confederate" and view["locations"][dest]["top_three"]:
                continue
            strength = spare
            if me == "union" and dest == "washington":
                strength = sum(u["strength"] for u in _armies(loc, me))
            if not strength:
                continue
            score = max(
                _attack_score(view, dest, strength, loc_id), _front_score(view, loc_id, dest)
            )
            if best is None or score > best[0]:
                best = (score, loc_id, dest)
    return best


def importance(view: View, loc: str) -> float:
    """How much holding a location of mine matters."""
    me = view["role"]
    data = view["locations"][loc]
    worth = 1.0 + data["vp"] * 1.5
    if me == "union":
        worth += 12 if loc == "washington" else (2.5 if data["colour"] == "union" else 0)
    else:
        worth += {"richmond": 8, "vicksburg": 6, "atlanta": 4}.get(loc, 0)
    return float(worth)


def _need(view: View, loc: str) -> float:
    """How badly a location wants more strength: its importance times the enemy strength
    next to it that its garrison does not match."""
    me = view["role"]
    gap = _threat(view, loc) + EXPECTED_CARD - _strength(view["locations"][loc], me)
    return importance(view, loc) * max(0, gap)


def _deploy_spot(view: View, places: list[str]) -> str:
    def key(loc: str) -> tuple[float, str]:
        near_prize = max((_prize(view, n) for n in _neighbours(view, loc)), default=0)
        return (-(_need(view, loc) + near_prize * 0.5), loc)

    return min(places, key=key)


def _pick_cheapest(view: View, cards: list[str]) -> str:
    hand = _hand(view)
    return min(cards, key=lambda c: (card_value(hand[c]) if c in hand else 0, c))


def _battle_card(view: View, cards: list[str], attacking: bool) -> str:
    hand = _hand(view)

    def power(c: str) -> tuple[float, float, str]:
        card = hand[c]
        bonus = 0
        for _op in [card] if card["timing"] == "benefit" else []:
            bonus = 1
        return (card["icons"]["leadership"] + bonus, -card_value(card), c)

    return max(cards, key=power)


def choose(game: Game, view: View) -> tuple[str, Arg]:
    actions = view["actions"]
    step = view["step"]
    me = view["role"]
    handler = _STEPS.get(step)
    if handler is not None:
        choice = handler(view, actions)
        if choice is not None:
            return choice
    for verb in ("go", "done", "fight", "end", "pass"):
        if actions.get(verb) is True:
            return verb, None
    del me
    verb = sorted(v for v in actions if v != "undo")[0]
    args = actions[verb]
    return verb, None if args is True else args[0]


def _turn(view: View, actions: dict[str, Any]) -> tuple[str, Arg] | None:
    hand = _hand(view)
    if "free" in actions:
        return "free", actions["free"][0]
    if "end" in actions:
        return "end", None
    if "attack" in actions:
        target = _attack_target(view, actions["attack"])
        if target is not None:
            return "attack", target
    best = _best_move(view)
    if "move" in actions and best is not None and best[0] > 0:
        return "move", _pick_cheapest(view, actions["move"])
    if "naval" in actions and _naval_target(view) is not None:
        return "naval", _pick_cheapest(view, actions["naval"])
    if "deploy" in actions:
        card = _deployment(view, actions["deploy"])
        if card is not None:
            return "deploy", card
    if "action" in actions:
        return "action", actions["action"][0]
    if "move" in actions and best is not None and best[0] >= 0:
        return "move", _pick_cheapest(view, actions["move"])
    if "pass" in actions and len(hand) < view["hand_size"]:
        return "pass", None  # a pass with a full hand would change nothing (ruling 23)
    if "discard" in actions:
        return "discard", None
    return "pass", None


def _attack_target(view: View, places: list[str]) -> str | None:
    """Washington first for the Union, else the first contested location where my armies
    (forts left out) outnumber the enemy's strength; None when none does."""
    me = view["role"]
    if me == "union" and "washington" in places:
        return "washington"
    for loc in places:
        here = view["locations"][loc]
        forts = sum(
            1 for half in here["units"] for u in half if u["side"] == me and u["kind"] == "fort"
        )
        if _strength(here, me) - 3 * forts > _strength(here, _other(me)):
            return loc
    return None


def _deployment(view: View, cards: list[str]) -> str | None:
    """The deployment worth making (armies first, then ships for the Union, politicians,
    forts), or None when the best is worth nothing."""
    me = view["role"]
    hand = _hand(view)

    def rank(c: str) -> tuple[int, float, str]:
        top = hand[c]["top"]
        order = {"army": 3, "ship": 2 if me == "union" else 0, "politician": 2, "fort": 1}
        weight = order.get(top["kind"], 0)
        if (
            top["kind"] == "politician"
            and me == "union"
            and view["tracks"]["europe"]["position"] <= 3
        ):
            weight = 0
        return (weight, top.get("strength", 0) - top["cost"] * 0.1, c)

    card = max(cards, key=rank)
    return card if rank(card)[0] > 0 else None


def _sailors(view: View, port: str) -> list[int]:
    """Strengths of my armies in ``port`` that may sail without leaving it open to the
    enemy next door (what :func:`_movable` spares)."""
    spare = _movable(view, port)
    return [
        u["strength"]
        for u in _armies(view["locations"][port], view["role"])
        if u["strength"] <= spare
    ]


def _naval_target(view: View) -> str | None:
    me = view["role"]
    best: tuple[float, str] | None = None
    ports = [p for p, loc in view["locations"].items() if loc["port"]]
    mine = max((max(_sailors(view, p), default=0) for p in ports), default=0)
    if not mine:
        return None
    for port in ports:
        loc = view["locations"][port]
        if loc["control"] == me:
            continue
        enemy = _strength(loc, _other(me))
        # An empty port is simply taken; an occupied one only with a clear margin.
        if not enemy or enemy + loc["naval_defense"] + 2 < mine:
            score = _prize(view, port)
            if best is None or score > best[0]:
                best = (score, port)
    return best[1] if best else None


def _move_from(view: View, actions: dict[str, Any]) -> tuple[str, Arg] | None:
    best = _best_move(view)
    if best is not None and best[1] in actions["from"]:
        return "from", best[1]
    return "from", actions["from"][0]


def _move_to(view: View, actions: dict[str, Any]) -> tuple[str, Arg] | None:
    best = _best_move(view)
    if best is not None and best[2] in actions["to"]:
        return "to", best[2]
    return "to", actions["to"][0]


def _move_pick(view: View, actions: dict[str, Any]) -> tuple[str, Arg] | None:
    if "army" not in actions:
        return "go", None
    moving = view["moving"]
    picked = sum(int(key[4:]) for key in moving["picked"])
    if moving["to"] == "washington" and view["role"] == "union":
        return "army", min(actions["army"])
    if picked and picked >= _movable(view, moving["from"]) and "go" in actions:
        return "go", None
    return "army", min(actions["army"])


def _place(view: View, actions: dict[str, Any]) -> tuple[str, Arg] | None:
    if "at" in actions:
        return "at", _deploy_spot(view, actions["at"])
    return "half", 0


def _pay(view: View, actions: dict[str, Any]) -> tuple[str, Arg] | None:
    return "pay", _pick_cheapest(view, actions["pay"])


def _discard(view: View, actions: dict[str, Any]) -> tuple[str, Arg] | None:
    if "done" in actions:
        return "done", None
    return "card", _pick_cheapest(view, actions["card"])


def _attacker_card(view: View, actions: dict[str, Any]) -> tuple[str, Arg] | None:
    return "card", _battle_card(view, actions["card"], True)


def _defender(view: View, actions: dict[str, Any]) -> tuple[str, Arg] | None:
    me = view["role"]
    battle = view["battle"]
    loc = view["locations"][battle["location"]]
    mine = sum(
        u["strength"] if u["kind"] == "army" else 3
        for u in loc["units"][battle["half"]]
        if u["side"] == me
    )
    theirs = sum(u["strength"] for u in battle["attackers"]) + EXPECTED_CARD
    card = _battle_card(view, actions["card"], False) if "card" in actions else None
    lead = _hand(view)[card]["icons"]["leadership"] if card else 0
    if mine + lead + 1 < theirs and importance(view, battle["location"]) < 5:
        if "sea" in actions:
            return "sea", actions["sea"][0]
        if "withdraw" in actions:
            return "withdraw", None
    if card is not None:
        return "card", card
    return "fight", None


def _casualties(view: View, actions: dict[str, Any]) -> tuple[str, Arg] | None:
    options = actions["lose"]
    armies = sorted(o for o in options if o != "fort")
    return "lose", armies[0] if armies else "fort"


def _retreat(view: View, actions: dict[str, Any]) -> tuple[str, Arg] | None:
    me = view["role"]
    if "to" in actions:

        def key(loc: str) -> tuple[float, str]:
            here = view["locations"][loc]
            return (-(_strength(here, me) + (3 if loc in CAPITALS[me] else 0)), loc)

        return "to", min(actions["to"], key=key)
    if "sea" in actions:
        return "sea", actions["sea"][0]
    return None


def _naval_to(view: View, actions: dict[str, Any]) -> tuple[str, Arg] | None:
    target = _naval_target(view)
    return "to", target if target in actions["to"] else actions["to"][0]


def _naval_pick(view: View, actions: dict[str, Any]) -> tuple[str, Arg] | None:
    """The strongest army in a port that its garrison can spare sails (else the weakest)."""
    if "army" in actions:
        target = _naval_target(view)
        armies = [
            a
            for a in actions["army"]
            if a.split(":")[0] != target
            and int(a.split(":")[1][4:]) in _sailors(view, a.split(":")[0])
        ]
        if armies:
            return "army", max(armies, key=lambda a: (a.split(":")[1], a))
        return "army", min(actions["army"], key=lambda a: (a.split(":")[1], a))
    return "go", None


def _via(view: View, actions: dict[str, Any]) -> tuple[str, Arg] | None:
    return "via", actions["via"][0]


_STEPS = {
    "turn": _turn,
    "move_from": _move_from,
    "move_to": _move_to,
    "move_pick": _move_pick,
    "move_via": _via,
    "place": _place,
    "pay": _pay,
    "discard_pick": _discard,
    "battle_attacker_card": _attacker_card,
    "battle_defender": _defender,
    "battle_casualties": _casualties,
    "battle_retreat": _retreat,
    "naval_to": _naval_to,
    "naval_pick": _naval_pick,
}
