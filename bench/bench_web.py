"""The spectator page under 200 spectators: how soon every open page gets a committed
turn, and whether the bot's click acknowledgement notices them.

Run:  python bench/bench_web.py [--spectators 200] [--turns 20] [--clicks 150] [--rounds 5]
          [--beside-every 0.05]

1. Fan-out: one live Fort Sumter game, its page served by the bot's process (the
   manager's listener on SQLite), ``--spectators`` event streams open on it; a turn is
   committed (``manager.act``) ``--turns`` times, and for each the time from the start
   of the commit until each page has read the update is taken: p50, p99 and the
   slowest page of each turn ("every page updated"). The streams are read in the same
   process as the server, so the figures include the clients' own reading.
2. The bot's click acknowledgement (the real bot in the loopback emulator, a
   "My prompt" click on a game's table post, clicks as a player) while a second game
   beside it has a turn committed every ``--beside-every`` seconds (50 ms: far more
   often than people play, so that clicks meet the fan-out), with and without ``--spectators`` pages
   open on that second game (read by a child process, so their reading is not charged
   to the bot's process). ``--rounds`` paired rounds: each round measures both, and its
   ratio (with / without) is printed beside the others, then the median of the rounds.

The load (``uptime``'s) is printed before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import aiohttp
import discord

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_click_latency import messages_of_games
from bot.config import Config, WebSettings
from bot.delivery.port import GameInfo, PrivateMessage, SeatInfo, TablePost
from bot.discord_app import create_bot
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame
from bot.web.limits import RateLimit
from bot.web.links import give_link
from bot.web.serve import WebServer
from bot.web.streams import StreamCount
from tests.discord_helpers import register_test_game
from tests.emulator import Channel, Emulator, Message, User
from tests.emulator.latency import measure_click_latency

SEATS = {"unionist": "alice", "secessionist": "bob"}
SETTINGS = WebSettings(url="http://bench.invalid", secret="the bench's own secret, 32 chars")
#: Every page of the bench comes from one address: the per-address limits are lifted.
UNLIMITED = RateLimit(1e9, 10**9, time.monotonic)
ANY_STREAMS = StreamCount(per_address=10**6, total=10**6)
#: A turn of the game beside the clicks, every this many seconds (part 2).
BESIDE_EVERY_S = [0.05]


class Nowhere:
    """A front end that takes every post and DM and shows them to nobody."""

    async def post_table(self, game: GameInfo, post: TablePost) -> None:
        return None

    async def send_private(self, game: GameInfo, seat: SeatInfo, message: PrivateMessage) -> None:
        return None


@dataclass
class Pages:
    """Open event streams on one game: when each read each version's update."""

    count: int
    seen: dict[int, list[float]] = field(default_factory=dict)
    opened: int = 0
    _all: dict[int, asyncio.Event] = field(default_factory=dict)

    def everyone(self, version: int) -> asyncio.Event:
        """Set once every page has read the update of ``version``."""
        return self._all.setdefault(version, asyncio.Event())

    async def watch(
        self, http: aiohttp.ClientSession, url: str, ready: asyncio.Event, n: int
    ) -> None:
        async with http.get(url, timeout=aiohttp.ClientTimeout(total=None)) as stream:
            stream.raise_for_status()
            await stream.content.readline()  # "retry: ..." : the stream is open
            self.opened += 1
            if self.opened == n:
                ready.set()
            async for line in stream.content:
                if line.startswith(b"data: "):
                    version = json.loads(line[6:])["version"]
                    read = self.seen.setdefault(int(version), [])
                    read.append(time.perf_counter())
                    if len(read) == self.count:
                        self.everyone(int(version)).set()


async def open_pages(
    url: str, count: int
) -> tuple[Pages, list[asyncio.Task[None]], aiohttp.ClientSession]:
    pages = Pages(count)
    ready = asyncio.Event()
    http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    tasks = [asyncio.create_task(pages.watch(http, url, ready, count)) for _ in range(count)]
    await asyncio.wait_for(ready.wait(), 60)
    return pages, tasks, http


