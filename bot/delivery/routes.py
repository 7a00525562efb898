"""Where a player hears of their turn: by DM, in the channel, or both, as they chose.

Pure: the turn step, the reminders and the clocks' warnings all route by it, so a player
is reached the same way by each.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.storage.rows import SeatRow

DEFAULT_NOTIFY = "dm"


def notify_routes(
    seats: Sequence[SeatRow],
    roles: Sequence[str],
    prefs: Mapping[str, str],
    *,
    table_parked: bool = False,
) -> tuple[set[str], set[str]]:
    """(roles to mention in the channel, roles to send a "your turn" DM) for a hand-over to
    ``roles``: as each player chose; in the channel while their DMs are closed. While the
    table's posts are parked (its channel refuses them, ``bot.delivery.courier``) the game
    goes on by DM, as the players were told: a player who chose the channel is sent the
    DM too, or the mention that waits with the table would be all they had."""
    by_channel: set[str] = set()
    by_dm: set[str] = set()
    for seat in seats:
        if seat.role not in roles:
            continue
        choice = prefs.get(seat.user_id, DEFAULT_NOTIFY)
        if seat.dm_failed or choice in ("channel", "both"):
            by_channel.add(seat.role)
        if not seat.dm_failed and (choice in ("dm", "both") or table_parked):
            by_dm.add(seat.role)
    return by_channel, by_dm
