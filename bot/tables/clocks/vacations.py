"""Vacations: ``/game vacation days:`` pauses every clock of the
player's in the running games of one server for that many days.

Each player has a server's ``vacation_days`` (14 by default, 0: none) in any rolling 365
days; games outside a server (DMs, the sandbox) have the default. A vacation is one row
(``vacations``, migration 0016). While it lasts, each of the player's running clocks
starts again at its end (``clocks.paused``: the deadline and the warnings move by the
same), and a clock that starts during it, because the turn came back to them, starts at
its end too (``clocks.Change.paused_until``, read by ``clock_pass.tick``). Ended early
(``/game vacation`` with no days), the unused whole days are given back and the paused
clocks run from then. Each game's table is told in one line, with the vacation's end,
and again when it ends: at once when ended early, by the background pass (``tell_ended``,
migration 0021) when it runs to its end.
"""

from __future__ import annotations

import dataclasses
import math

from bot import errors
from bot.delivery.notices import role_name
from bot.delivery.outbox import post_payload
from bot.delivery.port import TablePost
from bot.storage.rows import ClockRow, VacationRow
from bot.storage.session import Session
from bot.tables import clocks
from bot.tables.clocks import DAY, clock_rules
from bot.tables.loading import rules_or_none

#: The rolling window the allowance is counted over.
YEAR_S = 365 * DAY


@dataclasses.dataclass(frozen=True)
class Vacation:
    """What ``take`` or ``end`` did: the vacation's days (as counted now), when it ends
    (or ended), the days left this year, and the games whose clocks it moved."""

    days: int
    until: float
    left: int
    games: tuple[int, ...]
    ended: bool = False


async def allowance(db: Session, user_id: str, scope: str) -> tuple[int, int]:
    """(days left in the rolling year, days a year on this server)."""
    yearly = (await clock_rules.server_rules(db, scope or None))[1]
    used = await db.clocks.vacation_days_used(user_id, scope, db.now - YEAR_S)
    return max(0, yearly - used), yearly


async def take(db: Session, user_id: str, scope: str, days: int) -> Vacation:
    """Start a vacation of ``days`` whole days now; refused politely (nothing changes)
    when vacations are off, the player is on one already, or it is more than is left."""
    left, yearly = await allowance(db, user_id, scope)
    if yearly == 0:
        raise errors.VacationRefused("Vacations are turned off on this server.")
    current = await db.clocks.current_vacation(user_id, scope)
    if current is not None:
        raise errors.VacationRefused(
            f"You are on vacation until <t:{int(current.ends_at)}:f>. End it first "
            "(/game vacation with no days), and the days you did not use come back."
        )
    if days > left:
        raise errors.BadNumber(
            f"You have {left} vacation day{'s' if left != 1 else ''} left "
            f"(of {yearly} in any 365 days): take at most that many."
        )
    until = db.now + days * DAY
    await db.clocks.add_vacation(VacationRow(user_id, scope, db.now, until, days))
    games = await _move_clocks(db, user_id, scope, until)
    for game_id, role in games:
        await _tell(
            db,
            game_id,
            role,
            f"is on vacation until <t:{int(until)}:f> (<t:{int(until)}:R>): their clock is paused.",
        )
    return Vacation(days, until, left - days, tuple(g for g, _ in games))


async def end(db: Session, user_id: str, scope: str) -> Vacation:
    """End the player's vacation now, giving back the whole days not begun."""
    current = await db.clocks.current_vacation(user_id, scope)
    if current is None:
        raise errors.VacationRefused(
            "You are not on vacation (take one with /game vacation days:)."
        )
    unused = math.floor((current.ends_at - db.now) / DAY)
    counted = max(0, current.days - unused)
    await db.clocks.cut_vacation(current, db.now, counted)
    games = await _move_clocks(db, user_id, scope, db.now)
    for game_id, role in games:
        await _tell(db, game_id, role, "is back from vacation: their clock runs again.")
    left, _ = await allowance(db, user_id, scope)
    return Vacation(counted, db.now, left, tuple(g for g, _ in games), ended=True)


async def tell_ended(db: Session) -> list[int]:
    """Tell each table of a player whose vacation ran to its end, by now, that they are
    back (as ``end`` tells it of one ended early), once per vacation; returns the games
    told. Their clocks need no change: each was set to start at the end."""
    told: list[int] = []
    for row in await db.clocks.vacations_back_due():
        if not await db.clocks.claim_vacation_back(row):
            continue
        for game_id, role in await db.clocks.clocked_seats_of(row.user_id, row.scope):
            await _tell(db, game_id, role, "is back from vacation: their clock runs again.")
            told.append(game_id)
    return told


async def _move_clocks(
    db: Session, user_id: str, scope: str, until: float
) -> list[tuple[int, str]]:
    """Each of the player's running clocks in the scope's live games starts at ``until``
    (found through the seats' index); returns every (game, role) of theirs on a clock."""
    seats = await db.clocks.clocked_seats_of(user_id, scope)
    for game_id, role in seats:
        rows = await db.clocks.clock_rows(game_id)
        moved = [_restart(r, until, db.now) if r.role == role else r for r in rows]
        if moved != rows:
            await db.clocks.save_clocks(game_id, moved)
    return seats


def _restart(row: ClockRow, until: float, now: float) -> ClockRow:
    """A running (or paused) clock that starts again at ``until`` with what it has left."""
    if row.running_since is None or row.flagged_at is not None:
        return row
    return clocks.paused(row, until, now)


async def _tell(db: Session, game_id: int, role: str, what: str) -> None:
    row = await db.game(game_id)
    if row is None:
        return
    name = role_name(rules_or_none(row.game_name), role)
    post = TablePost(kind="notice", version=row.version, headline=f"{name} {what}")
    await db.outbox.queue(game_id, "table", None, post_payload(post))
