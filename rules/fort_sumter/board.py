"""The map: Political Capital tokens in spaces, control, and the Peace Commissioner.

State kept here (all plain JSON):

- ``state["spaces"][space][role]``: that side's tokens in the space (0-4);
- ``state["pool"][role]``: tokens in the side's token pool;
- ``state["track"][role]``: tokens still on the side's Crisis Track (see tracks.py);
- ``state["peace_commissioner"]``: the space holding the Peace Commissioner, or None.

Where tokens come from: the pool first; only when it is empty, the Crisis Track, highest
numbered space first (``state["track"]`` counts down). Removed tokens go to the owner's
pool. The Peace Commissioner blocks every placement into and removal from its space, by
any rule or event; a move is a removal plus a placement, so it is blocked at both ends.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.core import State
from rules.fort_sumter.cards import DIMENSIONS, ROLES, SPACE_IDS, SPACES

#: At most this many tokens of one side in one space.
MAX_PER_SPACE = 4


_OPPONENT = {ROLES[0]: ROLES[1], ROLES[1]: ROLES[0]}


def opponent(role: str) -> str:
    return _OPPONENT[role]


def first_player(state: State) -> str:
    """The side with the higher VP score right now; the Unionist on a tie."""
    vp = state["vp"]
    return "unionist" if vp["unionist"] >= vp["secessionist"] else "secessionist"


def in_order(first: str) -> tuple[str, str]:
    return (first, opponent(first))


def tokens(state: State, space: str, role: str) -> int:
    count: int = state["spaces"][space][role]
    return count


def supply(state: State, role: str) -> int:
    """Tokens a side can still bring onto the map: its pool, then its Crisis Track."""
    return int(state["pool"][role]) + int(state["track"][role])


def blocked(state: State, space: str) -> bool:
    return bool(state["peace_commissioner"] == space)


# The three checks below run for every space whenever actions are listed, so they read
# the state directly instead of through the helpers above (same rules, fewer calls).


def has_room(state: State, role: str, space: str) -> bool:
    return bool(
        state["spaces"][space][role] < MAX_PER_SPACE and state["peace_commissioner"] != space
    )


def room(state: State, role: str, space: str) -> int:
    """How many more tokens of ``role`` the space takes now (0 when blocked)."""
    return 0 if blocked(state, space) else max(0, MAX_PER_SPACE - tokens(state, space, role))


def can_place(state: State, role: str, space: str) -> bool:
    return bool(
        state["pool"][role] + state["track"][role] > 0
        and state["spaces"][space][role] < MAX_PER_SPACE
        and state["peace_commissioner"] != space
    )


def can_remove(state: State, role: str, space: str) -> bool:
    return bool(state["spaces"][space][role] > 0 and state["peace_commissioner"] != space)


# The same checks over a list of spaces, as the action lists need them (every list of
# places to put or take a token). They run several times for every decision of a
# simulation, so the state is read once per list, not once per space, and the Peace
# Commissioner's space (and a move's own source) is taken out of the finished list
# instead of being compared with every space. The lists keep the order of ``spaces``.


def _without(found: list[str], space: str | None) -> list[str]:
    """``found`` less ``space`` (it appears at most once), in place."""
    if space is not None and space in found:
        found.remove(space)
    return found


def placeable(state: State, role: str, spaces: Sequence[str]) -> list[str]:
    """The spaces of ``spaces`` where ``role`` may place a token now."""
    if state["pool"][role] + state["track"][role] <= 0:
        return []
    where, blocked = state["spaces"], state["peace_commissioner"]
    found = [s for s in spaces if where[s][role] < MAX_PER_SPACE]
    return found if blocked is None else _without(found, blocked)


def removable(state: State, role: str, spaces: Sequence[str]) -> list[str]:
    """The spaces of ``spaces`` from which a token of ``role`` may be removed now."""
    where, blocked = state["spaces"], state["peace_commissioner"]
    found = [s for s in spaces if where[s][role]]  # a count, so true when above 0
    return found if blocked is None else _without(found, blocked)


def any_removable(state: State, role: str, spaces: Sequence[str]) -> bool:
    """Whether ``removable`` lists any space, found without listing them: the rules ask
    this after every Final Crisis move and removal, when most spaces hold a token."""
    where, blocked = state["spaces"], state["peace_commissioner"]
    return any(where[s][role] and s != blocked for s in spaces)


def with_room(state: State, role: str, spaces: Sequence[str], source: str | None) -> list[str]:
    """The spaces of ``spaces`` other than ``source`` that take one more ``role`` token."""
    where, blocked = state["spaces"], state["peace_commissioner"]
    found = [s for s in spaces if where[s][role] < MAX_PER_SPACE]
    if blocked is not None:
        _without(found, blocked)
    return found if source is None else _without(found, source)


# The three moves below check their move as ``can_place``, ``can_remove`` and
# ``has_room`` say, written out: every token a simulation places, removes or moves
# passes here.


def place(state: State, role: str, space: str) -> str:
    """Add one token of ``role`` to ``space``; says where it came from ("pool" or "track")."""
    here, pool = state["spaces"][space], state["pool"]
    if (
        pool[role] + state["track"][role] <= 0
        or here[role] >= MAX_PER_SPACE
        or state["peace_commissioner"] == space
    ):
        raise ValueError(f"{role} cannot place in {space}")
    here[role] += 1
    if pool[role] > 0:
        pool[role] -= 1
        return "pool"
    state["track"][role] -= 1
    return "track"


def remove(state: State, role: str, space: str) -> None:
    """Take one token of ``role`` off ``space`` into its owner's pool."""
    here = state["spaces"][space]
    if here[role] <= 0 or state["peace_commissioner"] == space:
        raise ValueError(f"{role} has no removable token in {space}")
    here[role] -= 1
    state["pool"][role] += 1


