"""What ``/game status`` and ``/game board`` show, and its "Show to the table" post.

The asker sees it alone first (each look used to be posted to the
channel); its button posts the same look to the table, drawn from the game as it is when
pressed, saying who showed it. A board the table's latest post already shows is linked to
rather than uploaded again (``DiscordFrontEnd.board_shown_at``).
"""

from __future__ import annotations

import collections
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot import errors
from bot.delivery.images import board_image
from bot.delivery.port import GameInfo
from bot.discord_app import formatting
from bot.discord_app.components import DispatchComponent
from bot.discord_app.custom_ids import show_id
from bot.discord_app.formatting import png_file
from bot.discord_app.interactions import (
    ANOTHER_CHANNEL,
    handling,
    in_its_channel,
    manager_of,
    user_id,
)
from bot.discord_app.room import client_of

if TYPE_CHECKING:
    from bot.discord_app.room import Front
    from bot.tables.manager import GameManager

Look = Literal["status", "board"]
LOOKS: tuple[Look, ...] = ("status", "board")


async def look_payload(
    manager: GameManager, info: GameInfo, what: Look, *, frontend: Front | None = None
) -> dict[str, Any]:
    """content/embed + files of a look at the board now (as an observer sees it)."""
    pv = await manager.view_for(info.id, None)
    board = await board_image(info.game_name, pv.view)
    same_as = frontend.board_shown_at(info.id, board) if frontend is not None else None
    alt = formatting.board_alt(info, pv.view)
    files = [png_file(board, "board.png", alt)] if board is not None and same_as is None else []
    unchanged = f"The board is as in [the latest post]({same_as})." if same_as else ""
    payload: dict[str, Any] = {
        "files": files,
        "allowed_mentions": discord.AllowedMentions.none(),
    }
    if what == "board":
        text = f"**{formatting.escape(info.title)}** (#{info.id}, move {pv.version}): "
        text += formatting.escape(str(pv.view.get("status") or ""))
        score = formatting.view_score(info, pv.view)
        if score:
            text += f"\n**Score:** {score}"
        if unchanged:
            text += f"\n{unchanged}"
        payload["content"] = formatting.clip(text, formatting.CONTENT_MAX)
        return payload
    embed = discord.Embed(title=f"{info.title} (#{info.id})", colour=formatting.COLOUR_TABLE)
    embed.description = formatting.escape(str(pv.view.get("status") or ""))
    embed.add_field(name="Seats", value=formatting.seat_line(info), inline=False)
    if info.status == "active" and info.waiting_on:
        turn = formatting.mentions(info.waiting_on)
        when = formatting.since(info.turn_started_at)
        thinking = formatting.thinking_line(info, info.active_roles)
        waiting = " ".join(part for part in (turn, when, thinking) if part)
        embed.add_field(name="Waiting for", value=waiting, inline=False)
    clocks = await manager.clocks.lines(info.id)  # ``<t:...:R>`` timestamps
    if clocks:
        embed.add_field(name="Clocks", value=formatting.clip("\n".join(clocks), 1024), inline=False)
    score = formatting.view_score(info, pv.view)
    if score:
        embed.add_field(name="Score", value=formatting.clip(score, 1024), inline=False)
    if files:
        embed.set_image(url="attachment://board.png")
    if unchanged:
        embed.add_field(name="Board", value=unchanged, inline=False)
    payload["embed"] = embed
    return payload


def shown_by(payload: dict[str, Any], user_id: str) -> dict[str, Any]:
    """The look as posted to the table: it says who showed it (named, not pinged)."""
    note = f"Shown by <@{int(user_id)}>."
    content = payload.get("content")
    payload["content"] = formatting.clip(
        f"{content}\n{note}" if content else note, formatting.CONTENT_MAX
    )
    return payload


# ------------------------------------------------------- "Show to the table"


class ShowButton(DispatchComponent, kind="show"):
    """ "Show to the table" under an ephemeral look."""

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        await on_show_table(interaction, self.click.game_id, str(self.click.what))


#: This module's kinds, registered by the ``/game`` cog.
ITEMS: tuple[type[DispatchComponent], ...] = (ShowButton,)


def build_show_view(game_id: int, what: str) -> discord.ui.View:
    """An ephemeral look's one button: show it to the table."""
    ui = discord.ui.View(timeout=None)
    ui.add_item(
        ShowButton.button(
            show_id(game_id, what), "Show to the table", discord.ButtonStyle.secondary
        )
    )
    return ui


#: The ephemeral looks already shown to their table (message ids, the latest few
#: thousand): a second press that came before the first removed the button posts nothing.
_SHOWN: collections.OrderedDict[int, None] = collections.OrderedDict()
SHOWN_KEPT = 4096


def first_show(message_id: int | None) -> bool:
    """True once per look: checked and marked with no await between, so two presses
    handled side by side cannot both pass."""
    if message_id is None:
        return True
    if message_id in _SHOWN:
        return False
    _SHOWN[message_id] = None
    while len(_SHOWN) > SHOWN_KEPT:
        _SHOWN.popitem(last=False)
    return True


async def on_show_table(interaction: discord.Interaction[Any], game_id: int, what: str) -> None:
    """ "Show to the table" under an ephemeral ``/game status`` or ``/game board``: post that
    look to the game's channel, as the game is now, once (the button is then removed)."""
    async with handling(interaction, game_id, "show"):
        manager = manager_of(interaction)
        info = await in_its_channel(interaction, game_id)
        if what not in LOOKS:
            raise errors.NotAllowed(ANOTHER_CHANNEL)
        message_id = interaction.message.id if interaction.message is not None else None
        if not first_show(message_id):
            raise errors.Outdated("This look was already shown to the table.")
        try:
            # Acknowledge by promising to update the ephemeral message the button is on.
            await interaction.response.defer()
            frontend = client_of(interaction).frontend
            look: Look = "board" if what == "board" else "status"
            payload = await look_payload(manager, info, look, frontend=frontend)
            payload = shown_by(payload, user_id(interaction))
            await interaction.followup.send(**payload, ephemeral=False)
        except BaseException:
            _SHOWN.pop(message_id or 0, None)  # nothing was shown: it may be pressed again
            raise
        await interaction.edit_original_response(content="Shown to the table.", view=None)
