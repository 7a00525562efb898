"""Fort Sumter's shortcuts give the same answers as the rules they stand for (engine
speed for search). Each is checked at every position of random games, with the
Peace Commissioner and full spaces included, against the per-space definitions in
``rules.fort_sumter.board`` (``can_place``, ``can_remove``, ``has_room``)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from rules import get_game
from rules.core import run_events
from rules.fort_sumter import board, events, hidden, steps, tracks
from rules.fort_sumter.cards import DIMENSIONS, OBJECTIVES, ROLES, SPACE_IDS, STRATEGY

GAME = get_game("fort_sumter")
State = dict[str, Any]
#: Every group of spaces the rules list: the whole map and each dimension.
GROUPS = [SPACE_IDS, *(d.spaces for d in DIMENSIONS.values())]


def positions(seed: int) -> Iterator[State]:
    """Every position of one random game (the live state: read it before moving on)."""
    rng = random.Random(seed)
    state = GAME.setup(seed=seed, options={"event_discard": seed % 2 == 0})
    while GAME.outcome(state) is None:
        yield state
        role = rng.choice(GAME.active_roles(state))
        actions = GAME.legal_actions(state, role)
        actions.pop("undo", None)
        verb = rng.choice(sorted(actions))
        args = actions[verb]
        state = GAME.act(state, role, verb, rng.choice(args) if isinstance(args, list) else None)


def variants(state: State, rng: random.Random) -> Iterator[State]:
    """The position itself, and a copy with a full space and the Peace Commissioner put
    somewhere at random (random games seldom fill a space)."""
    yield state
    copy: State = json.loads(json.dumps(state))
    copy["spaces"][rng.choice(SPACE_IDS)][rng.choice(ROLES)] = board.MAX_PER_SPACE
    copy["peace_commissioner"] = rng.choice(SPACE_IDS)
    yield copy


@pytest.mark.parametrize("seed", range(6))
def test_space_lists_agree_with_the_per_space_checks(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for position in positions(seed):
        for state in variants(position, rng):
            for role in ROLES:
                for spaces in GROUPS:
                    assert board.placeable(state, role, spaces) == [
                        s for s in spaces if board.can_place(state, role, s)
                    ]
                    assert board.removable(state, role, spaces) == [
                        s for s in spaces if board.can_remove(state, role, s)
                    ]
                    assert board.any_removable(state, role, spaces) == any(
                        board.can_remove(state, role, s) for s in spaces
                    )
                    for source in (None, *spaces):
                        assert board.with_room(state, role, spaces, source) == [
                            s for s in spaces if s != source and board.has_room(state, role, s)
                        ]
                    checked += 1
    assert checked > 1000


def test_event_places_are_resolved_as_the_data_names_them() -> None:
    """Every place in the card data, and places made up on the spot (not in the data)."""
    named = 0
    for card in [*STRATEGY.values(), *OBJECTIVES.values()]:
        for instruction in card.event:
            for key in ("where", "from", "to"):
                if key in instruction:
                    where = instruction[key]
                    assert events._spaces(where) == tuple(board.resolve_where(where))
                    named += 1
    assert named > 50
    for where in ({"anywhere": True}, {"dimension": "armaments"}, {"spaces": ["charleston"]}):
        assert events._spaces(where) == tuple(board.resolve_where(where))


@pytest.mark.parametrize("seed", range(6))
def test_breaches_are_only_skipped_while_no_zone_is_uncovered(seed: int) -> None:
    """``process_breaches`` looks at a side only once its track has reached the first
    breachable zone: before that, no zone of that side may be uncovered."""
    early = 0
    for state in positions(seed):
        for role in ROLES:
            if state["track"][role] > tracks._FIRST_BREACH:
                early += 1
                assert not any(tracks.uncovered(state, role, zone) for zone, _, _ in tracks.ZONES)
    assert early > 50


def test_a_breach_is_due_exactly_when_the_breaches_procedure_would_change_something() -> None:
    """After a card play the breaches procedure is skipped unless ``breach_due``: that
    must be exactly when processing the breaches would change the state."""
    due = idle = 0
    for state in (state for seed in range(40) for state in positions(seed)):
        processed = json.loads(json.dumps(state))
        tracks.process_breaches(processed, "unionist")
        changed = processed != state
        assert tracks.breach_due(state) == changed
        due += changed
        idle += not changed
    assert due > 20 and idle > 1000


def crowded(state: State, rng: random.Random) -> Iterator[State]:
    """The position itself, and a copy where all but one space of each dimension is full
    for both sides, so that a token often has room only in its own space."""
    yield state
    copy: State = json.loads(json.dumps(state))
    for dimension in DIMENSIONS.values():
        spare = rng.choice(dimension.spaces)
        for space in dimension.spaces:
            if space != spare:
                copy["spaces"][space] = {r: board.MAX_PER_SPACE for r in ROLES}
    yield copy


def test_movable_tokens_agree_with_their_targets() -> None:
    """The pivotal bonus, the Final Crisis and move events offer a token to move exactly
    when it has somewhere to go, as asking its targets one by one would say."""
    seen = {"pivotal_bonus": 0, "final_crisis_move": 0, "event": 0}
    rng = random.Random(1)
    for position in (state for seed in range(40) for state in positions(seed)):
        for state in crowded(position, rng):
            role = GAME.active_roles(state)[0]
            slow = slow_movable(state, role)
            if slow is not None:
                verb = "from" if state["step"] != "pivotal_bonus" else "move"
                assert GAME.legal_actions(state, role).get(verb, []) == slow
                seen[state["step"]] += 1
    assert all(seen.values()), seen


def slow_movable(state: State, role: str) -> list[str] | None:
    """The tokens the position should offer to move, each source's targets asked one by
    one; None where no token is being picked up."""
    step = state["step"]
    if step == "pivotal_bonus" and not state["calls"][-1]["locals"]["moving"]:
        return [t for t in steps._bonus_tokens(state) if steps._bonus_targets(state, t)]
    if step == "final_crisis_move" and state["final_crisis"]["moving"] is None:
        if state["final_crisis"]["left"] <= 0:
            return []
        sources = (["pool"] if state["pool"][role] > 0 else []) + [
            s for s in SPACE_IDS if board.can_remove(state, role, s)
        ]
        return [s for s in sources if steps._fc_targets(state, role, s)]
    if step != "event":
        return None
    here = state["calls"][-1]["locals"]
    instruction = GAME.event_instructions(state, here["source"])[here["pc"]]
    if instruction["op"] != "move" or here["scratch"].get("from") is not None:
        return None
    op = events.EVENT_VOCABULARY["move"]
    assert isinstance(op, events.MoveOp)
    side = events._side(here, instruction)
    if events._left(here, instruction) <= 0:
        return []
    return [
        s
        for s in board.resolve_where(instruction["from"])
        if board.can_remove(state, side, s) and op._targets(state, here, instruction, s)
    ]


@pytest.mark.parametrize("seed", range(12))
def test_one_chooser_steps_have_exactly_the_deciding_role_active(seed: int) -> None:
    """``Game._apply`` takes the deciding role as the one active role of a step marked
    ``one_chooser`` instead of asking ``active``: such a step must name exactly one."""
    flagged = 0
    for state in positions(seed):
        step = GAME.steps[state["step"]]
        if step.one_chooser:
            assert len(step.active(GAME, state)) == 1, state["step"]
            flagged += 1
    assert flagged > 40


def test_listed_event_tokens_are_targets_and_a_waiting_event_runs_no_further() -> None:
    """The token ops' ``handle`` takes its arg as one of the op's targets (``Game.act``
    checked it against the list), and ``EventStep.handle`` runs the event on only once an
    instruction is done: at every position in an event, each listed token is a target,
    and running the event on would change nothing."""
    seen = 0
    for state in (state for seed in range(30) for state in positions(seed)):
        if state["step"] != "event":
            continue
        here = state["calls"][-1]["locals"]
        instruction = GAME.event_instructions(state, here["source"])[here["pc"]]
        op = events.EVENT_VOCABULARY[instruction["op"]]
        if isinstance(op, events._TokenOp):
            listed = GAME.legal_actions(state, GAME.active_roles(state)[0]).get(op.verb, [])
            targets = op.targets(state, here, instruction)
            assert all(arg in targets for arg in listed)
        before = json.dumps(state)
        copy = json.loads(before)
        run_events(GAME, copy)
        assert json.dumps(copy) == before
        seen += 1
    assert seen > 200


def test_card_tables_agree_with_the_cards() -> None:
    """Tables worked out once from the card data: the events a side may play, each
    card's event instructions, each card's Final Crisis spaces, each space's dimension
    and the bonus tokens ``space:side``."""
    for role in ROLES:
        assert steps._EVENTS_ALLOWED[role] == {
            c for c, card in STRATEGY.items() if card.event_allowed(role)
        }
    for source in [*STRATEGY, *OBJECTIVES]:
        card = STRATEGY[source] if source in STRATEGY else OBJECTIVES[source]
        assert GAME.event_instructions({}, source) is card.event
    for c in STRATEGY:
        assert steps._FC_SPACES[c] == DIMENSIONS[steps._dimension_of(c)].spaces
    for s in SPACE_IDS:
        assert steps._DIMENSION_OF_SPACE[s] == DIMENSIONS[board.SPACES[s].dimension].spaces
        for side in ROLES:
            token = steps._TOKEN[s, side]
            assert token == f"{s}:{side}"
            assert steps._TOKEN_PARTS[token] == tuple(token.split(":"))
    assert len(steps._TOKEN_PARTS) == len(SPACE_IDS) * len(ROLES)


def slow_dimension_controller(state: State, dimension: str) -> str | None:
    owners = {board.controller(state, s) for s in DIMENSIONS[dimension].spaces}
    return owners.pop() if len(owners) == 1 else None


def slow_bonus_tokens(state: State) -> list[str]:
    spaces = DIMENSIONS[board.SPACES[state["calls"][-1]["locals"]["space"]].dimension].spaces
    removable = {side: board.removable(state, side, spaces) for side in ROLES}
    return [f"{s}:{side}" for s in spaces for side in ROLES if s in removable[side]]


def slow_fc_sources(state: State, role: str) -> list[str] | None:
    """The Final Crisis tokens ``role`` may move (pool first, then spaces in map order):
    those with some space of the card's dimension other than their own with room."""
    fc = state["final_crisis"]
    if fc["moving"] is not None or fc["left"] <= 0:
        return None
    card = fc["revealed"][role][-1]
    room = board.with_room(state, role, DIMENSIONS[STRATEGY[card].fc_dimension].spaces, None)
    pool = ["pool"] if state["pool"][role] > 0 else []
    found = [s for s in pool + board.removable(state, role, SPACE_IDS) if set(room) - {s}]
    return found or None


