"""War Between the States: the game engine (its rulings are in the package's docstring,
``rules/war/__init__.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import permutations
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from rules.core import (
    EventGame,
    Op,
    State,
    Step,
    View,
    current_frame,
    goto,
    shuffle,
)
from rules.core.events import Instruction, frames_from_version_1
from rules.core.flow import main_frame
from rules.core.rng import upgrade_generator
from rules.war import hidden
from rules.war.battle import (
    COLUMN_LABELS,
    COLUMNS,
    SIDE_NAMES,
    alive,
    card_points,
    column_total,
    empty_columns,
    new_side,
    side,
    stack,
)
from rules.war.cards import DECK_SIZE, SIDES, card, deck_ids
from rules.war.events import EVENT_OPS
from rules.war.steps import BATTLE_CAP, STEPS, PositionReinforcements


def battle_plans(state: State, role: str) -> dict[str, list[list[str]]]:
    """The whole of a side's placement at once, before its first card is placed: every
    way to put its three reinforcements one per column, each as the ``place`` args that
    make it, in column order (``{"place": [["left:U1", "centre:U2", "right:U3"], ...]}``,
    six ways). A front end may offer them as one choice, each applied as its small
    placements in order (undo still takes back one card). None once a card is placed,
    for a side short of cards (ruling 10), or outside the placement step."""
    here = side(state, role)
    hand = here["hand"]
    if state["step"] != "position" or here["committed"] or here["placed"]:
        return {}
    if len(hand) != len(COLUMNS):
        return {}
    ways = permutations(hand)
    return {"place": [[f"{c}:{cid}" for c, cid in zip(COLUMNS, way, strict=True)] for way in ways]}


#: What an Event in hand is worth: a hand holds reinforcements, and a reinforcement that
#: is an Event is ignored and counts 0 (rule 4 note). Its printed text stays as printed, so
#: the hand says why that text will not happen.
EVENT_IN_HAND = "as a reinforcement it is ignored and counts 0: an event acts only when flipped"


def hand_facts(cid: str) -> dict[str, Any]:
    """A card of a side's hand as its private view shows it (``Card.facts``), with
    :data:`EVENT_IN_HAND` as its ``note`` when it is an Event."""
    facts = card(cid).facts()
    if card(cid).is_event:
        facts["note"] = EVENT_IN_HAND
    return facts


@mypyc_attr(allow_interpreted_subclasses=True)
class WarBetweenTheStates(EventGame):
    name = "war"
    title = "War Between the States"
    roles = SIDES
    outcome_codes = frozenset({"mutual_destruction", "no_forces", "battle_cap"})
    role_names: ClassVar[dict[str, str]] = dict(SIDE_NAMES)
    #: 2: events run on the flow's call stack instead of ``state["events"]``.
    state_version = 3
    steps: ClassVar[dict[str, Step]] = STEPS
    event_ops: ClassVar[Mapping[str, Op]] = EVENT_OPS
    renderer = "render.war"
    policy = "rules.war.strategy"
    summary = (
        "Each side fights with its own 72-card deck. Every battle, both sides flip three "
        "cards into three columns facing each other; a card marked 'play another' brings the "
        "next card on top of it. Events flipped now are followed at once or set beside the "
        "battlefield for this battle. Then each side draws three reinforcements and places "
        "them face down, one per column; when both have committed they are revealed "
        "(an Event arriving this way counts zero). Each column goes to the higher total: "
        "winners to your Survivors, losers to your Graveyard. A tie adds one more card from "
        "each deck until it breaks. When your deck runs out, your Survivors become your new "
        "deck. The last side with forces alive wins the war."
    )

    # ---------------------------------------------------------------------- set-up

    def initialise(self, state: State) -> None:
        """Step 1: each side shuffles its own deck; then the first battle begins."""
        state["sides"] = {}
        for role in SIDES:
            deck = deck_ids(role)
            shuffle(state, deck)
            state["sides"][role] = new_side(deck)
        state["columns"] = empty_columns()
        state["battle"] = 0
        state["modifiers"] = []
        state["event_queue"] = []
        state["last_battle"] = None
        goto(self, state, "flip")

    def event_instructions(self, state: State, source: str) -> tuple[Instruction, ...]:
        return card(source).instructions

    def upgrade_from(self, document: State, version: int) -> None:
        if version == 1:
            document["calls"] = [main_frame(), *frames_from_version_1(document.pop("events", []))]
        elif version == 2:
            # Stored before the keyed generator: the game keeps SplitMix64.
            upgrade_generator(document)
        else:
            super().upgrade_from(document, version)

    # ------------------------------------------------------------------------ undo

    def act(
        self,
        state: State,
        role: object,
        verb: object,
        arg: object = None,
        *,
        record_undo: bool = True,
        trusted: bool = False,
    ) -> State:
        state = super().act(state, role, verb, arg, record_undo=record_undo, trusted=trusted)
        if state["step"] == "position":
            # Placement undo reads the placements themselves (see ``undo``); snapshots
            # would only weigh down the stored state.
            state["undo"] = []
        return state

    def can_undo(self, state: State, role: str) -> bool:
        if state["step"] == "position":
            here = state["sides"][role]
            return not here["committed"] and bool(here["placed"])
        return super().can_undo(state, role)

    def undo(self, state: State, role: str) -> None:
        if state["step"] == "position":
            position = self.steps["position"]
            assert isinstance(position, PositionReinforcements)
            position.take_back(state, role)
        else:
            super().undo(state, role)

    # ----------------------------------------------------------------------- views

    def score(self, state: State) -> dict[str, int]:
        """Forces alive: the War's running score (the side with none left loses)."""
        return {role: alive(state, role) for role in SIDES}

    def public_view(self, state: State) -> View:
        return {
            "title": self.title,
            "battle": state["battle"],
            "battle_cap": BATTLE_CAP,
            "columns": [self._column_view(state, column) for column in COLUMNS],
            "sides": {role: self._side_view(state, role) for role in SIDES},
            "modifiers": [self._modifier_view(m) for m in state["modifiers"]],
            "choice": self._choice_view(state),
            "last_battle": self._last_battle_view(state),
        }

    def private_view(self, state: State, role: str) -> View:
        here = side(state, role)
        return {
            "hand": [hand_facts(cid) for cid in here["hand"]],
            "placements": [
                {"column": column, "card": card(cid).facts()} for column, cid in here["placed"]
            ],
            "plans": battle_plans(state, role),
        }

    def _column_view(self, state: State, column: str) -> dict[str, Any]:
        view: dict[str, Any] = {"column": column, "label": COLUMN_LABELS[column]}
        for role in SIDES:
            cards = []
            for index, cid in enumerate(stack(state, column, role)):
                facts = card(cid).facts()
                facts["points"] = card_points(state, role, column, index)
                cards.append(facts)
            view[role] = {"cards": cards, "total": column_total(state, role, column)}
        return view

    def _side_view(self, state: State, role: str) -> dict[str, Any]:
        here = side(state, role)
        return {
            "name": SIDE_NAMES[role],
            "deck": len(here["deck"]),
            "hand": len(here["hand"]),
            "placed": len(here["placed"]),
            "committed": bool(here["committed"]) and state["step"] == "position",
            "survivors": len(here["survivors"]),
            "graveyard": len(here["graveyard"]),
            "alive": alive(state, role),
            "beside": [card(cid).facts() for cid in here["beside"]],
        }

    def _modifier_view(self, modifier: dict[str, Any]) -> dict[str, Any]:
        return {
            "source": card(modifier["source"]).name,
            "side": modifier["side"],
            "columns": list(modifier["columns"]),
            "amount": modifier["amount"],
            "unit": modifier["unit"],
        }

    def _choice_view(self, state: State) -> dict[str, Any] | None:
        frame = current_frame(state)
        if state["step"] != "event" or frame is None:
            return None
        instruction = card(frame["source"]).instructions[frame["pc"]]
        return {
            "role": frame["role"],
            "event": card(frame["source"]).facts(),
            "op": instruction["op"],
            "amount": instruction.get("amount"),
            "unit": instruction.get("unit"),
            "target": instruction.get(
                "side", "opponent" if instruction["op"] == "strike" else "self"
            ),
        }

    def _last_battle_view(self, state: State) -> dict[str, Any] | None:
        last = state["last_battle"]
        if last is None:
            return None
        columns = []
        for summary in last["columns"]:
            entry: dict[str, Any] = {
                "column": summary["column"],
                "label": COLUMN_LABELS[summary["column"]],
                "winner": summary["winner"],
                "how": summary["how"],
            }
            for role in SIDES:
                # Names and values only, no ids: these cards may since have been drawn
                # into a hand, and an id would tell which.
                entry[role] = {
                    "cards": [
                        {"name": card(c).name, "value": card(c).value, "kind": card(c).kind}
                        for c in summary["sides"][role]["cards"]
                    ],
                    "total": summary["sides"][role]["total"],
                }
            columns.append(entry)
        return {"battle": last["battle"], "columns": columns}

    def catalogue(self) -> list[dict[str, Any]]:
        return [card(cid).facts() for role in SIDES for cid in deck_ids(role)]

    # ------------------------------------------------------------ search players

    def known_state(self, state: State, role: str) -> State:
        return hidden.known_state(state, role)

    def determinize(self, view: View, role: str, key: int | str) -> State:
        return hidden.determinize(view, role, key)

    # ----------------------------------------------------- hooks for generic tests

    def secrets(self, state: State, role: str) -> set[str]:
        here = side(state, role)
        return set(here["hand"]) | {cid for _, cid in here["placed"]}

    def invariants(self, state: State) -> list[str]:
        problems: list[str] = []
        for role in SIDES:
            here = side(state, role)
            where: list[str] = [
                *here["deck"],
                *here["hand"],
                *(cid for _, cid in here["placed"]),
                *here["beside"],
                *here["survivors"],
                *here["graveyard"],
            ]
            for column in COLUMNS:
                where.extend(stack(state, column, role))
            if len(where) != DECK_SIZE:
                problems.append(f"{role} has {len(where)} cards accounted for, not {DECK_SIZE}")
            if len(set(where)) != len(where):
                problems.append(f"a {role} card is in two places")
            if set(where) != set(deck_ids(role)):
                problems.append(f"{role}'s cards are not exactly its own deck")
            if len(here["placed"]) > len(COLUMNS) or len(
                {column for column, _ in here["placed"]}
            ) != len(here["placed"]):
                problems.append(f"{role} has two reinforcements in one column")
        for role, cid in state["event_queue"]:
            if cid not in side(state, role)["beside"]:
                problems.append(f"queued event {cid} is not beside the battlefield")
        return problems


GAME = WarBetweenTheStates()
