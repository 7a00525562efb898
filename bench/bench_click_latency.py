"""Button-click latency of the real Dispatch bot through the loopback emulator, vs the floor.

Run:  python bench/bench_click_latency.py [--clicks 300] [--actions 200] [--rounds 7]
          [--while-searching]

Three figures, each as median and p99 in milliseconds:
1. floor: a bare discord.py client that only acknowledges (tests/emulator/latency.py) a
   click on a copy of the same table post the bot's figures click;
2. bot ack: the real bot acknowledging a click on the table's "My prompt" button (time to
   the interaction callback, the number Discord's 3-second rule is about);
3. bot action: a click that applies a game action, from the click until the bot has
   finished (manager.act committed, table post and DMs delivered, prompt message edited),
   on the small test game (no images) and on War Between the States (board and hand PNGs
   rendered in a worker thread); and the acknowledgement of those clicks, in rounds side
   by side with the bare client answering clicks on a copy of the same War prompt (the
   target holds for action buttons too, the ones a player clicks most).

The target, the bot acknowledging a click as fast as a bare client does (the ratio
docs/discord.md gives under *A click's acknowledgement, measured*), is about a player's click: "as a
player" clicks wait until the bot has finished what the previous click started, as a
person's next click does. "Back to back" clicks arrive while the bot is still sending the
previous click's prompt; they measure the queue, not the acknowledgement. At well under a
millisecond a click, one measurement of each drifts with the machine, so the target is
measured in ``--rounds`` rounds of the bare client and the bot side by side, and the
median of the rounds' ratios is the figure: each round's ratio is printed, with the median
and range of the rounds.
``--while-searching`` keeps a search of Dispatch's running in another process throughout
(both sides meet it). The load is printed before and after. The emulator runs in this
process, so its check of every body against Discord's OpenAPI description would be
charged to the bot alone (the bare client sends no body to check): the bench turns that
check off unless ``--validate`` is given. The tests keep it on.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rules
from bot.config import Config
from bot.discord_app import create_bot
from tests.discord_helpers import choices_of, pick, register_test_game, table, version_of
from tests.emulator import Channel, Emulator, Message, User
from tests.emulator.latency import measure_click_latency


class AckClient(discord.Client):
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is discord.InteractionType.component:
            await interaction.response.defer()


def stats(samples_s: list[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in samples_s)
    pct = statistics.quantiles(ms, n=100, method="inclusive") if len(ms) > 1 else ms * 99
    return {"n": len(ms), "median_ms": statistics.median(ms), "p99_ms": pct[98]}


#: The bot's table post the 'My prompt' figures click, kept so the bare client can be
#: measured answering a click on the very same message (its parsing is part of the cost).
CLICKED: dict[str, Any] = {}


#: The last action prompt (a DM with buttons and the hand image) the action figures
#: clicked, for the bare client to answer a click on a copy of it.
CLICKED_ACTION: dict[str, Any] = {}


def remember(into: dict[str, Any], message: Any, custom_id: str) -> None:
    into.update(
        content=message.content,
        components=message.components,
        embeds=message.embeds,
        attachments=message.attachments,
        custom_id=custom_id,
    )


async def bench_floor(
    clicks: int, isolated: bool = False, clicked: dict[str, Any] | None = None
) -> dict[str, Any]:
    clicked = CLICKED if clicked is None else clicked

    async def same_message(emu: Emulator, bot: Any, channel: Any, user: Any) -> tuple[Any, str]:
        post = emu.inject_message(
            channel, clicked["content"], components=clicked["components"], embeds=clicked["embeds"]
        )
        post.attachments = list(clicked["attachments"])
        return post, clicked["custom_id"]

    return await measure_click_latency(
        lambda: AckClient(intents=discord.Intents.default()),
        clicks,
        isolated=isolated,
        setup=same_message if clicked else None,
    )


def messages_of_games(emu: Emulator, channel: Any) -> list[Any]:
    """The messages of a channel and of its threads (each game is in a thread of its own)."""
    threads = [c.id for c in emu.world.channels.values() if c.parent_id == channel.id]
    return [m for cid in (channel.id, *threads) for m in emu.channel_messages(cid)]


#: ``--while-searching``: a search of Dispatch's (Lincoln, hard budgets) kept running in
#: another process during every measurement, as a worker's or a hint's would.
SEARCH_LOOP = """
import sys
sys.path.insert(0, sys.argv[1])
from rules import get_game
from rules.ai.ismcts import search
game = get_game("lincoln")
state = game.setup(seed=3, options={})
role = game.active_roles(state)[0]
view = game.view(state, role)
while True:
    search(game, view, seed=1, iterations=5000)
