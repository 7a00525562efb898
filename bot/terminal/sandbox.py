"""``dispatch sandbox``: play any game in the terminal, through the real GameManager.

Two local players, alice and bob, sit at one keyboard; ``as bob`` hands it over. The
sandbox uses the same manager, store and outbox as the Discord bot, with a terminal front
end, so what you see here is what the table and the DMs would say. Scripts work too:
commands are read from stdin, and ``auto`` plays seeded random moves.

The commands are functions of a ``Desk`` (``bot.terminal.desk``), grouped by concern:
``opening`` (new, join, dispatch), ``moves`` (a move typed, auto, wait), ``game_commands``
(what a player looks at and the games kept), ``seat_commands`` (seats that change hands),
``settings_commands`` (clocks and settings), ``league_commands`` (a league run with the
local players and Dispatch's levels). :data:`COMMANDS` names each one; anything else
typed is a move.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import shlex
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TextIO

import rules
from bot import errors
from bot.dispatch_players.bots import BotSeats
from bot.storage.store import StoreUnavailable
from bot.tables.clocks import clock_pass
from bot.tables.manager import GameManager
from bot.terminal import (
    game_commands,
    league_commands,
    moves,
    opening,
    seat_commands,
    settings_commands,
)
from bot.terminal.desk import Desk
from bot.terminal.frontend import TerminalFrontEnd
from bot.terminal.words import GUILD, PLAYERS, without_comment
from rules.ai import LEVELS, level_caveat

log = logging.getLogger("dispatch.sandbox")

DEFAULT_DB = Path("sandbox.sqlite3")
DEFAULT_OUT = Path("sandbox-out")

HELP = """\
Commands:
  new <game> [seed]   start a game: whoever is at the keyboard takes the first side,
                      the other player the second
  new solo <playsheet> [side] [scenario] [seed] [option=value ...]
                      a CDG Solo System session for the player at the keyboard, e.g.
                      `new solo paths_of_glory central_powers` (side: the one the die runs);
                      options as in /solo new: deck_size=90, blue_hand=5, red_hand=6,
                      eight_card_hands=yes, guns_of_august=yes, offensive=galicia_offensive
  new <game> [seed] dispatch [level] [fate]
                      Dispatch (the bot) takes the second side: easy, normal or hard;
                      with `fate` the Fate Die picks its cards (fort_sumter, lincoln)
  new <game> [seed] open
                      a lobby: whoever is at the keyboard takes the first side and the
                      second stays open for `join` (`as bob` first)
  new <game> ... clock=<clock>
                      a time control: none, relaxed, standard, fast or like 3d+1d/7d;
                      `status` and each prompt print the time left
  join [side]         take an open seat of the current lobby
  dispatch [level]    give the current lobby's open seat to Dispatch: easy, normal
                      (the default) or hard; only a player seated there may
  as <player>         switch who is at the keyboard (alice, bob, or anyone else)
  offer <player>      offer your seat of the running game to another player, who
                      takes it with `accept` (or `decline`) at the keyboard; it lapses
                      when the game moves on or after a day
  accept | decline    answer the offer of a seat made to the player at the keyboard
  reseat <side> <player>
                      as a moderator: give a seat of the running game to a player
  handover [level]    give your seat of the running game to Dispatch: easy, normal
                      (the default) or hard; it plays on from there
  vacation [days]     pause your clocks in every game for that many days (14 a year);
                      without days: come back now, the days not begun given back
  ontime [lose|claim] what happens when a clock runs out: the player loses (the
                      default), or their opponent may `claim` the win
  claim               claim the win when your opponent's clock ran out
  forced [auto|ask]   a choice with one option that reveals nothing (War's last
                      placement): made for you (auto, the default) or asked (ask)
  <n> | <verb> [arg]  take the action numbered so in the list last shown, or name it
  hand                your side's private view (and hand image)
  board               write the board image and print its path
  log [n]             the last n public log lines (default 10)
  hint                practice games (a seed, or against Dispatch): the search's top
                      three choices for your decision, from your own view; the game is
                      then assisted and not rated
  replay [number]     a game that is over (default: the current one), watched again:
                      writes its animated board (GIF) and public log, prints their paths
  undo                take back your last small decision, when allowed
  resign              concede the game
  auto [n]            play n random legal moves for whoever must act (default: to the end)
                      a test tool: it shows both sides' choices, face-down ones too
  status | players    the game, its seats and whose turn it is
  wait                until Dispatch has made the moves it owes (commands answer at
                      once while it thinks; a script waits here to read what follows)
  games | use <id>    list the open games, switch to one
  leaderboard <game> [n]
                      the best n rated players of a game (default 10), Dispatch's levels
                      among them; rated: finished games between alice and bob (or the
                      bot) without a chosen seed, each side having made 3 decisions
  games finished [older|newer <id>]
                      your finished games, ten a page, newest first
  stats [player] [game]
                      a record: wins and losses by side, on time, time per turn,
                      against each Dispatch level
  league new <game> <format> [name=<name>] [rounds=<n>] [games=1|2] [clock=<clock>]
             [entry=<days>] [round=<days>] [rated=yes|no] [cap=<n>] [dispatch=yes|no]
                      a league run from here (the keyboard runs it, as a moderator):
                      round_robin, double_round_robin, swiss (rounds= required) or
                      elimination (games=2: a tie is a game on each side); entry= and
                      round= are the deadlines in days (7 and 14); dispatch=yes lets
                      Dispatch's levels enter
  league join [player ...]
                      enter the players named (or the one at the keyboard)
  league dispatch [level] | league withdraw-dispatch [level]
                      enter Dispatch at a level: easy, normal (the default) or hard;
                      take it out (off the list, or withdrawn after the start)
  league leave        the player at the keyboard leaves: before the start, off the
                      list; after it, withdrawn, their running games forfeited
  league start        pair round 1 and open its games
  league standings    rank, player, points, Buchholz, SB, record at each side
  league round [n] | league games [player]
                      a round's boards and byes (the current round by default); the
                      league's games (or a player's), with their game numbers
  league play [[round] board]
                      switch to a league game: your own being played, or a board's
  league decide <round> <board> <result> <reason>
                      set a game's result: first-wins, second-wins, draw,
                      first-forfeits, second-forfeits, or by a side's own word
                      (union-wins, union-forfeits); logged with the reason
  league replace <player> <new player> | league disqualify <player> <reason>
  league cancel | league export <file>
                      the export: <file>.json and <file>.csv, the audit list in each
  league | league list | league use <id>
                      the league in hand, the leagues kept, switch to one
  help | quit"""


async def cmd_help(desk: Desk, args: list[str]) -> None:
    desk.say(HELP)
    desk.say(f"Games: {', '.join(sorted(rules.GAMES)) or 'none registered'}.")
    for name in sorted(rules.GAMES):
        for level in LEVELS:
            caveat = level_caveat(name, level)
            if caveat:
                desk.say(f"In {name}, Dispatch's {level} level is {caveat}.")


async def cmd_quit(desk: Desk, args: list[str]) -> None:
    desk.running = False


#: A command: what it does with the words typed after it.
Command = Callable[[Desk, list[str]], Awaitable[None]]

#: Every command by the word that runs it; anything else typed is a move (``moves.play``).
COMMANDS: dict[str, Command] = {
    "help": cmd_help,
    "new": opening.cmd_new,
    "join": opening.cmd_join,
    "dispatch": opening.cmd_dispatch,
    "as": game_commands.cmd_as,
    "offer": seat_commands.cmd_offer,
    "accept": seat_commands.cmd_accept,
    "decline": seat_commands.cmd_decline,
    "reseat": seat_commands.cmd_reseat,
    "handover": seat_commands.cmd_handover,
    "vacation": settings_commands.cmd_vacation,
    "claim": settings_commands.cmd_claim,
    "ontime": settings_commands.cmd_ontime,
    "forced": settings_commands.cmd_forced,
    "hand": game_commands.cmd_hand,
    "board": game_commands.cmd_board,
    "log": game_commands.cmd_log,
    "hint": game_commands.cmd_hint,
    "replay": game_commands.cmd_replay,
    "undo": game_commands.cmd_undo,
    "resign": game_commands.cmd_resign,
    "auto": moves.cmd_auto,
    "status": game_commands.cmd_status,
    "players": game_commands.cmd_status,
    "wait": moves.cmd_wait,
    "games": game_commands.cmd_games,
    "stats": game_commands.cmd_stats,
    "use": game_commands.cmd_use,
    "leaderboard": game_commands.cmd_leaderboard,
    "league": league_commands.cmd_league,
    "quit": cmd_quit,
    "exit": cmd_quit,
}


class Sandbox(Desk):
    """The sandbox's loop: a line read, the background passes run, its command done."""

    async def resume(self) -> None:
        """Pick up the newest open game of a previous run."""
        # Either player may have opened the newest game (``as bob`` before ``new``).
        games = [g for p in PLAYERS for g in await self.manager.records.games_for_user(p)]
        if games:
            newest = max(games, key=lambda g: g.game.id)
            self.game_id = newest.game.id
            self.say(f"Resuming game #{self.game_id} ({newest.game.title}).")
            try:
                await self.show_turn()  # the numbers typed next mean this list
            except errors.DispatchError as exc:
                # A damaged game must not stop the sandbox: say why, as any command would.
                self.say(f"! {exc}")
        leagues = await self.manager.leagues.leagues_here(GUILD)
        if leagues:
            self.league_id = leagues[0].id  # the newest, as `league use` would choose it

    async def leagues_catch_up(self) -> None:
        """What the Discord bot's background loop does for leagues: the deadlines passed
        (an entry closed, a round's games ended by their clocks), then the games of a
        round paired meanwhile opened and the league posts printed."""
        await self.manager.leagues.pass_deadlines()
        await self.manager.leagues.open_pending()

    # -- the loop ---------------------------------------------------------------------

    async def run(self, stdin: TextIO, interactive: bool) -> None:
        self.interactive = interactive
        try:
            await self._read(stdin, interactive)
        finally:
            if self._watch is not None:
                self._watch.cancel()
                await asyncio.gather(self._watch, return_exceptions=True)

    async def _read(self, stdin: TextIO, interactive: bool) -> None:
        while self.running:
            if interactive:
                try:
                    line = await asyncio.to_thread(input, self.prompt())
                except EOFError:
                    self.say()
                    break
            else:
                # In a thread, as ``input`` above: the event loop goes on meanwhile (Dispatch's
                # move is made and printed while the script's next line is awaited).
                raw = await asyncio.to_thread(stdin.readline)
                if not raw:
                    break
                line = raw.rstrip("\n")
                if line.strip() and not line.lstrip().startswith("#"):
                    self.say(f"{self.prompt()}{line}")
            await self.handle(line)

    async def handle(self, line: str) -> None:
        line = without_comment(line).strip()
        if not line:
            return
        try:
            words = [word for word in shlex.split(line) if word]
        except ValueError:
            words = line.split()
        if not words:  # e.g. a line of two quotes
            return
        try:
            if words[0].lower() not in ("help", "quit", "exit"):
                await self.bots_catch_up()  # tried again, not waited for
                await clock_pass.beat(self.manager.store)
                await self.manager.clocks.expire()  # a loss on time is told first
                await self.manager.clocks.warn()
                await self.manager.clocks.tell_vacations_over()
                await self.leagues_catch_up()
            command = COMMANDS.get(words[0].lower())
            if command is not None:
                await command(self, words[1:])
            else:
                await moves.play(self, words)
            await self.manager.leagues.open_pending()  # a round the command ended opens now
        except errors.DispatchError as exc:
            self.say_block(f"! {exc}", indent="")
        except Exception as exc:  # the sandbox must never die on a bad command
            log.debug("command %r failed", line, exc_info=True)
            self.say(f"! Something went wrong: {exc!r}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dispatch sandbox",
        description="Play Dispatch games in the terminal, as alice and bob.",
    )
    parser.add_argument("--db", type=Path, default=DEFAULT_DB, help="SQLite file (kept)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where board PNGs go")
    parser.add_argument("--game", help="start this game right away")
    parser.add_argument("--seed", type=int, default=None, help="seed of the game and of auto")
    return parser


