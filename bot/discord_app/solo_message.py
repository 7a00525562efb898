"""A CDG Solo System session's message: the Card Display image, the newest log lines,
the question and its buttons (what a click does: ``solo_components``).

A solo session has one seat, so its table *is* the player's prompt. Its buttons are laid
out by ``components.build_prompt_view`` (the same rules for labels, selects, Done and
Undo) with a solo session's ids (``dsp:o``, ``dsp:q``), and the facts form's button
(``dsp:f``) while a card's facts are asked.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import discord

from bot.delivery.images import board_image
from bot.delivery.port import GameInfo, View
from bot.discord_app import formatting
from bot.discord_app.components import build_prompt_view, button
from bot.discord_app.custom_ids import facts_id
from bot.discord_app.formatting import ALLOWED_MENTIONS, png_file

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
    laid = build_prompt_view(game_id, version, view, solo=True)
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
        facts = button(facts_id(game_id, version), FACTS_LABEL, discord.ButtonStyle.success)
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
