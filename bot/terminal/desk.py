"""What every sandbox command shares: the manager and the front end, who is at the
keyboard, the game in hand, the list last shown, and the player's turn shown again
(``show_turn``). The commands are functions of a ``Desk`` (``bot.terminal.sandbox``
holds their table); ``Dispatch is thinking`` is said here, and at a terminal the
player's prompt is printed once Dispatch has moved."""

from __future__ import annotations

import asyncio
import random

import rules
from bot import errors
from bot.delivery.port import GameInfo, View
from bot.dispatch_players.bots import BotSeats
from bot.tables.bot_users import is_bot
from bot.tables.manager import GameManager
from bot.tables.prompts import decision_digest
from bot.terminal.display import dispatch_owes, side_label
from bot.terminal.frontend import TerminalFrontEnd
from bot.terminal.league_room import SandboxRoom
from bot.terminal.menus import Shown, describe, menu_of


def _seats_of(manager: GameManager) -> BotSeats:
    """The bot seats that listen to ``manager``; Dispatch's own (worker processes), newly
    attached, when it has none yet."""
    try:
        return BotSeats.of(manager)
    except LookupError:
        return BotSeats.attach(manager)


class Desk:
    """The sandbox's state between commands, and what they all say with."""

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
        # League games open in channels of the terminal, league posts print here.
        manager.leagues.attach_room(SandboxRoom(front_end))
        self.fe = front_end
        self.rng = random.Random(seed)
        self.default_game = default_game
        self.game_id: int | None = None
        #: The league in hand (``league use``); its games are played by switching to them.
        self.league_id: int | None = None
        self.shown: Shown | None = None
        self.running = True
        #: Typed at a terminal (not a script): a move typed while Dispatch thinks is
        #: answered at once, and the player's prompt printed when Dispatch has moved.
        self.interactive = False
        #: Prints the prompt once Dispatch has moved (at a terminal only).
        self._watch: asyncio.Task[None] | None = None

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
            raise errors.Usage(f"No game yet: type `new <game>` (games: {names}).")
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
        # Everything awaited is read before the first line is printed: a table post that
        # lands during an await (Dispatch's move) would otherwise print inside the prompt.
        clocks = await self.manager.clocks.lines(info.id, plain=True)
        self.shown = Shown(info.id, self.user, pv.version, menu, decision_digest(pv.view))
        self.say_block(f"{self.user} ({pv.role}): {view.get('prompt') or 'Your move.'}")
        for line in clocks:
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
