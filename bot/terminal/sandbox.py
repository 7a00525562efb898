"""``dispatch sandbox``: play any game in the terminal, through the real GameManager.

Two local players, alice and bob, sit at one keyboard; ``as bob`` hands it over. The
sandbox uses the same manager, store and outbox as the Discord bot, with a terminal front
end, so what you see here is what the table and the DMs would say. Scripts work too:
commands are read from stdin, and ``auto`` plays seeded random moves.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import re
import shlex
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import rules
from bot import errors
from bot.delivery.port import GameInfo, View
from bot.dispatch_players.bots import BotSeats
from bot.storage.store import StoreUnavailable
from bot.tables import clock_pass, hints, history, lobby, solo, validate
from bot.tables.bot_users import bot_user, is_bot
from bot.tables.manager import GameManager
from bot.tables.ratings import LEADERBOARD_SIZE
from bot.tables.requests import Move, NewGame
from bot.terminal import history_text
from bot.terminal.frontend import TerminalFrontEnd
from rules.core.log import plural

log = logging.getLogger("dispatch.sandbox")

PLAYERS = ("alice", "bob")
GUILD = "sandbox"
DEFAULT_DB = Path("sandbox.sqlite3")
DEFAULT_OUT = Path("sandbox-out")
AUTO_CAP = 20_000

HELP = """\
Commands:
  new <game> [seed]   start a game: alice takes the first side, bob the second
  new solo <playsheet> [side] [scenario] [seed] [option=value ...]
                      a CDG Solo System session for the player at the keyboard, e.g.
                      `new solo paths_of_glory central_powers` (side: the one the die runs);
                      options as in /solo new: deck_size=90, blue_hand=5, red_hand=6,
                      eight_card_hands=yes, guns_of_august=yes, offensive=galicia_offensive
  new <game> [seed] dispatch [level] [fate]
                      Dispatch (the bot) takes the second side: easy, normal or hard;
                      with `fate` the Fate Die picks its cards (fort_sumter, lincoln)
  new <game> [seed] open
                      a lobby: alice takes the first side (whoever is at the keyboard)
                      and the second stays open for `join` (`as bob` first)
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
  help | quit"""

Action = tuple[str, Any]

# Digits 0-9 only, and not too many: ``str.isdigit`` also accepts "²", which ``int`` then
# refuses, and a number thousands of digits long is too long for ``int`` to read.
_NUMBER = re.compile(r"[0-9]{1,30}")


def number(text: str | None) -> int | None:
    """A whole number typed in plain digits, else None."""
    return int(text) if text is not None and _NUMBER.fullmatch(text) else None


def count_arg(args: list[str], usage: str) -> int | None:
    """The optional count a command takes (``auto 20``, ``log 5``): None when none was
    given; anything but a positive whole number is refused with ``usage``."""
    if not args:
        return None
    count = number(args[0])
    if count is None or count < 1 or len(args) > 1:
        raise errors.BadInput(usage)
    return count


def legal_actions(view: View) -> list[Action]:
    """Every listed action, numbered in the order the rules list them."""
    listed: list[Action] = []
    for verb, args in (view.get("actions") or {}).items():
        if isinstance(args, list):
            listed.extend((verb, arg) for arg in args)
        elif args:
            listed.append((verb, None))
    return listed


#: Questions whose answer is itself a number (a solo card's number, its value): their
#: choices are listed under that number, so `20` answers #20 and `3` a value of 3, whatever
#: numbers are used up; the other actions (unnumbered, undo) are then typed by name.
ANSWERED_BY_NUMBER: dict[str, tuple[str, ...]] = {"solo": ("number", "value")}

#: A list as shown: the key typed for each action (None: typed by name only).
Menu = list[tuple[str | None, Action]]


def _whole(arg: Any) -> bool:
    return isinstance(arg, int) and not isinstance(arg, bool) and arg >= 0


def keyed_verb(view: View, game_name: str) -> str | None:
    """The verb whose choices are picked by their own number now, if any."""
    listed = view.get("actions") or {}
    for verb in ANSWERED_BY_NUMBER.get(game_name, ()):
        args = listed.get(verb)
        if isinstance(args, list) and args and all(_whole(a) for a in args):
            return verb
    return None


def menu_of(view: View, game_name: str) -> Menu:
    """The listed actions with the number that picks each: counted from 1 in the rules'
    order, or, for a question answered by a number, that number itself."""
    actions = legal_actions(view)
    keyed = keyed_verb(view, game_name)
    if keyed is None:
        return [(str(i), action) for i, action in enumerate(actions, 1)]
    return [(str(a[1]) if a[0] == keyed else None, a) for a in actions]


@dataclass(frozen=True)
class Shown:
    """The list last shown to a player: a number typed means what it said, and only while
    the game is still at the version it was shown for (nothing shifts under the fingers)."""

    game_id: int
    user: str
    version: int
    menu: Menu

    def pick(self, key: str) -> Action | None:
        return next((action for k, action in self.menu if k == key), None)

    def refusal(self, typed: int) -> str:
        keys = [int(k) for k, _a in self.menu if k is not None]
        if keys != list(range(1, len(keys) + 1)):  # listed under their own numbers
            return (
                f"{typed} is not one of the choices now: they are listed under their own "
                f"number, from {min(keys)} to {max(keys)}, leaving out those already used."
            )
        return f"Choose a number from 1 to {len(keys)}."


def card_line(card: Any) -> str:
    """One line for a card (or anything card-like) of any game's view."""
    if not isinstance(card, dict):
        return str(card)
    if isinstance(card.get("card"), dict):  # a placement: {"column": ..., "card": {...}}
        where = ", ".join(f"{v}" for k, v in card.items() if k != "card")
        return f"{where}: {card_line(card['card'])}"
    name = card.get("title") or card.get("name") or card.get("id", "?")
    value = card.get("value")
    head = f"[{value}] {name}" if value is not None else str(name)
    text = card.get("text")
    return f"{head} — {text}" if text else head


