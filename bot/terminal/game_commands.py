"""The sandbox's commands about the game in hand and the games kept: who is at the
keyboard (``as``), a side's hand, the board, the log, a hint, a replay, undo and resign,
the status, the games and records, ``use`` another game, and a leaderboard."""

from __future__ import annotations

from bot import errors
from bot.delivery.port import GameInfo
from bot.tables import hints, validate
from bot.tables.records import pages
from bot.tables.records.ratings import LEADERBOARD_SIZE
from bot.terminal import history_text
from bot.terminal.desk import Desk
from bot.terminal.display import dispatch_owes, private_lines, side_label
from bot.terminal.words import GUILD, PLAYERS, count_arg, number


async def cmd_as(desk: Desk, args: list[str]) -> None:
    if not args:
        raise errors.Usage(f"Who? `as {PLAYERS[0]}` or `as {PLAYERS[1]}`.")
    who = args[0].strip().lower()
    if not who or len(args) > 1:
        raise errors.Usage(f"Who? `as {PLAYERS[0]}` or `as {PLAYERS[1]}` (one name).")
    desk.fe.current_user = validate.user_id(who)
    for pending in desk.fe.take_pending(desk.user):
        if pending.game_id == desk.game_id or desk.game_id is None:
            desk.fe.show_private(desk.user, pending.message)
    if desk.game_id is not None:
        await desk.show_turn()


async def cmd_hand(desk: Desk, args: list[str]) -> None:
    info = await desk.current()
    pv = await desk.manager.view_for(info.id, desk.user)
    if pv.role is None:
        raise errors.NotSeated()
    public = (await desk.manager.view_for(info.id, None)).view
    # known_state is the view as the search reads it, not for a person; War's plans
    # (every whole placement at once) only help a menu, and the numbered list has them.
    skip = {"prompt", "actions", "labels", "role", "private_log", "log", "known_state", "plans"}
    private = {k: v for k, v in pv.view.items() if k not in skip and public.get(k) != v}
    desk.say(f"── {desk.user}'s side: {pv.role} ──")
    for key, value in private.items():
        for line in private_lines(key, value):
            desk.say_block(line)
    for line in (pv.view.get("private_log") or [])[-5:]:
        desk.say_block(f"· {line}")
    await desk.fe.write_hand(info, pv.view, pv.version, pv.role)
    await desk.show_turn()


async def cmd_board(desk: Desk, args: list[str]) -> None:
    info = await desk.current()
    pv = await desk.manager.view_for(info.id, None)
    if await desk.fe.write_board(info, pv.view, pv.version) is None:
        desk.say(f"   ({info.title} has no board renderer.)")


async def cmd_log(desk: Desk, args: list[str]) -> None:
    info = await desk.current()
    count = count_arg(args, "`log` takes how many lines to show, such as `log 20`.")
    count = 10 if count is None else count
    for line in await desk.manager.records.log(info.id, count):
        desk.say_block(line)


async def cmd_hint(desk: Desk, args: list[str]) -> None:
    if args:
        raise errors.Usage("`hint` takes nothing: it answers for your decision now.")
    info = await desk.current()
    found = await desk.manager.hints.ask(info.id, desk.user)
    for line in hints.hint_text(found).replace("**", "").splitlines():
        desk.say_block(line)


async def cmd_replay(desk: Desk, args: list[str]) -> None:
    if len(args) > 1 or (args and number(args[0]) is None):
        raise errors.Usage("Which game? `replay` (the current one) or `replay <number>`.")
    game_id = number(args[0]) if args else (await desk.current()).id
    assert game_id is not None
    movie = await desk.manager.records.watch_replay(game_id, desk.user, GUILD)
    desk.fe.out_dir.mkdir(parents=True, exist_ok=True)
    gif = desk.fe.out_dir / f"replay-game{game_id}.gif"
    text = desk.fe.out_dir / f"replay-game{game_id}-log.txt"
    gif.write_bytes(movie.gif)
    text.write_text(movie.log_text, encoding="utf-8")
    desk.say(f"   Replay of game #{game_id}: {movie.frames} frames, {movie.width} px wide.")
    desk.say(f"   animation: {gif}")
    desk.say(f"   log: {text}")


