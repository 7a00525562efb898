"""Seats that change hands on Discord: the offer's Accept and
Decline buttons, and what follows a change (the old holder's DM prompt is closed).

Their custom_id (in ``custom_ids``; ``x`` for a seat's eXchange)::

    dsp:x:<game>:<offer>:<accept|decline>   answer the offer of a seat (seat_changes.changes)

The id carries nothing hidden (the offer is posted in the channel): whoever presses, the
manager checks that the offer is open, fresh and names them, so a forged, stale or
stranger's click is refused politely and changes nothing.
"""

from __future__ import annotations

from typing import Any

import discord

from bot import errors
from bot.discord_app.components import DispatchComponent
from bot.discord_app.custom_ids import offer_id
from bot.discord_app.formatting import ALLOWED_MENTIONS
from bot.discord_app.interactions import game_in_reach, handling, manager_of, reply, user_id
from bot.discord_app.room import client_of
from bot.tables.seat_changes.changes import Offer, OfferClosed, SeatChange, who

#: The note an old holder's live DM prompt is closed with.
CLOSED_PASSED = "Closed: this seat is no longer yours ({holder} plays it now)."


def build_offer_view(offer: Offer) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    accept = offer_id(offer.game_id, offer.id, "accept")
    view.add_item(OfferButton.button(accept, "Accept", discord.ButtonStyle.success))
    decline = offer_id(offer.game_id, offer.id, "decline")
    view.add_item(OfferButton.button(decline, "Decline", discord.ButtonStyle.secondary))
    return view


def offer_text(offer: Offer) -> str:
    """The channel's post of an offer: whom it names, what, and how long it holds."""
    return (
        f"{who(offer.to_user)}, {who(offer.from_user)} offers you the {offer.seat} seat of "
        f"game #{offer.game_id}. Accept to play it on from where it stands: you get its "
        "hand and prompt by DM. The offer lapses as soon as the game moves on, or "
        f"<t:{int(offer.expires_at)}:R>."
    )


class OfferButton(DispatchComponent, kind="offer"):
    """An offer's Accept or Decline."""

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        click = self.click
        await on_offer_answer(
            interaction, click.game_id, int(click.offer or 0), click.answer == "accept"
        )


#: This module's kinds, registered by the seat commands' extension.
ITEMS: tuple[type[DispatchComponent], ...] = (OfferButton,)


async def on_offer_answer(
    interaction: discord.Interaction[Any], game_id: int, offer: int, accept: bool
) -> None:
    """Accept or Decline pressed: the manager decides; the offer's post then says what
    happened and loses its buttons. A refusal is told to the presser alone."""
    async with handling(interaction, game_id, "offer"):
        await interaction.response.defer()
        await game_in_reach(interaction, game_id)
        manager = manager_of(interaction)
        uid = user_id(interaction)
        try:
            change = await manager.seat_changes.answer(game_id, offer, uid, accept=accept)
        except OfferClosed:
            if interaction.message is not None:  # no button of it should look live
                await interaction.edit_original_response(view=None)
            raise
        if change is None:
            text = f"{who(uid)} declined the offer of game #{game_id}'s seat."
        else:
            text = f"{who(uid)} accepted the offer of game #{game_id}'s seat."
        if interaction.message is not None:
            await interaction.edit_original_response(
                content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
            )
        if change is not None:
            await seat_passed(interaction, change)


async def seat_passed(interaction: discord.Interaction[Any], change: SeatChange) -> None:
    """After a change: the old holder's live DM prompt is closed, so none of its buttons
    looks live (a click on it would be refused anyway: ``SeatPassed``)."""
    note = CLOSED_PASSED.format(holder=who(change.to_user))
    await client_of(interaction).frontend.prompt_now_at(
        change.game_id, change.from_user, None, note
    )


async def answer_change(
    interaction: discord.Interaction[Any], change: SeatChange, notes: str = ""
) -> None:
    """Tell whoever made a change (reseat, hand-over) that it is done, with ``notes``
    (lines that follow it), then tidy up."""
    text = f"Done: {change.line}{notes}"
    await reply(interaction, text, allowed_mentions=ALLOWED_MENTIONS)
    await seat_passed(interaction, change)


def refuse_member(member: discord.abc.User, me: discord.abc.User | None, *, what: str) -> None:
    """A Discord bot cannot hold a seat; Dispatch itself takes one by hand-over."""
    if me is not None and member.id == me.id:
        raise errors.SeatRefused(
            f"Dispatch does not take a seat by {what}: its player gives it with /game hand-over."
        )
    if member.bot:
        raise errors.SeatRefused("Bots cannot be seated (Dispatch takes a seat by hand-over).")
