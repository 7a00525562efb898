"""Claim the win on time on Discord (issue 26, section 1): the **Claim the win** button
that a server whose clocks are claimed (``/game settings on_time:claim``) puts under the
notice that a player's clock ran out, at the table and in the opponent's DM.

custom_id form (``w`` for the Win on time; ``x`` is a seat's eXchange)::

    dsp:w:<game>   claim the win of the game (bot.tables.claims)

The id carries nothing hidden: whoever presses, the manager checks that they hold a seat
whose opponent's clock ran out and still owes a decision, so a stranger's, stale or
forged click is refused politely and changes nothing. The end is then posted like any
end (the result, the ratings, the Rematch buttons) by the courier.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord_app.components import PREFIX
from bot.discord_app.interactions import handling, manager_of, reply, user_id

_NUM = r"[0-9]{1,18}"
CLAIM_TEMPLATE = rf"dsp:w:(?P<game>{_NUM})"


def claim_id(game_id: int) -> str:
    return f"{PREFIX}:w:{int(game_id)}"


class ClaimButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=CLAIM_TEMPLATE):
    """**Claim the win** under a notice that a clock ran out, ``dsp:w:<game>``."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label="Claim the win",
                style=discord.ButtonStyle.danger,
                custom_id=claim_id(game_id),
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ClaimButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await on_claim(interaction, self.game_id)


def is_claim_id(custom_id: str) -> bool:
    """Whether a DynamicItem of this module answers ``custom_id``."""
    return re.fullmatch(CLAIM_TEMPLATE, custom_id) is not None


CLAIM_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (ClaimButton,)


def with_claim(view: discord.ui.View | None, game_id: int) -> discord.ui.View:
    """``view`` (or a new one) with the game's Claim the win button added."""
    view = view if view is not None else discord.ui.View(timeout=None)
    view.add_item(ClaimButton(game_id))
    return view


async def on_claim(interaction: discord.Interaction[Any], game_id: int) -> None:
    """Claim the win pressed: the manager decides; the presser is told (ephemerally)
    what happened, and the table sees the end post. A refusal changes nothing."""
    async with handling(interaction, game_id, "claim"):
        await interaction.response.defer(ephemeral=True, thinking=True)
        await manager_of(interaction).claim_win(game_id, user_id(interaction))
        await reply(interaction, f"You claimed the win of game #{game_id} on time.")
