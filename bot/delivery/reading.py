"""How delivery reads a game: given to it by the tables room, which sits above it.

The courier and the reminders need a stored game's ``GameInfo``, a seat's view and
whether a seat is one of Dispatch's own; the rules of reading those live in
``bot.tables``, so the manager hands them down here instead of delivery reaching up.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.delivery.port import GameInfo, View
from bot.storage.rows import GameRow, SeatRow


@dataclass(frozen=True)
class GameReader:
    #: The front ends' picture of a stored game and its seats.
    info: Callable[[GameRow, Sequence[SeatRow]], GameInfo]
    #: A role's view of the stored game; raises ``CorruptGame`` when it cannot be read.
    view: Callable[[GameRow, str], View]
    #: True for a seat Dispatch plays itself (nobody to message).
    is_bot: Callable[[str | None], bool]
