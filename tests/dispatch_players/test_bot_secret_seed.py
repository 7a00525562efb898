"""Dispatch's search seed is no public formula (no peeking, either way).

Dispatch's move is a fixed function of its view and its search seed. Were the seed made
from the game's number and the role alone, a player with the source could run Dispatch's
own search on each hand Dispatch might hold and keep the hands that give the move it
made: late in a game, a few CPU seconds tell which cards it holds. In a game dealt from a
secret key the seed is made with that key too, so nobody at the table can reproduce the
search; the same game still gets the same seed (the same move for the same view on any
machine). A game dealt from a chosen seed has no secret to hide: anyone who knows the
seed knows every card."""

from __future__ import annotations

from bot.dispatch_players import decision
from bot.dispatch_players.bots import BotSeats
from bot.dispatch_players.seeding import search_seed
from bot.tables.bot_users import bot_user
from bot.tables.manager import GameManager
from bot.tables.requests import NewGame

KEY = "ab" * 32


def test_the_seed_of_a_keyed_game_takes_its_secret_key() -> None:
    public = search_seed(7, "unionist")
    assert search_seed(7, "unionist", None) == public
    keyed = search_seed(7, "unionist", KEY)
    assert keyed != public
    assert keyed == search_seed(7, "unionist", KEY)  # the same game, the same seed
    assert keyed != search_seed(7, "unionist", "cd" * 32)
    assert keyed != search_seed(7, "secessionist", KEY)


async def _dispatch_seed(manager: GameManager, **kwargs: object) -> tuple[int, int, str]:
    """Dispatch (normal) plays unionist against alice; the seed its search was given."""
    decision._PLAYERS.clear()  # players kept by another test's game of the same number
    BotSeats.attach(manager, workers="thread", iterations=20)
    info = await manager.create_game(
        "g1",
        "c1",
        "alice",
        NewGame("fort_sumter", seat="secessionist", opponent_id=bot_user("normal"), **kwargs),
    )
    await BotSeats.of(manager).idle()
    player = decision._PLAYERS[(info.id, "unionist", "normal")]
    assert isinstance(player, decision.SearchPlayer) and player.searches >= 1
    return info.id, player.seed, "unionist"


async def test_dispatch_searches_a_keyed_game_with_a_seed_no_player_can_work_out(
    manager: GameManager,
) -> None:
    game_id, seed, role = await _dispatch_seed(manager)
    async with manager.store.read() as db:
        key = await db.game_key(game_id)
    assert key is not None
    assert seed != search_seed(game_id, role)
    assert seed == search_seed(game_id, role, key)


async def test_a_chosen_seed_game_keeps_the_public_seed(manager: GameManager) -> None:
    game_id, seed, role = await _dispatch_seed(manager, seed=12)
    assert seed == search_seed(game_id, role)
