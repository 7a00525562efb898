"""The map in play: units in half-locations, control, supply, movement paths, flags, VP.

A unit is ``{"side", "kind": "army"|"fort", "strength"}`` (a fort's strength is 0; it is
worth 3 to a defender). ``state["board"][location]`` holds two lists, one per half. Outside
a battle a half never holds units of both sides: attackers wait in the battle record
until the battle is decided.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import chain
from typing import Any

from rules.core import State, log
from rules.lincoln.data import (
    ADJACENT,
    BLOCKADE,
    COUNTERS,
    EUROPE_END,
    LINKS,
    LOCATION_IDS,
    LOCATIONS,
    ROLE_NAMES,
    SUPPLY_SOURCES,
    TOP_THREE,
    name,
    opponent,
)

Unit = dict[str, Any]
FORT_VALUE = 3


def unit_key(unit: Unit) -> str:
    """How a choice names a unit: ``army1``, ``army2``, ``army3`` or ``fort``."""
    return "fort" if unit["kind"] == "fort" else f"army{unit['strength']}"


def describe(unit: Unit) -> str:
    return "fort" if unit["kind"] == "fort" else f"{unit['strength']}-strength army"


def units(state: State, location: str, side: str | None = None) -> list[Unit]:
    found = [u for half in state["board"][location] for u in half]
    return found if side is None else [u for u in found if u["side"] == side]


def half_side(state: State, location: str, half: int) -> str | None:
    """The side whose units stand in this half, if any."""
    here = state["board"][location][half]
    return str(here[0]["side"]) if here else None


#: Each location's own colour: who controls it when nobody stands there and no flag lies.
COLOUR: dict[str, str] = {location: str(data["colour"]) for location, data in LOCATIONS.items()}


def _occupant(state: State, location: str) -> str | None:
    """The one side with units in ``location``; None when it is empty or contested.

    Outside a battle all units in a half are of one side, so the first unit of each half
    tells; the battle's own location may hold both sides in a half and is read unit by
    unit. Control is asked for every location at every legal-action listing, so this is
    the shortcut (``tests/rules/test_lincoln_fast_paths.py`` holds it to the definition)."""
    first, second = state["board"][location]
    battle = state["battle"]
    if battle is not None and battle["location"] == location:
        present = sides_in(state, location)
        return next(iter(present)) if len(present) == 1 else None
    one: str | None = first[0]["side"] if first else None
    two: str | None = second[0]["side"] if second else None
    if one is None or one == two:
        return two
    return one if two is None else None


def sides_in(state: State, location: str) -> set[str]:
    return {u["side"] for half in state["board"][location] for u in half}


def contested(state: State, location: str) -> bool:
    first, second = state["board"][location]
    return bool(first or second) and _occupant(state, location) is None


def control(state: State, location: str) -> str | None:
    """Who controls a location: nobody while contested; else the side with units there,
    else the side whose flag lies there, else the location's own colour."""
    first, second = state["board"][location]
    if first or second:
        return _occupant(state, location)
    flag: str | None = state["flags"].get(location)
    return flag if flag is not None else COLOUR[location]


def has_army(state: State, location: str, side: str) -> bool:
    """Whether ``side`` has an army (not only a fort) in ``location``."""
    return any(
        unit["side"] == side and unit["kind"] == "army"
        for half in state["board"][location]
        for unit in half
    )


def army_in_any(state: State, side: str, locations: Iterable[str]) -> bool:
    """Whether ``side`` has an army in any of ``locations`` (:func:`has_army` of each, in
    plain loops: the turn asks it of every port)."""
    board = state["board"]
    for location in locations:
        for half in board[location]:
            for unit in half:
                if unit["side"] == side and unit["kind"] == "army":
                    return True
    return False


def controlled_by(state: State, side: str, locations: Iterable[str]) -> list[str]:
    """The locations of ``locations`` that ``side`` controls (:func:`control`), in order,
    in one loop (VP and Europe captures read a dozen locations after every action, and
    the turn asks whether a side holds a supply source or a port). Outside a battle a
    half holds one side, so its first unit tells; while a battle is fought :func:`control`
    is asked location by location."""
    if state["battle"] is not None:
        return [location for location in locations if control(state, location) == side]
    board = state["board"]
    flags = state["flags"]
    found: list[str] = []
    for location in locations:
        first, second = board[location]
        if first:
            held = first[0]["side"] == side and (not second or second[0]["side"] == side)
        elif second:
            held = second[0]["side"] == side
        else:
            flag: str | None = flags.get(location)
            held = (flag if flag is not None else COLOUR[location]) == side
        if held:
            found.append(location)
    return found


