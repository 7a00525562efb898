"""Lincoln's shortcuts give the same answers as the definitions they stand for (engine
speed for search). Checked at every position of random games."""

from __future__ import annotations

import copy
import itertools
import random

import pytest

from rules import get_game
from rules.fate_die import opponent as fate
from rules.lincoln import board, events, hidden, steps
from rules.lincoln.common import naval_cards, run_by_die, train_cards
from rules.lincoln.data import (
    BLOCKADE,
    CARDS,
    LOCATIONS,
    PORTS,
    SUPPLY_SOURCES,
    cards_of,
    opponent,
)
from tests.fate_helpers import random_fate_game

GAME = get_game("lincoln")


def positions(seed: int, limit: int = 400):
    rng = random.Random(seed)
    state = GAME.setup(seed=seed)
    for _ in range(limit):
        if GAME.outcome(state) is not None:
            return
        yield state
        role = GAME.active_roles(state)[0]
        actions = GAME.legal_actions(state, role)
        actions.pop("undo", None)
        verb = rng.choice(sorted(actions))
        args = actions[verb]
        state = GAME.act(state, role, verb, rng.choice(args) if isinstance(args, list) else None)


def slow_passable(state, side, starts):
    """``board.passable`` as first written: every location's halves asked afresh."""
    reached: dict[str, set[int]] = {}
    queue = []
    for location, halves in starts:
        new = set(halves) - reached.get(location, set())
        if new:
            reached.setdefault(location, set()).update(new)
            queue.append((location, tuple(new)))
    while queue:
        location, halves = queue.pop()
        for here, there, arrive, _ in board.ADJACENT[location]:
            if here not in halves or (side == "confederate" and there in board.TOP_THREE):
                continue
            own = board.own_halves(state, there, side)
            onward = (0, 1) if own == (0, 1) else (arrive,) if arrive in own else None
            if onward is None:
                continue
            new = set(onward) - reached.get(there, set())
            if new:
                reached.setdefault(there, set()).update(new)
                queue.append((there, tuple(new)))
    return reached


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_deployability_without_tracing_supply_agrees_with_the_deploy_places(seed: int) -> None:
    checked = 0
    for state in positions(seed):
        for role in GAME.roles:
            for card in state["piles"][role]["hand"]:
                assert steps._places_exist(state, role, card) == bool(
                    steps.deploy_places(state, role, card)
                )
                checked += 1
    assert checked > 500


@pytest.mark.parametrize("seed", [4, 5])
def test_passable_with_its_halves_worked_out_once_agrees_with_the_definition(seed: int) -> None:
    for state in positions(seed, limit=200):
        for side in GAME.roles:
            sources = [(s, (0, 1)) for s in SUPPLY_SOURCES[side]]
            for starts in (sources, [(loc, (0,)) for loc in list(LOCATIONS)[:5]]):
                fast, slow = board.passable(state, side, starts), slow_passable(state, side, starts)
                assert fast == slow
                # The same order too: moves are listed in it, so a seeded game depends on it.
                assert list(fast) == list(slow)


def slow_control(state, location):
    """Control as the rules define it, from every unit in the location."""
    present = board.sides_in(state, location)
    if len(present) == 2:
        return None
    if present:
        return next(iter(present))
    return state["flags"].get(location) or LOCATIONS[location]["colour"]


@pytest.mark.parametrize("seed", [6, 7, 8])
def test_control_from_the_first_unit_of_each_half_agrees_with_the_definition(seed: int) -> None:
    """Control reads one unit per half, except where a battle is being fought; checked at
    every position, battles included, for every location and side."""
    battles = 0
    for state in positions(seed, limit=600):
        battles += state["battle"] is not None
        for location in LOCATIONS:
            assert board.control(state, location) == slow_control(state, location)
            assert board.contested(state, location) == (len(board.sides_in(state, location)) == 2)
            for side in GAME.roles:
                assert board.has_army(state, location, side) == any(
                    u["kind"] == "army" for u in board.units(state, location, side)
                )
        for role in GAME.roles:
            assert steps.can_move(state, role) == bool(steps.movable_from(state, role))
            assert steps.can_sail(state, role) == bool(steps.naval_destinations(state, role))
    assert battles > 0


