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

import hashlib
import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.delivery.images import board_image, hand_image
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

ALLOWED_MENTIONS = discord.AllowedMentions(
    everyone=False, roles=False, users=True, replied_user=False
)


def hand_name(png: bytes) -> str:
    """A hand image's file name, from its content: the same picture, the same name."""
    return f"hand-{hashlib.sha256(png).hexdigest()[:12]}.png"


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
    hand = await hand_image(game.game_name, view) if role and with_hand else None
    name = hand_name(hand) if hand else None
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
            await channel.send(allowed_mentions=ALLOWED_MENTIONS, **payload)
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
