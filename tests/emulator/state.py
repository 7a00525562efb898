"""In-memory model of the fake Discord: users, guilds, channels, messages and records.

Nothing here does I/O. The REST and gateway layers mutate a single :class:`World`
and every mutation calls :meth:`World.notify` so that waiters (tests) wake up.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .nonces import NonceLedger

T = TypeVar("T")

DISCORD_EPOCH_MS = 1420070400000

# Channel types (subset).
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
GUILD_FORUM = 15
THREAD_TYPES = (10, 11, 12)

# Message flags.
EPHEMERAL = 1 << 6
LOADING = 1 << 7

#: Message types (subset): a user's message, and "X started a thread" in the parent.
DEFAULT_MESSAGE = 0
THREAD_CREATED = 18

# Permission bits used for defaults.
ADMINISTRATOR = 1 << 3
EVERYONE_PERMISSIONS = (
    (1 << 6)  # add reactions
    | (1 << 10)  # view channel
    | (1 << 11)  # send messages
    | (1 << 14)  # embed links
    | (1 << 15)  # attach files
    | (1 << 16)  # read message history
    | (1 << 18)  # use external emojis
    | (1 << 31)  # use application commands
    | (1 << 35)  # create public threads
    | (1 << 36)  # create private threads
    | (1 << 38)  # send messages in threads
)
ALL_PERMISSIONS = (1 << 51) - 1
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38


class SnowflakeFactory:
    """Produces increasing, realistic-looking snowflakes."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def __call__(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)


@dataclass(eq=False)
class User:
    id: int
    name: str
    bot: bool = False
    global_name: str | None = None

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int = 0
    position: int = 0


@dataclass(eq=False)
class Member:
    user: User
    guild_id: int
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = "2024-01-01T00:00:00.000000+00:00"


@dataclass(eq=False)
class Channel:
    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    position: int = 0
    recipient_id: int | None = None  # for DM channels: the human on the other side
    #: Permissions an overwrite takes from the bot here (``Emulator.deny_bot``): posting
    #: without them answers 403 Missing Permissions, and interactions from here carry
    #: ``app_permissions`` without them.
    bot_denied: int = 0
    #: A thread's (or forum post's) parent channel.
    parent_id: int | None = None
    #: A thread's creator, and whether it is locked or archived (no posts get in).
    owner_id: int | None = None
    locked: bool = False
    archived: bool = False
    #: A thread's members (its creator, and whoever was added): it is in their sidebar.
    members: set[int] = field(default_factory=set)

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES


#: Discord's upload limit in DMs and on a server without boosts (10 MiB).
DEFAULT_UPLOAD_LIMIT = 10 * 2**20


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    #: The largest upload the server takes (its boost level), in bytes: sent with every
    #: interaction as ``attachment_size_limit``; a larger message is refused (413).
    upload_limit: int = DEFAULT_UPLOAD_LIMIT

    def permissions_of(self, user_id: int) -> int:
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        perms = self.roles[self.id].permissions  # @everyone has the guild's id
        member = self.members.get(user_id)
        for role_id in member.roles if member else []:
            perms |= self.roles[role_id].permissions
        return ALL_PERMISSIONS if perms & ADMINISTRATOR else perms


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass(eq=False)
class Message:
    """A message as currently visible, plus every earlier version in ``versions``."""

    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    type: int = DEFAULT_MESSAGE
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    interaction_id: int | None = None  # the interaction this message answered
    interaction_type: int | None = None
    interaction_user_id: int | None = None
    webhook_id: int | None = None
    message_reference: dict[str, Any] | None = None
    #: The create request's nonce, echoed on the message (see ``nonces.py``).
    nonce: str | int | None = None
    #: Users this message notified: mentioned in its content and let through by its
    #: ``allowed_mentions`` (Discord's rules; see ``messages.pinged_users``).
    pinged: list[int] = field(default_factory=list)
    created_at: float = field(default_factory=time.time)
    edited_at: float | None = None
    deleted: bool = False
    reactions: set[str] = field(default_factory=set)
    versions: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    def snapshot(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "embeds": [dict(e) for e in self.embeds],
            "components": list(self.components),
            "attachments": [a.filename for a in self.attachments],
            "flags": self.flags,
            "at": self.edited_at or self.created_at,
        }

    def text(self) -> str:
        """Content, all embed text and attachment file names, newline separated."""
        parts = [self.content] if self.content else []
        for embed in self.embeds:
            parts.extend(embed_texts(embed))
        parts.extend(a.filename for a in self.attachments)
        parts.extend(text_display_texts(self.components))
        return "\n".join(parts)

    def iter_components(self) -> Iterator[dict[str, Any]]:
        """Every component (recursively through action rows / containers / sections)."""
        return iter_components(self.components)

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.iter_components() if "custom_id" in c]

    def component(
        self, custom_id: str | None = None, *, label: str | None = None
    ) -> dict[str, Any]:
        """Find one interactive component by custom_id or by visible label."""
        for comp in self.iter_components():
            if custom_id is not None and comp.get("custom_id") == custom_id:
                return comp
            if label is not None and comp.get("label") == label:
                return comp
        wanted = custom_id if custom_id is not None else f"label={label!r}"
        raise LookupError(f"no component {wanted} on message {self.id}; has {self.custom_ids()}")

    def button_labels(self) -> list[str]:
        return [c.get("label", "") for c in self.iter_components() if c.get("type") == 2]


