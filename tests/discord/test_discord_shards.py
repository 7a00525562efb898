"""Two Dispatch clients on shards [0] and [1] of 2 against the emulator.

Each client is the real bot on its own shard, as two processes would be; here they share
one process's SQLite store (the single-instance lock is per process). A game is played in
a guild on each shard. Discord sends every DM to shard 0, so the hand prompts of the game
on shard 1 are clicked in DMs and answered by the shard-0 client: any process may act on
any game. A second process on the same SQLite file is refused with the fix named.
"""

from __future__ import annotations

import random
import signal
from pathlib import Path
from typing import Any

import pytest

from bot.config import Config
from bot.discord_app import create_bot
from bot.storage.store import Store, StoreInUse
from tests.discord_helpers import (
    action_components,
    catch_errors,
    choices_of,
    pick,
    register_test_game,
)
from tests.emulator import Emulator, Message, User
from tests.emulator.state import PATIENCE_S
from tests.storage.test_store_health import hold

pytestmark = pytest.mark.slow


def shard_bot(emu: Emulator, db: Path, shard: int) -> Any:
    config = Config(
        token=emu.token,
        db_path=db,
        dev_guild_id=None,
        log_level="INFO",
        shard_ids=(shard,),
        shard_count=2,
    )
    bot = create_bot(
        config,
        delivery_interval=0.05,
        manager_options={"retry_base_s": 0.05, "retry_cap_s": 0.2},
    )
    bot.handled = []  # ids of the interactions this client received

    async def seen(interaction: Any) -> None:
        bot.handled.append(interaction.id)

    bot.add_listener(seen, "on_interaction")
    return bot


def last_prompt(emu: Emulator, user: User) -> Message | None:
    msgs = [emu.message(m.id) for m in emu.dms(user.id) + emu.ephemeral_replies(user.id)]
    with_actions = [m for m in msgs if action_components(m)]
    return max(with_actions, key=lambda m: m.id) if with_actions else None


async def test_two_shard_processes_play_a_game_each_and_dms_go_to_shard_0(
    tmp_path: Path,
) -> None:
    register_test_game()
    db = tmp_path / "dispatch.sqlite3"
    with catch_errors() as errors:
        async with Emulator() as emu:
            home = emu.add_guild("Home", shard=(0, 2))
            away = emu.add_guild("Away", shard=(1, 2))
            tables = {home.id: emu.add_text_channel(home, "games")}
            tables[away.id] = emu.add_text_channel(away, "games")
            seats = {
                home.id: {
                    "north": emu.add_member(home, "alice"),
                    "south": emu.add_member(home, "bob"),
                },
                away.id: {
                    "north": emu.add_member(away, "carol"),
                    "south": emu.add_member(away, "dave"),
                },
            }
            zero, one = shard_bot(emu, db, 0), shard_bot(emu, db, 1)
            async with emu.running(zero), emu.running(one):
                await emu.wait_for_commands("game")
                assert [g.id for g in zero.guilds] == [home.id]
                assert [g.id for g in one.guilds] == [away.id]
                games: dict[int, int] = {}
                threads: dict[int, int] = {}
                for guild_id, channel in tables.items():
                    north, south = seats[guild_id]["north"], seats[guild_id]["south"]
                    result = await emu.slash(
                        north, channel, "game new", game="skirmish", opponent=south, seed=4
                    )
                    [lobby] = await result.response()
                    await emu.world.wait_until(  # completed after the first answer
                        lambda lobby=lobby: "the game is on" in lobby.text(),
                        PATIENCE_S,
                        "the lobby post",
                    )
                    owner = zero if guild_id == home.id else one
                    # The game lives in a thread of the channel.
                    (info,) = await owner.manager.threads.games_living_in(str(channel.id))
                    games[guild_id] = info.id
                    threads[guild_id] = int(info.channel_id)

                rng = random.Random(11)
                for guild_id, game_id in games.items():
                    for _ in range(200):
                        info = await zero.manager.get_game_info(game_id)
                        if info.status != "active":
                            break
                        user = seats[guild_id][info.active_roles[0]]
                        # Its DM goes out from the outbox: on a loaded machine, a moment later.
                        prompt = await emu.world.wait_until(
                            lambda user=user: last_prompt(emu, user),
                            PATIENCE_S,
                            f"a prompt for {user.name}",
                        )
                        cid, value = pick(choices_of(prompt), rng)
                        if value is None:
                            click = await emu.click(user, prompt, cid)
                        else:
                            click = await emu.select(user, prompt, cid, [value])
                        await click.response()
                        assert await zero.wait_idle(PATIENCE_S) and await one.wait_idle(PATIENCE_S)
                    for bot in (zero, one):  # both processes see the game's end
                        info = await bot.manager.get_game_info(game_id)
                        assert info.status == "finished"

                # Both games' last posts arrive (whichever process delivered them).
                for thread_id in threads.values():
                    await emu.world.wait_until(
                        lambda ch=thread_id: "Game over" in emu.channel_messages(ch)[-1].text(),
                        PATIENCE_S,
                        "the end of the game posted",
                    )

            records = emu.interactions
            assert records and all(r.callback_type is not None for r in records)
            dm_clicks = [r for r in records if r.guild is None]
            away_players = {u.id for u in seats[away.id].values()}
            # The hand prompts of the game on shard 1 were clicked in DMs...
            assert any(r.user.id in away_players and r.type == 3 for r in dm_clicks)
            # ...and every DM interaction reached the shard-0 client only.
            assert {r.id for r in dm_clicks} <= set(zero.handled)
            assert not {r.id for r in dm_clicks} & set(one.handled)
            for r in records:
                if r.guild is not None:
                    owner, other = (zero, one) if r.guild.id == home.id else (one, zero)
                    assert r.id in owner.handled and r.id not in other.handled
            assert set(zero.handled).isdisjoint(one.handled)

            # Nothing was delivered twice by the two processes' couriers.
            nonces = [m.nonce for m in emu.world.messages.values() if m.nonce is not None]
            assert len(nonces) == len(set(nonces))
            for thread_id in threads.values():
                posts = [m.text() for m in emu.channel_messages(thread_id)]
                assert sum("begins" in p for p in posts) == 1
                assert sum("Game over" in p for p in posts) == 1
        assert errors.all_errors() == []


async def test_a_second_process_on_one_sqlite_file_is_told_to_use_postgresql(
    tmp_path: Path,
) -> None:
    db = tmp_path / "dispatch.sqlite3"
    other = hold(db)
    try:
        with pytest.raises(StoreInUse) as raised:
            await Store.open(db)
        said = str(raised.value)
        assert "another Dispatch process" in said
        assert "use PostgreSQL for several processes" in said
        assert raised.value.exit_code == 4
    finally:
        other.send_signal(signal.SIGKILL)
        other.wait()
