"""Clocks: each person at a game has a budget of time that runs only
while they owe a decision. Pure: the time is handed in, nothing is read or written here
(the store keeps the rows: ``db.clocks.clock_rows``; ``turn.commit_turn`` saves what
``advance`` returns in the same transaction as the turn; ``timeouts`` ends the games
whose clock ran out).

A control is written ``3d+1d/7d``: three days to start with, a day more at each hand-over,
never more than seven days in hand. Units: ``d``, ``h``, ``m``. Presets: ``none``,
``relaxed``, ``standard``, ``fast``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence

from bot import errors
from bot.storage.rows import ClockRow

DAY = 86_400.0
HOUR = 3_600.0
_UNITS = {"d": DAY, "h": HOUR, "m": 60.0}


@dataclasses.dataclass(frozen=True)
class Control:
    """A time control: seconds at the start, added at each hand-over, and the most held."""

    initial_s: float
    increment_s: float
    cap_s: float

    def written(self) -> str:
        """The control in its written form, e.g. ``3d+1d/7d``."""
        return f"{span(self.initial_s)}+{span(self.increment_s)}/{span(self.cap_s)}"


PRESETS: dict[str, Control | None] = {
    "none": None,
    "relaxed": Control(7 * DAY, 2 * DAY, 14 * DAY),
    "standard": Control(3 * DAY, DAY, 7 * DAY),
    "fast": Control(DAY, 12 * HOUR, 3 * DAY),
}
#: The shortest start and the longest cap a written control may have.
MIN_INITIAL_S = HOUR
MAX_CAP_S = 60 * DAY

_WRITTEN = re.compile(r"^(\d{1,4})([dhm])\+(\d{1,4})([dhm])/(\d{1,4})([dhm])$")
WHAT_CLOCKS_ARE = (
    "A clock is none, relaxed (7 days + 2 a turn, up to 14), standard (3d+1d/7d), fast "
    "(1d+12h/3d), or written like 3d+1d/7d: the start, the time added at each hand-over, "
    "and the most one may hold (units d, h, m)."
)


def span(seconds: float) -> str:
    """A whole span in its largest exact unit: 86400 -> ``1d``, 43200 -> ``12h``."""
    for unit, size in _UNITS.items():
        if seconds >= size and seconds % size == 0:
            return f"{int(seconds // size)}{unit}"
    return f"{int(seconds // 60)}m"


def parse(value: object) -> Control | None:
    """A preset name or a written control, checked (None: no clock); bad input is
    refused politely, as ``errors.BadInput``."""
    if not isinstance(value, str) or len(value) > 40:
        raise errors.UnknownWord(WHAT_CLOCKS_ARE)
    text = value.strip().lower().replace(" ", "")
    if text in PRESETS:
        return PRESETS[text]
    match = _WRITTEN.match(text)
    if match is None:
        raise errors.UnknownWord(WHAT_CLOCKS_ARE)
    parts = match.groups()
    initial, increment, cap = (int(parts[i]) * _UNITS[parts[i + 1]] for i in (0, 2, 4))
    if initial < MIN_INITIAL_S:
        raise errors.BadNumber("A clock starts with at least an hour.")
    if not initial <= cap <= MAX_CAP_S:
        raise errors.BadNumber(
            "A clock's cap is at least its start and at most 60 days (e.g. 3d+1d/7d)."
        )
    return Control(initial, increment, cap)


#: How long before the deadline a player is warned, each once per run of their clock.
WARNINGS_S = (24 * HOUR, 2 * HOUR)


def next_warning(deadline: float, now: float) -> float | None:
    """When the player whose clock runs out at ``deadline`` is next warned, after ``now``
    (None: every warning is behind them)."""
    for lead in WARNINGS_S:
        if deadline - lead > now:
            return deadline - lead
    return None


def start_rows(control: Control, roles: Iterable[str]) -> list[ClockRow]:
    """Fresh, stopped clocks for the people's roles of a game that starts."""
    return [ClockRow(role, control.initial_s) for role in roles]


