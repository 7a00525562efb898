"""The Fate Die runs only Dispatch's side, or a side whose player asked.

Found by careful play: ``/game new ... opponent:@bob options:fate=<bob's side>`` started at
once with Bob's hand run by the die and two of his cards face up on the table. The ruling
is in ``bot.tables.lobby``'s docstring.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from conftest import FakeClock, RecordingFrontEnd

from bot import errors
from bot.dispatch_players.bots import BotSeats
from bot.tables.bot_users import bot_user
from bot.tables.manager import GameManager
from bot.tables.requests import NewGame

GAMES = [("fort_sumter", "unionist", "secessionist"), ("lincoln", "union", "confederate")]


@pytest.fixture
async def fate_manager(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock
) -> AsyncIterator[GameManager]:
    m = await GameManager.open(db_path, front_end, clock=clock)
    BotSeats.attach(m, workers="thread")
    yield m
    await m.close()


async def games_in(manager: GameManager) -> int:
    async with manager.store.read() as db:
        return len(await db.lobby.games_of_user("alice"))


@pytest.mark.parametrize(("name", "mine", "theirs"), GAMES)
async def test_the_die_may_not_be_forced_on_an_opponent(
    fate_manager: GameManager, name: str, mine: str, theirs: str
) -> None:
    with pytest.raises(errors.BadOptions) as refused:
        await fate_manager.create_game(
            "g1",
            "c1",
            "alice",
            NewGame(name, options={"fate": theirs}, seat=mine, opponent_id="bob"),
        )
    said = str(refused.value)
    assert "<@bob>" in said and "Dispatch" in said and "style fate" in said
    assert await games_in(fate_manager) == 0  # nothing was created, nothing posted


@pytest.mark.parametrize(("name", "mine", "theirs"), GAMES)
async def test_the_die_may_run_dispatchs_side_or_your_own(
    fate_manager: GameManager, name: str, mine: str, theirs: str
) -> None:
    dispatch = bot_user("easy")
    info = await fate_manager.create_game(
        "g1",
        "c1",
        "alice",
        NewGame(name, options={"fate": theirs}, seat=mine, opponent_id=dispatch),
    )
    assert info.status == "active"
    own = await fate_manager.create_game(
        "g1", "c2", "alice", NewGame(name, options={"fate": mine}, seat=mine, opponent_id="bob")
    )
    assert own.status == "active"  # alice asked for the die on her own side


async def test_a_person_cannot_take_the_dies_open_seat_but_dispatch_can(
    fate_manager: GameManager,
) -> None:
    lobby = await fate_manager.create_game(
        "g1",
        "c1",
        "alice",
        NewGame("fort_sumter", options={"fate": "secessionist"}, seat="unionist"),
    )
    with pytest.raises(errors.SeatRefused):
        await fate_manager.join(lobby.id, "bob", "secessionist")
    with pytest.raises(errors.SeatRefused):
        await fate_manager.join(lobby.id, "bob", None)
    info = await fate_manager.get_game_info(lobby.id)
    assert info.status == "lobby" and [s.user_id for s in info.seats] == ["alice"]
    started = await fate_manager.seat_dispatch(lobby.id, "alice", "easy")
    assert started.status == "active"


async def test_a_hotseat_table_may_hand_any_side_to_the_die(fate_manager: GameManager) -> None:
    info = await fate_manager.create_game(
        "sandbox",
        "c1",
        "you",
        NewGame(
            "lincoln",
            options={"fate": "confederate"},
            seat="union",
            opponent_id="you",
            hotseat=True,
        ),
    )
    assert info.status == "active"


async def test_a_rematch_keeps_the_die_with_the_player_who_asked_for_it(
    fate_manager: GameManager,
) -> None:
    first = await fate_manager.create_game(
        "g1",
        "c1",
        "alice",
        NewGame("lincoln", options={"fate": "union"}, seat="union", opponent_id="bob"),
    )
    await fate_manager.resign(first.id, "bob")
    again = await fate_manager.rematch(first.id, "bob", "swap")  # bob opens it this time
    assert again.status == "active"
    alice_now = next(s.role for s in again.seats if s.user_id == "alice")
    state = await fate_manager.records.replay(again.id)
    assert alice_now == "confederate" and state["options"]["fate"] == "confederate"
