"""Claim the win on time (issue 26, section 1): a server's rules for clocks, and what
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

from collections.abc import Sequence
from typing import Any

from bot import errors
from bot.delivery.notices import role_name
from bot.delivery.outbox import message_payload, post_payload
from bot.delivery.port import PrivateMessage, TablePost
from bot.storage.store import ClockRow, GameRow, SeatRow, Session
from bot.tables.bots import is_bot
from bot.tables.loading import find_row, rules_or_none
from bot.tables.turn import end_by_decree, notify_routes

ON_TIME = ("lose", "claim")
#: Vacation days a player has a rolling year on a server that never set it.
DEFAULT_VACATION_DAYS = 14
#: The most a server may grant (a whole year would be a clock that never runs).
MAX_VACATION_DAYS = 90


async def server_rules(db: Session, guild_id: str | None) -> tuple[str, int]:
    """A server's (on_time, vacation_days); games outside a server get the defaults."""
    stored = await db.clock_rules(guild_id) if guild_id else None
    return stored or ("lose", DEFAULT_VACATION_DAYS)


async def claimed_here(db: Session, row: GameRow) -> bool:
    """Whether a clock that runs out in this game offers the win instead of ending it."""
    return (await server_rules(db, row.guild_id))[0] == "claim"


async def flag(db: Session, row: GameRow, seats: Sequence[SeatRow], role: str) -> None:
    """``role``'s clock ran out where the win is claimed: flag it, and offer the win to
    the other players, once (DM or mention as each chose) and in a table post."""
    rows = await db.clock_rows(row.id)
    flagged = [
        ClockRow(c.role, 0.0, db.now, None, None, db.now) if c.role == role else c for c in rows
    ]
    await db.save_clocks(row.id, flagged)
    rules_game = rules_or_none(row.game_name)
    late = role_name(rules_game, role)
    others = [s for s in seats if s.role != role and not is_bot(s.user_id)]
    prefs = await db.notify_prefs(s.user_id for s in others)
    parked = await db.table_parked(row.id)
    by_channel, by_dm = notify_routes(seats, [s.role for s in others], prefs, table_parked=parked)
    for seat in others:
        if seat.role in by_dm:
            message = PrivateMessage(
                kind="notice",
                role=seat.role,
                version=row.version,
                headline=(
                    f"{late}'s clock ran out in game #{row.id}. Claim the win, or wait: "
                    f"until someone claims, {late} may still move."
                ),
                claim=True,
            )
            await db.queue(row.id, "private", seat.role, message_payload(message))
    post = TablePost(
        kind="notice",
        version=row.version,
        headline=(
            f"{late}'s clock ran out. Their opponent may claim the win with the button "
            f"below, or wait: until a claim, {late} may still move (their clock stays at 0)."
        ),
        mention_user_ids=tuple(dict.fromkeys(s.user_id for s in others if s.role in by_channel)),
        claim=True,
    )
    await db.queue(row.id, "table", None, post_payload(post))


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
    clocks = await db.clock_rows(game_id)
    flagged = [c for c in clocks if c.flagged_at is not None and c.role not in mine]
    owing = [c for c in flagged if c.role in row.active_roles]
    if not owing:
        if flagged:
            late = role_name(rules_game, flagged[0].role)
            raise errors.NotAllowed(
                f"{late} moved before the win was claimed, so the game goes on. You may "
                f"claim it whenever {late} next owes a decision."
            )
        raise errors.NotAllowed("No clock of your opponent's has run out: nothing to claim.")
    loser = owing[0].role
    roles = tuple(rules_game.roles) if rules_game else tuple(s.role for s in seats)
    others = [r for r in roles if r != loser]
    outcome: dict[str, Any] = {
        "winner": others[0] if len(others) == 1 else None,
        "code": "timeout",
        "reason": f"{role_name(rules_game, loser)} ran out of time (the win was claimed)",
    }
    await end_by_decree(db, row, seats, rules_game, outcome, loser=loser)
    return loser
