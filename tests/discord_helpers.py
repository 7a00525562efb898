"""Shared helpers for the Discord end-to-end tests: a small test game, a table fixture that
runs the real bot against the loopback emulator, and ways to find and press prompts.

The test game ("skirmish") is tiny but has what the bot must handle: hidden hands, a
simultaneous secret choice, a reveal, a multi-step decision with undo (place, place, done)
and a list of 30 choices (more than one select holds).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import logging
import random
import re
import shutil
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import rules
from bot.config import Config
from bot.storage.engines import is_postgres_url
from bot.storage.store import Store
from bot.tables.records.replay import stored_state
from rules.core import (
    Actions,
    Arg,
    Game,
    State,
    Step,
    View,
    goto,
    log,
    private_log,
    seal,
    shuffle,
)
from tests.emulator import Emulator, Message, User
from tests.emulator.state import PATIENCE_S

# ------------------------------------------------------------------ the test game

SPACES = [f"S{i:02d}" for i in range(1, 31)]


def card_value(card: str) -> int:
    return int(card[1:]) % 10 + 1


class Choose(Step):
    """Both sides secretly pick a card from hand at once."""

    def active(self, game: Game, state: State) -> tuple[str, ...]:
        return tuple(r for r in game.roles if state["chosen"][r] is None)

    def prompt(self, game: Game, state: State, role: str) -> str:
        return f"Round {state['round']}: choose a card to play face down."

    def actions(self, game: Game, state: State, role: str) -> Actions:
        return {"card": list(state["hands"][role])}

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        return f"Card {arg} (value {card_value(str(arg))})"

    def on_card(self, game: Game, state: State, role: str, arg: Arg) -> None:
        state["hands"][role].remove(arg)
        state["chosen"][role] = arg
        private_log(state, role, f"You chose {arg}.")
        if all(state["chosen"].values()):
            goto(game, state, "reveal")


class Reveal(Step):
    def enter(self, game: Game, state: State) -> None:
        # The face-down cards are shown: neither choice may be taken back after this.
        seal(state)
        north, south = state["chosen"]["north"], state["chosen"]["south"]
        log(state, f"Round {state['round']}: north played {north}, south played {south}.")
        winner = "north" if card_value(north) >= card_value(south) else "south"
        state["winner"] = winner
        state["placed"] = 0
        goto(game, state, "muster")


class Muster(Step):
    """The round's winner places up to two tokens, one at a time, then says done."""

    def active(self, game: Game, state: State) -> tuple[str, ...]:
        return (state["winner"],)

    def prompt(self, game: Game, state: State, role: str) -> str:
        return f"Place a token ({state['placed']} of 2 placed), then done."

    def actions(self, game: Game, state: State, role: str) -> Actions:
        actions: Actions = {}
        if state["placed"] < 2:
            actions["space"] = list(SPACES)
        actions["done"] = True
        return actions

    def label(self, game: Game, state: State, role: str, verb: str, arg: Arg) -> str:
        return "Done" if verb == "done" else f"Space {arg}"

    def on_space(self, game: Game, state: State, role: str, arg: Arg) -> None:
        state["tokens"][role].append(arg)
        state["placed"] += 1

    def on_done(self, game: Game, state: State, role: str, arg: Arg) -> None:
        log(state, f"{role} mustered at {', '.join(state['tokens'][role][-state['placed'] :])}.")
        state["chosen"] = {r: None for r in game.roles}
        state["round"] += 1
        if state["round"] > state["options"]["rounds"]:
            north, south = len(state["tokens"]["north"]), len(state["tokens"]["south"])
            winner = "north" if north >= south else "south"
            game.finish(
                state, winner, "more tokens", {"north": north, "south": south}, code="tokens"
            )
            return
        goto(game, state, "choose")


class Skirmish(Game):
    name = "skirmish"
    title = "Skirmish (test game)"
    roles = ("north", "south")
    outcome_codes = frozenset({"tokens"})
    role_names: ClassVar[dict[str, str]] = {"north": "North", "south": "South"}
    default_options: ClassVar[dict[str, Any]] = {"rounds": 3}
    summary = "Each round both sides play a card face down; the higher card musters tokens."
    steps: ClassVar[dict[str, Step]] = {"choose": Choose(), "reveal": Reveal(), "muster": Muster()}

    def initialise(self, state: State) -> None:
        deck = [f"K{i:02d}" for i in range(1, 41)]
        shuffle(state, deck)
        size = state["options"]["rounds"] + 2
        state["hands"] = {"north": deck[:size], "south": deck[size : 2 * size]}
        state["chosen"] = {"north": None, "south": None}
        state["tokens"] = {"north": [], "south": []}
        state["round"] = 1
        state["winner"] = None
        state["placed"] = 0
        goto(self, state, "choose")

    def public_view(self, state: State) -> View:
        return {
            "round": state["round"],
            "tokens": {r: list(t) for r, t in state["tokens"].items()},
            "hand_sizes": {r: len(h) for r, h in state["hands"].items()},
        }

    def private_view(self, state: State, role: str) -> View:
        return {"hand": list(state["hands"][role]), "chosen": state["chosen"][role]}

    def secrets(self, state: State, role: str) -> set[str]:
        hidden = set(state["hands"][role])
        if state["step"] == "choose" and state["chosen"][role]:
            hidden.add(state["chosen"][role])
        return hidden

    def catalogue(self) -> list[dict[str, Any]]:
        return [
            {
                "id": f"K{i:02d}",
                "name": f"Skirmisher {i}",
                "text": "A card.",
                "value": card_value(f"K{i:02d}"),
            }
            for i in range(1, 41)
        ]