def holds_any(state: State, side: str, locations: Iterable[str]) -> bool:
    """Whether ``side`` controls any of ``locations``."""
    return bool(controlled_by(state, side, locations))


def own_halves(state: State, location: str, side: str) -> tuple[int, ...]:
    """The halves through which ``side`` may pass a location: both when it controls it,
    the half it occupies when the location is contested, none otherwise."""
    who = control(state, location)
    if who == side:
        return (0, 1)
    if who is None:
        return tuple(h for h in (0, 1) if half_side(state, location, h) == side)
    return ()


#: Halves as bit masks inside the path search: bit 0 for half 0, bit 1 for half 1.
def _mask_of(halves: Iterable[int]) -> int:
    mask = 0
    for half in halves:
        mask |= 1 << half
    return mask


_HALF_SETS: dict[int, frozenset[int]] = {
    mask: frozenset(h for h in (0, 1) if mask >> h & 1) for mask in range(4)
}


#: Rail links out of each location as the path search reads them, by side: (bit of the
#: half left by, location reached, bit of the half entered); the Confederates' lists
#: leave out the three locations they may never enter.
_PATHS: dict[str, dict[str, tuple[tuple[int, str, int], ...]]] = {
    side: {
        location: tuple(
            (1 << here, there, 1 << arrive)
            for here, there, arrive, _index in links
            if not (side == "confederate" and there in TOP_THREE)
        )
        for location, links in ADJACENT.items()
    }
    for side in ("union", "confederate")
}


#: For each side and location: the halves (bit mask) with a rail link that side may
#: leave by (the Confederates' links toward the top three left out).
LINKED_HALVES: dict[str, dict[str, int]] = {
    side: {
        location: _mask_of(
            here
            for here, there, _arrive, _index in links
            if not (side == "confederate" and there in TOP_THREE)
        )
        for location, links in ADJACENT.items()
    }
    for side in ("union", "confederate")
}


def _armed(half: list[Unit]) -> bool:
    """Whether a half holds an army (not only forts); a plain loop, quicker here than
    ``any`` over a generator (and an army usually comes first)."""
    for unit in half:  # noqa: SIM110
        if unit["kind"] == "army":
            return True
    return False


def army_places(state: State, side: str) -> list[tuple[str, bool, int]]:
    """Every location where ``side`` has an army, in map order, with whether it is
    contested and the halves (bit mask) ``side`` may leave it by (:func:`own_halves`).

    The turn's action list asks this of every location (can a side move, where may it
    attack), so one pass reads each half's first unit instead of asking control, contest
    and armies location by location: outside a battle a half holds one side only. While
    a battle is fought its location may mix a half, and the definitions are asked
    (``tests/rules/test_lincoln_fast_paths.py`` holds the pass to them)."""
    return list(iter_army_places(state, side))


def iter_army_places(state: State, side: str) -> Iterator[tuple[str, bool, int]]:
    """:func:`army_places` one by one, for a caller that may stop at the first."""
    if state["battle"] is not None:
        for location in LOCATION_IDS:
            if has_army(state, location, side):
                yield location, contested(state, location), _own_mask(state, location, side)
        return
    board = state["board"]
    for location in LOCATION_IDS:
        first, second = board[location]
        if first:
            # A half's first unit is nearly always an army: asked before the whole half.
            unit = first[0]
            if unit["side"] == side:
                armed = unit["kind"] == "army" or _armed(first)
                if not second or second[0]["side"] == side:
                    if armed or _armed(second):
                        yield location, False, 3
                elif armed:
                    yield location, True, 1
            elif second and second[0]["side"] == side and _armed(second):
                yield location, True, 2
        elif second and second[0]["side"] == side and _armed(second):
            yield location, False, 3


