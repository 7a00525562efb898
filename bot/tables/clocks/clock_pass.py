"""Clocks in the store: what a turn does to them, in the turn's own
transaction; the refusal of a decision that comes after the deadline; the heartbeat that
keeps downtime from being charged; and the lines players read.

The arithmetic is ``bot.tables.clocks`` (pure); this module reads and writes the rows.
Expiry is found through the ``clocks_deadline`` index (``db.clocks.expired_clocks``), never
by reading live games, and applied by ``bot.tables.clocks.timeouts`` under the game's lock in one
transaction that checks the deadline again: a decision committed first moved or stopped
the clock, so it stands; one arriving after is refused (``check_in_time``) and changes
nothing.
"""

from __future__ import annotations

import dataclasses
import datetime
import logging
from collections.abc import Mapping, Sequence

import rules
from bot import errors
from bot.storage.rows import ClockRow, GameRow, SeatRow
from bot.storage.session import Session
from bot.storage.store import LEASE_S, Store
from bot.tables import clocks
from bot.tables.bot_users import is_bot

log = logging.getLogger("dispatch.clocks")


async def control_of(db: Session, game_id: int) -> clocks.Control | None:
    """The game's time control (None: no clock)."""
    stored = await db.clocks.game_clock(game_id)
    return clocks.Control(*stored) if stored else None


async def tick(
    db: Session,
    row: GameRow,
    seats: Sequence[SeatRow],
    change: clocks.Change,
    *,
    start: bool = False,
    known: Sequence[ClockRow] | None = None,
) -> tuple[list[ClockRow], dict[str, float]]:
    """Move the game's clocks on for ``change`` and save them; return them, and the
    roles whose player is on vacation with its end (``away``). At the start, each
    person's seat gets a clock (Dispatch's seats have none). ``known``: the clocks as
    the caller read them in this transaction. A game under way without clocks has
    nothing to move, and its time control is not read."""
    if start:
        control = await control_of(db, row.id)
        if control is None:
            return [], {}
        people = [s.role for s in seats if not is_bot(s.user_id)]
        rows = clocks.start_rows(control, people)
    else:
        rows = list(known) if known is not None else await db.clocks.clock_rows(row.id)
        control = await control_of(db, row.id) if rows else None
        if control is None:
            return [], {}
    paused_until = await away(db, row, seats)
    if paused_until:  # a player on vacation: their clock starts when it ends
        change = dataclasses.replace(change, paused_until=paused_until)
    changed = clocks.advance(rows, control, change)
    await db.clocks.save_clocks(row.id, changed)
    return changed, paused_until


async def check_in_time(db: Session, game_id: int, role: str) -> None:
    """Refuse (``errors.TimeRanOut``) a decision of ``role`` once their clock ran out:
    its deadline passed, or the game was already lost on time (nothing left)."""
    if await ran_out(db, game_id, role):
        raise errors.TimeRanOut()


async def ran_out(db: Session, game_id: int, role: str) -> bool:
    """Whether ``role``'s clock ran out and nobody acted on it yet (its deadline passed;
    a clock already flagged for a claim does not count); refuses (``errors.TimeRanOut``)
    a decision at a game lost on time (a stopped clock with nothing left)."""
    return ran_out_of(await db.clocks.clock_rows(game_id), db.now, role)


def ran_out_of(rows: Sequence[ClockRow], now: float, role: str) -> bool:
    """``ran_out`` on the clocks as read."""
    for row in rows:
        if row.role != role or row.flagged_at is not None:
            continue
        if row.expired(now):
            return True
        if row.deadline is None and row.remaining_s <= 0:
            raise errors.TimeRanOut()
    return False


async def refuse_if_lost_on_time(
    db: Session, game_id: int, seats: Sequence[SeatRow], user_id: str
) -> None:
    """Refuse (``errors.TimeRanOut``) a click of ``user_id`` at a game they lost on time:
    a clock of theirs stopped with nothing left."""
    mine = {s.role for s in seats if s.user_id == user_id}
    for row in await db.clocks.clock_rows(game_id):
        lost = row.deadline is None and row.remaining_s <= 0 and row.flagged_at is None
        if row.role in mine and lost:
            raise errors.TimeRanOut()