def iter_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for comp in components:
        yield comp
        yield from iter_components(comp.get("components", []) or [])
        accessory = comp.get("accessory")
        if accessory:
            yield from iter_components([accessory])


def text_display_texts(components: list[dict[str, Any]]) -> list[str]:
    return [c["content"] for c in iter_components(components) if c.get("type") == 10]


def embed_texts(embed: dict[str, Any]) -> list[str]:
    out = []
    for key in ("title", "description"):
        if embed.get(key):
            out.append(str(embed[key]))
    for sub in ("author", "footer"):
        val = (embed.get(sub) or {}).get("name" if sub == "author" else "text")
        if val:
            out.append(str(val))
    for fld in embed.get("fields", []) or []:
        out.append(f"{fld.get('name', '')}: {fld.get('value', '')}")
    return out


@dataclass(eq=False)
class Interaction:
    """One interaction sent to the bot and everything the bot did with it."""

    id: int
    token: str
    type: int
    user: User
    channel: Channel
    guild: Guild | None
    payload: dict[str, Any]
    source_message_id: int | None = None  # the message holding the clicked component
    dispatched_at: float = 0.0  # perf_counter() just before the gateway send
    #: When it was sent, on the emulator's deadline clock (``deadlines.py``).
    sent_at: float = 0.0
    acked_at: float | None = None  # perf_counter() when the callback request arrived
    callback_type: int | None = None
    callback_data: dict[str, Any] | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    deferred_pending: bool = False  # type-5 defer whose placeholder was not yet replaced
    edits: int = 0
    choices: list[dict[str, Any]] | None = None  # autocomplete answer
    modal: dict[str, Any] | None = None

    @property
    def ack_latency(self) -> float | None:
        return None if self.acked_at is None else self.acked_at - self.dispatched_at


@dataclass
class Fault:
    pattern: str  # fnmatch pattern against "METHOD /path" (path without /api/v10)
    status: int  # 0: no error, the request is carried out and its answer waits ``delay``
    remaining: int
    retry_after: float = 0.0
    code: int = 0
    message: str = ""
    delay: float = 0.0


@dataclass
class RequestRecord:
    method: str
    path: str
    status: int
    at: float


#: How long a test waits, by default, for something the bot should do. A wait in a test
#: guards against a hang; it never measures speed (a benchmark does that, in bench/), so
#: it is long enough that only a hang reaches it, however loaded the machine is.
PATIENCE_S = 120.0
#: How often a wait looks again at what it waits for when nothing in the world changed.
RECHECK_S = 0.05


