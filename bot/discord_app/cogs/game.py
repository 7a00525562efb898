"""The ``/game`` group: parse the command, ask the manager, answer. Nothing else lives here."""

from __future__ import annotations

import io
import json
import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot import errors
from bot.delivery.port import GameInfo
from bot.discord_app import (
    autocomplete,
    claim_components,
    formatting,
    lobby,
    looks,
    prompts,
    rematch,
    threads,
)
from bot.discord_app.checks import is_moderator
from bot.discord_app.custom_ids import parse_play_value
from bot.discord_app.interactions import answering, manager_of, reply, user_id
from bot.discord_app.lobby import lobby_payload
from bot.discord_app.looks import Look, build_show_view, look_payload
from bot.discord_app.new_tables import NewTable, create_at_new_table
from bot.discord_app.prompts import private_payload, send_private_view
from bot.discord_app.replays import post_replay
from bot.discord_app.room import client_of
from bot.discord_app.settings_reply import SettingsAsked, settings_answer
from bot.discord_app.web_links import answer_link
from bot.tables import hints, validate
from bot.tables.bot_users import bot_user
from bot.tables.requests import Move, NewGame
from bot.tables.results import ActResult
from bot.tables.validate import parse_options

if TYPE_CHECKING:
    from bot.tables.manager import GameManager

log = logging.getLogger("dispatch.discord")

#: The buttons and selects of the ``/game`` family: a player's prompt and "My prompt",
#: the lobby's, the end post's Rematch, "Show to the table", "Claim the win".
ITEMS = (*prompts.ITEMS, *lobby.ITEMS, *rematch.ITEMS, *looks.ITEMS, *claim_components.ITEMS)


#: The largest bound Discord takes on an integer option (2**53 - 1): one more and Discord
#: refuses the whole command list at sync, so no command at all would appear.
MAX_GAME_NUMBER = 2**53 - 1


def channel_ref(interaction: discord.Interaction[Any]) -> str:
    return str(interaction.channel_id)


def cannot_post_here(interaction: discord.Interaction[Any]) -> str:
    """Why Dispatch could not post the game's table here (empty: it can), read from the
    interaction's ``app_permissions``."""
    channel = interaction.channel
    return threads.cannot_play(channel, interaction.app_permissions, "here", "in this channel")