async def first_move(manager: GameManager, game_id: int) -> Move | None:
    info = await manager.get_game_info(game_id)
    if info.status != "active":
        return None
    role = info.active_roles[0]
    view = (await manager.view_for(game_id, SEATS[role])).view
    verb = sorted(view["actions"])[0]
    args = view["actions"][verb]
    return Move(verb, None if args is True else args[0], info.version, role=role)


async def new_game(manager: GameManager, channel: str) -> int:
    request = NewGame("fort_sumter", seat="unionist", opponent_id="bob", seed=1861)
    return (await manager.create_game("bench", channel, "alice", request)).id


def percentile(samples: list[float], q: int) -> float:
    if len(samples) == 1:
        return samples[0]
    return statistics.quantiles(samples, n=100, method="inclusive")[q - 1]


async def fan_out(folder: Path, spectators: int, turns: int) -> dict[str, float]:
    manager = await GameManager.open(folder / "fan.sqlite3", Nowhere())
    server = await WebServer.start(
        folder / "fan.sqlite3", SETTINGS, 0, manager=manager, limit=UNLIMITED, streams=ANY_STREAMS
    )
    try:
        game_id = await new_game(manager, "fan")
        path = (await give_link(manager.store, SETTINGS, game_id, "alice")).removeprefix(
            SETTINGS.url or ""
        )
        info = await manager.get_game_info(game_id)
        url = f"http://127.0.0.1:{server.port}{path}events?v={info.version}"
        pages, tasks, http = await open_pages(url, spectators)
        every: list[float] = []
        slowest: list[float] = []
        for _ in range(turns):
            move = await first_move(manager, game_id)
            if move is None:
                break
            started = time.perf_counter()
            result = await manager.act(game_id, SEATS[move.role or ""], move)
            deadline = time.perf_counter() + 30
            while len(pages.seen.get(result.version, [])) < spectators:
                if time.perf_counter() > deadline:
                    raise RuntimeError(
                        f"only {len(pages.seen.get(result.version, []))} pages updated"
                    )
                await asyncio.sleep(0.001)
            took = [(t - started) * 1000 for t in pages.seen[result.version]]
            every.extend(took)
            slowest.append(max(took))
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await http.close()
    finally:
        await server.close()
        await manager.close()
    return {
        "turns": len(slowest),
        "p50": statistics.median(every),
        "p99": percentile(every, 99),
        "every_p50": statistics.median(slowest),
        "every_max": max(slowest),
    }


async def spectate_main(url: str, count: int) -> None:
    """The child process of part 2: ``count`` pages open on ``url`` until killed."""
    _, tasks, _ = await open_pages(url, count)
    print("open", flush=True)
    await asyncio.gather(*tasks, return_exceptions=True)


