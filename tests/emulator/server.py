"""Starting/stopping the loopback server and pointing discord.py at it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Self

import discord.gateway
import discord.http
import yarl
from aiohttp import web

from .deadlines import Clock, default_clock
from .gateway import Gateway
from .nonces import DEFAULT_WINDOW_S
from .rest import Rest
from .rest_interactions import InteractionRoutes
from .state import DM, Channel, User, World

DEFAULT_TOKEN = "emulator.bot.token"


class EmulatorServer:
    """aiohttp app on 127.0.0.1:<ephemeral> serving REST under /api/v10 and the gateway at /ws."""

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_name: str = "Dispatch",
        nonce_window_s: float = DEFAULT_WINDOW_S,
        clock: Clock | None = None,
    ) -> None:
        self.world = World()
        #: What Discord's interaction deadlines are measured on (``deadlines.py``).
        self.clock: Clock = clock or default_clock()
        self.world.nonces.window_s = nonce_window_s
        self.token = token
        self.application_id = self.world.snowflake()
        # Like Discord: the bot user's id equals the application id.
        self.bot_user = User(id=self.application_id, name=bot_name, bot=True)
        self.owner = User(id=self.world.snowflake(), name="owner")
        self.world.users[self.bot_user.id] = self.bot_user
        self.world.users[self.owner.id] = self.owner
        self.gateway = Gateway(self)
        self.rest = Rest(self)
        self.interaction_routes = InteractionRoutes(self)
        self.world.on_message_event = self.gateway.message_event
        self.world.on_channel_event = self.gateway.channel_event
        self.world.bot_user_id = self.bot_user.id
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._patch_stack: contextlib.ExitStack | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/"

    async def start(self, *, patch: bool = True) -> None:
        """Bind an ephemeral port; with ``patch`` also redirect discord.py to it."""
        app = web.Application(middlewares=[self.rest.middleware], client_max_size=64 * 2**20)
        app.router.add_get("/ws/", self.gateway.handle)
        app.router.add_get("/ws", self.gateway.handle)
        self.rest.register(app)
        self.interaction_routes.register(app)
        app.router.add_route("*", "/{tail:.*}", self.rest.unknown)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        # The runner's public view of its one site's bound socket (host, port).
        [address] = self._runner.addresses
        self.port = address[1]
        if patch:
            self._patch_stack = contextlib.ExitStack()
            self._patch_stack.enter_context(self.patched_discord())

    async def stop(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._patch_stack is not None:
            self._patch_stack.close()
            self._patch_stack = None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @contextlib.contextmanager
    def patched_discord(self) -> Iterator[None]:
        """Point discord.http.Route.BASE and the default gateway at this emulator."""
        old_base = discord.http.Route.BASE
        old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.ws_url)
        try:
            yield
        finally:
            discord.http.Route.BASE = old_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    def dm_channel(self, user: User) -> Channel:
        """The (single) DM channel between the bot and ``user``, created on first use."""
        channel = self.world.dm_channels.get(user.id)
        if channel is None:
            channel = Channel(id=self.world.snowflake(), type=DM, recipient_id=user.id)
            self.world.dm_channels[user.id] = channel
            self.world.channels[channel.id] = channel
        return channel