@app_commands.guild_only()
class GameCog(
    commands.GroupCog, group_name="game", group_description="Play a game in this channel"
):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*ITEMS)

    # -- lobby ------------------------------------------------------------------
    @app_commands.command(name="new")
    @app_commands.autocomplete(
        game=autocomplete.game_names,
        side=autocomplete.sides,
        options=autocomplete.game_options,
        clock=autocomplete.clock_controls,
    )
    # A slash command's options are its parameters (discord.py's idiom): /game new has 8.
    async def new(  # noqa: PLR0913
        self,
        interaction: discord.Interaction[Any],
        game: str,
        opponent: discord.Member | None = None,
        side: str | None = None,
        options: str | None = None,
        seed: app_commands.Range[int, 0, 2**53 - 1] | None = None,
        level: Literal["easy", "normal", "hard"] | None = None,
        style: Literal["search", "fate"] | None = None,
        clock: str | None = None,
    ) -> None:
        """Open a game in this channel

        Parameters
        ----------
        game:
            Which game
        opponent:
            Seat this member as your opponent at once
        side:
            Your side (or random)
        options:
            Game options, e.g. key=value, key=value
        seed:
            Practice only: a fixed seed makes the cards predictable to anyone who knows it
        level:
            With opponent Dispatch (this bot): easy, normal (about 1 s a move) or hard (5 s)
        style:
            With opponent Dispatch: search (default), or fate: the Fate Die picks its cards
        clock:
            Time control: none (default), relaxed, standard, fast, or written like 3d+1d/7d
        """
        dispatch = _against_dispatch(self.bot.user, opponent, level, style)
        # Refuse the common mistakes before deferring, so the answer is ephemeral (the
        # manager checks the same again; a forged payload can carry any seed).
        parsed = validate.options(parse_options(options))
        seed = validate.seed(seed)
        control = validate.clock(clock)
        if game not in rules.GAMES:
            raise errors.UnknownGame(game, rules.GAMES.keys())
        manager = manager_of(interaction)
        guild = str(interaction.guild_id) if interaction.guild_id else None
        place = await _place_to_play(interaction, manager, guild, game, side)
        players = [interaction.user.display_name] + ([opponent.display_name] if opponent else [])
        opponent_id = bot_user(level) if dispatch else str(opponent.id) if opponent else None
        request = NewGame(
            game,
            options=parsed,
            seed=seed,
            seat=side or None,
            opponent_id=opponent_id,
            fate=style == "fate",
            clock=clock,
        )
        # The lobby post is completed after the first answer (the thread starts from it).
        async with answering(interaction):
            # Starting with an opponent renders and posts the board: may take a moment.
            await interaction.response.defer(thinking=True)
            table = await create_at_new_table(
                interaction,
                place,
                (rules.GAMES[game].title, players),
                lambda ref: manager.create_game(guild, ref, user_id(interaction), request),
            )
            payload = await _new_lobby_payload(table, players, control, style, seed)
            await _post_lobby(interaction, table.made.id, payload, table.lobby, table.opened)

    @app_commands.command(name="join")
    @app_commands.autocomplete(side=autocomplete.sides)
    async def join(self, interaction: discord.Interaction[Any], side: str | None = None) -> None:
        """Take a seat in this channel's game

        Parameters
        ----------
        side:
            The side you want (default: the first free one)
        """
        await interaction.response.defer(thinking=True)
        manager = manager_of(interaction)
        info = await manager.join(channel_ref(interaction), user_id(interaction), side or None)
        await interaction.followup.send(**_without_none_view(lobby_payload(info)))

    @app_commands.command(name="leave")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Give up your seat before the game starts"""
        info = await manager_of(interaction).leave(channel_ref(interaction), user_id(interaction))
        await interaction.response.send_message(
            **_without_none_view(lobby_payload(info)), ephemeral=False
        )

    @app_commands.command(name="cancel")
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        """Call off this channel's game before it starts"""
        manager = manager_of(interaction)
        info = await manager.cancel(
            channel_ref(interaction), user_id(interaction), is_moderator(interaction)
        )
        await interaction.response.send_message(f"Game #{info.id} ({info.title}) was cancelled.")
        await threads.lobby_news(interaction.client, manager, info, None)

    # -- looking ------------------------------------------------------------------
    @app_commands.command(name="status")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        """The board, the score and whose turn it is (only you see it; you may show it)"""
        info = await _game_here(interaction)
        if info.status == "lobby":  # the lobby, with its join buttons, is for everyone
            await interaction.response.send_message(**_without_none_view(lobby_payload(info)))
            return
        await _look(interaction, info, "status")
        if not cannot_post_here(interaction):
            # Table posts parked while the channel refused them go out now that it takes
            # them (bot.delivery.courier); nothing waits, nothing is sent.
            await manager_of(interaction).deliver_due(info.id, ignore_backoff=True)

    @app_commands.command(name="board")
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        """Show the board (only you see it; you may show it to the table)"""
        info = await _game_here(interaction, started=True)
        await _look(interaction, info, "board")

    @app_commands.command(name="log")
    async def log(
        self, interaction: discord.Interaction[Any], count: app_commands.Range[int, 1, 200] = 20
    ) -> None:
        """The latest lines of the game log

        Parameters
        ----------
        count:
            How many lines (default 20)
        """
        info = await _game_here(interaction, started=True)
        lines = await manager_of(interaction).records.log(info.id, count)
        text = formatting.log_block(lines, 1900) if lines else "The log is empty."
        await reply(interaction, text, ephemeral=True)

    @app_commands.command(name="hand")
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        """Your hand and your prompt (only you see it)"""
        await interaction.response.defer(ephemeral=True, thinking=True)
        info = await _game_here(interaction, started=True)
        pv = await manager_of(interaction).view_for(info.id, user_id(interaction))
        await send_private_view(interaction, pv)

    @app_commands.command(name="hint")
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        """Practice games: the search's top three choices for your decision (only you see it)"""
        await interaction.response.defer(ephemeral=True, thinking=True)
        info = await _game_here(interaction, started=True)
        found = await manager_of(interaction).hints.ask(info.id, user_id(interaction))
        await reply(interaction, hints.hint_text(found), ephemeral=True)

    # -- playing ------------------------------------------------------------------
    @app_commands.command(name="play")
    @app_commands.autocomplete(action=autocomplete.actions)
    async def play(self, interaction: discord.Interaction[Any], action: str) -> None:
        # Parsed before deferring, so a malformed one is refused ephemerally at once.
        """Take any of your legal actions by name

        Parameters
        ----------
        action:
            Start typing: your legal actions are offered
        """
        version, verb, arg = parse_play_value(action)
        await interaction.response.defer(ephemeral=True, thinking=True)
        info = await _game_here(interaction, started=True)
        manager = manager_of(interaction)
        try:
            result = await manager.act(info.id, user_id(interaction), Move(verb, arg, version))
        except errors.StalePrompt:
            pv = await manager.view_for(info.id, user_id(interaction))
            await send_private_view(interaction, pv, notice="This prompt is out of date.")
            return
        payload = await private_payload(
            result.game,
            result.role,
            result.version,
            result.view,
            log_lines=result.private_log_lines,
        )
        payload.pop("hand", None)
        await reply(interaction, **payload)
        await _refresh_dm_prompt(interaction, result)

    @app_commands.command(name="undo")
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        """Take back your last small decision"""
        await interaction.response.defer(ephemeral=True, thinking=True)
        info = await _game_here(interaction, started=True)
        result = await manager_of(interaction).undo(info.id, user_id(interaction))
        payload = await private_payload(
            result.game, result.role, result.version, result.view, notice="Undone."
        )
        payload.pop("hand", None)
        await reply(interaction, **payload)
        await _refresh_dm_prompt(interaction, result)

    @app_commands.command(name="resign")
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        """Concede this channel's game"""
        await interaction.response.defer(ephemeral=True, thinking=True)
        info = await _game_here(interaction, started=True)
        await manager_of(interaction).resign(info.id, user_id(interaction))
        await reply(interaction, "You resigned. The result is posted in the channel.")

    @app_commands.command(name="abandon")
    async def abandon(self, interaction: discord.Interaction[Any]) -> None:
        """End the game without a result (all players agree, or a moderator)"""
        await interaction.response.defer(ephemeral=True, thinking=True)
        info = await _game_here(interaction)
        result = await manager_of(interaction).abandon(
            info.id, user_id(interaction), is_moderator(interaction)
        )
        if result.abandoned:
            await reply(interaction, "The game is abandoned.")
        else:
            waiting = formatting.mentions(result.waiting_on)
            await reply(interaction, f"Your request is noted; waiting for {waiting} to agree.")

    @app_commands.command(name="export")
    async def export(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Range[int, 1, MAX_GAME_NUMBER] | None = None,
    ) -> None:
        """The seed and action log, as a JSON file

        Parameters
        ----------
        game:
            A finished game's number (from /games show:finished); default: this channel's
        """
        await interaction.response.defer(ephemeral=True, thinking=True)
        manager = manager_of(interaction)
        if game is not None:
            guild = str(interaction.guild_id) if interaction.guild_id else None
            number = game
            data = await manager.records.export_finished(game, user_id(interaction), guild)
        else:
            number = (await _game_here(interaction)).id
            data = await manager.records.export_for_player(
                number, is_moderator=is_moderator(interaction), user_id=user_id(interaction)
            )
        body = json.dumps(data, indent=1, sort_keys=True).encode()
        file = discord.File(io.BytesIO(body), filename=f"dispatch-game-{number}.json")
        await reply(
            interaction, f"Game #{number}: seed and {len(data['actions'])} actions.", files=[file]
        )

    @app_commands.command(name="replay")
    async def replay(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Range[int, 1, MAX_GAME_NUMBER] | None = None,
    ) -> None:
        """Watch a game that is over again: the board after each turn, and its log

        Parameters
        ----------
        game:
            The game's number (default: this channel's latest), one you played or one played here
        """
        await post_replay(interaction, game)

    @app_commands.command(name="link")
    async def link(
        self,
        interaction: discord.Interaction[Any],
        revoke: bool = False,
        page: Literal["on", "off"] | None = None,
        indexing: Literal["on", "off"] | None = None,
    ) -> None:
        """This game's page on the web, for spectators: its board, log and clocks, live

        Parameters
        ----------
        revoke:
            Turn the game's link away (its players or a moderator); ask again for a new one
        page:
            Moderators: the page on or off for every game of this server
        indexing:
            Moderators: let search engines index this server's game pages (off by default)
        """
        await answer_link(interaction, revoke=revoke, page=page, indexing=indexing)

    @app_commands.command(name="settings")
    @app_commands.autocomplete(clock_default=autocomplete.clock_controls)
    async def settings(  # noqa: PLR0913
        self,
        interaction: discord.Interaction[Any],
        reminder_hours: app_commands.Range[float, 0.1, 720.0] | None = None,
        notify: Literal["dm", "channel", "both"] | None = None,
        clock_default: str | None = None,
        on_time: Literal["lose", "claim"] | None = None,
        vacation_days: app_commands.Range[int, 0, 90] | None = None,
        threads: Literal["on", "off"] | None = None,
        forced_choices: Literal["auto", "ask"] | None = None,
    ) -> None:
        """Channel settings (Manage Channels) and where your own turns are announced

        Parameters
        ----------
        reminder_hours:
            Hours before a waiting player is reminded
        notify:
            Your turns: by direct message (default), a mention in the channel, or both
        clock_default:
            The server's clock for new games (Manage Channels): none, relaxed, standard, fast
        on_time:
            At zero (Manage Channels): the player loses, or the opponent may claim the win
        vacation_days:
            Vacation days each player has a year on this server (Manage Channels; 0: none)
        threads:
            New games in a text channel open their own thread (on, the default) or use the
            channel, one game at a time (off) (Manage Channels)
        forced_choices:
            A choice with one option (War's last card): made for you (auto) or asked (ask)
        """
        asked = SettingsAsked(
            reminder_hours,
            notify,
            clock_default,
            on_time,
            vacation_days,
            threads,
            forced_choices,
        )
        await reply(interaction, await settings_answer(interaction, asked))