@dataclasses.dataclass(frozen=True)
class Change:
    """A change of a game at ``now``: who owed a decision before and after it; ``undo``:
    it was an undo; ``over``: the game ended."""

    before: tuple[str, ...]
    after: tuple[str, ...]
    now: float
    undo: bool = False
    over: bool = False
    #: Roles whose player is on vacation, and until when: their clocks start then.
    paused_until: Mapping[str, float] = dataclasses.field(default_factory=dict)


def advance(rows: Sequence[ClockRow], control: Control, change: Change) -> list[ClockRow]:
    """The clocks after a change at ``now``: whoever was active before is charged the time
    since their clock started; whoever hands over (active before, not after) gains the
    increment, up to the cap (never for an undo: it gives no time back); whoever is active
    after runs from ``now``, or from the end of its player's vacation. ``over``: the game
    ended, every clock stops. A flagged clock (run out, the win offered to the opponent)
    stays at zero and flagged, gains nothing and has no deadline to meet again."""
    was, now_active = set(change.before), set(change.after)
    now, undo, over = change.now, change.undo, change.over
    changed = []
    for row in rows:
        left = row.left(now)
        if row.flagged_at is not None and not over:
            running = now if row.role in now_active else None
            changed.append(ClockRow(row.role, 0.0, running, None, None, row.flagged_at))
            continue
        if row.role in was and row.role not in now_active and not undo and not over:
            left = min(control.cap_s, left + control.increment_s)
        if row.role in now_active and not over:
            start = max(now, change.paused_until.get(row.role, now))
            changed.append(
                ClockRow(row.role, left, start, start + left, next_warning(start + left, start))
            )
        else:
            changed.append(ClockRow(row.role, left))
    return changed


def paused(row: ClockRow, until: float, now: float) -> ClockRow:
    """``row`` paused from ``now`` until ``until`` (a vacation): a running clock starts
    again then with what it has left now; a stopped or flagged one is unchanged."""
    if row.running_since is None or row.flagged_at is not None:
        return row
    left = row.left(now)
    start = max(until, now)
    return ClockRow(row.role, left, start, start + left, next_warning(start + left, start))


def describe(
    rows: Sequence[ClockRow],
    names: Mapping[str, str],
    now: float,
    *,
    plain: bool = False,
    away: Mapping[str, float] | None = None,
) -> list[str]:
    """One line per clock for players to read: a running one as a Discord timestamp
    (``<t:...:R>``, each reader sees it in their own time), a stopped one as time left.
    ``plain``: time left for every clock, a running one marked so (the terminal).
    ``away``: roles whose player is on vacation, and until when."""
    lines = []
    for row in rows:
        name = names.get(row.role, row.role)
        left = left_text(row.left(now))
        until = vacation_end(row, now, away)
        if row.flagged_at is not None:
            lines.append(f"⏱ {name}: out of time (the win may be claimed)")
        elif until is not None and plain:
            lines.append(f"⏱ {name}: {left} left, on vacation for {left_text(until - now)}")
        elif until is not None:
            lines.append(f"⏱ {name}: {left} left, on vacation until <t:{int(until)}:R>")
        elif plain:
            running = " (running)" if row.deadline is not None else ""
            lines.append(f"⏱ {name}: {left} left{running}")
        elif row.deadline is not None:
            lines.append(f"⏱ {name}: runs out <t:{int(row.deadline)}:R>")
        else:
            lines.append(f"⏱ {name}: {left} left")
    return lines


def vacation_end(row: ClockRow, now: float, away: Mapping[str, float] | None) -> float | None:
    """When the vacation of ``row``'s player ends (None: not on one): its clock is paused
    until then, or, stopped, will start no earlier."""
    until = (away or {}).get(row.role)
    if row.paused(now):
        until = max(until or 0.0, float(row.running_since or 0.0))
    return until if until is not None and until > now else None


def left_text(seconds: float) -> str:
    """Time left, as a reader wants it: ``2d 5h``, ``3h 20m``, ``12m``."""
    whole = int(seconds)
    days, rest = divmod(whole, int(DAY))
    hours, rest = divmod(rest, int(HOUR))
    minutes = rest // 60
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {minutes}m"
    return f"{minutes}m"
