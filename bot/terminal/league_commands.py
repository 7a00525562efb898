"""``league ...`` at the sandbox: a league or tournament run with the local players and
Dispatch's levels, through the same league desk as ``/league`` on Discord
(``manager.leagues``). The keyboard is its owner's, so it may run leagues (a moderator's
acts included); a player's own acts (join, leave) are the named player's or the one at
the keyboard. One league is in hand at a time (``league use <id>``), as one game is; a
league game is played by switching to it (``league play``), as ``use`` does."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import rules
from bot import errors
from bot.tables import validate
from bot.tables.bot_users import bot_user
from bot.tables.leagues.records import LeagueGameInfo, LeagueInfo
from bot.terminal import league_text
from bot.terminal.desk import Desk
from bot.terminal.league_words import decision, new_league_spec
from bot.terminal.words import GUILD, number
from rules.core.log import plural

#: The channel a sandbox league is run from (its games open in channels of their own).
LEAGUE_CHANNEL = "leagues"


async def current(desk: Desk) -> LeagueInfo:
    """The league in hand, or a refusal that says how to have one."""
    if desk.league_id is None:
        raise errors.Usage("No league yet: type `league new <game> <format>` (see `help`).")
    return await desk.manager.leagues.info(desk.league_id, GUILD)


def _no_words(args: list[str], command: str) -> None:
    if args:
        raise errors.Usage(f"`league {command}` takes nothing after it.")


def _entrants(league: LeagueInfo) -> str:
    return plural(len(league.entrants), "entrant")


def _player(word: str) -> str:
    return validate.user_id(word.strip().lower())


async def cmd_new(desk: Desk, args: list[str]) -> None:
    spec = new_league_spec(args)
    league = await desk.manager.leagues.create(GUILD, LEAGUE_CHANNEL, desk.user, spec, may_run=True)
    desk.league_id = league.id
    for line in league_text.league_lines(league):
        desk.say(f"   {line}")
    desk.say("   `league join <player>` enters a player, `league start` pairs round 1.")


async def cmd_show(desk: Desk, args: list[str]) -> None:
    _no_words(args, "show")
    for line in league_text.league_lines(await current(desk)):
        desk.say(f"   {line}")


async def cmd_list(desk: Desk, args: list[str]) -> None:
    _no_words(args, "list")
    leagues = await desk.manager.leagues.leagues_here(GUILD)
    if not leagues:
        desk.say("   No leagues yet: type `league new <game> <format>`.")
    for league in leagues:
        here = " ←" if league.id == desk.league_id else ""
        desk.say(f"   #{league.id} {league.spec.name} · {league.status}{here}")


async def cmd_use(desk: Desk, args: list[str]) -> None:
    league_id = number(args[0]) if len(args) == 1 else None
    if league_id is None:
        raise errors.Usage("Which league? `league use <id>` (see `league list`).")
    league = await desk.manager.leagues.info(league_id, GUILD)
    desk.league_id = league.id
    await cmd_show(desk, [])


async def cmd_join(desk: Desk, args: list[str]) -> None:
    league = await current(desk)
    players = [_player(word) for word in args] or [desk.user]
    if len(set(players)) < len(players):
        raise errors.Usage("Name each player once: `league join carol dave`.")
    for player in players:
        league = await desk.manager.leagues.join(league.id, GUILD, player)
        desk.say(f"   {player} entered league #{league.id} ({_entrants(league)}).")


async def cmd_dispatch(desk: Desk, args: list[str]) -> None:
    league = await current(desk)
    if len(args) > 1:
        raise errors.Usage("`league dispatch` takes at most a level: easy, normal or hard.")
    level = args[0].lower() if args else None
    entrant = bot_user(level)  # an unknown level refused before anything is asked
    league = await desk.manager.leagues.enter_dispatch(
        league.id, GUILD, level or "normal", desk.user, may_run=True
    )
    desk.say(f"   {entrant} entered league #{league.id} ({_entrants(league)}).")


async def cmd_withdraw_dispatch(desk: Desk, args: list[str]) -> None:
    """A level entered by mistake has no keyboard of its own to leave with."""
    league = await current(desk)
    if len(args) > 1:
        raise errors.Usage(
            "`league withdraw-dispatch` takes at most a level: easy, normal or hard."
        )
    level = args[0].lower() if args else "normal"
    entrant = bot_user(level)  # an unknown level refused before anything is asked
    league = await desk.manager.leagues.withdraw_dispatch(
        league.id, GUILD, level, desk.user, may_run=True
    )
    desk.say(f"   {entrant} is out of league #{league.id}.")


async def cmd_leave(desk: Desk, args: list[str]) -> None:
    league = await current(desk)
    _no_words(args, "leave")
    started = league.status == "running"
    league = await desk.manager.leagues.leave(league.id, GUILD, desk.user)
    if started:
        desk.say(f"   {desk.user} withdrew from league #{league.id}: their games are forfeited.")
    else:
        desk.say(f"   {desk.user} left league #{league.id}.")


async def cmd_start(desk: Desk, args: list[str]) -> None:
    league = await current(desk)
    _no_words(args, "start")
    started = await desk.manager.leagues.start(league.id, GUILD, desk.user, may_run=True)
    desk.say(f"   League #{league.id} started: round {started.number} is paired.")


async def cmd_standings(desk: Desk, args: list[str]) -> None:
    league = await current(desk)
    _no_words(args, "standings")
    table = await desk.manager.leagues.standings(league.id, GUILD)
    if not table:
        desk.say("   Nobody has entered yet: the table is empty.")
        return
    for line in league_text.standings_table(league, table):
        desk.say(f"   {line}")


async def cmd_round(desk: Desk, args: list[str]) -> None:
    league = await current(desk)
    wanted = number(args[0]) if len(args) == 1 else None
    if args and wanted is None:
        raise errors.Usage("Which round? `league round` (the current one) or `league round <n>`.")
    found = await desk.manager.leagues.round(league.id, GUILD, wanted)
    for line in league_text.round_lines(league.spec.game_name, found):
        desk.say(f"   {line}")


async def cmd_games(desk: Desk, args: list[str]) -> None:
    league = await current(desk)
    if len(args) > 1:
        raise errors.Usage("Whose games? `league games` (all) or `league games <player>`.")
    player = _player(args[0]) if args else None
    found = await desk.manager.leagues.games(league.id, GUILD, player)
    if not found:
        desk.say("   No league games yet.")
    for game in found:
        desk.say(f"   {league_text.game_line(league.spec.game_name, game, with_round=True)}")


async def cmd_play(desk: Desk, args: list[str]) -> None:
    """Switch to a league game: the keyboard's player's first one still playing, or a
    board (of the current round, or ``<round> <board>``)."""
    league = await current(desk)
    game = await _chosen_game(desk, league, args)
    if game.game_id is None:
        raise errors.NotAllowed(
            f"Round {game.round}, board {game.board} has no game yet: it opens when the "
            "round is paired."
        )
    desk.game_id = game.game_id
    desk.say(f"   Now at game #{game.game_id}: {game.first} v {game.second}.")
    if desk.user not in (game.first, game.second):
        desk.say(f"   `as {game.first}` or `as {game.second}` to play it.")
    await desk.show_turn()


async def _chosen_game(desk: Desk, league: LeagueInfo, args: list[str]) -> LeagueGameInfo:
    numbers = [number(word) for word in args]
    if len(args) > 2 or None in numbers:
        raise errors.Usage(
            "Which game? `league play` (yours), `league play <board>` or "
            "`league play <round> <board>`."
        )
    if not args:
        mine = await desk.manager.leagues.games(league.id, GUILD, desk.user)
        playing = [g for g in mine if g.outcome is None and g.game_id is not None]
        if not playing:
            raise errors.NotAllowed(f"{desk.user} has no league game being played now.")
        return playing[0]
    wanted_round = numbers[0] if len(args) == 2 else None
    found = await desk.manager.leagues.round(league.id, GUILD, wanted_round)
    board = numbers[-1]
    for game in found.games:
        if game.board == board:
            return game
    raise errors.NotAllowed(f"Round {found.number} has no board {board}.")


async def cmd_decide(desk: Desk, args: list[str]) -> None:
    league = await current(desk)
    roles = tuple(rules.get_game(league.spec.game_name).roles)
    asked = decision(args, roles)
    game = await desk.manager.leagues.decide(
        league.id,
        GUILD,
        asked.round,
        asked.board,
        asked.outcome,
        desk.user,
        asked.reason,
        may_run=True,
    )
    desk.say(f"   {league_text.game_line(league.spec.game_name, game, with_round=True)}")


async def cmd_replace(desk: Desk, args: list[str]) -> None:
    league = await current(desk)
    if len(args) != 2:
        raise errors.Usage("Who takes whose place? `league replace <player> <new player>`.")
    old, new = _player(args[0]), _player(args[1])
    await desk.manager.leagues.replace(league.id, GUILD, old, new, desk.user, may_run=True)
    desk.say(f"   {new} takes {old}'s place in league #{league.id}.")


async def cmd_disqualify(desk: Desk, args: list[str]) -> None:
    league = await current(desk)
    if len(args) < 2:
        raise errors.Usage("Whom, and why? `league disqualify <player> <reason>`.")
    player = _player(args[0])
    reason = " ".join(args[1:])
    await desk.manager.leagues.disqualify(league.id, GUILD, player, desk.user, reason, may_run=True)
    desk.say(f"   {player} is disqualified from league #{league.id}: their games are forfeited.")


async def cmd_cancel(desk: Desk, args: list[str]) -> None:
    league = await current(desk)
    if args:
        # Cancelling cannot be undone: only the bare words do it, never a typo.
        raise errors.Usage(
            f"`league cancel` takes nothing after it: type it alone to cancel league #{league.id}."
        )
    await desk.manager.leagues.cancel(league.id, GUILD, desk.user, may_run=True)
    desk.say(f"   League #{league.id} is cancelled.")


async def cmd_export(desk: Desk, args: list[str]) -> None:
    league = await current(desk)
    if len(args) != 1:
        raise errors.Usage(
            "Where to? `league export <file>`: the JSON goes to <file>.json, the CSV to <file>.csv."
        )
    json_path, csv_path = _export_paths(args[0])
    exported = await desk.manager.leagues.export(league.id, GUILD)
    _write(json_path, exported.json_text)
    _write(csv_path, exported.csv_text)
    desk.say(f"   League #{league.id} exported: {json_path} and {csv_path}.")


def _export_paths(word: str) -> tuple[Path, Path]:
    """Where ``league export <word>`` writes its JSON and its CSV."""
    base = Path(word).expanduser()
    if base.name in ("", ".", ".."):  # a folder alone: no file's name to give the two
        raise errors.Usage(
            f"`league export {word[:40]}` names no file: name one, e.g. `league export winter`."
        )
    json_path, csv_path = base.with_suffix(".json"), base.with_suffix(".csv")
    if not json_path.parent.is_dir():
        raise errors.NotAllowed(f"There is no folder {json_path.parent} to write the export in.")
    return json_path, csv_path


def _write(path: Path, text: str) -> None:
    """One file of the export; a place that cannot be written is said in a sentence."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise errors.NotAllowed(f"The export could not be written to {path}: {why}.") from None