def _against_dispatch(
    me: discord.ClientUser | None,
    opponent: discord.Member | None,
    level: str | None,
    style: str | None,
) -> bool:
    """Whether ``/game new`` seats Dispatch itself; refuses another bot, and a level or a
    style without Dispatch."""
    dispatch = opponent is not None and me is not None and opponent.id == me.id
    if opponent is not None and opponent.bot and not dispatch:
        raise errors.SeatRefused("Bots cannot be seated (choose Dispatch itself to play it).")
    if level is not None and not dispatch:
        raise errors.BadInput("A level is for games against Dispatch (opponent: Dispatch).")
    if style is not None and not dispatch:
        raise errors.BadInput("A style is for games against Dispatch (opponent: Dispatch).")
    return dispatch


async def _place_to_play(
    interaction: discord.Interaction[Any],
    manager: GameManager,
    guild: str | None,
    game: str,
    side: str | None,
) -> threads.Place:
    """Where ``/game new`` plays the game, refused when Dispatch cannot post there, when
    ``side`` is none of the game's, or when the channel itself already holds a game."""
    place = threads.place_for(interaction.channel, await manager.threads.enabled(guild))
    where = "here" if place != "here" else "in this channel"
    refused = threads.cannot_play(interaction.channel, interaction.app_permissions, place, where)
    if refused:
        raise errors.NotAllowed(refused)
    roles = tuple(rules.GAMES[game].roles)
    if side and side != "random" and side not in roles:
        raise errors.UnknownRole(side[:40], roles)
    if place == "here":  # a new thread or post holds one game, whatever the channel has
        busy = await manager.game_in_channel(channel_ref(interaction))
        if busy is not None:
            raise errors.ChannelBusy(busy.id)
    return place


