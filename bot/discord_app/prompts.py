"""A player's private prompt: its message (the hand or the board with the choices marked,
the question, a button or select per legal action), the "My prompt" button under every
table post, and what a click on them does.

The prompt's buttons and selects (ids ``dsp:a``, ``dsp:s``) and "My prompt" (``dsp:h``)
are this module's ``DynamicItem`` kinds, registered by the ``/game`` cog. A click applies
the action and edits the clicked message into the player's next prompt (a prompt's answer
carries the next prompt's buttons, so its message and its clicks live together here).
Action ids only ever go to the acting player (a DM or an ephemeral reply).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Unpack

import discord

from bot import errors
from bot.delivery.images import choices_image, closeup_image, hand_image
from bot.delivery.port import GameInfo
from bot.discord_app import formatting
from bot.discord_app.components import (
    PLAN_PART,
    DispatchComponent,
    PromptComponents,
    PromptItems,
    lay_out_prompt,
    picked_arg,
    plan_args,
)
from bot.discord_app.custom_ids import prompt_id
from bot.discord_app.formatting import png_file
from bot.discord_app.interactions import (
    APPLIED_NOT_SHOWN,
    game_in_reach,
    handling,
    manager_of,
    refuse,
    reply,
    user_id,
)
from bot.discord_app.room import client_of
from bot.tables.requests import Move
from bot.tables.results import ActResult, PlayerView

if TYPE_CHECKING:
    from bot.tables.manager import GameManager

log = logging.getLogger("dispatch.discord")

#: What a closed prompt says above its (button-less) content when the player answered
#: it elsewhere.
CLOSED_ELSEWHERE = "Closed: you answered elsewhere (see /game hand for your prompt)."
#: Where a DM's hand is when the message above shows that very picture.
SAME_AS_ABOVE = "Unchanged: as in your latest message with a picture."


# ------------------------------------------------------------- what a click does


class ActionButton(DispatchComponent, kind="action"):
    """One legal action of the player's prompt."""

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        click = self.click
        version, verb = int(click.version or 0), str(click.verb)
        await on_action(interaction, click.game_id, version, verb, click.arg)


class ActionSelect(DispatchComponent, kind="select"):
    """One verb's args of the player's prompt, as options (several at once when the view
    batches them, or a whole plan per option)."""

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        click, values = self.click, self.values
        if not values or len(set(values)) != len(values):
            await refuse(interaction, click.game_id, "Choose one or more options.")
            return
        # Several values are one decision of several small parts (the view's ``batch``):
        # the manager applies them in the order Discord lists them, all or nothing. A
        # repeated pick ("texas|2") is the same arg again; the rules check every one.
        args = [picked_arg(v) for v in values] if self.max_values > 1 else values
        if click.part == PLAN_PART:  # a whole decision in one option (the view's ``plans``)
            args = plan_args(values[0]) if len(values) == 1 else []
        if not args:
            await refuse(interaction, click.game_id, "Choose one of the options.")
            return
        version, verb = int(click.version or 0), str(click.verb)
        await on_action(interaction, click.game_id, version, verb, args[0], more=args[1:])


class MyPromptButton(DispatchComponent, kind="prompt"):
    """ "My prompt" under a table post."""

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        await on_my_prompt(interaction, self.click.game_id)


#: A player's prompt's choices.
PLAYER_ITEMS = PromptItems(button=ActionButton, select=ActionSelect)
#: This module's kinds, registered by the ``/game`` cog.
ITEMS: tuple[type[DispatchComponent], ...] = (ActionButton, ActionSelect, MyPromptButton)


def build_prompt_view(game_id: int, version: int, view: dict[str, Any]) -> PromptComponents:
    """A player's prompt's buttons and selects (``components.lay_out_prompt``)."""
    return lay_out_prompt(game_id, version, view, PLAYER_ITEMS)


def build_table_view(game_id: int) -> discord.ui.View:
    """The channel post's one button: open your own prompt (ephemeral, works without DMs)."""
    ui = discord.ui.View(timeout=None)
    ui.add_item(
        MyPromptButton.button(prompt_id(game_id), "My prompt", discord.ButtonStyle.secondary)
    )
    return ui


# ------------------------------------------------------------- the prompt's message


def hand_name(png: bytes) -> str:
    """A hand image's file name, from its content: the same picture, the same name."""
    return f"hand-{hashlib.sha256(png).hexdigest()[:12]}.png"


def choices_name(png: bytes) -> str:
    """The name of a board with a prompt's choices marked, from its content."""
    return f"board-{hashlib.sha256(png).hexdigest()[:12]}.png"


def closeup_name(png: bytes) -> str:
    """The name of a phone-sized close-up, from its content."""
    return f"closeup-{hashlib.sha256(png).hexdigest()[:12]}.png"


