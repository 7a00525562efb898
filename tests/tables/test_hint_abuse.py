"""``/game hint`` against a player who wants to break the bot.

A hint is a whole search of the normal level (about a CPU second), run in the worker that
also makes Dispatch's moves. Asked again and again at one position it is searched once
(one position always gives the same hint), a player waits for one hint at a time, and a
hint for a decision no longer owed (the asker moved meanwhile, or the game ended) is not
shown (nor counted: it helped nobody); another side's move meanwhile leaves it good."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

import pytest

from bot import errors
from bot.dispatch_players.bots import BotSeats
from bot.tables.bot_users import bot_user
from bot.tables.listeners import SearchRunner
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame
from tests.tables.test_hints import ITERATIONS, play_to_cards

_T = TypeVar("_T")


class WatchedRunner:
    """The bot seats' runner, counting the searches and holding each at ``gate``."""

    def __init__(self, inner: SearchRunner) -> None:
        self.inner = inner
        self.iterations = inner.iterations
        self.calls = 0
        self.gate: Callable[[], Awaitable[None]] | None = None

    async def off_loop(self, game_id: int, call: Callable[[], _T]) -> _T:
        self.calls += 1
        if self.gate is not None:
            await self.gate()
        return await self.inner.off_loop(game_id, call)


async def _game(manager: GameManager, channel: str) -> int:
    """alice (secessionist) against Dispatch, with cards to choose from."""
    info = await manager.create_game(
        "g1",
        channel,
        "alice",
        NewGame("fort_sumter", seat="secessionist", opponent_id=bot_user("easy"), seed=4),
    )
    await play_to_cards(manager, info.id)
    return info.id


async def _watched(manager: GameManager) -> WatchedRunner:
    BotSeats.attach(manager, workers="thread", iterations=ITERATIONS)
    runner = WatchedRunner(manager.searches)
    manager.searches = runner
    return runner


async def test_hints_asked_over_and_over_at_one_position_search_once(
    manager: GameManager,
) -> None:
    runner = await _watched(manager)
    game_id = await _game(manager, "c1")
    first = await asyncio.gather(*(manager.hints.ask(game_id, "alice") for _ in range(6)))
    again = await manager.hints.ask(game_id, "alice")
    assert runner.calls == 1
    assert all(h == again for h in first)
    async with manager.store.read() as db:
        assert await db.hints.hints_used(game_id) == 7  # each hint shown is counted


async def test_a_player_waits_for_one_hint_at_a_time(manager: GameManager) -> None:
    runner = await _watched(manager)
    one, two = await _game(manager, "c1"), await _game(manager, "c2")
    release = asyncio.Event()

    async def held() -> None:  # the first search waits; any other goes through
        if runner.calls == 1:
            await release.wait()

    runner.gate = held
    waiting = asyncio.ensure_future(manager.hints.ask(one, "alice"))
    while runner.calls == 0:
        await asyncio.sleep(0)
    with pytest.raises(errors.HintRefused):
        await manager.hints.ask(two, "alice")
    release.set()
    assert (await waiting).game_id == one
    assert (await manager.hints.ask(two, "alice")).game_id == two
    async with manager.store.read() as db:
        assert await db.hints.hints_used(one) == await db.hints.hints_used(two) == 1


async def test_a_hint_whose_position_changed_meanwhile_is_not_shown_nor_counted(
    manager: GameManager,
) -> None:
    runner = await _watched(manager)
    game_id = await _game(manager, "c1")

    async def alice_moves() -> None:
        pv = await manager.view_for(game_id, "alice")
        verb = next(v for v in pv.view["actions"] if v != "undo")
        args = pv.view["actions"][verb]
        arg = None if args is True else args[0]
        await manager.act(game_id, "alice", Move(verb, arg, pv.version))

    runner.gate = alice_moves
    with pytest.raises(errors.Outdated):
        await manager.hints.ask(game_id, "alice")
    async with manager.store.read() as db:
        assert await db.hints.hints_used(game_id) == 0


async def test_a_hint_in_a_game_played_alone_says_there_is_no_search(
    manager: GameManager,
) -> None:
    """A CDG Solo System session dealt from a secret key is no game between players: the
    refusal says what is true (the search does not play it), not that it is rated."""
    solo = {"playsheet": "paths_of_glory", "side": "central_powers"}
    info = await manager.create_game("g1", "c1", "alice", NewGame("solo", options=solo))
    with pytest.raises(errors.HintRefused) as refused:
        await manager.hints.ask(info.id, "alice")
    assert "no search" in str(refused.value)
    assert "rating" not in str(refused.value)
    async with manager.store.read() as db:
        assert await db.hints.hints_used(info.id) == 0


async def test_a_hint_stays_good_when_only_the_other_side_moved_meanwhile(
    manager: GameManager,
) -> None:
    """Both sides keep an objective at once (a practice game between alice and bob): bob
    keeps his while alice's hint is worked out. Her decision is the same, and the hint,
    from what she knew when she asked, is shown and counted."""
    runner = await _watched(manager)
    info = await manager.create_game(
        "g1", "c1", "alice", NewGame("fort_sumter", seat="secessionist", opponent_id="bob", seed=4)
    )
    before = await manager.view_for(info.id, "alice")
    assert set(info.active_roles) == {"unionist", "secessionist"}

    async def bob_keeps() -> None:
        pv = await manager.view_for(info.id, "bob")
        await manager.act(info.id, "bob", Move("keep", pv.view["actions"]["keep"][0], pv.version))

    runner.gate = bob_keeps
    hint = await manager.hints.ask(info.id, "alice")
    assert hint.version == before.version and hint.choices
    assert (await manager.view_for(info.id, "alice")).version != before.version
    async with manager.store.read() as db:
        assert await db.hints.hints_used(info.id) == 1


async def test_a_hint_is_not_shown_to_a_player_whose_seat_passed_meanwhile(
    manager: GameManager,
) -> None:
    """A moderator gives alice's seat to carol while alice's hint is worked out: alice
    plays no more there, so she gets no hint for carol's decision, nor counts one."""
    runner = await _watched(manager)
    game_id = await _game(manager, "c1")

    async def reseated() -> None:
        await manager.seat_changes.reseat(
            game_id, "secessionist", "carol", "mod", is_moderator=True
        )

    runner.gate = reseated
    with pytest.raises(errors.Outdated):
        await manager.hints.ask(game_id, "alice")
    async with manager.store.read() as db:
        assert await db.hints.hints_used(game_id) == 0
