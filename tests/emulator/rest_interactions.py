"""Interaction callbacks and the webhook routes discord.py uses for followups.

Behaviour mirrors Discord:
- a second callback for the same interaction is rejected (40060);
- a type-5 defer creates a "thinking" placeholder (flag LOADING); the first followup
  (or an edit of @original) replaces that placeholder and keeps the defer's ephemerality;
- for component interactions answered with type 6/7, @original is the clicked message;
- a callback later than 3 s answers 10062, and the token serves followups and edits for
  15 minutes, then answers 50027 (``deadlines.py`` says on which clock).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, TypedDict

from aiohttp import web

from .conformance import conform
from .deadlines import CALLBACK_DEADLINE_S, TOKEN_LIFETIME_S
from .messages import ApiError, Uploads, apply_edit, json_response, new_message, read_body
from .payloads import message_payload
from .state import EPHEMERAL, LOADING, Interaction, Message

if TYPE_CHECKING:
    from .server import EmulatorServer

API = "/api/v10"


class InteractionOrigin(TypedDict):
    """What a message posted in answer to an interaction records of it (``Message``'s
    fields of the same names)."""

    interaction_id: int
    interaction_type: int
    interaction_user_id: int


class InteractionRoutes:
    def __init__(self, emu: EmulatorServer) -> None:
        self.emu = emu
        self.world = emu.world

    def register(self, app: web.Application) -> None:
        r = app.router
        r.add_post(API + "/interactions/{interaction_id}/{token}/callback", self.callback)
        hook = API + "/webhooks/{app_id}/{token}"
        r.add_post(hook, self.followup)
        r.add_get(hook + "/messages/{message_id}", self.get_hook_message)
        r.add_patch(hook + "/messages/{message_id}", self.patch_hook_message)
        r.add_delete(hook + "/messages/{message_id}", self.delete_hook_message)

    def _payload(self, msg: Message) -> dict[str, Any]:
        return message_payload(msg, self.world, self.emu.base_url)

    # -- callback ------------------------------------------------------------
    async def callback(self, request: web.Request) -> web.Response:
        acked_at = time.perf_counter()
        inter = self.world.interactions.get(int(request.match_info["interaction_id"]))
        if inter is None or inter.token != request.match_info["token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        if inter.callback_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        self._check_callback_deadline(inter)
        body, uploads = await read_body(request)
        conform(self.world, "interaction_callback", body)
        kind = int(body["type"])
        data = body.get("data") or {}
        msg: Message | None = None
        if kind not in (4, 5, 6, 7, 8, 9) or (kind in (6, 7) and inter.source_message_id is None):
            raise ApiError(
                400, 50035, f"Invalid interaction callback type {kind} for this interaction"
            )
        inter.acked_at = acked_at
        inter.callback_type, inter.callback_data = kind, data
        try:
            msg = self._apply_callback(inter, kind, data, uploads)
        except ApiError:
            inter.acked_at, inter.callback_type, inter.callback_data = None, None, None
            raise
        self.world.notify()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        info: dict[str, Any] = {"id": str(inter.id), "type": inter.type}
        resource: dict[str, Any] = {"type": kind}
        if msg is not None:
            info["response_message_id"] = str(msg.id)
            info["response_message_loading"] = msg.loading
            info["response_message_ephemeral"] = msg.ephemeral
            resource["message"] = self._payload(msg)
        return json_response({"interaction": info, "resource": resource})

    def _check_callback_deadline(self, inter: Interaction) -> None:
        """Discord forgets an interaction not answered within 3 s: the user was already
        told it failed, and the late callback finds nothing to answer."""
        if self.emu.clock() - inter.sent_at > CALLBACK_DEADLINE_S:
            raise ApiError(404, 10062, "Unknown interaction")

    def _check_token_lifetime(self, inter: Interaction) -> None:
        """An interaction's token works for 15 minutes: followups and edits after that
        are refused as with a token that never existed."""
        if self.emu.clock() - inter.sent_at > TOKEN_LIFETIME_S:
            raise ApiError(401, 50027, "Invalid Webhook Token")

    def _apply_callback(
        self, inter: Interaction, kind: int, data: dict[str, Any], uploads: Uploads
    ) -> Message | None:
        extra: InteractionOrigin = {
            "interaction_id": inter.id,
            "interaction_type": inter.type,
            "interaction_user_id": inter.user.id,
        }
        bot = self.emu.bot_user
        if kind == 4:
            msg = new_message(self.world, inter.channel, bot, data, uploads, **extra)
            inter.original_message_id = msg.id
            return msg
        if kind == 5:
            flags = LOADING | ((data.get("flags") or 0) & EPHEMERAL)
            msg = Message(
                id=self.world.snowflake(),
                channel_id=inter.channel.id,
                guild_id=inter.channel.guild_id,
                author=bot,
                flags=flags,
                **extra,
            )
            self.world.add_message(msg)
            inter.original_message_id = msg.id
            inter.deferred_pending = True
            return msg
        if kind in (6, 7):
            inter.original_message_id = inter.source_message_id
            source = self.world.messages[inter.source_message_id]  # type: ignore[index]
            if kind == 7:
                apply_edit(self.world, source, data, uploads)
                return source
            return None
        if kind == 8:
            inter.choices = list(data.get("choices") or [])
            return None
        inter.modal = data
        return None

    # -- webhook followups ---------------------------------------------------
    def _interaction(self, request: web.Request) -> Interaction:
        inter = self.world.by_token.get(request.match_info["token"])
        if inter is None or int(request.match_info["app_id"]) != self.emu.application_id:
            raise ApiError(404, 10015, "Unknown Webhook")
        if inter.callback_type is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        self._check_token_lifetime(inter)
        return inter

    def _hook_message(self, request: web.Request, inter: Interaction) -> Message:
        raw = request.match_info["message_id"]
        msg_id = inter.original_message_id if raw == "@original" else int(raw)
        msg = self.world.messages.get(msg_id) if msg_id else None
        allowed = {inter.original_message_id, *inter.followup_ids}
        if msg is None or msg.deleted or msg.id not in allowed:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    async def followup(self, request: web.Request) -> web.Response:
        inter = self._interaction(request)
        body, uploads = await read_body(request)
        conform(self.world, "followup", body)
        if inter.deferred_pending and inter.original_message_id is not None:
            # The first followup after a "thinking" defer replaces the placeholder.
            msg = self.world.messages[inter.original_message_id]
            body.pop("flags", None)
            apply_edit(self.world, msg, body, uploads)
            inter.deferred_pending = False
        else:
            msg = new_message(
                self.world,
                inter.channel,
                self.emu.bot_user,
                body,
                uploads,
                interaction_id=inter.id,
                interaction_type=inter.type,
                interaction_user_id=inter.user.id,
                webhook_id=self.emu.application_id,
            )
            inter.followup_ids.append(msg.id)
        self.world.notify()
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(self._payload(msg))
        return web.Response(status=204)

    async def get_hook_message(self, request: web.Request) -> web.Response:
        inter = self._interaction(request)
        return json_response(self._payload(self._hook_message(request, inter)))

    async def patch_hook_message(self, request: web.Request) -> web.Response:
        inter = self._interaction(request)
        msg = self._hook_message(request, inter)
        body, uploads = await read_body(request)
        conform(self.world, "edit_followup", body)
        apply_edit(self.world, msg, body, uploads)
        if msg.id == inter.original_message_id:
            inter.deferred_pending = False
        inter.edits += 1
        self.world.notify()
        return json_response(self._payload(msg))

    async def delete_hook_message(self, request: web.Request) -> web.Response:
        inter = self._interaction(request)
        msg = self._hook_message(request, inter)
        self.world.delete_message(msg)
        if msg.id == inter.original_message_id:
            inter.deferred_pending = False
        return web.Response(status=204)