def test_one_pass_answers_agree_with_their_definitions() -> None:
    """At every position of random games (and crowded copies, with the Peace
    Commissioner somewhere): dimension control from each space's controller, the
    pivotal bonus tokens from ``removable``, the tokens left of an event instruction, and
    the counts the card play and objective steps read as a whole."""
    rng = random.Random(2)
    bonus = counted = moves = 0
    for position in (state for seed in range(30) for state in positions(seed)):
        for crowd in crowded(position, rng):
            for state in variants(crowd, rng):
                for dimension in DIMENSIONS:
                    assert board.dimension_controller(state, dimension) == (
                        slow_dimension_controller(state, dimension)
                    )
                if state["step"] == "pivotal_bonus":
                    assert steps._bonus_tokens(state) == slow_bonus_tokens(state)
                    assert steps._any_bonus_token(state) == bool(slow_bonus_tokens(state))
                    bonus += 1
                if state["step"] == "final_crisis_move":
                    role = state["final_crisis"]["resolve"][0]
                    assert steps._fc_options(state, role).get("from") == slow_fc_sources(
                        state, role
                    )
                    moves += 1
        state = position
        assert list(state["played"]) == list(ROLES) == list(state["objective"])
        if state["step"] == "event":
            here = state["calls"][-1]["locals"]
            instruction = GAME.event_instructions(state, here["source"])[here["pc"]]
            assert events._left(here, instruction) == events._count(instruction) - events._done(
                here
            )
            counted += 1
    assert bonus > 100 and counted > 100 and moves > 100