#: Headings for private view keys whose plain name would mislead.
PRIVATE_TITLES = {"hand_size": "hand size (you draw up to it)"}


def private_lines(key: str, value: Any) -> list[str]:
    """A private part of a view, as readable lines (a heading and one line per card)."""
    title = PRIVATE_TITLES.get(key) or key.replace("_", " ")
    if isinstance(value, list):
        if not value:
            return [f"{title}: none"]
        return [f"{title}:", *(f"  · {card_line(item)}" for item in value)]
    if isinstance(value, dict):
        return [f"{title}: {card_line(value)}"]
    return [f"{title}: {value}"]


def describe(view: View, action: Action) -> str:
    verb, arg = action
    text = verb if arg is None else f"{verb} {arg}"
    label = (view.get("labels") or {}).get(verb)
    if isinstance(label, dict):
        label = label.get(str(arg))
    if isinstance(label, str) and label and label.lower() != text.lower():
        text += f" — {label}"
    return text


def game_verbs(name: str) -> frozenset[str]:
    """Every action word of a game, whether legal now or not, so that a real action typed
    at the wrong moment is told "not now" rather than "unknown": the ``on_<verb>``
    handlers of its steps (``Step.handlers``, see ``rules.core.flow``), the verbs its
    event ops declare (``Op.verbs``, see ``rules.core.events``), and ``undo``. A game built
    otherwise (a test's toy) offers only ``undo`` here."""
    game = rules.GAMES.get(name)
    verbs = {"undo"}
    for step in (getattr(game, "steps", None) or {}).values():
        verbs.update(getattr(step, "handlers", ()))
    for op in (getattr(game, "event_ops", None) or {}).values():
        verbs.update(getattr(op, "verbs", ()))
    return frozenset(verbs)


#: At most this many choices are spelled out in a refusal; the numbered list has them all.
MAX_CHOICES_SHOWN = 12


def choices_text(args: list[Any]) -> str:
    """The choices of a verb, or the first of them and how many more."""
    shown = ", ".join(str(a) for a in args[:MAX_CHOICES_SHOWN])
    more = len(args) - MAX_CHOICES_SHOWN
    if more > 0:
        shown += f" and {more} more (type the number of one from the list)"
    return shown


def named_action(view: View, words: list[str], verbs: frozenset[str]) -> Action:
    """The action ``<verb> [arg]`` names, checked against the listed actions, or a refusal
    that says what is wrong and what may be typed instead (nothing is changed)."""
    listed = view.get("actions") or {}
    verb = words[0].lower()
    typed = " ".join(words[1:])
    if verb not in listed:
        if verb in verbs:
            now = ", ".join(f"`{v}`" for v in listed)
            raise errors.NotAllowed(f"`{verb}` is not possible now; you may: {now}, or a number.")
        raise errors.NotAllowed(
            f"Unknown command or action “{words[0][:40]}”. Type a number, or `help`."
        )
    args = listed[verb]
    if not isinstance(args, list):
        if typed:
            raise errors.NotAllowed(f"`{verb}` takes nothing after it: type `{verb}` alone.")
        return verb, None
    if not typed:
        raise errors.NotAllowed(f"`{verb}` needs one of: {choices_text(args)}.")
    for arg in args:
        if str(arg) == typed:
            return verb, arg
    # "Fort_Pickens" or "fort pickens" for fort_pickens: only when it names one choice.
    key = typed.lower().replace(" ", "_")
    near = [arg for arg in args if str(arg).lower() == key]
    if len(near) == 1:
        return verb, near[0]
    raise errors.NotAllowed(
        f"“{typed[:40]}” is not one of the choices for `{verb}` now; "
        f"you may choose: {choices_text(args)}."
    )


NEW_USAGE = (
    "`new <game> [seed]`, `new <game> [seed] dispatch [level] [fate]` or `new <game> [seed] open`"
)


