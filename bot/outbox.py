"""What the players are told after a change, queued in the same transaction as the change.

What goes out after an action (the play-by-post etiquette):
- a table post only when the turn completes: the set of active roles changed, or the game
  ended. A player's small sub-actions within one turn (place, place, done) post nothing, so
  the channel gets one message per turn with all the new log lines;
- a private "your turn" message to each role that has just become active;
- a private "reveal" to a non-acting role whose private log grew (the acting player gets
  their own new lines in the ``ActResult``).

Outbox rows hold these posts and messages as JSON payloads; ``bot.delivery`` reads them
back and hands them to the front end.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from typing import Any

import rules
from bot.ports import PrivateMessage, TablePost, View
from bot.store import GameRow, SeatRow, Session, dumps


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else []


def public_log(view: View) -> list[str]:
    return [str(x) for x in _list(view.get("log"))]


def private_log(view: View) -> list[str]:
    # Not part of the minimal contract: games built on rules.core put a role's private
    # lines in view["private_log"]; a game without it simply sends no reveals.
    return [str(x) for x in _list(view.get("private_log"))]


def role_name(game: rules.Game | None, role: str | None) -> str:
    if role is None:
        return "nobody"
    names = getattr(game, "role_names", None) or {}
    return str(names.get(role, role.title()))


def result_line(rules_game: rules.Game | None, outcome: dict[str, Any]) -> str:
    winner = outcome.get("winner")
    reason = str(outcome.get("reason") or "").strip()
    head = f"{role_name(rules_game, winner)} wins" if winner else "The game is drawn"
    return f"Game over: {head}" + (f" ({reason})." if reason else ".")


# -- prompts and their freshness ----------------------------------------------------

#: What a prompt's buttons stand for: if none of it changed, an older button still asks
#: the same question.
DECISION_KEYS = ("step", "prompt", "actions", "labels", "private_log")


def decision_digest(view: View) -> str:
    decision = {key: view.get(key) for key in DECISION_KEYS}
    return hashlib.sha256(dumps(decision).encode()).hexdigest()


def fresh(expected_version: Any, seat: SeatRow, version: int) -> bool:
    """Whether a button drawn at ``expected_version`` still stands for this seat's decision.

    It must not come from the future (a forged id), and this seat's decision must not have
    changed since: the other side acting in a simultaneous step does not outdate it, but
    the seat's own action always does, so a double click never applies twice.
    """
    try:
        drawn_at = int(expected_version)
    except (TypeError, ValueError):
        return False
    return seat.prompt_version <= drawn_at <= version


# -- payloads -----------------------------------------------------------------------

#: How many lines of the public and private logs a queued view keeps. Boards show only the
#: latest lines and ``log_lines`` carries what is new, while the full log in every queued
#: message would grow the outbox with the square of the game's length.
VIEW_LOG_LINES = 50


def _trimmed(view: View | None) -> View | None:
    if view is None:
        return None
    trimmed = dict(view)
    for key in ("log", "private_log"):
        lines = view.get(key)
        if isinstance(lines, list) and len(lines) > VIEW_LOG_LINES:
            trimmed[key] = lines[-VIEW_LOG_LINES:]
    return trimmed


def post_payload(post: TablePost) -> dict[str, Any]:
    # Field by field rather than dataclasses.asdict, which deep-copies every view.
    return {
        "kind": post.kind,
        "version": post.version,
        "headline": post.headline,
        "view": _trimmed(post.view),
        "log_lines": list(post.log_lines),
        "mention_user_ids": list(post.mention_user_ids),
        "active_roles": list(post.active_roles),
        "outcome": post.outcome,
    }


def message_payload(message: PrivateMessage) -> dict[str, Any]:
    return {
        "kind": message.kind,
        "role": message.role,
        "version": message.version,
        "headline": message.headline,
        "view": _trimmed(message.view),
        "log_lines": list(message.log_lines),
    }


#: Discord's limit on a message nonce.
NONCE_MAX_LEN = 25


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


def delivery_nonce(row_id: int, created_at: float) -> str:
    """The nonce every send of one outbox row carries, e.g. ``dsp42.lx3f9k2a``.

    Discord returns the first message for a repeated nonce (same bot, within a few
    minutes), so a row sent again after a crash between sending and marking posts once.
    The row id alone is unique within one database; the row's creation time (epoch ms)
    keeps a fresh database's row 1 from matching an older database's row 1 when the bot is
    reset and restarted within those minutes. At most 25 characters (Discord's limit) for
    row ids below 10**12 until the year 2200.
    """
    return f"dsp{row_id}.{_base36(max(0, int(created_at * 1000)))}"


def post_from(payload: dict[str, Any], *, nonce: str = "") -> TablePost:
    return TablePost(
        kind=payload["kind"],
        version=int(payload["version"]),
        headline=str(payload.get("headline", "")),
        view=payload.get("view"),
        log_lines=tuple(payload.get("log_lines", ())),
        mention_user_ids=tuple(payload.get("mention_user_ids", ())),
        active_roles=tuple(payload.get("active_roles", ())),
        outcome=payload.get("outcome"),
        nonce=nonce,
    )


def message_from(payload: dict[str, Any], *, nonce: str = "") -> PrivateMessage:
    return PrivateMessage(
        kind=payload["kind"],
        role=str(payload["role"]),
        version=int(payload["version"]),
        headline=str(payload.get("headline", "")),
        view=payload.get("view") or {},
        log_lines=tuple(payload.get("log_lines", ())),
        nonce=nonce,
    )


# -- after a change -------------------------------------------------------------------


@dataclasses.dataclass
class Progress:
    """What a change did, for the ``ActResult`` of whoever made it."""

    active_now: tuple[str, ...]
    outcome: dict[str, Any] | None
    turn_passed: bool
    acting_view: View | None = None
    acting_private_lines: tuple[str, ...] = ()
    turn_started_at: float | None = None


async def record_progress(
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
    mention = tuple(user_of[r] for r in active_now if r in user_of)

    if turn_passed:
        if outcome is not None:
            kind = "end"
            headline = result_line(rules_game, outcome)
        else:
            kind = "start" if start else "turn"
            names = " and ".join(role_name(rules_game, r) for r in active_now)
            headline = f"{names} to act." if names else ""
            if start:
                headline = f"{rules_game.title or row.game_name} begins. {headline}".strip()
        post = TablePost(
            kind=kind,
            version=row.version,
            headline=headline,
            view=public,
            log_lines=tuple(public_lines[posted:]),
            mention_user_ids=() if outcome else mention,
            active_roles=active_now,
            outcome=outcome,
        )
        await db.queue(row.id, "table", None, post_payload(post))
        await db.set_posted_turn(row.id, active_now, step)
        posted = len(public_lines)

    progress = Progress(active_now=active_now, outcome=outcome, turn_passed=turn_passed)
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
        if seat.role == acting_role:
            progress.acting_view = view
            progress.acting_private_lines = new_lines
            continue
        newly_active = seat.role in active_now and seat.role not in active_before
        if seat.dm_failed:
            continue  # they read it with /game hand; the table already told them
        if newly_active and outcome is None:
            message = PrivateMessage(
                kind="turn",
                role=seat.role,
                version=row.version,
                headline=str(view.get("prompt", "")) or "Your turn.",
                view=view,
                log_lines=new_lines,
            )
        elif new_lines:
            message = PrivateMessage(
                kind="reveal",
                role=seat.role,
                version=row.version,
                headline="New information for you.",
                view=view,
                log_lines=new_lines,
            )
        else:
            continue
        await db.queue(row.id, "private", seat.role, message_payload(message))

    # Reminders: a fresh clock for whoever now owes a decision (acting counts as being
    # present), none for anyone who does not.
    if outcome is not None:
        await db.delete_timers(row.id)
    else:
        for role in set(active_before) - set(active_now):
            await db.delete_timers(row.id, role)
        clocked = [r for r in active_now if r not in active_before or r == acting_role]
        hours = await db.reminder_hours(row.channel_id, default_reminder_hours) if clocked else 0
        for role in clocked:
            await db.set_timer(
                row.id, "reminder", role, user_of.get(role), now + hours * 3600, hours * 3600
            )

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
    if outcome is not None:
        await db.set_status(row.id, "finished")
        await db.record_result(
            row.id,
            outcome.get("winner"),
            str(outcome.get("reason", "")),
            dict(outcome.get("score") or {}),
        )
    return progress