def test_final_crisis_checks_agree_with_the_listed_options() -> None:
    """After a Final Crisis move, and as a side's turn at a pair begins, the rules ask
    whether the side has anything to do without listing its options (``_fc_can_move``,
    ``_fc_must_act``): the answers must be what the listed options say."""
    rng = random.Random(3)
    moves = turns = 0
    for position in (state for seed in range(40) for state in positions(seed)):
        if state_step(position) not in ("final_crisis_move", "final_crisis_match"):
            continue
        for crowd in crowded(position, rng):
            for state in variants(crowd, rng):
                fc = state["final_crisis"]
                role = fc["resolve"][0]
                if fc["mode"] == "differ" and fc["moving"] is None and fc["left"] > 0:
                    listed = "from" in steps._fc_options(state, role)
                    assert steps._fc_can_move(state, role) == listed
                    moves += 1
                fresh: State = json.loads(json.dumps(state))
                fresh["final_crisis"].update(left=2, moving=None, removed=0)
                options = steps._fc_options(fresh, role)
                if fc["mode"] == "differ":
                    options = {"from": options["from"]} if "from" in options else {}
                assert steps._fc_must_act(fresh, role) == bool(options)
                turns += 1
    assert moves > 100 and turns > 100


def state_step(state: State) -> str:
    step: str = state["step"]
    return step


