"""What the players are told of one committed change, planned without touching the store.

``commit_turn`` (``bot.tables.turn``) reads what the plan needs (the seats, the players'
notification choices, whether the table is parked), calls these functions, and writes
what they return in its transaction. Everything here is pure: the same before, after,
seats and choices always give the same notices and timers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from bot.delivery import notices
from bot.delivery.notices import private_log
from bot.delivery.port import PrivateMessage, View
from bot.delivery.routes import notify_routes
from bot.storage.rows import SeatRow
from bot.tables.prompts import decision_digest


@dataclass(frozen=True)
class Change:
    """One commit, before and after: who was to act, who is now, and how it came about."""

    version: int
    acting_role: str | None
    active_before: tuple[str, ...]
    active_now: tuple[str, ...]
    ended: bool
    #: The game's first commit (its start post).
    start: bool = False
    #: A game of one seat (``rules.Game.one_seat``): its table is its player's own.
    one_seat: bool = False

    def handed_to(self) -> tuple[str, ...]:
        """Who must now act and was not already: one notification per hand-over, never
        to the player who just acted for a decision that continues their own turn."""
        return tuple(
            r
            for r in self.active_now
            if self.start or (r not in self.active_before and r != self.acting_role)
        )


def turn_passed(change: Change, posted_active: Sequence[str], step: str, posted_step: str) -> bool:
    """A turn passes when someone new must decide, when the game ends, or when a
    simultaneous step the table was told about is complete (its last player may well act
    next, but everyone should see what was revealed). One side of a simultaneous step
    committing first is not a turn: the table is waiting for nobody new."""
    simultaneous_done = len(posted_active) > 1 and step != posted_step
    return (
        change.start
        or change.ended
        or bool(set(change.active_now) - set(change.active_before))
        or simultaneous_done
    )


@dataclass(frozen=True)
class Routing:
    """Where the hand-over is announced: roles told in the channel, roles sent a "your
    turn" DM, and the users the table post mentions."""

    by_channel: frozenset[str]
    by_dm: frozenset[str]
    mention: tuple[str, ...]


def route(
    change: Change, seats: Sequence[SeatRow], prefs: Mapping[str, str], *, table_parked: bool
) -> Routing:
    """As each player chose (``notify_routes``); a one-seat game's prompt is its table post,
    never a DM; the end of a game mentions everyone at the table."""
    handed_to = change.handed_to()
    by_channel, by_dm = notify_routes(seats, handed_to, prefs, table_parked=table_parked)
    if change.one_seat:
        by_channel, by_dm = set(handed_to), set()
    user_of = {s.role: s.user_id for s in seats}
    mention = tuple(user_of[r] for r in handed_to if r in by_channel)
    if change.ended:
        mention = tuple(dict.fromkeys(s.user_id for s in seats))
    return Routing(frozenset(by_channel), frozenset(by_dm), mention)


@dataclass(frozen=True)
class SeatUpdate:
    """A seat's bookkeeping: how much of its private log it has been sent, and (when its
    decision changed) the version and digest of its new prompt."""

    role: str
    private_seen: int
    prompt: tuple[int, str] | None


@dataclass
class SeatNotices:
    updates: list[SeatUpdate] = field(default_factory=list)
    #: The DMs that close each player's prompt with the result, in seat order.
    endings: list[PrivateMessage] = field(default_factory=list)
    #: The other seats' DMs: a "your turn" prompt or what they newly learnt.
    messages: list[PrivateMessage] = field(default_factory=list)
    #: The acting seat's new view and private lines (its own reply, not a DM).
    acting_view: View | None = None
    acting_lines: tuple[str, ...] = ()


def seat_notices(
    change: Change,
    seats: Sequence[SeatRow],
    views: Mapping[str, View],
    routing: Routing,
    ending: Callable[[str, View], PrivateMessage],
) -> SeatNotices:
    """Each seat's DMs and bookkeeping after ``change``, from each seat's new view.
    ``ending`` builds the DM that closes a prompt when the game ended."""
    plan = SeatNotices()
    for seat in seats:
        view = views[seat.role]
        private = private_log(view)
        new_lines = tuple(private[seat.private_seen :]) if len(private) > seat.private_seen else ()
        digest = decision_digest(view)
        new_prompt = digest != seat.prompt_digest or seat.role == change.acting_role
        if new_prompt or len(private) != seat.private_seen:
            prompt = (change.version, digest) if new_prompt else None
            plan.updates.append(SeatUpdate(seat.role, len(private), prompt))
        if change.ended and not seat.dm_failed and not change.one_seat:
            plan.endings.append(ending(seat.role, view))
        if seat.role == change.acting_role:
            plan.acting_view, plan.acting_lines = view, new_lines
            continue
        if seat.dm_failed:
            continue  # they read it with /game hand; the table already told them
        newly_active = seat.role in change.active_now and seat.role not in change.active_before
        message = notices.private_message(
            seat.role,
            version=change.version,
            view=view,
            new_lines=new_lines,
            your_turn=newly_active and not change.ended and seat.role in routing.by_dm,
        )
        if message is not None:
            plan.messages.append(message)
    return plan


@dataclass(frozen=True)
class TimerPlan:
    """The reminder timers after a change: all cleared (the game ended), or those of the
    roles no longer to act cleared and a fresh one started for each role in ``start``."""

    clear_all: bool
    clear: tuple[str, ...] = ()
    start: tuple[str, ...] = ()


def timers(
    change: Change, seats: Sequence[SeatRow], is_bot: Callable[[str | None], bool]
) -> TimerPlan:
    """A fresh clock for whoever now owes a decision (acting counts as being present), none
    for anyone who does not, nor in a one-seat game (nobody to nag), nor for Dispatch,
    which is never late (a move of its that fails is retried by its own seats)."""
    if change.ended:
        return TimerPlan(clear_all=True)
    user_of = {s.role: s.user_id for s in seats}
    clear = tuple(r for r in change.active_before if r not in change.active_now)
    start = tuple(
        r
        for r in change.active_now
        if (r not in change.active_before or r == change.acting_role)
        and not change.one_seat
        and not is_bot(user_of.get(r))
    )
    return TimerPlan(clear_all=False, clear=clear, start=start)
