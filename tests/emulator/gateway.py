"""The gateway websocket: HELLO, IDENTIFY/RESUME, heartbeats, READY and dispatches.

Sharding as Discord does it: an IDENTIFY may carry ``shard: [shard_id, shard_count]``.
Each shard's READY lists only its guilds and is followed by their GUILD_CREATEs; every
later guild event (messages, interactions, member chunks) goes to the shard
``(guild_id >> 22) % shard_count``, and DMs (no guild) go to shard 0. An IDENTIFY without
``shard`` is shard 0 of 1. Several clients (or processes) may hold different shards at
once; a new IDENTIFY for a shard takes it over from the session that held it.

Frames are always sent as uncompressed JSON text. discord.py asks for
``compress=zlib-stream`` in the URL, but it decodes text frames without
decompressing them, exactly as when Discord chooses not to compress.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from collections import deque
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .payloads import guild_create_payload, member_payload, message_payload, user_payload

if TYPE_CHECKING:
    from .server import EmulatorServer
    from .state import Message

GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
REPLAY_BUFFER = 2000


class Connection:
    """One websocket plus an ordered writer task, so dispatches never interleave."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.writer = asyncio.create_task(self._write())

    def send(self, payload: dict[str, Any] | str) -> None:
        self.queue.put_nowait(payload if isinstance(payload, str) else json.dumps(payload))

    async def _write(self) -> None:
        while (item := await self.queue.get()) is not None:
            if self.ws.closed:
                return
            try:
                await self.ws.send_str(item)
            except (ConnectionError, RuntimeError):
                return

    async def stop(self) -> None:
        self.queue.put_nowait(None)
        with contextlib.suppress(asyncio.CancelledError):
            await self.writer


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """Discord's routing: a guild's events go to ``(guild_id >> 22) % shard_count``; DMs to 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def event_guild(event: str, data: dict[str, Any]) -> int | None:
    """The guild a dispatch is about (None for DMs and for events about no guild)."""
    raw = data.get("id") if event.startswith("GUILD_") and "guild_id" not in data else None
    raw = data.get("guild_id", raw)
    return int(raw) if raw else None


class Session:
    def __init__(self, intents: int, shard: tuple[int, int] = (0, 1)) -> None:
        self.id = uuid.uuid4().hex
        self.seq = 0
        self.intents = intents
        self.shard = shard
        self.buffer: deque[tuple[int, str]] = deque(maxlen=REPLAY_BUFFER)
        self.conn: Connection | None = None


class Gateway:
    heartbeat_interval_ms = 41250

    def __init__(self, emu: EmulatorServer) -> None:
        self.emu = emu
        self.sessions: dict[str, Session] = {}
        #: The session that holds each shard, by shard id (shard 0 of 1 without sharding).
        self.shards: dict[int, Session] = {}
        #: The shard count of the latest IDENTIFY: events are routed over this many shards.
        self.shard_count = 1
        #: Every IDENTIFY's shard, in order, as (shard_id, shard_count).
        self.identified: list[tuple[int, int]] = []
        self.identify_count = 0
        self.resume_count = 0
        self.unknown_ops: list[dict[str, Any]] = []
        self._sockets: set[web.WebSocketResponse] = set()

    # -- public --------------------------------------------------------------
    @property
    def current(self) -> Session | None:
        """The session of shard 0: the only one when the bot does not shard."""
        return self.shards.get(0)

    @property
    def connected(self) -> bool:
        """Every shard of the current count is held by a connected session."""
        return bool(self.shards) and all(
            self.shard_connected(shard) for shard in range(self.shard_count)
        )

    def shard_connected(self, shard: int) -> bool:
        session = self.shards.get(shard)
        return session is not None and session.conn is not None

    def session_for(self, guild_id: int | None) -> Session | None:
        """The session that receives events about ``guild_id`` (None: a DM, shard 0)."""
        return self.shards.get(shard_of(guild_id, self.shard_count))

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Queue a DISPATCH (op 0) to the session of the shard the event belongs to."""
        guild_id = event_guild(event, data)
        session = self.session_for(guild_id)
        if session is None:
            shard = shard_of(guild_id, self.shard_count)
            raise RuntimeError(f"emulator: no bot session on shard {shard} to dispatch {event} to")
        self._send(session, event, data)

    def _send(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = json.dumps({"op": 0, "t": event, "s": session.seq, "d": data})
        session.buffer.append((session.seq, frame))
        if session.conn is not None:
            session.conn.send(frame)

    def message_event(self, kind: str, msg: Message) -> None:
        """World hook: mirror message create/edit/delete as gateway events."""
        session = self.session_for(msg.guild_id)
        if session is None or msg.ephemeral:
            return
        needed = DIRECT_MESSAGES if msg.guild_id is None else GUILD_MESSAGES
        if not session.intents & needed:
            return
        world = self.emu.world
        if kind == "delete":
            data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id:
                data["guild_id"] = str(msg.guild_id)
            self._send(session, "MESSAGE_DELETE", data)
            return
        data = message_payload(msg, world, self.emu.base_url)
        self._send(session, "MESSAGE_CREATE" if kind == "create" else "MESSAGE_UPDATE", data)

    def channel_event(self, event: str, data: dict[str, Any]) -> None:
        """World hook: a channel or thread was created, changed or deleted (GUILDS)."""
        if self.current is not None:
            self.dispatch(event, data)

    async def drop(self, code: int = 4000) -> None:
        """Close every shard's socket (discord.py then reconnects and RESUMEs)."""
        for session in list(self.shards.values()):
            if session.conn is not None:
                await session.conn.ws.close(code=code)

    def request_reconnect(self) -> None:
        """Send op 7 RECONNECT to every shard, as Discord does before moving a session."""
        for session in self.shards.values():
            if session.conn is not None:
                session.conn.send({"op": 7, "d": None})

    async def close(self) -> None:
        for ws in list(self._sockets):
            await ws.close(code=1001)

    # -- websocket handler ---------------------------------------------------
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._sockets.add(ws)
        conn = Connection(ws)
        conn.send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        session: Session | None = None
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                op, data = payload.get("op"), payload.get("d")
                if op == 1:
                    conn.send({"op": 11})
                elif op == 2:
                    session = await self._identify(conn, data)
                elif op == 6:
                    session = self._resume(conn, data)
                elif op == 8:
                    self._request_members(session, data)
                elif op in (3, 4):
                    pass
                else:
                    self.unknown_ops.append(payload)
        finally:
            if session is not None and session.conn is conn:
                session.conn = None
            await conn.stop()
            self._sockets.discard(ws)
            self.emu.world.notify()
        return ws

    async def _identify(self, conn: Connection, data: dict[str, Any]) -> Session | None:
        if data.get("token", "").removeprefix("Bot ") != self.emu.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard = data.get("shard") or [0, 1]
        shard_id, shard_count = int(shard[0]), int(shard[1])
        if shard_count < 1 or not 0 <= shard_id < shard_count:
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return None
        session = Session(int(data.get("intents", 0)), (shard_id, shard_count))
        session.conn = conn
        self.sessions[session.id] = session
        if shard_count != self.shard_count:
            # A new shard count: sessions sharded the old way no longer receive anything.
            self.shards = {k: v for k, v in self.shards.items() if v.shard[1] == shard_count}
            self.shard_count = shard_count
        self.shards[shard_id] = session
        self.identified.append((shard_id, shard_count))
        self.identify_count += 1
        emu, world = self.emu, self.emu.world
        guilds = [g for g in world.guilds.values() if shard_of(g.id, shard_count) == shard_id]
        ready: dict[str, Any] = {
            "v": 10,
            "user": {**user_payload(emu.bot_user), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": emu.ws_url,
            "application": {"id": str(emu.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "auth": {},
            "_trace": ["dispatch-emulator"],
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        self._send(session, "READY", ready)
        for guild in guilds:
            self._send(session, "GUILD_CREATE", guild_create_payload(guild, world))
        world.notify()
        return session

    def _resume(self, conn: Connection, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(data.get("session_id", ""))
        token_ok = data.get("token", "").removeprefix("Bot ") == self.emu.token
        if session is None or not token_ok:
            conn.send({"op": 9, "d": False})
            return None
        session.conn = conn
        if self.shards.get(session.shard[0]) is None and session.shard[1] == self.shard_count:
            self.shards[session.shard[0]] = session
        self.resume_count += 1
        last = data.get("seq") or 0
        for seq, frame in session.buffer:
            if seq > last:
                conn.send(frame)
        self._send(session, "RESUMED", {"_trace": ["dispatch-emulator"]})
        self.emu.world.notify()
        return session

    def _request_members(self, session: Session | None, data: dict[str, Any]) -> None:
        """Answer on the asking session (it holds the guild's shard)."""
        world = self.emu.world
        if session is None:
            return
        guild = world.guilds.get(int(data["guild_id"]))
        if guild is None:
            return
        members = list(guild.members.values())
        if data.get("user_ids"):
            wanted = {int(u) for u in data["user_ids"]}
            members = [m for m in members if m.user.id in wanted]
        elif data.get("query"):
            members = [m for m in members if m.user.name.startswith(data["query"])]
        if data.get("limit"):
            members = members[: int(data["limit"])]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [member_payload(m, guild) for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        self._send(session, "GUILD_MEMBERS_CHUNK", chunk)
