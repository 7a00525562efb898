"""The ``/solo`` group: CDG Solo System sessions, in a channel, a thread or a DM.

``/solo new`` opens a one-seat game (``rules.solo``) for the caller; its message, with
the Card Display and the buttons, is posted where the command was typed (see
``bot.discord_app.solo_message``, with what its clicks do). ``/solo show``
posts it again, ``/solo log`` shows the session's log, ``/solo cards import`` keeps a
CSV card list for a game that has no public one and ``/solo cards delete`` forgets it. A
server's list serves every session there, so changing it takes Manage Server; in DMs each
user has their own.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors
from bot.discord_app import autocomplete, formatting, solo_message
from bot.discord_app.interactions import manager_of, reply, user_id
from bot.discord_app.solo_message import solo_payload
from bot.tables import solo
from bot.tables.requests import NewGame

log = logging.getLogger("dispatch.discord.solo")

#: Discord's limit on an attachment we are willing to read as a card list.
MAX_ATTACHMENT_BYTES = solo.MAX_CSV_BYTES


class SoloCog(commands.GroupCog, group_name="solo", group_description="CDG Solo System sessions"):
    cards = app_commands.Group(name="cards", description="Card lists for games without one")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*solo_message.ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*solo_message.ITEMS)

    async def _session_here(self, interaction: discord.Interaction[Any]) -> Any:
        """The live session here, or else the latest game here if it was a session."""
        try:
            info = await manager_of(interaction).get_game_info(str(interaction.channel_id))
        except errors.DispatchError:
            info = None
        if info is None or info.game_name != solo.GAME_NAME:
            raise errors.NotAllowed("There is no solo session here: start one with /solo new.")
        return info

    @app_commands.command(name="new")
    @app_commands.autocomplete(
        playsheet=autocomplete.solo_playsheets,
        side=autocomplete.solo_sides,
        scenario=autocomplete.solo_scenarios,
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        playsheet: str,
        side: str | None = None,
        scenario: str | None = None,
        options: str | None = None,
    ) -> None:
        """Start a CDG Solo System session here

        Parameters
        ----------
        playsheet:
            Which game's playsheet
        side:
            The side the Fate Die runs (default: both)
        scenario:
            A scenario that changes the display (C&C games)
        options:
            More playsheet options, e.g. guns_of_august=yes, deck_size=110
        """
        chosen = solo.session_options(playsheet, side, scenario)
        chosen.update(solo.extra_options(options))
        scope = solo.scope_of(_guild(interaction), user_id(interaction))
        with fields_as_plain_text():
            listed = await solo.card_list_for(
                manager_of(interaction).store, scope, chosen["playsheet"]
            )
        if listed:
            chosen["card_list"] = listed
        manager = manager_of(interaction)
        busy = await manager.game_in_channel(str(interaction.channel_id))
        if busy is not None:
            raise errors.ChannelBusy(busy.id)
        # Setting up renders and posts the display: may take a moment.
        await interaction.response.defer(thinking=True)
        info = await manager.create_game(
            _guild(interaction),
            str(interaction.channel_id),
            user_id(interaction),
            NewGame(solo.GAME_NAME, options=chosen),
        )
        title = dict(solo.playsheets())[chosen["playsheet"]]
        text = f"Solo session #{info.id} of {title} started: its display and buttons are below."
        if listed:
            whose = "This server's" if _guild(interaction) else "Your"
            text += f" {whose} card list is loaded, so listed cards are not asked."
        await interaction.followup.send(text)

    @app_commands.command(name="show")
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        """Post this session's display and buttons again, at the bottom"""
        info = await self._session_here(interaction)
        await interaction.response.defer(thinking=True)
        pv = await manager_of(interaction).view_for(info.id, user_id(interaction))
        if pv.role is None:
            pv = await manager_of(interaction).view_for(info.id, None)
        payload = await solo_payload(pv.game, pv.version, pv.view)
        if payload.get("view") is None:
            payload.pop("view")
        await interaction.followup.send(**payload)

    @app_commands.command(name="log")
    async def log(
        self, interaction: discord.Interaction[Any], lines: app_commands.Range[int, 1, 200] = 40
    ) -> None:
        """This session's log, newest last

        Parameters
        ----------
        lines:
            How many of the last lines (default 40)
        """
        info = await self._session_here(interaction)
        found = await manager_of(interaction).records.log(info.id, lines)
        embed = discord.Embed(
            title=f"Solo session #{info.id}: the last {len(found)} log lines",
            colour=formatting.COLOUR_TABLE,
        )
        embed.description = formatting.log_block(found) or "Nothing yet."
        await interaction.response.send_message(embed=embed)

    @cards.command(name="import")
    @app_commands.autocomplete(playsheet=autocomplete.solo_list_playsheets)
    async def import_cards(
        self, interaction: discord.Interaction[Any], playsheet: str, file: discord.Attachment
    ) -> None:
        """Import a CSV card list for a game (needs Manage Server in a server; DMs: yours)

        Parameters
        ----------
        playsheet:
            The game whose cards these are
        file:
            CSV with a header row: number, name, value, event, kind (and side for two decks)
        """
        playsheet = _list_playsheet(interaction, playsheet)
        if file.size > MAX_ATTACHMENT_BYTES:
            raise errors.CardListRefused(
                f"That file is too large for a card list (at most {MAX_ATTACHMENT_BYTES} bytes)."
            )
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            raw = await file.read()
        except discord.HTTPException:
            raise errors.NotAllowed("I could not read that file; please attach it again.") from None
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise errors.CardListRefused(
                "The card list must be a CSV text file in UTF-8."
            ) from None
        scope = solo.scope_of(_guild(interaction), user_id(interaction))
        with fields_as_plain_text():
            count = await solo.import_card_list(
                manager_of(interaction).store, scope, playsheet, text, user_id(interaction)
            )
        title = dict(solo.playsheets())[playsheet]
        where = "this server" if _guild(interaction) else "your direct messages"
        await reply(
            interaction,
            f"Imported {count} card{'s' if count != 1 else ''} for {title} in {where}, in "
            "place of any list kept before. New sessions of it start with this list; a "
            "session already running keeps its own. `/solo cards delete` removes it.",
        )

    @cards.command(name="delete")
    @app_commands.autocomplete(playsheet=autocomplete.solo_list_playsheets)
    async def delete_cards(self, interaction: discord.Interaction[Any], playsheet: str) -> None:
        """Delete the card list imported for a game here (needs Manage Server in a server)

        Parameters
        ----------
        playsheet:
            The game whose card list to delete
        """
        playsheet = _list_playsheet(interaction, playsheet)
        scope = solo.scope_of(_guild(interaction), user_id(interaction))
        title = dict(solo.playsheets())[playsheet]
        where = "this server" if _guild(interaction) else "your direct messages"
        if await solo.delete_card_list(manager_of(interaction).store, scope, playsheet):
            text = (
                f"The card list for {title} in {where} is deleted. New sessions ask each "
                "card's facts; sessions already running keep theirs."
            )
        else:
            text = f"There is no card list for {title} in {where}; nothing changed."
        await reply(interaction, text)