async def _new_lobby_payload(
    table: NewTable[GameInfo],
    players: list[str],
    control: Any,
    style: str | None,
    seed: int | None,
) -> dict[str, Any]:
    """A new game's lobby post: its seats, where it is played, its clock and Fate Die,
    and its seed when one was chosen. A new thread is renamed with the game's number."""
    info, opened = table.made, table.opened
    payload = lobby_payload(info)
    if opened is not None:
        await threads.name_with_number(opened, info.title, players, info.id)
        if info.status == "lobby":
            payload["content"] += f"\nThe game is played in its thread: {opened.jump_url}"
    payload["content"] += _lobby_notes(control, style)
    if seed is not None:
        # The seed fixes every shuffle, so whoever knows it (and the open rules code)
        # can work out hidden cards. Saying it openly keeps such a game fair: both
        # sides know what the creator knows.
        payload["content"] += (
            f"\nSeed {seed} was chosen at creation, so this is an open practice game: "
            "anyone who knows the seed can work out the hidden cards."
        )
    return payload


def _lobby_notes(control: Any, style: str | None) -> str:
    """The lines a new game's lobby post adds about its clock and the Fate Die."""
    notes = ""
    if control is not None:
        notes += f"\nClock: {control.written()} (start + each hand-over / cap)."
    if style == "fate":
        notes += (
            "\nThe CDG Solo System's Fate Die picks which of Dispatch's cards it may play "
            "each time; its Card Display, the last roll and the cards allowed are drawn "
            "under the board."
        )
    return notes


