"""Whether a decision may be made, read in its turn's transaction before anything is
written: the game is running, the sender holds a seat whose turn it is, the button's
prompt is still fresh, and the seat's clock has time left."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot import errors
from bot.storage.errors import Damaged
from bot.storage.rows import ClockRow, SeatRow
from bot.storage.session import Session
from bot.tables.clocks import clock_pass, clock_rules
from bot.tables.loading import describe, find_row, rules_of, safe_view, state_of
from bot.tables.prompts import fresh
from bot.tables.turn_types import CheckedMove, Table


async def checked(
    db: Session, game_id: int, move: CheckedMove
) -> tuple[Table, dict[str, Any], tuple[str, ...], str]:
    """The game, its state, who was to act and the acting role, once the move is known to
    come from a seat whose turn it is, on a prompt that is still fresh."""
    row = await find_row(db, game_id, live=False)
    seats = await db.seats(game_id)
    if row.status != "active":
        # The loser's click after the game was lost on time: told why.
        await clock_pass.refuse_if_lost_on_time(db, game_id, seats, move.user_id)
        raise errors.GameNotActive(row.status)
    rules_game = rules_of(row)
    state = state_of(row)
    try:
        active_before = tuple(rules_game.active_roles(state))
    except Exception as exc:
        raise Damaged(row.id, describe(exc)) from None
    role = acting_role(active_before, seats, move.user_id, move.role)
    seat = next(s for s in seats if s.role == role)
    if move.expected_version is not None and not fresh(move.expected_version, seat, row.version):
        prompt = str(safe_view(row, role).get("prompt", ""))
        raise errors.StalePrompt(row.version, prompt)
    if role not in active_before:
        waiting = [s.user_id for s in seats if s.role in active_before]
        raise errors.NotYourTurn(waiting)
    return Table(row, seats, rules_game), state, active_before, role


def acting_role(
    active_roles: Sequence[str], seats: Sequence[SeatRow], user_id: str, role: str | None
) -> str:
    """Which of the user's seats acts: the one named, their only one, or their active one."""
    mine = [s.role for s in seats if s.user_id == user_id]
    if not mine:
        raise errors.NotSeated()
    if role is not None:
        if role not in mine:
            raise errors.SeatNotHeld(role)
        return role
    if len(mine) == 1:
        return mine[0]
    active = [r for r in mine if r in active_roles]
    if len(active) == 1:
        return active[0]
    raise errors.ChooseRole(active or mine)


async def in_time(db: Session, table: Table, role: str) -> list[ClockRow] | None:
    """After the deadline a decision is refused and nothing is written,
    unless the server lets the opponent claim the win: then the win is offered now.
    Returns the clocks as read, for the turn to move on (None: changed since)."""
    rows = await db.clocks.clock_rows(table.row.id)
    if clock_pass.ran_out_of(rows, db.now, role):
        if not await clock_rules.claimed_here(db, table.row):
            raise errors.TimeRanOut()
        await clock_rules.flag(db, table.row, table.seats, role)
        return None
    return rows