async def stop_all(db: Session, game_id: int, *, loser: str | None = None) -> None:
    """Stop every clock of a game that ended (the loser on time keeps nothing)."""
    rows = await db.clocks.clock_rows(game_id)
    stopped = [ClockRow(r.role, 0.0 if r.role == loser else r.left(db.now)) for r in rows]
    await db.clocks.save_clocks(game_id, stopped)


#: How often the background loop writes the heartbeat: a restart after a downtime forgives
#: the players up to this much more than the downtime, never less.
BEAT_EVERY_S = 20.0
#: A gap since the last heartbeat no longer than this was no downtime: with several bot
#: processes on one database (PostgreSQL) another one was beating, and players could play.
#: (A single bot restarted within it charges those few seconds.)
DOWN_AFTER_S = 2 * BEAT_EVERY_S


async def forgive_downtime(store: Store) -> float:
    """Start-up: give the clocks back the time since the last heartbeat when no bot was
    running (nobody could play), then beat. Returns the seconds forgiven."""
    async with store.transaction() as db:
        last = await db.processes.last_beat()
        forgiven = db.now - last if last is not None and db.now - last > DOWN_AFTER_S else 0.0
        if forgiven:
            await db.clocks.shift_running_clocks(since=db.now - forgiven)
            log.info("clocks moved on by %.0f s of downtime", forgiven)
        await db.processes.beat()
    return forgiven


async def beat(store: Store) -> None:
    """The bot is running now (``forgive_downtime`` reads it at the next start)."""
    async with store.write() as db:
        await db.processes.beat()


async def expired(store: Store, now: float) -> list[tuple[int, str]]:
    """(game, role) of every running clock whose deadline has come, from the index."""
    async with store.transaction() as db:  # claimed: no other process ends them too
        return await db.clocks.claim_expired_clocks(now, store.instance, LEASE_S)


def band(
    rows: Sequence[ClockRow],
    rules_game: rules.Game,
    now: float,
    away_until: Mapping[str, float] | None = None,
) -> str:
    """The running clocks for the board's headline band, e.g. ``Clock: Unionist 23h 5m``: an
    image cannot hold a Discord timestamp, so the time left when it was drawn. A player
    on vacation is shown so, with the day it ends (``on vacation until Dec 3``), and a
    clock run out whose win may be claimed as ``out of time``."""
    names = rules_game.role_names
    parts = []
    for r in rows:
        name = names.get(r.role, r.role.title())
        until = clocks.vacation_end(r, now, away_until)
        if r.flagged_at is not None:
            parts.append(f"{name} out of time")
        elif until is not None:
            end = datetime.datetime.fromtimestamp(until, datetime.UTC)
            parts.append(f"{name} on vacation until {end:%b} {end.day} {end:%H:%M} UTC")
        elif r.deadline is not None:
            parts.append(f"{name} {clocks.left_text(r.left(now))}")
    return "Clock: " + " · ".join(parts) if parts else ""


def lines_for(
    rows: Sequence[ClockRow],
    seats: Sequence[SeatRow],
    now: float,
    *,
    plain: bool = False,
    away_until: Mapping[str, float] | None = None,
) -> list[str]:
    """Clock lines for players to read (``clocks.describe``), by side: no mention, so
    a line shown to the table pings nobody."""
    names = {s.role: s.role for s in seats}
    return clocks.describe(rows, names, now, plain=plain, away=away_until)


def scope_of(row: GameRow) -> str:
    """Where a game's vacations and clock rules are kept: its server ('' outside one)."""
    return row.guild_id or ""


async def away(db: Session, row: GameRow, seats: Sequence[SeatRow]) -> dict[str, float]:
    """The game's roles whose player is on vacation now, and until when (read through the
    vacations' primary key, one player at a time)."""
    found: dict[str, float] = {}
    for seat in seats:
        if is_bot(seat.user_id):
            continue
        vacation = await db.clocks.current_vacation(seat.user_id, scope_of(row))
        if vacation is not None:
            found[seat.role] = vacation.ends_at
    return found
