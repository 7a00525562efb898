"""Interaction handling shared by the buttons, selects and slash commands.

Each handler acknowledges first (Discord's 3-second deadline), then asks the manager, then
answers. Every error a player can cause is a ``DispatchError`` whose text is shown to them
ephemerally; anything else is logged here (never left to discord.py) and answered politely.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import re
import time
from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot import errors
from bot.delivery.port import GameInfo
from bot.discord_app import formatting, threads
from bot.discord_app.checks import is_moderator
from bot.discord_app.components import (
    DISPATCH_LEVELS,
    PLAN_PART,
    DispatchComponent,
    build_lobby_view,
    handles,
    picked_arg,
    plan_args,
)
from bot.discord_app.formatting import ALLOWED_MENTIONS
from bot.discord_app.frontend import (
    CLOSED_ELSEWHERE,
    edited_pictures,
    private_payload,
)
from bot.discord_app.looks import LOOKS, Look, look_payload, shown_by
from bot.discord_app.room import client_of
from bot.tables.requests import Move
from bot.tables.results import ActResult, PlayerView

if TYPE_CHECKING:
    from bot.tables.manager import GameManager

log = logging.getLogger("dispatch.discord")

UNEXPECTED = "Something went wrong on my side; nothing was changed. Please try again."
#: The move was applied, but the clicked message could not become the next prompt.
APPLIED_NOT_SHOWN = (
    "Your move was made, but I could not update this message. "
    "Use /game hand for your current prompt."
)


_ID_HEAD = re.compile(r"dsp:[a-z]:[0-9]{1,18}")


def id_label(custom_id: object) -> str:
    """What a log line may show of a component's custom id: its form and game id only.

    An action id ends in the action's argument (``dsp:a:1:2:place:left:U48`` names the
    card played face down), and whoever reads the server log may sit at the table; a
    forged id may carry anything. So only ``dsp:<form>:<game>`` goes to the log.
    """
    known = _ID_HEAD.match(str(custom_id))
    return known.group(0) if known else "(not a Dispatch id)"


def manager_of(interaction: discord.Interaction[Any]) -> GameManager:
    manager = client_of(interaction).manager
    if manager is None:
        raise errors.NotAllowed("Dispatch is still starting up; try again in a moment.")
    return manager


def user_id(interaction: discord.Interaction[Any]) -> str:
    return str(interaction.user.id)


def guild_of(interaction: discord.Interaction[Any]) -> str | None:
    """The server an interaction came from (None: a DM)."""
    return str(interaction.guild_id) if interaction.guild_id else None


async def game_in_reach(interaction: discord.Interaction[Any], game_id: int) -> GameInfo:
    """The game a number typed or clicked here names, if it is within reach from here: a
    game of this server, or in a DM one the asker plays (``bot.tables.reach``). Any other
    number is refused as an unknown one: a custom id or a ``game:`` option can name any
    game, and a moderator here is no moderator of another server's games."""
    return await manager_of(interaction).game_in_reach(
        game_id, user_id(interaction), guild_of(interaction)
    )


async def reply(
    interaction: discord.Interaction[Any], content: str | None = None, **kwargs: Any
) -> None:
    """Answer ephemerally, as a first response or a followup, whichever is due."""
    kwargs.setdefault("ephemeral", True)
    kwargs.setdefault("allowed_mentions", ALLOWED_MENTIONS)
    if content is not None:
        kwargs["content"] = formatting.clip(content, formatting.CONTENT_MAX)
    if interaction.response.is_done():
        if "view" in kwargs and kwargs["view"] is None:
            kwargs.pop("view")
        await interaction.followup.send(**kwargs)
    else:
        if not kwargs.get("files"):
            kwargs.pop("files", None)
        await interaction.response.send_message(**kwargs)


