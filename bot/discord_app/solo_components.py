"""A CDG Solo System session on Discord: what a click on its message does.

A solo session has one seat, so its table *is* the player's prompt: one message in the
channel, thread or DM where it was started (drawn by ``solo_message``). A click applies
the action and edits that very message: the new display, what happened, the next
question. ``/solo show`` sends the message again further down; ``/solo log`` gives the
whole log. Its ids (``dsp:o``, ``dsp:q``; the facts form's ``dsp:f`` is answered in
``solo_modals``) are in ``custom_ids``; the handlers here are registered for them.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot import errors
from bot.delivery.port import View
from bot.discord_app import formatting
from bot.discord_app.components import DispatchComponent, button, handles
from bot.discord_app.custom_ids import solo_action_id
from bot.discord_app.interactions import (
    game_in_reach,
    handling,
    manager_of,
    refuse,
    reply,
    user_id,
)
from bot.discord_app.solo_message import solo_payload
from bot.tables.requests import Move

log = logging.getLogger("dispatch.discord.solo")


def new_lines(before: View | None, after: View) -> list[str]:
    """The log lines ``after`` has beyond ``before`` (an undo shortens the log: none)."""
    old = list((before or {}).get("log") or [])
    new = list(after.get("log") or [])
    return [str(x) for x in new[len(old) :]] if new[: len(old)] == old else []


async def apply_and_show(
    interaction: discord.Interaction[Any],
    game_id: int,
    moves: list[tuple[str, Any]],
    version: int,
    *,
    headline: str = "",
) -> None:
    """Apply one or more actions in order (each on the version the last one made) and edit
    the session message to show the result. The interaction is already acknowledged."""
    manager = manager_of(interaction)
    uid = user_id(interaction)
    before = await manager.view_for(game_id, uid)
    result = None
    for verb, arg in moves:
        offered = (result.view if result else before.view).get("actions") or {}
        if result is not None and verb not in offered:
            break  # the card was known already (a listed number): nothing more to tell
        try:
            result = await manager.act(game_id, uid, Move(verb, arg, version))
        except errors.StalePrompt:
            await reply(
                interaction,
                "This message is out of date: use the newest session message, or /solo show.",
            )
            return
        version = result.version
    if result is None:
        return
    undone = [verb for verb, _arg in moves] == ["undo"]
    payload = await solo_payload(
        result.game,
        result.version,
        result.view,
        log_lines=new_lines(before.view, result.view),
        headline=headline or ("Your last decision was taken back." if undone else ""),
    )
    files = payload.pop("files")
    payload.pop("allowed_mentions")
    await interaction.edit_original_response(attachments=files, **payload)


#: The front end's own answers around "End the session" (no rules action of their own).
CONFIRMED, STAY = "confirmed", "stay"


async def confirm_end(interaction: discord.Interaction[Any], game_id: int, version: int) -> None:
    """Ending a session cannot be undone: ask once more, on the same message."""
    embed = discord.Embed(
        title="Close this solo session?",
        description="The session ends for good: it cannot be undone or resumed.",
        colour=formatting.COLOUR_END,
    )
    ui = discord.ui.View(timeout=None)
    yes = solo_action_id(game_id, version, "end", CONFIRMED)
    ui.add_item(button(yes, "Yes, close it", discord.ButtonStyle.danger))
    no = solo_action_id(game_id, version, STAY, None)
    ui.add_item(button(no, "No, keep playing", discord.ButtonStyle.secondary))
    await interaction.edit_original_response(embed=embed, view=ui)


async def show_current(interaction: discord.Interaction[Any], game_id: int) -> None:
    """The session as it is now, on the clicked message."""
    pv = await manager_of(interaction).view_for(game_id, user_id(interaction))
    payload = await solo_payload(pv.game, pv.version, pv.view)
    files = payload.pop("files")
    payload.pop("allowed_mentions")
    await interaction.edit_original_response(attachments=files, **payload)


async def on_solo_action(
    interaction: discord.Interaction[Any], game_id: int, version: int, verb: str, arg: Any
) -> None:
    """A session button or select: apply it, then show the next question in place."""
    async with handling(interaction, game_id, "solo"):
        # Acknowledged before anything is read: a store busy with other work (a search
        # elsewhere, a delivery) must not hold up Discord's 3 seconds. Deferring touches
        # nothing on the message.
        await interaction.response.defer()
        # The session message is public, and "End the session" and "No, keep playing" are
        # the front end's own (no rules action refuses them): anyone else is refused here
        # (privately, as a followup), before the message is touched.
        info = await game_in_reach(interaction, game_id)
        if not info.roles_of(user_id(interaction)):
            raise errors.NotSeated()
        if verb == "end" and arg is None:
            await confirm_end(interaction, game_id, version)
        elif verb == "end" and arg == CONFIRMED:
            await apply_and_show(interaction, game_id, [("end", None)], version)
        elif verb == STAY:
            await show_current(interaction, game_id)
        else:
            await apply_and_show(interaction, game_id, [(verb, arg)], version)


@handles("solo_action")
async def solo_clicked(interaction: discord.Interaction[Any], item: DispatchComponent) -> None:
    click = item.click
    version, verb = int(click.version or 0), str(click.verb)
    await on_solo_action(interaction, click.game_id, version, verb, click.arg)


@handles("solo_select")
async def solo_chosen(interaction: discord.Interaction[Any], item: DispatchComponent) -> None:
    click, values = item.click, item.values
    if len(values) != 1:
        await refuse(interaction, click.game_id, "Choose exactly one option.")
        return
    version, verb = int(click.version or 0), str(click.verb)
    await on_solo_action(interaction, click.game_id, version, verb, values[0])
