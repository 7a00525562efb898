"""Playing: a seat's decision applied through the rules, and the two ways out of a game
that the rules do not decide (resign, abandon).

Each change is one transaction holding the new state, the action row and the outbox rows
that tell the players about it. The caller holds the game's lock and delivers afterwards.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import sqlite3
from collections.abc import Sequence
from typing import Any

import rules
from bot import errors
from bot.loading import (
    describe,
    find_row,
    game_info,
    info_in,
    rules_of,
    rules_or_none,
    safe_view,
    state_of,
)
from bot.outbox import fresh, post_payload, public_log, record_progress, result_line, role_name
from bot.ports import AbandonResult, ActResult, TablePost, View
from bot.store import SeatRow, Session, Store, dumps

log = logging.getLogger("dispatch.manager")

#: The rules engine raised on a legal-looking action: a bug, reported, with nothing saved.
RULES_FAILED = errors.IllegalMove(
    "That action could not be applied because of an error in the game rules; nothing "
    "changed. Please report it."
)


async def act(
    store: Store,
    game_id: int,
    user_id: str,
    verb: str,
    arg: Any,
    expected_version: int | None,
    role: str | None,
    *,
    reminder_hours: float,
) -> ActResult:
    """Apply one decision of ``user_id``; nothing changes unless it is legal and fresh."""
    async with store.read() as db:
        row = await find_row(db, game_id, live=False)
        seats = await db.seats(game_id)
    if row.status != "active":
        raise errors.GameNotActive(row.status)
    rules_game = rules_of(row)
    state = state_of(row)
    try:
        active_before = tuple(rules_game.active_roles(state))
    except Exception as exc:
        raise errors.CorruptGame(row.id, describe(exc)) from None
    role = acting_role(active_before, seats, user_id, role)
    seat = next(s for s in seats if s.role == role)
    if expected_version is not None and not fresh(expected_version, seat, row.version):
        prompt = str(safe_view(row, role).get("prompt", ""))
        raise errors.StalePrompt(row.version, prompt)
    if role not in active_before:
        waiting = [s.user_id for s in seats if s.role in active_before]
        raise errors.NotYourTurn(waiting)
    try:
        # act may mutate what it is given; `state` is our own parsed copy and is
        # dropped if the action fails, so nothing leaks into the next attempt.
        after = rules_game.act(state, role, verb, arg)
        encoded = dumps(after)
    except rules.IllegalAction as exc:
        log.debug("game=%d %s %s %r refused: %s", game_id, user_id, verb, arg, exc)
        raise errors.IllegalMove(str(exc)) from None
    except Exception:
        # A record the rules cannot read is the game's damage, not this player's move.
        safe_view(row, role)
        log.exception("game=%d rules engine failed on %s %r", game_id, verb, arg)
        raise RULES_FAILED from None
    after = json.loads(encoded)
    version = row.version + 1
    async with store.transaction() as db:
        current = await db.version_of(game_id)
        if current != row.version:
            # Written by someone else between our read and now (the lock makes this rare).
            raise errors.StalePrompt(current or row.version, "")
        await db.append_action(game_id, version, role, user_id, verb, arg)
        row = dataclasses.replace(row, version=version)
        try:
            progress = await record_progress(
                db,
                row,
                seats,
                rules_game,
                after,
                acting_role=role,
                active_before=active_before,
                default_reminder_hours=reminder_hours,
            )
        except (errors.DispatchError, sqlite3.Error, OSError):
            raise
        except Exception:
            log.exception("game=%d views failed after %s %r; rolled back", game_id, verb, arg)
            raise RULES_FAILED from None
    # What the transaction wrote, without reading it back.
    saved = dataclasses.replace(
        row,
        status="finished" if progress.outcome is not None else row.status,
        active_roles=progress.active_now,
        turn_started_at=progress.turn_started_at,
    )
    info = game_info(saved, seats)
    return ActResult(
        game=info,
        role=role,
        version=version,
        view=progress.acting_view or {},
        turn_passed=progress.turn_passed,
        active_roles=progress.active_now,
        outcome=progress.outcome,
        private_log_lines=progress.acting_private_lines,
    )


def acting_role(
    active_roles: Sequence[str], seats: Sequence[SeatRow], user_id: str, role: str | None
) -> str:
    """Which of the user's seats acts: the one named, their only one, or their active one."""
    mine = [s.role for s in seats if s.user_id == user_id]
    if not mine:
        raise errors.NotSeated()
    if role is not None:
        if role not in mine:
            raise errors.NotAllowed(f"You do not hold the {role} seat in this game.")
        return role
    if len(mine) == 1:
        return mine[0]
    active = [r for r in mine if r in active_roles]
    if len(active) == 1:
        return active[0]
    raise errors.ChooseRole(active or mine)


