"""A turn: a seat's decision applied through the rules and committed, and the two ways out
of a game that the rules do not decide (resign, abandon).

Each change is one transaction holding the new state, the action row and the outbox rows
that tell the players about it (``commit_turn``, at the end of this file; what they are
told is built in ``bot.delivery.notices``). The caller holds the game's lock and delivers
afterwards.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

import rules
from bot import errors
from bot.delivery import notices
from bot.delivery.notices import private_log, public_log, result_line, role_name
from bot.delivery.outbox import message_payload, post_payload
from bot.delivery.port import AbandonResult, ActResult, PrivateMessage, TablePost, View
from bot.storage.store import GameRow, SeatRow, Session, Store, dumps
from bot.tables import bot_jobs, clock_pass, clocks, estimates, ratings
from bot.tables.bots import is_bot
from bot.tables.loading import (
    describe,
    find_row,
    game_info,
    info_in,
    rules_of,
    rules_or_none,
    safe_view,
    state_of,
)
from bot.tables.prompts import decision_digest, fresh

log = logging.getLogger("dispatch.manager")

#: The rules engine raised on a legal-looking action: a bug, reported, with nothing saved.
RULES_FAILED = errors.IllegalMove(
    "That action could not be applied because of an error in the game rules; nothing "
    "changed. Please report it."
)


@dataclasses.dataclass(frozen=True)
class Move:
    """One decision as a player sent it, its values already checked."""

    user_id: str
    verb: str
    arg: Any = None
    #: The game version the button was drawn at (None: a typed command, never stale).
    expected_version: int | None = None
    #: Which of the user's seats acts (hot-seat games); None: the only or active one.
    role: str | None = None
    #: Further args of the same verb chosen in the same interaction (a multi-choice
    #: select): applied after ``arg``, in order, all or nothing.
    more: tuple[Any, ...] = ()


#: The most ``done``s sent for a player after one decision (a bound; one is the rule).
MAX_IMPLIED_DONE = 4


def implied_done(rules_game: Any, state: dict[str, Any], role: str) -> int:
    """Send ``done`` for ``role`` while the rules say it is a formality (nothing left to
    choose: "place up to 0 tokens more"); each is recorded as its own action, so the game
    replays exactly. Returns how many were sent."""
    sent = 0
    while sent < MAX_IMPLIED_DONE and role in rules_game.active_roles(state):
        if isinstance(rules_game, rules.Game):
            implied = rules_game.done_implied(state, role)
        else:
            implied = bool(rules_game.view(state, role).get("done_implied"))
        if not implied:
            break
        rules_game.act(state, role, "done")
        sent += 1
    return sent


async def act(store: Store, game_id: int, move: Move, *, reminder_hours: float) -> ActResult:
    """Apply one decision; nothing changes unless it is legal and fresh."""
    user_id, verb, arg, role = move.user_id, move.verb, move.arg, move.role
    expected_version = move.expected_version
    async with store.read() as db:
        row = await find_row(db, game_id, live=False)
        seats = await db.seats(game_id)
        if row.status != "active":
            # The loser's click after the game was lost on time: told why (issue 26 §1).
            await clock_pass.refuse_if_lost_on_time(db, game_id, seats, user_id)
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
    applied: list[tuple[str, Any]] = []
    try:
        # act may mutate what it is given; `state` is our own parsed copy and is
        # dropped if any action fails, so nothing leaks into the next attempt: a batch
        # is applied whole or not at all.
        after = state
        for part in (arg, *move.more):
            if applied and role not in rules_game.active_roles(after):
                raise rules.NotAllowedNow("your part of this decision ended before the last one")
            after = rules_game.act(after, role, verb, part)
            applied.append((verb, part))
        if verb != "undo":
            applied += [("done", None)] * implied_done(rules_game, after, role)
        encoded = dumps(after)
    except rules.IllegalAction as exc:
        # Neither the argument nor the engine's sentence (which lists the player's
        # choices, their hand among them): the server log is no place for hidden cards.
        log.debug("game=%d %s %s refused: %s", game_id, user_id, verb, type(exc).__name__)
        if move.more:
            raise errors.IllegalMove(
                f"Those {len(move.more) + 1} choices cannot all be made ({exc}); nothing changed."
            ) from None
        raise errors.IllegalMove(str(exc)) from None
    except Exception:
        # A record the rules cannot read is the game's damage, not this player's move.
        safe_view(row, role)
        log.exception("game=%d rules engine failed on %s at v%d", game_id, verb, row.version)
        raise RULES_FAILED from None
    after = json.loads(encoded)
    version = row.version + len(applied)
    async with store.transaction() as db:
        current = await db.version_of(game_id)
        if current != row.version:
            # Written by someone else between our read and now (the lock makes this rare).
            raise errors.StalePrompt(current or row.version, "")
        # After the deadline a decision is refused and nothing is written (issue 26 §1),
        # unless the server lets the opponent claim the win: then it is offered now.
        from bot.tables import claims  # claims ends games through this module

        if await clock_pass.ran_out(db, game_id, role):
            if not await claims.claimed_here(db, row):
                raise errors.TimeRanOut()
            await claims.flag(db, row, seats, role)
        for seq, (each_verb, each_arg) in enumerate(applied, start=row.version + 1):
            await db.append_action(game_id, seq, role, user_id, each_verb, each_arg)
        row = dataclasses.replace(row, version=version)
        try:
            progress = await commit_turn(
                db,
                row,
                seats,
                rules_game,
                after,
                acting_role=role,
                active_before=active_before,
                default_reminder_hours=reminder_hours,
                undo=verb == "undo",
            )
        except (errors.DispatchError, sqlite3.Error, OSError):
            raise
        except Exception:
            log.exception("game=%d views failed after %s; rolled back", game_id, verb)
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
        outcome=dict(progress.outcome) if progress.outcome is not None else None,
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
    outcome: dict[str, Any] = {"winner": winner, "code": "resigned", "reason": reason}
    await end_by_decree(db, row, seats, rules_game, outcome)
    return role


async def end_by_decree(
    db: Session,
    row: GameRow,
    seats: Sequence[SeatRow],
    rules_game: rules.Game | None,
    outcome: dict[str, Any],
    *,
    loser: str | None = None,
) -> None:
    """End a game the rules did not end (a resignation, a loss on time): record the
    result, stop timers and clocks, and queue the end post (with its rematch offer and
    ratings) and each player's closing DM, exactly as an end by the rules is told."""
    outcome = {"score": {}, **outcome}
    roles = tuple(rules_game.roles) if rules_game else tuple(s.role for s in seats)
    public: View | None = None
    lines: tuple[str, ...] = ()
    if rules_game is not None:
        try:
            public = rules_game.view(state_of(row), None)
            lines = tuple(public_log(public)[row.posted_log :])
        except Exception:  # a damaged record can still be ended: no board then
            public = None
    await db.set_status(row.id, "finished")
    await db.record_result(row.id, outcome["winner"], outcome["reason"], {}, outcome["code"])
    await db.delete_timers(row.id)
    await clock_pass.stop_all(db, row.id, loser=loser)
    post = TablePost(
        kind="end",
        version=row.version,
        headline=result_line(rules_game, outcome),
        view=public,
        log_lines=lines,
        mention_user_ids=tuple(dict.fromkeys(s.user_id for s in seats)),
        outcome=outcome,
    )
    post = await ratings.rated_post(db, row, seats, roles, post)
    post = await estimates.with_turning_point(db, row.id, seats, post)
    await db.queue(row.id, "table", None, post_payload(post))
    for seat in seats:
        if not seat.dm_failed:
            end = notices.end_message(
                rules_game, seat.role, version=row.version, view={"outcome": outcome}
            )
            await db.queue(row.id, "private", seat.role, message_payload(end))


