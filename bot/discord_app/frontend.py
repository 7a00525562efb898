"""The manager's front-end port on Discord: table posts to channels, prompts by DM.

The manager calls this only from its delivery step. Returning means delivered; raising
``DirectMessageClosed`` means the player refuses DMs (permanent, told once at the table);
raising anything else (``DeliveryRetry``) means "try again later", with backoff.
discord.py already waits out and retries a 429 itself; what still fails lands here.

Every post and DM carries its outbox row's nonce (discord.py then asks Discord to enforce
it): sending the same row again, after a crash between the send and the mark or after a
reply lost on the way back, returns the message already posted instead of a second one.
"""

from __future__ import annotations

import datetime
import hashlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.delivery.images import board_image
from bot.delivery.port import GameInfo, PrivateMessage, SeatInfo, TablePost
from bot.discord_app import formatting
from bot.discord_app.claim_components import with_claim
from bot.discord_app.formatting import ALLOWED_MENTIONS, png_file
from bot.discord_app.prompts import (
    CLOSED_ELSEWHERE,
    SAME_AS_ABOVE,
    build_table_view,
    private_payload,
)
from bot.discord_app.rematch import build_end_view
from bot.discord_app.solo_message import solo_payload
from bot.discord_app.threads import lobby_news, reopen, seat_players
from bot.discord_app.unreachable import ARCHIVED_THREAD, table_failure
from bot.errors import DeliveryRetry, DirectMessageClosed

if TYPE_CHECKING:
    from discord.abc import Messageable

    from bot.tables.manager import GameManager

log = logging.getLogger("dispatch.discord.frontend")

#: Discord's "Cannot send messages to this user".
CANNOT_DM = 50007
#: Discord's "Unknown Message": on a create with an enforced nonce, the message this nonce
#: already made was deleted since (by a moderator or the player). It was delivered.
UNKNOWN_MESSAGE = 10008
#: What a closed prompt says above its (button-less) content.
CLOSED_NEWER = "Closed: a newer message below has your current prompt."
CLOSED_OVER = "Closed: this game is over."
CLOSED_ABANDONED = "Closed: this game was abandoned."

#: How many messages after a possibly sent row's first send are searched for its nonce.
LOOK_BACK = 100


def _utc(epoch_s: float) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(max(0.0, epoch_s), tz=datetime.UTC)


