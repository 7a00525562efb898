"""Delivering the outbox through the front end: in order per stream, retried with backoff.

A stream is the table, or one seat's private messages. A row that fails is never lost: it
waits for its retry (doubling up to a cap) and holds back the later rows of its stream
only. A player whose DMs are closed is marked and told once, at the table, to use
``/game hand``; their private messages are dropped from then on.

A table the bot may not post in (permissions taken away, the channel
deleted, the thread locked) is not retried for ever: the row is parked (its next attempt
put off by ``PARKED_S``; it holds back the table's later rows, which wait with it), and the
players are told once by DM what to grant and how to resume. The game is not lost: its
DMs go on, and a pass that ignores backoff (``/game status`` in the channel once it is
fixed, or the next start-up) sends what waited, in order; if the channel still refuses,
the row is parked again and nobody is told twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
from collections import defaultdict
from collections.abc import AsyncIterator, Callable

from bot import errors
from bot.delivery import unreachable
from bot.delivery.notices import private_message
from bot.delivery.outbox import (
    NONCE_WINDOW_S,
    delivery_nonce,
    message_from,
    message_payload,
    post_from,
    post_payload,
)
from bot.delivery.port import FindsSent, FrontEnd, GameInfo, PrivateMessage, SeatInfo, TablePost
from bot.delivery.reading import GameReader
from bot.delivery.routes import DEFAULT_NOTIFY
from bot.storage.errors import Damaged, StoreError
from bot.storage.queries import PARKED_ERROR
from bot.storage.rows import OutboxRow
from bot.storage.session import Session
from bot.storage.store import LEASE_S, Store

log = logging.getLogger("dispatch.manager")

RETRY_BASE_S = 5.0
RETRY_CAP_S = 3600.0
#: How far a row the table cannot take is put off: until someone resumes it.
PARKED_S = 100 * 365 * 86400.0
#: How a parked row's last error begins (the players were told when it was parked).
UNREACHABLE = PARKED_ERROR
#: How often a delivery in flight renews its claim on the game's rows (a third of the
#: lease: two renewals may fail before another process could take them over).
RENEW_EVERY_S = LEASE_S / 3


@dataclasses.dataclass
class Courier:
    """Delivers one store's outbox rows through one front end."""

    store: Store
    front_end: FrontEnd
    clock: Callable[[], float]
    retry_base_s: float
    retry_cap_s: float
    #: One per game, shared by every courier of a manager: a game's rows go out in order.
    locks: defaultdict[int, asyncio.Lock]
    reader: GameReader

    async def deliver_due(self, game_id: int | None = None, *, ignore_backoff: bool = False) -> int:
        """Deliver undelivered outbox rows in order; return how many were delivered.

        Each game is delivered on its own. Only damage marks a game damaged (``Damaged``:
        a row that does not decode or replay; or an unforeseen failure that is not the
        database's, the game's rows not reading as ours), logged once and skipped by
        background work until ``dispatch store check`` finds it replays; every other game
        goes on. A fault of the database (``StoreError``: out of reach, busy) flags
        nothing: it ends the pass, raised (the store has said so once), and the next
        pass tries again.
        """
        if game_id is not None:
            return await self._deliver_game(game_id, ignore_backoff)
        async with self.store.read() as db:
            pending = await db.outbox.games_with_undelivered()
        delivered = 0
        for gid in pending:
            try:
                delivered += await self._deliver_game(gid, ignore_backoff, background=True)
            except Damaged as exc:
                await mark_damaged(self.store, gid, exc.detail)
            except StoreError:
                raise
            except Exception as exc:
                # Unforeseen, and not the database: the game's rows do not read as ours
                # (damage by another name). Its kind only: a message may hold a card.
                await mark_damaged(self.store, gid, f"delivery failed ({type(exc).__name__})")
        return delivered

    async def _deliver_game(
        self, game_id: int, ignore_backoff: bool, *, background: bool = False
    ) -> int:
        if background:
            async with self.store.read() as db:
                row = await db.game(game_id)
            if row is None or row.damaged:
                return 0
        delivered = 0
        owner = self.store.instance
        async with self.locks[game_id]:
            # Another process on the same database may be delivering this game: its rows
            # are claimed with a lease, and go out in order from one process.
            if not await self._claim(game_id, owner):
                return 0
            try:
                async with self._renewing(game_id, owner):
                    # A DM failure queues a table notice; a second pass delivers it right
                    # away, claimed like the first (rows queued since were not).
                    for n in range(3):
                        if n and not await self._claim(game_id, owner):
                            break
                        async with self.store.read() as db:
                            rows = await db.outbox.undelivered(game_id)
                        if not rows:
                            break
                        count, queued_more = await self._deliver_rows(game_id, rows, ignore_backoff)
                        delivered += count
                        if not queued_more:
                            break
            finally:
                with contextlib.suppress(errors.SaveFailed):
                    async with self.store.write() as db:
                        await db.outbox.release_outbox(game_id, owner)
        return delivered

    async def _claim(self, game_id: int, owner: str) -> bool:
        """Claim the game's undelivered rows, unless another process holds a live claim."""
        async with self.store.transaction(game=game_id) as db:
            return await db.outbox.claim_outbox(game_id, owner, LEASE_S)

    @contextlib.asynccontextmanager
    async def _renewing(self, game_id: int, owner: str) -> AsyncIterator[None]:
        """Renew this process's claim on the game's rows every :data:`RENEW_EVERY_S` while
        it delivers them: a slow answer from Discord (or its rate limit's wait) longer
        than the lease must not let another process take the rows over and send them a
        second time. A process that dies stops renewing, and its claim lapses as before."""

        async def renew() -> None:
            while True:
                await asyncio.sleep(RENEW_EVERY_S)
                # A failed renewal is tried again at the next tick; the lease is 3 ticks.
                with contextlib.suppress(errors.SaveFailed):
                    async with self.store.write() as db:
                        await db.outbox.renew_outbox(game_id, owner, LEASE_S)

        task = asyncio.get_running_loop().create_task(renew())
        try:
            yield
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

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
                info = self.reader.info(game_row, seats)
            try:
                payload = json.loads(row.payload_json)
                # The row's own nonce: a resend after a crash before the mark posts nothing new.
                nonce = delivery_nonce(row.id, row.created_at)
                post = post_from(payload, nonce=nonce) if row.kind == "table" else None
                message = message_from(payload, nonce=nonce) if row.kind == "private" else None
            except (ValueError, KeyError, TypeError) as exc:
                # Our own rows are written by bot.tables.turn; an unreadable one can only come
                # from damage. Retrying would not help and must not block the stream.
                log.error("outbox row %d is unreadable, dropped: %r", row.id, exc)
                async with self.store.write() as db:
                    await db.outbox.mark_delivered(row.id, f"unreadable: {exc!r}")
                continue
            seat = info.seat_of(message.role) if message is not None else None
            skip = (
                skip_private(info, seat, message, self.reader.is_bot) if message is not None else ""
            )
            if post is not None and stale_reminder(info, post):
                skip = "superseded"
            if skip:
                async with self.store.write() as db:
                    await db.outbox.mark_delivered(row.id, skip)
                continue
            try:
                note = await self._send(info, row, seat, post or message)
            except errors.DirectMessageClosed:
                queued_more |= await self._dm_closed(row, info)
                info = None
                continue
            except errors.TableUnreachable as exc:
                queued_more |= await self._unreachable(row, rows, info, exc)
                blocked.add(stream)
                continue
            except Exception as exc:
                # DeliveryRetry or anything unexpected: never lost, retried with backoff.
                await self._failed(row, exc)
                blocked.add(stream)
                continue
            async with self.store.write() as db:
                await db.outbox.mark_delivered(row.id, note)
            delivered += 1
        return delivered, queued_more

    async def _send(
        self,
        info: GameInfo,
        row: OutboxRow,
        seat: SeatInfo | None,
        what: TablePost | PrivateMessage | None,
    ) -> str | None:
        """Send one row (None), or find that an earlier send already did (a note saying so).

        Within Discord's nonce window a repeat of an earlier send is answered with the
        first message. Past it (a crash between sending and marking, found at a late
        restart, or a retry long after a create that went through but was not answered),
        a repeat would post twice: the front end is asked first whether the message with
        the row's nonce is there.
        """
        if row.sent_at is None:
            async with self.store.write() as db:
                await db.outbox.mark_sending(row.id)
        elif self.clock() - row.sent_at > NONCE_WINDOW_S:
            front_end, nonce = self.front_end, what.nonce if what is not None else ""
            if (
                isinstance(front_end, FindsSent)
                and nonce
                and await front_end.already_sent(info, seat, nonce, row.sent_at)
            ):
                log.info("outbox row %d was already on Discord: not sent again", row.id)
                return "found already sent"
        if isinstance(what, TablePost):
            await self.front_end.post_table(info, what)
        elif isinstance(what, PrivateMessage):
            assert seat is not None
            await self.front_end.send_private(info, seat, what)
        return None

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
        async with self.store.write() as db:
            await db.outbox.mark_failed(row.id, repr(exc), db.now + delay)

    async def _unreachable(
        self,
        row: OutboxRow,
        rows: list[OutboxRow],
        info: GameInfo,
        exc: errors.TableUnreachable,
    ) -> bool:
        """Park the row; tell each player once, by DM, why the table is silent and how to
        get it going again. True when DMs were queued."""
        told = any(r.kind == "table" and is_parked(r) for r in rows)
        log.warning("game=%d table post parked, the channel refuses it: %s", row.game_id, exc)
        async with self.store.transaction() as db:
            await db.outbox.mark_failed(row.id, f"{UNREACHABLE}: {exc}", db.now + PARKED_S)
            if told:
                return False
            for seat in info.seats:
                if seat.dm_failed or self.reader.is_bot(seat.user_id):
                    continue
                message = unreachable_notice(info, seat.role, exc.cause, exc.missing)
                await db.outbox.queue(row.game_id, "private", seat.role, message_payload(message))
            await self._turns_by_dm(db, info)
        return True

    async def _turns_by_dm(self, db: Session, info: GameInfo) -> None:
        """The game goes on by DM, the notice says: whoever must act now and chose to hear
        of their turns in the channel only was pinged in the post that waits, so their
        prompt is sent now (later turns go by DM while the table is parked:
        ``bot.delivery.routes.notify_routes``)."""
        if info.status != "active" or info.one_seat:
            return  # a solo session's prompt is its table post, never a DM
        game_row = await db.game(info.id)
        if game_row is None or game_row.damaged:
            return
        waiting = [
            s
            for s in info.seats
            if s.role in game_row.active_roles
            and not s.dm_failed
            and not self.reader.is_bot(s.user_id)
        ]
        prefs = await db.settings.notify_prefs(s.user_id for s in waiting)
        for seat in waiting:
            if prefs.get(seat.user_id, DEFAULT_NOTIFY) != "channel":
                continue
            try:
                view = self.reader.view(game_row, seat.role)
            except errors.CorruptGame:
                return  # the courier's own pass marks it; the notice still goes
            message = private_message(
                seat.role, version=game_row.version, view=view, new_lines=(), your_turn=True
            )
            if message is not None:
                await db.outbox.queue(info.id, "private", seat.role, message_payload(message))

    async def _dm_closed(self, row: OutboxRow, info: GameInfo) -> bool:
        """Mark the seat, and tell the player once, at the table, where to look instead."""
        seat = info.seat_of(row.target or "")
        async with self.store.transaction() as db:
            await db.outbox.mark_delivered(row.id, "dm closed")
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
            await db.outbox.queue(row.game_id, "table", None, post_payload(post))
        log.info("game=%d seat %s refuses DMs; told at the table", row.game_id, seat.role)
        return True