def new_game_words(words: list[str]) -> tuple[int | None, str | None, bool]:
    """The words after ``new <game>``: the seed, who takes the second side (None: it
    stays open, a lobby), and whether the Fate Die runs Dispatch's cards. Every word must
    be understood: one that is not (a second seed, ``fate`` without ``dispatch``) is
    refused, never dropped."""
    seed: int | None = None
    opponent: str | None = PLAYERS[1]
    fate = False
    level: str | None = None
    seated = False
    for word in (w.lower() for w in words):
        if word == "open" and opponent is not None and not seated:
            opponent = None
        elif word == "dispatch" and not seated and opponent is not None:
            seated = True
        elif word in ("open", "dispatch"):
            raise errors.BadInput(
                "`open` leaves the second side for later and `dispatch` gives it to "
                f"Dispatch now: one or the other, once ({NEW_USAGE})."
            )
        elif seated and word == "fate" and not fate:
            fate = True
        elif seated and level is None and word != "fate" and number(word) is None:
            level = word
        elif not seated and seed is None and number(word) is not None:
            seed = number(word)
        elif word == "fate" and not seated:
            raise errors.BadInput(
                "The Fate Die runs Dispatch's cards, so `fate` comes after `dispatch`: "
                "`new fort_sumter 7 dispatch easy fate`."
            )
        elif not seated and seed is None:
            raise errors.BadInput(
                f"The seed must be a whole number from 0 to {validate.MAX_SEED}, "
                f"not “{word[:40]}” ({NEW_USAGE})."
            )
        else:
            raise errors.BadInput(f"“{word[:40]}” is not understood here: {NEW_USAGE}.")
    if seated:
        opponent = bot_user(level)
    return seed, opponent, fate


def _seats_of(manager: GameManager) -> BotSeats:
    """The bot seats that listen to ``manager``; Dispatch's own (worker processes), newly
    attached, when it has none yet."""
    try:
        return BotSeats.of(manager)
    except LookupError:
        return BotSeats.attach(manager)