async def _post_lobby(
    interaction: discord.Interaction[Any],
    game_id: int,
    payload: dict[str, Any],
    lobby: discord.WebhookMessage | None,
    opened: discord.Thread | None,
) -> None:
    """Out with the lobby post: edited in place when the thread was started from it, else
    sent as the command's answer. A game in a thread or post belongs to the channel before
    its lobby post is out (``/game`` there lists it at once, and does even if the post
    fails); the post's id follows once it is sent."""
    manager, channel = manager_of(interaction), channel_ref(interaction)
    if lobby is not None:
        await manager.threads.set_lobby_post(game_id, channel, str(lobby.id))
        await lobby.edit(**payload)
        return
    if opened is not None:
        await manager.threads.set_lobby_post(game_id, channel, None)
    sent = await interaction.followup.send(wait=True, **_without_none_view(payload))
    if opened is not None:
        await manager.threads.set_lobby_post(game_id, channel, str(sent.id))


def _without_none_view(payload: dict[str, Any]) -> dict[str, Any]:
    if payload.get("view") is None:
        payload = {k: v for k, v in payload.items() if k != "view"}
    return payload


async def _game_here(interaction: discord.Interaction[Any], *, started: bool = False) -> Any:
    # The live game, or else the latest one (a finished game can still be looked at).
    info = await manager_of(interaction).get_game_info(channel_ref(interaction))
    if started and info.status == "lobby":
        raise errors.GameNotActive("lobby")
    return info


async def _look(interaction: discord.Interaction[Any], info: Any, what: Look) -> None:
    """A look at the board for the asker alone, with a button to show it to the table
    (every look used to be posted to the channel)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    payload = await look_payload(manager_of(interaction), info, what)
    payload["view"] = build_show_view(info.id, what)
    await reply(interaction, **payload)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(GameCog(bot))


async def _refresh_dm_prompt(interaction: discord.Interaction[Any], result: ActResult) -> None:
    """A decision taken by command: the player's DM prompt now shows the current one (or is
    closed), so no stale button there looks live."""
    await client_of(interaction).frontend.refresh_prompt(
        result.game, user_id(interaction), result.role, result.version, result.view
    )
