"""The other formats and ways a league game ends: a single elimination and a double
round robin played out, an abandoned league game, a game ended by the rules (rated, or
not in an unrated league), and the background loop passing an entry deadline."""

from __future__ import annotations

import asyncio
import random

import pytest
from conftest import FakeClock

from bot.tables.leagues.entrants import Outcome
from bot.tables.leagues.port import LocalRoom
from bot.tables.leagues.records import LeagueInfo, LeaguePost, LeagueSpec
from bot.tables.manager import GameManager
from bot.tables.requests import Move


async def _league(manager: GameManager, spec: LeagueSpec, players: tuple[str, ...]) -> int:
    league = await manager.leagues.create("g", "chan", "mod", spec, may_run=True)
    for player in players:
        await manager.leagues.join(league.id, "g", player)
    return league.id


async def _resign_all(manager: GameManager, league_id: int, winner: str) -> None:
    """Play every round out: ``winner`` wins each of their games, the second side the rest."""
    while (await manager.leagues.info(league_id, "g")).status == "running":
        for game in (await manager.leagues.round(league_id, "g")).games:
            if game.outcome is None and game.game_id is not None:
                loser = game.first if game.second == winner else game.second
                await manager.resign(game.game_id, loser)


async def test_an_elimination_of_five_gives_the_top_seeds_byes_and_ends_at_the_final(
    manager: GameManager,
) -> None:
    players = ("p1", "p2", "p3", "p4", "p5")
    league_id = await _league(manager, LeagueSpec("Cup", "toy", "elimination"), players)
    await manager.leagues.start(league_id, "g", "mod", may_run=True)
    first = await manager.leagues.round(league_id, "g")
    assert len(first.games) == 1 and len(first.byes) == 3  # a bracket of 8
    await _resign_all(manager, league_id, "p5")
    info = await manager.leagues.info(league_id, "g")
    assert (info.status, info.round_number) == ("finished", 3)
    games = await manager.leagues.games(league_id, "g", "p5")
    assert len(games) == 3  # p5 won through every round, to the final
    assert [g.round for g in await manager.leagues.games(league_id, "g")] == [1, 2, 2, 3]


async def test_a_two_game_tie_plays_each_side(manager: GameManager) -> None:
    spec = LeagueSpec("Ties", "toy", "elimination", games_per_tie=2)
    league_id = await _league(manager, spec, ("p1", "p2"))
    await manager.leagues.start(league_id, "g", "mod", may_run=True)
    one, two = (await manager.leagues.round(league_id, "g")).games
    assert (one.first, one.second) == (two.second, two.first)
    await _resign_all(manager, league_id, "p2")
    table = await manager.leagues.standings(league_id, "g")
    assert [(s.player, s.points) for s in table] == [("p2", 2.0), ("p1", 0.0)]


async def test_a_double_round_robin_of_three_plays_each_pairing_on_both_sides(
    manager: GameManager,
) -> None:
    spec = LeagueSpec("Double", "toy", "double_round_robin")
    league_id = await _league(manager, spec, ("a", "b", "c"))
    await manager.leagues.start(league_id, "g", "mod", may_run=True)
    await _resign_all(manager, league_id, "a")
    games = await manager.leagues.games(league_id, "g")
    assert len(games) == 6
    assert {(g.first, g.second) for g in games} == {(x, y) for x in "abc" for y in "abc" if x != y}
    table = await manager.leagues.standings(league_id, "g")
    assert table[0].player == "a" and table[0].points == 4 + 2  # four wins, two byes


async def test_an_abandoned_league_game_is_a_draw(manager: GameManager) -> None:
    league_id = await _league(manager, LeagueSpec("Drawn", "toy", "round_robin"), ("a", "b"))
    await manager.leagues.start(league_id, "g", "mod", may_run=True)
    (game,) = (await manager.leagues.round(league_id, "g")).games
    assert game.game_id is not None
    await manager.abandon(game.game_id, "mod", is_moderator=True)
    (after,) = (await manager.leagues.round(league_id, "g", 1)).games
    assert after.outcome is Outcome.DRAW and after.decided_by is None
    assert (await manager.leagues.info(league_id, "g")).status == "finished"


async def _play_to_end(manager: GameManager, game_id: int) -> None:
    chooser = random.Random(7)
    while (info := await manager.get_game_info(game_id)).status == "active":
        role = chooser.choice(info.active_roles)
        user = info.seat_of(role).user_id  # type: ignore[union-attr]
        pv = await manager.view_for(game_id, user, role=role)
        choices = [
            (verb, arg)
            for verb, args in pv.view["actions"].items()
            if verb != "undo"
            for arg in (args if isinstance(args, list) else [None])
        ]
        verb, arg = chooser.choice(choices)
        await manager.act(game_id, user, Move(verb, arg, expected_version=pv.version, role=role))


