"""``/game settings``: what a player asked to read or change, checked, changed through the
manager's desks (settings, clocks, threads), and answered in words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot import errors
from bot.discord_app.checks import is_moderator
from bot.discord_app.interactions import manager_of, user_id
from bot.tables import validate

if TYPE_CHECKING:
    from bot.tables.manager import GameManager


@dataclass(frozen=True)
class SettingsAsked:
    """The options of one ``/game settings``: None leaves a setting as it is."""

    reminder_hours: float | None
    notify: str | None
    clock_default: str | None
    on_time: str | None
    vacation_days: int | None
    threads: str | None
    forced_choices: str | None


async def settings_answer(interaction: discord.Interaction[Any], asked: SettingsAsked) -> str:
    """Change what ``asked`` gives (a moderator's settings only for a moderator), then
    every setting in words."""
    manager = manager_of(interaction)
    rules_given = asked.on_time is not None or asked.vacation_days is not None
    changing = (
        asked.reminder_hours is not None
        or asked.clock_default is not None
        or rules_given
        or asked.threads is not None
    )
    if changing and not is_moderator(interaction):
        raise errors.ModeratorOnly("Changing settings needs the Manage Channels permission.")
    if asked.clock_default is not None:
        validate.clock(asked.clock_default)  # refused before anything is changed
    if rules_given and not interaction.guild_id:
        raise errors.ServerOnly("Clock rules are a server setting: set them in a server.")
    current = await manager.settings.reminder_hours(
        str(interaction.channel_id),
        asked.reminder_hours,
        str(interaction.guild_id) if interaction.guild_id else None,
    )
    mine = await manager.settings.notify(user_id(interaction), asked.notify)
    verb = "are now" if asked.reminder_hours is not None else "are"
    where = {
        "dm": "by direct message",
        "channel": "with a mention in the game's channel",
        "both": "by direct message and with a mention in the channel",
    }[mine]
    told = "are now" if asked.notify is not None else "are"
    forced_line = await _forced_line(manager, user_id(interaction), asked.forced_choices)
    clock_line = ""
    if interaction.guild_id:
        clock = await manager.clocks.server_default(str(interaction.guild_id), asked.clock_default)
        clock_verb = "is now" if asked.clock_default is not None else "is"
        clock_line = (
            f"\nThe clock of new games on this server {clock_verb} {clock} "
            "(practice games with a seed and solo games: none)."
        )
        at_zero, days = await manager.clocks.rules(
            str(interaction.guild_id), asked.on_time, asked.vacation_days
        )
        now = " now" if rules_given else ""
        zero = "the opponent may claim the win" if at_zero == "claim" else "the player loses"
        clock_line += (
            f"\nWhen a clock runs out,{now} {zero}. Vacation days each player has a "
            f"year:{now} {days or 'none'}."
        )
        on = await manager.threads.enabled(
            str(interaction.guild_id), None if asked.threads is None else asked.threads == "on"
        )
        clock_line += "\n" + _threads_line(on, changed=asked.threads is not None)
    return (
        f"Reminders in this channel {verb} sent after {current.reminder_hours:g} hours.\n"
        f"Your turns {told} announced {where} (while your DMs are closed: in the channel).\n"
        + forced_line
        + clock_line
    )


async def _forced_line(manager: GameManager, user: str, forced_choices: str | None) -> str:
    """The player's forced-choices setting, set first when given, in words."""
    setting = await manager.settings.forced(user, forced_choices)
    now = " now" if forced_choices is not None else ""
    if setting == "ask":
        return f"A choice with only one option is{now} asked of you."
    return f"A choice with only one option that reveals nothing is{now} made for you."


def _threads_line(on: bool, *, changed: bool) -> str:
    verb = "now open" if changed else "open"
    if on:
        return (
            f"New games in a text channel {verb} their own thread (threads: on), so a channel "
            "holds any number of games."
        )
    return f"New games {verb} in the channel itself, one at a time (threads: off)."
