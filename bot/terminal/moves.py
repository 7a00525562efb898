"""A move entered at the sandbox: a number from the list last shown, or ``<verb> [arg]``
checked against the listed actions (``play``); ``auto``, seeded random moves for whoever
must act; and ``wait`` until Dispatch has made the moves it owes, so that what a script
reads next does not depend on how fast the machine searched."""

from __future__ import annotations

from bot import errors
from bot.delivery.port import GameInfo
from bot.tables.bot_users import is_bot
from bot.tables.requests import Move
from bot.terminal.desk import Desk
from bot.terminal.display import dispatch_owes
from bot.terminal.menus import describe, game_verbs, legal_actions, named_action
from bot.terminal.words import count_arg, number

AUTO_CAP = 20_000


async def cmd_wait(desk: Desk, args: list[str]) -> None:
    """Until Dispatch's seats have moved: what a script reads next no longer depends
    on how fast the machine searched."""
    if args:
        raise errors.Usage("`wait` takes nothing after it.")
    await desk.bots.idle()
    desk.say("   Dispatch owes no move now.")


async def cmd_auto(desk: Desk, args: list[str]) -> None:
    usage = "`auto` takes how many moves to play, such as `auto 20` (none: to the end)."
    limit = count_arg(args, usage)
    info = await desk.current()
    limit = AUTO_CAP if limit is None else limit
    played = 0
    desk.fe.draw_boards = False
    try:
        while played < limit:
            await desk.bots.idle()  # Dispatch's seats play themselves
            info = await desk.manager.get_game_info(info.id)
            people = [r for r in info.active_roles if not is_bot(_user_of(info, r))]
            if info.status != "active" or not people:
                break
            role = desk.rng.choice(sorted(people))
            seat = info.seat_of(role)
            assert seat is not None
            pv = await desk.manager.view_for(info.id, seat.user_id, role=role)
            # undo would let a random player dither forever; it adds nothing to a demo
            choices = [a for a in legal_actions(pv.view) if a[0] != "undo"]
            if not choices:
                raise errors.NothingToDecide(f"{role} is to act but has no legal action.")
            verb, arg = desk.rng.choice(choices)
            desk.say(f"   auto: {seat.user_id} ({role}) {describe(pv.view, (verb, arg))}")
            result = await desk.manager.act(
                info.id, seat.user_id, Move(verb, arg, pv.version, role=role)
            )
            if info.one_seat:
                desk.say_new_lines(pv.view, result.view)
            played += 1
    finally:
        desk.fe.draw_boards = True
    for user, queue in desk.fe.pending.items():
        mine = [p for p in queue if p.game_id == info.id]
        if mine and user != desk.user:
            plural = "s" if len(mine) != 1 else ""
            desk.say(f"   ({len(mine)} private message{plural} for {user} — type `as {user}`)")
    desk.say(f"   Played {played} move{'s' if played != 1 else ''}.")
    if played:
        # The board as it stands now (the last table post may be older: a solo
        # session posts only at its start and end).
        info = await desk.manager.get_game_info(info.id)
        public = await desk.manager.view_for(info.id, None)
        await desk.fe.write_board(info, public.view, public.version)
    await desk.show_turn()


async def play(desk: Desk, words: list[str], *, waited: bool = False) -> None:
    info = await desk.current()
    pv = await desk.manager.view_for(info.id, desk.user)
    actions = legal_actions(pv.view)
    if not actions and not waited and dispatch_owes(info):
        if desk.interactive:
            desk.say("   Dispatch is thinking…; your prompt shows here when it has moved.")
            return
        # A script's next move was written for after Dispatch's: it waits, then is
        # read against the list shown once Dispatch has moved.
        desk.say("   Dispatch is thinking…")
        await desk.bots.idle()
        await desk.show_turn()
        await play(desk, words, waited=True)
        return
    if not actions:
        # Not their move: a number or a word can only be a mistake, say which.
        if info.status != "active":
            raise errors.GameNotActive(info.status)
        waiting = ", ".join(f"@{u}" for u in info.waiting_on)
        if words[0].lower() in game_verbs(info.game_name):
            raise errors.NothingToDecide(
                f"`{words[0].lower()}` is not possible now: {desk.user} has no move "
                f"(waiting for {waiting}). Type `as <player>` to play for them, or `help`."
            )
        raise errors.NothingToDecide(
            f"“{' '.join(words)[:40]}” is not a command, and {desk.user} has no move now "
            f"(waiting for {waiting}). Type `help`, or `as <player>`."
        )
    if len(words) > 1 and number(words[0]) is not None:
        raise errors.Usage(f"One number at a time: type `{words[0][:40]}` alone.")
    n = number(words[0]) if len(words) == 1 else None
    if n is not None:
        shown = desk.shown
        if shown is None or not shown.still_stands(info.id, desk.user, pv.view):
            # The list the player has in mind is not the game's any more (their decision
            # changed, another game or player was shown since): say so, show the new one.
            desk.say_block(
                "! The choices changed since this list was shown; nothing was done. "
                "Here they are now:",
                indent="",
            )
            await desk.show_turn()
            return
        picked = shown.pick(str(n))
        if picked is None:
            raise errors.NotOffered(shown.refusal(n))
        verb, arg = picked
    else:
        verb, arg = named_action(pv.view, words, game_verbs(info.game_name))
    result = await desk.manager.act(info.id, desk.user, Move(verb, arg, pv.version, role=pv.role))
    if info.one_seat and result.outcome is None:
        # The end's own post prints the closing lines: said here too, they came twice.
        desk.say_new_lines(pv.view, result.view)
        if desk.fe.draw_boards:
            await desk.fe.write_board(result.game, result.view, result.version)
    if result.private_log_lines:
        desk.say(f"── private to {desk.user} ({result.role}) ──")
        for line in result.private_log_lines:
            desk.say_block(line)
    if result.outcome is None:
        await desk.show_turn()


def _user_of(info: GameInfo, role: str) -> str | None:
    seat = info.seat_of(role)
    return seat.user_id if seat else None
