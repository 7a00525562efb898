"""Claim the win on time on Discord: what the **Claim the win**
button does. A server whose clocks are claimed (``/game settings on_time:claim``) puts it
(``with_claim``) under the notice that a player's clock ran out, at the table
and in the opponent's DM.

Its custom_id (in ``custom_ids``; ``w`` for the Win on time)::

    dsp:w:<game>   claim the win of the game (bot.tables.clocks.claims)

The id carries nothing hidden: whoever presses, the manager checks that they hold a seat
whose opponent's clock ran out and still owes a decision, so a stranger's, stale or
forged click is refused politely and changes nothing. The end is then posted like any
end (the result, the ratings, the Rematch buttons) by the courier.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_app.components import DispatchComponent
from bot.discord_app.custom_ids import claim_id
from bot.discord_app.interactions import game_in_reach, handling, manager_of, reply, user_id


class ClaimButton(DispatchComponent, kind="claim"):
    """**Claim the win** under the notice that the opponent's clock ran out."""

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        await on_claim(interaction, self.click.game_id)


#: This module's kinds, registered by the ``/game`` cog.
ITEMS: tuple[type[DispatchComponent], ...] = (ClaimButton,)


def with_claim(view: discord.ui.View | None, game_id: int) -> discord.ui.View:
    """``view`` (or a new one) with the game's **Claim the win** button added (a clock ran
    out on a server whose clocks are claimed)."""
    view = view if view is not None else discord.ui.View(timeout=None)
    view.add_item(
        ClaimButton.button(claim_id(game_id), "Claim the win", discord.ButtonStyle.danger)
    )
    return view


async def on_claim(interaction: discord.Interaction[Any], game_id: int) -> None:
    """Claim the win pressed: the manager decides; the presser is told (ephemerally)
    what happened, and the table sees the end post. A refusal changes nothing."""
    async with handling(interaction, game_id, "claim"):
        await interaction.response.defer(ephemeral=True, thinking=True)
        await game_in_reach(interaction, game_id)
        await manager_of(interaction).clocks.claim_win(game_id, user_id(interaction))
        await reply(interaction, f"You claimed the win of game #{game_id} on time.")