async def edited_pictures(
    game: GameInfo,
    view: dict[str, Any],
    payload: dict[str, Any],
    attachments: list[discord.Attachment],
    *,
    above: str | None = None,
    closeup_above: str | None = None,
) -> list[discord.Attachment | discord.File] | None:
    """The pictures a prompt edited in place should carry (None: keep those it has), from
    ``private_payload``'s ``files`` and ``hand`` (the picture it shows) and the message's
    current ``attachments``. Nothing the message already has is uploaded again.

    A prompt that turns from the hand to the board with its choices marked keeps the hand
    it showed, as the embed's thumbnail, when that is still the player's hand: the next
    prompt, back on the hand, then uploads nothing (in Lincoln the hand
    went back and forth between every placement). A DM that showed no picture because the
    one above shows the same (``above``, see ``send_private``) goes on saying so, and a
    close-up the DM channel already shows (``closeup_above``) is not uploaded again.
    """
    current = {a.filename: a for a in attachments}
    picture: str | None = payload.get("hand")
    if picture is not None and picture not in current and picture == above:
        payload["embed"].set_image(url=None)
        payload["embed"].add_field(name="Your hand", value=SAME_AS_ABOVE)
        return [] if current else None
    kept = None
    if picture is not None and picture.startswith("board-"):
        shown_hand = next((n for n in current if n.startswith("hand-")), None)
        if shown_hand is not None:
            png = await hand_image(game.game_name, view)
            if png is not None and hand_name(png) == shown_hand:
                kept = shown_hand
                payload["embed"].set_thumbnail(url=f"attachment://{kept}")
    closeups = [
        f.filename
        for f in payload.get("files", [])
        if f.filename.startswith("closeup-")
        and (f.filename in current or f.filename != closeup_above)
    ]
    wanted = [n for n in (picture, kept, *closeups) if n is not None]
    if sorted(wanted) == sorted(current):
        return None
    new = {f.filename: f for f in payload.get("files", [])}
    out: list[discord.Attachment | discord.File] = []
    for name in wanted:
        if name in current:
            out.append(current[name])
        elif name in new:
            out.append(new[name])
    return out


async def private_payload(
    game: GameInfo,
    role: str | None,
    version: int,
    view: dict[str, Any],
    *,
    with_hand: bool = True,
    **words: Unpack[formatting.PromptWords],
) -> dict[str, Any]:
    """embed + files + view for a player's private prompt (DM, ephemeral, or an edit).

    The hand image is named after its content (``hand-<digest>.png``, see ``hand_name``)
    so that a caller can tell whether the player already has this very picture and skip
    uploading it again.
    """
    # A prompt about places on the board shows the board with its choices marked; any
    # other shows the hand (which has not changed while tokens are being placed).
    choices = await choices_image(game.game_name, view) if role and with_hand else None
    hand = (
        None if choices else await hand_image(game.game_name, view) if role and with_hand else None
    )
    name = hand_name(hand) if hand else None
    files: list[discord.File] = []
    if choices:
        hand, name = choices, choices_name(choices)
        # Beside the marked board, the same choices close up: a phone shows the board a
        # third of its size, too small to read the names of the places offered.
        closeup = await closeup_image(game.game_name, view)
        if closeup is not None:
            alt = formatting.choices_alt(game, view, closeup=True)
            files.append(png_file(closeup, closeup_name(closeup), alt))
    components = build_prompt_view(game.id, version, view) if view.get("actions") else None
    embed = formatting.prompt_embed(
        game,
        role,
        view,
        hand_file=name,
        overflow=bool(components and components.overflow),
        notes=components.notes if components else (),
        **words,
    )
    alt = formatting.choices_alt(game, view) if choices else formatting.hand_alt(game, role, view)
    payload: dict[str, Any] = {
        "embed": embed,
        "files": ([png_file(hand, name, alt)] if hand and name else []) + files,
        "hand": name,
    }
    if components is not None:
        payload["view"] = components.view
    return payload


async def send_private_view(
    interaction: discord.Interaction[Any], pv: PlayerView, *, notice: str = ""
) -> None:
    """The player's own view, hand and prompt, ephemerally (works with DMs closed)."""
    if pv.role is None:
        raise errors.NotSeated()
    payload = await private_payload(pv.game, pv.role, pv.version, pv.view, notice=notice)
    payload.pop("hand", None)
    await reply(interaction, **payload)


# ------------------------------------------------------------- a click applied


async def on_action(
    interaction: discord.Interaction[Any],
    game_id: int,
    version: int,
    verb: str,
    arg: Any,
    *,
    more: list[Any] | tuple[Any, ...] = (),
) -> None:
    """A button or select of the player's prompt: apply it (with ``more`` args of the same
    verb from a multi-choice select), then show the next prompt."""
    async with handling(interaction, game_id, "action"):
        # Acknowledge at once by promising to update the message the button is on (no
        # "thinking" spinner).
        await interaction.response.defer()
        await game_in_reach(interaction, game_id)
        manager = manager_of(interaction)
        uid = user_id(interaction)
        try:
            result = await manager.act(
                game_id, uid, Move(verb, arg, version, more=list(more)), deliver=False
            )
        except errors.StalePrompt as exc:
            # The manager already let through a button whose decision is unchanged (the
            # other side moving in a simultaneous step does not outdate it); this one
            # really is old.
            await _stale(interaction, manager, game_id, uid, exc)
            return
        # The player's new prompt and the table post and DMs the action caused are
        # independent: drawn and sent at the same time (images render in worker threads),
        # so the reply does not wait for the board. Both finish before the handler does.
        outcomes = await asyncio.gather(
            _answer(interaction, result, game_id, uid),
            manager.deliver_due(game_id),
            return_exceptions=True,
        )
        await _after_applied(interaction, game_id, verb, outcomes)