def test_control_reads_every_unit_where_a_battle_mixes_a_half() -> None:
    """The rules let a half hold both sides only at the battle being fought; there the
    first unit does not tell, and control must still say contested."""
    state = GAME.setup(seed=3)
    location = next(loc for loc in LOCATIONS if not board.units(state, loc))
    state["board"][location][0] = [
        {"side": "union", "kind": "army", "strength": 1},
        {"side": "confederate", "kind": "army", "strength": 2},
    ]
    state["battle"] = {"location": location}
    assert board.control(state, location) is None
    assert board.contested(state, location)
    assert board.control(state, location) == slow_control(state, location)


def slow_army_places(state, role):
    """``board.army_places`` from the definitions, location by location."""
    return [
        (loc, board.contested(state, loc), board._mask_of(board.own_halves(state, loc, role)))
        for loc in LOCATIONS
        if board.has_army(state, loc, role)
    ]


def slow_movable_from(state, role):
    """``steps.movable_from`` as the rules define it: every location whose armies have
    somewhere to go, one army or group at a time."""
    return [loc for loc in LOCATIONS if steps._can_move_from(state, role, loc)]


def slow_attack_places(state, role):
    return [
        loc for loc in LOCATIONS if board.contested(state, loc) and board.has_army(state, loc, role)
    ]


def test_one_pass_over_the_armies_agrees_with_asking_location_by_location() -> None:
    """``board.army_places`` and what the turn derives from it (move, attack) against the
    definitions, at every position of several games, battles included: from the places
    listed, and read as far as each needs (the first army that can move, the locations
    with both halves held)."""
    battles = moves = attacks = 0
    for state in (s for seed in range(9, 15) for s in positions(seed, limit=600)):
        battles += state["battle"] is not None
        for role in GAME.roles:
            armies = board.army_places(state, role)
            assert armies == slow_army_places(state, role)
            movable = slow_movable_from(state, role)
            assert steps.movable_from(state, role) == movable
            assert steps.can_move(state, role) == bool(movable)
            assert steps.can_move(state, role, armies) == bool(movable)
            attack = slow_attack_places(state, role)
            assert steps.attack_places(state, role) == attack
            assert steps.attack_places(state, role, armies) == attack
            assert board.contested_armies(state, role) == attack
            moves += bool(movable)
            attacks += bool(attack)
    assert battles > 10 and moves > 500 and attacks > 10


def army(side):
    return {"side": side, "kind": "army", "strength": 1}


@pytest.mark.parametrize("seed", [12, 13])
def test_the_hand_read_once_agrees_with_each_card_asked_alone(seed: int) -> None:
    """``steps.deployable_cards`` (sources, ports and naval cards read once per hand)
    against ``steps.deployable`` card by card, for the hand and parts of it (a Fate Die
    lists only the cards it allows); ``events.can_raise`` against the raise places; and
    the map VP and captures against reading every location."""
    deployments = raises = by_sea = 0
    for state in positions(seed, limit=600):
        for role in GAME.roles:
            hand = state["piles"][role]["hand"]
            for cards in (hand, hand[1:], hand[::2], hand[-1:]):
                expected = [c for c in cards if steps.deployable(state, role, c)]
                assert steps.deployable_cards(state, role, list(cards)) == expected
                deployments += len(expected)
            for strength in (1, 2, 3):
                places = events.raise_places(state, role, strength)
                assert events.can_raise(state, role, strength) == bool(places)
                raises += bool(places)
            # Random games seldom use up a strength's counters: take them off.
            emptied = copy.deepcopy(state)
            emptied["stock"][role]["armies"] = {"1": 0, "2": 0, "3": 0}
            emptied["stock"][role]["forts"] = 0
            cards = emptied["piles"][role]["hand"]
            expected = [c for c in cards if steps.deployable(emptied, role, c)]
            assert steps.deployable_cards(emptied, role, list(cards)) == expected
            for strength in (1, 2, 3):
                assert not events.can_raise(emptied, role, strength)
                assert not events.raise_places(emptied, role, strength)
            # Nor do they often lose their supply sources and hold a port: put the enemy in
            # the sources and the side in a port, so that only the port by sea is left.
            cut = copy.deepcopy(state)
            for source in SUPPLY_SOURCES[role]:
                cut["board"][source] = [[army(opponent(role))], []]
            cut["board"][PORTS[0]] = [[army(role)], []]
            cards = cut["piles"][role]["hand"]
            expected = [c for c in cards if steps.deployable(cut, role, c)]
            assert steps.deployable_cards(cut, role, list(cards)) == expected
            by_sea += len(expected)
        union = [
            loc
            for loc, data in LOCATIONS.items()
            if data["vp"] and board.control(state, loc) == "union"
        ]
        assert board.union_vp(state) == sum(int(LOCATIONS[loc]["vp"]) for loc in union) + int(
            BLOCKADE[state["blockade"]]["union_vp"]
        )
        assert board.captured(state) == sorted(
            loc
            for loc, data in LOCATIONS.items()
            if data["colour"] == "union" and board.control(state, loc) == "confederate"
        )
    assert deployments > 500 and raises > 100 and by_sea > 10