class World:
    """All emulator state, plus change notification for waiting tests."""

    def __init__(self) -> None:
        self.snowflake = SnowflakeFactory()
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.dm_channels: dict[int, Channel] = {}  # user id -> DM channel with the bot
        # files attached to slash-command options (type 11), by id, for GET /attachments
        self.command_attachments: dict[int, Attachment] = {}
        self.messages: dict[int, Message] = {}
        self.channel_index: dict[int, list[int]] = {}
        self.interactions: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.requests: list[RequestRecord] = []
        self.unknown_routes: list[tuple[str, str]] = []
        #: Bodies refused for breaking Discord's OpenAPI description: (route, problems).
        self.invalid_bodies: list[tuple[str, list[str]]] = []
        self.faults: list[Fault] = []
        self.dm_blocked: set[int] = set()
        self.nonces = NonceLedger()
        self.log: list[tuple[str, int, dict[str, Any]]] = []  # (create/edit/delete, msg id, snap)
        #: Every file uploaded, in order: (channel id, file name, sha256 of its bytes).
        self.uploads: list[tuple[int, str, str]] = []
        self.on_message_event: Callable[[str, Message], None] | None = None
        #: Channel and thread events (THREAD_CREATE...) for the gateway: (event, data).
        self.on_channel_event: Callable[[str, dict[str, Any]], None] | None = None
        #: The bot's user id (its permission overwrites name it).
        self.bot_user_id: int | None = None
        self._changed = asyncio.Event()

    # -- change notification -------------------------------------------------
    def notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], T | None], timeout: float, what: str) -> T:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"emulator: timed out after {timeout}s waiting for {what}")
            event = self._changed
            with contextlib.suppress(TimeoutError):
                # Woken by every change of the world, and anyway after a moment: a
                # predicate may read the bot's own state, which no world change announces.
                await asyncio.wait_for(event.wait(), min(remaining, RECHECK_S))

    # -- messages ------------------------------------------------------------
    def add_message(self, msg: Message) -> Message:
        msg.versions.append(msg.snapshot())
        self.messages[msg.id] = msg
        self.channel_index.setdefault(msg.channel_id, []).append(msg.id)
        self.log.append(("create", msg.id, msg.versions[-1]))
        if self.on_message_event:
            self.on_message_event("create", msg)
        self.notify()
        return msg

    def edited(self, msg: Message) -> None:
        msg.edited_at = time.time()
        msg.versions.append(msg.snapshot())
        self.log.append(("edit", msg.id, msg.versions[-1]))
        if self.on_message_event:
            self.on_message_event("edit", msg)
        self.notify()

    def delete_message(self, msg: Message) -> None:
        msg.deleted = True
        self.log.append(("delete", msg.id, msg.snapshot()))
        if self.on_message_event:
            self.on_message_event("delete", msg)
        self.notify()

    def messages_in(self, channel_id: int) -> list[Message]:
        return [self.messages[i] for i in self.channel_index.get(channel_id, [])]

    def channel_guild(self, channel: Channel) -> Guild | None:
        return self.guilds.get(channel.guild_id) if channel.guild_id else None

    def new_thread(
        self, parent: Channel, name: str, owner_id: int, *, id: int = 0, kind: int = PUBLIC_THREAD
    ) -> Channel:
        """A thread under ``parent`` (public unless ``kind`` says private; a forum's post
        too), its creator its first member, announced to the bot."""
        from .payloads import thread_payload

        thread = Channel(
            id=id or self.snowflake(),
            type=kind,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=owner_id,
            members={owner_id},
        )
        self.channels[thread.id] = thread
        if parent.guild_id is not None:
            self.guilds[parent.guild_id].channels[thread.id] = thread
        if self.on_channel_event:
            self.on_channel_event(
                "THREAD_CREATE", {**thread_payload(thread), "newly_created": True}
            )
        self.notify()
        return thread

    def bot_denied_in(self, channel: Channel) -> int:
        """What an overwrite takes from the bot here: a thread has none of its own, it
        takes its parent's (and ``Emulator.deny_bot`` on a thread itself, for tests)."""
        parent = self.channels.get(channel.parent_id) if channel.parent_id else None
        return channel.bot_denied | (parent.bot_denied if parent is not None else 0)