def is_parked(row: OutboxRow) -> bool:
    """A table row put off because the channel refused it (see ``Courier._unreachable``)."""
    return (row.last_error or "").startswith(UNREACHABLE)


def unreachable_notice(
    info: GameInfo, role: str, cause: str = "", missing: tuple[str, ...] = ()
) -> PrivateMessage:
    """The DM that says why the table is silent (the cause Discord returned, ``cause``;
    every cause when it is not known), what to grant, and how to resume. A solo session is
    played at its table alone (nothing of it goes by DM), so it only waits."""
    going_on = (
        "Your session waits with them"
        if info.one_seat
        else "The game goes on here by direct message; the channel posts wait"
    )
    return PrivateMessage(
        kind="notice",
        role=role,
        version=info.version,
        headline=(
            f"I cannot post in the channel of game #{info.id} ({info.title}): "
            f"{unreachable.why(cause, missing)}. {going_on}. "
            + unreachable.how_to_resume(cause, info.id)
        ),
    )


def stale_reminder(info: GameInfo, post: TablePost) -> bool:
    """A table reminder held back (retries, a parked channel) until the game moved on:
    "the game is waiting for your move" would be untrue, and may ping the player."""
    return post.kind == "reminder" and (
        info.status != "active"
        or post.version != info.version
        or not set(post.active_roles) & set(info.active_roles)
    )


