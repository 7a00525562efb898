"""The action log as the game's record: export it, and replay it to check the stored state.

A game is fully described by its name, options, seed and actions: ``setup(seed)`` and
every action applied in order must give exactly the state the store holds. Who may see a
finished game's record (its export, its replay) is decided here too (``may_see_finished``).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

from bot import errors
from bot.storage.errors import Damaged
from bot.storage.rows import GameRow, SeatRow, dumps
from bot.storage.store import Store
from bot.tables.loading import GameRef, find_row, rules_or_none, state_of
from rules.core.errors import RulesError
from rules.core.rng import SPLITMIX, legacy_seed


async def export_game(store: Store, game: GameRef) -> dict[str, Any]:
    """Everything needed to replay the game elsewhere: name, options, seed, actions."""
    async with store.read() as db:
        row = await find_row(db, game, live=False)
        seats = await db.seats(row.id)
        actions = await db.actions(row.id)
        result = await db.records.result(row.id)
        changes = await db.seat_changes.of_game(row.id)
        seed = stored_seed(row)
        key = await db.game_key(row.id) if seed is None or seed < 0 else None
    try:
        options = json.loads(row.options_json)
    except ValueError:
        options = None
    return {
        "id": row.id,
        "game": row.game_name,
        "options": options,
        "seed": replay_seed(row, key),
        "status": row.status,
        "version": row.version,
        "seats": {s.role: s.user_id for s in seats},
        "actions": [
            {"seq": a.seq, "role": a.role, "user": a.user_id, "verb": a.verb, "arg": a.arg}
            for a in actions
        ],
        # Who took over which seat, and at which version: not
        # actions, so the replay above never reads them.
        "seat_changes": [
            {
                "role": c.role,
                "from": c.from_user,
                "to": c.to_user,
                "by": c.by_user,
                "how": c.how,
                "version": c.at_version,
            }
            for c in changes
        ],
        "result": dataclasses.asdict(result) if result else None,
        "created_at": row.created_at,
    }


def replayed_state(data: dict[str, Any]) -> dict[str, Any]:
    """setup(seed) + every exported action, in order: the state the game must have."""
    rules_game = rules_or_none(data["game"])
    if rules_game is None or data["options"] is None or data["seed"] is None:
        raise Damaged(data["id"], "cannot replay this game")
    step = "its set-up"
    try:
        state = rules_game.setup(seed=data["seed"], options=data["options"])
        for n, action in enumerate(data["actions"], 1):
            step = f"action {n}"
            state = rules_game.act(state, action["role"], action["verb"], action["arg"])
    except (RulesError, KeyError, TypeError, ValueError, AttributeError, IndexError):
        # A log the rules refuse is a damaged record; the rules' own message could name
        # hidden cards, so only the failing step is named.
        raise Damaged(data["id"], f"{step} does not replay") from None
    result: dict[str, Any] = json.loads(dumps(state))
    return result


def replay_seed(row: GameRow, key: str | None = None) -> int | str | None:
    """What ``setup`` needs to deal the same cards: the chosen seed, the secret key (hence
    no export before the end), or for a game stored before the keyed generator, its old
    seed marked so (``rules.core.rng.legacy_seed``).

    The key is kept apart from the state too (``key``, from ``game_keys``), so a game whose
    state is damaged still exports with it for a moderator's rescue.
    """
    try:
        rng = state_of(row).get("rng") if rules_or_none(row.game_name) else None
    except Exception:  # a damaged record: export what the row itself says
        rng = None
    seed = stored_seed(row)
    if isinstance(rng, dict) and rng.get("alg") == SPLITMIX:
        return None if seed is None else legacy_seed(seed)
    if seed is not None and seed >= 0:
        return seed
    in_state = rng.get("key") if isinstance(rng, dict) else None
    found = key or in_state
    return str(found) if found else None


def stored_seed(row: GameRow) -> int | None:
    """The seed column as a whole number, or None when it holds anything else: SQLite keeps
    whatever a hand edit wrote there (text too). Such a seed is read as lost: the export
    gives the game's key instead (kept apart, or in its state), from which the replay
    check replays, or with none no seed, and the replay check says it cannot replay."""
    seed: object = row.seed
    return seed if isinstance(seed, int) and not isinstance(seed, bool) else None


async def stored_state(store: Store, game: GameRef) -> str | None:
    """The game's state as the store holds it (canonical JSON, upgraded to the current
    version of its rules, as every load does)."""
    async with store.read() as db:
        row = await find_row(db, game, live=False)
    if rules_or_none(row.game_name) is None:
        return row.state_json
    return dumps(state_of(row))


#: The games whose record anyone entitled may watch again: over, for good.
WATCHABLE = ("finished", "abandoned")


def may_see_finished(
    row: GameRow,
    seats: Sequence[SeatRow],
    user_id: str,
    guild_id: str | None,
    *,
    passed: bool = False,
) -> bool:
    """Whether ``user_id``, asking on the server ``guild_id`` (None: in a DM), may have the
    record of game ``row``: only a game that is over (finished or abandoned), and then a
    game they played (``passed``: in a seat they passed on) or one played on that server."""
    return row.status in WATCHABLE and played_or_here(row, seats, user_id, guild_id, passed=passed)


def played_or_here(
    row: GameRow,
    seats: Sequence[SeatRow],
    user_id: str,
    guild_id: str | None,
    *,
    passed: bool = False,
) -> bool:
    """The one rule for a finished game's record (its replay, its export by number): a
    game ``user_id`` played, or one played on the server ``guild_id`` they ask on. A
    player who played a seat and passed it on (``passed``: ``db.seat_changes.seat_passed``)
    played the game."""
    if passed or any(seat.user_id == user_id for seat in seats):
        return True
    return guild_id is not None and row.guild_id == guild_id


def not_yours(game: Any) -> errors.NotYours:
    """The one refusal for a game number one may not see, whether it exists or not."""
    plain = isinstance(game, int) and not isinstance(game, bool) and 0 < game < 10**20
    name = f"Game #{game}" if plain else "That game"
    return errors.NotYours(
        f"{name} is not a game you played or one played on this server, so its replay "
        "is not yours to see."
    )


async def watchable_export(
    store: Store, game: GameRef, user_id: str, guild_id: str | None
) -> dict[str, Any]:
    """The export of a game ``user_id`` may watch again (``may_see_finished``). A number
    that is unknown or a stranger's game of another server is refused with the same words,
    so nothing is learnt from it (not even whether it is being played); a game of one's
    own still being played, or cancelled, is refused saying why."""
    refused = not_yours(game)
    async with store.read() as db:
        try:
            row = await find_row(db, game, live=False)
        except errors.GameNotFound:
            raise refused from None
        seats = await db.seats(row.id)
        passed = await db.seat_changes.seat_passed(row.id, user_id) is not None
    if not played_or_here(row, seats, user_id, guild_id, passed=passed):
        raise refused
    if row.status in ("lobby", "active"):
        raise errors.WrongStage(
            f"Game #{row.id} is still being played: its replay is ready once it is over."
        )
    if not may_see_finished(row, seats, user_id, guild_id, passed=passed):
        raise errors.WrongStage(f"Game #{row.id} was cancelled before it began: nothing to replay.")
    return await export_game(store, row.id)