async def _after_applied(
    interaction: discord.Interaction[Any], game_id: int, verb: str, outcomes: Sequence[object]
) -> None:
    """The move is in the store whatever failed after it: never answer "nothing was
    changed" then. The log names the verb and the error's kind, never the argument."""
    failures = [o for o in outcomes if isinstance(o, BaseException)]
    for failure in failures:
        if not isinstance(failure, Exception):
            raise failure  # cancelled (shutting down): not ours to swallow
    if not failures:
        return
    log.warning(
        "game=%d: %s by %s was applied, but answering it failed: %s",
        game_id,
        verb,
        interaction.user.id,
        ", ".join(_error_kind(f) for f in failures),
    )
    try:
        await reply(interaction, APPLIED_NOT_SHOWN)
    except Exception as exc:
        log.warning(
            "could not tell %s the move was made: %s", interaction.user.id, _error_kind(exc)
        )


def _error_kind(error: BaseException) -> str:
    """An error's type and HTTP status, without its text (which may echo a payload)."""
    status = error.status if isinstance(error, discord.HTTPException) else None
    return f"{type(error).__name__}{f' {status}' if status else ''}"


async def _answer(
    interaction: discord.Interaction[Any],
    result: ActResult,
    game_id: int,
    uid: str,
) -> None:
    """Edit the clicked message into the player's next prompt (or "Done")."""
    headline = ""
    if result.outcome is not None:
        headline = "The game is over."
    elif not result.view.get("actions"):
        thinking = formatting.thinking_line(result.game, result.active_roles)
        told = ("Done.", thinking, "I will tell you when it is your turn again.")
        headline = " ".join(part for part in told if part)
    payload = await private_payload(
        result.game,
        result.role,
        result.version,
        result.view,
        headline=headline,
        log_lines=result.private_log_lines,
    )
    payload.setdefault("view", None)  # no actions left: remove the old buttons
    hand = payload.get("hand")
    shown = list(interaction.message.attachments) if interaction.message else []
    frontend = client_of(interaction).frontend
    in_dm = interaction.message is not None and interaction.guild_id is None
    above = frontend.picture_above(game_id, uid) if in_dm else None
    closeup = frontend.closeup_above(game_id, uid) if in_dm else None
    # A picture already on this message, or on the DM above it, is not uploaded again.
    pictures = await edited_pictures(
        result.game, result.view, payload, shown, above=above, closeup_above=closeup
    )
    if in_dm:
        for picture in pictures or ():
            if picture.filename and picture.filename.startswith("closeup-"):
                frontend.closeup_shown(game_id, uid, picture.filename)
    payload.pop("files"), payload.pop("hand", None)
    if pictures is None:
        await interaction.edit_original_response(**payload)
    else:
        await interaction.edit_original_response(attachments=pictures, **payload)
    # Where the player's live prompt is now: this DM if it still asks something; an
    # answer from an ephemeral prompt closes the DM one (no stale button looks live).
    message = interaction.message
    if message is not None and in_dm:
        where = (str(message.channel.id), str(message.id))
        live = payload.get("view") is not None
        await frontend.answered_at(game_id, uid, where, live=live, picture=hand)
    else:
        await frontend.prompt_now_at(game_id, uid, None, CLOSED_ELSEWHERE)


async def on_my_prompt(interaction: discord.Interaction[Any], game_id: int) -> None:
    """ "My prompt" under a table post: the clicker's own view, ephemerally."""
    async with handling(interaction, game_id, "prompt"):
        await interaction.response.defer(ephemeral=True, thinking=True)
        await game_in_reach(interaction, game_id)
        pv = await manager_of(interaction).view_for(game_id, user_id(interaction))
        await send_private_view(interaction, pv)


async def _stale(
    interaction: discord.Interaction[Any],
    manager: GameManager,
    game_id: int,
    uid: str,
    exc: errors.StalePrompt,
) -> None:
    """Out of date: say so, and give the player the current prompt with fresh buttons."""
    try:
        pv = await manager.view_for(game_id, uid)
    except errors.DispatchError:
        await reply(interaction, "This prompt is out of date.")
        return
    if pv.role is None or not pv.view.get("actions"):
        text = "This prompt is out of date."
        status = str(pv.view.get("status") or "")
        await reply(interaction, f"{text} {status}".strip())
        return
    await send_private_view(interaction, pv, notice="This prompt is out of date.")