def move(state: State, role: str, source: str, target: str) -> None:
    """Move one token of ``role`` from one space to another."""
    where, blocked = state["spaces"], state["peace_commissioner"]
    if (
        source == target
        or where[source][role] <= 0
        or where[target][role] >= MAX_PER_SPACE
        or blocked in (source, target)
    ):
        raise ValueError(f"{role} cannot move from {source} to {target}")
    where[source][role] -= 1
    where[target][role] += 1


def controller(state: State, space: str) -> str | None:
    """The side with strictly more tokens in the space, if any."""
    here = state["spaces"][space]
    u, s = here["unionist"], here["secessionist"]
    if u > s:
        return "unionist"
    if s > u:
        return "secessionist"
    return None


def dimension_controller(state: State, dimension: str) -> str | None:
    """The side controlling all three spaces of the dimension, if any."""
    # Each space's ``controller`` in one pass, stopping at the first space that is not
    # held, or held by another side than the spaces before it.
    where = state["spaces"]
    owner = None
    for space in DIMENSIONS[dimension].spaces:
        here = where[space]
        u, s = here["unionist"], here["secessionist"]
        side = "unionist" if u > s else "secessionist" if s > u else None
        if side is None or (owner is not None and side != owner):
            return None
        owner = side
    return owner


def spaces_controlled(state: State, role: str) -> int:
    return sum(1 for s in SPACE_IDS if controller(state, s) == role)


def on_map(state: State, role: str) -> int:
    return sum(tokens(state, s, role) for s in SPACE_IDS)


def resolve_where(where: Mapping[str, Any]) -> list[str]:
    """The spaces named by an event's place spec, in map order."""
    if "spaces" in where:
        named = set(where["spaces"])
        return [s for s in SPACE_IDS if s in named]
    if "dimension" in where:
        return list(DIMENSIONS[where["dimension"]].spaces)
    return list(SPACE_IDS)


def describe_where(where: Mapping[str, Any]) -> str:
    """Player-facing words for a place spec: "Fort Sumter", "Armaments spaces", "any space"."""
    if "spaces" in where:
        names = [SPACES[s].name for s in resolve_where(where)]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    if "dimension" in where:
        return f"{DIMENSIONS[where['dimension']].name} spaces"
    return "any space"


def empty_map() -> dict[str, dict[str, int]]:
    return {s: dict.fromkeys(ROLES, 0) for s in SPACE_IDS}
