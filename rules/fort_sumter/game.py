"""The Fort Sumter rules engine: set-up, views (the one gate of hidden information),
secrets and conservation invariants. The flow of play is in steps.py."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from rules.core import EventGame, IllegalAction, State, Step, View, goto, shuffle
from rules.core.events import current_frame, frames_from_version_1
from rules.core.flow import main_frame
from rules.core.rng import upgrade_generator
from rules.fate_die import opponent as fate
from rules.fort_sumter import board, hidden
from rules.fort_sumter.cards import (
    DIMENSIONS,
    OBJECTIVES,
    ROLES,
    SPACE_IDS,
    SPACES,
    STRATEGY,
    objective_facts,
    strategy_facts,
)
from rules.fort_sumter.events import EVENT_VOCABULARY, EVENTS, source_title
from rules.fort_sumter.steps import STEPS
from rules.fort_sumter.tracks import ROLE_NAMES, initial_tracks, track_view

TOKENS_PER_SIDE = 25


@mypyc_attr(allow_interpreted_subclasses=True)
class FortSumter(EventGame):
    name = "fort_sumter"
    title = "Fort Sumter: The Secession Crisis, 1860-61"
    roles = ROLES
    outcome_codes = frozenset({"vp", "tie_fort_sumter", "tie_spaces", "tie_unionist"})
    role_names: ClassVar[Mapping[str, str]] = ROLE_NAMES
    #: ``fate``: the side whose hand is a Card Display run by the Fate Die (playsheet
    #: ``rules/fate_die/data/fort_sumter.json``, designed by Dispatch); empty for none.
    default_options: ClassVar[Mapping[str, Any]] = {"event_discard": False, "fate": ""}
    #: 2: procedures (breaches, events, pivotal bonuses, objective events) moved from
    #: top-level keys to the flow's call stack.
    state_version = 3
    steps: ClassVar[Mapping[str, Step]] = STEPS
    event_ops = EVENT_VOCABULARY
    renderer = "render.fort_sumter"
    policy = "rules.fort_sumter.strategy"
    summary = (
        "Two players, Unionist (blue) and Secessionist (gray), struggle over 12 map spaces "
        "in four Crisis Dimensions for three rounds. Each round both keep a secret objective, "
        "then alternate three strategy cards each: for the event (your colour or both) or "
        "for the value (place that many tokens). Tokens come from your pool, then your Crisis "
        "Track; uncovering its zones gives bonus tokens but brings the Final Crisis closer. "
        "Round end: pivotal bonuses, 1 VP per dimension held, 1 VP per objective space held. "
        "Then the Final Crisis: three secretly ordered cards revealed in pairs. Final scoring: "
        "dimensions, Fort Sumter, and a bigger pool. Most VP wins."
    )

    # ------------------------------------------------------------------- set-up

    def initialise(self, state: State) -> None:
        strategy = list(STRATEGY)
        objectives = list(OBJECTIVES)
        shuffle(state, strategy)
        shuffle(state, objectives)
        state.update(
            {
                "round": 1,
                "phase": "rounds",
                "spaces": board.empty_map(),
                "pool": dict.fromkeys(ROLES, 0),
                "vp": dict.fromkeys(ROLES, 0),
                "peace_commissioner": None,
                "strategy_deck": strategy,
                "objective_deck": objectives,
                "hands": {r: [] for r in ROLES},
                "objective_offer": {r: [] for r in ROLES},
                "objective": dict.fromkeys(ROLES),
                "set_aside": {r: [] for r in ROLES},
                "out_of_play": {"strategy": [], "objective": []},
                "played": dict.fromkeys(ROLES, 0),
                "turn": "unionist",
                "last_play": None,
                "revealed_objectives": None,
                "claimable": None,
                "value_play": None,
                "final_crisis": None,
            }
        )
        state.update(initial_tracks())
        fated = state["options"].get("fate") or ""
        if fated:
            if fated not in ROLES:
                raise IllegalAction(f"Option 'fate' names a side: {' or '.join(ROLES)}.")
            fate.setup(state, fated, "fort_sumter")
        goto(self, state, "deal")

    def event_instructions(self, state: State, source: str) -> Sequence[Mapping[str, Any]]:
        return EVENTS[source]  # each card's ``event``, strategy and objective

    def upgrade_from(self, document: State, version: int) -> None:
        if version == 1:
            upgrade_from_version_1(document)
        elif version == 2:
            # Stored before the keyed generator: the game keeps SplitMix64.
            upgrade_generator(document)
        else:
            super().upgrade_from(document, version)

    # -------------------------------------------------------------------- views

    def score(self, state: State) -> dict[str, int]:
        """Victory points so far."""
        return {role: int(state["vp"][role]) for role in ROLES}

    def public_view(self, state: State) -> View:
        pc = state["peace_commissioner"]
        spaces = [
            {
                "id": s,
                "name": SPACES[s].name,
                "dimension": SPACES[s].dimension,
                "dimension_name": DIMENSIONS[SPACES[s].dimension].name,
                "pivotal": SPACES[s].pivotal,
                "tokens": dict(state["spaces"][s]),
                "controller": board.controller(state, s),
                "peace_commissioner": pc == s,
                "reconstructed": SPACES[s].source == "reconstructed",
            }
            for s in SPACE_IDS
        ]
        dimensions = [
            {
                "id": d.id,
                "name": d.name,
                "colour": d.colour,
                "icon": d.icon,
                "spaces": list(d.spaces),
                "pivotal": d.pivotal,
                "controller": board.dimension_controller(state, d.id),
            }
            for d in DIMENSIONS.values()
        ]
        last = state["last_play"]
        revealed = state["revealed_objectives"]
        fc = state["final_crisis"]
        return {
            "title": self.title,
            "round": state["round"],
            "phase": state["phase"],
            "first_player": board.first_player(state),
            "turn": state["turn"] if state["phase"] == "rounds" else None,
            "vp": dict(state["vp"]),
            "spaces": spaces,
            "dimensions": dimensions,
            "peace_commissioner": pc,
            "peace_commissioner_name": SPACES[pc].name if pc else None,
            "crisis_tracks": {r: track_view(state, r) for r in ROLES},
            "bonus_boxes": {zone: dict(box) for zone, box in state["bonus_boxes"].items()},
            "final_crisis_breaches": state["final_crisis_breaches"],
            "tension_peace_commissioner_given": state["tension_peace_commissioner_given"],
            "pools": dict(state["pool"]),
            "on_map": {r: board.on_map(state, r) for r in ROLES},
            "hand_counts": {r: len(state["hands"][r]) for r in ROLES},
            "set_aside_counts": {r: len(state["set_aside"][r]) for r in ROLES},
            "cards_played": dict(state["played"]),
            "decks": {
                "strategy": len(state["strategy_deck"]),
                "objective": len(state["objective_deck"]),
            },
            "objective_chosen": {r: state["objective"][r] is not None for r in ROLES},
            "last_play": None
            if last is None
            else {
                "role": last["role"],
                "how": last["how"],
                "card": strategy_facts(last["card"]),
            },
            "claimable": None
            if not state["claimable"]
            else {
                "role": state["claimable"]["role"],
                "card": strategy_facts(state["claimable"]["card"]),
            },
            "revealed_objectives": None
            if revealed is None
            else {r: objective_facts(revealed[r]) for r in ROLES},
            "current_event": self._current_event(state),
            "final_crisis": None
            if fc is None
            else {
                "pair": fc["pair"],
                "mode": fc["mode"],
                "ordered": {r: fc["order"][r] is not None for r in ROLES},
                "revealed": {r: [strategy_facts(c) for c in fc["revealed"][r]] for r in ROLES},
                "left_to_reveal": {r: len(fc["order"][r] or ()) for r in ROLES},
            },
            "options": dict(state["options"]),
            "fate": fate.public(state, strategy_facts),
        }

    def _current_event(self, state: State) -> dict[str, Any] | None:
        frame = current_frame(state)
        if frame is None:
            return None
        return {"role": frame["role"], "title": source_title(frame["source"])}

    def private_view(self, state: State, role: str) -> View:
        fc = state["final_crisis"]
        kept = state["objective"][role]
        order = fc["order"][role] if fc is not None else None
        return {
            "hand": [strategy_facts(c) for c in state["hands"][role]],
            "objective_offer": [objective_facts(c) for c in state["objective_offer"][role]],
            "objective": objective_facts(kept) if kept else None,
            "set_aside": [strategy_facts(c) for c in state["set_aside"][role]],
            "final_crisis_order": None if order is None else [strategy_facts(c) for c in order],
        }

    def catalogue(self) -> list[dict[str, Any]]:
        cards = [
            {**strategy_facts(c), "name": STRATEGY[c].title, "kind": "strategy"} for c in STRATEGY
        ]
        cards += [
            {**objective_facts(c), "name": f"{OBJECTIVES[c].title} objective", "kind": "objective"}
            for c in OBJECTIVES
        ]
        return cards

    # ------------------------------------------------------------ search players

    def known_state(self, state: State, role: str) -> State:
        return hidden.known_state(state, role)

    def determinize(self, view: View, role: str, key: int | str) -> State:
        return hidden.determinize(view, role, key)

    # ---------------------------------------------------------- generic test hooks

    def secrets(self, state: State, role: str) -> set[str]:
        hand = set(state["hands"][role])
        if fate.fate_role(state) == role:
            hand &= fate.secret_cards(state)  # the display's face-up cards are public
        hidden = hand | set(state["set_aside"][role])
        hidden |= set(state["objective_offer"][role])
        if state["objective"][role]:
            hidden.add(state["objective"][role])
        fc = state["final_crisis"]
        if fc is not None and fc["order"][role]:
            hidden |= set(fc["order"][role])
        return hidden

    def invariants(self, state: State) -> list[str]:
        problems: list[str] = []
        for role in ROLES:
            boxes = sum(box[role] for box in state["bonus_boxes"].values())
            total = state["track"][role] + boxes + state["pool"][role] + board.on_map(state, role)
            if total != TOKENS_PER_SIDE:
                problems.append(f"{role} has {total} tokens, not {TOKENS_PER_SIDE}")
            for space in SPACE_IDS:
                n = state["spaces"][space][role]
                if not 0 <= n <= board.MAX_PER_SPACE:
                    problems.append(f"{role} has {n} tokens in {space}")
            if min(state["pool"][role], state["track"][role], boxes) < 0:
                problems.append(f"{role} has a negative pool, track or box")
        fc = state["final_crisis"]
        strategy = list(state["strategy_deck"]) + list(state["out_of_play"]["strategy"])
        for role in ROLES:
            strategy += state["hands"][role] + state["set_aside"][role]
            if fc is not None:
                strategy += (fc["order"][role] or []) + fc["revealed"][role]
        if sorted(strategy) != sorted(STRATEGY):
            problems.append(f"strategy cards: {len(strategy)} found, not each of the 40 once")
        objectives = list(state["objective_deck"]) + list(state["out_of_play"]["objective"])
        for role in ROLES:
            objectives += state["objective_offer"][role]
            if state["objective"][role] and state["objective"][role] not in objectives:
                objectives.append(state["objective"][role])
        if sorted(objectives) != sorted(OBJECTIVES):
            problems.append(f"objective cards: {len(objectives)} found, not each of the 12 once")
        fated = fate.fate_role(state)
        # The display is the hand of a round; the Final Crisis takes the set-aside cards
        # back into the hand, outside the display.
        if (
            fated is not None
            and state["phase"] == "rounds"
            and sorted(fate.cards(state["fate"])) != sorted(state["hands"][fated])
        ):
            problems.append(f"the {fated} Card Display does not hold exactly its hand")
        return problems


GAME = FortSumter()


def upgrade_from_version_1(document: State) -> None:
    """Move the return points and locals a version-1 state kept in top-level keys onto
    the call stack, as the same play would have built it (at rest a game waits in one
    of ``tension_peace_commissioner``, ``pivotal_bonus``, ``event`` or a main step)."""
    events = document.pop("events", None) or []
    bonus = document.pop("bonus", None)
    queue = document.pop("objective_queue", None) or []
    actor = document.pop("event_actor", None)
    chooser = document.pop("commissioner_chooser", None)
    after_breach = document.pop("after_breach", None)
    calls = [main_frame()]
    in_objective_events = after_breach == "objective_events" or any(
        old["then"] == "objective_event_ends" for old in events
    )
    if in_objective_events:
        calls.append(
            {
                "proc": "objective_events",
                "then": "final_crisis_check",
                "locals": {"queue": queue, "actor": actor},
            }
        )
    if bonus is not None:
        calls.append({"proc": "pivotal_bonuses", "then": "dimension_scoring", "locals": bonus})
    calls += frames_from_version_1(events)
    if chooser is not None:
        calls.append({"proc": "breaches", "then": after_breach, "locals": {"chooser": chooser}})
    document["calls"] = calls
