"""REST routes for the bot: identity, gateway info, commands, channels, guilds, DMs.

Interaction callbacks and webhook (followup) routes live in ``rest_interactions.py``.
"""

from __future__ import annotations

import asyncio
import fnmatch
import math
import time
from typing import TYPE_CHECKING, Any, cast

from aiohttp import web

from .command_limits import refuse_bad_commands
from .conformance import conform
from .messages import ApiError, apply_edit, json_error, json_response, new_message, read_body
from .nonces import CreateRecord, InvalidNonce, checked_nonce
from .payloads import (
    channel_payload,
    guild_create_payload,
    member_payload,
    message_payload,
    role_payload,
    user_payload,
)
from .state import (
    ATTACH_FILES,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DM,
    GUILD_FORUM,
    GUILD_TEXT,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    THREAD_CREATED,
    VIEW_CHANNEL,
    Channel,
    Fault,
    Guild,
    Message,
    RequestRecord,
)

if TYPE_CHECKING:
    from .server import EmulatorServer

API = "/api/v10"
NO_AUTH_PREFIXES = ("/webhooks/", "/interactions/")


class Rest:
    def __init__(self, emu: EmulatorServer) -> None:
        self.emu = emu
        self.world = emu.world

    # -- plumbing ------------------------------------------------------------
    @web.middleware
    async def middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        path = request.path.removeprefix(API)
        key = f"{request.method} {path}"
        delay = self._delay_for(key)
        response = self._fault_for(key)
        if response is None and request.path.startswith(API):
            auth = request.headers.get("Authorization", "")
            if not path.startswith(NO_AUTH_PREFIXES) and auth != f"Bot {self.emu.token}":
                response = json_error(401, 0, "401: Unauthorized")
        if response is None:
            try:
                response = await handler(request)
            except ApiError as exc:
                response = exc.response()
        if delay:
            await asyncio.sleep(delay)  # done, but the client hears of it only now
        self.world.requests.append(
            RequestRecord(request.method, path, response.status, time.time())
        )
        return response

    def _delay_for(self, key: str) -> float:
        for fault in self.world.faults:
            if not fault.status and fault.remaining > 0 and fnmatch.fnmatchcase(key, fault.pattern):
                fault.remaining -= 1
                return fault.delay
        return 0.0

    def _fault_for(self, key: str) -> web.Response | None:
        for fault in self.world.faults:
            if fault.status and fault.remaining > 0 and fnmatch.fnmatchcase(key, fault.pattern):
                fault.remaining -= 1
                return self._fault_response(fault)
        return None

    @staticmethod
    def _fault_response(fault: Fault) -> web.Response:
        if fault.status == 429:
            body = {
                "message": "You are being rate limited.",
                "retry_after": fault.retry_after,
                "global": False,
            }
            headers = {
                "Retry-After": str(max(1, math.ceil(fault.retry_after))),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + fault.retry_after:.3f}",
                "X-RateLimit-Reset-After": f"{fault.retry_after:.3f}",
                "X-RateLimit-Bucket": "emulator-bucket",
                "X-RateLimit-Scope": "user",
                "Via": "1.1 google",
            }
            return json_response(body, status=429, headers=headers)
        return json_error(fault.status, fault.code, fault.message or f"{fault.status}: injected")

    def register(self, app: web.Application) -> None:
        r = app.router
        r.add_get(API + "/users/@me", self.get_me)
        r.add_get(API + "/users/{user_id:\\d+}", self.get_user)
        r.add_post(API + "/users/@me/channels", self.create_dm)
        r.add_get(API + "/gateway", self.get_gateway)
        r.add_get(API + "/gateway/bot", self.get_gateway_bot)
        r.add_get(API + "/oauth2/applications/@me", self.get_application)
        r.add_get(API + "/applications/@me", self.get_application)
        cmds = API + "/applications/{app_id}/commands"
        gcmds = API + "/applications/{app_id}/guilds/{guild_id}/commands"
        for path in (cmds, gcmds):
            r.add_get(path, self.get_commands)
            r.add_put(path, self.put_commands)
            r.add_post(path, self.post_command)
        ch = API + "/channels/{channel_id}"
        r.add_get(ch, self.get_channel)
        r.add_patch(ch, self.patch_channel)
        r.add_delete(ch, self.delete_channel)
        r.add_post(ch + "/threads", self.post_thread)
        r.add_post(ch + "/messages/{message_id}/threads", self.post_thread_from_message)
        r.add_put(ch + "/thread-members/{user_id}", self.put_thread_member)
        r.add_post(ch + "/typing", self.no_content)
        r.add_get(ch + "/messages", self.get_messages)
        r.add_post(ch + "/messages", self.post_message)
        r.add_get(ch + "/messages/{message_id}", self.get_message)
        r.add_patch(ch + "/messages/{message_id}", self.patch_message)
        r.add_delete(ch + "/messages/{message_id}", self.delete_message)
        reaction = ch + "/messages/{message_id}/reactions/{emoji}/@me"
        r.add_put(reaction, self.put_reaction)
        r.add_delete(reaction, self.delete_reaction)
        g = API + "/guilds/{guild_id}"
        r.add_get(g, self.get_guild)
        r.add_get(g + "/channels", self.get_guild_channels)
        r.add_get(g + "/roles", self.get_roles)
        r.add_get(g + "/members", self.get_members)
        r.add_get(g + "/members/{user_id}", self.get_member)
        r.add_get("/attachments/{att_id}/{filename}", self.get_attachment)

    async def unknown(self, request: web.Request) -> web.Response:
        self.world.unknown_routes.append((request.method, request.path.removeprefix(API)))
        self.world.notify()
        return json_error(404, 0, "404: Not Found (route not implemented by the emulator)")

    def _json(self, data: Any, status: int = 200) -> web.Response:
        return json_response(data, status=status)

    def _channel(self, request: web.Request) -> Channel:
        channel = self.world.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def _message(self, request: web.Request, channel: Channel) -> Message:
        msg = self.world.messages.get(int(request.match_info["message_id"]))
        if msg is None or msg.deleted or msg.channel_id != channel.id or msg.ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    def _guild(self, request: web.Request) -> Guild:
        guild = self.world.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    def msg_json(self, msg: Message) -> web.Response:
        return self._json(message_payload(msg, self.world, self.emu.base_url))

    async def no_content(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    # -- identity ------------------------------------------------------------
    async def get_me(self, request: web.Request) -> web.Response:
        data = user_payload(self.emu.bot_user)
        data.update(verified=True, mfa_enabled=False, locale="en-US")
        return self._json(data)

    async def get_user(self, request: web.Request) -> web.Response:
        user = self.world.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return self._json(user_payload(user))

    async def get_gateway(self, request: web.Request) -> web.Response:
        return self._json({"url": self.emu.ws_url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return self._json({"url": self.emu.ws_url, "shards": 1, "session_start_limit": limit})

    async def get_application(self, request: web.Request) -> web.Response:
        emu = self.emu
        return self._json(
            {
                "id": str(emu.application_id),
                "name": emu.bot_user.name,
                "icon": None,
                "description": "Dispatch emulator application",
                "bot_public": False,
                "bot_require_code_grant": False,
                "owner": user_payload(emu.owner),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": user_payload(emu.bot_user),
                "summary": "",
                "redirect_uris": [],
                "interactions_endpoint_url": None,
            }
        )

    # -- application commands ------------------------------------------------
    def _command_list(self, request: web.Request) -> list[dict[str, Any]]:
        if int(request.match_info["app_id"]) != self.emu.application_id:
            raise ApiError(403, 50001, "Missing Access")
        if "guild_id" in request.match_info:
            return self.world.guild_commands.setdefault(int(request.match_info["guild_id"]), [])
        return self.world.global_commands

    def _stored_command(self, request: web.Request, cmd: dict[str, Any]) -> dict[str, Any]:
        stored = dict(cmd)
        stored.setdefault("type", 1)
        stored.setdefault("description", "")
        stored["id"] = str(self.world.snowflake())
        stored["application_id"] = str(self.emu.application_id)
        stored["version"] = str(self.world.snowflake())
        if "guild_id" in request.match_info:
            stored["guild_id"] = request.match_info["guild_id"]
        return stored

    async def get_commands(self, request: web.Request) -> web.Response:
        return self._json(self._command_list(request))

    async def put_commands(self, request: web.Request) -> web.Response:
        target = self._command_list(request)
        body, _ = await read_body(request)
        refuse_bad_commands(self.world, body)  # one bad field refuses the whole list
        # A bulk overwrite's body is a JSON array of commands, not read_body's usual object
        # (refuse_bad_commands has just refused any other shape).
        commands = cast(list[dict[str, Any]], body)
        target[:] = [self._stored_command(request, c) for c in commands]
        self.world.notify()
        return self._json(target)

    async def post_command(self, request: web.Request) -> web.Response:
        target = self._command_list(request)
        body, _ = await read_body(request)
        stored = self._stored_command(request, body)
        target[:] = [c for c in target if c["name"] != stored["name"]] + [stored]
        self.world.notify()
        return self._json(stored, status=201)

    # -- channels and messages ----------------------------------------------
    async def create_dm(self, request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        user = self.world.users.get(int(body["recipient_id"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return self._json(channel_payload(self.emu.dm_channel(user), self.world))

    async def get_channel(self, request: web.Request) -> web.Response:
        return self._json(channel_payload(self._channel(request), self.world))

    async def get_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        q = request.query
        msgs = [m for m in self.world.messages_in(channel.id) if not m.deleted and not m.ephemeral]
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])]
        limit = int(q.get("limit", 50))
        if "after" in q:
            msgs = msgs[:limit]
        msgs = list(reversed(msgs))[:limit]
        return self._json([message_payload(m, self.world, self.emu.base_url) for m in msgs])

    async def post_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel.type == DM and channel.recipient_id in self.world.dm_blocked:
            raise ApiError(403, 50007, "Cannot send messages to this user")
        body, uploads = await read_body(request)
        conform(self.world, "create_message", body)
        send = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
        self._check_bot(channel, VIEW_CHANNEL | send | (ATTACH_FILES * bool(uploads)))
        if channel.is_thread and (channel.locked or channel.archived):
            raise ApiError(400, 50083, "Thread is archived")
        body["flags"] = (body.get("flags") or 0) & ~(1 << 6)  # no ephemeral outside interactions
        try:
            nonce, enforce = checked_nonce(body)
        except InvalidNonce as exc:
            raise ApiError(400, 50035, f"Invalid Form Body ({exc})") from None
        author = self.emu.bot_user
        ledger = self.world.nonces
        earlier = ledger.earlier(author.id, nonce) if enforce else None
        if earlier is not None:
            # A repeat: Discord answers with the first message and creates nothing.
            ledger.creates.append(CreateRecord(channel.id, author.id, nonce, True, earlier, True))
            first = self.world.messages[earlier]
            if first.deleted:
                raise ApiError(404, 10008, "Unknown Message")
            return self.msg_json(first)
        msg = new_message(self.world, channel, author, body, uploads, nonce=nonce)
        if enforce:
            ledger.remember(author.id, nonce, msg.id)
        ledger.creates.append(CreateRecord(channel.id, author.id, nonce, enforce, msg.id, False))
        return self.msg_json(msg)

    def _check_bot(self, channel: Channel, needed: int) -> None:
        """403 as Discord answers when an overwrite takes a permission ``needed`` here."""
        denied = self.world.bot_denied_in(channel) & needed
        if denied & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        if denied:
            raise ApiError(403, 50013, "Missing Permissions")

    # -- threads and forum posts -------------------------------------------------
    async def post_thread(self, request: web.Request) -> web.Response:
        """Start a thread without a message in a text channel, or a forum's post (a thread
        whose first message is in the body)."""
        channel = self._channel(request)
        body, uploads = await read_body(request)
        conform(self.world, "create_thread", body)
        if channel.type == GUILD_FORUM:
            if not isinstance(body.get("message"), dict):
                raise ApiError(400, 50035, "Invalid Form Body (message: a forum post needs one)")
            self._check_bot(channel, VIEW_CHANNEL | SEND_MESSAGES)
            thread = self.world.new_thread(channel, body["name"], self.emu.bot_user.id)
            first = dict(body["message"])
            first.pop("flags", None)
            msg = new_message(self.world, thread, self.emu.bot_user, first, uploads)
            data = channel_payload(thread, self.world)
            data["message"] = message_payload(msg, self.world, self.emu.base_url)
            return self._json(data, status=201)
        return self._thread_without_message(channel, body)

    def _thread_without_message(self, channel: Channel, body: dict[str, Any]) -> web.Response:
        """As Discord: without ``type`` the thread is private (12); a public one is
        announced in the channel by a "started a thread" message (a private one is not)."""
        kind = body.get("type", PRIVATE_THREAD)
        if channel.type != GUILD_TEXT or kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        create = CREATE_PUBLIC_THREADS if kind == PUBLIC_THREAD else CREATE_PRIVATE_THREADS
        self._check_bot(channel, VIEW_CHANNEL | create)
        thread = self.world.new_thread(channel, body["name"], self.emu.bot_user.id, kind=kind)
        if kind == PUBLIC_THREAD:
            self._thread_started_message(channel, thread)
        return self._json(channel_payload(thread, self.world), status=201)

    def _thread_started_message(self, channel: Channel, thread: Channel) -> None:
        """Discord's system message in the parent: "<creator> started a thread: <name>"
        (type 18, its content the thread's name, referring to the thread)."""
        reference = {"channel_id": str(thread.id), "guild_id": str(channel.guild_id)}
        self.world.add_message(
            Message(
                id=self.world.snowflake(),
                channel_id=channel.id,
                guild_id=channel.guild_id,
                author=self.emu.bot_user,
                content=thread.name or "",
                type=THREAD_CREATED,
                message_reference=reference,
            )
        )

    async def post_thread_from_message(self, request: web.Request) -> web.Response:
        """Start a public thread from a message: the thread has the message's id."""
        channel = self._channel(request)
        msg = self._message(request, channel)
        body, _ = await read_body(request)
        conform(self.world, "create_thread_from_message", body)
        if channel.type != GUILD_TEXT:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if msg.id in self.world.channels:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        self._check_bot(channel, VIEW_CHANNEL | CREATE_PUBLIC_THREADS)
        thread = self.world.new_thread(channel, body["name"], self.emu.bot_user.id, id=msg.id)
        return self._json(channel_payload(thread, self.world), status=201)

    async def put_thread_member(self, request: web.Request) -> web.Response:
        """Add a member to a thread: it shows in their sidebar. As Discord: only into a
        thread that takes posts, and only a member of its server."""
        thread = self._channel(request)
        if not thread.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        self._check_bot(thread, VIEW_CHANNEL | SEND_MESSAGES_IN_THREADS)
        if thread.locked or thread.archived:
            raise ApiError(400, 50083, "Thread is archived")
        user_id = int(request.match_info["user_id"])
        if thread.guild_id is None or user_id not in self.world.guilds[thread.guild_id].members:
            raise ApiError(404, 10007, "Unknown Member")
        thread.members.add(user_id)
        self.world.notify()
        return web.Response(status=204)

    async def patch_channel(self, request: web.Request) -> web.Response:
        """Rename a thread the bot started, or reopen one archived for inactivity (the
        changes the bot makes to a channel). As on Discord, an unlocked thread may be
        unarchived by anyone who may post in it; a locked one only by a moderator."""
        channel = self._channel(request)
        body, _ = await read_body(request)
        conform(self.world, "edit_channel", body)
        if not channel.is_thread:
            raise ApiError(403, 50013, "Missing Permissions")
        if "name" in body and channel.owner_id != self.emu.bot_user.id:
            raise ApiError(403, 50013, "Missing Permissions")
        if body.get("archived") is False:
            self._check_bot(channel, VIEW_CHANNEL | SEND_MESSAGES_IN_THREADS)
            if channel.locked:
                raise ApiError(403, 50013, "Missing Permissions")
            channel.archived = False
        if "name" in body:
            channel.name = body["name"]
        if self.world.on_channel_event:
            self.world.on_channel_event("THREAD_UPDATE", channel_payload(channel, self.world))
        self.world.notify()
        return self._json(channel_payload(channel, self.world))

    async def delete_channel(self, request: web.Request) -> web.Response:
        """Delete a thread the bot started (a game that could not be opened in it)."""
        channel = self._channel(request)
        if not channel.is_thread or channel.owner_id != self.emu.bot_user.id:
            raise ApiError(403, 50013, "Missing Permissions")
        data = channel_payload(channel, self.world)
        self.world.channels.pop(channel.id, None)
        if channel.guild_id is not None:
            self.world.guilds[channel.guild_id].channels.pop(channel.id, None)
        if self.world.on_channel_event:
            self.world.on_channel_event("THREAD_DELETE", data)
        self.world.notify()
        return self._json(data)

    async def get_message(self, request: web.Request) -> web.Response:
        return self.msg_json(self._message(request, self._channel(request)))

    async def patch_message(self, request: web.Request) -> web.Response:
        msg = self._message(request, self._channel(request))
        if msg.author.id != self.emu.bot_user.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        body, uploads = await read_body(request)
        conform(self.world, "edit_message", body)
        return self.msg_json(apply_edit(self.world, msg, body, uploads))

    async def delete_message(self, request: web.Request) -> web.Response:
        msg = self._message(request, self._channel(request))
        self.world.delete_message(msg)
        return web.Response(status=204)

    async def put_reaction(self, request: web.Request) -> web.Response:
        msg = self._message(request, self._channel(request))
        msg.reactions.add(request.match_info["emoji"])
        self.world.notify()
        return web.Response(status=204)

    async def delete_reaction(self, request: web.Request) -> web.Response:
        msg = self._message(request, self._channel(request))
        msg.reactions.discard(request.match_info["emoji"])
        self.world.notify()
        return web.Response(status=204)

    async def get_attachment(self, request: web.Request) -> web.Response:
        att_id = int(request.match_info["att_id"])
        for msg in self.world.messages.values():
            for att in msg.attachments:
                if att.id == att_id:
                    ctype = att.content_type or "application/octet-stream"
                    return web.Response(body=att.data, content_type=ctype)
        uploaded = self.world.command_attachments.get(att_id)
        if uploaded is not None:
            ctype = uploaded.content_type or "application/octet-stream"
            return web.Response(body=uploaded.data, content_type=ctype)
        raise ApiError(404, 0, "404: Not Found")

    # -- guilds --------------------------------------------------------------
    async def get_guild(self, request: web.Request) -> web.Response:
        data = guild_create_payload(self._guild(request), self.world)
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            data.pop(key, None)
        return self._json(data)

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        return self._json([channel_payload(c, self.world) for c in guild.channels.values()])

    async def get_roles(self, request: web.Request) -> web.Response:
        return self._json([role_payload(r) for r in self._guild(request).roles.values()])

    async def get_members(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        after = int(request.query.get("after", 0))
        limit = int(request.query.get("limit", 1))
        members = sorted(
            (m for m in guild.members.values() if m.user.id > after), key=lambda m: m.user.id
        )
        return self._json([member_payload(m, guild) for m in members[:limit]])

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        member = guild.members.get(int(request.match_info["user_id"]))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return self._json(member_payload(member, guild))