async def cmd_undo(desk: Desk, args: list[str]) -> None:
    info = await desk.current()
    result = await desk.manager.undo(info.id, desk.user)
    desk.say(f"   Undone (v{result.version}).")
    await desk.show_turn()


async def cmd_resign(desk: Desk, args: list[str]) -> None:
    info = await desk.current()
    if args:
        # Conceding cannot be undone: only the bare word does it, never a typo.
        raise errors.Usage(
            f"`resign` takes nothing after it: type `resign` alone to concede game #{info.id}."
        )
    await desk.manager.resign(info.id, desk.user)


async def cmd_status(desk: Desk, args: list[str]) -> None:
    info = await desk.current()
    desk.say(f"   #{info.id} {info.title} · {info.status} · version {info.version}")
    for seat in info.seats:
        marks = []
        if seat.role in info.active_roles:
            marks.append("to act")
        if seat.user_id == desk.user:
            marks.append("you")
        extra = f" ({', '.join(marks)})" if marks else ""
        desk.say(f"   {side_label(info.game_name, seat.role)}: {seat.user_id}{extra}")
    if info.status == "finished":
        exported = await desk.manager.records.export(info.id)
        result = exported["result"] or {}
        winner = result.get("winner")
        # By the game's name for the side, as the table post says it.
        name = pages.role_name(info.game_name, winner) if winner else ""
        # A solo session has no opponent: its end is no win, loss or draw, only closed.
        closed = "Closed" if pages.one_seat(info.game_name) else "A draw"
        said = f"{name} wins" if winner else closed
        desk.say_block(f"Result: {said} — {result.get('reason', '')}")
    elif info.status == "active":
        status = (await desk.manager.view_for(info.id, None)).view.get("status")
        if isinstance(status, str) and status:
            desk.say_block(status)
        if dispatch_owes(info):
            desk.say("   Dispatch is thinking…")
        for line in await desk.manager.clocks.lines(info.id, plain=True):
            desk.say(f"   {line}")


async def cmd_games(desk: Desk, args: list[str]) -> None:
    if args and args[0].lower() == "finished":
        for line in await history_text.finished(desk.manager, desk.user, args[1:]):
            desk.say(line)
        return
    seen: dict[int, GameInfo] = {}
    for player in PLAYERS:
        for entry in await desk.manager.records.games_for_user(player):
            seen[entry.game.id] = entry.game
    if not seen:
        desk.say("   No open games. Type `new <game>`.")
    for game_id, info in sorted(seen.items()):
        here = " ←" if game_id == desk.game_id else ""
        waiting = ", ".join(f"@{u}" for u in info.waiting_on) or "-"
        desk.say(f"   #{game_id} {info.title} · {info.status} · to act: {waiting}{here}")


async def cmd_stats(desk: Desk, args: list[str]) -> None:
    for line in await history_text.stats(desk.manager, desk.user, args, PLAYERS):
        desk.say(line)


async def cmd_use(desk: Desk, args: list[str]) -> None:
    game_id = number(args[0] if args else None)
    if game_id is None:
        raise errors.Usage("Which game? `use <id>` (see `games`).")
    info = await desk.manager.get_game_info(game_id)
    desk.game_id = info.id
    desk.say(f"   Now at game #{info.id} ({info.title}, {info.status}).")
    await desk.show_turn()


async def cmd_leaderboard(desk: Desk, args: list[str]) -> None:
    if not args:
        raise errors.Usage("Which game? `leaderboard <game> [n]`, e.g. `leaderboard war`.")
    size = count_arg(args[1:], "How many? `leaderboard <game> [n]`, n from 1 to 25.")
    board = await desk.manager.records.leaderboard(
        GUILD, args[0], LEADERBOARD_SIZE if size is None else size
    )
    if not board:
        desk.say(f"   No rated game of {pages.game_title(args[0])} yet.")
    for s in board:
        games = f"{s.games} game" + ("" if s.games == 1 else "s")
        wins = f"{s.wins} win" + ("" if s.wins == 1 else "s")
        desk.say(f"   {s.rank}. {s.player_id} {s.points} · {games}, {wins}")