def contested_armies(state: State, side: str) -> list[str]:
    """The locations :func:`army_places` marks contested, in map order, read without the
    others: where the halves hold different sides and ``side``'s half holds an army (the
    turn asks it at every listing, and most locations have a half empty)."""
    if state["battle"] is not None:
        return [location for location, split, _leave in army_places(state, side) if split]
    board = state["board"]
    found: list[str] = []
    for location in LOCATION_IDS:
        first, second = board[location]
        if first and second:
            one = first[0]["side"]
            if one != second[0]["side"]:
                mine = first if one == side else second
                if mine[0]["side"] == side and _armed(mine):
                    found.append(location)
    return found


def _own_mask(state: State, location: str, side: str) -> int:
    """:func:`own_halves` as a bit mask."""
    first, second = state["board"][location]
    if not first and not second:
        flag = state["flags"].get(location)
        return 3 if (flag if flag is not None else COLOUR[location]) == side else 0
    who = _occupant(state, location)
    if who == side:
        return 3
    if who is None:
        return (1 if first and first[0]["side"] == side else 0) | (
            2 if second and second[0]["side"] == side else 0
        )
    return 0


#: Each location's place in map order: the index of its entry in :func:`own_masks`.
_INDEX: dict[str, int] = {location: i for i, location in enumerate(LOCATION_IDS)}

#: :data:`_PATHS` by location and halves left by (bit mask): the links one may take out
#: of those halves, as (location reached, its index, bit of the half entered), in link
#: order. The path search takes a location's links once per halves newly reached, so
#: they are sorted out here rather than tested link by link.
_PATHS_BY_MASK: dict[str, dict[str, tuple[tuple[tuple[str, int, int], ...], ...]]] = {
    side: {
        location: tuple(
            tuple((there, _INDEX[there], arrive) for here, there, arrive in links if leave & here)
            for leave in range(4)
        )
        for location, links in paths.items()
    }
    for side, paths in _PATHS.items()
}


#: Each location with its own colour, in map order (what an empty location without a
#: flag falls back on).
_COLOURED: tuple[tuple[str, str], ...] = tuple((i, COLOUR[i]) for i in LOCATION_IDS)


def own_masks(state: State, side: str) -> tuple[int, ...]:
    """:func:`_own_mask` of every location, in map order, read in one pass.

    This is all a path search reads of the board, so it also keys the searches' memos
    below. Outside a battle a half holds one side only, so its first unit tells; while a
    battle is fought the definition is asked location by location."""
    if state["battle"] is not None:
        return tuple(_own_mask(state, location, side) for location in LOCATION_IDS)
    board = state["board"]
    flags = state["flags"]
    masks: list[int] = []
    for location, colour in _COLOURED:
        first, second = board[location]
        if first:
            one = first[0]["side"]
            if second and second[0]["side"] != one:  # contested: the half it holds
                masks.append(1 if one == side else 2)
            else:
                masks.append(3 if one == side else 0)
        elif second:
            masks.append(3 if second[0]["side"] == side else 0)
        else:
            flag = flags.get(location)
            masks.append(3 if (flag if flag is not None else colour) == side else 0)
    return tuple(masks)


def _reach(side: str, masks: tuple[int, ...], starts: Iterable[tuple[str, int]]) -> dict[str, int]:
    """The path search of :func:`passable` on :func:`own_masks`: location -> the halves
    (bit mask) one may leave it by, in the order the search first reaches them."""
    reached: dict[str, int] = {}
    queue: list[tuple[str, int]] = []
    for location, mask in starts:
        new = mask & ~reached.get(location, 0)
        if new:
            reached[location] = reached.get(location, 0) | new
            queue.append((location, new))
    paths = _PATHS_BY_MASK[side]
    while queue:
        location, leaving = queue.pop()
        for there, index, arrive_bit in paths[location][leaving]:
            own = masks[index]
            if own == 3:
                onward = 3
            elif own & arrive_bit:
                onward = arrive_bit
            else:
                continue
            new = onward & ~reached.get(there, 0)
            if new:
                reached[there] = reached.get(there, 0) | new
                queue.append((there, new))
    return reached


def passable(
    state: State, side: str, starts: Iterable[tuple[str, tuple[int, ...]]]
) -> dict[str, frozenset[int]]:
    """Every location reachable along rail links through friendly locations from
    ``starts`` (location, halves one may leave by), with the halves one may leave it by.

    Supply and every move trace paths here, so the search keeps halves as bit masks and
    reads each location's passable halves once (nothing moves meanwhile); the locations
    come out in the order a plain search of sets finds them
    (``tests/rules/test_lincoln_fast_paths.py`` holds it to that form)."""
    masked = [(location, _mask_of(halves)) for location, halves in starts]
    reached = _reach(side, own_masks(state, side), masked)
    return {location: _HALF_SETS[mask] for location, mask in reached.items()}


