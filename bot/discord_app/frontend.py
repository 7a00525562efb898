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
import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.delivery.images import board_image, choices_image, hand_image
from bot.delivery.port import GameInfo, PrivateMessage, SeatInfo, TablePost
from bot.discord_app import formatting
from bot.discord_app.components import build_end_view, build_prompt_view, build_table_view
from bot.errors import DeliveryRetry, DirectMessageClosed

if TYPE_CHECKING:
    from discord.abc import Messageable

log = logging.getLogger("dispatch.discord.frontend")

#: Discord's "Cannot send messages to this user".
CANNOT_DM = 50007
#: Discord's "Unknown Message": on a create with an enforced nonce, the message this nonce
#: already made was deleted since (by a moderator or the player). It was delivered.
UNKNOWN_MESSAGE = 10008

#: What a closed prompt says above its (button-less) content.
CLOSED_NEWER = "Closed: a newer message below has your current prompt."
CLOSED_ELSEWHERE = "Closed: you answered elsewhere (see /game hand for your prompt)."
CLOSED_OVER = "Closed: this game is over."
CLOSED_ABANDONED = "Closed: this game was abandoned."

ALLOWED_MENTIONS = discord.AllowedMentions(
    everyone=False, roles=False, users=True, replied_user=False
)


#: How many messages after a possibly sent row's first send are searched for its nonce.
LOOK_BACK = 100


def _utc(epoch_s: float) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(max(0.0, epoch_s), tz=datetime.UTC)


def hand_name(png: bytes) -> str:
    """A hand image's file name, from its content: the same picture, the same name."""
    return f"hand-{hashlib.sha256(png).hexdigest()[:12]}.png"


def choices_name(png: bytes) -> str:
    """The name of a board with a prompt's choices marked, from its content."""
    return f"board-{hashlib.sha256(png).hexdigest()[:12]}.png"