#: A ``league`` command: what it does with the words typed after its own word.
LeagueCommand = Callable[[Desk, list[str]], Awaitable[None]]

LEAGUE_COMMANDS: dict[str, LeagueCommand] = {
    "new": cmd_new,
    "show": cmd_show,
    "list": cmd_list,
    "use": cmd_use,
    "join": cmd_join,
    "dispatch": cmd_dispatch,
    "withdraw-dispatch": cmd_withdraw_dispatch,
    "leave": cmd_leave,
    "start": cmd_start,
    "standings": cmd_standings,
    "round": cmd_round,
    "games": cmd_games,
    "play": cmd_play,
    "decide": cmd_decide,
    "replace": cmd_replace,
    "disqualify": cmd_disqualify,
    "cancel": cmd_cancel,
    "export": cmd_export,
}


async def cmd_league(desk: Desk, args: list[str]) -> None:
    """``league <command> ...``; ``league`` alone shows the league in hand."""
    if not args:
        await cmd_show(desk, [])
        return
    command = LEAGUE_COMMANDS.get(args[0].lower())
    if command is None:
        raise errors.Usage(
            f"“{args[0][:40]}” is not a league command: {', '.join(LEAGUE_COMMANDS)} (see `help`)."
        )
    await command(desk, args[1:])