@pytest.mark.parametrize("rated", [True, False])
async def test_a_game_ended_by_the_rules_counts_and_is_rated_as_its_league_is(
    manager: GameManager, rated: bool
) -> None:
    spec = LeagueSpec("Rules", "toy", "round_robin", rated=rated)
    league_id = await _league(manager, spec, ("a", "b"))
    await manager.leagues.start(league_id, "g", "mod", may_run=True)
    (game,) = (await manager.leagues.round(league_id, "g")).games
    assert game.game_id is not None
    await _play_to_end(manager, game.game_id)
    ended = await manager.get_game_info(game.game_id)
    async with manager.store.read() as db:
        row = await db.game(game.game_id)
        result = await db.records.rating_changes(game.game_id)
        unrated = await db.leagues.in_unrated_league(game.game_id)
    assert row is not None and ended.status == "finished"
    (after,) = (await manager.leagues.round(league_id, "g", 1)).games
    assert after.outcome in (Outcome.FIRST_WINS, Outcome.SECOND_WINS, Outcome.DRAW)
    assert (await manager.leagues.info(league_id, "g")).status == "finished"
    assert unrated is not rated
    assert bool(result) is rated  # an unrated league's game moves no rating


async def test_the_background_loop_starts_a_league_at_its_entry_deadline(
    manager: GameManager, clock: FakeClock
) -> None:
    stop = asyncio.Event()

    class StoppingRoom(LocalRoom):
        async def post(self, league: LeagueInfo, post: LeaguePost) -> None:
            await super().post(league, post)
            if post.kind == "round":
                stop.set()  # one pass is enough

    room = StoppingRoom()
    manager.leagues.attach_room(room)
    spec = LeagueSpec("Auto", "toy", "round_robin", entry_days=1.0)
    league_id = await _league(manager, spec, ("a", "b", "c", "d"))
    lonely = await _league(
        manager, LeagueSpec("Alone", "toy", "swiss", rounds=2, entry_days=1.0), ("z",)
    )
    clock.advance(86_400.0)
    await manager.background.run(60.0, stop=stop)
    started = await manager.leagues.round(league_id, "g")
    assert started.number == 1 and all(g.game_id is not None for g in started.games)
    assert (await manager.leagues.info(lonely, "g")).status == "cancelled"
    assert [p.kind for p in room.posts].count("round") == 1


async def test_a_player_disqualified_before_the_start_is_left_out_of_the_bracket(
    manager: GameManager,
) -> None:
    league_id = await _league(manager, LeagueSpec("Seeds", "toy", "elimination"), ("a", "b", "c"))
    await manager.leagues.disqualify(league_id, "g", "b", "mod", "", may_run=True)
    await manager.leagues.start(league_id, "g", "mod", may_run=True)
    info = await manager.leagues.info(league_id, "g")
    assert [e.player for e in info.entrants] == ["a", "c"]
    (final,) = (await manager.leagues.round(league_id, "g")).games
    assert {final.first, final.second} == {"a", "c"}
    await _resign_all(manager, league_id, "c")
    assert (await manager.leagues.info(league_id, "g")).status == "finished"


async def test_a_room_that_fails_leaves_the_pairing_to_be_opened_after_its_lease(
    manager: GameManager, clock: FakeClock
) -> None:
    class Failing(LocalRoom):
        down = True

        async def open_table(self, league: LeagueInfo, game: object, name: str) -> str:  # type: ignore[override]
            if self.down:
                raise RuntimeError("no permission to open threads")
            return await super().open_table(league, game, name)  # type: ignore[arg-type]

    room = Failing()
    manager.leagues.attach_room(room)
    league_id = await _league(manager, LeagueSpec("Down", "toy", "round_robin"), ("a", "b"))
    await manager.leagues.start(league_id, "g", "mod", may_run=True)
    assert await manager.leagues.open_pending() == 0  # claimed, failed: not tried at once
    room.down = False
    assert await manager.leagues.open_pending() == 0  # its claim holds until the lease ends
    clock.advance(121.0)
    assert await manager.leagues.open_pending() == 1
    assert [p.kind for p in room.posts] == ["lobby", "round"]  # the round post waited


async def test_at_the_round_deadline_the_side_with_less_time_left_loses_even_when_waiting(
    manager: GameManager, clock: FakeClock
) -> None:
    spec = LeagueSpec("Clocks", "toy", "round_robin", clock="relaxed", round_days=1.0)
    league_id = await _league(manager, spec, ("a", "b"))
    await manager.leagues.start(league_id, "g", "mod", may_run=True)
    (game,) = (await manager.leagues.round(league_id, "g")).games
    assert (game.first, game.second) == ("a", "b") and game.game_id is not None
    hour = 3600.0
    clock.advance(1 * hour)  # a (north) spends an hour
    await manager.act(game.game_id, "a", Move("add", 1))
    await manager.act(game.game_id, "a", Move("done"))
    clock.advance(20 * hour)  # b (south) spends twenty
    await manager.act(game.game_id, "b", Move("add", 1))
    await manager.act(game.game_id, "b", Move("done"))
    clock.advance(3 * hour + 1)  # the deadline passes while a is to move
    assert await manager.leagues.pass_deadlines() == 1
    (after,) = (await manager.leagues.round(league_id, "g", 1)).games
    assert after.outcome is Outcome.SECOND_FORFEITS  # b had less time left
