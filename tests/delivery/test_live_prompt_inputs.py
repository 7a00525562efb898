"""Where a player's live prompt is kept takes only a game's number, a player and a
message's place: anything else is refused politely, never a raw ``TypeError`` or
``IndexError``, and changes nothing."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot import errors
from bot.tables.manager import GameManager
from bot.tables.requests import NewGame
from bot.tables.validate import MAX_GAME_ID

PLACE = ("111111111111111111", "222222222222222222")

BAD_GAMES: dict[str, Any] = {
    "text": "abc",
    "digits as text": "12",
    "None": None,
    "a list": [1],
    "1.5": 1.5,
    "True": True,
    "0": 0,
    "-1": -1,
    "2**63": 2**63,
    "of 5000 digits": 10**5000,
}

#: Places that are not a (channel id, message id) pair of Discord ids.
BAD_PLACES: list[Any] = [
    "ab",  # two letters: once read as channel "a", message "b"
    "12",
    ("1",),
    ("1", "2", "3"),
    (),
    (1, 2),
    [1, 2],
    (None, None),
    ("", "2"),
    ("1", ""),
    ("x", "2"),
    ("1" * 21, "2"),
    ("\ud800", "2"),
    ("-1", "2"),
    ("1.5", "2"),
    ("٣", "2"),  # an Arabic-Indic digit: a digit to str.isdigit, no Discord id
    ("1\n", "2"),
    ({"1": "2"}, "3"),
    {"1": "2", "3": "4"},
    b"12",
    12,
    True,
]


async def prompts_table(manager: GameManager) -> list[tuple[Any, ...]]:
    async with manager.store.read() as db:
        return sorted(tuple(r) for r in await db._all("SELECT * FROM live_prompts"))


async def kept_game(manager: GameManager) -> int:
    info = await manager.create_game("g1", "c1", "alice", NewGame("toy", seed=5, seat="north"))
    await manager.prompts.set_live(info.id, "alice", PLACE)
    return info.id


def errors_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_kept_place_reads_back(manager: GameManager) -> None:
    game_id = await kept_game(manager)
    assert await manager.prompts.live(game_id) == {"alice": PLACE}
    await manager.prompts.set_live(game_id, "alice", list(PLACE))  # JSON's pair: a list
    assert await manager.prompts.live(game_id) == {"alice": PLACE}
    await manager.prompts.set_live(game_id, "alice", None)
    assert await manager.prompts.live(game_id) == {}


@pytest.mark.parametrize("place", BAD_PLACES, ids=repr)
async def test_a_bad_place_is_refused_politely_and_changes_nothing(
    manager: GameManager, caplog: pytest.LogCaptureFixture, place: Any
) -> None:
    game_id = await kept_game(manager)
    before = await prompts_table(manager)
    with pytest.raises(errors.Malformed):
        await manager.prompts.set_live(game_id, "alice", place)
    assert await prompts_table(manager) == before
    assert errors_logged(caplog) == []


@pytest.mark.parametrize("game", BAD_GAMES.values(), ids=BAD_GAMES.keys())
async def test_a_bad_game_number_is_refused_politely_and_changes_nothing(
    manager: GameManager, caplog: pytest.LogCaptureFixture, game: Any
) -> None:
    await kept_game(manager)
    before = await prompts_table(manager)
    with pytest.raises(errors.GameNotFound):
        await manager.prompts.live(game)
    with pytest.raises(errors.GameNotFound):
        await manager.prompts.set_live(game, "alice", PLACE)
    assert await prompts_table(manager) == before
    assert errors_logged(caplog) == []


@pytest.mark.parametrize("user", [7, None, "", "x" * 101, ["alice"]], ids=repr)
async def test_a_bad_player_is_refused_politely(manager: GameManager, user: Any) -> None:
    game_id = await kept_game(manager)
    before = await prompts_table(manager)
    with pytest.raises(errors.BadInput):
        await manager.prompts.set_live(game_id, user, PLACE)
    assert await prompts_table(manager) == before


@pytest.mark.parametrize("game", [999, MAX_GAME_ID])
async def test_a_game_there_is_not_has_no_prompts_and_keeps_none(
    manager: GameManager, game: int
) -> None:
    await kept_game(manager)
    before = await prompts_table(manager)
    assert await manager.prompts.live(game) == {}
    with pytest.raises(errors.GameNotFound):
        await manager.prompts.set_live(game, "alice", PLACE)
    assert await prompts_table(manager) == before
