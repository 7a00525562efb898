"""Which games a game number reaches, from where it was typed or clicked.

Game numbers count up, so anyone can name every game by trying numbers. A number that
comes from a server (a command's ``game:``, a button's or a select's custom id) therefore
reaches only that server's games, whoever asks, moderators included: a moderator's
rights are those of the server she moderates, never another's. A number from a direct
message reaches only the games the asker holds a seat in (or passed one on), which is
how a player's DM prompt reaches their game, and how a game whose home is DMs (a solo
session started there) is reached by its player alone. Every other number is refused
with the very words of an unknown one, so nothing is learnt about the game, not even
that its number is taken.

A finished game's record (``/game replay``, ``/game export game:``) keeps its own rule,
``replay.played_or_here``: a player may have the record of a game they played on any
server. No discord import: the front ends pass the server (None for a DM).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot import errors
from bot.delivery.port import GameInfo
from bot.storage.store import Store
from bot.tables import validate
from bot.tables.loading import game_info


def within_reach(
    home: str | None,
    players: Iterable[str],
    user_id: str,
    guild_id: str | None,
    *,
    passed: bool = False,
) -> bool:
    """Whether a number sent by ``user_id`` from server ``guild_id`` (None: a DM) reaches a
    game whose server is ``home`` (None: a game of DMs) and whose seats ``players`` hold
    (``passed``: the asker passed a seat of it on)."""
    if guild_id is not None:
        return home == guild_id
    return passed or user_id in set(players)


def unknown(game_id: object) -> errors.GameNotFound:
    """The refusal of a number out of reach: the words of a number no game has."""
    return errors.GameNotFound(f"Game #{game_id}" if isinstance(game_id, int) else "That game")


async def game_in_reach(store: Store, game: int, user_id: str, guild_id: str | None) -> GameInfo:
    """Game ``game`` as a number from ``user_id`` on ``guild_id`` reaches it
    (:func:`within_reach`); any number out of reach is refused as an unknown one."""
    number, user_id = validate.game_ref(game), validate.user_id(user_id)
    guild_id = validate.guild_id(guild_id)
    if not isinstance(number, int):
        raise unknown(None)
    async with store.read() as db:
        row = await db.game(number)
        seats = await db.seats(number) if row is not None else []
        passed = False
        if row is not None and guild_id is None:
            passed = await db.seat_changes.seat_passed(number, user_id) is not None
    if row is None or not within_reach(
        row.guild_id, (s.user_id for s in seats), user_id, guild_id, passed=passed
    ):
        raise unknown(number)
    return game_info(row, seats)
