"""GameManager: lobby, actions, deliveries, reminders. Async, and no discord import.

Every change to a game is one SQLite transaction holding the new state, the action row and
the outbox rows that tell the players about it. Delivery happens after the commit, through
the front-end port, so a crash at any point loses nothing: whatever was committed but not
delivered is delivered by ``deliver_pending`` on the next start.

What goes out after an action (the play-by-post etiquette):
- a table post only when the turn completes: the set of active roles changed, or the game
  ended. A player's small sub-actions within one turn (place, place, done) post nothing, so
  the channel gets one message per turn with all the new log lines;
- a private "your turn" message to each role that has just become active;
- a private "reveal" to a non-acting role whose private log grew (the acting player gets
  their own new lines in the ``ActResult``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import logging
import random
import secrets
import sqlite3
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import rules
from bot import errors
from bot.ports import (
    AbandonResult,
    ActResult,
    ChannelSettings,
    FrontEnd,
    GameInfo,
    GameStatus,
    PlayerView,
    PrivateMessage,
    SeatInfo,
    TablePost,
    UserGame,
    View,
)
from bot.store import GameRow, OutboxRow, SeatRow, Session, Store, dumps

log = logging.getLogger("dispatch.manager")

#: A game is named by its id (int) or by the channel it is played in (str).
GameRef = int | str

DEFAULT_REMINDER_HOURS = 24.0
REMINDER_GROWTH = 2.0
RETRY_BASE_S = 5.0
RETRY_CAP_S = 3600.0


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else []


def _public_log(view: View) -> list[str]:
    return [str(x) for x in _list(view.get("log"))]


def _private_log(view: View) -> list[str]:
    # Not part of the minimal contract: games built on rules.core put a role's private
    # lines in view["private_log"]; a game without it simply sends no reveals.
    return [str(x) for x in _list(view.get("private_log"))]


#: How many lines of the public and private logs a queued view keeps. Boards show only the
#: latest lines and ``log_lines`` carries what is new, while the full log in every queued
#: message would grow the outbox with the square of the game's length.
VIEW_LOG_LINES = 50


#: What a prompt's buttons stand for: if none of it changed, an older button still asks
#: the same question.
DECISION_KEYS = ("step", "prompt", "actions", "labels", "private_log")


def _decision_digest(view: View) -> str:
    decision = {key: view.get(key) for key in DECISION_KEYS}
    return hashlib.sha256(dumps(decision).encode()).hexdigest()


def _fresh(expected_version: Any, seat: SeatRow, version: int) -> bool:
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


def _trimmed(view: View | None) -> View | None:
    if view is None:
        return None
    trimmed = dict(view)
    for key in ("log", "private_log"):
        lines = view.get(key)
        if isinstance(lines, list) and len(lines) > VIEW_LOG_LINES:
            trimmed[key] = lines[-VIEW_LOG_LINES:]
    return trimmed


def _post_payload(post: TablePost) -> dict[str, Any]:
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


def _message_payload(message: PrivateMessage) -> dict[str, Any]:
    return {
        "kind": message.kind,
        "role": message.role,
        "version": message.version,
        "headline": message.headline,
        "view": _trimmed(message.view),
        "log_lines": list(message.log_lines),
    }


def _post_from(payload: dict[str, Any]) -> TablePost:
    return TablePost(
        kind=payload["kind"],
        version=int(payload["version"]),
        headline=str(payload.get("headline", "")),
        view=payload.get("view"),
        log_lines=tuple(payload.get("log_lines", ())),
        mention_user_ids=tuple(payload.get("mention_user_ids", ())),
        active_roles=tuple(payload.get("active_roles", ())),
        outcome=payload.get("outcome"),
    )


def _message_from(payload: dict[str, Any]) -> PrivateMessage:
    return PrivateMessage(
        kind=payload["kind"],
        role=str(payload["role"]),
        version=int(payload["version"]),
        headline=str(payload.get("headline", "")),
        view=payload.get("view") or {},
        log_lines=tuple(payload.get("log_lines", ())),
    )


class GameManager:
    """Runs every game of one store. Front ends call it; it calls the front end back."""

    def __init__(
        self,
        store: Store,
        front_end: FrontEnd,
        *,
        default_reminder_hours: float = DEFAULT_REMINDER_HOURS,
        reminder_growth: float = REMINDER_GROWTH,
        retry_base_s: float = RETRY_BASE_S,
        retry_cap_s: float = RETRY_CAP_S,
    ) -> None:
        self.store = store
        self.front_end = front_end
        self.clock = store.clock
        self.default_reminder_hours = default_reminder_hours
        self.reminder_growth = reminder_growth
        self.retry_base_s = retry_base_s
        self.retry_cap_s = retry_cap_s
        self._game_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._delivery_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    @classmethod
    async def open(
        cls,
        path: str | Path,
        front_end: FrontEnd,
        *,
        clock: Callable[[], float] = time.time,
        deliver: bool = True,
        **kwargs: Any,
    ) -> GameManager:
        """Open the store (running migrations) and deliver what a previous run left."""
        store = await Store.open(path, clock=clock)
        manager = cls(store, front_end, **kwargs)
        if deliver:
            await manager.deliver_pending()
        return manager

    async def close(self) -> None:
        await self.store.close()

    # -- loading ------------------------------------------------------------------

    @staticmethod
    def _rules_or_none(name: str) -> rules.Game | None:
        try:
            return rules.get_game(name)
        except LookupError:
            return None

    def _rules(self, row: GameRow) -> rules.Game:
        game = self._rules_or_none(row.game_name)
        if game is None:
            raise errors.CorruptGame(row.id, f"unknown game “{row.game_name}”")
        return game

    @staticmethod
    def _state(row: GameRow) -> dict[str, Any]:
        try:
            state = json.loads(row.state_json or "")
        except ValueError:
            raise errors.CorruptGame(row.id, "the saved state is not valid JSON") from None
        if not isinstance(state, dict):
            raise errors.CorruptGame(row.id, "the saved state is not a document")
        return state

    def _info(self, row: GameRow, seats: Sequence[SeatRow]) -> GameInfo:
        game = self._rules_or_none(row.game_name)
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
        )

    async def _row(self, db: Session, ref: GameRef, *, live: bool) -> GameRow:
        if isinstance(ref, int):
            row = await db.game(ref)
            if row is None:
                raise errors.GameNotFound(f"Game #{ref}")
            return row
        row = await (db.live_game_in_channel(ref) if live else db.latest_game_in_channel(ref))
        if row is None:
            raise errors.NoGameInChannel()
        return row

    async def _game_id(self, ref: GameRef, *, live: bool = True) -> int:
        if isinstance(ref, int):
            return ref
        async with self.store.read() as db:
            return (await self._row(db, ref, live=live)).id

    def _role_name(self, game: rules.Game | None, role: str | None) -> str:
        if role is None:
            return "nobody"
        names = getattr(game, "role_names", None) or {}
        return str(names.get(role, role.title()))

    # -- lobby --------------------------------------------------------------------

    async def create_game(
        self,
        guild_id: str | None,
        channel_id: str,
        game_name: str,
        creator_id: str,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        seat: str | None = None,
        opponent_id: str | None = None,
        *,
        hotseat: bool = False,
    ) -> GameInfo:
        """Open a game in a channel and seat its creator.

        ``seat``: the creator's role, ``"random"``, or None for the first role.
        ``opponent_id`` takes the next free role (the game then starts at once if every
        role is seated). ``hotseat`` lets one user hold several seats (sandbox, testing).
        """
        game = self._rules_or_none(game_name)
        if game is None:
            raise errors.UnknownGame(game_name, rules.GAMES.keys())
        roles = tuple(game.roles)
        options = dict(options or {})
        seed = int(seed) if seed is not None else secrets.randbelow(2**31)
        try:
            # Set up now, not at start: bad options are refused while the creator is
            # still here, and the stored state is exactly setup(seed) either way.
            state = game.setup(seed=seed, options=options)
        except rules.RulesError as exc:
            raise errors.BadOptions(str(exc)) from None
        except (TypeError, ValueError, KeyError) as exc:
            raise errors.BadOptions(str(exc) or type(exc).__name__) from None

        if seat is None:
            creator_role = roles[0]
        elif seat == "random":
            # Seeded, so an exported game shows how the seats were drawn.
            creator_role = random.Random(seed).choice(roles)
        elif seat in roles:
            creator_role = seat
        else:
            raise errors.UnknownRole(seat, roles)
        seating = [(creator_role, creator_id)]
        if opponent_id is not None:
            if opponent_id == creator_id and not hotseat:
                raise errors.AlreadySeated(creator_role)
            free = [r for r in roles if r != creator_role]
            if not free:
                raise errors.NoFreeSeat()
            seating.append((free[0], opponent_id))

        try:
            async with self.store.transaction() as db:
                busy = await db.live_game_in_channel(channel_id)
                if busy is not None:
                    raise errors.ChannelBusy(busy.id)
                game_id = await db.insert_game(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    game_name=game_name,
                    options=options,
                    seed=seed,
                    creator_id=creator_id,
                    hotseat=hotseat,
                    state=state,
                )
                for role, user in seating:
                    await db.add_seat(game_id, role, user)
                if len(seating) == len(roles):
                    await self._start(db, game_id)
                info = await self._info_in(db, game_id)
        except sqlite3.IntegrityError:
            # Another creator won the race for this channel (the partial unique index).
            async with self.store.read() as db:
                busy = await db.live_game_in_channel(channel_id)
            raise errors.ChannelBusy(busy.id if busy else 0) from None
        log.info(
            "game=%d created %s in channel %s by %s", game_id, game_name, channel_id, creator_id
        )
        await self.deliver_due(game_id)
        return info

    async def _info_in(self, db: Session, game_id: int) -> GameInfo:
        row = await db.game(game_id)
        assert row is not None
        return self._info(row, await db.seats(game_id))

    async def join(self, game: GameRef, user_id: str, role: str | None = None) -> GameInfo:
        """Take a seat (``role`` or the first free one); the game starts when all are taken."""
        game_id = await self._game_id(game)
        async with self._game_locks[game_id], self.store.transaction() as db:
            row = await self._row(db, game_id, live=True)
            if row.status != "lobby":
                raise errors.GameNotActive(row.status)
            rules_game = self._rules(row)
            roles = tuple(rules_game.roles)
            seats = await db.seats(game_id)
            taken = {s.role: s.user_id for s in seats}
            mine = [s.role for s in seats if s.user_id == user_id]
            if mine and not row.hotseat:
                raise errors.AlreadySeated(mine[0])
            if role is None or role == "random":
                free = [r for r in roles if r not in taken]
                if not free:
                    raise errors.NoFreeSeat()
                role = random.Random(row.seed).choice(free) if role == "random" else free[0]
            elif role not in roles:
                raise errors.UnknownRole(role, roles)
            elif role in taken:
                raise errors.SeatTaken(role)
            await db.add_seat(game_id, role, user_id)
            if len(taken) + 1 == len(roles):
                await self._start(db, game_id)
            info = await self._info_in(db, game_id)
        log.info("game=%d %s joined as %s", game_id, user_id, role)
        await self.deliver_due(game_id)
        return info

    async def leave(self, game: GameRef, user_id: str) -> GameInfo:
        """Give up a seat before the game starts; an empty lobby is cancelled."""
        game_id = await self._game_id(game)
        async with self._game_locks[game_id], self.store.transaction() as db:
            row = await self._row(db, game_id, live=True)
            if row.status != "lobby":
                raise errors.NotAllowed(
                    "The game has started, so seats are fixed: use resign to concede it."
                )
            seats = await db.seats(game_id)
            mine = [s.role for s in seats if s.user_id == user_id]
            if not mine:
                raise errors.NotSeated()
            for role in mine:
                await db.remove_seat(game_id, role)
            if len(mine) == len(seats):
                await db.set_status(game_id, "cancelled")
            return await self._info_in(db, game_id)

    async def cancel(self, game: GameRef, user_id: str, is_moderator: bool = False) -> GameInfo:
        """The creator (or a moderator) calls off a game that has not started."""
        game_id = await self._game_id(game)
        async with self._game_locks[game_id], self.store.transaction() as db:
            row = await self._row(db, game_id, live=True)
            if row.status != "lobby":
                raise errors.NotAllowed(
                    "Only a game still waiting for players can be cancelled; "
                    "a running game can be resigned or abandoned."
                )
            if row.creator_id != user_id and not is_moderator:
                raise errors.NotCreator()
            await db.set_status(game_id, "cancelled")
            return await self._info_in(db, game_id)

    async def _start(self, db: Session, game_id: int) -> None:
        """Every seat is taken: the game begins with its set-up state (version 0)."""
        row = await db.game(game_id)
        assert row is not None
        await db.set_status(game_id, "active")
        row = dataclasses.replace(row, status="active")
        seats = await db.seats(game_id)
        state = self._state(row)
        await self._record_progress(
            db, row, seats, self._rules(row), state, acting_role=None, active_before=(), start=True
        )

    # -- playing ------------------------------------------------------------------

    async def act(
        self,
        game: GameRef,
        user_id: str,
        verb: str,
        arg: Any = None,
        expected_version: int | None = None,
        *,
        role: str | None = None,
    ) -> ActResult:
        """Apply one decision of ``user_id``; nothing changes unless it is legal and fresh."""
        started = time.perf_counter()
        game_id = await self._game_id(game)
        async with self._game_locks[game_id]:
            async with self.store.read() as db:
                row = await self._row(db, game_id, live=False)
                seats = await db.seats(game_id)
            if row.status != "active":
                raise errors.GameNotActive(row.status)
            rules_game = self._rules(row)
            state = self._state(row)
            role = self._acting_role(rules_game, state, seats, user_id, role)
            seat = next(s for s in seats if s.role == role)
            if expected_version is not None and not _fresh(expected_version, seat, row.version):
                prompt = str(rules_game.view(state, role).get("prompt", ""))
                raise errors.StalePrompt(row.version, prompt)
            active_before = tuple(rules_game.active_roles(state))
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
                log.exception("game=%d rules engine failed on %s %r", game_id, verb, arg)
                raise errors.IllegalMove(
                    "That action could not be applied because of an error in the game "
                    "rules; nothing changed. Please report it."
                ) from None
            after = json.loads(encoded)
            version = row.version + 1
            async with self.store.transaction() as db:
                fresh = await db.game(game_id)
                if fresh is None or fresh.version != row.version:
                    # Another process wrote this game between our read and now.
                    prompt = str(rules_game.view(state, role).get("prompt", ""))
                    raise errors.StalePrompt(fresh.version if fresh else row.version, prompt)
                await db.append_action(game_id, version, role, user_id, verb, arg)
                row = dataclasses.replace(row, version=version)
                progress = await self._record_progress(
                    db, row, seats, rules_game, after, acting_role=role, active_before=active_before
                )
                info = await self._info_in(db, game_id)
        elapsed = (time.perf_counter() - started) * 1000
        log.info(
            "game=%d user=%s role=%s verb=%s arg=%r version=%d %.1fms",
            game_id,
            user_id,
            role,
            verb,
            arg,
            version,
            elapsed,
        )
        # Outside the game lock: a slow delivery must not hold up the next player.
        await self.deliver_due(game_id)
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

    def _acting_role(
        self,
        rules_game: rules.Game,
        state: dict[str, Any],
        seats: Sequence[SeatRow],
        user_id: str,
        role: str | None,
    ) -> str:
        mine = [s.role for s in seats if s.user_id == user_id]
        if not mine:
            raise errors.NotSeated()
        if role is not None:
            if role not in mine:
                raise errors.NotAllowed(f"You do not hold the {role} seat in this game.")
            return role
        if len(mine) == 1:
            return mine[0]
        active = [r for r in mine if r in rules_game.active_roles(state)]
        if len(active) == 1:
            return active[0]
        raise errors.ChooseRole(active or mine)

    async def _record_progress(
        self,
        db: Session,
        row: GameRow,
        seats: Sequence[SeatRow],
        rules_game: rules.Game,
        state: dict[str, Any],
        *,
        acting_role: str | None,
        active_before: Sequence[str],
        start: bool = False,
    ) -> _Progress:
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
        public_log = _public_log(public)
        posted = min(row.posted_log, len(public_log))
        user_of = {s.role: s.user_id for s in seats}
        mention = tuple(user_of[r] for r in active_now if r in user_of)

        if turn_passed:
            if outcome is not None:
                kind = "end"
                headline = self._result_line(rules_game, outcome)
            else:
                kind = "start" if start else "turn"
                names = " and ".join(self._role_name(rules_game, r) for r in active_now)
                headline = f"{names} to act." if names else ""
                if start:
                    headline = f"{rules_game.title or row.game_name} begins. {headline}".strip()
            post = TablePost(
                kind=kind,
                version=row.version,
                headline=headline,
                view=public,
                log_lines=tuple(public_log[posted:]),
                mention_user_ids=() if outcome else mention,
                active_roles=active_now,
                outcome=outcome,
            )
            await db.queue(row.id, "table", None, _post_payload(post))
            await db.set_posted_turn(row.id, active_now, step)
            posted = len(public_log)

        progress = _Progress(active_now=active_now, outcome=outcome, turn_passed=turn_passed)
        for seat in seats:
            view = rules_game.view(state, seat.role)
            private = _private_log(view)
            new_lines = (
                tuple(private[seat.private_seen :]) if len(private) > seat.private_seen else ()
            )
            if len(private) != seat.private_seen:
                await db.set_private_seen(row.id, seat.role, len(private))
            digest = _decision_digest(view)
            if digest != seat.prompt_digest or seat.role == acting_role:
                await db.set_prompt(row.id, seat.role, row.version, digest)
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
            await db.queue(row.id, "private", seat.role, _message_payload(message))

        # Reminders: a fresh clock for whoever now owes a decision (acting counts as being
        # present), none for anyone who does not.
        if outcome is not None:
            await db.delete_timers(row.id)
        else:
            hours = await db.reminder_hours(row.channel_id, self.default_reminder_hours)
            for role in set(active_before) - set(active_now):
                await db.delete_timers(row.id, role)
            for role in active_now:
                if role not in active_before or role == acting_role:
                    await db.set_timer(
                        row.id,
                        "reminder",
                        role,
                        user_of.get(role),
                        now + hours * 3600,
                        hours * 3600,
                    )

        turn_started = now if set(active_now) != set(active_before) else row.turn_started_at
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

    def _result_line(self, rules_game: rules.Game | None, outcome: dict[str, Any]) -> str:
        winner = outcome.get("winner")
        reason = str(outcome.get("reason") or "").strip()
        head = f"{self._role_name(rules_game, winner)} wins" if winner else "The game is drawn"
        return f"Game over: {head}" + (f" ({reason})." if reason else ".")

    async def undo(
        self,
        game: GameRef,
        user_id: str,
        expected_version: int | None = None,
        *,
        role: str | None = None,
    ) -> ActResult:
        """Take back your own last small decision, when the rules list ``undo``."""
        pv = await self.view_for(game, user_id, role=role)
        if pv.role is None:
            raise errors.NotSeated()
        listed = pv.view.get("actions", {}).get("undo")
        if not listed:
            raise errors.NothingToUndo()
        arg = listed[0] if isinstance(listed, list) and listed else None
        return await self.act(pv.game.id, user_id, "undo", arg, expected_version, role=pv.role)

    async def resign(self, game: GameRef, user_id: str, *, role: str | None = None) -> GameInfo:
        """Concede: with two sides the other one wins; the result is recorded."""
        game_id = await self._game_id(game)
        async with self._game_locks[game_id], self.store.transaction() as db:
            row = await self._row(db, game_id, live=False)
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
            rules_game = self._rules_or_none(row.game_name)
            roles = tuple(rules_game.roles) if rules_game else tuple(s.role for s in seats)
            others = [r for r in roles if r != role]
            winner = others[0] if len(others) == 1 else None
            reason = f"{self._role_name(rules_game, role)} resigned"
            outcome = {"winner": winner, "reason": reason, "score": {}}
            public: View | None = None
            lines: tuple[str, ...] = ()
            if rules_game is not None:
                try:
                    public = rules_game.view(self._state(row), None)
                    lines = tuple(_public_log(public)[row.posted_log :])
                except (errors.CorruptGame, rules.RulesError):
                    public = None
            await db.set_status(game_id, "finished")
            await db.record_result(game_id, winner, reason, {})
            await db.delete_timers(game_id)
            post = TablePost(
                kind="end",
                version=row.version,
                headline=self._result_line(rules_game, outcome),
                view=public,
                log_lines=lines,
                outcome=outcome,
            )
            await db.queue(game_id, "table", None, _post_payload(post))
            info = await self._info_in(db, game_id)
        log.info("game=%d user=%s resigned as %s", game_id, user_id, role)
        await self.deliver_due(game_id)
        return info

    async def abandon(
        self, game: GameRef, user_id: str, is_moderator: bool = False
    ) -> AbandonResult:
        """End a game without a result: every seated player must ask, or one moderator.

        Works on a game whose saved state is damaged, so a channel is never stuck.
        """
        game_id = await self._game_id(game)
        async with self._game_locks[game_id], self.store.transaction() as db:
            row = await self._row(db, game_id, live=False)
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
            await db.queue(game_id, "table", None, _post_payload(post))
            info = await self._info_in(db, game_id)
        await self.deliver_due(game_id)
        return AbandonResult(info, done, () if done else waiting)

    # -- queries ------------------------------------------------------------------

    async def game_in_channel(self, channel_id: str) -> GameInfo | None:
        """The channel's game being set up or played, if any."""
        async with self.store.read() as db:
            row = await db.live_game_in_channel(channel_id)
            return self._info(row, await db.seats(row.id)) if row else None

    async def get_game_info(self, game: GameRef) -> GameInfo:
        async with self.store.read() as db:
            row = await self._row(db, game, live=False)
            return self._info(row, await db.seats(row.id))

    async def view_for(
        self, game: GameRef, user_id: str | None, *, role: str | None = None
    ) -> PlayerView:
        """A player's own view (prompt, actions, hand); observers get the public view."""
        async with self.store.read() as db:
            row = await self._row(db, game, live=False)
            seats = await db.seats(row.id)
        if row.status in ("lobby", "cancelled"):
            raise errors.GameNotActive(row.status)
        rules_game = self._rules(row)
        state = self._state(row)
        mine = [s.role for s in seats if s.user_id == user_id]
        if role is not None and role not in mine:
            raise errors.NotAllowed(f"You do not hold the {role} seat in this game.")
        if role is None and mine:
            active = [r for r in mine if r in rules_game.active_roles(state)]
            role = (active or mine)[0]
        return PlayerView(self._info(row, seats), role, row.version, rules_game.view(state, role))

    async def log(self, game: GameRef, count: int = 20) -> list[str]:
        """The last ``count`` public log lines."""
        pv = await self.view_for(game, None)
        lines = _public_log(pv.view)
        return lines[-count:] if count > 0 else []

    async def games_for_user(self, user_id: str) -> list[UserGame]:
        """The user's games being set up or played, with whose turn it is and since when."""
        async with self.store.read() as db:
            rows = await db.games_of_user(user_id)
            listed = [(row, await db.seats(row.id)) for row in rows]
        result: list[UserGame] = []
        for row, seats in listed:
            info = self._info(row, seats)
            roles = info.roles_of(user_id)
            result.append(
                UserGame(
                    game=info,
                    roles=roles,
                    my_turn=any(r in info.active_roles for r in roles),
                    waiting_on=info.waiting_on,
                    since=row.turn_started_at,
                )
            )
        return result

    async def export(self, game: GameRef) -> dict[str, Any]:
        """Everything needed to replay the game elsewhere: name, options, seed, actions."""
        async with self.store.read() as db:
            row = await self._row(db, game, live=False)
            seats = await db.seats(row.id)
            actions = await db.actions(row.id)
            result = await db.result(row.id)
        try:
            options = json.loads(row.options_json)
        except ValueError:
            options = None
        return {
            "id": row.id,
            "game": row.game_name,
            "options": options,
            "seed": row.seed,
            "status": row.status,
            "version": row.version,
            "seats": {s.role: s.user_id for s in seats},
            "actions": [
                {"seq": a.seq, "role": a.role, "user": a.user_id, "verb": a.verb, "arg": a.arg}
                for a in actions
            ],
            "result": dataclasses.asdict(result) if result else None,
            "created_at": row.created_at,
        }

    async def replay(self, game: GameRef) -> dict[str, Any]:
        """setup(seed) + every stored action, in order: the state the game must have."""
        data = await self.export(game)
        rules_game = self._rules_or_none(data["game"])
        if rules_game is None or data["options"] is None:
            raise errors.CorruptGame(data["id"], "cannot replay this game")
        state = rules_game.setup(seed=data["seed"], options=data["options"])
        for action in data["actions"]:
            state = rules_game.act(state, action["role"], action["verb"], action["arg"])
        result: dict[str, Any] = json.loads(dumps(state))
        return result

    async def verify_replay(self, game: GameRef) -> bool:
        """True when replaying the action log gives exactly the stored state."""
        replayed = await self.replay(game)
        async with self.store.read() as db:
            row = await self._row(db, game, live=False)
        return row.state_json == dumps(replayed)

    async def settings(
        self, channel_id: str, reminder_hours: float | None = None, guild_id: str | None = None
    ) -> ChannelSettings:
        """Read, or set when ``reminder_hours`` is given, a channel's reminder interval."""
        if reminder_hours is None:
            async with self.store.read() as db:
                hours = await db.reminder_hours(channel_id, self.default_reminder_hours)
            return ChannelSettings(channel_id, hours)
        if not 0 < reminder_hours <= 24 * 30:
            raise errors.NotAllowed("Reminders can be set between a few minutes and 720 hours.")
        async with self.store.transaction() as db:
            await db.set_reminder_hours(channel_id, guild_id, float(reminder_hours))
        return ChannelSettings(channel_id, float(reminder_hours))

    async def clear_dm_failed(self, user_id: str) -> int:
        """The user opened their DMs again: send them private messages from now on."""
        async with self.store.transaction() as db:
            return await db.clear_dm_failed_for_user(user_id)

    # -- delivery -----------------------------------------------------------------

    async def deliver_pending(self) -> int:
        """Start-up: deliver everything committed but not delivered, ignoring backoff."""
        return await self.deliver_due(ignore_backoff=True)

    async def deliver_due(self, game_id: int | None = None, *, ignore_backoff: bool = False) -> int:
        """Deliver undelivered outbox rows in order; return how many were delivered.

        Order is kept per stream (the table, and each seat's DMs): a row waiting for its
        retry holds back the later rows of its stream, not the other streams.
        """
        async with self.store.read() as db:
            pending = await db.undelivered(game_id)
        delivered = 0
        for gid in dict.fromkeys(r.game_id for r in pending):
            delivered += await self._deliver_game(gid, ignore_backoff)
        return delivered

    async def _deliver_game(self, game_id: int, ignore_backoff: bool) -> int:
        delivered = 0
        async with self._delivery_locks[game_id]:
            # A DM failure queues a table notice; a second pass delivers it right away.
            for _ in range(3):
                async with self.store.read() as db:
                    rows = await db.undelivered(game_id)
                if not rows:
                    break
                count, queued_more = await self._deliver_rows(game_id, rows, ignore_backoff)
                delivered += count
                if not queued_more:
                    break
        return delivered

    async def _deliver_rows(
        self, game_id: int, rows: list[OutboxRow], ignore_backoff: bool
    ) -> tuple[int, bool]:
        delivered = 0
        queued_more = False
        blocked: set[str | None] = set()
        info: GameInfo | None = None
        for row in rows:
            stream = row.target if row.kind == "private" else None
            if stream in blocked:
                continue
            if not ignore_backoff and row.next_attempt_at > self.clock():
                blocked.add(stream)
                continue
            if info is None:  # loaded once per pass, again after a seat changed
                async with self.store.read() as db:
                    game_row = await db.game(game_id)
                    seats = await db.seats(game_id)
                if game_row is None:
                    return delivered, queued_more
                info = self._info(game_row, seats)
            try:
                payload = json.loads(row.payload_json)
                post = _post_from(payload) if row.kind == "table" else None
                message = _message_from(payload) if row.kind == "private" else None
            except (ValueError, KeyError, TypeError) as exc:
                # Our own rows are written by this module; an unreadable one can only come
                # from damage. Retrying would not help and must not block the stream.
                log.error("outbox row %d is unreadable, dropped: %r", row.id, exc)
                async with self.store.transaction() as db:
                    await db.mark_delivered(row.id, f"unreadable: {exc!r}")
                continue
            try:
                if post is not None:
                    await self.front_end.post_table(info, post)
                elif message is not None:
                    seat = info.seat_of(message.role)
                    skip = self._skip_private(info, seat, message)
                    if skip:
                        async with self.store.transaction() as db:
                            await db.mark_delivered(row.id, skip)
                        continue
                    assert seat is not None
                    await self.front_end.send_private(info, seat, message)
            except errors.DirectMessageClosed:
                queued_more |= await self._dm_closed(row, info)
                info = None
                continue
            except Exception as exc:
                # DeliveryRetry or anything unexpected: never lost, retried with backoff.
                await self._failed(row, exc)
                blocked.add(stream)
                continue
            async with self.store.transaction() as db:
                await db.mark_delivered(row.id)
            delivered += 1
        return delivered, queued_more

    @staticmethod
    def _skip_private(info: GameInfo, seat: SeatInfo | None, message: PrivateMessage) -> str:
        """Why a private message should not go out (empty: send it)."""
        if seat is None:
            return "no such seat"
        if seat.dm_failed:
            return "dm closed"
        # A "your turn" prompt that waited for a retry is worthless once the turn is over.
        if message.kind in ("turn", "reminder") and (
            info.status != "active" or message.role not in info.active_roles
        ):
            return "superseded"
        return ""

    async def _failed(self, row: OutboxRow, exc: BaseException) -> None:
        delay = min(self.retry_base_s * 2**row.attempts, self.retry_cap_s)
        log.warning(
            "delivery of outbox row %d (game %d) failed, attempt %d, retry in %.0fs: %r",
            row.id,
            row.game_id,
            row.attempts + 1,
            delay,
            exc,
        )
        async with self.store.transaction() as db:
            await db.mark_failed(row.id, repr(exc), db.now + delay)

    async def _dm_closed(self, row: OutboxRow, info: GameInfo) -> bool:
        """Mark the seat, and tell the player once, at the table, where to look instead."""
        seat = info.seat_of(row.target or "")
        async with self.store.transaction() as db:
            await db.mark_delivered(row.id, "dm closed")
            if seat is None or seat.dm_failed:
                return False
            await db.set_dm_failed(row.game_id, seat.role, True)
            post = TablePost(
                kind="notice",
                version=info.version,
                headline="I cannot send you direct messages. Use /game hand to see your "
                "hand and your prompt (only you will see it).",
                mention_user_ids=(seat.user_id,),
            )
            await db.queue(row.game_id, "table", None, _post_payload(post))
        log.info("game=%d seat %s refuses DMs; told at the table", row.game_id, seat.role)
        return True

    # -- reminders ----------------------------------------------------------------

    async def fire_due_timers(self) -> int:
        """Nudge every player whose reminder is due, then space the next one out further."""
        async with self.store.read() as db:
            due = await db.due_timers(self.clock())
        fired = 0
        for timer in due:
            async with self._game_locks[timer.game_id], self.store.transaction() as db:
                row = await db.game(timer.game_id)
                if row is None or row.status != "active" or timer.role not in row.active_roles:
                    await db.delete_timer(timer.id)
                    continue
                seats = await db.seats(row.id)
                seat = next((s for s in seats if s.role == timer.role), None)
                if seat is None:
                    await db.delete_timer(timer.id)
                    continue
                try:
                    view = self._rules(row).view(self._state(row), seat.role)
                except (errors.CorruptGame, rules.RulesError) as exc:
                    log.error("game=%d reminder dropped: %s", row.id, exc)
                    await db.delete_timer(timer.id)
                    continue
                hours = timer.interval_s / 3600
                waited = (
                    f"{hours:.0f} hours" if hours >= 1 else f"{timer.interval_s / 60:.0f} minutes"
                )
                if not seat.dm_failed:
                    message = PrivateMessage(
                        kind="reminder",
                        role=seat.role,
                        version=row.version,
                        headline=f"Reminder: your game has been waiting for you for {waited}.",
                        view=view,
                    )
                    await db.queue(row.id, "private", seat.role, _message_payload(message))
                post = TablePost(
                    kind="reminder",
                    version=row.version,
                    headline="Reminder: the game is waiting for your move.",
                    mention_user_ids=(seat.user_id,),
                    active_roles=row.active_roles,
                )
                await db.queue(row.id, "table", None, _post_payload(post))
                interval = timer.interval_s * self.reminder_growth
                await db.reschedule_timer(timer.id, db.now + interval, interval)
                fired += 1
        if fired:
            await self.deliver_due()
        return fired

    async def run_background(self, interval_s: float = 5.0) -> None:
        """Retry deliveries and fire reminders forever; run it as a task, cancel to stop."""
        while True:
            try:
                await self.deliver_due()
                await self.fire_due_timers()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("background delivery pass failed")
            await asyncio.sleep(interval_s)

    #: The name the design notes use for the same loop.
    run_delivery_loop = run_background


@dataclasses.dataclass
class _Progress:
    active_now: tuple[str, ...]
    outcome: dict[str, Any] | None
    turn_passed: bool
    acting_view: View | None = None
    acting_private_lines: tuple[str, ...] = ()