def register_test_game() -> Game:
    return rules.GAMES.get("skirmish") or rules.register(Skirmish())


# ------------------------------------------------------------- logging guard


class ErrorCatcher(logging.Handler):
    """Collects ERROR records from discord.py's loggers (and our own, separately)."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def discord_errors(self) -> list[str]:
        return [
            f"{r.name}: {r.getMessage()}"
            for r in self.records
            if r.name == "discord" or r.name.startswith("discord.")
        ]

    def all_errors(self) -> list[str]:
        return [f"{r.name}: {r.getMessage()}" for r in self.records]


@contextlib.contextmanager
def catch_errors() -> Any:
    handler = ErrorCatcher()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)


# -------------------------------------------------------------- the table


@dataclass
class Table:
    """An emulator with one guild, a games channel, members, and the bot running on a
    SQLite file, or on the PostgreSQL database ``database_url`` names."""

    emu: Emulator
    db_path: Path
    guild: Any
    channel: Any
    players: dict[str, User] = field(default_factory=dict)
    bot: Any = None
    _running: Any = None
    #: Seconds added to the manager's clock (reminder tests move time forward).
    clock_offset: float = 0.0
    #: The text channel whose thread ``channel`` is, once ``/game new`` opened one.
    parent: Any = None
    #: The PostgreSQL database the bot uses (None: the SQLite file ``db_path``).
    database_url: str | None = None

    @property
    def store_target(self) -> Path | str:
        """Where the bot's store is: what the test's ``db_path`` fixture gave."""
        return self.database_url or self.db_path

    def config(self) -> Config:
        return Config(
            token=self.emu.token,
            db_path=self.db_path,
            dev_guild_id=str(self.guild.id),
            log_level="INFO",
            database_url=self.database_url,
        )

    def make_bot(self) -> Any:
        from bot.discord_app import create_bot

        return create_bot(
            self.config(),
            delivery_interval=0.05,
            manager_options={
                "retry_base_s": 0.05,
                "retry_cap_s": 0.2,
                "clock": lambda: time.time() + self.clock_offset,
            },
        )

    async def start(self) -> Any:
        self.bot = self.make_bot()
        self._running = self.emu.running(self.bot)
        await self._running.__aenter__()
        await self.emu.wait_for_commands("game", "rules", "card", "games")
        engine = "postgresql" if self.database_url else "sqlite"
        assert self.bot.manager.store.dialect == engine, "the bot is not on the test's store"
        return self.bot

    async def stop(self) -> None:
        if self._running is not None:
            await self._running.__aexit__(None, None, None)
            self._running = None

    async def restart(self) -> Any:
        await self.stop()
        return await self.start()

    # -- acting -----------------------------------------------------------------
    async def slash(self, who: str, command: str, **options: Any) -> Any:
        before = set(self.emu.world.channels)
        result = await self.emu.slash(self.players[who], self.channel, command, **options)
        await result.response()
        if command == "game new":
            # Its lobby post is completed after the first answer (the thread starts
            # from it), so the command is done only when the bot is idle.
            await self.settle()
            self.follow_new_thread(before)
        return result

    def follow_new_thread(self, before: set[int]) -> None:
        """``/game new`` in a text channel opens a thread for the game: the
        table follows the game there (``channel``; the text channel stays ``parent``), so
        the commands and posts of a test are the game's."""
        new = [
            c
            for cid, c in self.emu.world.channels.items()
            if cid not in before and c.parent_id == self.channel.id
        ]
        if new:
            self.parent = self.channel
            self.channel = new[-1]

    async def press(
        self, who: str, message: Message, custom_id: str, value: str | None = None
    ) -> Any:
        user = self.players[who]
        if value is None:
            result = await self.emu.click(user, message, custom_id)
        else:
            result = await self.emu.select(user, message, custom_id, [value])
        await result.response()
        await self.settle()
        return result

    async def press_many(
        self, who: str, message: Message, custom_id: str, values: list[str]
    ) -> Any:
        """Choose several options of one multi-choice select in one interaction."""
        result = await self.emu.select(self.players[who], message, custom_id, list(values))
        await result.response()
        await self.settle()
        return result

    async def settle(self) -> None:
        """Wait until the bot has finished handling every click (edits and followups sent)."""
        assert await self.bot.wait_idle(PATIENCE_S), "a click handler did not finish"

    def public_text(self) -> str:
        return self.emu.all_text_sent_to_channel(self.channel.id)