async def report(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Tell the player why nothing happened; log anything that is not their doing."""
    if isinstance(error, errors.DispatchError):
        text = formatting.error_text(error)
    else:
        custom_id = getattr(interaction.data, "get", lambda _k: None)("custom_id")
        log.error(
            "interaction %s by %s failed",
            id_label(custom_id)
            if custom_id
            else getattr(interaction.command, "qualified_name", "?"),
            interaction.user.id,
            exc_info=error,
        )
        text = UNEXPECTED
    try:
        await reply(interaction, text)
    except Exception as exc:
        # The token may have expired or the bot is shutting down: nothing more to do.
        log.warning("could not report an error to %s: %s", interaction.user.id, exc)


async def send_private_view(
    interaction: discord.Interaction[Any], pv: PlayerView, *, notice: str = ""
) -> None:
    """The player's own view, hand and prompt, ephemerally (works with DMs closed)."""
    if pv.role is None:
        raise errors.NotSeated()
    payload = await private_payload(pv.game, pv.role, pv.version, pv.view, notice=notice)
    payload.pop("hand", None)
    await reply(interaction, **payload)


# ----------------------------------------------------------------- components
#
# One handler per kind of component, registered with ``components.handles`` under the
# kind's name in ``custom_ids.KINDS``; a click hands it the component, whose ``click`` holds
# the fields of its custom_id.


def in_flight(interaction: discord.Interaction[Any]) -> contextlib.AbstractContextManager[None]:
    """Counts the interaction as in flight until the block ends: a graceful stop waits for
    it, and so do tests (``wait_idle``) for work done after its first answer."""
    return client_of(interaction).track()


@contextlib.asynccontextmanager
async def answering(interaction: discord.Interaction[Any]) -> AsyncIterator[None]:
    """Around the part of a command that goes on after its first answer: in flight until
    it ends, its failure answered within it, so whoever waits for the command (a graceful
    stop, a test) sees it whole, refusal included."""
    with in_flight(interaction):
        try:
            yield
        except Exception as exc:
            await report(interaction, exc)


@contextlib.asynccontextmanager
async def handling(
    interaction: discord.Interaction[Any], game_id: int, kind: str
) -> AsyncIterator[None]:
    """Around every component handler: counted as in flight (a graceful stop waits for
    it), timed in the log, and any error answered politely instead of escaping."""
    started = time.perf_counter()
    with in_flight(interaction):
        try:
            yield
        except Exception as exc:
            await report(interaction, exc)
    log.info(
        "interaction game=%d %s by %s handled in %.1fms",
        game_id,
        kind,
        interaction.user.id,
        (time.perf_counter() - started) * 1000,
    )


async def refuse(interaction: discord.Interaction[Any], game_id: int, text: str) -> None:
    """A click that cannot be what the player meant: say so, change nothing."""
    async with handling(interaction, game_id, "refused"):
        raise errors.NotAllowed(text)


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


ANOTHER_CHANNEL = "This button belongs to a game in another channel."


async def in_its_channel(interaction: discord.Interaction[Any], game_id: int) -> GameInfo:
    """The game a lobby or table control names, refused unless clicked in that game's own
    channel: its custom id names any game, and a moderator is one in the channel clicked
    in, so a copy forged in another server is refused as an unknown number (it must not
    seat anyone nor start the game), and one in another channel here saying so."""
    info = await game_in_reach(interaction, game_id)
    if str(interaction.channel_id) != info.channel_id:
        # Its lobby post may be in the parent of the game's thread.
        lobby = await manager_of(interaction).lobby_post(game_id)
        if lobby is None or lobby[0] != str(interaction.channel_id):
            raise errors.NotAllowed(ANOTHER_CHANNEL)
    return info


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


async def on_rematch(interaction: discord.Interaction[Any], game_id: int, sides: str) -> None:
    """Rematch under a game's last post: one new game, however many press it."""
    async with handling(interaction, game_id, "rematch"):
        await interaction.response.defer(ephemeral=True, thinking=True)
        await game_in_reach(interaction, game_id)
        info = await manager_of(interaction).rematch(game_id, user_id(interaction), sides)
        if info.channel_id == str(getattr(interaction.channel, "id", "")):
            await threads.renumber(interaction.channel, game_id, info.id)
        await reply(interaction, f"Rematch: game #{info.id} is on in this channel.")


async def on_my_prompt(interaction: discord.Interaction[Any], game_id: int) -> None:
    """ "My prompt" under a table post: the clicker's own view, ephemerally."""
    async with handling(interaction, game_id, "prompt"):
        await interaction.response.defer(ephemeral=True, thinking=True)
        await game_in_reach(interaction, game_id)
        pv = await manager_of(interaction).view_for(game_id, user_id(interaction))
        await send_private_view(interaction, pv)


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
        message_id = getattr(interaction.message, "id", None)
        if not first_show(message_id):
            raise errors.NotAllowed("This look was already shown to the table.")
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


def lobby_payload(info: GameInfo) -> dict[str, Any]:
    """The lobby message: seats, and a join button per open seat while it waits."""
    open_roles = [
        (r, formatting.role_label(info, r)) for r in info.roles if info.seat_of(r) is None
    ]
    content = formatting.lobby_text(info)
    if info.status == "active":
        content += f"\nEvery seat is taken: the game is on, in <#{info.channel_id}>."
    elif info.status == "cancelled":
        content += "\nThis game was cancelled."
    view = None
    if info.status == "lobby" and open_roles:
        # Whoever sits here may give the first open seat to Dispatch instead of waiting.
        dispatch = open_roles[0] if info.seats else None
        view = build_lobby_view(info.id, open_roles, dispatch=dispatch)
    return {"content": content, "view": view, "allowed_mentions": discord.AllowedMentions.none()}


# ------------------------------------------------- what a click of each kind does


@handles("action")
async def action_clicked(interaction: discord.Interaction[Any], item: DispatchComponent) -> None:
    click = item.click
    await on_action(interaction, click.game_id, int(click.version or 0), str(click.verb), click.arg)


@handles("select")
async def action_chosen(interaction: discord.Interaction[Any], item: DispatchComponent) -> None:
    click, values = item.click, item.values
    if not values or len(set(values)) != len(values):
        await refuse(interaction, click.game_id, "Choose one or more options.")
        return
    # Several values are one decision of several small parts (the view's ``batch``): the
    # manager applies them in the order Discord lists them, all or nothing. A repeated pick
    # ("texas|2") is the same arg again; the rules check every one.
    args = [picked_arg(v) for v in values] if item.max_values > 1 else values
    if click.part == PLAN_PART:  # a whole decision in one option (the view's ``plans``)
        args = plan_args(values[0]) if len(values) == 1 else []
    if not args:
        await refuse(interaction, click.game_id, "Choose one of the options.")
        return
    version, verb = int(click.version or 0), str(click.verb)
    await on_action(interaction, click.game_id, version, verb, args[0], more=args[1:])


@handles("join")
async def join_clicked(interaction: discord.Interaction[Any], item: DispatchComponent) -> None:
    await on_join(interaction, item.click.game_id, str(item.click.role))


@handles("dispatch")
async def level_chosen(interaction: discord.Interaction[Any], item: DispatchComponent) -> None:
    click, values = item.click, item.values
    levels = [level for level, _, _ in DISPATCH_LEVELS]
    if len(values) != 1 or values[0] not in levels:
        text = f"Choose one of Dispatch's levels: {', '.join(levels)}."
        await refuse(interaction, click.game_id, text)
        return
    await on_seat_dispatch(interaction, click.game_id, str(click.role), values[0])


@handles("prompt")
async def prompt_clicked(interaction: discord.Interaction[Any], item: DispatchComponent) -> None:
    await on_my_prompt(interaction, item.click.game_id)


@handles("rematch")
async def rematch_clicked(interaction: discord.Interaction[Any], item: DispatchComponent) -> None:
    await on_rematch(interaction, item.click.game_id, str(item.click.sides))


@handles("show")
async def show_clicked(interaction: discord.Interaction[Any], item: DispatchComponent) -> None:
    await on_show_table(interaction, item.click.game_id, str(item.click.what))
