"""Seats that change hands in a running game (``bot.tables.seat_changes.changes``), at the sandbox:
``offer`` and its ``accept`` or ``decline``, a moderator's ``reseat``, and ``handover`` to
Dispatch."""

from __future__ import annotations

import rules
from bot import errors
from bot.tables.bot_users import bot_user
from bot.terminal import opening
from bot.terminal.desk import Desk


async def cmd_offer(desk: Desk, args: list[str]) -> None:
    info = await desk.current()
    if len(args) != 1:
        raise errors.Usage("Offer your seat to whom? `offer <player>` (one name).")
    made = await desk.manager.seat_changes.offer(info.id, desk.user, args[0].strip().lower())
    desk.say(
        f"   {made.from_user} offers the {made.seat} seat to {made.to_user}: "
        f"`as {made.to_user}`, then `accept` or `decline`."
    )


async def cmd_accept(desk: Desk, args: list[str]) -> None:
    await answer(desk, args, accept=True)


async def cmd_decline(desk: Desk, args: list[str]) -> None:
    await answer(desk, args, accept=False)


async def answer(desk: Desk, args: list[str], *, accept: bool) -> None:
    word = "accept" if accept else "decline"
    if args:
        raise errors.Usage(f"`{word}` takes nothing: it answers the offer made to you.")
    info = await desk.current()
    made = await desk.manager.seat_changes.open_offer_for(info.id, desk.user)
    if made is None:
        raise errors.SeatRefused(f"No seat of game #{info.id} is offered to {desk.user}.")
    change = await desk.manager.seat_changes.answer(info.id, made.id, desk.user, accept=accept)
    if change is None:
        desk.say(f"   {desk.user} declined the {made.seat} seat.")
        return
    await desk.show_turn()


async def cmd_reseat(desk: Desk, args: list[str]) -> None:
    info = await desk.current()
    if len(args) != 2:
        raise errors.Usage("Give which seat to whom? `reseat <side> <player>`.")
    # The sandbox's keyboard is its owner's: a moderator of every table.
    side, player = args[0].lower(), args[1].strip().lower()
    await desk.manager.seat_changes.reseat(info.id, side, player, desk.user, is_moderator=True)
    await desk.show_turn()


async def cmd_handover(desk: Desk, args: list[str]) -> None:
    info = await desk.current()
    if len(args) > 1:
        raise errors.Usage("`handover` takes at most a level: easy, normal or hard.")
    level = args[0].lower() if args else None
    await desk.manager.seat_changes.hand_over(info.id, desk.user, level)
    opening.say_level_caveat(desk, rules.get_game(info.game_name), bot_user(level))
    await desk.show_turn()
