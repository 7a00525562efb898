"""A CDG Solo System session's message: the Card Display image, the newest log lines,
the question and its buttons, and what a click on them does.

A solo session has one seat, so its table *is* the player's prompt: one message in the
channel, thread or DM where it was started. A click applies the action and edits that very
message: the new display, what happened, the next question. ``/solo show`` sends the
message again further down; ``/solo log`` gives the whole log. Its kinds (``dsp:o``,
``dsp:q``, and the facts form's ``dsp:f``, whose form is ``solo_modals``) are registered by
the ``/solo`` cog.

Its buttons are laid out by ``components.lay_out_prompt`` (the same rules for labels,
selects, Done and Undo) with a solo session's ids (``dsp:o``, ``dsp:q``), and the facts
form's button (``dsp:f``) while a card's facts are asked.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot import errors
from bot.delivery.images import board_image
from bot.delivery.port import GameInfo, View
from bot.discord_app import formatting
from bot.discord_app.components import (
    RESTARTING,
    DispatchComponent,
    PromptItems,
    lay_out_prompt,
)
from bot.discord_app.custom_ids import facts_id, solo_action_id
from bot.discord_app.formatting import ALLOWED_MENTIONS, png_file
from bot.discord_app.interactions import (
    game_in_reach,
    handling,
    manager_of,
    refuse,
    reply,
    user_id,
)
from bot.discord_app.room import stopping
from bot.discord_app.solo_modals import CardFactsModal
from bot.tables.requests import Move
from rules.solo.sheets import SHEETS

log = logging.getLogger("dispatch.discord.solo")

#: The log lines a session message shows at most (the rest: ``/solo log``).
LOG_LINES_SHOWN = 12
#: The facts form's button.
FACTS_LABEL = "Tell all its facts at once"


def asks_facts(view: View) -> bool:
    """The session waits for the facts of a card turned face up (a number comes first)."""
    actions = view.get("actions") or {}
    return view.get("step") == "identify" and ("number" in actions or "unnumbered" in actions)


def build_solo_view(game_id: int, version: int, view: View) -> tuple[discord.ui.View, list[str]]:
    """The session's buttons (laid out as any prompt's, with solo ids), the facts button
    while a card's facts are asked, and the whole texts of shortened labels."""
    laid = lay_out_prompt(game_id, version, view, SOLO_ITEMS)
    ui = laid.view
    # (discord.py reads a DynamicItem's row back as None for selects: ask its item.)
    widths: dict[int, int] = {}
    for child in ui.children:
        row = child.item.row if isinstance(child, discord.ui.DynamicItem) else child.row
        widths[row or 0] = widths.get(row or 0, 0) + child.width
    notes = list(laid.notes)
    if asks_facts(view):
        # The form takes any number, so it goes first: in a row of buttons with room left,
        # else a free row.
        facts = FactsButton.button(
            facts_id(game_id, version), FACTS_LABEL, discord.ButtonStyle.success
        )
        room = [r for r in range(5) if widths.get(r, 0) < 5 and r in widths]
        free = [r for r in range(5) if r not in widths]
        spot = room[0] if room and widths[room[0]] < 5 and room[0] == 0 else None
        spot = spot if spot is not None else (free[0] if free else None)
        if spot is not None:
            facts.row = spot
            ui.add_item(facts)
        if laid.overflow:
            notes.append("Numbers not in the lists can be typed in “Tell all its facts at once”.")
    elif laid.overflow:
        notes.append("Some choices did not fit in this message.")
    return ui, notes


def _display_alt(game: GameInfo, view: View, log_lines: Sequence[str]) -> str:
    """The session's display picture in words: its title, the decision, the news."""
    title = f"{view.get('title') or game.title}: solo session #{game.id}"
    return formatting.alt_text(title, view.get("prompt") or view.get("status"), *log_lines[-4:])


def display_name(png: bytes) -> str:
    return f"display-{hashlib.sha256(png).hexdigest()[:12]}.png"


