"""``/rules`` and ``/card``: look-ups that change nothing (``/games`` and ``/stats`` are in
``history``)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot.discord_app import autocomplete, formatting
from bot.discord_app.interactions import reply

#: Card facts shown as embed fields, in this order, when a card has them.
CARD_FIELDS = ("side", "kind", "value", "boost", "period", "ops")


def card_embed(game_name: str, card: dict[str, Any]) -> discord.Embed:
    game = rules.get_game(game_name)
    title = f"{card.get('name') or card.get('id')} ({card.get('id')})"
    embed = discord.Embed(title=formatting.clip(title, 256), colour=formatting.COLOUR_TABLE)
    embed.description = formatting.clip(
        formatting.escape(str(card.get("text") or "")), formatting.EMBED_DESCRIPTION_MAX
    )
    for key in CARD_FIELDS:
        if card.get(key) not in (None, "", [], {}):
            value = card[key]
            if key == "side" and isinstance(value, str):
                value = game.role_name(value)
            embed.add_field(
                name=key.title(), value=formatting.clip(formatting.escape(str(value)), 1024)
            )
    embed.set_footer(text=game.title or game_name)
    return embed


class InfoCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="rules")
    @app_commands.autocomplete(game=autocomplete.game_names)
    async def rules_(self, interaction: discord.Interaction[Any], game: str) -> None:
        """How to play a game

        Parameters
        ----------
        game:
            Which game
        """
        try:
            found = rules.get_game(game)
        except LookupError:
            known = ", ".join(sorted(rules.GAMES)) or "none yet"
            await reply(interaction, f"There is no game called “{game}”. Available: {known}.")
            return
        roles = ", ".join(found.role_name(r) for r in found.roles)
        embed = discord.Embed(title=found.title or found.name, colour=formatting.COLOUR_TABLE)
        summary = found.summary or "No summary yet."
        embed.description = formatting.clip(summary, formatting.EMBED_DESCRIPTION_MAX)
        embed.add_field(name="Sides", value=roles or "-")
        embed.set_footer(text=f"/game new game:{found.name}")
        await reply(interaction, embed=embed)

    @app_commands.command(name="card")
    @app_commands.autocomplete(name=autocomplete.cards)
    async def card(self, interaction: discord.Interaction[Any], name: str) -> None:
        """Look up a card

        Parameters
        ----------
        name:
            Start typing a card's name or id
        """
        wanted = name.strip().lower()
        cards = autocomplete.catalogue()
        match = next((c for c in cards if autocomplete.card_key(*c).lower() == wanted), None)
        if match is None:
            exact = [
                c
                for c in cards
                if wanted in (str(c[1].get("id")).lower(), str(c[1].get("name")).lower())
            ]
            partial = [c for c in cards if wanted and wanted in str(c[1].get("name")).lower()]
            hits = exact or partial
            match = hits[0] if len(hits) == 1 or exact else None
            if match is None and hits:
                names = ", ".join(f"{c[1].get('name')} ({c[1].get('id')})" for c in hits[:10])
                await reply(interaction, f"Several cards match: {formatting.escape(names)}.")
                return
        if match is None:
            await reply(interaction, f"No card called “{formatting.escape(name)}”.")
            return
        await reply(interaction, embed=card_embed(*match))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(InfoCog(bot))
