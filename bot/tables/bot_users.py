"""Who Dispatch is at a table: the user ids of its own seats, one per level.

A seat held by one of :data:`BOT_USERS` (``"Dispatch (easy)"``, ``"Dispatch (normal)"``,
``"Dispatch (hard)"``) is an ordinary seat to the lobby, the turn, the table posts and the
records; the name says the level. Who makes that seat's moves is another room's business
(``bot.dispatch_players.bots``, which listens to the manager): this module only names
the seats.
"""

from __future__ import annotations

from bot import errors
from rules.ai import LEVELS

#: The user id of a bot seat at each level.
BOT_USERS: dict[str, str] = {level: f"Dispatch ({level})" for level in LEVELS}
DEFAULT_LEVEL = "normal"


def bot_user(level: str | None = None) -> str:
    """The user id that seats Dispatch at ``level`` (the default level when None)."""
    level = (level or DEFAULT_LEVEL).strip().lower()
    if level not in BOT_USERS:
        # Typed quotes and a clipped word, as every refusal quotes what it was given.
        raise errors.UnknownWord(
            f"Dispatch plays at levels {', '.join(LEVELS)}, not “{level[:20]}”."
        )
    return BOT_USERS[level]


def is_bot(user_id: str | None) -> bool:
    return user_id in _LEVEL_OF


def level_of(user_id: str) -> str:
    return _LEVEL_OF[user_id]


_LEVEL_OF = {user: level for level, user in BOT_USERS.items()}
