"""War Between the States: a Civil War battle card game played like "War" in three columns.

Game: War Between the States, by David and Joe McCord, NewVenture Games, 2016. Edition:
the rulebook text of 2016, the only source.
No deck list is public, so both 72-card decks are designed by this project
(``data/decks.json``, marked ``designed_by``). Roles: ``union`` and ``confederate``.

The decks (72 cards each): the Union has more and steadier mid-value units (infantry
5-7, artillery 6-8) and more materiel Events (blockades, rifles, railroads, recruits);
the Confederacy has stronger commanders (Lee 9, Jackson 8, boosts of +2), more varied
units (2-9) and elan Events (Rebel Yell, strikes, marches). Balance target: with the
same policy (``rules.war.strategy``) on both sides each side wins 48-52% of 2,000 games;
``bench/bench_war.py`` prints the current figure.

The rulebook leaves much open. Our rulings, and why:

1. Opening Events. An Event that comes up among the three opening cards (or from their
   "play another" chains) does not take a column: it goes beside the battlefield and the
   next card of the deck is flipped in its place. Reason: rule 4 says Event cards are
   placed beside the battlefield or followed, never that they fight, and a column of
   nothing but an event would be an odd, empty fight.
2. When Events are followed. Every Event flipped in step 2 is followed right after the
   flip, before reinforcements are drawn (rule 4 only asks "before the conflict is
   resolved"). Reason: players then place reinforcements knowing the whole situation,
   and each battle needs only one round of decisions after the events (pacing).
   "Place beside the battlefield" modifiers last for the battle and go to the Graveyard
   after it, as do directed Events once followed (they too sit beside the battlefield).
3. Event order. The side that flips first alternates: the Union in odd battles, the
   Confederacy in even ones; its Events are followed first, each side's in the order
   they came up. Reason: a fixed first side would be a built-in edge either way.
4. Late cards. Every card that enters after the opening flip (reinforcements, tie-break
   cards, a card an Event marches in, and everything their chains bring) is played to its
   column normally; if it is an Event, the Event is ignored and it counts zero. Reason:
   the text says so for reinforcements and tie-breakers; chained and marched cards are
   treated the same so there is one rule, and no events fire after step 4.
5. "Play another" for a reinforcement is played out at the reveal, after both sides have
   committed: the Union's left to right, then the Confederacy's (no decisions, so the
   order only fixes which card is drawn when).
6. Hidden placements. Until both sides have committed, a side sees only how many
   reinforcements the other has placed, not which card nor which column.
7. Commanders' boosts are printed on the cards (data): +N to each other card of the
   side in the same column, or anywhere on the battlefield, optionally only of one kind.
   Boosts and per-card modifiers never lift an Event above zero; a card and a column
   never count below zero; a flat column modifier needs at least one card there.
8. Resolution. Columns are settled left, centre, right; a settled column's losers go to
   the Graveyard at once and its winners fall back to the Survivors once the whole battle
   is settled (ruling 13). A side with no card in a column where the other has cards
   loses it unopposed, whatever the totals.
9. Ties (rule 6): each side adds the top card of its deck (chains apply; an Event counts
   zero), repeated while tied. If only one side can add a card, the side that cannot add
   loses the tie (it has nothing left to commit). If neither can, both columns fall to
   their Graveyards (mutual destruction).
10. Running out. A deck that is used up is replaced by its Survivors, shuffled, whenever a
    card is needed (rule 7), including in the middle of a battle. A side short of cards
    fills the columns left to right and draws fewer reinforcements (placed in any columns,
    at most one per column).
11. The end. After each battle, a side with no forces alive (nothing in deck, Survivors
    or on the field) loses. If both are wiped out in the same battle the game is a draw.
    Events that bring cards back from the Graveyard make an endless war possible in
    principle, so the war stops after 150 battles, won by the side with more forces alive
    (equal: a draw). In simulation this cap is practically never reached.
12. Undo. A side may take back its own face-down placements, newest first, until it
    commits, whatever the other side did meanwhile; after both commit nothing before the
    reveal can be undone. Other decisions use the core snapshot undo.
13. Survivors wait for the next battle. The rulebook sends winners back to the Survivors
    "to await their next battle", so a card that won a column cannot be reshuffled and
    drawn again to break a tie in a later column of the same battle: the winners are held
    aside until the battle is settled. A side whose deck and Survivors are empty at such
    a tie cannot add a card and gives way (ruling 9), even if it won earlier columns.
"""

from __future__ import annotations

from collections.abc import Mapping
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
            "hand": [card(cid).facts() for cid in here["hand"]],
            "placements": [
                {"column": column, "card": card(cid).facts()} for column, cid in here["placed"]
            ],
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

__all__ = ["GAME", "WarBetweenTheStates"]