def test_one_pass_over_the_armies_reads_forts_and_the_battle_as_the_definitions_do() -> None:
    """Cases random games seldom reach: a half of forts only, a side's fort beside its own
    army, and the battle's location with both sides in one half."""
    state = GAME.setup(seed=3)
    empty = [loc for loc in LOCATIONS if not board.units(state, loc)]

    def unit(side, kind="army"):
        return {"side": side, "kind": kind, "strength": 0 if kind == "fort" else 2}

    on_map = state["board"]
    on_map[empty[0]] = [[unit("union", "fort")], []]
    on_map[empty[1]] = [[unit("union", "fort")], [unit("union")]]
    on_map[empty[2]] = [[unit("confederate")], [unit("union", "fort"), unit("union")]]
    on_map[empty[3]] = [[unit("confederate", "fort")], [unit("union", "fort")]]
    on_map[empty[4]] = [[unit("union"), unit("confederate")], [unit("confederate", "fort")]]
    # A fort ahead of an army in a half, alone and facing the enemy.
    on_map[empty[5]] = [[unit("union", "fort"), unit("union")], []]
    on_map[empty[6]] = [[unit("union", "fort"), unit("union")], [unit("confederate")]]
    state["battle"] = {"location": empty[4]}
    for role in GAME.roles:
        assert board.army_places(state, role) == slow_army_places(state, role)
        assert steps.movable_from(state, role) == slow_movable_from(state, role)
        assert steps.attack_places(state, role) == slow_attack_places(state, role)
    places = {loc for loc, _contested, _leave in board.army_places(state, "union")}
    assert empty[0] not in places and {empty[1], empty[2], empty[4], empty[5], empty[6]} <= places
    # Elsewhere a half holds one side only, so the mixed half goes before the battle moves.
    on_map[empty[4]] = [[unit("union")], [unit("confederate", "fort")]]
    for location in [*empty[:7], None]:  # a battle anywhere (it reads the definitions), or none
        state["battle"] = None if location is None else {"location": location}
        for role in GAME.roles:
            assert board.army_places(state, role) == slow_army_places(state, role)
            assert steps.movable_from(state, role) == slow_movable_from(state, role)
            assert steps.attack_places(state, role) == slow_attack_places(state, role)