"""


@contextlib.contextmanager
def searching(on: bool) -> Iterator[None]:
    """A search running in another process while the block runs (when ``on``)."""
    if not on:
        yield
        return
    root = str(Path(__file__).resolve().parents[1])
    process = subprocess.Popen([sys.executable, "-c", SEARCH_LOOP, root])
    try:
        yield
    finally:
        process.terminate()
        process.wait()


async def bench_bot_ack(clicks: int, workdir: Path, isolated: bool = False) -> dict[str, Any]:
    register_test_game()

    def factory() -> discord.Client:
        config = Config(
            token="emulator.bot.token",
            db_path=workdir / "ack.sqlite3",
            dev_guild_id=None,
            log_level="WARNING",
        )
        bot: discord.Client = create_bot(config, delivery_interval=0.5)
        return bot

    async def setup(
        emu: Emulator, bot: discord.Client, channel: Channel, user: User
    ) -> tuple[Message, str]:
        guild = emu.world.channel_guild(channel)
        assert guild is not None  # the measuring channel is a server's
        opponent = emu.add_member(guild, "opponent")
        await emu.wait_for_commands("game")
        result = await emu.slash(user, channel, "game new", game="skirmish", opponent=opponent)
        await result.response()
        # The game opens a thread of the channel: its table post is there.
        [post] = [m for m in messages_of_games(emu, channel) if "dsp:h:" in str(m.components)]
        remember(CLICKED, post, post.custom_ids()[0])
        return post, post.custom_ids()[0]

    return await measure_click_latency(factory, clicks, setup=setup, isolated=isolated)


async def bench_bot_actions(
    actions: int, workdir: Path, game: str
) -> tuple[dict[str, float], dict[str, float]]:
    """Play ``game`` by DM buttons (rendering boards and hands as in production): stats
    of (the whole click, its acknowledgement). Each click waits until the bot has
    finished the previous one, as a player's does."""
    register_test_game()
    rng = random.Random(5)
    samples: list[float] = []
    acks: list[float] = []
    roles = rules.get_game(game).roles
    seats = dict(zip(roles, ("alice", "bob"), strict=True))
    (workdir / game).mkdir(parents=True, exist_ok=True)  # the table's store is made there
    async with table(workdir / game, "alice", "bob") as t:
        await t.start()
        while len(samples) < actions:
            await t.slash("alice", "game new", game=game, opponent=t.players["bob"])
            info = await t.bot.manager.game_in_channel(str(t.channel.id))
            while info is not None and info.status == "active" and len(samples) < actions:
                role = rng.choice(info.active_roles)
                who = seats[role]
                uid = t.players[who].id
                msgs = [t.emu.message(m.id) for m in t.emu.dms(uid)]
                msgs = [m for m in msgs if version_of(m) is not None]
                prompt = max(msgs, key=lambda m: (version_of(m), m.id))
                choice = pick(choices_of(prompt), rng)
                if choice[1] is None:  # a button: the bare client's clicks copy it
                    remember(CLICKED_ACTION, prompt, choice[0])
                started = time.perf_counter()
                result = await t.press(who, prompt, *choice)
                samples.append(time.perf_counter() - started)
                if result.record.ack_latency is not None:
                    acks.append(result.record.ack_latency)
                info = await t.bot.manager.get_game_info(info.id)
    return stats(samples), stats(acks)


async def actions_as_a_player(
    actions: int, rounds: int, workdir: Path, game: str
) -> list[tuple[float, float]]:
    """The target for action buttons: the acknowledgement of action clicks against the bare client
    answering clicks on a copy of the same prompt, side by side in ``rounds`` rounds
    (alternating order), as ``as_a_player`` does for the "My prompt" button."""
    ratios: list[tuple[float, float]] = []
    for number in range(rounds):
        folder = workdir / f"actions{number}"
        folder.mkdir()
        if number % 2:
            _, ack = await bench_bot_actions(actions, folder, game)
            floor = await bench_floor(actions, isolated=True, clicked=CLICKED_ACTION)
        else:
            if not CLICKED_ACTION:
                await bench_bot_actions(1, folder / "first", game)  # a prompt to copy
            floor = await bench_floor(actions, isolated=True, clicked=CLICKED_ACTION)
            _, ack = await bench_bot_actions(actions, folder, game)
        ratios.append((ack["median_ms"] / floor["median_ms"], ack["p99_ms"] / floor["p99_ms"]))
    return ratios