def skip_private(
    info: GameInfo,
    seat: SeatInfo | None,
    message: PrivateMessage,
    is_bot: Callable[[str | None], bool],
) -> str:
    """Why a private message should not go out (empty: send it)."""
    if seat is None:
        return "no such seat"
    if seat.dm_failed:
        return "dm closed"
    if is_bot(seat.user_id):
        return "bot seat"  # Dispatch plays it from its view; there is nobody to message
    # A "your turn" prompt that waited for a retry is worthless once the turn is over.
    if message.kind in ("turn", "reminder") and (
        info.status != "active" or message.role not in info.active_roles
    ):
        return "superseded"
    return ""


async def mark_damaged(store: Store, game_id: int, reason: str) -> None:
    """Take a game whose record is damaged (``Damaged``, never a database fault) out of
    background work; logged once per game.

    Its players are told the record is damaged when they next use it (``CorruptGame``),
    and a moderator can still export or abandon it; ``dispatch store check`` unflags it
    once it loads and replays.
    """
    try:
        async with store.write() as db:
            newly = await db.mark_damaged(game_id, reason)
    except StoreError:  # out of reach: the store said so once; found again next pass
        log.debug("game=%d could not be marked damaged now", game_id)
        return
    if newly:
        log.error("game=%d is damaged and skipped by background work: %s", game_id, reason)
