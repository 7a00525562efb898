"""A server's rules for clocks: what happens at zero (``on_time``:
``lose``, the default, or ``claim``) and how many vacation days a player has; and the
flag that marks a clock run out where the win is claimed (the claim itself is in
``claims``, which ends games through ``turn``; a turn flags a late clock through this
module, so the two never import each other)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.delivery.notices import role_name
from bot.delivery.outbox import message_payload, post_payload
from bot.delivery.port import PrivateMessage, TablePost
from bot.delivery.routes import notify_routes
from bot.storage.rows import ClockRow, GameRow, SeatRow
from bot.storage.session import Session
from bot.tables.bot_users import is_bot
from bot.tables.loading import rules_or_none

ON_TIME = ("lose", "claim")
#: Vacation days a player has a rolling year on a server that never set it.
DEFAULT_VACATION_DAYS = 14
#: The most a server may grant (a whole year would be a clock that never runs).
MAX_VACATION_DAYS = 90


async def server_rules(db: Session, guild_id: str | None) -> tuple[str, int]:
    """A server's (on_time, vacation_days); games outside a server get the defaults."""
    stored = await db.clocks.clock_rules(guild_id) if guild_id else None
    return stored or ("lose", DEFAULT_VACATION_DAYS)


async def claimed_here(db: Session, row: GameRow) -> bool:
    """Whether a clock that runs out in this game offers the win instead of ending it."""
    return (await server_rules(db, row.guild_id))[0] == "claim"


async def flag(db: Session, row: GameRow, seats: Sequence[SeatRow], role: str) -> None:
    """``role``'s clock ran out where the win is claimed: flag it, and offer the win to
    the other players, once (DM or mention as each chose) and in a table post."""
    rows = await db.clocks.clock_rows(row.id)
    flagged = [
        ClockRow(c.role, 0.0, db.now, None, None, db.now) if c.role == role else c for c in rows
    ]
    await db.clocks.save_clocks(row.id, flagged)
    rules_game = rules_or_none(row.game_name)
    late = role_name(rules_game, role)
    others = [s for s in seats if s.role != role and not is_bot(s.user_id)]
    prefs = await db.settings.notify_prefs(s.user_id for s in others)
    parked = await db.outbox.table_parked(row.id)
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
            await db.outbox.queue(row.id, "private", seat.role, message_payload(message))
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
    await db.outbox.queue(row.id, "table", None, post_payload(post))