async def as_a_player(clicks: int, rounds: int, workdir: Path) -> list[tuple[float, float]]:
    """The target figure, in ``rounds`` rounds: the bare client and the bot measured back
    to back (in alternating order), so drift in a shared machine's speed between the two
    measurements weighs on one round, not on the result. Each round gives the bot's
    (median, p99) over the bare client's."""
    ratios: list[tuple[float, float]] = []
    for number in range(rounds):
        folder = workdir / f"alone{number}"
        folder.mkdir()
        if number % 2:
            ack = await bench_bot_ack(clicks, folder, isolated=True)
            floor = await bench_floor(clicks, isolated=True)
        else:
            floor = await bench_floor(clicks, isolated=True)
            ack = await bench_bot_ack(clicks, folder, isolated=True)
        ratios.append((ack["median_ms"] / floor["median_ms"], ack["p99_ms"] / floor["p99_ms"]))
    return ratios


def paired(ratios: list[tuple[float, float]]) -> str:
    """Each round's ratios (median/p99), then the median and range of the rounds' medians."""
    each = ", ".join(f"{m:.2f}/{p:.2f}" for m, p in ratios)
    medians = [m for m, _ in ratios]
    return (
        f"per round (median/p99): {each}; median of the rounds {statistics.median(medians):.2f}x"
        f" (range {min(medians):.2f}-{max(medians):.2f}), p99"
        f" {statistics.median(p for _, p in ratios):.2f}x"
    )


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} (5 min {five:.1f})"


async def run(clicks: int, actions: int, rounds: int, while_searching: bool = False) -> None:
    print(f"before: {load()}" + ("; a search runs in another process" if while_searching else ""))
    with tempfile.TemporaryDirectory() as tmp, searching(while_searching):
        ack = await bench_bot_ack(clicks, Path(tmp))
        floor = await bench_floor(clicks)  # the same message the bot's figures click
        floor_alone = await bench_floor(clicks, isolated=True)
        (Path(tmp) / "alone").mkdir()
        ack_alone = await bench_bot_ack(clicks, Path(tmp) / "alone", isolated=True)
        ratios = await as_a_player(clicks, rounds, Path(tmp))
        acted, acted_ack = await bench_bot_actions(actions, Path(tmp), "skirmish")
        war, war_ack = await bench_bot_actions(actions, Path(tmp), "war")
        action_ratios = await actions_as_a_player(actions, rounds, Path(tmp), "war")
    print(f"click latency through the emulator ({clicks} clicks; {actions} game actions)")
    print(f"  {'':<38} {'median ms':>10} {'p99 ms':>10}")
    rows = [
        ("floor: bare client, ack only", floor["median_ms"], floor["p99_ms"]),
        ("bot: ack of 'My prompt' click", ack["median_ms"], ack["p99_ms"]),
        ("floor, clicks as a player (bot idle)", floor_alone["median_ms"], floor_alone["p99_ms"]),
        ("bot ack, clicks as a player", ack_alone["median_ms"], ack_alone["p99_ms"]),
        ("bot: action click, test game, no images", acted["median_ms"], acted["p99_ms"]),
        ("bot: action click, War, with images", war["median_ms"], war["p99_ms"]),
        ("bot: ack of an action click, test game", acted_ack["median_ms"], acted_ack["p99_ms"]),
        ("bot: ack of an action click, War", war_ack["median_ms"], war_ack["p99_ms"]),
    ]
    for name, median, p99 in rows:
        print(f"  {name:<42} {median:>10.2f} {p99:>10.2f}")
    print(
        f"  bot ack / floor: back to back {ack['median_ms'] / floor['median_ms']:.2f}x median, "
        f"{ack['p99_ms'] / floor['p99_ms']:.2f}x p99"
    )
    print(f"  'My prompt', bot ack / floor (TARGET at most 1.3x), {paired(ratios)}")
    print(f"  War action buttons, bot ack / floor (TARGET at most 1.3x), {paired(action_ratios)}")
    if floor["failures"] or ack["failures"]:
        print(f"  failures: floor {floor['failures']}, bot {ack['failures']}")
    print(f"after: {load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=300)
    parser.add_argument("--actions", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7, help="rounds of the target figure")
    parser.add_argument(
        "--validate", action="store_true", help="check every body against Discord's OpenAPI"
    )
    parser.add_argument(
        "--while-searching",
        action="store_true",
        help="keep a search of Dispatch's running in another process throughout",
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    if not args.validate:
        import tests.emulator.rest as rest
        import tests.emulator.rest_interactions as rest_interactions

        # Each module looks `conform` up when it answers, so patching their names turns
        # validation off; mypy knows it only as conformance.conform, imported into them.
        rest.conform = rest_interactions.conform = lambda *args, **kwargs: None  # type: ignore[attr-defined]
    asyncio.run(run(args.clicks, args.actions, args.rounds, args.while_searching))


if __name__ == "__main__":
    main()