@lru_cache(maxsize=256)
def _supplied(side: str, masks: tuple[int, ...]) -> tuple[str, ...]:
    """:func:`supplied` for a board read as :func:`own_masks`, sorted. A pure function of
    its arguments, so it is kept: listing the places and taking one trace the same supply."""
    sources = [(s, 3) for s in SUPPLY_SOURCES[side] if masks[_INDEX[s]] == 3]
    reached = _reach(side, masks, sources)
    return tuple(sorted(loc for loc in reached if masks[_INDEX[loc]] == 3))


def supplied(state: State, side: str) -> set[str]:
    """Locations ``side`` controls that trace a rail path to one of its supply sources it
    controls (through friendly locations, and through a contested one only via its half).
    A side controls exactly the locations it may pass by both halves."""
    return set(_supplied(side, own_masks(state, side)))


def supplied_in_order(state: State, side: str) -> list[str]:
    """:func:`supplied`, sorted (the order places are offered in)."""
    return list(_supplied(side, own_masks(state, side)))


Ways = tuple[tuple[str, tuple[tuple[str, int, int], ...]], ...]


#: Rail links out of each location by side, as :func:`_arrivals` reads them: (bit of the
#: half left by, location reached, the way in: (this location, half entered, link index));
#: the Confederates' lists leave out the three locations they may never enter.
_WAYS_OUT: dict[str, dict[str, tuple[tuple[int, str, tuple[str, int, int]], ...]]] = {
    side: {
        location: tuple(
            (1 << here, there, (location, arrive, index))
            for here, there, arrive, index in links
            if not (side == "confederate" and there in TOP_THREE)
        )
        for location, links in ADJACENT.items()
    }
    for side in ("union", "confederate")
}


@lru_cache(maxsize=256)
def _reach_from(side: str, masks: tuple[int, ...], start: str) -> tuple[tuple[str, int], ...]:
    """The path search out of ``start`` on a board read as :func:`own_masks`: (location,
    halves one may leave it by), in search order. Armies leave ``start`` by the halves
    :func:`own_halves` gives. A pure function of its arguments, so it is kept: listing the
    destinations and taking one trace the same paths."""
    return tuple(_reach(side, masks, [(start, masks[_INDEX[start]])]).items())


@lru_cache(maxsize=256)
def _arrivals(side: str, masks: tuple[int, ...], start: str) -> Ways:
    """:func:`arrivals` for a board read as :func:`own_masks` (kept, like its search)."""
    found: dict[str, list[tuple[str, int, int]]] = {}
    ways_out = _WAYS_OUT[side]
    for location, leave in _reach_from(side, masks, start):
        for here_bit, there, way in ways_out[location]:
            if not leave & here_bit or there == start:
                continue
            ways = found.get(there)
            if ways is None:
                found[there] = [way]
            elif way not in ways:
                ways.append(way)
    return tuple((there, tuple(ways)) for there, ways in found.items())


#: For each side, location and halves left by (bit mask): the locations its links lead
#: to, in link order (:data:`_WAYS_OUT` without the ways in).
_LEADS_TO: dict[str, dict[str, tuple[tuple[str, ...], ...]]] = {
    side: {
        location: tuple(
            tuple(there for here, there, _way in ways if leave & here) for leave in range(4)
        )
        for location, ways in ways_out.items()
    }
    for side, ways_out in _WAYS_OUT.items()
}


@lru_cache(maxsize=256)
def _destinations(side: str, masks: tuple[int, ...], start: str) -> tuple[str, ...]:
    """The keys of :func:`_arrivals`, in its order, without gathering the ways in: the
    move's list of destinations needs only these, and the move then asks the ways into
    the one destination chosen (:func:`ways_in`). Every location the links out of the
    search's halves lead to, first time first, except the start."""
    leads = _LEADS_TO[side]
    found = dict.fromkeys(
        chain.from_iterable(
            leads[location][leave] for location, leave in _reach_from(side, masks, start)
        )
    )
    found.pop(start, None)
    return tuple(found)


