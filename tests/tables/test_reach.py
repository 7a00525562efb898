"""Which games a game number reaches (``bot.tables.reach``): from a server, that server's
games only; from a DM (no server), only the games the asker plays or passed a seat of.
Anything else is refused in the words of a number no game has. On both engines."""

from __future__ import annotations

import pytest

from bot import errors
from bot.tables.manager import GameManager
from bot.tables.requests import NewGame


async def _refused(manager: GameManager, game: int, user: str, guild: str | None) -> str:
    with pytest.raises(errors.GameNotFound) as refused:
        await manager.game_in_reach(game, user, guild)
    return str(refused.value)


async def test_from_a_server_a_number_reaches_that_servers_games_only(
    manager: GameManager,
) -> None:
    ours = await manager.create_game("g1", "c1", "alice", NewGame("toy", seed=1, opponent_id="bob"))
    theirs = await manager.create_game("g2", "c2", "carol", NewGame("toy", seed=1))
    in_dms = await manager.create_game(None, "d1", "alice", NewGame("toy", seed=1))
    for who in ("alice", "mod"):  # a player of it, or anyone else on its server
        assert (await manager.game_in_reach(ours.id, who, "g1")).id == ours.id
    unknown = await _refused(manager, 999_999, "alice", "g1")
    assert unknown == "Game #999999 was not found."
    for game, who in ((theirs.id, "alice"), (theirs.id, "carol"), (in_dms.id, "alice")):
        # Another server's game, even for its own player typing here; a game of DMs too.
        assert await _refused(manager, game, who, "g1") == f"Game #{game} was not found."


async def test_from_a_dm_a_number_reaches_the_askers_own_games_only(
    manager: GameManager,
) -> None:
    game = await manager.create_game("g1", "c1", "alice", NewGame("toy", seed=1, opponent_id="bob"))
    solo = await manager.create_game(None, "d1", "dora", NewGame("toy", seed=1))
    assert (await manager.game_in_reach(game.id, "bob", None)).id == game.id
    assert (await manager.game_in_reach(solo.id, "dora", None)).id == solo.id
    for number, who in ((game.id, "mod"), (solo.id, "alice")):
        assert await _refused(manager, number, who, None) == f"Game #{number} was not found."
    # A seat passed on still reaches its game, so an old prompt can say it is no longer theirs.
    offer = await manager.seat_changes.offer(game.id, "alice", "carol")
    await manager.seat_changes.answer(game.id, offer.id, "carol", accept=True)
    assert (await manager.game_in_reach(game.id, "alice", None)).id == game.id
    assert (await manager.game_in_reach(game.id, "carol", None)).id == game.id


@pytest.mark.parametrize("bad", [0, -1, 2**63, "c1", None, 1.0, True])
async def test_a_number_that_is_no_game_number_is_refused_as_unknown(
    manager: GameManager, bad: object
) -> None:
    await manager.create_game("g1", "c1", "alice", NewGame("toy", seed=1))
    with pytest.raises(errors.GameNotFound):
        await manager.game_in_reach(bad, "alice", "g1")  # type: ignore[arg-type]