#: A SQLite file migrated once per process, copied for each table on a file of its own.
_TEMPLATE: list[Path] = []


async def _migrated_copy(path: Path) -> None:
    """Put a migrated store at ``path``, as a bot that ran before left it: migrating a new
    file through every migration costs each start about 60 ms, mostly its syncs."""
    if not _TEMPLATE:
        folder = Path(tempfile.mkdtemp(prefix="dispatch-template-"))
        atexit.register(shutil.rmtree, folder, True)
        store = await Store.open(folder / "migrated.sqlite3")
        await store.close()
        _TEMPLATE.append(folder / "migrated.sqlite3")
    shutil.copy(_TEMPLATE[0], path)  # its mode too: readable by its owner only


@contextlib.asynccontextmanager
async def table(
    tmp_path: Path, *names: str, store: Path | str | None = None
) -> AsyncIterator[Table]:
    """The bot on a SQLite file in ``tmp_path``, or on ``store``: the ``db_path`` fixture's
    value (a file, or a fresh PostgreSQL database's URL), for the tests run on both
    engines (tests/conftest.py names them)."""
    register_test_game()
    async with Emulator() as emu:
        guild = emu.add_guild()
        channel = emu.add_text_channel(guild, "games")
        url = str(store) if is_postgres_url(store) else None
        path = Path(store) if store is not None and url is None else tmp_path / "dispatch.sqlite3"
        if store is None and not path.exists():
            await _migrated_copy(path)
        t = Table(emu=emu, db_path=path, guild=guild, channel=channel, database_url=url)
        for name in names:
            t.players[name] = emu.add_member(guild, name)
        try:
            yield t
        finally:
            await t.stop()


# ------------------------------------------------------- reading prompts


def components_of(message: Message) -> list[dict[str, Any]]:
    """Every button/select on a message, flattened."""
    found: list[dict[str, Any]] = []

    def walk(items: Any) -> None:
        for item in items or ():
            if item.get("type") in (2, 3):
                found.append(item)
            walk(item.get("components"))

    walk(message.components)
    return found


ACTION = re.compile(r"^dsp:[as]:")


def action_components(message: Message) -> list[dict[str, Any]]:
    return [c for c in components_of(message) if ACTION.match(c.get("custom_id", ""))]


def choices_of(message: Message) -> list[tuple[str, str | None]]:
    """(custom_id, value) for every action a prompt offers; value None for buttons."""
    out: list[tuple[str, str | None]] = []
    for comp in action_components(message):
        if comp["type"] == 2:
            out.append((comp["custom_id"], None))
        else:
            out.extend((comp["custom_id"], o["value"]) for o in comp.get("options", []))
    return out


def version_of(message: Message) -> int | None:
    for comp in action_components(message):
        return int(comp["custom_id"].split(":")[3])
    return None


def pick(choices: list[tuple[str, str | None]], rng: random.Random) -> tuple[str, str | None]:
    """A seeded random choice that avoids undo (so games move forward)."""
    forward = [c for c in choices if ":undo:" not in c[0]] or choices
    return rng.choice(forward)


async def wait_until(predicate: Any, timeout: float = PATIENCE_S, what: str = "condition") -> Any:
    """Poll ``predicate`` (the bot's state, which the emulator cannot announce) until it
    holds; the timeout only guards against a hang."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if loop.time() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


async def poll(check: Any, what: str, timeout: float = PATIENCE_S) -> Any:
    """``wait_until`` for a check that awaits (the manager, the store): its result once
    true; the timeout only guards against a hang."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = await check()
        if value:
            return value
        if loop.time() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


async def current_state(manager: Any, game_id: int) -> dict[str, Any]:
    """The game's state as stored: what ``manager.replay`` gives, without replaying the
    whole record (a loop that replays at every click is quadratic in the game's length;
    the whole-game tests end with ``verify_replay``, which holds the two equal)."""
    raw = await stored_state(manager.store, game_id)
    assert raw is not None, f"game {game_id} has no state"
    state: dict[str, Any] = json.loads(raw)
    return state
