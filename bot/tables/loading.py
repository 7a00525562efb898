"""Reading a game back from the store: its rules, its state, and the GameInfo front ends see.

A damaged row (an unknown game, a state that is not JSON) raises ``Damaged`` here, so
every caller refuses it the same way.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import rules
from bot import errors
from bot.delivery.port import GameInfo, GameStatus, SeatInfo
from bot.storage.errors import Damaged
from bot.storage.rows import GameRow, SeatRow
from bot.storage.session import Session
from rules.core import undo

#: A game is named by its id (int) or by the channel it is played in (str).
GameRef = int | str


def rules_or_none(name: str) -> rules.Game | None:
    try:
        return rules.get_game(name)
    except LookupError:
        return None


def rules_of(row: GameRow) -> rules.Game:
    game = rules_or_none(row.game_name)
    if game is None:
        raise Damaged(row.id, f"unknown game “{row.game_name}”")
    return game


def state_of(row: GameRow) -> dict[str, Any]:
    try:
        state = json.loads(row.state_json or "")
    except ValueError:
        raise Damaged(row.id, "the saved state is not valid JSON") from None
    if not isinstance(state, dict):
        raise Damaged(row.id, "the saved state is not a document")
    game = rules_or_none(row.game_name)
    if game is not None:
        # A state saved by an older engine is brought up to date before anyone reads it.
        try:
            game.upgrade(state)
        except (rules.RulesError, KeyError, TypeError, ValueError) as problem:
            reason = f"the saved state cannot be upgraded: {problem}"
            raise Damaged(row.id, reason) from None
    return state


def describe(exc: BaseException) -> str:
    """A short, player-safe name for what went wrong inside a damaged record.

    Only the kind of failure: the message of a KeyError would quote a card or a key of
    the hidden state, which must not reach the table.
    """
    if isinstance(exc, errors.CorruptGame):
        return exc.detail
    return f"the rules cannot read it: {type(exc).__name__}"


def safe_view(row: GameRow, role: str | None) -> dict[str, Any]:
    """``role``'s view of the stored game; any failure to read it is ``CorruptGame``."""
    try:
        return rules_of(row).view(state_of(row), role)
    except Exception as exc:
        raise Damaged(row.id, describe(exc)) from None


def seat_view(row: GameRow, role: str) -> dict[str, Any]:
    """``role``'s own view of the stored game, as its player may know it: while another
    side's decisions may still be taken back (``rules.core.undo.settled``) and ``role``
    has nothing to decide, the game as it stood before them, so that a card played and
    taken back before the turn passed is never seen by the opponent either. A side that
    must decide too (a simultaneous choice) sees the game as it stands, its own choices
    offered as they are; the other side's hidden choice is hidden by the view itself.
    Any failure to read it is ``CorruptGame``."""
    try:
        rules_game, state = rules_of(row), state_of(row)
        others = any(entry.get("role") != role for entry in state.get("undo") or ())
        if others and role not in rules_game.active_roles(state):
            state = undo.settled(state)
        return rules_game.view(state, role)
    except Exception as exc:
        raise Damaged(row.id, describe(exc)) from None


def settled_public_view(row: GameRow) -> dict[str, Any]:
    """The public view of the stored game as it stands before any decision its player may
    still take back (``rules.core.undo.settled``): what a page open to anyone shows, so
    that a card played and taken back before the turn passed is never seen there. Any
    failure to read it is ``CorruptGame``."""
    try:
        return rules_of(row).view(undo.settled(state_of(row)), None)
    except Exception as exc:
        raise Damaged(row.id, describe(exc)) from None


def game_info(row: GameRow, seats: Sequence[SeatRow]) -> GameInfo:
    game = rules_or_none(row.game_name)
    if game is not None:  # seats in the game's own seating order
        order = {role: i for i, role in enumerate(game.roles)}
        seats = sorted(seats, key=lambda s: order.get(s.role, len(order)))
    status: GameStatus = row.status  # type: ignore[assignment]
    return GameInfo(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        game_name=row.game_name,
        title=(game.title if game else row.game_name) or row.game_name,
        status=status,
        version=row.version,
        creator_id=row.creator_id,
        seats=tuple(SeatInfo(s.role, s.user_id, s.dm_failed) for s in seats),
        active_roles=row.active_roles if row.status == "active" else (),
        roles=tuple(game.roles) if game else tuple(s.role for s in seats),
        turn_started_at=row.turn_started_at,
        damaged=row.damaged,
        one_seat=bool(game and game.one_seat),
    )


async def info_in(db: Session, game_id: int) -> GameInfo:
    row = await db.game(game_id)
    assert row is not None
    return game_info(row, await db.seats(game_id))


async def find_row(db: Session, ref: GameRef, *, live: bool) -> GameRow:
    """The game named by ``ref``; by channel, its live game or (not ``live``) its latest."""
    if isinstance(ref, int):
        row = await db.game(ref)
        if row is None:
            raise errors.GameNotFound(f"Game #{ref}")
        return row
    row = await (
        db.lobby.live_game_in_channel(ref) if live else db.lobby.latest_game_in_channel(ref)
    )
    if row is None:
        raise errors.NoGameInChannel()
    return row