async def resign(db: Session, game_id: int, user_id: str, role: str | None) -> str:
    """Concede for ``user_id`` (with two sides the other one wins); return the role."""
    row = await find_row(db, game_id, live=False)
    if row.status != "active":
        raise errors.GameNotActive(row.status)
    seats = await db.seats(game_id)
    mine = [s.role for s in seats if s.user_id == user_id]
    if not mine:
        raise errors.NotSeated()
    if role is None:
        if len(mine) > 1:
            raise errors.ChooseRole(mine)
        role = mine[0]
    elif role not in mine:
        raise errors.NotAllowed(f"You do not hold the {role} seat in this game.")
    rules_game = rules_or_none(row.game_name)
    roles = tuple(rules_game.roles) if rules_game else tuple(s.role for s in seats)
    others = [r for r in roles if r != role]
    winner = others[0] if len(others) == 1 else None
    reason = f"{role_name(rules_game, role)} resigned"
    outcome = {"winner": winner, "reason": reason, "score": {}}
    public: View | None = None
    lines: tuple[str, ...] = ()
    if rules_game is not None:
        try:
            public = rules_game.view(state_of(row), None)
            lines = tuple(public_log(public)[row.posted_log :])
        except Exception:  # a damaged record can still be resigned: no board then
            public = None
    await db.set_status(game_id, "finished")
    await db.record_result(game_id, winner, reason, {})
    await db.delete_timers(game_id)
    post = TablePost(
        kind="end",
        version=row.version,
        headline=result_line(rules_game, outcome),
        view=public,
        log_lines=lines,
        outcome=outcome,
    )
    await db.queue(game_id, "table", None, post_payload(post))
    return role


async def abandon(db: Session, game_id: int, user_id: str, is_moderator: bool) -> AbandonResult:
    """Ask to end a game without a result; it ends when every seat asked, or a moderator.

    Works on a game whose saved state is damaged, so a channel is never stuck.
    """
    row = await find_row(db, game_id, live=False)
    if row.status not in ("active", "lobby"):
        raise errors.GameNotActive(row.status)
    seats = await db.seats(game_id)
    mine = [s.role for s in seats if s.user_id == user_id]
    if not mine and not is_moderator:
        raise errors.NotSeated()
    for role in mine:
        await db.set_abandon_requested(game_id, role)
    asked = {s.role for s in seats if s.abandon_requested} | set(mine)
    waiting = tuple(dict.fromkeys(s.user_id for s in seats if s.role not in asked))
    done = is_moderator or not waiting
    if done:
        await db.set_status(game_id, "abandoned")
        await db.delete_timers(game_id)
        headline = (
            "A moderator abandoned this game."
            if is_moderator and waiting
            else "The game was abandoned by agreement."
        )
        post = TablePost(kind="notice", version=row.version, headline=headline)
    else:
        post = TablePost(
            kind="notice",
            version=row.version,
            headline="A player asks to abandon this game; use /game abandon to agree.",
            mention_user_ids=waiting,
        )
    await db.queue(game_id, "table", None, post_payload(post))
    info = await info_in(db, game_id)
    return AbandonResult(info, done, () if done else waiting)