def test_token_moves_refuse_exactly_what_the_per_space_checks_refuse() -> None:
    """``board.place``, ``remove`` and ``move`` check their move written out: each raises
    exactly when ``can_place``, ``can_remove`` and ``has_room`` say no, and otherwise
    moves one token as those checks describe."""
    rng = random.Random(4)
    refused = done = 0
    for position in (state for seed in range(8) for state in positions(seed)):
        for state in variants(position, rng):
            role, space, other = rng.choice(ROLES), rng.choice(SPACE_IDS), rng.choice(SPACE_IDS)
            cases = [
                (board.place, (space,), board.can_place(state, role, space)),
                (board.remove, (space,), board.can_remove(state, role, space)),
                (
                    board.move,
                    (space, other),
                    space != other
                    and board.can_remove(state, role, space)
                    and board.has_room(state, role, other),
                ),
            ]
            for move, where, allowed in cases:
                copy: State = json.loads(json.dumps(state))
                if not allowed:
                    with pytest.raises(ValueError):
                        move(copy, role, *where)
                    assert copy == state
                    refused += 1
                    continue
                move(copy, role, *where)
                supply = copy["pool"][role] + copy["track"][role]
                assert board.on_map(copy, role) - board.on_map(state, role) == (
                    board.supply(state, role) - supply
                )
                done += 1
    assert refused > 200 and done > 200


def test_determinizations_dealt_from_kept_pools_are_the_fresh_ones() -> None:
    """``determinize`` keeps the unseen cards it worked out for the last known state:
    each determinization equals one worked out afresh (nothing kept), whatever view
    came before it, and the kept state is never handed out to be changed."""
    rng = random.Random(5)
    views = [
        GAME.view(state, role)
        for seed in range(6)
        for state in positions(seed)
        for role in ROLES
        if rng.random() < 0.2
    ]
    rng.shuffle(views)
    for view in views:
        key = rng.getrandbits(64)
        role = view["role"]
        warm = [GAME.determinize(view, role, key) for _ in range(2)]
        hidden._LAST[0] = None
        fresh = GAME.determinize(view, role, key)
        assert warm[0] == warm[1] == fresh
        warm[0]["strategy_deck"].append("changed")
        assert GAME.determinize(view, role, key) == fresh
    assert len(views) > 100
