"""Opening a game at the sandbox: ``new`` (two players, a lobby, Dispatch as the second
side, or a one-seat solo session), ``join`` an open seat, and ``dispatch`` to give it to
Dispatch."""

from __future__ import annotations

from typing import Any

import rules
from bot import errors
from bot.delivery.port import GameInfo
from bot.tables import lobby, solo, validate
from bot.tables.bot_users import bot_user, is_bot, level_of
from bot.tables.requests import NewGame
from bot.terminal.desk import Desk
from bot.terminal.display import side_label
from bot.terminal.words import GUILD, new_game_words, number
from rules.ai import level_caveat


async def cmd_new(desk: Desk, args: list[str]) -> None:
    name = (args[0] if args else desk.default_game or "").lower()
    if not name:
        raise errors.Usage("Say which game: `new <game> [seed]`.")
    if name in rules.GAMES and rules.get_game(name).one_seat:
        await new_one_seat(desk, name, args[1:])
        return
    clock_words = [w for w in args[1:] if w.lower().startswith("clock=")]
    if len(clock_words) > 1:
        raise errors.Usage("Give one clock: `clock=fast`, for example.")
    clock = clock_words[0].split("=", 1)[1] if clock_words else None
    validate.clock(clock)  # refused before the new game is announced
    seed, opponent, fate = new_game_words(
        [w for w in args[1:] if w not in clock_words], first=desk.user
    )
    if seed is not None:
        validate.seed(seed)  # refused before the new game is announced
    game = rules.get_game(name) if name in rules.GAMES else None
    if game is not None and fate:
        lobby.require_fate_playsheet(game)  # refused before the new game is announced
    if game is not None:
        players = (desk.user, opponent)
        seats = ", ".join(
            f"{u} plays {side_label(name, r)}" if u else f"{side_label(name, r)} is open"
            for u, r in zip(players, game.roles, strict=False)
        )
        dice = ""
        if fate:
            dice = " (the Fate Die picks Dispatch's cards)"
        desk.say(f"New game of {game.title}: {seats}{dice}.")
        say_level_caveat(desk, game, opponent)
    info = None
    for table in range(1, 1000):
        try:
            info = await desk.manager.create_game(
                GUILD,
                f"table-{table}",
                desk.user,
                NewGame(name, seed=seed, opponent_id=opponent, fate=fate, clock=clock),
            )
            break
        except errors.ChannelBusy:
            continue
    if info is None:
        raise errors.NotAllowed("Too many open games: finish some first.")
    desk.game_id = info.id
    if seed is None:
        desk.say(f"   This is game #{info.id}; its cards are dealt from a secret key.")
    else:
        desk.say(
            f"   This is game #{info.id}, seed {seed}: a practice game, whose cards anyone "
            "who knows the seed can work out."
        )
    await desk.show_turn()


async def new_one_seat(desk: Desk, name: str, words: list[str]) -> None:
    """A one-seat game (a solo session) for the player at the keyboard alone."""
    options: dict[str, Any] = {}
    seed: int | None = None
    if name == solo.GAME_NAME:
        options, seed = solo.options_from_words(words)
        listed = await solo.card_list_for(
            desk.manager.store, solo.scope_of(GUILD, desk.user), options["playsheet"]
        )
        if listed:
            options["card_list"] = listed
    elif words:
        seed = number(words[0])
    if seed is not None:
        validate.seed(seed)
    info = None
    for table in range(1, 1000):
        try:
            info = await desk.manager.create_game(
                GUILD, f"table-{table}", desk.user, NewGame(name, options=options, seed=seed)
            )
            break
        except errors.ChannelBusy:
            continue
    if info is None:
        raise errors.NotAllowed("Too many open games: finish some first.")
    desk.game_id = info.id
    desk.say(f"   This is game #{info.id}, {info.title}, for {desk.user} alone.")
    await desk.show_turn()


async def cmd_join(desk: Desk, args: list[str]) -> None:
    info = await desk.current()
    if len(args) > 1:
        raise errors.Usage("`join` takes at most a side: `join` or `join <side>`.")
    info = await desk.manager.join(info.id, desk.user, args[0].lower() if args else None)
    await seated(desk, info, desk.user)


async def cmd_dispatch(desk: Desk, args: list[str]) -> None:
    info = await desk.current()
    if "fate" in (a.lower() for a in args):
        raise errors.Usage(
            "The Fate Die is chosen when a game is opened: `new fort_sumter dispatch easy fate`."
        )
    if len(args) > 1:
        raise errors.Usage("`dispatch` takes at most a level: easy, normal or hard.")
    level = args[0].lower() if args else None
    info = await desk.manager.seat_dispatch(info.id, desk.user, level)
    say_level_caveat(desk, rules.get_game(info.game_name), bot_user(level))
    await seated(desk, info, bot_user(level))


def say_level_caveat(desk: Desk, game: rules.Game, user: str | None) -> None:
    """Says so when ``user`` is Dispatch at a level not shown stronger than the one
    below it in ``game``: the level's name alone would promise more."""
    caveat = level_caveat(game.name, level_of(user)) if user and is_bot(user) else None
    if caveat:
        desk.say(f"   {user} is {caveat}.")


async def seated(desk: Desk, info: GameInfo, user: str) -> None:
    """Say who took which seat of a lobby, then what the player at the keyboard may do."""
    roles = ", ".join(side_label(info.game_name, r) for r in info.roles_of(user))
    desk.say(f"   {user} plays {roles} in game #{info.id}.")
    await desk.show_turn()