def test_moves_out_of_a_half_without_links_and_captures_in_sorted_order() -> None:
    """A contested location whose side's half has no link it may take (Fort Monroe's and
    Harpers Ferry's land halves; Cincinnati's toward the top three for the Confederates),
    and several captures at once (kept sorted)."""
    state = GAME.setup(seed=4)
    on_map = state["board"]
    on_map["fort_monroe"] = [[army("confederate")], [army("union")]]
    on_map["harpers_ferry"] = [[army("confederate")], [army("union")]]
    on_map["cincinnati"] = [[army("union")], [army("confederate")]]
    for role in GAME.roles:
        assert steps.movable_from(state, role) == slow_movable_from(state, role)
    assert "fort_monroe" not in steps.movable_from(state, "union")
    assert "harpers_ferry" not in steps.movable_from(state, "confederate")
    # Cincinnati's second half leads only into the top three, closed to the Confederates.
    assert "cincinnati" not in steps.movable_from(state, "confederate")
    # With nothing else on the map, the side shut in such a half cannot move at all.
    for location, halves in (
        ("fort_monroe", [[army("confederate")], [army("union")]]),
        ("harpers_ferry", [[army("confederate")], [army("union")]]),
        ("cincinnati", [[army("union")], [army("confederate")]]),
    ):
        alone = copy.deepcopy(state)
        alone["board"] = {loc: [[], []] for loc in LOCATIONS}
        alone["board"][location] = halves
        for role in GAME.roles:
            movable = slow_movable_from(alone, role)
            assert steps.can_move(alone, role) == bool(movable)
            assert steps.movable_from(alone, role) == movable
        assert not all(steps.can_move(alone, role) for role in GAME.roles)
    for location, data in LOCATIONS.items():
        if data["colour"] == "union" and not board.units(state, location):
            state["flags"][location] = "confederate"
    expected = sorted(
        loc
        for loc, data in LOCATIONS.items()
        if data["colour"] == "union" and board.control(state, loc) == "confederate"
    )
    assert len(expected) > 2 and board.captured(state) == expected


def slow_supplied(state, side):
    """``board.supplied`` as first written, on the plain path search."""
    sources = [(s, (0, 1)) for s in SUPPLY_SOURCES[side] if board.control(state, s) == side]
    reach = slow_passable(state, side, sources)
    return {loc for loc in reach if board.control(state, loc) == side}


def slow_arrivals(state, side, start):
    """``board.arrivals`` as first written, on the plain path search."""
    halves = board.own_halves(state, start, side) or tuple(
        h for h in (0, 1) if board.half_side(state, start, h) == side
    )
    found = {}
    for location, leave in slow_passable(state, side, [(start, halves)]).items():
        for here, there, arrive, index in board.ADJACENT[location]:
            if here not in leave or there == start:
                continue
            if side == "confederate" and there in board.TOP_THREE:
                continue
            way = (location, arrive, index)
            if way not in found.setdefault(there, []):
                found[there].append(way)
    return found


def slow_adjacent_arrivals(state, side, start):
    """``board.adjacent_arrivals`` as first written: halves as tuples, links as data."""
    halves = board.own_halves(state, start, side) or tuple(
        h for h in (0, 1) if board.half_side(state, start, h) == side
    )
    found = {}
    for here, there, arrive, index in board.ADJACENT[start]:
        if here not in halves or (side == "confederate" and there in board.TOP_THREE):
            continue
        found.setdefault(there, (arrive, index))
    return found


def test_path_searches_kept_per_board_reading_agree_with_the_plain_search() -> None:
    """``board.own_masks``, ``controlled_by``, ``holds_any`` and ``army_in_any`` against the
    definitions location by location, and supply and arrivals (kept per reading of the
    board; the destinations alone and the ways into each one too) against the plain
    search, in their order, at every position of several games (battles included) and of
    the hand-made cases."""
    battles = far = 0
    made = GAME.setup(seed=3)
    made["board"]["st_louis"] = [[army("union"), army("confederate")], []]
    made["battle"] = {"location": "st_louis"}
    games = (s for seed in range(15, 19) for s in positions(seed, limit=500))
    for state in itertools.chain([made], games):  # lazily: a game's positions are one state
        battles += state["battle"] is not None
        for side in GAME.roles:
            assert board.controlled_by(state, side, LOCATIONS) == [
                loc for loc in LOCATIONS if board.control(state, loc) == side
            ]
            for where in (SUPPLY_SOURCES[side], PORTS, LOCATIONS):
                assert board.holds_any(state, side, where) == any(
                    board.control(state, loc) == side for loc in where
                )
                assert board.army_in_any(state, side, where) == any(
                    board.has_army(state, loc, side) for loc in where
                )
            masks = board.own_masks(state, side)
            assert masks == tuple(board._own_mask(state, loc, side) for loc in LOCATIONS)
            assert board.supplied(state, side) == slow_supplied(state, side)
            assert board.supplied_in_order(state, side) == sorted(slow_supplied(state, side))
            for start in LOCATIONS:
                near = board.adjacent_arrivals(state, side, start)
                assert near == slow_adjacent_arrivals(state, side, start)
                assert list(near) == list(slow_adjacent_arrivals(state, side, start))
                if not board.units(state, start, side):
                    continue
                fast, slow = board.arrivals(state, side, start), slow_arrivals(state, side, start)
                assert fast == slow and list(fast) == list(slow)
                assert board.destinations(state, side, start) == tuple(slow)
                assert board.move_destinations(state, side, start) == (
                    *near,
                    *(there for there in slow if there not in near),
                )
                for dest in LOCATIONS:
                    assert board.ways_in(state, side, start, dest) == slow.get(dest, [])
                far += len(fast) > len(board.adjacent_arrivals(state, side, start))
    assert battles > 10 and far > 100