@contextlib.contextmanager
def fields_as_plain_text() -> Iterator[None]:
    """A card list's refusal quotes the line's fields as the file has them: shown as plain
    text, so that a field such as **x** or <@id> is neither bold nor a mention."""
    try:
        yield
    except errors.BadInput as refused:
        raise errors.BadInput(formatting.escape(refused.message)) from None


def _guild(interaction: discord.Interaction[Any]) -> str | None:
    return str(interaction.guild_id) if interaction.guild_id else None


def _list_playsheet(interaction: discord.Interaction[Any], playsheet: str | None) -> str:
    """The playsheet a card-list command names, once the caller may change the list here:
    a server's list serves every session in it, so it takes Manage Server (or
    Administrator) to import, replace or delete it; in DMs the list is the caller's own."""
    playsheet = (playsheet or "").strip().lower()
    if playsheet not in [n for n, _t in solo.playsheets()]:
        raise errors.NotInPlaysheet(f"There is no playsheet “{playsheet[:40]}”.")
    perms = interaction.permissions
    if _guild(interaction) and not (perms and (perms.manage_guild or perms.administrator)):
        raise errors.ModeratorOnly(
            "A server's card list is shared by every session here, so importing, replacing "
            "or deleting it needs the Manage Server permission. Ask a server manager, or "
            "import your own list in a direct message with me for your sessions there."
        )
    return playsheet


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SoloCog(bot))