async def abandon(db: Session, game_id: int, user_id: str, is_moderator: bool) -> AbandonResult:
    """Ask to end a game without a result; it ends when every seat asked, or a moderator.
    Dispatch's seats count as asking (the bot never would), so a player alone with the
    bot ends the game by asking.

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
    asked = {s.role for s in seats if s.abandon_requested or is_bot(s.user_id)} | set(mine)
    waiting = tuple(dict.fromkeys(s.user_id for s in seats if s.role not in asked))
    done = is_moderator or not waiting
    if done:
        await db.set_status(game_id, "abandoned")
        await db.delete_timers(game_id)
        await clock_pass.stop_all(db, game_id)
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


# -- the commit of a change ----------------------------------------------------------


#: Where a player's turn is announced unless they chose otherwise (``/game settings``).
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


def is_one_seat(rules_game: rules.Game) -> bool:
    """A game with a single role (the CDG Solo System): the player's table is their own, so
    the start post carries their prompt, nothing goes by DM and no reminder nags them."""
    return len(rules_game.roles) == 1


@dataclasses.dataclass
class Progress:
    """What a change did, for the ``ActResult`` of whoever made it."""

    active_now: tuple[str, ...]
    outcome: Mapping[str, Any] | None
    turn_passed: bool
    acting_view: View | None = None
    acting_private_lines: tuple[str, ...] = ()
    turn_started_at: float | None = None


async def commit_turn(
    db: Session,
    row: GameRow,
    seats: Sequence[SeatRow],
    rules_game: rules.Game,
    state: dict[str, Any],
    *,
    acting_role: str | None,
    active_before: Sequence[str],
    default_reminder_hours: float,
    start: bool = False,
    undo: bool = False,
) -> Progress:
    """Save the new state and queue what the players must be told (same transaction)."""
    now = db.now
    active_now = tuple(rules_game.active_roles(state))
    outcome = rules_game.outcome(state)
    public = rules_game.view(state, None)
    step = str(public.get("step", ""))
    # A turn passes when someone new must decide, when the game ends, or when a
    # simultaneous step the table was told about is complete (its last player may well
    # act next, but everyone should see what was revealed). One side of a simultaneous
    # step committing first is not a turn: the table is waiting for nobody new.
    simultaneous_done = len(row.posted_active) > 1 and step != row.posted_step
    turn_passed = (
        start
        or outcome is not None
        or bool(set(active_now) - set(active_before))
        or simultaneous_done
    )
    public_lines = public_log(public)
    posted = min(row.posted_log, len(public_lines))
    user_of = {s.role: s.user_id for s in seats}
    # One notification per hand-over, to whoever must now act and where they chose: the
    # player who just acted is never pinged for a decision that continues their own turn.
    handed_to = [r for r in active_now if start or (r not in active_before and r != acting_role)]
    prefs = (
        await db.notify_prefs(user_of[r] for r in handed_to if r in user_of) if handed_to else {}
    )
    parked = bool(handed_to) and await db.table_parked(row.id)
    by_channel, by_dm = notify_routes(seats, handed_to, prefs, table_parked=parked)
    one_seat = is_one_seat(rules_game)
    if one_seat:  # a solo session: its prompt is posted at the table, never DMed
        by_channel, by_dm = set(handed_to), set()
    mention = tuple(user_of[r] for r in handed_to if r in by_channel)
    if outcome is not None:  # the end concerns everyone at the table
        mention = tuple(dict.fromkeys(s.user_id for s in seats))

    # The clocks move in the same transaction as the turn (issue 26 §1, ``clock_pass``).
    change = clocks.Change(tuple(active_before), active_now, now, undo, outcome is not None)
    ticked, away = await clock_pass.tick(db, row, seats, change, start=start)
    if turn_passed:
        band = clock_pass.band(ticked, rules_game, now, away)  # the board's headline shows it
        post = notices.turn_post(
            rules_game,
            row.game_name,
            version=row.version,
            public=rules_game.view(state, rules_game.roles[0])
            if one_seat
            else ({**public, "clock_band": band} if band else public),
            new_lines=public_lines[posted:],
            active_now=active_now,
            mention=mention,
            start=start,
            acting=acting_role,
        )
        post = await ratings.rated_post(db, row, seats, rules_game.roles, post)
        post = await estimates.with_turning_point(db, row.id, seats, post)
        await db.queue(row.id, "table", None, post_payload(post))
        await db.set_posted_turn(row.id, active_now, step)
        posted = len(public_lines)

    progress = Progress(active_now=active_now, outcome=outcome, turn_passed=turn_passed)
    pending_dms: list[PrivateMessage] = []
    for seat in seats:
        view = rules_game.view(state, seat.role)
        private = private_log(view)
        new_lines = tuple(private[seat.private_seen :]) if len(private) > seat.private_seen else ()
        digest = decision_digest(view)
        new_prompt = digest != seat.prompt_digest or seat.role == acting_role
        if new_prompt or len(private) != seat.private_seen:
            await db.update_seat(
                row.id,
                seat.role,
                private_seen=len(private),
                prompt=(row.version, digest) if new_prompt else None,
            )
        if outcome is not None and not seat.dm_failed and not one_seat:
            # Each player's prompt is closed with the result, the acting player's too.
            end = notices.end_message(rules_game, seat.role, version=row.version, view=view)
            await db.queue(row.id, "private", seat.role, message_payload(end))
        if seat.role == acting_role:
            progress.acting_view = view
            progress.acting_private_lines = new_lines
            continue
        if seat.dm_failed:
            continue  # they read it with /game hand; the table already told them
        newly_active = seat.role in active_now and seat.role not in active_before
        message = notices.private_message(
            seat.role,
            version=row.version,
            view=view,
            new_lines=new_lines,
            your_turn=newly_active and outcome is None and seat.role in by_dm,
        )
        if message is not None:
            pending_dms.append(message)

    # Reminders: a fresh clock for whoever now owes a decision (acting counts as being
    # present), none for anyone who does not, nor for Dispatch, which is never late
    # (a move of its that fails is retried by ``bot.tables.bots``).
    if outcome is not None:
        await db.delete_timers(row.id)
    else:
        for role in set(active_before) - set(active_now):
            await db.delete_timers(row.id, role)
        clocked = [
            r
            for r in active_now
            if (r not in active_before or r == acting_role)
            and not one_seat
            and not is_bot(user_of.get(r))
        ]
        hours = await db.reminder_hours(row.channel_id, default_reminder_hours) if clocked else 0
        for role in clocked:
            await db.set_timer(
                row.id, "reminder", role, user_of.get(role), now + hours * 3600, hours * 3600
            )

    clock_lines = clock_pass.lines_for(ticked, seats, now, away_until=away)
    await _queue_turn_dms(db, row, pending_dms, clock_lines)
    if clock_lines and progress.acting_view is not None:  # the acting player's new prompt
        progress.acting_view = {**progress.acting_view, "clocks": clock_lines}
    turn_started = now if set(active_now) != set(active_before) else row.turn_started_at
    progress.turn_started_at = turn_started
    await db.save_play(
        row.id,
        state=state,
        version=row.version,
        active_roles=active_now,
        posted_log=posted,
        turn_started_at=turn_started,
    )
    # Dispatch's moves owed now, kept as jobs with the turn (issue 25 §4).
    await bot_jobs.owe_moves(
        db, row.id, row.version, seats, active_now, acting=acting_role, over=outcome is not None
    )
    if outcome is not None:
        await db.set_status(row.id, "finished")
        await db.record_result(
            row.id,
            outcome.get("winner"),
            str(outcome.get("reason", "")),
            dict(outcome.get("score") or {}),
            str(outcome.get("code") or "unrecorded"),
        )
    return progress


async def _queue_turn_dms(
    db: Session, row: GameRow, messages: Sequence[PrivateMessage], clock_lines: Sequence[str]
) -> None:
    """Queue the seats' DMs of a change; a "your turn" prompt carries the clocks (as
    Discord timestamps: ``clock_pass.lines_for``) when the game has them."""
    for message in messages:
        if message.kind == "turn" and clock_lines:
            message = dataclasses.replace(
                message, view={**message.view, "clocks": list(clock_lines)}
            )
        await db.queue(row.id, "private", message.role, message_payload(message))
