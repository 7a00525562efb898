"""The sandbox's settings and clocks: ``vacation`` (clocks paused), ``ontime`` (what a
clock run out does), ``claim`` (the win, when it lets the opponent claim it) and
``forced`` (a choice with one option made for the player or asked)."""

from __future__ import annotations

from bot import errors
from bot.terminal.desk import Desk
from bot.terminal.words import GUILD, number
from rules.core.log import plural


async def cmd_vacation(desk: Desk, args: list[str]) -> None:
    days = number(args[0]) if len(args) == 1 else None
    if len(args) > 1 or (args and days is None):
        raise errors.BadNumber("`vacation` takes a whole number of days, or none to come back.")
    news = await desk.manager.clocks.vacation(GUILD, desk.user, days or None)
    if news.ended:
        counted = plural(news.days, "day")
        desk.say(f"   Back from vacation: it counted {counted}; {news.left} left.")
    else:
        desk.say(
            f"   On vacation for {plural(news.days, 'day')}: your clocks are paused in "
            f"{plural(len(news.games), 'game')}; {plural(news.left, 'day')} left this year."
        )


async def cmd_ontime(desk: Desk, args: list[str]) -> None:
    if len(args) > 1:
        raise errors.UnknownWord("`ontime` takes lose or claim.")
    rule, _ = await desk.manager.clocks.rules(GUILD, args[0].lower() if args else None)
    told = "the player loses" if rule == "lose" else "the opponent may claim the win"
    desk.say(f"   When a clock runs out, {told}.")


async def cmd_forced(desk: Desk, args: list[str]) -> None:
    if len(args) > 1:
        raise errors.UnknownWord("`forced` takes auto or ask.")
    setting = await desk.manager.settings.forced(desk.user, args[0].lower() if args else None)
    if setting == "ask":
        desk.say(f"   A choice with only one option is asked of {desk.user}.")
    else:
        desk.say(
            f"   A choice with only one option is made for {desk.user} when it reveals nothing."
        )


async def cmd_claim(desk: Desk, args: list[str]) -> None:
    info = await desk.current()
    await desk.manager.clocks.claim_win(info.id, desk.user)
