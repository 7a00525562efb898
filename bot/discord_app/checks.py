"""Checks on who may run a command, as decorators, and the words for a failed one.

``is_moderator`` is also a plain predicate: some commands (``/game abandon``,
``/game export``, ``/game settings``) let everyone act and give a moderator more, so they
ask it inside rather than refusing the whole command.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands


def is_moderator(interaction: discord.Interaction[Any]) -> bool:
    """Manage Channels (or Administrator) where the command was run."""
    perms = interaction.permissions
    return bool(perms and (perms.manage_channels or perms.administrator))


class NotOwner(app_commands.CheckFailure):
    """Only the bot's owner may run this command."""


T = TypeVar("T")


def owner_only() -> Callable[[T], T]:
    """The command is for the bot's owner (as the Developer Portal names them)."""

    async def predicate(interaction: discord.Interaction[Any]) -> bool:
        client = interaction.client
        try:
            owner = isinstance(client, commands.Bot) and await client.is_owner(interaction.user)
        except Exception:  # no application info (e.g. a team app without an owner)
            owner = False
        if not owner:
            raise NotOwner()
        return True

    return app_commands.check(predicate)


def refusal(error: app_commands.AppCommandError) -> str | None:
    """What to tell the player for a failed check; None when it is not one."""
    if isinstance(error, app_commands.NoPrivateMessage):
        return "Games are played in a server channel (or a thread), not in direct messages."
    if isinstance(error, NotOwner):
        return "Only the bot's owner can do that."
    if isinstance(error, app_commands.MissingPermissions):
        return "You need the Manage Channels permission for that."
    if isinstance(error, app_commands.CheckFailure):
        return "You cannot use that command here."
    return None