async def solo_payload(
    game: GameInfo,
    version: int,
    view: View,
    *,
    log_lines: list[str] | tuple[str, ...] = (),
    headline: str = "",
) -> dict[str, Any]:
    """content-less message parts for a session: embed, the display image, the buttons."""
    png = await board_image(game.game_name, view)
    name = display_name(png) if png else None
    embed = discord.Embed(
        title=formatting.clip(f"{view.get('title') or game.title}: solo session #{game.id}", 256),
        colour=formatting.COLOUR_TABLE,
    )
    parts: list[str] = []
    if headline:
        parts.append(formatting.escape(headline))
    shown = list(log_lines)[-LOG_LINES_SHOWN:]
    if shown:
        parts.append(formatting.log_block(shown, 2500))
        if len(log_lines) > LOG_LINES_SHOWN:
            parts.append(f"… and {len(log_lines) - LOG_LINES_SHOWN} lines before: /solo log")
    prompt = str(view.get("prompt") or "")
    notes: list[str] = []
    components: discord.ui.View | None = None
    if view.get("actions"):
        components, notes = build_solo_view(game.id, version, view)
    if prompt:
        parts.append(f"**{formatting.escape(prompt)}**")
    elif view.get("outcome"):
        parts.append("The session is closed. Start another with /solo new.")
    if notes:
        parts.append("\n".join(f"• {formatting.escape(n)}" for n in notes))
    embed.description = formatting.clip("\n\n".join(parts), formatting.EMBED_DESCRIPTION_MAX)
    if name:
        embed.set_image(url=f"attachment://{name}")
    embed.set_footer(text=f"Game #{game.id} · move {version}")
    payload: dict[str, Any] = {
        "embed": embed,
        "files": [png_file(png, name, _display_alt(game, view, log_lines))] if png and name else [],
        "allowed_mentions": ALLOWED_MENTIONS,
    }
    payload["view"] = components
    return payload


class SoloButton(DispatchComponent, kind="solo_action"):
    """One action of a solo session's message (and "End the session"'s own answers)."""

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        click = self.click
        version, verb = int(click.version or 0), str(click.verb)
        await on_solo_action(interaction, click.game_id, version, verb, click.arg)


class SoloSelect(DispatchComponent, kind="solo_select"):
    """One verb's args of a solo session's message, as options."""

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        click, values = self.click, self.values
        if len(values) != 1:
            await refuse(interaction, click.game_id, "Choose exactly one option.")
            return
        version, verb = int(click.version or 0), str(click.verb)
        await on_solo_action(interaction, click.game_id, version, verb, values[0])


class FactsButton(DispatchComponent, kind="facts"):
    """ "Tell all its facts at once": the facts form of the card turned face up."""

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        await open_facts_modal(interaction, self.click.game_id, int(self.click.version or 0))


class FactsForm(CardFactsModal):
    """The facts form as the session answers it: every answer checked, then applied as
    the buttons' small actions, and the session message shown in place."""

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        if stopping(interaction):
            await interaction.response.send_message(RESTARTING, ephemeral=True)
            return
        async with handling(interaction, self.game_id, "solo facts"):
            manager = manager_of(interaction)
            pv = await manager.view_for(self.game_id, user_id(interaction))
            if not asks_facts(pv.view) or pv.version != self.version:
                await reply(interaction, "That card's facts were given already; nothing changed.")
                return
            moves = self.moves(pv.view)  # checked before anything is applied
            await interaction.response.defer()
            await apply_and_show(interaction, self.game_id, moves, self.version)


#: A solo session's choices.
SOLO_ITEMS = PromptItems(button=SoloButton, select=SoloSelect)
#: This module's kinds, registered by the ``/solo`` cog.
ITEMS: tuple[type[DispatchComponent], ...] = (SoloButton, SoloSelect, FactsButton)


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
    ui.add_item(SoloButton.button(yes, "Yes, close it", discord.ButtonStyle.danger))
    no = solo_action_id(game_id, version, STAY, None)
    ui.add_item(SoloButton.button(no, "No, keep playing", discord.ButtonStyle.secondary))
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


async def open_facts_modal(
    interaction: discord.Interaction[Any], game_id: int, version: int
) -> None:
    """The facts button: open the form for the card asked about now."""
    async with handling(interaction, game_id, "solo facts form"):
        await game_in_reach(interaction, game_id)
        pv = await manager_of(interaction).view_for(game_id, user_id(interaction))
        if pv.role is None:
            raise errors.NotSeated()
        playsheet = str(pv.view.get("playsheet") or "")
        if playsheet not in SHEETS or not asks_facts(pv.view) or pv.version != version:
            raise errors.Outdated("This question was answered already; use the newest message.")
        modal = FactsForm(game_id, version, playsheet, str(pv.view.get("prompt") or ""))
        await interaction.response.send_modal(modal)
