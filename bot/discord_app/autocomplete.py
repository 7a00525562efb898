"""Every autocomplete of the slash commands, in one place. Each answers within Discord's
time with at most 25 choices and never raises: a failure offers nothing."""

from __future__ import annotations

import json
from typing import Any

import discord
from discord import app_commands

import rules
from bot import errors
from bot.discord_app import formatting
from bot.discord_app.components import MAX_OPTIONS
from bot.discord_app.custom_ids import play_value
from bot.discord_app.interactions import guild_of, manager_of, user_id
from bot.tables import clocks, solo
from bot.tables.reach import within_reach

Choices = list[app_commands.Choice[str]]


def choices(pairs: list[tuple[str, str]], current: str) -> Choices:
    """(shown, value) pairs that contain what was typed, clipped to Discord's limits."""
    typed = (current or "").lower()
    hits = [(n, v) for n, v in pairs if typed in n.lower() or typed in v.lower()]
    return [
        app_commands.Choice(name=formatting.clip(n, 100), value=v[:100])
        for n, v in hits[:MAX_OPTIONS]
    ]


def _game(name: Any) -> rules.Game | None:
    try:
        return rules.get_game(name) if isinstance(name, str) and name else None
    except LookupError:
        return None


async def game_names(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The registered games, by title."""
    return choices([(g.title or name, name) for name, g in sorted(rules.GAMES.items())], current)


async def rated_game_names(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The games played against someone (rated, and played in leagues), by title: a
    game played alone (the CDG Solo System) is never offered where it would be refused."""
    pairs = [(g.title or name, name) for name, g in sorted(rules.GAMES.items()) if not g.one_seat]
    return choices(pairs, current)


async def clock_controls(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The clock presets, each shown with its written form; what was typed, if it is
    a written control (``3d+1d/7d``), is offered as it is first."""
    pairs = [("none: no clock", "none")] + [
        (f"{name}: {control.written()} (start + each turn / cap)", name)
        for name, control in clocks.PRESETS.items()
        if control is not None
    ]
    typed = (current or "").strip()
    if typed and typed.lower() not in clocks.PRESETS:
        pairs.insert(0, (typed, typed))
        return [app_commands.Choice(name=formatting.clip(n, 100), value=v[:100]) for n, v in pairs]
    return choices(pairs, current)


async def sides(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The sides of the game being opened, or of this channel's game."""
    name = interaction.namespace.game
    if not name:
        try:
            info = await manager_of(interaction).game_in_channel(str(interaction.channel_id))
        except errors.DispatchError:
            info = None
        name = info.game_name if info else None
    game = _game(name)
    pairs = [(game.role_name(r), r) for r in game.roles] if game else []
    return choices([*pairs, ("Random", "random")], current)


async def game_options(interaction: discord.Interaction[Any], current: str) -> Choices:
    """What was typed, then each option of the chosen game at its default."""
    game = _game(interaction.namespace.game)
    pairs = [(current, current)] if current else []
    if game is not None:
        for key, default in game.default_options.items():
            shown = json.dumps(default) if not isinstance(default, str) else default
            pairs.append((f"{key}={shown} (default)", f"{key}={shown}"))
    return choices(pairs, "")


async def actions(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The player's legal actions now, as ``/game play`` reads them back."""
    try:
        manager = manager_of(interaction)
        info = await manager.game_in_channel(str(interaction.channel_id))
        if info is None or info.status != "active":
            return []
        pv = await manager.view_for(info.id, user_id(interaction))
    except errors.DispatchError:
        return []
    labels = pv.view.get("labels") or {}
    pairs: list[tuple[str, str]] = []
    for verb, args in (pv.view.get("actions") or {}).items():
        if args is True:
            name = labels.get(verb) if isinstance(labels.get(verb), str) else verb
            pairs.append((str(name), play_value(pv.version, verb)))
        elif isinstance(args, list):
            found = labels.get(verb)
            table: dict[str, Any] = found if isinstance(found, dict) else {}
            for arg in args:
                name = table.get(str(arg)) or f"{verb} {arg}"
                pairs.append((f"{verb}: {name}", play_value(pv.version, verb, arg)))
    return choices(pairs, current)


def catalogue() -> list[tuple[str, dict[str, Any]]]:
    """(game name, card) for every card of every registered game."""
    found: list[tuple[str, dict[str, Any]]] = []
    for name, game in sorted(rules.GAMES.items()):
        try:
            cards = game.catalogue()
        except Exception:
            continue
        found.extend((name, dict(card)) for card in cards)
    return found


def card_key(game_name: str, card: dict[str, Any]) -> str:
    return f"{game_name}:{card.get('id')}"


async def cards(interaction: discord.Interaction[Any], current: str) -> Choices:
    """Every card of every game, by name and id."""
    pairs = []
    for game_name, card in catalogue():
        label = f"{card.get('name')} ({card.get('id')})"
        if len(rules.GAMES) > 1:
            label += f" · {rules.get_game(game_name).title or game_name}"
        pairs.append((label, card_key(game_name, card)))
    return choices(pairs, current)


# ------------------------------------------------------------------ /solo


async def solo_playsheets(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The seven CDG Solo System playsheets, by their game's title."""
    return choices([(title, name) for name, title in solo.playsheets()], current)


async def solo_sides(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The sides of the chosen playsheet the Fate Die may run, or both."""
    playsheet = str(getattr(interaction.namespace, "playsheet", "") or "")
    pairs = [(f"{name} (the die runs it)", side) for side, name in solo.sides(playsheet)]
    return choices([*pairs, ("Both sides", "both")] if pairs else [], current)


async def solo_scenarios(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The chosen playsheet's scenarios that change the display (C&C games)."""
    playsheet = str(getattr(interaction.namespace, "playsheet", "") or "")
    names = solo.scenarios(playsheet)
    return choices([(n.replace("_", " ").title(), n) for n in names], current)


async def solo_list_playsheets(interaction: discord.Interaction[Any], current: str) -> Choices:
    """Playsheets whose game has no public card list (a CSV can be imported for them)."""
    pairs = [(t, n) for n, t in solo.playsheets() if not solo.has_card_list(n)]
    return choices(pairs, current)


async def my_live_games(
    interaction: discord.Interaction[Any], current: int | str
) -> list[app_commands.Choice[int]]:
    """The asker's games being set up or played that a number typed here reaches (this
    server's: ``bot.tables.reach``), by number (``/game move game:``)."""
    uid, guild = user_id(interaction), guild_of(interaction)
    try:
        mine = await manager_of(interaction).records.games_for_user(uid)
    except errors.DispatchError:
        return []
    typed = str(current or "")
    out: list[app_commands.Choice[int]] = []
    for line in mine:
        players = (seat.user_id for seat in line.game.seats)
        if not within_reach(line.game.guild_id, players, uid, guild):
            continue
        if typed and not str(line.game.id).startswith(typed):
            continue
        label = formatting.clip(f"#{line.game.id} {line.game.title}", 100)
        out.append(app_commands.Choice(name=label, value=line.game.id))
    return out[:25]
