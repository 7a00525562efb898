"""The settings desk (``manager.settings``): a channel's reminder interval, where a
player's turns are announced, and whether their forced choices are taken for them."""

from __future__ import annotations

from bot import errors
from bot.delivery.routes import DEFAULT_NOTIFY
from bot.tables import forced, validate
from bot.tables.core import Core
from bot.tables.results import ChannelSettings


class SettingsDesk:
    """Channel and player settings in the core's store."""

    def __init__(self, core: Core) -> None:
        self._core = core

    async def reminder_hours(
        self, channel_id: str, reminder_hours: float | None = None, guild_id: str | None = None
    ) -> ChannelSettings:
        """Read, or set when ``reminder_hours`` is given, a channel's reminder interval."""
        channel_id, guild_id = validate.channel_id(channel_id), validate.guild_id(guild_id)
        hours = validate.reminder_hours(reminder_hours)
        store = self._core.store
        if hours is None:
            async with store.read() as db:
                current = await db.settings.reminder_hours(
                    channel_id, self._core.default_reminder_hours
                )
            return ChannelSettings(channel_id, current)
        async with store.transaction() as db:
            await db.settings.set_reminder_hours(channel_id, guild_id, hours)
        return ChannelSettings(channel_id, hours)

    async def notify(self, user_id: str, notify: str | None = None) -> str:
        """Where ``user_id``'s turns are announced ("dm", "channel" or "both"); sets it
        when ``notify`` is given. While their DMs are closed, the channel is used."""
        user_id = validate.user_id(user_id)
        if notify is None:
            async with self._core.store.read() as db:
                prefs = await db.settings.notify_prefs([user_id])
            return prefs.get(user_id, DEFAULT_NOTIFY)
        if notify not in ("dm", "channel", "both"):
            raise errors.UnknownWord("Turns can be announced by dm, in the channel, or both.")
        async with self._core.store.write() as db:
            await db.settings.set_notify(user_id, notify)
        return notify

    async def forced(self, user_id: str, forced_choices: str | None = None) -> str:
        """Whether ``user_id``'s forced choices are taken for them ("auto", the default)
        or they are asked ("ask"), ``bot.tables.forced``; sets it when given."""
        user_id = validate.user_id(user_id)
        if forced_choices is None:
            async with self._core.store.read() as db:
                return await db.settings.forced_setting(user_id)
        if forced_choices not in forced.FORCED_SETTINGS:
            raise errors.UnknownWord(
                "Forced choices are taken for you (auto) or you are asked each time (ask)."
            )
        async with self._core.store.write() as db:
            await db.settings.set_forced(user_id, forced_choices)
        return forced_choices