class Sandbox:
    def __init__(
        self,
        manager: GameManager,
        front_end: TerminalFrontEnd,
        *,
        seed: int = 0,
        default_game: str | None = None,
    ) -> None:
        self.manager = manager
        #: Dispatch's seats listening to the manager (attached here if none were).
        self.bots = _seats_of(manager)
        self.fe = front_end
        self.rng = random.Random(seed)
        self.default_game = default_game
        self.game_id: int | None = None
        self.shown: Shown | None = None
        self.running = True
        #: Typed at a terminal (not a script): a move typed while Dispatch thinks is
        #: answered at once, and the player's prompt printed when Dispatch has moved.
        self.interactive = False
        #: Prints the prompt once Dispatch has moved (at a terminal only).
        self._watch: asyncio.Task[None] | None = None
        self.commands: dict[str, Callable[[list[str]], Awaitable[None]]] = {
            "help": self.cmd_help,
            "new": self.cmd_new,
            "join": self.cmd_join,
            "dispatch": self.cmd_dispatch,
            "as": self.cmd_as,
            "offer": self.cmd_offer,
            "accept": self.cmd_accept,
            "decline": self.cmd_decline,
            "reseat": self.cmd_reseat,
            "handover": self.cmd_handover,
            "vacation": self.cmd_vacation,
            "claim": self.cmd_claim,
            "ontime": self.cmd_ontime,
            "forced": self.cmd_forced,
            "hand": self.cmd_hand,
            "board": self.cmd_board,
            "log": self.cmd_log,
            "hint": self.cmd_hint,
            "replay": self.cmd_replay,
            "undo": self.cmd_undo,
            "resign": self.cmd_resign,
            "auto": self.cmd_auto,
            "status": self.cmd_status,
            "players": self.cmd_status,
            "wait": self.cmd_wait,
            "games": self.cmd_games,
            "stats": self.cmd_stats,
            "use": self.cmd_use,
            "leaderboard": self.cmd_leaderboard,
            "quit": self.cmd_quit,
            "exit": self.cmd_quit,
        }

    @property
    def user(self) -> str:
        return self.fe.current_user

    def say(self, text: str = "") -> None:
        self.fe.say(text)

    def say_block(self, text: str, indent: str = "   ") -> None:
        self.fe.say_block(text, indent)

    def prompt(self) -> str:
        where = "no game"
        if self.game_id is not None:
            where = f"#{self.game_id}"
        return f"{self.user}@{where}> "

    async def resume(self) -> None:
        """Pick up the newest open game of a previous run."""
        games = await self.manager.games_for_user(PLAYERS[0])
        if games:
            self.game_id = games[-1].game.id
            self.say(f"Resuming game #{self.game_id} ({games[-1].game.title}).")
            try:
                await self.show_turn()  # the numbers typed next mean this list
            except errors.DispatchError as exc:
                # A damaged game must not stop the sandbox: say why, as any command would.
                self.say(f"! {exc}")

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
        line = line.strip()
        if not line or line.startswith("#"):
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
                await self.manager.expire_clocks()  # a loss on time is told first
                await self.manager.warn_clocks()
                await self.manager.tell_vacations_over()
            command = self.commands.get(words[0].lower())
            if command is not None:
                await command(words[1:])
            else:
                await self.play(words)
        except errors.DispatchError as exc:
            self.say_block(f"! {exc}", indent="")
        except Exception as exc:  # the sandbox must never die on a bad command
            log.debug("command %r failed", line, exc_info=True)
            self.say(f"! Something went wrong: {exc!r}")

    def say_new_lines(self, before: View, after: View) -> None:
        """The log lines a decision added. A solo session posts only at its start and
        end, so the sandbox shows each of its changes itself."""
        for line in (after.get("log") or [])[len(before.get("log") or []) :]:
            self.say_block(line)

    async def bots_catch_up(self) -> None:
        """Let Dispatch's seats in the current game make the moves they owe, without
        waiting for them: a command answers at once while Dispatch thinks. A bot move
        that failed (its worker process died twice) is tried again here, as the Discord
        bot's background loop tries it again, so a game never stalls on it; asking costs
        one look at the current game, however many are kept."""
        if self.game_id is not None:
            try:
                info = await self.manager.get_game_info(self.game_id)
            except errors.DispatchError:
                info = None  # a damaged game: the command itself will say so, if it matters
            if info and info.status == "active" and any(is_bot(s.user_id) for s in info.seats):
                self.bots.nudge(self.game_id)

    def dispatch_thinking(self, game_id: int) -> None:
        """Say that Dispatch is thinking; at a terminal, print the player's prompt when it
        has moved (a script waits for it before its next move instead, ``play``)."""
        self.say("   Dispatch is thinking…")
        if self.interactive and (self._watch is None or self._watch.done()):
            self._watch = asyncio.get_running_loop().create_task(self._when_moved(game_id))

    async def _when_moved(self, game_id: int) -> None:
        await self.bots.idle()
        if self.running and self.game_id == game_id:
            try:
                await self.show_turn()
            except errors.DispatchError as exc:
                self.say(f"! {exc}")
            self.fe.out.write(self.prompt())  # the one input() shows is above it now
            self.fe.out.flush()

    async def current(self) -> GameInfo:
        if self.game_id is None:
            names = ", ".join(sorted(rules.GAMES)) or "none registered"
            raise errors.NotAllowed(f"No game yet: type `new <game>` (games: {names}).")
        return await self.manager.get_game_info(self.game_id)

    # -- showing ----------------------------------------------------------------------

    async def show_turn(self) -> None:
        """What the player at the keyboard may see and do now."""
        info = await self.current()
        if info.status == "lobby":
            open_roles = ", ".join(
                side_label(info.game_name, r) for r in info.roles if info.seat_of(r) is None
            )
            self.say(
                f"   Game #{info.id} waits for players (open: {open_roles}): `join` takes a "
                "seat, `dispatch [level]` gives one to Dispatch."
            )
            return
        if info.status != "active":
            self.say(f"   Game #{info.id} is {info.status}.")
            return
        if not info.roles_of(self.user):
            self.say(f"   {self.user} is watching (not seated).")
            return
        pv = await self.manager.view_for(info.id, self.user)
        view = pv.view
        menu = menu_of(view, info.game_name)
        if not menu:
            if dispatch_owes(info):
                self.dispatch_thinking(info.id)
                return
            waiting = ", ".join(f"@{u}" for u in info.waiting_on) or "nobody"
            self.say(f"   Waiting for {waiting}.")
            return
        self.shown = Shown(info.id, self.user, pv.version, menu)
        self.say_block(f"{self.user} ({pv.role}): {view.get('prompt') or 'Your move.'}")
        for line in await self.manager.clock_lines(info.id, plain=True):
            if line.endswith("(running)"):
                self.say(f"   {line}")
        numbered = [(key, a) for key, a in menu if key is not None]
        width = max(len(describe(view, a)) for _k, a in numbered) + 7
        columns = 1 if width > 40 or len(numbered) <= 6 else max(1, 96 // width)
        cells = [f"{key:>2}) {describe(view, a)}" for key, a in numbered]
        for row in range(0, len(cells), columns):
            self.say("   " + "".join(c.ljust(width) for c in cells[row : row + columns]).rstrip())
        named = [describe(view, a) for key, a in menu if key is None]
        if named:
            self.say(f"   or type: {'; '.join(named)}")

    # -- commands ---------------------------------------------------------------------

    async def cmd_help(self, args: list[str]) -> None:
        self.say(HELP)
        self.say(f"Games: {', '.join(sorted(rules.GAMES)) or 'none registered'}.")

    async def cmd_new(self, args: list[str]) -> None:
        name = (args[0] if args else self.default_game or "").lower()
        if not name:
            raise errors.NotAllowed("Say which game: `new <game> [seed]`.")
        if name in rules.GAMES and rules.get_game(name).one_seat:
            await self.new_one_seat(name, args[1:])
            return
        clock_words = [w for w in args[1:] if w.lower().startswith("clock=")]
        if len(clock_words) > 1:
            raise errors.BadInput("Give one clock: `clock=fast`, for example.")
        clock = clock_words[0].split("=", 1)[1] if clock_words else None
        validate.clock(clock)  # refused before the new game is announced
        seed, opponent, fate = new_game_words([w for w in args[1:] if w not in clock_words])
        if seed is not None:
            validate.seed(seed)  # refused before the new game is announced
        game = rules.get_game(name) if name in rules.GAMES else None
        if game is not None and fate:
            lobby.require_fate_playsheet(game)  # refused before the new game is announced
        if game is not None:
            players = (PLAYERS[0], opponent)
            seats = ", ".join(
                f"{u} plays {side_label(name, r)}" if u else f"{side_label(name, r)} is open"
                for u, r in zip(players, game.roles, strict=False)
            )
            dice = ""
            if fate:
                dice = " (the Fate Die picks Dispatch's cards)"
            self.say(f"New game of {game.title}: {seats}{dice}.")
        info = None
        for table in range(1, 1000):
            try:
                info = await self.manager.create_game(
                    GUILD,
                    f"table-{table}",
                    PLAYERS[0],
                    NewGame(name, seed=seed, opponent_id=opponent, fate=fate, clock=clock),
                )
                break
            except errors.ChannelBusy:
                continue
        if info is None:
            raise errors.NotAllowed("Too many open games: finish some first.")
        self.game_id = info.id
        if seed is None:
            self.say(f"   This is game #{info.id}; its cards are dealt from a secret key.")
        else:
            self.say(
                f"   This is game #{info.id}, seed {seed}: a practice game, whose cards anyone "
                "who knows the seed can work out."
            )
        await self.show_turn()

    async def cmd_join(self, args: list[str]) -> None:
        info = await self.current()
        if len(args) > 1:
            raise errors.BadInput("`join` takes at most a side: `join` or `join <side>`.")
        info = await self.manager.join(info.id, self.user, args[0].lower() if args else None)
        await self.seated(info, self.user)

    async def cmd_dispatch(self, args: list[str]) -> None:
        info = await self.current()
        if "fate" in (a.lower() for a in args):
            raise errors.BadInput(
                "The Fate Die is chosen when a game is opened: "
                "`new fort_sumter dispatch easy fate`."
            )
        if len(args) > 1:
            raise errors.BadInput("`dispatch` takes at most a level: easy, normal or hard.")
        level = args[0].lower() if args else None
        info = await self.manager.seat_dispatch(info.id, self.user, level)
        await self.seated(info, bot_user(level))

    # -- seats that change hands (bot.tables.seats) -------------

    async def cmd_offer(self, args: list[str]) -> None:
        info = await self.current()
        if len(args) != 1:
            raise errors.BadInput("Offer your seat to whom? `offer <player>` (one name).")
        made = await self.manager.offer_seat(info.id, self.user, args[0].strip().lower())
        self.say(
            f"   {made.from_user} offers the {made.seat} seat to {made.to_user}: "
            f"`as {made.to_user}`, then `accept` or `decline`."
        )

    async def cmd_accept(self, args: list[str]) -> None:
        await self.answer(args, accept=True)

    async def cmd_decline(self, args: list[str]) -> None:
        await self.answer(args, accept=False)

    async def answer(self, args: list[str], *, accept: bool) -> None:
        word = "accept" if accept else "decline"
        if args:
            raise errors.BadInput(f"`{word}` takes nothing: it answers the offer made to you.")
        info = await self.current()
        made = await self.manager.open_offer_for(info.id, self.user)
        if made is None:
            raise errors.NotAllowed(f"No seat of game #{info.id} is offered to {self.user}.")
        change = await self.manager.answer_offer(info.id, made.id, self.user, accept=accept)
        if change is None:
            self.say(f"   {self.user} declined the {made.seat} seat.")
            return
        await self.show_turn()

    async def cmd_reseat(self, args: list[str]) -> None:
        info = await self.current()
        if len(args) != 2:
            raise errors.BadInput("Give which seat to whom? `reseat <side> <player>`.")
        # The sandbox's keyboard is its owner's: a moderator of every table.
        side, player = args[0].lower(), args[1].strip().lower()
        await self.manager.reseat(info.id, side, player, self.user, is_moderator=True)
        await self.show_turn()

    async def cmd_handover(self, args: list[str]) -> None:
        info = await self.current()
        if len(args) > 1:
            raise errors.BadInput("`handover` takes at most a level: easy, normal or hard.")
        await self.manager.hand_over(info.id, self.user, args[0].lower() if args else None)
        await self.show_turn()

    async def cmd_vacation(self, args: list[str]) -> None:
        days = number(args[0]) if len(args) == 1 else None
        if len(args) > 1 or (args and days is None):
            raise errors.BadInput("`vacation` takes a whole number of days, or none to come back.")
        news = await self.manager.vacation(GUILD, self.user, days or None)
        if news.ended:
            counted = plural(news.days, "day")
            self.say(f"   Back from vacation: it counted {counted}; {news.left} left.")
        else:
            self.say(
                f"   On vacation for {plural(news.days, 'day')}: your clocks are paused in "
                f"{plural(len(news.games), 'game')}; {plural(news.left, 'day')} left this year."
            )

    async def cmd_ontime(self, args: list[str]) -> None:
        if len(args) > 1:
            raise errors.BadInput("`ontime` takes lose or claim.")
        rule, _ = await self.manager.clock_rules(GUILD, args[0].lower() if args else None)
        told = "the player loses" if rule == "lose" else "the opponent may claim the win"
        self.say(f"   When a clock runs out, {told}.")

    async def cmd_forced(self, args: list[str]) -> None:
        if len(args) > 1:
            raise errors.BadInput("`forced` takes auto or ask.")
        setting = await self.manager.forced_setting(self.user, args[0].lower() if args else None)
        if setting == "ask":
            self.say(f"   A choice with only one option is asked of {self.user}.")
        else:
            self.say(
                f"   A choice with only one option is made for {self.user} when it reveals nothing."
            )

    async def cmd_claim(self, args: list[str]) -> None:
        info = await self.current()
        await self.manager.claim_win(info.id, self.user)

    async def seated(self, info: GameInfo, user: str) -> None:
        """Say who took which seat of a lobby, then what the player at the keyboard may do."""
        roles = ", ".join(side_label(info.game_name, r) for r in info.roles_of(user))
        self.say(f"   {user} plays {roles} in game #{info.id}.")
        await self.show_turn()

    async def new_one_seat(self, name: str, words: list[str]) -> None:
        """A one-seat game (a solo session) for the player at the keyboard alone."""
        options: dict[str, Any] = {}
        seed: int | None = None
        if name == solo.GAME_NAME:
            options, seed = solo.options_from_words(words)
            listed = await solo.card_list_for(
                self.manager.store, solo.scope_of(GUILD, self.user), options["playsheet"]
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
                info = await self.manager.create_game(
                    GUILD, f"table-{table}", self.user, NewGame(name, options=options, seed=seed)
                )
                break
            except errors.ChannelBusy:
                continue
        if info is None:
            raise errors.NotAllowed("Too many open games: finish some first.")
        self.game_id = info.id
        self.say(f"   This is game #{info.id}, {info.title}, for {self.user} alone.")
        await self.show_turn()

    async def cmd_as(self, args: list[str]) -> None:
        if not args:
            raise errors.NotAllowed(f"Who? `as {PLAYERS[0]}` or `as {PLAYERS[1]}`.")
        who = args[0].strip().lower()
        if not who or len(args) > 1:
            raise errors.BadInput(f"Who? `as {PLAYERS[0]}` or `as {PLAYERS[1]}` (one name).")
        self.fe.current_user = validate.user_id(who)
        for pending in self.fe.take_pending(self.user):
            if pending.game_id == self.game_id or self.game_id is None:
                self.fe.show_private(self.user, pending.message)
        if self.game_id is not None:
            await self.show_turn()

    async def cmd_hand(self, args: list[str]) -> None:
        info = await self.current()
        pv = await self.manager.view_for(info.id, self.user)
        if pv.role is None:
            raise errors.NotSeated()
        public = (await self.manager.view_for(info.id, None)).view
        # known_state is the view as the search reads it, not for a person.
        skip = {"prompt", "actions", "labels", "role", "private_log", "log", "known_state"}
        private = {k: v for k, v in pv.view.items() if k not in skip and public.get(k) != v}
        self.say(f"── {self.user}'s side: {pv.role} ──")
        for key, value in private.items():
            for line in private_lines(key, value):
                self.say_block(line)
        for line in (pv.view.get("private_log") or [])[-5:]:
            self.say_block(f"· {line}")
        await self.fe.write_hand(info, pv.view, pv.version, pv.role)
        await self.show_turn()

    async def cmd_board(self, args: list[str]) -> None:
        info = await self.current()
        pv = await self.manager.view_for(info.id, None)
        if await self.fe.write_board(info, pv.view, pv.version) is None:
            self.say(f"   ({info.title} has no board renderer.)")

    async def cmd_log(self, args: list[str]) -> None:
        info = await self.current()
        count = count_arg(args, "`log` takes how many lines to show, such as `log 20`.")
        count = 10 if count is None else count
        for line in await self.manager.log(info.id, count):
            self.say_block(line)

    async def cmd_hint(self, args: list[str]) -> None:
        if args:
            raise errors.BadInput("`hint` takes nothing: it answers for your decision now.")
        info = await self.current()
        found = await self.manager.hint(info.id, self.user)
        for line in hints.hint_text(found).replace("**", "").splitlines():
            self.say_block(line)

    async def cmd_replay(self, args: list[str]) -> None:
        if len(args) > 1 or (args and number(args[0]) is None):
            raise errors.BadInput("Which game? `replay` (the current one) or `replay <number>`.")
        game_id = number(args[0]) if args else (await self.current()).id
        assert game_id is not None
        movie = await self.manager.watch_replay(game_id, self.user, GUILD)
        self.fe.out_dir.mkdir(parents=True, exist_ok=True)
        gif = self.fe.out_dir / f"replay-game{game_id}.gif"
        text = self.fe.out_dir / f"replay-game{game_id}-log.txt"
        gif.write_bytes(movie.gif)
        text.write_text(movie.log_text, encoding="utf-8")
        self.say(f"   Replay of game #{game_id}: {movie.frames} frames, {movie.width} px wide.")
        self.say(f"   animation: {gif}")
        self.say(f"   log: {text}")

    async def cmd_undo(self, args: list[str]) -> None:
        info = await self.current()
        result = await self.manager.undo(info.id, self.user)
        self.say(f"   Undone (v{result.version}).")
        await self.show_turn()

    async def cmd_resign(self, args: list[str]) -> None:
        info = await self.current()
        if args:
            # Conceding cannot be undone: only the bare word does it, never a typo.
            raise errors.BadInput(
                f"`resign` takes nothing after it: type `resign` alone to concede game #{info.id}."
            )
        await self.manager.resign(info.id, self.user)

    async def cmd_status(self, args: list[str]) -> None:
        info = await self.current()
        self.say(f"   #{info.id} {info.title} · {info.status} · version {info.version}")
        for seat in info.seats:
            marks = []
            if seat.role in info.active_roles:
                marks.append("to act")
            if seat.user_id == self.user:
                marks.append("you")
            extra = f" ({', '.join(marks)})" if marks else ""
            self.say(f"   {side_label(info.game_name, seat.role)}: {seat.user_id}{extra}")
        if info.status == "finished":
            exported = await self.manager.export(info.id)
            result = exported["result"] or {}
            winner = result.get("winner")
            # By the game's name for the side, as the table post says it.
            name = history.role_name(info.game_name, winner) if winner else ""
            said = f"{name} wins" if winner else "A draw"
            self.say_block(f"Result: {said} — {result.get('reason', '')}")
        elif info.status == "active":
            status = (await self.manager.view_for(info.id, None)).view.get("status")
            if isinstance(status, str) and status:
                self.say_block(status)
            if dispatch_owes(info):
                self.say("   Dispatch is thinking…")
            for line in await self.manager.clock_lines(info.id, plain=True):
                self.say(f"   {line}")

    async def cmd_games(self, args: list[str]) -> None:
        if args and args[0].lower() == "finished":
            for line in await history_text.finished(self.manager, self.user, args[1:]):
                self.say(line)
            return
        seen: dict[int, GameInfo] = {}
        for player in PLAYERS:
            for entry in await self.manager.games_for_user(player):
                seen[entry.game.id] = entry.game
        if not seen:
            self.say("   No open games. Type `new <game>`.")
        for game_id, info in sorted(seen.items()):
            here = " ←" if game_id == self.game_id else ""
            waiting = ", ".join(f"@{u}" for u in info.waiting_on) or "-"
            self.say(f"   #{game_id} {info.title} · {info.status} · to act: {waiting}{here}")

    async def cmd_stats(self, args: list[str]) -> None:
        for line in await history_text.stats(self.manager, self.user, args, PLAYERS):
            self.say(line)

    async def cmd_use(self, args: list[str]) -> None:
        game_id = number(args[0] if args else None)
        if game_id is None:
            raise errors.NotAllowed("Which game? `use <id>` (see `games`).")
        info = await self.manager.get_game_info(game_id)
        self.game_id = info.id
        self.say(f"   Now at game #{info.id} ({info.title}, {info.status}).")
        await self.show_turn()

    async def cmd_leaderboard(self, args: list[str]) -> None:
        if not args:
            raise errors.BadInput("Which game? `leaderboard <game> [n]`, e.g. `leaderboard war`.")
        size = count_arg(args[1:], "How many? `leaderboard <game> [n]`, n from 1 to 25.")
        board = await self.manager.leaderboard(
            GUILD, args[0], LEADERBOARD_SIZE if size is None else size
        )
        if not board:
            self.say(f"   No rated game of {args[0]} yet.")
        for s in board:
            games = f"{s.games} game" + ("" if s.games == 1 else "s")
            wins = f"{s.wins} win" + ("" if s.wins == 1 else "s")
            self.say(f"   {s.rank}. {s.player_id} {s.points} · {games}, {wins}")

    async def cmd_quit(self, args: list[str]) -> None:
        self.running = False

    async def cmd_wait(self, args: list[str]) -> None:
        """Until Dispatch's seats have moved: what a script reads next no longer depends
        on how fast the machine searched."""
        if args:
            raise errors.BadInput("`wait` takes nothing after it.")
        await self.bots.idle()
        self.say("   Dispatch owes no move now.")

    async def cmd_auto(self, args: list[str]) -> None:
        usage = "`auto` takes how many moves to play, such as `auto 20` (none: to the end)."
        limit = count_arg(args, usage)
        info = await self.current()
        limit = AUTO_CAP if limit is None else limit
        played = 0
        self.fe.draw_boards = False
        try:
            while played < limit:
                await self.bots.idle()  # Dispatch's seats play themselves
                info = await self.manager.get_game_info(info.id)
                people = [r for r in info.active_roles if not is_bot(_user_of(info, r))]
                if info.status != "active" or not people:
                    break
                role = self.rng.choice(sorted(people))
                seat = info.seat_of(role)
                assert seat is not None
                pv = await self.manager.view_for(info.id, seat.user_id, role=role)
                # undo would let a random player dither forever; it adds nothing to a demo
                choices = [a for a in legal_actions(pv.view) if a[0] != "undo"]
                if not choices:
                    raise errors.NotAllowed(f"{role} is to act but has no legal action.")
                verb, arg = self.rng.choice(choices)
                self.say(f"   auto: {seat.user_id} ({role}) {describe(pv.view, (verb, arg))}")
                result = await self.manager.act(
                    info.id, seat.user_id, Move(verb, arg, pv.version, role=role)
                )
                if info.one_seat:
                    self.say_new_lines(pv.view, result.view)
                played += 1
        finally:
            self.fe.draw_boards = True
        for user, queue in self.fe.pending.items():
            mine = [p for p in queue if p.game_id == info.id]
            if mine and user != self.user:
                self.say(f"   ({len(mine)} private messages for {user} — type `as {user}`)")
        self.say(f"   Played {played} move{'s' if played != 1 else ''}.")
        if played:
            # The board as it stands now (the last table post may be older: a solo
            # session posts only at its start and end).
            info = await self.manager.get_game_info(info.id)
            public = await self.manager.view_for(info.id, None)
            await self.fe.write_board(info, public.view, public.version)
        await self.show_turn()

    async def play(self, words: list[str], *, waited: bool = False) -> None:
        info = await self.current()
        pv = await self.manager.view_for(info.id, self.user)
        actions = legal_actions(pv.view)
        if not actions and not waited and dispatch_owes(info):
            if self.interactive:
                self.say("   Dispatch is thinking…; your prompt shows here when it has moved.")
                return
            # A script's next move was written for after Dispatch's: it waits, then is
            # read against the list shown once Dispatch has moved.
            self.say("   Dispatch is thinking…")
            await self.bots.idle()
            await self.show_turn()
            await self.play(words, waited=True)
            return
        if not actions:
            # Not their move: a number or a word can only be a mistake, say which.
            if info.status != "active":
                raise errors.GameNotActive(info.status)
            waiting = ", ".join(f"@{u}" for u in info.waiting_on)
            if words[0].lower() in game_verbs(info.game_name):
                raise errors.NotAllowed(
                    f"`{words[0].lower()}` is not possible now: {self.user} has no move "
                    f"(waiting for {waiting}). Type `as <player>` to play for them, or `help`."
                )
            raise errors.NotAllowed(
                f"“{' '.join(words)[:40]}” is not a command, and {self.user} has no move now "
                f"(waiting for {waiting}). Type `help`, or `as <player>`."
            )
        if len(words) > 1 and number(words[0]) is not None:
            raise errors.BadInput(f"One number at a time: type `{words[0][:40]}` alone.")
        n = number(words[0]) if len(words) == 1 else None
        if n is not None:
            shown = self.shown
            if shown is None or (shown.game_id, shown.user, shown.version) != (
                info.id,
                self.user,
                pv.version,
            ):
                # The list the player has in mind is not the game's any more (a bot moved,
                # another game or player was shown since): say so, and show the new one.
                self.say_block(
                    "! The choices changed since this list was shown; nothing was done. "
                    "Here they are now:",
                    indent="",
                )
                await self.show_turn()
                return
            picked = shown.pick(str(n))
            if picked is None:
                raise errors.NotAllowed(shown.refusal(n))
            verb, arg = picked
        else:
            verb, arg = named_action(pv.view, words, game_verbs(info.game_name))
        result = await self.manager.act(
            info.id, self.user, Move(verb, arg, pv.version, role=pv.role)
        )
        if info.one_seat and result.outcome is None:
            # The end's own post prints the closing lines: said here too, they came twice.
            self.say_new_lines(pv.view, result.view)
            if self.fe.draw_boards:
                await self.fe.write_board(result.game, result.view, result.version)
        if result.private_log_lines:
            self.say(f"── private to {self.user} ({result.role}) ──")
            for line in result.private_log_lines:
                self.say_block(line)
        if result.outcome is None:
            await self.show_turn()


def side_label(game_name: str, role: str) -> str:
    """A side as the table names it ("Confederacy"), with the word the commands take
    ("confederate") where that differs: a status line that says "confederate" above
    "Waiting for Union and Confederacy" reads as two different sides."""
    name = history.role_name(game_name, role)
    return name if name.lower() == role.lower() else f"{name} ({role})"


def dispatch_owes(info: GameInfo) -> bool:
    """Whether one of Dispatch's seats owes a decision in this running game now."""
    return info.status == "active" and any(is_bot(user) for user in info.waiting_on)


def _user_of(info: GameInfo, role: str) -> str | None:
    seat = info.seat_of(role)
    return seat.user_id if seat else None


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
            await sandbox.cmd_new([args.game, *seed])
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