def slow_turn_actions(state, role):
    """The turn's action list as first written: each list of cards read from the card
    data and restricted by the Fate Die on its own, sailing asked port by port."""
    hand = state["piles"][role]["hand"]
    actions = {}
    free = [c for c in hand if CARDS[c]["timing"] == "free" and events.playable(state, role, c)]
    if state["turn"]["actions_left"] <= 0:
        if free:
            actions["free"] = free
        actions["end"] = True
        return actions
    ruled = fate.restrict(state, role, hand)
    deploy = [c for c in ruled if steps.deployable(state, role, c)]
    if deploy:
        actions["deploy"] = deploy
    trains = fate.restrict(state, role, train_cards(state, role))
    if trains and slow_movable_from(state, role):
        actions["move"] = trains
    navals = fate.restrict(state, role, naval_cards(state, role))
    if role == "union" and navals and steps.naval_destinations(state, role):
        actions["naval"] = navals
    attacks = slow_attack_places(state, role)
    if attacks:
        actions["attack"] = attacks
    if hand:
        actions["discard"] = True
    cards = [c for c in ruled if CARDS[c]["timing"] == "action" and events.playable(state, role, c)]
    if cards:
        actions["action"] = cards
    if free:
        actions["free"] = free
    actions["pass"] = True
    return actions


@pytest.mark.parametrize("fated", ["", "union", "confederate"])
def test_the_turn_lists_what_each_card_and_location_asked_alone_gives(fated: str) -> None:
    """``steps.Turn.actions`` (the hand sorted by card sets, the die asked once, sailing
    read off the armies' places) against the list built from the definitions, verbs in
    order, at every turn position of random games, with and without the Fate Die running
    either side (it narrows the cards a side may build its action on); and
    ``common.run_by_die`` against ``fate_role`` at every position."""
    turn = steps.STEPS["turn"]
    listed = narrowed = sails = naval = ruled = 0
    for seed in range(20, 24):
        for state in random_fate_game(GAME, seed, fated, limit=500) if fated else positions(seed):
            for side in GAME.roles:
                assert run_by_die(state, side) == (fate.fate_role(state) == side)
                ruled += run_by_die(state, side)
            if state["step"] != "turn" or state["outcome"] is not None:
                continue
            role = state["turn"]["player"]
            fast, slow = turn.actions(GAME, state, role), slow_turn_actions(state, role)
            assert fast == slow and list(fast) == list(slow)
            port = next((p for p in PORTS if not board.units(state, p)), None)
            if role == "union" and port is not None:
                # Random games seldom leave a Union army in a port: put one in an empty one.
                afloat = copy.deepcopy(state)
                afloat["board"][port][0].append(army("union"))
                fast = turn.actions(GAME, afloat, role)
                assert fast == slow_turn_actions(afloat, role)
                naval += "naval" in fast
            for side in GAME.roles:  # sailing, for either side, wherever its armies are
                armies = board.army_places(state, side)
                sail = steps.can_sail(state, side)
                assert steps.can_sail(state, side, armies) == sail
                sails += sail
            listed += 1
            hand = state["piles"][role]["hand"]
            narrowed += fate.restrict(state, role, hand) != hand
    assert listed > 300 and sails > 100 and naval > 50
    assert (narrowed > 100 and ruled > 1000) if fated else ruled == 0