class DiscordFrontEnd:
    """Implements ``bot.delivery.port.FrontEnd`` for a running discord.py client."""

    def __init__(self, client: discord.Client, manager: Callable[[], GameManager | None]) -> None:
        self.client = client
        #: The manager, once the client has opened it (None before, and once it closed):
        #: where each player's live prompt is kept, and each game's lobby post.
        self._manager = manager
        self._dm_channels: dict[int, discord.DMChannel] = {}
        #: The hand image each player's latest DM shows, per game (lost on restart: then
        #: the next DM simply shows the hand again).
        self._last_hand: dict[tuple[int, str], str] = {}
        #: Likewise the phone-sized close-up each player's latest DM with one carries.
        self._last_closeup: dict[tuple[int, str], str] = {}
        #: The latest board picture posted at each game's table: its digest and a link to
        #: its message (lost on restart: then the next post uploads it again).
        self._last_board: dict[int, tuple[str, str]] = {}
        #: (thread, player) pairs already made thread members (``threads.seat_players``).
        self._seated: set[tuple[str, str]] = set()

    # -- the table --------------------------------------------------------------
    def _channel(self, channel_id: str) -> Messageable:
        cid = int(channel_id)
        channel = self.client.get_channel(cid)
        if channel is not None and hasattr(channel, "send"):
            return channel  # type: ignore[return-value]
        # Works before the gateway's READY too (redelivery at start-up).
        return self.client.get_partial_messageable(cid)

    async def post_table(self, game: GameInfo, post: TablePost) -> None:
        if game.one_seat and post.view is not None and post.view.get("actions"):
            # A one-seat game (a solo session) posts its player's prompt at the table.
            await self._post_session(game, post)
            return
        kwargs, board = await self._table_message(game, post)
        if not kwargs["content"] and "embed" not in kwargs:
            return
        await seat_players(self.client, game, self._seated)
        try:
            if post.nonce:
                kwargs["nonce"] = post.nonce
            sent = await self._send_to_table(game, kwargs)
        except discord.NotFound as exc:
            if not (post.nonce and exc.code == UNKNOWN_MESSAGE):
                raise await table_failure(self.client, game, exc) from exc
            log.info("game=%d table post %s was delivered, then deleted", game.id, post.kind)
            return
        except discord.HTTPException as exc:
            raise await table_failure(self.client, game, exc) from exc
        if board is not None:
            self.board_posted(game, board, sent)
        log.debug("game=%d table post %s v%d delivered", game.id, post.kind, post.version)
        if post.kind in ("start", "end") or game.status in ("finished", "abandoned"):
            # The lobby post in the thread's parent channel says so.
            manager = self._manager()
            if manager is not None:
                await lobby_news(self.client, manager, game, post)
        if game.status in ("finished", "abandoned", "cancelled"):
            await self.close_prompts(
                game.id, CLOSED_ABANDONED if game.status == "abandoned" else CLOSED_OVER
            )

    async def _send_to_table(self, game: GameInfo, kwargs: dict[str, Any]) -> discord.Message:
        """Send at the game's table; a thread Discord archived after a quiet week is
        reopened and the post sent again (the nonce makes that one message)."""
        try:
            return await self._channel(game.channel_id).send(**kwargs)
        except discord.HTTPException as exc:
            if exc.code != ARCHIVED_THREAD or not await reopen(self.client, game.channel_id):
                raise
        for file in kwargs.get("files") or ():
            file.reset()
        return await self._channel(game.channel_id).send(**kwargs)

    async def _table_message(
        self, game: GameInfo, post: TablePost
    ) -> tuple[dict[str, Any], bytes | None]:
        """A table post's message, and the board picture it uploads (None: it uploads
        none, as when the table's latest post shows the very same board)."""
        board, same_as = None, None
        if post.view is not None and post.kind in ("start", "turn", "end"):
            board = await board_image(game.game_name, post.view)
            same_as = self.board_shown_at(game.id, board)
        uploaded = board if board and same_as is None else None
        embed = formatting.table_embed(game, post, with_image=uploaded is not None)
        if embed is not None and same_as is not None:
            embed.add_field(name="Board", value=f"Unchanged since [the previous post]({same_as}).")
        kwargs: dict[str, Any] = {
            "content": formatting.table_content(post, game) or None,
            "allowed_mentions": formatting.pinged(post),
        }
        if embed is not None:
            kwargs["embed"] = embed
        if uploaded is not None:
            alt = formatting.board_alt(game, post.view, post.log_lines)
            kwargs["files"] = [png_file(uploaded, "board.png", alt)]
        if game.status == "active" and post.kind != "end":
            kwargs["view"] = build_table_view(game.id)
        elif post.kind == "end" and len(game.seats) == 2:
            kwargs["view"] = build_end_view(game.id)
        if post.claim and game.status == "active":  # a clock ran out: the win may be claimed
            kwargs["view"] = with_claim(kwargs.get("view"), game.id)
        return kwargs, uploaded

    def board_shown_at(self, game_id: int, board: bytes | None) -> str | None:
        """The link to the table's latest board picture when ``board`` is that very picture
        (a post whose board did not change uploads it again; Discord's
        own attachment links expire, so the post links to the message instead)."""
        last = self._last_board.get(game_id)
        if board is None or last is None or last[0] != hashlib.sha256(board).hexdigest():
            return None
        return last[1]

    def board_posted(self, game: GameInfo, board: bytes, sent: discord.Message) -> None:
        """``sent`` is now the table's latest board picture."""
        where = f"{game.guild_id or '@me'}/{sent.channel.id}/{sent.id}"
        link = f"https://discord.com/channels/{where}"
        self._last_board[game.id] = (hashlib.sha256(board).hexdigest(), link)

    # -- live prompts: one per player and game, every superseded one closed --------
    async def _live(self, game_id: int, user_id: str) -> tuple[str, str] | None:
        manager = self._manager()
        if manager is None:
            return None
        where: tuple[str, str] | None = (await manager.prompts.live(game_id)).get(user_id)
        return where

    async def prompt_now_at(
        self, game_id: int, user_id: str, where: tuple[str, str] | None, note: str
    ) -> None:
        """The player's live prompt is now the message at ``where`` (None: nowhere, e.g.
        an ephemeral reply or no decision left): the one before it, if another, is closed
        with ``note`` and its buttons removed."""
        manager = self._manager()
        if manager is None:
            return
        before = await self._live(game_id, user_id)
        if before is not None and before != where:
            await self._close(before, note)
        if before != where:
            await manager.prompts.set_live(game_id, user_id, where)

    async def answered_at(
        self,
        game_id: int,
        user_id: str,
        where: tuple[str, str],
        *,
        live: bool,
        picture: str | None = None,
    ) -> None:
        """The player answered the DM prompt at ``where``, which was just edited into their
        next prompt (``live``) or into "Done". That message is never closed as superseded
        by itself ("a newer message below" with nothing below). If the
        pointer moved meanwhile to a newer DM (the courier delivered their next turn while
        the answer was drawn), that one stays live and this one, if it still shows
        buttons, is closed under it."""
        manager = self._manager()
        if manager is None:
            return
        before = await self._live(game_id, user_id)
        if before is None or before == where:
            # The latest DM: the next one need not upload the picture it now shows again.
            self._shows(game_id, user_id, picture)
            now = where if live else None
            if before != now:
                await manager.prompts.set_live(game_id, user_id, now)
            return
        if live:
            await self._close(where, CLOSED_NEWER)

    def picture_above(self, game_id: int, user_id: str) -> str | None:
        """The picture the player's latest DM shows, or says the message above it shows."""
        return self._last_hand.get((game_id, str(user_id)))

    def forget_pictures(self, game_id: int) -> None:
        """A game that ended needs no memory of the pictures it showed (a process running
        for months must not keep one entry per game ever played)."""
        self._last_board.pop(game_id, None)
        for memory in (self._last_hand, self._last_closeup):
            for key in [key for key in memory if key[0] == game_id]:
                del memory[key]

    def closeup_above(self, game_id: int, user_id: str) -> str | None:
        """The close-up the player's DM channel shows last."""
        return self._last_closeup.get((game_id, str(user_id)))

    def closeup_shown(self, game_id: int, user_id: str, name: str) -> None:
        """A message of the player's DM channel now shows the close-up ``name``."""
        self._last_closeup[(game_id, str(user_id))] = name

    def _shows(self, game_id: int, user_id: str, picture: str | None) -> None:
        """The player's latest DM now shows ``picture`` (a content-named file, or None)."""
        if picture is None:
            self._last_hand.pop((game_id, str(user_id)), None)
        else:
            self._last_hand[(game_id, str(user_id))] = picture

    async def close_prompts(self, game_id: int, note: str) -> None:
        """Close every live prompt of a game (it ended or was abandoned)."""
        self.forget_pictures(game_id)
        manager = self._manager()
        if manager is None:
            return
        for user_id, where in (await manager.prompts.live(game_id)).items():
            await self._close(where, note)
            await manager.prompts.set_live(game_id, user_id, None)

    async def refresh_prompt(
        self, game: GameInfo, user_id: str, role: str, version: int, view: dict[str, Any]
    ) -> None:
        """The player answered elsewhere (``/game play``, ``/game undo``, an ephemeral
        prompt): their DM prompt is replaced by the current one, or closed if they have
        nothing left to decide."""
        where = await self._live(game.id, user_id)
        if where is None:
            return
        if not view.get("actions"):
            await self.prompt_now_at(game.id, user_id, None, CLOSED_ELSEWHERE)
            return
        payload = await private_payload(game, role, version, view, notice="Updated.")
        files, _ = payload.pop("files"), payload.pop("hand", None)
        try:
            await self._message(where).edit(attachments=files, content=None, **payload)
        except discord.HTTPException as exc:
            log.info("game=%d could not update a prompt of %s: %s", game.id, user_id, exc)
            await self.prompt_now_at(game.id, user_id, None, CLOSED_ELSEWHERE)

    def _message(self, where: tuple[str, str]) -> discord.PartialMessage:
        channel = self.client.get_partial_messageable(int(where[0]))
        return channel.get_partial_message(int(where[1]))

    async def _close(self, where: tuple[str, str], note: str) -> None:
        try:
            await self._message(where).edit(content=note, view=None)
        except (discord.HTTPException, ValueError) as exc:
            # Deleted by the player, or the DM closed since: nothing is left to look live.
            log.info("could not close the prompt %s: %s", where[1], exc)

    async def _post_session(self, game: GameInfo, post: TablePost) -> None:
        """A solo session's message: the display, the new log lines, the buttons."""
        assert post.view is not None
        payload = await solo_payload(
            game, post.version, post.view, log_lines=post.log_lines, headline=post.headline
        )
        if payload.get("view") is None:
            payload.pop("view")
        if post.nonce:
            payload["nonce"] = post.nonce
        try:
            await self._send_to_table(game, payload)
        except discord.NotFound as exc:
            if not (post.nonce and exc.code == UNKNOWN_MESSAGE):
                raise await table_failure(self.client, game, exc) from exc
        except discord.HTTPException as exc:
            raise await table_failure(self.client, game, exc) from exc

    # -- a send that may have gone through ----------------------------------------
    async def already_sent(
        self, game: GameInfo, seat: SeatInfo | None, nonce: str, since: float
    ) -> bool:
        """Whether the bot's message carrying ``nonce`` is in the table (``seat`` None) or
        the seat's DMs, posted since ``since`` (epoch seconds): the courier asks before
        repeating a send that may have gone through once Discord's nonce window has
        passed. Discord echoes a create's nonce on the message."""
        try:
            if seat is None:
                channel: Any = self._channel(game.channel_id)
            else:
                channel = await self._dm(int(seat.user_id))
            # A minute's margin for the clocks of this machine and Discord's.
            after = discord.Object(id=discord.utils.time_snowflake(_utc(since - 60)))
            async for found in channel.history(limit=LOOK_BACK, after=after, oldest_first=True):
                me = self.client.user
                if found.nonce == nonce and (me is None or found.author.id == me.id):
                    return True
        except (discord.HTTPException, ValueError) as exc:
            # Not knowing is not "absent": a repeat could post twice. Retried later.
            raise DeliveryRetry(f"looking for an earlier send failed: {exc}") from exc
        return False

    # -- a player ---------------------------------------------------------------
    async def _dm(self, user_id: int) -> discord.DMChannel:
        channel = self._dm_channels.get(user_id)
        if channel is None:
            channel = await self.client.create_dm(discord.Object(id=user_id))
            self._dm_channels[user_id] = channel
        return channel

    async def send_private(self, game: GameInfo, seat: SeatInfo, message: PrivateMessage) -> None:
        if not (str(seat.user_id).isascii() and str(seat.user_id).isdigit()):
            # A sandbox or test seat (not a Discord user): nothing to send. (isdigit alone
            # would let "²" through, which int() then refuses.)
            return
        payload = await private_payload(
            game,
            message.role,
            message.version,
            message.view,
            headline=formatting.private_headline(message),
            log_lines=message.log_lines,
            # The result closes the prompt: no cards, no buttons; a notice is news only.
            with_hand=message.kind not in ("end", "notice"),
        )
        if message.kind in ("reveal", "end", "notice") and not message.view.get("actions"):
            payload.pop("view", None)
        if message.claim and game.status == "active":
            payload["view"] = with_claim(None, game.id)
        hand, key = payload.pop("hand", None), (game.id, str(seat.user_id))
        if hand is not None and self._last_hand.get(key) == hand:
            # The player's previous DM already shows this very hand: no second upload.
            payload["files"] = []
            payload["embed"].set_image(url=None)
            payload["embed"].add_field(name="Your hand", value=SAME_AS_ABOVE)
        closeup = next(
            (f.filename for f in payload["files"] if f.filename.startswith("closeup-")), None
        )
        if closeup is not None and self._last_closeup.get(key) == closeup:
            # The same close-up is already in this DM channel: not uploaded again.
            payload["files"] = [f for f in payload["files"] if f.filename != closeup]
        try:
            channel = await self._dm(int(seat.user_id))
            if message.nonce:
                payload["nonce"] = message.nonce
            sent = await channel.send(allowed_mentions=ALLOWED_MENTIONS, **payload)
            if hand is not None:
                self._last_hand[key] = hand
            if closeup is not None:
                self._last_closeup[key] = closeup
        except discord.NotFound as exc:
            if not (message.nonce and exc.code == UNKNOWN_MESSAGE):
                raise DeliveryRetry(f"DM to {seat.user_id} failed: {exc}") from exc
            log.info("game=%d private %s was delivered, then deleted", game.id, message.kind)
            return
        except discord.Forbidden as exc:
            if exc.code == CANNOT_DM:
                raise DirectMessageClosed(str(exc)) from exc
            raise DeliveryRetry(f"DM to {seat.user_id} refused: {exc}") from exc
        except discord.HTTPException as exc:
            raise DeliveryRetry(f"DM to {seat.user_id} failed: {exc}") from exc
        log.debug("game=%d private %s to %s delivered", game.id, message.kind, seat.role)
        if message.kind == "notice":
            return  # news about the game: the player's prompt, wherever it is, stays live
        # This message is now the player's prompt (or, without buttons, they have none):
        # the one before it is closed.
        live = (str(sent.channel.id), str(sent.id)) if "view" in payload else None
        note = CLOSED_OVER if message.kind == "end" else CLOSED_NEWER
        await self.prompt_now_at(game.id, str(seat.user_id), live, note)