@contextlib.contextmanager
def spectating(url: str, count: int) -> Any:
    child = subprocess.Popen(
        [sys.executable, __file__, "--spectate", url, "--spectators", str(count)],
        stdout=subprocess.PIPE,
        # Its streams end by the signal, unclosed: aiohttp's complaint is no figure.
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "open", "the spectators did not connect"
        yield
    finally:
        child.terminate()
        child.wait(10)


async def click_ack(folder: Path, clicks: int, spectators: int) -> dict[str, Any]:
    """The bot's ack of a 'My prompt' click while a game beside it moves on every 50 ms,
    with ``spectators`` pages open on that game (0: none)."""
    register_test_game()
    config = Config(
        token="emulator.bot.token",
        db_path=folder / f"ack-{spectators}.sqlite3",
        dev_guild_id=None,
        log_level="WARNING",
        web=replace(SETTINGS, port=0),
    )
    beside: list[asyncio.Task[None]] = []
    watchers: list[contextlib.ExitStack] = []

    async def setup(
        emu: Emulator, bot: discord.Client, channel: Channel, user: User
    ) -> tuple[Message, str]:
        guild = emu.world.channel_guild(channel)
        assert guild is not None
        opponent = emu.add_member(guild, "opponent")
        await emu.wait_for_commands("game")
        result = await emu.slash(user, channel, "game new", game="skirmish", opponent=opponent)
        await result.response()
        post = await table_post(emu, channel)
        manager: GameManager = bot.manager  # type: ignore[attr-defined]
        game_id = await new_game(manager, "beside")
        web_server: WebServer = bot.web_server  # type: ignore[attr-defined]
        web_server.room.limit = UNLIMITED  # in both arms: the same server, the same code
        web_server.room.streams = ANY_STREAMS
        if spectators:
            link = await give_link(manager.store, SETTINGS, game_id, "alice")
            port = web_server.port
            url = f"http://127.0.0.1:{port}{link.removeprefix(SETTINGS.url or '')}events"
            stack = contextlib.ExitStack()
            await asyncio.to_thread(stack.enter_context, spectating(url, spectators))
            watchers.append(stack)
        beside.append(asyncio.create_task(keep_playing(manager, game_id)))
        return post, post.custom_ids()[0]

    def factory() -> discord.Client:
        bot: discord.Client = create_bot(config, delivery_interval=0.5)
        return bot

    try:
        return await measure_click_latency(factory, clicks, setup=setup, isolated=True)
    finally:
        for task in beside:
            task.cancel()
        for stack in watchers:
            stack.close()


async def table_post(emu: Emulator, channel: Channel) -> Message:
    """The new game's table post, once the bot has posted it (in the game's thread)."""
    for _ in range(400):
        found = [m for m in messages_of_games(emu, channel) if "dsp:h:" in str(m.components)]
        if found:
            post: Message = found[0]
            return post
        await asyncio.sleep(0.025)
    raise RuntimeError("the bot posted no table for the new game")


async def keep_playing(manager: GameManager, game_id: int) -> None:
    with contextlib.suppress(Exception):
        while (move := await first_move(manager, game_id)) is not None:
            await manager.act(game_id, SEATS[move.role or ""], move)
            await asyncio.sleep(BESIDE_EVERY_S[0])


def load() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


async def run(spectators: int, turns: int, clicks: int, rounds: int) -> None:
    print(f"before: {load()}")
    with tempfile.TemporaryDirectory() as tmp:
        fan = await fan_out(Path(tmp), spectators, turns)
        print(
            f"fan-out: {spectators} pages on one game, {fan['turns']} turns committed: "
            f"each page updated p50 {fan['p50']:.1f} ms, p99 {fan['p99']:.1f} ms after the "
            f"commit began; every page updated: median {fan['every_p50']:.1f} ms, "
            f"slowest turn {fan['every_max']:.1f} ms"
        )
        pairs = []
        for n in range(rounds):
            (Path(tmp) / f"r{n}").mkdir()
            without = await click_ack(Path(tmp) / f"r{n}", clicks, 0)
            with_pages = await click_ack(Path(tmp) / f"r{n}", clicks, spectators)
            pairs.append((without, with_pages))
            print(
                f"  round {n + 1}: ack median {without['median_ms']:.2f} ms without, "
                f"{with_pages['median_ms']:.2f} ms with {spectators} pages "
                f"({with_pages['median_ms'] / without['median_ms']:.2f}x); p99 "
                f"{without['p99_ms']:.2f} / {with_pages['p99_ms']:.2f} ms "
                f"({with_pages['p99_ms'] / without['p99_ms']:.2f}x)"
            )
    medians = [w["median_ms"] / o["median_ms"] for o, w in pairs]
    p99s = [w["p99_ms"] / o["p99_ms"] for o, w in pairs]
    print(
        f"click ack with / without {spectators} pages on the game beside (a turn every "
        f"{BESIDE_EVERY_S[0] * 1000:.0f} ms), {rounds} rounds: "
        f"median ratio {statistics.median(medians):.2f}x (range {min(medians):.2f}-"
        f"{max(medians):.2f}), p99 ratio {statistics.median(p99s):.2f}x"
    )
    print(f"after: {load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, default=200)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--clicks", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--beside-every", type=float, default=0.05)
    parser.add_argument("--spectate", help=argparse.SUPPRESS)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    if args.spectate:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(spectate_main(args.spectate, args.spectators))
        return
    BESIDE_EVERY_S[0] = args.beside_every
    asyncio.run(run(args.spectators, args.turns, args.clicks, args.rounds))


if __name__ == "__main__":
    main()