def arrivals(state: State, side: str, start: str) -> dict[str, list[tuple[str, int, int]]]:
    """Where one army may move from ``start`` along friendly links: for each destination,
    the ways in (previous location, half entered, link index). Movement ends on entering
    an enemy-occupied or enemy-controlled location; friendly ones may be passed through.

    Armies leave ``start`` by the halves :func:`own_halves` gives (where they stand, the
    location is theirs or contested, so those are the halves their units hold)."""
    found = _arrivals(side, own_masks(state, side), start)
    return {there: list(ways) for there, ways in found}


def destinations(state: State, side: str, start: str) -> tuple[str, ...]:
    """The destinations of :func:`arrivals`, in its order."""
    return _destinations(side, own_masks(state, side), start)


def ways_in(state: State, side: str, start: str, dest: str) -> list[tuple[str, int, int]]:
    """``arrivals(state, side, start)[dest]``, or empty: the ways into one destination, in
    the order the search finds them, read off the kept search. The search reaches each
    location once and a location's links are distinct, so no way comes up twice."""
    ways: list[tuple[str, int, int]] = []
    if dest == start:
        return ways
    ways_out = _WAYS_OUT[side]
    for location, leave in _reach_from(side, own_masks(state, side), start):
        for here_bit, there, way in ways_out[location]:
            if there == dest and leave & here_bit:
                ways.append(way)
    return ways


#: Rail links out of each location by side, as :func:`adjacent_arrivals` reads them: (bit
#: of the half left by, location reached, half entered, link index), in link order; the
#: Confederates' lists leave out the three locations they may never enter.
_ADJACENT_BY_SIDE: dict[str, dict[str, tuple[tuple[int, str, int, int], ...]]] = {
    side: {
        location: tuple(
            (1 << here, there, arrive, index)
            for here, there, arrive, index in links
            if not (side == "confederate" and there in TOP_THREE)
        )
        for location, links in ADJACENT.items()
    }
    for side in ("union", "confederate")
}


def adjacent_arrivals(state: State, side: str, start: str) -> dict[str, tuple[int, int]]:
    """Where a group may move from ``start`` along one link: destination -> (half
    entered, link index).

    The group leaves by the halves :func:`own_halves` gives: where its units stand, the
    location is its own or contested, so those are the halves they hold (the first form
    also asked for the halves its units stand in when that gave none, which never adds
    one). A move asks this when it lists its destinations and again when it takes one,
    so the halves are a bit mask and the links come sorted by side
    (``tests/rules/test_lincoln_fast_paths.py`` holds it to the first form)."""
    leave = _own_mask(state, start, side)
    found: dict[str, tuple[int, int]] = {}
    for here_bit, there, arrive, index in _ADJACENT_BY_SIDE[side][start]:
        if leave & here_bit and there not in found:
            found[there] = (arrive, index)
    return found


@lru_cache(maxsize=256)
def _move_destinations(side: str, masks: tuple[int, ...], start: str) -> tuple[str, ...]:
    """:func:`move_destinations` for a board read as :func:`own_masks` (kept, like the
    searches it reads): the locations one link away by the halves the armies may leave
    ``start`` by (:func:`adjacent_arrivals`), then :func:`_destinations` not among them."""
    leave = masks[_INDEX[start]]
    near = dict.fromkeys(
        there
        for here_bit, there, _arrive, _index in _ADJACENT_BY_SIDE[side][start]
        if leave & here_bit
    )
    return (*near, *(there for there in _destinations(side, masks, start) if there not in near))


def move_destinations(state: State, side: str, start: str) -> tuple[str, ...]:
    """Where armies of ``side`` may move from ``start``: the keys of
    :func:`adjacent_arrivals` (a group may go there), then those of :func:`destinations`
    not among them (one army goes further), each once. The move lists them at every
    step of a move, so the list is kept per reading of the board: the halves
    ``adjacent_arrivals`` leaves by are ``own_masks``' entry for ``start``
    (``tests/rules/test_lincoln_fast_paths.py`` holds it to the definition)."""
    return _move_destinations(side, own_masks(state, side), start)


def link_modifier(link: int | None, defender: str) -> int:
    """A rail link's defense modifier, for a defender of its colour only."""
    if link is None:
        return 0
    data = LINKS[link]
    return int(data["modifier"]) if data["colour"] == defender else 0


# ----------------------------------------------------------------------- counters