async def run_sandbox(
    args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    interactive = stdin is sys.stdin and sys.stdin.isatty()
    front_end = TerminalFrontEnd(out=stdout, out_dir=args.out)
    front_end.say(f"Dispatch sandbox · database {args.db} · images in {args.out}/")
    try:
        manager = await GameManager.open(args.db, front_end, deliver=False)
    except StoreUnavailable as exc:
        front_end.say(f"! {exc}")
        return exc.exit_code
    BotSeats.attach(manager)  # before deliver_pending: it plays what the last run owed
    sandbox = Sandbox(manager, front_end, seed=args.seed or 0, default_game=args.game)
    try:
        # Messages a previous run committed but never printed come out now, as on Discord.
        await manager.deliver_pending()
        if args.game:
            seed = [] if args.seed is None else [str(args.seed)]
            await opening.cmd_new(sandbox, [args.game, *seed])
        else:
            await sandbox.resume()
            if sandbox.game_id is None:
                front_end.say("Type `help` for commands, `new <game>` to start.")
        await sandbox.run(stdin, interactive)
    except KeyboardInterrupt:
        front_end.say()
    except errors.DispatchError as exc:
        front_end.say(f"! {exc}")
        return 1
    finally:
        await manager.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        return asyncio.run(run_sandbox(args))
    except KeyboardInterrupt:
        return 130