def png_file(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


async def private_payload(
    game: GameInfo,
    role: str | None,
    version: int,
    view: dict[str, Any],
    *,
    headline: str = "",
    log_lines: tuple[str, ...] | list[str] = (),
    notice: str = "",
    with_hand: bool = True,
) -> dict[str, Any]:
    """embed + files + view for a player's private prompt (DM, ephemeral, or an edit).

    The hand image is named after its content (``hand-<digest>.png``, see ``hand_name``)
    so that a caller can tell whether the player already has this very picture and skip
    uploading it again.
    """
    # A prompt about places on the board shows the board with its choices marked; any
    # other shows the hand (which has not changed while tokens are being placed).
    choices = await choices_image(game.game_name, view) if role and with_hand else None
    hand = (
        None if choices else await hand_image(game.game_name, view) if role and with_hand else None
    )
    name = hand_name(hand) if hand else None
    if choices:
        hand, name = choices, choices_name(choices)
    components = build_prompt_view(game.id, version, view) if view.get("actions") else None
    embed = formatting.prompt_embed(
        game,
        role,
        view,
        headline=headline,
        log_lines=log_lines,
        hand_file=name,
        overflow=bool(components and components.overflow),
        notes=components.notes if components else (),
        notice=notice,
    )
    payload: dict[str, Any] = {
        "embed": embed,
        "files": [png_file(hand, name)] if hand and name else [],
        "hand": name,
    }
    if components is not None:
        payload["view"] = components.view
    return payload


class DiscordFrontEnd:
    """Implements ``bot.delivery.port.FrontEnd`` for a running discord.py client."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self._dm_channels: dict[int, discord.DMChannel] = {}
        #: The hand image each player's latest DM shows, per game (lost on restart: then
        #: the next DM simply shows the hand again).
        self._last_hand: dict[tuple[int, str], str] = {}

    # -- the table --------------------------------------------------------------
    def _channel(self, channel_id: str) -> Messageable:
        cid = int(channel_id)
        channel = self.client.get_channel(cid)
        if channel is not None and hasattr(channel, "send"):
            return channel  # type: ignore[return-value]
        # Works before the gateway's READY too (redelivery at start-up).
        return self.client.get_partial_messageable(cid)

    async def post_table(self, game: GameInfo, post: TablePost) -> None:
        if post.view is not None and post.view.get("actions"):
            # Only a one-seat game (a solo session) posts its player's prompt at the table.
            await self._post_session(game, post)
            return
        files: list[discord.File] = []
        if post.view is not None and post.kind in ("start", "turn", "end"):
            board = await board_image(game.game_name, post.view)
            if board:
                files.append(png_file(board, "board.png"))
        embed = formatting.table_embed(game, post, with_image=bool(files))
        kwargs: dict[str, Any] = {
            "content": formatting.table_content(post, game) or None,
            "allowed_mentions": formatting.pinged(post),
        }
        if embed is not None:
            kwargs["embed"] = embed
        if files:
            kwargs["files"] = files
        if game.status == "active" and post.kind != "end":
            kwargs["view"] = build_table_view(game.id)
        elif post.kind == "end" and len(game.seats) == 2:
            kwargs["view"] = build_end_view(game.id)
        if not kwargs["content"] and embed is None:
            return
        try:
            if post.nonce:
                kwargs["nonce"] = post.nonce
            await self._channel(game.channel_id).send(**kwargs)
        except discord.NotFound as exc:
            if not (post.nonce and exc.code == UNKNOWN_MESSAGE):
                raise DeliveryRetry(f"table post to {game.channel_id} failed: {exc}") from exc
            log.info("game=%d table post %s was delivered, then deleted", game.id, post.kind)
            return
        except discord.HTTPException as exc:
            raise DeliveryRetry(f"table post to {game.channel_id} failed: {exc}") from exc
        log.debug("game=%d table post %s v%d delivered", game.id, post.kind, post.version)
        if game.status in ("finished", "abandoned", "cancelled"):
            await self.close_prompts(
                game.id, CLOSED_ABANDONED if game.status == "abandoned" else CLOSED_OVER
            )

    # -- live prompts: one per player and game, every superseded one closed --------
    def _manager(self) -> Any:
        return getattr(self.client, "manager", None)

    async def _live(self, game_id: int, user_id: str) -> tuple[str, str] | None:
        manager = self._manager()
        if manager is None:
            return None
        where: tuple[str, str] | None = (await manager.live_prompts(game_id)).get(user_id)
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
            await manager.set_live_prompt(game_id, user_id, where)

    async def close_prompts(self, game_id: int, note: str) -> None:
        """Close every live prompt of a game (it ended or was abandoned)."""
        manager = self._manager()
        if manager is None:
            return
        for user_id, where in (await manager.live_prompts(game_id)).items():
            await self._close(where, note)
            await manager.set_live_prompt(game_id, user_id, None)

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
        from bot.discord_app.solo_components import solo_payload

        assert post.view is not None
        payload = await solo_payload(
            game, post.version, post.view, log_lines=post.log_lines, headline=post.headline
        )
        if payload.get("view") is None:
            payload.pop("view")
        if post.nonce:
            payload["nonce"] = post.nonce
        try:
            await self._channel(game.channel_id).send(**payload)
        except discord.NotFound as exc:
            if not (post.nonce and exc.code == UNKNOWN_MESSAGE):
                raise DeliveryRetry(f"session post to {game.channel_id} failed: {exc}") from exc
        except discord.HTTPException as exc:
            raise DeliveryRetry(f"session post to {game.channel_id} failed: {exc}") from exc

    # -- a send that may have gone through ----------------------------------------
    async def already_sent(
        self, game: GameInfo, seat: SeatInfo | None, nonce: str, since: float
    ) -> bool:
        """Whether the bot's message carrying ``nonce`` is in the table (``seat`` None) or
        the seat's DMs, posted since ``since`` (epoch seconds): the courier asks before
        repeating a send that may have gone through once Discord's nonce window has
        passed (issue 24, item 34). Discord echoes a create's nonce on the message."""
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
            with_hand=message.kind != "end",  # the result closes the prompt: no cards, no buttons
        )
        if message.kind in ("reveal", "end") and not message.view.get("actions"):
            payload.pop("view", None)
        hand, key = payload.pop("hand", None), (game.id, str(seat.user_id))
        if hand is not None and self._last_hand.get(key) == hand:
            # The player's previous DM already shows this very hand: no second upload.
            payload["files"] = []
            payload["embed"].set_image(url=None)
            payload["embed"].add_field(name="Your hand", value="As in your previous message.")
        try:
            channel = await self._dm(int(seat.user_id))
            if message.nonce:
                payload["nonce"] = message.nonce
            sent = await channel.send(allowed_mentions=ALLOWED_MENTIONS, **payload)
            if hand is not None:
                self._last_hand[key] = hand
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
        # This message is now the player's prompt (or, without buttons, they have none):
        # the one before it is closed.
        live = (str(sent.channel.id), str(sent.id)) if "view" in payload else None
        note = CLOSED_OVER if message.kind == "end" else CLOSED_NEWER
        await self.prompt_now_at(game.id, str(seat.user_id), live, note)
