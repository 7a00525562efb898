"""The Lincoln rules engine: set-up, views (the one gate of hidden information), secrets
and conservation invariants. The flow of play is in steps.py and combat.py."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from rules.core import Arg, Game, IllegalAction, State, Step, View, goto, heading, log
from rules.fate_die import opponent as fate
from rules.lincoln import board, estimate, hidden, piles
from rules.lincoln.combat import battle_view
from rules.lincoln.data import (
    BLOCKADE,
    CARDS,
    COUNTERS,
    EUROPE,
    EUROPE_START,
    LINKS,
    LOCATIONS,
    ROLE_NAMES,
    ROLES,
    SETUP,
    card_facts,
)
from rules.lincoln.steps import ACTIONS_PER_TURN, STEPS

TOTAL_CARDS = len(CARDS)


@mypyc_attr(allow_interpreted_subclasses=True)
class Lincoln(Game):
    name = "lincoln"
    title = "Lincoln"
    roles = ROLES
    outcome_codes = piles.OUTCOME_CODES
    role_names: ClassVar[Mapping[str, str]] = ROLE_NAMES
    state_version = 1
    steps: ClassVar[Mapping[str, Step]] = STEPS
    renderer = "render.lincoln"
    policy = "rules.lincoln.strategy"
    #: A search's random playout stops after this many actions (about five turns) and the
    #: position is judged by :meth:`estimate`: a whole random game is about 350.
    playout_horizon = 60
    #: The search keeps the automated player's choice unless it finds one at least this
    #: much better: at the normal level the search alone won 5 of 16 games against
    #: it, and 11 of the same 16 with a margin of 0.05. 0.10 beat 0.05 by SPRT (62.9%
    #: over 97 games at normal@150; docs/ai.md has the figures).
    policy_margin = 0.10
    #: ``fate``: the side whose hand is a Card Display run by the Fate Die (playsheet
    #: ``rules/fate_die/data/lincoln.json``, designed by Dispatch); empty for none.
    default_options: ClassVar[Mapping[str, Any]] = {"fate": ""}
    summary = (
        "Two players, Union and Confederate, each with their own deck. A turn is two "
        "actions (plus free actions): deploy a unit by discarding cards (the card built is "
        "removed from the game, except 1-strength armies), move armies by rail with a train "
        "card, sail Union armies between ports with naval cards, attack, discard or play a "
        "card's action; then refill. Battles: each side plays a card face down for its "
        "leadership; the loser retreats. Ships tighten the Blockade (Confederate hand size, "
        "Union VP); politicians and battles move the Europe track. The Union needs 2 VP at "
        "its first reshuffle, 5 at its second and 12 when its deck runs out a third time; "
        "Europe at its end, or Washington held, wins for the Confederacy; Vicksburg and "
        "Richmond together win for the Union."
    )

    # ------------------------------------------------------------------- set-up

    def initialise(self, state: State) -> None:
        state.update(
            {
                "board": {loc: [[], []] for loc in LOCATIONS},
                "flags": {},
                "stock": board.initial_stock(),
                "blockade": int(MAP_TRACK_START),
                "europe": EUROPE_START,
                "captures": [],
                "turn": {
                    "number": 1,
                    "player": SETUP["first"],
                    "actions_left": ACTIONS_PER_TURN,
                    "drew": False,
                },
                "doing": None,
                "event": None,
                "battle": None,
                "last_battle": None,
            }
        )
        for role in ROLES:
            for location, strength in SETUP["armies"][role]:
                unit = board.take_army(state, role, int(strength))
                assert unit is not None
                state["board"][location][0].append(unit)
        state["piles"] = piles.initial_piles(state)
        heading(state, "Set-up")
        log(state, "Armies are deployed; the I and II cards are set aside; Union plays first.")
        for role in ROLES:
            piles.draw(self, state, role, int(SETUP["hand_size"][role]))
        state["turn"]["drew"] = False  # the opening hands are no turn's draw (ruling 23)
        fated = state["options"].get("fate") or ""
        if fated:
            if fated not in ROLES:
                raise IllegalAction(f"Option 'fate' names a side: {' or '.join(ROLES)}.")
            fate.setup(state, fated, "lincoln")
            fate.deal(state, state["piles"][fated]["hand"])
            log(state, f"{ROLE_NAMES[fated]}'s cards fill its Card Display: A and B face up.")
        heading(state, "Turn 1: Union")
        goto(self, state, "turn")

    # -------------------------------------------------------------------- views

    def score(self, state: State) -> dict[str, int]:
        return {"union": board.union_vp(state)}

    def public_view(self, state: State) -> View:
        locations: dict[str, Any] = {}
        for loc, data in LOCATIONS.items():
            locations[loc] = {
                "name": data["name"],
                "colour": data["colour"],
                "halves": list(data["halves"]),
                "vp": int(data["vp"]),
                "port": bool(data["port"]),
                "naval_defense": int(data["naval_defense"]),
                "sea_half": data["sea_half"],
                "top_three": bool(data["top_three"]),
                "supply_source": bool(data["supply_source"]),
                "control": board.control(state, loc),
                "flag": loc in state["flags"],
                "flag_side": state["flags"].get(loc),
                "contested": board.contested(state, loc),
                "units": [[dict(u) for u in half] for half in state["board"][loc]],
                "xy": list(data["map_xy"]),
            }
        pile_view = {}
        for role in ROLES:
            p = state["piles"][role]
            pile_view[role] = {
                "deck": len(p["deck"]),
                "discard": len(p["discard"]),
                "removed": len(p["removed"]),
                "hand": len(p["hand"]),
                "reshuffles": int(p["reshuffles"]),
                "waves": {w: "waiting" if p["waves"][w] else "added" for w in ("I", "II")},
            }
        stock: dict[str, Any] = {
            role: {
                "armies": sum(state["stock"][role]["armies"].values()),
                "forts": state["stock"][role]["forts"],
                "by_strength": dict(state["stock"][role]["armies"]),
            }
            for role in ROLES
        }
        stock["flags"] = state["stock"]["flags"]
        return {
            "title": self.title,
            "locations": locations,
            "links": [
                {
                    "a": link["a"],
                    "a_half": link["a_half"],
                    "b": link["b"],
                    "b_half": link["b_half"],
                    "colour": link["colour"],
                    "modifier": link["modifier"],
                }
                for link in LINKS
            ],
            "tracks": {
                "blockade": {
                    "position": state["blockade"],
                    "spaces": [dict(space) for space in BLOCKADE],
                },
                "europe": {
                    "position": state["europe"],
                    "spaces": list(EUROPE),
                    "start": EUROPE_START,
                },
            },
            "piles": pile_view,
            "stock": stock,
            "vp": {"union": board.union_vp(state)},
            "turn": dict(state["turn"]),
            "battle": battle_view(state, None),
            "last_battle": state["last_battle"],
            "captures": list(state["captures"]),
            "moving": _moving(state),
            "at_sea": _bound_for(state),
            "fate": fate.public(state, card_facts),
        }

    def private_view(self, state: State, role: str) -> View:
        p = state["piles"][role]
        return {
            "hand": [card_facts(c) for c in p["hand"]],
            "battle": battle_view(state, role),
            "hand_size": piles.hand_size(state, role),
        }

    def catalogue(self) -> list[dict[str, Any]]:
        return [card_facts(c) for c in CARDS]

    # ----------------------------------------- hooks for search (rules.ai)

    def known_state(self, state: State, role: str) -> State:
        return hidden.known_state(state, role)

    def determinize(self, view: View, role: str, key: int | str) -> State:
        return hidden.determinize(view, role, key)

    def determinizer(self, view: View, role: str) -> Callable[[int | str], State]:
        return hidden.Dealer(view, role)

    def idle_actions(self, state: State, role: str) -> set[tuple[str, Arg]]:
        """A pass while the hand is full changes nothing: the turn's refill draws no card
        for it (ruling 23)."""
        if piles.idle_pass(state, role):
            return {("pass", None)}
        return set()

    def estimate(self, state: State) -> dict[str, float] | None:
        return estimate.chances(state)

    # ---------------------------------------------------------- generic test hooks

    def secrets(self, state: State, role: str) -> set[str]:
        p = state["piles"][role]
        held = set(p["hand"])
        battle = state["battle"]
        if battle is not None and not battle["revealed"] and battle["cards"].get(role):
            held.add(battle["cards"][role])
        if fate.fate_role(state) == role:
            # The display's face-up cards are public, the unrevealed battle card among
            # them (it keeps its slot and facing until the reveal).
            held &= fate.secret_cards(state)
        return held | set(p["deck"]) | set(p["discard"]) | set(p["removed"])

    def invariants(self, state: State) -> list[str]:
        problems = _card_problems(state)
        for role in ROLES:
            problems += _counter_problems(state, role)
        problems += _board_problems(state)
        fated = fate.fate_role(state)
        if fated is not None:
            held = piles.display_cards(state, fated)
            if sorted(fate.cards(state["fate"])) != sorted(held):
                problems.append(
                    f"the {fated} Card Display does not hold exactly its hand "
                    "(and its unrevealed battle card)"
                )
        return problems


def _card_problems(state: State) -> list[str]:
    """Every card in exactly one pile (or the battle)."""
    seen: list[str] = []
    for role in ROLES:
        p = state["piles"][role]
        seen += p["deck"] + p["hand"] + p["discard"] + p["removed"]
        seen += p["waves"]["I"] + p["waves"]["II"]
    battle = state["battle"]
    if battle is not None:
        seen += [c for c in battle["cards"].values() if c]
    if sorted(seen) != sorted(CARDS):
        return [f"{len(seen)} cards accounted for, not each of the {TOTAL_CARDS} once"]
    return []


def _counter_problems(state: State, role: str) -> list[str]:
    """Each of ``role``'s army and fort counters once: on the map, in the battle, at sea
    or in stock."""
    problems: list[str] = []
    on_map = {"1": 0, "2": 0, "3": 0}
    forts = 0
    battle = state["battle"]
    extra = []
    if battle is not None:
        extra = [u for u in battle["attackers"] + battle["retreating"] if u["side"] == role]
    extra += [u for u in _at_sea(state) if u["side"] == role]
    for unit in [u for loc in LOCATIONS for u in board.units(state, loc, role)] + extra:
        if unit["kind"] == "fort":
            forts += 1
        else:
            on_map[str(unit["strength"])] += 1
    for strength, count in on_map.items():
        total = count + state["stock"][role]["armies"][strength]
        if total != COUNTERS["armies"][role][strength]:
            problems.append(f"{role} {strength}-armies: {total} counters")
    if forts + state["stock"][role]["forts"] != COUNTERS["forts"][role]:
        problems.append(f"{role} forts: {forts + state['stock'][role]['forts']}")
    return problems


def _board_problems(state: State) -> list[str]:
    """Flags, halves, the top three and the tracks as the rules allow them."""
    problems: list[str] = []
    battle = state["battle"]
    if len(state["flags"]) + state["stock"]["flags"] != COUNTERS["flags"]:
        problems.append("control flags do not add up")
    for loc in LOCATIONS:
        for half in state["board"][loc]:
            if len({u["side"] for u in half}) > 1 and not (
                battle is not None and battle["location"] == loc
            ):
                problems.append(f"both sides in one half of {loc}")
        if "confederate" in board.sides_in(state, loc) and LOCATIONS[loc]["top_three"]:
            problems.append(f"Confederate units in {loc}")
    for loc, side in state["flags"].items():
        if LOCATIONS[loc]["colour"] == side:
            problems.append(f"{side} flag on its own colour in {loc}")
    if not 0 <= state["europe"] < len(EUROPE) or not 0 <= state["blockade"] < len(BLOCKADE):
        problems.append("a track marker is off its track")
    return problems


def _at_sea(state: State) -> list[Any]:
    """Armies of a naval movement still waiting to land (while an earlier landing of the
    same action is fought out)."""
    return [unit for group in _bound_for(state) for unit in group["units"]]


def _bound_for(state: State) -> list[dict[str, Any]]:
    """The armies at sea (public: their sailing was announced), each group with the port
    it is bound for, in the order they will land; empty when none wait."""
    doing = state["doing"]
    if doing is None or doing.get("kind") != "naval":
        return []
    return [
        {"port": port, "units": [dict(u) for u in units]}
        for port, units in doing.get("landings", [])
    ]


def _moving(state: State) -> dict[str, Any] | None:
    """A move being chosen (public: the armies are on the map for all to see)."""
    doing = state["doing"]
    if doing is None or doing.get("kind") != "move" or doing.get("from") is None:
        return None
    return {"from": doing["from"], "to": doing.get("to"), "picked": list(doing["picked"])}


MAP_TRACK_START = 0
GAME = Lincoln()