def take_army(state: State, side: str, strength: int) -> Unit | None:
    stock = state["stock"][side]["armies"]
    if stock[str(strength)] <= 0:
        return None
    stock[str(strength)] -= 1
    return {"side": side, "kind": "army", "strength": strength}


def take_fort(state: State, side: str) -> Unit | None:
    if state["stock"][side]["forts"] <= 0:
        return None
    state["stock"][side]["forts"] -= 1
    return {"side": side, "kind": "fort", "strength": 0}


def return_unit(state: State, unit: Unit) -> None:
    """An eliminated counter goes back to its side's stock."""
    stock = state["stock"][unit["side"]]
    if unit["kind"] == "fort":
        stock["forts"] += 1
    else:
        stock["armies"][str(unit["strength"])] += 1


def remove_unit(state: State, location: str, side: str, key: str) -> Unit | None:
    """Take one unit of ``side`` named ``key`` off a location (not to stock)."""
    for half in state["board"][location]:
        for index, unit in enumerate(half):
            if unit["side"] == side and unit_key(unit) == key:
                taken: Unit = half.pop(index)
                return taken
    return None


def settle_control(state: State, location: str) -> None:
    """Flags after units moved: a sole occupant of a location of the other colour puts
    its flag there (if one is left in stock); a sole occupant of its own colour clears
    the enemy's flag. A flag stays on an emptied location."""
    present = sides_in(state, location)
    if len(present) != 1:
        return
    side = next(iter(present))
    flag = state["flags"].get(location)
    if flag == side:
        return
    if flag is not None:
        del state["flags"][location]
        state["stock"]["flags"] += 1
    if LOCATIONS[location]["colour"] != side and state["stock"]["flags"] > 0:
        state["flags"][location] = side
        state["stock"]["flags"] -= 1


def take_empty(state: State, side: str, location: str) -> None:
    """Moving into an empty enemy-controlled location takes control of it."""
    if control(state, location) != side:
        log(state, f"{ROLE_NAMES[side]} takes control of {name(location)}.")
    settle_control(state, location)


#: The locations worth map VP, with their VP.
VP_LOCATIONS: dict[str, int] = {i: int(loc["vp"]) for i, loc in LOCATIONS.items() if loc["vp"]}
#: The Union-coloured locations, in sorted order (the order of ``state["captures"]``).
UNION_COLOURED: tuple[str, ...] = tuple(
    sorted(i for i, loc in LOCATIONS.items() if loc["colour"] == "union")
)


def union_vp(state: State) -> int:
    """Map VP of every location the Union controls, plus the Blockade track's VP."""
    vp = sum(VP_LOCATIONS[i] for i in controlled_by(state, "union", VP_LOCATIONS))
    return vp + int(BLOCKADE[state["blockade"]]["union_vp"])


def move_europe(state: State, toward: str, steps: int) -> int:
    """Move the Europe marker toward ``toward``'s end, never off the track; the spaces moved."""
    before = int(state["europe"])
    delta = steps if toward == "confederate" else -steps
    state["europe"] = max(0, min(EUROPE_END, before + delta))
    return abs(int(state["europe"]) - before)


def captured(state: State) -> list[str]:
    """The Union-coloured locations the Confederates control, sorted."""
    return controlled_by(state, "confederate", UNION_COLOURED)


def sync_captures(state: State) -> None:
    """A Union-coloured location the Confederates control is worth one Europe space to
    them; the space is given back when they lose it."""
    held = captured(state)
    before = state["captures"]
    for location in held:
        if location not in before:
            moved = move_europe(state, "confederate", 1)
            log(
                state,
                f"Confederate capture of {name(location)}: Europe marker moves {moved} "
                "toward the Confederacy.",
            )
    for location in before:
        if location not in held:
            moved = move_europe(state, "union", 1)
            log(
                state,
                f"{name(location)} lost by the Confederacy: Europe marker moves {moved} back.",
            )
    state["captures"] = held


def initial_stock() -> dict[str, Any]:
    armies = COUNTERS["armies"]
    forts = COUNTERS["forts"]
    stock: dict[str, Any] = {
        side: {"armies": dict(armies[side]), "forts": int(forts[side])} for side in armies
    }
    stock["flags"] = int(COUNTERS["flags"])
    return stock


def enemy_present(state: State, side: str, location: str) -> bool:
    return opponent(side) in sides_in(state, location)
