"""The test-facing API: set up a world, act as users, and inspect what they received."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Sequence
from typing import Any

import discord

from . import builders
from .builders import CommandError
from .gateway import shard_of
from .nonces import CreateRecord
from .payloads import channel_payload
from .results import InteractionResult
from .server import EmulatorServer
from .state import (
    EVERYONE_PERMISSIONS,
    GUILD_FORUM,
    GUILD_TEXT,
    PATIENCE_S,
    Attachment,
    Channel,
    Fault,
    Guild,
    Interaction,
    Member,
    Message,
    RequestRecord,
    Role,
    User,
)


class Emulator(EmulatorServer):
    """Loopback Discord. ``async with Emulator() as emu:`` starts it and patches discord.py."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._cursors: dict[int, int] = {}

    # -- world setup ---------------------------------------------------------
    def add_user(self, name: str, *, bot: bool = False) -> User:
        user = User(id=self.world.snowflake(), name=name, bot=bot)
        self.world.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        owner: User | None = None,
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """A guild (with @everyone role and the bot as member) owned by ``owner``.

        ``shard=(shard_id, shard_count)`` picks an id that Discord's routing,
        ``(guild_id >> 22) % shard_count``, sends to that shard.
        """
        owner = owner or self.owner
        guild_id = self.world.snowflake()
        if shard is not None:
            shard_id, count = shard
            stamp = guild_id >> 22
            stamp += (shard_id - stamp) % count
            guild_id = (stamp << 22) | (guild_id & 0x3FFFFF)
            assert shard_of(guild_id, count) == shard_id
        guild = Guild(id=guild_id, name=name, owner_id=owner.id)
        guild.roles[guild.id] = Role(
            id=guild.id, name="@everyone", permissions=EVERYONE_PERMISSIONS
        )
        self.world.guilds[guild.id] = guild
        for user in (self.bot_user, owner):
            guild.members[user.id] = Member(user=user, guild_id=guild.id)
        return guild

    def add_text_channel(self, guild: Guild, name: str = "general") -> Channel:
        channel = Channel(
            id=self.world.snowflake(),
            type=GUILD_TEXT,
            name=name,
            guild_id=guild.id,
            position=len(guild.channels),
        )
        guild.channels[channel.id] = channel
        self.world.channels[channel.id] = channel
        if self.world.on_channel_event:  # a bot already connected hears of it
            self.world.on_channel_event("CHANNEL_CREATE", channel_payload(channel, self.world))
        return channel

    def add_forum_channel(self, guild: Guild, name: str = "games-forum") -> Channel:
        """A forum channel (type 15): its games open as posts (threads with a message)."""
        channel = Channel(
            id=self.world.snowflake(),
            type=GUILD_FORUM,
            name=name,
            guild_id=guild.id,
            position=len(guild.channels),
        )
        guild.channels[channel.id] = channel
        self.world.channels[channel.id] = channel
        if self.world.on_channel_event:
            self.world.on_channel_event("CHANNEL_CREATE", channel_payload(channel, self.world))
        return channel

    def add_thread(
        self, parent: Channel, name: str = "thread", *, owner: User | None = None
    ) -> Channel:
        """A public thread (type 11) that already exists under ``parent`` (add it before the
        bot connects, or it hears of it by THREAD_CREATE)."""
        return self.world.new_thread(parent, name, (owner or self.owner).id)

    def archive_thread(self, thread: Channel) -> None:
        """Discord archives the thread after its quiet spell (not locked): posts there
        answer 400 50083 until someone who may post in it unarchives it."""
        thread.archived = True
        if self.world.on_channel_event:
            self.world.on_channel_event("THREAD_UPDATE", channel_payload(thread, self.world))

    def lock_thread(self, thread: Channel, *, archived: bool = True) -> None:
        """A moderator locks (and archives) the thread: posts there answer 400 50083."""
        thread.locked, thread.archived = True, archived

    def deny_bot(self, channel: Channel, permissions: int) -> None:
        """A channel overwrite that takes ``permissions`` from the bot (0: lift it); the
        bot hears of it by CHANNEL_UPDATE, as from Discord (a thread has no overwrites of
        its own: one set on it here is the emulator's shorthand, unannounced)."""
        channel.bot_denied = permissions
        if self.world.on_channel_event and channel.guild_id and not channel.is_thread:
            self.world.on_channel_event("CHANNEL_UPDATE", channel_payload(channel, self.world))

    def delete_channel(self, channel: Channel) -> None:
        """The channel is deleted: every request about it answers 404 Unknown Channel."""
        self.world.channels.pop(channel.id, None)
        if channel.guild_id is not None:
            self.world.guilds[channel.guild_id].channels.pop(channel.id, None)

    def add_role(self, guild: Guild, name: str, permissions: int = 0) -> Role:
        role = Role(id=self.world.snowflake(), name=name, permissions=permissions)
        role.position = len(guild.roles)
        guild.roles[role.id] = role
        return role

    def add_member(
        self, guild: Guild, user: User | str, *, roles: Sequence[Role] = (), nick: str | None = None
    ) -> User:
        """Add a member (a new user if ``user`` is a name). Call before the bot connects,
        or the bot's cache will not know them (interactions still carry full member data)."""
        if isinstance(user, str):
            user = self.add_user(user)
        guild.members[user.id] = Member(
            user=user, guild_id=guild.id, roles=[r.id for r in roles], nick=nick
        )
        return user

    # -- fault injection -----------------------------------------------------
    def fail_dm(self, user_id: int) -> None:
        """DMs to this user answer 403 / code 50007 (user has DMs closed)."""
        self.world.dm_blocked.add(int(user_id))

    def allow_dm(self, user_id: int) -> None:
        self.world.dm_blocked.discard(int(user_id))

    def rate_limit_next(
        self, route_pattern: str, retry_after: float = 0.05, count: int = 1
    ) -> None:
        """Next ``count`` requests matching ``"METHOD /path"`` (fnmatch) answer 429."""
        self.world.faults.append(Fault(route_pattern, 429, count, retry_after=retry_after))

    def fail_next(
        self,
        route_pattern: str,
        status: int = 500,
        count: int = 1,
        *,
        code: int = 0,
        message: str = "",
    ) -> None:
        """Next ``count`` matching requests answer ``status`` with {"code", "message"}."""
        self.world.faults.append(Fault(route_pattern, status, count, code=code, message=message))

    def slow_next(self, route_pattern: str, seconds: float, count: int = 1) -> None:
        """Next ``count`` matching requests are carried out at once, but answered only after
        ``seconds``: a slow Discord, where a client can die between the act and the answer."""
        self.world.faults.append(Fault(route_pattern, 0, count, delay=seconds))

    # -- acting as users -----------------------------------------------------
    def inject_message(
        self,
        channel: Channel,
        content: str = "",
        *,
        author: User | None = None,
        components: list[dict[str, Any]] | None = None,
        embeds: list[dict[str, Any]] | None = None,
    ) -> Message:
        """Create a message directly (default author: the bot, e.g. a pre-restart game post)."""
        msg = Message(
            id=self.world.snowflake(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author or self.bot_user,
            content=content,
            components=list(components or []),
            embeds=list(embeds or []),
        )
        return self.world.add_message(msg)

    def say(self, user: User, channel: Channel, content: str) -> Message:
        """A user posts a plain message (dispatched as MESSAGE_CREATE if intents allow)."""
        return self.inject_message(channel, content, author=user)

    def _send_interaction(
        self, kind: int, user: User, channel: Channel, data: dict[str, Any], source: Message | None
    ) -> InteractionResult:
        payload = builders.base_payload(self, kind=kind, user=user, channel=channel, data=data)
        if source is not None:
            payload["message"] = builders.message_for_interaction(self, source)
        record = Interaction(
            id=int(payload["id"]),
            token=payload["token"],
            type=kind,
            user=user,
            channel=channel,
            guild=self.world.channel_guild(channel),
            payload=payload,
            source_message_id=source.id if source else None,
        )
        shard = shard_of(channel.guild_id, self.gateway.shard_count)
        if not self.gateway.shard_connected(shard):
            raise RuntimeError(f"emulator: no bot is connected to the gateway on shard {shard}")
        self.world.interactions[record.id] = record
        self.world.by_token[record.token] = record
        record.dispatched_at = time.perf_counter()
        record.sent_at = self.clock()
        self.gateway.dispatch("INTERACTION_CREATE", payload)
        return InteractionResult(self, record)

    async def _command_data(
        self, user: User, channel: Channel | None, command: str, **kw: Any
    ) -> tuple[Channel, dict[str, Any]]:
        channel = channel or self.dm_channel(user)
        guild = self.world.channel_guild(channel)
        # Until the bot has synced (any command, here or globally): then a command it
        # did not sync is refused at once, as Discord's menu would not offer it.
        with contextlib.suppress(TimeoutError):
            await self.world.wait_until(
                lambda: (
                    self.world.global_commands
                    or (self.world.guild_commands.get(guild.id, []) if guild else [])
                ),
                PATIENCE_S,
                "command sync",
            )
        return channel, builders.command_data(self, user=user, channel=channel, path=command, **kw)

    async def slash(
        self, user: User, channel: Channel | None, command: str, /, **options: Any
    ) -> InteractionResult:
        """Invoke ``/command`` ("game new" for subcommands) as ``user`` in ``channel``
        (None = DM with the bot). Options: str/int/float/bool, User, Role, Channel."""
        channel, data = await self._command_data(user, channel, command, options=options)
        return self._send_interaction(2, user, channel, data, None)

    async def autocomplete(
        self,
        user: User,
        channel: Channel | None,
        command: str,
        /,
        *,
        focused: str | None = None,
        timeout: float = PATIENCE_S,
        **options: Any,
    ) -> list[dict[str, Any]]:
        """Type into option ``focused`` (default: the last keyword) and return the choices."""
        focused = focused or list(options)[-1]
        channel, data = await self._command_data(
            user, channel, command, options=options, focused=focused
        )
        result = self._send_interaction(4, user, channel, data, None)
        await result.acknowledged(timeout)
        if result.callback_type != 8:
            raise AssertionError(f"autocomplete answered with callback type {result.callback_type}")
        return result.choices or []

    def _check_visible(self, user: User, message: Message) -> Channel:
        if message.deleted:
            raise CommandError(f"message {message.id} was deleted")
        if message.ephemeral and message.interaction_user_id != user.id:
            raise CommandError(f"{user.name} cannot see ephemeral message {message.id}")
        channel = self.world.channels[message.channel_id]
        if channel.is_dm and channel.recipient_id != user.id:
            raise CommandError(f"{user.name} cannot see DM message {message.id}")
        return channel

    async def click(
        self,
        user: User,
        message: Message,
        custom_id: str | None = None,
        *,
        label: str | None = None,
    ) -> InteractionResult:
        """Click a button, chosen by custom_id or by its label, on the message's current version."""
        channel = self._check_visible(user, message)
        if custom_id is None:
            custom_id = message.component(label=label)["custom_id"]
        data = builders.component_data(self, message, custom_id, None)
        return self._send_interaction(3, user, channel, data, message)

    async def select(
        self, user: User, message: Message, custom_id: str, values: list[Any]
    ) -> InteractionResult:
        """Choose ``values`` in a select (strings; Users/Roles/Channels for entity selects)."""
        channel = self._check_visible(user, message)
        data = builders.component_data(self, message, custom_id, values)
        return self._send_interaction(3, user, channel, data, message)

    async def submit_modal(
        self, user: User, opened: InteractionResult, values: dict[str, str]
    ) -> InteractionResult:
        """Fill in and submit the modal the bot answered ``opened`` with (callback type 9).
        ``values`` by text input custom_id; inputs left out keep their default."""
        modal = opened.modal
        if opened.callback_type != 9 or modal is None:
            raise CommandError("that interaction was not answered with a modal")
        if opened.record.user.id != user.id:
            raise CommandError(f"{user.name} did not open that modal")
        data = builders.modal_submit_data(modal, values)
        channel = opened.record.channel
        source_id = opened.record.source_message_id
        source = self.world.messages.get(source_id) if source_id else None
        return self._send_interaction(5, user, channel, data, source)

    def attachment(
        self, filename: str, data: bytes, content_type: str | None = "text/csv"
    ) -> Attachment:
        """A file a user attaches to a slash-command option (type 11)."""
        return Attachment(
            id=self.world.snowflake(), filename=filename, data=data, content_type=content_type
        )

    # -- waiting -------------------------------------------------------------
    async def wait_ready(self, timeout: float = PATIENCE_S) -> None:
        """Wait until a bot has IDENTIFYed (READY and GUILD_CREATEs are queued)."""
        await self.world.wait_until(lambda: self.gateway.connected, timeout, "bot to connect")

    async def wait_for_commands(self, *names: str, timeout: float = PATIENCE_S) -> None:
        """Wait until the bot has synced commands with these top-level names (any, if none)."""

        def synced() -> bool:
            have = {c["name"] for c in self.all_commands()}
            return bool(have) and set(names) <= have

        await self.world.wait_until(synced, timeout, f"commands {names or 'any'} to be synced")

    async def wait_for_messages(
        self,
        channel: Channel,
        count: int = 1,
        timeout: float = PATIENCE_S,
        *,
        after: Message | int | None = None,
        responses: bool = True,
    ) -> list[Message]:
        """Wait for ``count`` new public bot messages in ``channel`` and return them.

        "New" means after ``after`` (a message or id) if given, else after the last message
        a previous wait_for_messages call on this channel returned. ``responses=False``
        ignores interaction response/followup messages (only plain channel posts count).
        """
        start = after.id if isinstance(after, Message) else after
        if start is None:
            start = self._cursors.get(channel.id, 0)

        def found() -> list[Message]:
            msgs = [
                m
                for m in self.world.messages_in(channel.id)
                if m.id > start
                and m.author.id == self.bot_user.id
                and not m.ephemeral
                and not m.loading
                and (responses or m.interaction_id is None)
            ]
            return msgs[:count] if len(msgs) >= count else []

        msgs = await self.world.wait_until(found, timeout, f"{count} new messages in {channel.id}")
        self._cursors[channel.id] = msgs[-1].id
        return msgs

    async def disconnect_bot(self, code: int = 4000) -> None:
        """Close the bot's gateway socket; discord.py reconnects and RESUMEs."""
        await self.gateway.drop(code)

    # -- inspection ----------------------------------------------------------
    def all_commands(self) -> list[dict[str, Any]]:
        out = list(self.world.global_commands)
        for cmds in self.world.guild_commands.values():
            out += cmds
        return out

    def channel_messages(
        self, channel_id: int, *, include_ephemeral: bool = False, include_deleted: bool = False
    ) -> list[Message]:
        """Messages in a channel, oldest first, as everybody sees them (no ephemerals)."""
        return [
            m
            for m in self.world.messages_in(int(channel_id))
            if (include_ephemeral or not m.ephemeral) and (include_deleted or not m.deleted)
        ]

    def dms(self, user_id: int) -> list[Message]:
        """Messages the bot sent to this user's DM channel (including interaction replies)."""
        channel = self.world.dm_channels.get(int(user_id))
        if channel is None:
            return []
        msgs = self.channel_messages(channel.id, include_ephemeral=True)
        return [m for m in msgs if m.author.id == self.bot_user.id]

    def ephemeral_replies(self, user_id: int) -> list[Message]:
        """Ephemeral messages only ``user_id`` could see, in creation order."""
        return [
            m
            for m in self.world.messages.values()
            if m.ephemeral and not m.deleted and m.interaction_user_id == int(user_id)
        ]

    def all_text_sent_to_channel(self, channel_id: int) -> str:
        """Publicly visible text ever posted (every version: content, embeds, file names)."""
        parts: list[str] = []
        for msg in self.world.messages_in(int(channel_id)):
            if msg.ephemeral:
                continue
            seen = msg.text()
            parts.append(seen)
            for version in msg.versions[:-1]:
                old = Message(
                    id=0,
                    channel_id=0,
                    guild_id=None,
                    author=msg.author,
                    content=version["content"],
                    embeds=version["embeds"],
                    components=version["components"],
                )
                parts.append(old.text() + "\n" + "\n".join(version["attachments"]))
        return "\n".join(p for p in parts if p)

    def message(self, message_id: int) -> Message:
        return self.world.messages[int(message_id)]

    @property
    def unknown_routes(self) -> list[tuple[str, str]]:
        return self.world.unknown_routes

    @property
    def requests(self) -> list[RequestRecord]:
        return self.world.requests

    @property
    def message_creates(self) -> list[CreateRecord]:
        """Every accepted create-message request: its nonce, and whether it was a repeat."""
        return self.world.nonces.creates

    @property
    def interactions(self) -> list[Interaction]:
        return list(self.world.interactions.values())

    # -- running a bot -------------------------------------------------------
    @contextlib.asynccontextmanager
    async def running(
        self, bot: discord.Client, *, timeout: float = PATIENCE_S, fast_ready: bool = True
    ) -> AsyncIterator[discord.Client]:
        """Start ``bot`` against the emulator, wait for on_ready, close it on exit.

        ``fast_ready`` lowers discord.py's guild_ready_timeout (default 2 s) to 0.05 s.
        """
        if fast_ready:
            bot._connection.guild_ready_timeout = min(bot._connection.guild_ready_timeout, 0.05)
        task = asyncio.create_task(bot.start(self.token), name="emulated-bot")
        ready = asyncio.create_task(bot.wait_until_ready())
        try:
            done, _ = await asyncio.wait(
                {task, ready}, timeout=timeout, return_when="FIRST_COMPLETED"
            )
            if task in done:
                task.result()
                raise RuntimeError("bot.start() returned before the bot became ready")
            if ready not in done:
                raise TimeoutError(f"bot did not become ready within {timeout}s")
            yield bot
        finally:
            ready.cancel()
            await bot.close()
            with contextlib.suppress(asyncio.CancelledError):
                await task
