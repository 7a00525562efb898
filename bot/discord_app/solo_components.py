"""A CDG Solo System session on Discord: its message, its buttons and what a click does.

A solo session has one seat, so its table *is* the player's prompt: one message in the
channel, thread or DM where it was started shows the Card Display image, the newest log
lines, the question and the buttons. A click applies the action and edits that very
message: the new display, what happened, the next question. ``/solo show`` sends the
message again further down; ``/solo log`` gives the whole log.

custom_id forms (beside those of ``bot.discord_app.components``)::

    dsp:o:<game>:<version>:<verb>:<arg>   a button for one action of a solo session
    dsp:q:<game>:<version>:<verb>:<part>  a select for one verb of a solo session
    dsp:f:<game>:<version>                "Tell the card's facts": opens the facts modal

Buttons are laid out by ``components.build_prompt_view`` (the same rules for labels,
selects, Done and Undo) and then given these ids, so their clicks come here.
"""

from __future__ import annotations

import hashlib
import logging
import re
from typing import Any

import discord

from bot import errors
from bot.delivery.images import board_image
from bot.delivery.port import GameInfo, View
from bot.discord_app import formatting
from bot.discord_app.components import (
    ActionButton,
    ActionSelect,
    BadCustomId,
    build_prompt_view,
    decode_arg,
    encode_arg,
)
from bot.discord_app.frontend import ALLOWED_MENTIONS, png_file
from bot.discord_app.interactions import handling, manager_of, refuse, reply, user_id

log = logging.getLogger("dispatch.discord.solo")

_NUM = r"[0-9]{1,18}"
_VERB = r"[a-z][a-z0-9_]{0,31}"
SOLO_ACTION = rf"dsp:o:(?P<game>{_NUM}):(?P<version>{_NUM}):(?P<verb>{_VERB}):(?P<arg>[^\n]*)"
SOLO_SELECT = rf"dsp:q:(?P<game>{_NUM}):(?P<version>{_NUM}):(?P<verb>{_VERB}):(?P<part>\d{{1,2}})"
SOLO_FACTS = rf"dsp:f:(?P<game>{_NUM}):(?P<version>{_NUM})"
#: The log lines a session message shows at most (the rest: ``/solo log``).
LOG_LINES_SHOWN = 12


def is_solo_id(custom_id: str) -> bool:
    """Is this a solo session's component id (see the forms above)?"""
    return any(re.fullmatch(t, custom_id) for t in (SOLO_ACTION, SOLO_SELECT, SOLO_FACTS))


def solo_action_id(game_id: int, version: int, verb: str, arg: Any) -> str:
    cid = f"dsp:o:{int(game_id)}:{int(version)}:{verb}:{encode_arg(arg)}"
    if len(cid) > 100 or not re.fullmatch(SOLO_ACTION, cid):
        raise BadCustomId(f"cannot encode action {verb!r} {arg!r}")
    return cid


class SoloButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=SOLO_ACTION):
    """One action of a solo session."""

    def __init__(
        self,
        game_id: int,
        version: int,
        verb: str,
        arg: int | str | None = None,
        *,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
    ) -> None:
        self.game_id, self.version, self.verb, self.arg = game_id, version, verb, arg
        custom_id = solo_action_id(game_id, version, verb, arg)
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SoloButton:
        f = match.groupdict()
        return cls(int(f["game"]), int(f["version"]), f["verb"], decode_arg(f["arg"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await on_solo_action(interaction, self.game_id, self.version, self.verb, self.arg)


class SoloSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SOLO_SELECT):
    """One verb of a solo session with many choices."""

    def __init__(
        self,
        game_id: int,
        version: int,
        verb: str,
        part: int = 0,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        self.game_id, self.version, self.verb, self.part = game_id, version, verb, part
        super().__init__(
            discord.ui.Select(
                custom_id=f"dsp:q:{int(game_id)}:{int(version)}:{verb}:{int(part)}",
                options=options or [discord.SelectOption(label="?", value="?")],
                placeholder=placeholder,
                min_values=1,
                max_values=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SoloSelect:
        f = match.groupdict()
        options = list(getattr(item, "options", None) or []) or None
        return cls(int(f["game"]), int(f["version"]), f["verb"], int(f["part"]), options=options)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = list(self.item.values)
        if len(values) != 1:
            await refuse(interaction, self.game_id, "Choose exactly one option.")
            return
        await on_solo_action(interaction, self.game_id, self.version, self.verb, values[0])


class FactsButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=SOLO_FACTS):
    """Opens one form for every fact of the card just turned face up."""

    def __init__(self, game_id: int, version: int) -> None:
        self.game_id, self.version = game_id, version
        super().__init__(
            discord.ui.Button(
                label="Tell all its facts at once",
                style=discord.ButtonStyle.success,
                custom_id=f"dsp:f:{int(game_id)}:{int(version)}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> FactsButton:
        f = match.groupdict()
        return cls(int(f["game"]), int(f["version"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.discord_app.solo_modals import open_facts_modal

        await open_facts_modal(interaction, self.game_id, self.version)


SOLO_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (SoloButton, SoloSelect, FactsButton)


# ------------------------------------------------------------------------ the message


def asks_facts(view: View) -> bool:
    """The session waits for the facts of a card turned face up (a number comes first)."""
    actions = view.get("actions") or {}
    return view.get("step") == "identify" and ("number" in actions or "unnumbered" in actions)


def build_solo_view(game_id: int, version: int, view: View) -> tuple[discord.ui.View, list[str]]:
    """The session's buttons (laid out as any prompt's, with solo ids), the facts button
    while a card's facts are asked, and the whole texts of shortened labels."""
    laid = build_prompt_view(game_id, version, view)
    ui = discord.ui.View(timeout=None)
    # (discord.py reads a DynamicItem's row back as None for selects: ask its item.)
    widths: dict[int, int] = {}
    for child in laid.view.children:
        item: discord.ui.Item[Any]
        row = child.item.row if isinstance(child, discord.ui.DynamicItem) else child.row
        if isinstance(child, ActionButton):
            button = child.item
            item = SoloButton(
                game_id,
                version,
                child.verb,
                child.arg,
                label=button.label or "?",
                style=button.style,
            )
        elif isinstance(child, ActionSelect):
            select = child.item
            item = SoloSelect(
                game_id,
                version,
                child.verb,
                child.part,
                options=list(select.options),
                placeholder=select.placeholder,
            )
        else:
            continue
        item.row = row
        widths[row or 0] = widths.get(row or 0, 0) + item.width
        ui.add_item(item)
    notes = list(laid.notes)
    if asks_facts(view):
        # The form takes any number, so it goes first: in a row of buttons with room left,
        # else a free row.
        facts = FactsButton(game_id, version)
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
        "files": [png_file(png, name)] if png and name else [],
        "allowed_mentions": ALLOWED_MENTIONS,
    }
    payload["view"] = components
    return payload


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
            result = await manager.act(game_id, uid, verb, arg, version)
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
    ui.add_item(
        SoloButton(
            game_id,
            version,
            "end",
            CONFIRMED,
            label="Yes, close it",
            style=discord.ButtonStyle.danger,
        )
    )
    ui.add_item(
        SoloButton(
            game_id,
            version,
            STAY,
            None,
            label="No, keep playing",
            style=discord.ButtonStyle.secondary,
        )
    )
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
        # The session message is public, and "End the session" and "No, keep playing" are
        # the front end's own (no rules action refuses them): anyone else is refused here,
        # before the message is touched.
        info = await manager_of(interaction).get_game_info(game_id)
        if not info.roles_of(user_id(interaction)):
            raise errors.NotSeated()
        await interaction.response.defer()
        if verb == "end" and arg is None:
            await confirm_end(interaction, game_id, version)
        elif verb == "end" and arg == CONFIRMED:
            await apply_and_show(interaction, game_id, [("end", None)], version)
        elif verb == STAY:
            await show_current(interaction, game_id)
        else:
            await apply_and_show(interaction, game_id, [(verb, arg)], version)
