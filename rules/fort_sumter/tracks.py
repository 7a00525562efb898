"""Crisis Tracks, their zones, breaches and bonus boxes.

Each side's track holds 16 tokens on spaces 15..0; tokens leave it from the highest
numbered space, so ``state["track"][role]`` (tokens left) is the whole track: space ``n``
still holds its token exactly when ``n < state["track"][role]``.

Zones: Starting 15-11, Escalation 10-8, Tension 7-6, Final Crisis 5-0. A zone is breached
when its first space is uncovered, i.e. its highest space. Breaches are processed when a
card play (or an objective event) has fully ended, in the order Escalation > Tension >
Final Crisis, acting side first:

- Escalation: the side's 2 Escalation bonus tokens go to its pool.
- Tension: the side's 3 Tension bonus tokens go to its pool; if this is the first Tension
  breach of the game (either side), the OTHER side must now place the Peace Commissioner
  in any space (a decision: see steps.py).
- Final Crisis (shared box, 4 tokens of each side): the first side to breach takes its 4
  and loses 1 VP; the second takes only 2, the other 2 stay in the box for good.
"""

from __future__ import annotations

from rules.core import State, log, telling
from rules.fort_sumter.board import opponent
from rules.fort_sumter.cards import ROLES

TRACK_SPACES = 16
#: (zone, highest space, lowest space) in breach order.
ZONES: tuple[tuple[str, int, int], ...] = (
    ("escalation", 10, 8),
    ("tension", 7, 6),
    ("final_crisis", 5, 0),
)
STARTING_ZONE = ("starting", 15, 11)
BONUS = {"escalation": 2, "tension": 3, "final_crisis": 4}
#: What the second side to breach its Final Crisis zone receives.
SECOND_FINAL_CRISIS_BONUS = 2
ROLE_NAMES = {"unionist": "Unionist", "secessionist": "Secessionist"}


#: The highest track space of each zone, looked up on every breach check.
_ZONE_TOP = {name: high for name, high, _ in ZONES}
#: The highest space of the first zone that can be breached.
_FIRST_BREACH = max(_ZONE_TOP.values())


def initial_tracks() -> dict[str, object]:
    """The set-up: full tracks, full bonus boxes, nothing breached."""
    return {
        "track": dict.fromkeys(ROLES, TRACK_SPACES),
        "bonus_boxes": {zone: dict.fromkeys(ROLES, n) for zone, n in BONUS.items()},
        "breached": {r: dict.fromkeys(_ZONE_TOP, False) for r in ROLES},
        "final_crisis_breaches": 0,
        "tension_peace_commissioner_given": False,
    }


def uncovered(state: State, role: str, zone: str) -> bool:
    """Whether the zone's highest space has lost its token."""
    return int(state["track"][role]) <= _ZONE_TOP[zone]


def both_final_crisis_zones_breached(state: State) -> bool:
    return all(state["breached"][r]["final_crisis"] for r in ROLES)


def _take_bonus(state: State, role: str, zone: str, wanted: int) -> int:
    """Move up to ``wanted`` bonus tokens to the pool; an empty box simply gives nothing."""
    box = state["bonus_boxes"][zone]
    taken = min(wanted, int(box[role]))
    box[role] -= taken
    state["pool"][role] += taken
    return taken


#: ``_UNCOVERED[n]``: the zones whose highest space is uncovered when ``n`` tokens are
#: left on a track (``uncovered`` for each zone, worked out once for every count).
_UNCOVERED: tuple[tuple[str, ...], ...] = tuple(
    tuple(zone for zone, top, _ in ZONES if left <= top) for left in range(TRACK_SPACES + 1)
)


def breach_due(state: State) -> bool:
    """Whether some zone of either side is uncovered but not yet breached: the breaches
    procedure has something to process (checked after every card play)."""
    track, breached = state["track"], state["breached"]
    for role in ROLES:
        for zone in _UNCOVERED[track[role]]:
            if not breached[role][zone]:
                return True
    return False


def process_breaches(state: State, acting: str) -> str | None:
    """Process every new breach, ``acting`` side first.

    Returns the side that must now place the Peace Commissioner (the opponent of the
    first side ever to breach its Tension zone), or None.
    """
    places_commissioner: str | None = None
    for role in (acting, opponent(acting)):
        if state["track"][role] > _FIRST_BREACH:
            continue  # no zone uncovered yet (checked after every card play)
        name = ROLE_NAMES[role]
        for zone, _, _ in ZONES:
            if state["breached"][role][zone] or not uncovered(state, role, zone):
                continue
            state["breached"][role][zone] = True
            if zone == "escalation":
                got = _take_bonus(state, role, zone, BONUS[zone])
                if telling(state):
                    log(state, f"{name} breaches the Escalation zone: {got} bonus tokens to pool.")
            elif zone == "tension":
                got = _take_bonus(state, role, zone, BONUS[zone])
                if telling(state):
                    log(state, f"{name} breaches the Tension zone: {got} bonus tokens to pool.")
                if not state["tension_peace_commissioner_given"]:
                    state["tension_peace_commissioner_given"] = True
                    places_commissioner = opponent(role)
            else:
                first = state["final_crisis_breaches"] == 0
                state["final_crisis_breaches"] += 1
                if first:
                    got = _take_bonus(state, role, zone, BONUS[zone])
                    state["vp"][role] -= 1
                    log(
                        state,
                        f"{name} is first to breach the Final Crisis zone: "
                        f"{got} bonus tokens to pool and -1 VP.",
                    )
                else:
                    got = _take_bonus(state, role, zone, SECOND_FINAL_CRISIS_BONUS)
                    log(
                        state,
                        f"{name} breaches the Final Crisis zone second: {got} bonus tokens "
                        "to pool; the other 2 stay in the box.",
                    )
    return places_commissioner


def track_view(state: State, role: str) -> dict[str, object]:
    """One side's track for a board image: which spaces still hold tokens, zones, breaches."""
    left = int(state["track"][role])
    zones = [
        {
            "zone": zone,
            "spaces": list(range(high, low - 1, -1)),
            "breached": bool(state["breached"][role].get(zone, False)),
        }
        for zone, high, low in (STARTING_ZONE, *ZONES)
    ]
    return {
        "tokens": left,
        "occupied": [n < left for n in range(TRACK_SPACES)],
        "zones": zones,
    }
