"""A game's lobby on Discord: the post with a Join button per open seat and the select
that gives an open seat to Dispatch at a level, and what a click on them does.

Their custom ids (in ``custom_ids``)::

    dsp:j:<game>:<role>   take that seat
    dsp:d:<game>:<role>   give that open seat to Dispatch; the options' values are its
                          levels (easy, normal, hard)

Both are clicked in the game's own channel (or in the parent of its thread, where the
lobby post stays): a copy forged elsewhere is refused and changes nothing.
"""

from __future__ import annotations

from typing import Any

import discord

import rules
from bot.delivery.port import GameInfo
from bot.discord_app import formatting
from bot.discord_app.checks import is_moderator
from bot.discord_app.components import (
    BUTTONS_PER_ROW,
    LABEL_MAX,
    MAX_ROWS,
    DispatchComponent,
    clip,
)
from bot.discord_app.custom_ids import dispatch_id, join_id
from bot.discord_app.interactions import (
    handling,
    in_its_channel,
    manager_of,
    refuse,
    reply,
    user_id,
)
from bot.tables.bot_users import is_bot, level_of
from rules.ai import level_caveat

#: Discord's limit on a select option's description.
DESCRIPTION_MAX = 100
#: Dispatch's levels as the lobby offers them: (level, label, description).
DISPATCH_LEVELS: tuple[tuple[str, str, str], ...] = (
    ("easy", "Dispatch (easy)", "Moves at once, without looking ahead"),
    ("normal", "Dispatch (normal)", "Thinks about 1 second a move"),
    ("hard", "Dispatch (hard)", "Thinks about 5 seconds a move"),
)


def level_options(game: str | None) -> list[tuple[str, str, str]]:
    """:data:`DISPATCH_LEVELS` as offered for ``game``: a level not shown stronger than
    the one below it there says so, rather than promise what its name means."""
    found = rules.GAMES.get(game) if game else None
    options = []
    for level, text, description in DISPATCH_LEVELS:
        caveat = level_caveat(found.name, level) if found else None
        if caveat:
            description = f"{description}, yet {caveat}"
        options.append((level, text, clip(description, DESCRIPTION_MAX)))
    return options


def level_notes(info: GameInfo) -> str:
    """A line for each Dispatch seat of ``info`` at a level not shown stronger than the
    one below it in that game, so the seat's name promises nothing it does not keep."""
    game = rules.GAMES.get(info.game_name)
    notes = ""
    for seat in info.seats:
        caveat = (
            level_caveat(game.name, level_of(seat.user_id))
            if game and is_bot(seat.user_id)
            else None
        )
        if caveat:
            notes += f"\n{seat.user_id} is {caveat}."
    return notes


class JoinButton(DispatchComponent, kind="join"):
    """A lobby's Join button for one open seat."""

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        await on_join(interaction, self.click.game_id, str(self.click.role))


class LevelSelect(DispatchComponent, kind="dispatch"):
    """A lobby's select that gives its open seat to Dispatch at the level chosen."""

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        click, values = self.click, self.values
        levels = [level for level, _, _ in DISPATCH_LEVELS]
        if len(values) != 1 or values[0] not in levels:
            text = f"Choose one of Dispatch's levels: {', '.join(levels)}."
            await refuse(interaction, click.game_id, text)
            return
        await on_seat_dispatch(interaction, click.game_id, str(click.role), values[0])


#: This module's kinds, registered by the ``/game`` cog.
ITEMS: tuple[type[DispatchComponent], ...] = (JoinButton, LevelSelect)


def build_lobby_view(
    game_id: int,
    open_roles: list[tuple[str, str]],
    *,
    dispatch: tuple[str, str] | None = None,
    game: str | None = None,
) -> discord.ui.View:
    """One join button per open seat (``open_roles`` is [(role, label)]), and with
    ``dispatch`` (role, label) a select in a row of its own that gives that seat to
    Dispatch at the level picked (the levels as offered for ``game``)."""
    ui = discord.ui.View(timeout=None)
    rows = MAX_ROWS - (1 if dispatch else 0)
    buttons = open_roles[: rows * BUTTONS_PER_ROW]
    for index, (role, label) in enumerate(buttons):
        join = JoinButton.button(
            join_id(game_id, role),
            clip(f"Join as {label}", LABEL_MAX),
            discord.ButtonStyle.success,
        )
        join.row = index // BUTTONS_PER_ROW
        ui.add_item(join)
    if dispatch:
        role, label = dispatch
        placeholder = clip(f"Or let Dispatch (this bot) play {label}: choose its level", 150)
        levels = [
            discord.SelectOption(label=text, value=level, description=description)
            for level, text, description in level_options(game)
        ]
        choose = LevelSelect.select(dispatch_id(game_id, role), levels, placeholder)
        choose.row = (len(buttons) + BUTTONS_PER_ROW - 1) // BUTTONS_PER_ROW
        ui.add_item(choose)
    return ui


def lobby_payload(info: GameInfo) -> dict[str, Any]:
    """The lobby message: seats, and a join button per open seat while it waits."""
    open_roles = [
        (r, formatting.role_label(info, r)) for r in info.roles if info.seat_of(r) is None
    ]
    content = formatting.lobby_text(info) + level_notes(info)
    if info.status == "active":
        content += f"\nEvery seat is taken: the game is on, in <#{info.channel_id}>."
    elif info.status == "cancelled":
        content += "\nThis game was cancelled."
    view = None
    if info.status == "lobby" and open_roles:
        # Whoever sits here may give the first open seat to Dispatch instead of waiting.
        dispatch = open_roles[0] if info.seats else None
        view = build_lobby_view(info.id, open_roles, dispatch=dispatch, game=info.game_name)
    return {"content": content, "view": view, "allowed_mentions": discord.AllowedMentions.none()}


async def on_join(interaction: discord.Interaction[Any], game_id: int, role: str) -> None:
    """A lobby's Join button: take that seat."""
    async with handling(interaction, game_id, "join"):
        await in_its_channel(interaction, game_id)
        await interaction.response.defer()
        manager = manager_of(interaction)
        info = await manager.join(game_id, user_id(interaction), role)
        await interaction.edit_original_response(**lobby_payload(info))
        if info.status == "active":
            await reply(interaction, "You are seated; the game has begun.")
        else:
            await reply(interaction, "You are seated. The game starts when every seat is taken.")


async def on_seat_dispatch(
    interaction: discord.Interaction[Any], game_id: int, role: str, level: str
) -> None:
    """A lobby's Dispatch select: a seated player (or a moderator) gives the open seat to
    Dispatch at ``level``; the game then starts as when a person joins."""
    async with handling(interaction, game_id, "dispatch"):
        await in_its_channel(interaction, game_id)
        await interaction.response.defer()
        info = await manager_of(interaction).seat_dispatch(
            game_id, user_id(interaction), level, role, is_moderator=is_moderator(interaction)
        )
        await interaction.edit_original_response(**lobby_payload(info))
        seat = formatting.role_label(info, role)
        if info.status == "active":
            await reply(interaction, f"Dispatch ({level}) plays {seat}; the game has begun.")
        else:
            await reply(
                interaction,
                f"Dispatch ({level}) plays {seat}. The game starts when every seat is taken.",
            )
