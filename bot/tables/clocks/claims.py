"""Claim the win on time: a server's rules for clocks, and what
happens at zero where the opponent claims the win instead of the game ending.

A server's ``on_time`` is ``lose`` (the default: ``timeouts`` ends the game) or ``claim``.
With ``claim``, a clock that runs out is *flagged* (``flag``): it leaves the deadline
index (so the expiry pass meets it once), shows nothing left, and the opponent is told
once, where they chose, and at the table, with a **Claim the win** button. Until someone
claims, the late player may still decide (as on Board Game Arena); their clock stays at
zero, owing, gaining nothing, for the rest of the game. A claim (``claim``) is taken
while the late player owes a decision; once they have moved and handed over it is
refused politely, and it stands again whenever they owe one. The claim and the late
player's move are each one transaction under the game's lock, so whichever comes first
wins and the other is refused: the game ends exactly once.
"""

from __future__ import annotations

from typing import Any

from bot import errors
from bot.delivery.notices import role_name
from bot.storage.session import Session
from bot.tables.endings import end_by_decree
from bot.tables.loading import find_row, rules_or_none
from rules.core.types import TIMEOUT


async def claim(db: Session, game_id: int, user_id: str) -> str:
    """``user_id`` claims the win on time; the game ends with code ``timeout``, told like
    any end (rated, with the rematch offer). Returns the role that lost. Refused
    politely (nothing changes) when there is nothing to claim."""
    row = await find_row(db, game_id, live=False)
    if row.status != "active":
        raise errors.GameNotActive(row.status)
    seats = await db.seats(game_id)
    mine = {s.role for s in seats if s.user_id == user_id}
    if not mine:
        raise errors.NotSeated()
    rules_game = rules_or_none(row.game_name)
    clocks = await db.clocks.clock_rows(game_id)
    flagged = [c for c in clocks if c.flagged_at is not None and c.role not in mine]
    owing = [c for c in flagged if c.role in row.active_roles]
    if not owing:
        if flagged:
            late = role_name(rules_game, flagged[0].role)
            raise errors.Outdated(
                f"{late} moved before the win was claimed, so the game goes on. You may "
                f"claim it whenever {late} next owes a decision."
            )
        raise errors.NothingToDecide("No clock of your opponent's has run out: nothing to claim.")
    loser = owing[0].role
    roles = tuple(rules_game.roles) if rules_game else tuple(s.role for s in seats)
    others = [r for r in roles if r != loser]
    outcome: dict[str, Any] = {
        "winner": others[0] if len(others) == 1 else None,
        "code": TIMEOUT,
        "reason": f"{role_name(rules_game, loser)} ran out of time (the win was claimed)",
    }
    await end_by_decree(db, row, seats, rules_game, outcome, loser=loser)
    return loser