def test_taking_a_place_reads_by_sea_as_the_listing_does() -> None:
    """``Place._by_sea`` against the places listed with their way there, for every place
    of every placement of random games, and with the supply sources lost (so that the
    ports by sea are all that is left)."""
    place = steps.STEPS["place"]
    placements = by_sea = 0
    for state in (s for seed in range(24, 30) for s in positions(seed, limit=1000)):
        if state["step"] != "place" or state["doing"]["at"] is not None:
            continue
        role = state["turn"]["player"]
        cut = copy.deepcopy(state)
        for source in SUPPLY_SOURCES[role]:
            cut["board"][source] = [[army(opponent(role))], []]
        cut["board"][PORTS[0]] = [[army(role)], []]
        for case in (state, cut):
            for at, sea in place._places(case, role).items():
                assert place._by_sea(case, role, at) == sea
                by_sea += sea
            placements += 1
    assert placements > 200 and by_sea > 20


def test_the_cards_of_each_wave_are_the_data_s_and_a_fresh_list_each_time() -> None:
    """``data.cards_of`` (worked out once) against reading the card data, and a deck built
    from it may be changed without changing the next one."""
    for side in GAME.roles:
        for wave in ("base", "I", "II", "III"):
            expected = [
                c for c, data in CARDS.items() if data["side"] == side and data["wave"] == wave
            ]
            dealt = cards_of(side, wave)
            assert dealt == expected
            dealt.clear()
            assert cards_of(side, wave) == expected


def slow_naval_sources(state, role, dest, picked):
    """``steps.naval_sources`` as first written: each port's units asked of the board."""
    found = []
    for port in PORTS:
        if port == dest:
            continue
        keys = [board.unit_key(u) for u in board.units(state, port, role) if u["kind"] == "army"]
        for pick in picked:
            where, key = pick.split(":")
            if where == port:
                keys.remove(key)
        found += sorted({f"{port}:{key}" for key in keys})
    return found


def test_the_armies_that_may_sail_are_read_as_the_definition_reads_them() -> None:
    """``steps.naval_sources`` (each port's halves read in place) against the definition,
    for every port as the destination and with some armies already picked, at every
    position of random games, with Union armies of each strength put in two empty ports
    (random games seldom leave one there)."""
    compared = picked_some = 0
    for state in (s for seed in range(30, 33) for s in positions(seed)):
        empty = [p for p in PORTS if not board.units(state, p)]
        afloat = copy.deepcopy(state)
        for strength, port in zip((1, 2, 3), empty[:2] * 2, strict=False):
            afloat["board"][port][0].append({"side": "union", "kind": "army", "strength": strength})
        for case, role in itertools.product((state, afloat), GAME.roles):
            every = steps.naval_sources(case, role, None, [])
            for picked in ([], every[:1], every[::2]):
                for dest in (None, *PORTS):
                    fast = steps.naval_sources(case, role, dest, picked)
                    assert fast == slow_naval_sources(case, role, dest, picked)
                    compared += 1
                    picked_some += bool(picked and fast)
    assert compared > 1000 and picked_some > 500


@pytest.mark.parametrize("fated", ["", "confederate"])
def test_one_dealer_deals_for_every_key_what_a_fresh_determinization_deals(fated: str) -> None:
    """``hidden.Dealer`` (what the view decides read once, for a search's many keys)
    against ``determinize`` with each key alone, at positions of random games (battle
    cards face down, cards named by an action under way, a Fate Die display among them);
    a dealt state changed afterwards changes nothing the dealer deals next."""
    dealers = face_down = masked = 0
    for seed in range(34, 37):
        game = random_fate_game(GAME, seed, fated, limit=400) if fated else positions(seed)
        for index, state in enumerate(game):
            if index % 5:
                continue
            for role in GAME.roles:
                view = GAME.view(state, role)
                dealer = hidden.Dealer(view, role)
                for key in (seed, index, f"{index:032x}"):
                    dealt = dealer(key)
                    assert dealt == hidden.determinize(view, role, key)
                    for part in (dealt["piles"][role], dealt["piles"][opponent(role)]):
                        part["deck"].reverse()
                        part["hand"].clear()
                    dealt["board"].clear()
                    assert dealer(key) == hidden.determinize(view, role, key)
                dealers += 1
                face_down += dealer.face_down
                masked += dealer.masked
    assert dealers > 200 and face_down > 5 and masked > 5
