"""The flow of play of Lincoln, as a table of named steps in rulebook order.

``turn`` (two actions and any free actions) -> one of the actions: ``place`` / ``pay``
(deploy a unit), ``move_from`` / ``move_to`` / ``move_via`` / ``move_pick`` (move army),
``naval_pick`` / ``naval_to`` (naval movement), ``discard_pick`` (discard cards), a card's
action or free action (``place`` when it raises an army), a declared attack, or pass ->
back to ``turn`` -> ``end_turn`` (immediate ends, refill) -> the other side's ``turn``.
A move or naval movement into an enemy-occupied location, and a declared attack, run the
battle (combat.py): ``battle_attacker_card`` -> ``battle_defender`` -> ``battle_reveal``
-> ``battle_casualties`` -> ``battle_retreat`` -> ``battle_end``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.core import Actions, Arg, State, Step, goto, heading, log, telling
from rules.core.log import plural
from rules.fate_die import opponent as fate
from rules.lincoln import board, combat, events, piles
from rules.lincoln.board import describe, unit_key
from rules.lincoln.common import (
    NAVAL_CARDS,
    TRAIN_CARDS,
    finish_action,
    naval_cards,
    options,
    run_by_die,
)
from rules.lincoln.data import (
    CARDS,
    LINKS,
    LOCATIONS,
    PORTS,
    ROLE_NAMES,
    SUPPLY_SOURCES,
    card_name,
    half_name,
    name,
    opponent,
)

if TYPE_CHECKING:
    from rules.core import Game

ACTIONS_PER_TURN = 2

#: The ports, as a set.
PORT_SET = frozenset(PORTS)

#: ``board.army_places``: (location, contested, halves it may be left by).
Armies = list[tuple[str, bool, int]]


def _player(state: State) -> str:
    player: str = state["turn"]["player"]
    return player


class PlayerStep(Step):
    """A step where the side whose turn it is decides (every step of the turn but the
    battle's). The core asks who is active several times per decision, so this reads the
    turn directly."""

    def active(self, game: Game, state: State) -> tuple[str, ...]:
        return (state["turn"]["player"],)


def _hand(state: State, role: str) -> list[str]:
    hand: list[str] = state["piles"][role]["hand"]
    return hand


def _doing(state: State) -> dict[str, Any]:
    doing: dict[str, Any] = state["doing"]
    return doing


# --------------------------------------------------------------------- deploy unit


def deploy_places(state: State, role: str, card: str) -> dict[str, bool]:
    """Where a card's army or fort may be placed: controlled supplied locations (False),
    and, for an army only, controlled ports reached by also discarding a naval card
    (True; a fort follows the supply rule, ruling 4)."""
    cost = int(CARDS[card]["top"]["cost"])
    others = len(_hand(state, role)) - 1
    places: dict[str, bool] = {}
    if others >= cost:
        places = {loc: False for loc in board.supplied_in_order(state, role)}
    if not _by_sea_allowed(card):
        return places
    if others >= cost + 1 and naval_cards(state, role, exclude=(card,)):
        for port in PORTS:
            if port not in places and board.control(state, port) == role:
                places[port] = True
    return places


def _by_sea_allowed(card: str) -> bool:
    """Only an army may be deployed into a port by sea (ruling 4)."""
    return bool(CARDS[card]["top"]["kind"] == "army")


def _places_exist(state: State, role: str, card: str) -> bool:
    """Whether ``deploy_places`` would offer anything, without tracing supply: a side that
    controls one of its supply sources has that source among its supplied locations, and
    a controlled port is open to a naval deployment (listing the hand's deployments traced
    supply once per card and was most of a random game's time)."""
    cost = int(CARDS[card]["top"]["cost"])
    others = len(_hand(state, role)) - 1
    if others >= cost and any(board.control(state, s) == role for s in SUPPLY_SOURCES[role]):
        return True
    return (
        _by_sea_allowed(card)
        and others >= cost + 1
        and bool(naval_cards(state, role, exclude=(card,)))
        and any(board.control(state, port) == role for port in PORTS)
    )


def deployable(state: State, role: str, card: str) -> bool:
    top = CARDS[card]["top"]
    kind, cost = top["kind"], int(top["cost"])
    if kind == "none":
        return False
    if kind == "army":
        if state["stock"][role]["armies"][str(top["strength"])] <= 0:
            return False
        return _places_exist(state, role, card)
    if kind == "fort":
        return state["stock"][role]["forts"] > 0 and _places_exist(state, role, card)
    if len(_hand(state, role)) - 1 < cost:
        return False
    if kind == "ship":
        return events.blockade_room(state, role)
    return events.europe_room(state, role)


#: Each card's top as :func:`deployable_cards` reads it: kind, cost, the stock key of its
#: army's strength (None for any other kind) and whether the card bears the naval icon.
_TOPS: dict[str, tuple[str, int, str | None, bool]] = {
    card: (
        str(data["top"]["kind"]),
        int(data["top"]["cost"]),
        str(data["top"]["strength"]) if data["top"]["kind"] == "army" else None,
        bool(data["icons"]["naval"]),
    )
    for card, data in CARDS.items()
}


def deployable_cards(state: State, role: str, cards: list[str]) -> list[str]:
    """The cards of ``cards`` (cards of the hand) that are :func:`deployable`, in order.

    The turn lists every card of the hand, so whether the side holds a supply source or
    a port, and how many naval cards it holds, are read at most once for all of them, and
    only when a card needs them (``tests/rules/test_lincoln_fast_paths.py`` holds it to the
    definition)."""
    hand = _hand(state, role)
    others = len(hand) - 1
    stock = state["stock"][role]
    source: bool | None = None
    port: bool | None = None
    navals: int | None = None
    found: list[str] = []
    for card in cards:
        kind, cost, strength, naval = _TOPS[card]
        if kind == "army" or kind == "fort":
            if (stock["armies"][strength] if strength is not None else stock["forts"]) <= 0:
                continue
            if others >= cost:
                if source is None:
                    source = board.holds_any(state, role, SUPPLY_SOURCES[role])
                if source:
                    found.append(card)
                    continue
            if strength is not None and others >= cost + 1:
                if navals is None:
                    navals = len(naval_cards(state, role))
                if navals - naval > 0:
                    if port is None:
                        port = board.holds_any(state, role, PORTS)
                    if port:
                        found.append(card)
        elif kind != "none" and others >= cost:
            room = events.blockade_room if kind == "ship" else events.europe_room
            if room(state, role):
                found.append(card)
    return found


def _top_text(card: str) -> str:
    top = CARDS[card]["top"]
    what = f"{top['strength']}-strength army" if top["kind"] == "army" else top["kind"]
    return f"{what} (cost {top['cost']})"


def execute_deploy(game: Game, state: State, role: str) -> None:
    doing = _doing(state)
    card = doing["card"]
    top = CARDS[card]["top"]
    kind = top["kind"]
    if kind == "army" and int(top["strength"]) == 1:
        piles.discard(state, role, card)
    else:
        piles.remove(state, role, card)
    who = ROLE_NAMES[role]
    if kind in ("army", "fort"):
        unit = (
            board.take_army(state, role, int(top["strength"]))
            if kind == "army"
            else board.take_fort(state, role)
        )
        assert unit is not None
        state["board"][doing["at"]][doing["half"]].append(unit)
        if telling(state):
            log(
                state,
                f"{who} deploys {card_name(card)}: a {describe(unit)} in {name(doing['at'])} "
                f"({half_name(doing['at'], doing['half'])}).",
            )
    elif kind == "ship":
        moved = events.move_blockade(state, role, 1)
        log(state, f"{who} deploys {card_name(card)}: the Blockade marker moves {moved}.")
    else:
        moved = board.move_europe(state, role, 1)
        log(state, f"{who} deploys {card_name(card)}: the Europe marker moves {moved} their way.")
    finish_action(game, state)


class Place(PlayerStep):
    """Where a deployed (or raised) unit goes: a location, then one of its halves."""

    def _places(self, state: State, role: str) -> dict[str, bool]:
        doing = _doing(state)
        if doing["kind"] == "raise":
            return {p: False for p in events.raise_places(state, role, int(doing["strength"]))}
        return deploy_places(state, role, doing["card"])

    def prompt(self, game: Game, state: State, role: str) -> str:
        doing = _doing(state)
        what = (
            f"a {doing['strength']}-strength army"
            if doing["kind"] == "raise"
            else _top_text(doing["card"])
        )
        if doing["at"] is None:
            return f"Place {what}: choose a location you control that traces supply by rail" + (
                " (or, for an army, a port you control, by also discarding a naval card)."
                if doing["kind"] != "raise"
                else "."
            )
        return f"Place {what} in {name(doing['at'])}: choose the half."

    def actions(self, game: Game, state: State, role: str) -> Actions:
        if _doing(state)["at"] is None:
            return {"at": list(self._places(state, role))}
        return {"half": [0, 1]}

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        if verb == "half":
            return f"{half_name(_doing(state)['at'], int(str(arg)))} half"
        by_sea = self._places(state, role).get(str(arg))
        return name(str(arg)) + (" (by sea: discard a naval card too)" if by_sea else "")

    def _by_sea(self, state: State, role: str, at: str) -> bool:
        """``self._places(state, role)[at]`` for a listed place ``at``: a raised army never
        comes by sea, and a deployment does exactly when ``at`` is not a supplied place
        (:func:`deploy_places` lists ports by sea only to a hand that can also pay by land,
        so a hand too short for land lists nothing), and only ports are reached by sea.
        Taking a place asks only this, so the ports are not read again nor, away from
        them, supply traced."""
        if _doing(state)["kind"] == "raise" or at not in PORT_SET:
            return False
        return at not in board.supplied_in_order(state, role)

    def on_at(self, game: Game, state: State, role: str, arg: Arg) -> None:
        doing = _doing(state)
        doing["naval_due"] = self._by_sea(state, role, str(arg))
        doing["at"] = str(arg)

    def on_half(self, game: Game, state: State, role: str, arg: Arg) -> None:
        doing = _doing(state)
        doing["half"] = int(str(arg))
        if doing["kind"] == "raise":
            unit = board.take_army(state, role, int(doing["strength"]))
            assert unit is not None
            state["board"][doing["at"]][doing["half"]].append(unit)
            log(state, f"{ROLE_NAMES[role]} raises a {describe(unit)} in {name(doing['at'])}.")
            state["doing"] = None
            events.resume(game, state)
            return
        goto(game, state, "pay")


class Pay(PlayerStep):
    """Pay a deployment: discard as many other cards as its cost (plus a naval card for a
    port reached by sea)."""

    def enter(self, game: Game, state: State) -> None:
        doing = _doing(state)
        if doing["paid"] >= int(CARDS[doing["card"]]["top"]["cost"]) and not doing["naval_due"]:
            execute_deploy(game, state, _player(state))

    def prompt(self, game: Game, state: State, role: str) -> str:
        doing = _doing(state)
        cost = int(CARDS[doing["card"]]["top"]["cost"])
        if doing["naval_due"]:
            return f"Deploying {card_name(doing['card'])} by sea: discard a naval card."
        left = cost - doing["paid"]
        more = plural(left, "more card", "more cards")
        return f"Deploying {card_name(doing['card'])}: discard {more} to pay."

    def actions(self, game: Game, state: State, role: str) -> Actions:
        doing = _doing(state)
        card = doing["card"]
        if doing["naval_due"]:
            return {"pay": options(naval_cards(state, role, exclude=(card,)))}
        return {"pay": [c for c in _hand(state, role) if c != card]}

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        return f"Discard {card_name(str(arg))}"

    def on_pay(self, game: Game, state: State, role: str, arg: Arg) -> None:
        doing = _doing(state)
        piles.discard(state, role, str(arg))
        if doing["naval_due"]:
            doing["naval_due"] = False
        else:
            doing["paid"] += 1
        self.enter(game, state)


# ----------------------------------------------------------------------- move army


def _can_move_from(state: State, role: str, loc: str) -> bool:
    """The definition: ``role`` has an army in ``loc`` that can go somewhere."""
    return board.has_army(state, loc, role) and bool(
        board.adjacent_arrivals(state, role, loc) or board.arrivals(state, role, loc)
    )


def movable_from(state: State, role: str, armies: Armies | None = None) -> list[str]:
    """Every location whose armies can move (:func:`_can_move_from`), in map order.

    Any move, however far, starts along a link out of a half the armies may leave by, so
    a location's armies can move exactly when one of those halves has a link the side may
    take (``board.LINKED_HALVES``); ``armies`` is ``board.army_places`` when the caller
    has it already."""
    linked = board.LINKED_HALVES[role]
    if armies is None:
        armies = board.army_places(state, role)
    return [loc for loc, _contested, leave in armies if leave & linked[loc]]


def can_move(state: State, role: str, armies: Armies | None = None) -> bool:
    """Whether ``movable_from`` lists anything (the turn's action list only asks this, so
    it stops at the first army that can move)."""
    linked = board.LINKED_HALVES[role]
    places = board.iter_army_places(state, role) if armies is None else armies
    for loc, _contested, leave in places:  # noqa: SIM110
        if leave & linked[loc]:
            return True
    return False


def move_destinations(state: State, role: str, start: str) -> list[str]:
    """Adjacent destinations first (a group may go there), then those further on (one
    army), each once (``board.move_destinations``)."""
    return list(board.move_destinations(state, role, start))


def arrive(
    game: Game,
    state: State,
    role: str,
    moving: list[Any],
    dest: str,
    half: int,
    approach: combat.Approach,
) -> None:
    """Units arrive in a half: an empty enemy location is taken, a friendly half joined,
    an enemy-occupied location attacked."""
    if not board.enemy_present(state, role, dest) or board.half_side(state, dest, half) == role:
        state["board"][dest][half].extend(moving)
        board.take_empty(state, role, dest)
        finish_action(game, state)
        return
    combat.start_battle(game, state, role, dest, half, moving, approach)


class MoveFrom(PlayerStep):
    def prompt(self, game: Game, state: State, role: str) -> str:
        return "Move army: choose the location your armies move from."

    def actions(self, game: Game, state: State, role: str) -> Actions:
        return {"from": options(movable_from(state, role))}

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        armies = [describe(u) for u in board.units(state, str(arg), role) if u["kind"] == "army"]
        return f"From {name(str(arg))} ({', '.join(armies)})"

    def on_from(self, game: Game, state: State, role: str, arg: Arg) -> None:
        _doing(state)["from"] = str(arg)
        goto(game, state, "move_to")


class MoveTo(PlayerStep):
    def prompt(self, game: Game, state: State, role: str) -> str:
        start = _doing(state)["from"]
        return (
            f"Move from {name(start)}: an adjacent location (some or all armies along one "
            "link) or further along friendly links (one army). Entering an enemy-occupied "
            "location starts a battle."
        )

    def actions(self, game: Game, state: State, role: str) -> Actions:
        return {"to": options(move_destinations(state, role, _doing(state)["from"]))}

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        dest = str(arg)
        near = dest in board.adjacent_arrivals(state, role, _doing(state)["from"])
        tag = ""
        if board.enemy_present(state, role, dest):
            tag = " (battle)"
        elif board.control(state, dest) not in (role, None):
            tag = " (take control)"
        return f"To {name(dest)}{'' if near else ' (one army)'}{tag}"

    def on_to(self, game: Game, state: State, role: str, arg: Arg) -> None:
        doing = _doing(state)
        dest, start = str(arg), doing["from"]
        doing["to"] = dest
        near = board.adjacent_arrivals(state, role, start)
        if dest in near:
            half, link = near[dest]
            doing.update(group=True, half=half, link=link, via=start)
            goto(game, state, "move_pick")
            return
        ways = board.ways_in(state, role, start, dest)
        doing["group"] = False
        if len(ways) > 1 and board.enemy_present(state, role, dest):
            goto(game, state, "move_via")
            return
        via, half, link = ways[0]
        doing.update(half=half, link=link, via=via)
        goto(game, state, "move_pick")


class MoveVia(PlayerStep):
    def _ways(self, state: State, role: str) -> list[tuple[str, int, int]]:
        doing = _doing(state)
        return board.arrivals(state, role, doing["from"])[doing["to"]]

    def prompt(self, game: Game, state: State, role: str) -> str:
        dest = name(_doing(state)["to"])
        return f"Choose the last location before {dest} (the link you attack along)."

    def actions(self, game: Game, state: State, role: str) -> Actions:
        return {"via": [way[0] for way in self._ways(state, role)]}

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        for via, half, _link in self._ways(state, role):
            if via == arg:
                return f"Via {name(via)} (into the {half_name(_doing(state)['to'], half)} half)"
        return str(arg)

    def on_via(self, game: Game, state: State, role: str, arg: Arg) -> None:
        doing = _doing(state)
        for via, half, link in self._ways(state, role):
            if via == arg:
                doing.update(via=via, half=half, link=link)
        goto(game, state, "move_pick")


class MovePick(PlayerStep):
    """Which armies move: some or all along one link, or a single one further."""

    def enter(self, game: Game, state: State) -> None:
        doing = _doing(state)
        doing.setdefault("picked", [])
        left = self._left(state, _player(state))
        if not doing["picked"] and len(left) == 1:
            doing["picked"].append(left[0])
            self._go(game, state, _player(state))
        elif doing["picked"] and (not doing["group"] or not left):
            self._go(game, state, _player(state))

    def _left(self, state: State, role: str) -> list[str]:
        doing = _doing(state)
        keys = [unit_key(u) for u in board.units(state, doing["from"], role) if u["kind"] == "army"]
        for key in doing["picked"]:
            keys.remove(key)
        return keys

    def prompt(self, game: Game, state: State, role: str) -> str:
        doing = _doing(state)
        if not doing["group"]:
            return f"Choose the army that moves to {name(doing['to'])}."
        picked = ", ".join(doing["picked"]) or "none yet"
        return f"Choose the armies that move to {name(doing['to'])} (chosen: {picked}); then Go."

    def actions(self, game: Game, state: State, role: str) -> Actions:
        actions: Actions = {}
        left = sorted(set(self._left(state, role)))
        if left:
            actions["army"] = options(left)
        if _doing(state)["picked"]:
            actions["go"] = True
        return actions

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        if verb == "go":
            return "Go"
        return f"{str(arg)[4:]}-strength army"

    def on_army(self, game: Game, state: State, role: str, arg: Arg) -> None:
        _doing(state)["picked"].append(str(arg))
        self.enter(game, state)

    def on_go(self, game: Game, state: State, role: str, arg: Arg) -> None:
        self._go(game, state, role)

    def _go(self, game: Game, state: State, role: str) -> None:
        doing = _doing(state)
        start = doing["from"]
        origin_half = _leaving_half(doing["via"], doing["to"], doing["link"])
        moving = [board.remove_unit(state, start, role, key) for key in doing["picked"]]
        units = [u for u in moving if u is not None]
        board.settle_control(state, start)
        if telling(state):
            log(
                state,
                f"{ROLE_NAMES[role]} moves {', '.join(describe(u) for u in units)} from "
                f"{name(start)} to {name(doing['to'])}.",
            )
        arrive(
            game,
            state,
            role,
            units,
            doing["to"],
            doing["half"],
            combat.Approach("rail", doing["link"], doing["via"], origin_half),
        )


def _leaving_half(via: str, dest: str, link: int) -> int:
    data = LINKS[link]
    return int(data["a_half"] if data["a"] == via else data["b_half"])


# ------------------------------------------------------------------ naval movement


def naval_sources(state: State, role: str, dest: str | None, picked: list[str]) -> list[str]:
    """Armies in ports (other than ``dest``) that may sail, as ``port:army<n>``, less
    those already ``picked``."""
    found: list[str] = []
    where = state["board"]
    for port in PORTS:
        if port == dest:
            continue
        keys = [
            f"army{u['strength']}"  # ``unit_key`` of an army
            for half in where[port]
            for u in half
            if u["side"] == role and u["kind"] == "army"
        ]
        if not keys:  # nothing here, so nothing picked here either
            continue
        for pick in picked:
            there, key = pick.split(":")
            if there == port:
                keys.remove(key)
        found += sorted({f"{port}:{key}" for key in keys})
    return found


def naval_destinations(state: State, role: str) -> list[str]:
    return [p for p in PORTS if naval_sources(state, role, p, [])]


def can_sail(state: State, role: str, armies: Armies | None = None) -> bool:
    """Whether ``naval_destinations`` lists anything: an army in any port can sail to
    every other port, and there are several ports; ``armies`` is ``board.army_places``
    when the caller has it already (the places of every army of ``role``)."""
    if len(PORTS) < 2:
        return False
    if armies is None:
        return board.army_in_any(state, role, PORTS)
    return any(loc in PORT_SET for loc, _contested, _leave in armies)


def _naval_picked(doing: dict[str, Any]) -> list[str]:
    return [pick for pick, _dest in doing["moving"]]


class NavalPick(PlayerStep):
    """Naval movement: one army (in any port) for each naval card played, each to a port
    of its own (ruling 10); more cards for more armies; then Go."""

    def prompt(self, game: Game, state: State, role: str) -> str:
        doing = _doing(state)
        return (
            f"Naval movement: {plural(len(doing['moving']), 'army', 'armies')} chosen, "
            f"{plural(len(doing['cards']), 'naval card')} played. Choose an army in a port "
            "for each card (each sails to any other port), play another naval card for "
            "another army, or Go."
        )

    def actions(self, game: Game, state: State, role: str) -> Actions:
        doing = _doing(state)
        actions: Actions = {}
        armies = naval_sources(state, role, None, _naval_picked(doing))
        if len(doing["moving"]) < len(doing["cards"]):
            if armies:
                actions["army"] = options(armies)
        else:
            more = naval_cards(state, role)
            if more and armies:
                actions["naval"] = options(more)
        if doing["moving"] and len(doing["moving"]) == len(doing["cards"]):
            actions["go"] = True
        return actions

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        if verb == "go":
            return "Go"
        if verb == "naval":
            return f"Play {card_name(str(arg))} for one more army"
        port, key = str(arg).split(":")
        return f"{key[4:]}-strength army from {name(port)}"

    def on_army(self, game: Game, state: State, role: str, arg: Arg) -> None:
        _doing(state)["sailing"] = str(arg)
        goto(game, state, "naval_to")

    def on_naval(self, game: Game, state: State, role: str, arg: Arg) -> None:
        piles.discard(state, role, str(arg))
        _doing(state)["cards"].append(str(arg))

    def on_go(self, game: Game, state: State, role: str, arg: Arg) -> None:
        doing = _doing(state)
        by_port: dict[str, list[Any]] = {}
        sailed = []
        for pick, dest in doing["moving"]:
            port, key = pick.split(":")
            unit = board.remove_unit(state, port, role, key)
            assert unit is not None
            by_port.setdefault(dest, []).append(unit)
            sailed.append(f"{describe(unit)} from {name(port)} to {name(dest)}")
            board.settle_control(state, port)
        log(state, f"{ROLE_NAMES[role]} sails {'; '.join(sailed)}.")
        doing["landings"] = [[port, by_port[port]] for port in PORTS if port in by_port]
        combat.land_next(game, state)


class NavalTo(PlayerStep):
    """The port the army just chosen sails to: any port but its own."""

    def prompt(self, game: Game, state: State, role: str) -> str:
        port, key = _doing(state)["sailing"].split(":")
        army = f"{key[4:]}-strength army from {name(port)}"
        return f"Naval movement: choose the port the {army} sails to."

    def actions(self, game: Game, state: State, role: str) -> Actions:
        start = _doing(state)["sailing"].split(":")[0]
        return {"to": options(p for p in PORTS if p != start)}

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        port = str(arg)
        tag = " (battle)" if board.enemy_present(state, role, port) else ""
        mod = LOCATIONS[port]["naval_defense"]
        return f"To {name(port)}{tag}" + (f", naval defense +{mod}" if mod else "")

    def on_to(self, game: Game, state: State, role: str, arg: Arg) -> None:
        doing = _doing(state)
        doing["moving"].append([doing.pop("sailing"), str(arg)])
        goto(game, state, "naval_pick")


# ------------------------------------------------------------------------ the turn


def attack_places(state: State, role: str, armies: Armies | None = None) -> list[str]:
    """Contested locations where ``role`` has an army, in map order; ``armies`` is
    ``board.army_places`` when the caller has it already."""
    if armies is None:
        return board.contested_armies(state, role)
    return [loc for loc, contested, _leave in armies if contested]


#: The cards played for their Action, and those played as a Free action.
ACTION_CARDS: frozenset[str] = frozenset(
    c for c, data in CARDS.items() if data["timing"] == "action"
)
FREE_CARDS: frozenset[str] = frozenset(c for c, data in CARDS.items() if data["timing"] == "free")


def free_cards(state: State, role: str) -> list[str]:
    return [c for c in _hand(state, role) if c in FREE_CARDS and events.playable(state, role, c)]


class Turn(PlayerStep):
    """The active side takes two actions, plus any number of free actions."""

    def enter(self, game: Game, state: State) -> None:
        if state["outcome"] is not None:
            return
        role = _player(state)
        if state["turn"]["actions_left"] <= 0 and not free_cards(state, role):
            goto(game, state, "end_turn")
            return
        if run_by_die(state, role) and state["turn"]["actions_left"] > 0:
            _roll_for_action(state, role)

    def prompt(self, game: Game, state: State, role: str) -> str:
        turn = state["turn"]
        if turn["actions_left"] <= 0:
            return "Your two actions are done: play free actions, or end your turn."
        number = ACTIONS_PER_TURN - turn["actions_left"] + 1
        sail = "sail, " if role == "union" else ""
        text = (
            f"Turn {turn['number']}, action {number} of {ACTIONS_PER_TURN}: deploy a unit, "
            f"move, {sail}attack in a contested location, discard, play a card's action, or "
            "pass. Free actions cost no action."
        )
        if fate.fate_role(state) == role:
            allowed = fate.restrict(state, role, _hand(state, role))
            names = ", ".join(card_name(c) for c in allowed) or "no card"
            text += f" The Fate Die allows {names} for this action."
        return text

    def actions(self, game: Game, state: State, role: str) -> Actions:
        hand = _hand(state, role)
        actions: Actions = {}
        free = free_cards(state, role)
        if state["turn"]["actions_left"] <= 0:
            if free:
                actions["free"] = options(free)
            actions["end"] = True
            return actions
        # A side run by the Fate Die builds its action on a card the die allows. The die's
        # choice keeps the hand's order, so the allowed train and naval cards are the
        # train and naval cards among ``ruled``.
        ruled = fate.restrict(state, role, hand)
        deploy = deployable_cards(state, role, ruled)
        if deploy:
            actions["deploy"] = options(deploy)
        # Each of these reads the armies' places only as far as it needs: the first army
        # that can move, the ports, the locations with both halves held.
        trains: list[int | str] = [c for c in ruled if c in TRAIN_CARDS]
        if trains and can_move(state, role):
            actions["move"] = trains
        if role == "union":
            navals: list[int | str] = [c for c in ruled if c in NAVAL_CARDS]
            if navals and can_sail(state, role):
                actions["naval"] = navals
        attacks = attack_places(state, role)
        if attacks:
            actions["attack"] = options(attacks)
        if hand:
            actions["discard"] = True
        cards: list[int | str] = [
            c for c in ruled if c in ACTION_CARDS and events.playable(state, role, c)
        ]
        if cards:
            actions["action"] = cards
        if free:
            actions["free"] = options(free)
        actions["pass"] = True
        return actions

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        if verb == "deploy":
            return f"Deploy {card_name(str(arg))}: {_top_text(str(arg))}"
        if verb == "move":
            return f"Move army, discarding {card_name(str(arg))}"
        if verb == "naval":
            return f"Naval movement, playing {card_name(str(arg))}"
        if verb == "attack":
            return f"Attack in {name(str(arg))}"
        if verb in ("action", "free"):
            return f"{card_name(str(arg))}: {CARDS[str(arg)]['text']}"
        return {"discard": "Discard cards", "pass": "Pass", "end": "End turn"}.get(verb, verb)

    def _spend(self, state: State) -> None:
        state["turn"]["actions_left"] -= 1
        if run_by_die(state, _player(state)):
            state["fate"]["allowed"] = None  # this action's roll is spent

    def on_deploy(self, game: Game, state: State, role: str, arg: Arg) -> None:
        self._spend(state)
        card = str(arg)
        state["doing"] = {
            "kind": "deploy",
            "card": card,
            "paid": 0,
            "naval_due": False,
            "at": None,
            "half": None,
        }
        if CARDS[card]["top"]["kind"] in ("army", "fort"):
            goto(game, state, "place")
        else:
            goto(game, state, "pay")

    def on_move(self, game: Game, state: State, role: str, arg: Arg) -> None:
        self._spend(state)
        piles.discard(state, role, str(arg))
        state["doing"] = {"kind": "move", "card": str(arg), "from": None, "picked": []}
        goto(game, state, "move_from")

    def on_naval(self, game: Game, state: State, role: str, arg: Arg) -> None:
        self._spend(state)
        piles.discard(state, role, str(arg))
        state["doing"] = {"kind": "naval", "cards": [str(arg)], "moving": [], "landings": []}
        goto(game, state, "naval_pick")

    def on_attack(self, game: Game, state: State, role: str, arg: Arg) -> None:
        self._spend(state)
        location = str(arg)
        half = 0 if board.half_side(state, location, 0) == opponent(role) else 1
        mine = [u for u in state["board"][location][1 - half] if u["kind"] == "army"]
        for unit in mine:
            state["board"][location][1 - half].remove(unit)
        combat.start_battle(
            game,
            state,
            role,
            location,
            half,
            mine,
            combat.Approach("inside", origin=location, origin_half=1 - half),
        )

    def on_discard(self, game: Game, state: State, role: str, arg: Arg) -> None:
        self._spend(state)
        state["doing"] = {"kind": "discard", "count": 0}
        goto(game, state, "discard_pick")

    def on_action(self, game: Game, state: State, role: str, arg: Arg) -> None:
        self._spend(state)
        events.begin(game, state, role, str(arg))

    def on_free(self, game: Game, state: State, role: str, arg: Arg) -> None:
        events.begin(game, state, role, str(arg))

    def on_pass(self, game: Game, state: State, role: str, arg: Arg) -> None:
        self._spend(state)
        if telling(state):
            log(state, f"{ROLE_NAMES[role]} passes.")
        finish_action(game, state)

    def on_end(self, game: Game, state: State, role: str, arg: Arg) -> None:
        goto(game, state, "end_turn")


def _roll_for_action(state: State, role: str) -> None:
    """Roll the Fate Die once for each action of the side's turn (``fate["at"]`` holds
    the turn and action it was rolled for; a free action rolls nothing)."""
    turn = state["turn"]
    at = [turn["number"], turn["actions_left"]]
    if state["fate"].get("at") == at:
        return
    state["fate"]["at"] = at
    allowed = fate.roll(
        state,
        ROLE_NAMES[role],
        lambda c: int(CARDS[c]["icons"]["leadership"]),
        lambda c: CARDS[c]["timing"] in ("action", "free"),
    )
    face = fate.roll_title(state["fate"])
    titles = ", ".join(card_name(c) for c in allowed)
    log(state, f"Fate Die for {ROLE_NAMES[role]}: {face}. Its action may use {titles}.")


class DiscardPick(PlayerStep):
    def prompt(self, game: Game, state: State, role: str) -> str:
        count = _doing(state)["count"]
        return f"Discard cards: choose a card to discard ({count} so far), or Done."

    def actions(self, game: Game, state: State, role: str) -> Actions:
        actions: Actions = {"card": list(_hand(state, role))}
        if _doing(state)["count"]:
            actions["done"] = True
        return actions

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        return "Done" if verb == "done" else f"Discard {card_name(str(arg))}"

    def on_card(self, game: Game, state: State, role: str, arg: Arg) -> None:
        piles.discard(state, role, str(arg))
        _doing(state)["count"] += 1
        if not _hand(state, role):
            self.on_done(game, state, role, None)

    def on_done(self, game: Game, state: State, role: str, arg: Arg) -> None:
        if telling(state):
            log(state, f"{ROLE_NAMES[role]} discards {plural(_doing(state)['count'], 'card')}.")
        finish_action(game, state)


class EndTurn(Step):
    """The end of a turn: immediate ends, then the active side refills its hand."""

    def enter(self, game: Game, state: State) -> None:
        # The Union's VP go into the final score only, so they are counted only when one
        # of the immediate ends is met (nothing moves between here and there).
        role = _player(state)
        if role == "union" and board.control(state, "washington") == "confederate":
            game.finish(
                state,
                "confederate",
                "the Confederacy controls Washington at the end of a Union turn",
                {"union": board.union_vp(state)},
                code="washington",
            )
            return
        if (
            role == "confederate"
            and board.control(state, "vicksburg") == "union"
            and board.control(state, "richmond") == "union"
        ):
            game.finish(
                state,
                "union",
                "the Union controls Vicksburg and Richmond at the end of a Confederate turn",
                {"union": board.union_vp(state)},
                code="vicksburg_richmond",
            )
            return
        piles.refill(game, state, role)
        if state["outcome"] is not None:
            return
        nxt = opponent(role)
        turn = state["turn"]
        if nxt == "union":
            turn["number"] += 1
        turn.update(player=nxt, actions_left=ACTIONS_PER_TURN, drew=False)
        if telling(state):
            heading(state, f"Turn {turn['number']}: {ROLE_NAMES[nxt]}")
        goto(game, state, "turn")


STEPS: dict[str, Step] = {
    "turn": Turn(),
    "place": Place(),
    "pay": Pay(),
    "move_from": MoveFrom(),
    "move_to": MoveTo(),
    "move_via": MoveVia(),
    "move_pick": MovePick(),
    "naval_to": NavalTo(),
    "naval_pick": NavalPick(),
    "discard_pick": DiscardPick(),
    "battle_attacker_card": combat.AttackerCard(),
    "battle_defender": combat.DefenderChoice(),
    "battle_reveal": combat.Reveal(),
    "battle_casualties": combat.Casualties(),
    "battle_retreat": combat.Retreat(),
    "battle_end": combat.BattleEnd(),
    "end_turn": EndTurn(),
}
