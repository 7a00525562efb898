"""The discord.py client: opens the store, wires the manager to Discord, runs deliveries.

Only non-privileged intents: slash commands and components need no message content,
member list or presences. Commands are not synced globally on every start (Discord rate
limits that, and it is slow to propagate): with ``DISPATCH_DEV_GUILD`` they are synced to
that server at once on start; otherwise globally only when the command set changed since
the last sync (a hash kept next to the database), and on demand with ``/dispatch sync``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Config
from bot.discord_app import (
    checks,
    components,
    custom_ids,
    interactions,
    threads,
)
from bot.discord_app.cogs import EXTENSIONS
from bot.discord_app.failures import DevGuildUnusable
from bot.discord_app.frontend import DiscordFrontEnd
from bot.discord_app.league_room import DiscordLeagueRoom
from bot.discord_app.room import DispatchClient, client_of, stopping
from bot.dispatch_players.bots import BotSeats
from bot.process.lifecycle import release_claims
from bot.storage.engines import POSTS_QUEUED
from bot.storage.liveness import Liveness
from bot.tables.manager import GameManager
from bot.web.serve import WebServer
from bot.workers.wake import Bell

log = logging.getLogger("dispatch.discord")

NOT_RECOGNISED = (
    "This button is not recognised (it may come from an older version of Dispatch). "
    "Use /game hand for your current prompt."
)


def intents() -> discord.Intents:
    chosen = discord.Intents.default()
    chosen.message_content = False
    chosen.members = False
    chosen.presences = False
    return chosen


class DispatchTree(app_commands.CommandTree):
    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        if stopping(interaction):
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.send_message(components.RESTARTING, ephemeral=True)
            return False
        return True

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        # Cogs answer their own errors; this catches what slips past them (checks, transforms).
        refused = checks.refusal(error)
        if refused is not None and not interaction.response.is_done():
            await interactions.reply(interaction, refused)
            return
        if interaction.response.is_done() and not isinstance(
            error, app_commands.CommandInvokeError
        ):
            log.warning("app command error after response: %r", error)
            return
        original = getattr(error, "original", error)
        # No game here, but some in threads of this channel: say which.
        original = await threads.explain_no_game(
            interaction, original, client_of(interaction).manager
        )
        await interactions.report(interaction, original)


class DispatchBot(DispatchClient):
    def __init__(
        self,
        config: Config,
        *,
        delivery_interval: float = 5.0,
        sync_on_start: bool = True,
        manager_options: dict[str, Any] | None = None,
        **client_options: Any,
    ) -> None:
        # Dispatch never joins a voice channel: without this, discord.py warns at every
        # start that the voice libraries (PyNaCl, davey) are not installed.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            tree_cls=DispatchTree,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **client_options,
        )
        self.config = config
        self.web = config.web
        #: The spectator page served in this process (``DISPATCH_WEB_PORT``), if any.
        self.web_server: WebServer | None = None
        self.delivery_interval = delivery_interval
        self.sync_on_start = sync_on_start
        self.manager_options = dict(manager_options or {})
        self.manager = None
        #: Dispatch's own seats, listening to the manager (attached in ``setup_hook``).
        self.bots: BotSeats | None = None
        self.frontend: DiscordFrontEnd = DiscordFrontEnd(self, lambda: self.manager)
        self._background: asyncio.Task[None] | None = None
        self._stop_background = asyncio.Event()

    # -- start-up -----------------------------------------------------------------
    async def setup_hook(self) -> None:
        options = {"outbox_keep_days": self.config.outbox_keep_days, **self.manager_options}
        self.manager = await GameManager.open(
            self.config.store_target, self.frontend, deliver=False, patient=True, **options
        )
        # Dispatch's own seats listen to the manager; attached before ``deliver_pending``,
        # whose announcement has them make the moves a previous run left owed.
        self.bots = BotSeats.attach(self.manager)
        # Leagues open their games' threads and say their rounds in Discord's channels.
        self.manager.leagues.attach_room(DiscordLeagueRoom(self))
        web = self.config.web
        if web.port is not None:
            # The page's own read-only store, told of turns by this manager (or LISTEN).
            self.web_server = await WebServer.start(
                self.config.store_target, web, web.port, manager=self.manager
            )
        # Each feature's cog registers the DynamicItems of its buttons and selects.
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.sync_on_start:
            await self.sync_commands()
        # Redeliver what a previous run committed but did not send, then keep retrying
        # failed deliveries and firing reminders. In the background: start-up is not held.
        self._background = asyncio.create_task(self._deliveries(), name="dispatch-deliveries")

    async def _deliveries(self) -> None:
        assert self.manager is not None and self.bots is not None
        # Beating from the start: claims this process takes are known to be alive.
        store = self.manager.store
        beats = Liveness(store, (store.instance, self.bots.owner))
        async with beats.running(self._stop_background), self._posts_from_workers():
            try:
                await self.manager.deliver_pending()
            except Exception:
                log.exception("redelivery at start-up failed; the loop will retry")
            await self.manager.background.run(self.delivery_interval, self._stop_background)

    @contextlib.asynccontextmanager
    async def _posts_from_workers(self) -> AsyncIterator[None]:
        """While the block runs, deliver the posts a ``dispatch worker`` left in the
        outbox as soon as it says so (PostgreSQL's NOTIFY), not at the next background
        pass: every process would otherwise have to poll often for them."""
        assert self.manager is not None
        if self.manager.store.dialect != "postgresql":
            yield
            return
        task = asyncio.create_task(self._deliver_when_told(), name="dispatch-posts-queued")
        try:
            yield
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def _deliver_when_told(self) -> None:
        assert self.manager is not None
        told = asyncio.Event()
        bell = Bell(self.manager.store.path, told, channel=POSTS_QUEUED)
        try:
            while True:
                await bell.ensure()  # a listener lost (a restart) is opened again here
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(told.wait(), self.delivery_interval)
                if told.is_set():
                    told.clear()
                    await self._deliver_told(bell.take())
        finally:
            await bell.close()

    async def _deliver_told(self, heard: list[str]) -> None:
        """Deliver the games ``heard`` names ("<game id> <guild id>") whose guild is on
        this process's shards, or whose posts are DMs: the process whose gateway sees
        the guild is the one that delivers its clicks' posts too, so one process, not
        every one, works on each. Told nothing (woken as the listener opened): every
        game that waits. Another shard's game is left to its process, or, if that one
        is down, to the background pass."""
        assert self.manager is not None
        games: list[int | None] = [] if heard else [None]
        for said in heard:
            game, _, guild = said.partition(" ")
            if game.isdigit() and (not guild.isdigit() or self.get_guild(int(guild))):
                games.append(int(game))
        for game_id in dict.fromkeys(games):
            try:
                await self.manager.deliver_due(game_id)
            except Exception as exc:  # the background pass tries again
                log.warning("delivering a worker's posts failed: %r", exc)

    async def sync_commands(self) -> None:
        guild_id = self.config.dev_guild_id
        if guild_id:
            await self._sync_to_dev_guild(guild_id)
            return
        digest = self.commands_digest()
        marker = self._digest_file()
        if marker.exists() and marker.read_text().strip() == digest:
            log.info("slash commands unchanged since the last sync; not syncing")
            return
        synced = await self.tree.sync()
        marker.write_text(digest)
        log.info("synced %d global commands (the command set changed)", len(synced))

    async def _sync_to_dev_guild(self, guild_id: str) -> None:
        guild = discord.Object(id=int(guild_id))
        self.tree.copy_global_to(guild=guild)
        try:
            synced = await self.tree.sync(guild=guild)
        except discord.Forbidden:
            raise DevGuildUnusable(guild_id, "the bot is not in that server") from None
        except discord.NotFound:
            raise DevGuildUnusable(guild_id, "Discord knows no such server") from None
        log.info("synced %d commands to dev guild %s", len(synced), guild_id)

    def commands_digest(self) -> str:
        """The command set and the application it was synced to: a new token for another
        application on the same database must sync, though the commands are the same."""
        payload = {
            "application": str(self.application_id),
            "commands": [c.to_dict(self.tree) for c in self.tree.get_commands()],
        }
        text = json.dumps(payload, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    def _digest_file(self) -> Path:
        path = Path(self.config.db_path)
        return path.with_name(path.name + ".commands-sha256")

    # -- every interaction ------------------------------------------------------------
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer components that no DynamicItem will: forged, malformed or foreign ids."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
        custom_id = str(data.get("custom_id", ""))
        on_message = (
            custom_id in components.component_ids(interaction.message)
            if interaction.message is not None
            else False
        )
        if custom_ids.is_ours(custom_id) and on_message:
            return  # a DynamicItem handles it
        # Its form and game only: a forged or outdated action id ends in a hidden argument.
        log.warning(
            "unrecognised component %r from %s",
            interactions.id_label(custom_id),
            interaction.user.id,
        )
        with contextlib.suppress(discord.HTTPException):
            if not interaction.response.is_done():
                await interaction.response.send_message(NOT_RECOGNISED, ephemeral=True)

    async def on_app_command_completion(
        self, interaction: discord.Interaction[Any], command: Any
    ) -> None:
        elapsed = (discord.utils.utcnow() - interaction.created_at).total_seconds() * 1000
        log.info(
            "command /%s by %s in %s handled in %.0fms",
            getattr(command, "qualified_name", command),
            interaction.user.id,
            interaction.channel_id,
            elapsed,
        )

    # -- shutdown -----------------------------------------------------------------
    def dispatch(self, event: str, /, *args: Any, **kwargs: Any) -> None:
        """No event once closing: discord.py lets go of its event loop as it closes, and
        an event dispatched then (a socket's last words) would be a handler's coroutine
        made and never run."""
        if self.is_closed():
            return
        super().dispatch(event, *args, **kwargs)

    async def close(self) -> None:
        # Let clicks being handled finish (they hold a game lock and an interaction token);
        # any arriving from now on is answered "restarting" and changes nothing.
        self.stopping = True
        await self.wait_idle(5.0)
        if self._background is not None:
            # Between two passes (a safe point); a pass still running after 3 s is
            # cancelled, which rolls back its transaction (delivery is safe against that).
            self._stop_background.set()
            with contextlib.suppress(TimeoutError, asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._background, 3.0)
            self._background = None
        await super().close()
        if self.web_server is not None:
            web_server, self.web_server = self.web_server, None
            await web_server.close()
        if self.manager is not None:
            manager, self.manager = self.manager, None
            await release_claims(manager.store)
            await manager.close()
