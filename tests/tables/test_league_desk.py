"""The leagues desk before the start: a league created, joined and left, and every
refusal of those (another server's league, a non moderator, a full league, after the
entry deadline, twice), each changing nothing."""

from __future__ import annotations

import pytest
from conftest import FakeClock

from bot import errors
from bot.tables.bot_users import bot_user
from bot.tables.leagues.entrants import Outcome
from bot.tables.leagues.posts import result_words
from bot.tables.leagues.records import LeagueSpec
from bot.tables.manager import GameManager

SPEC = LeagueSpec(name="Autumn cup", game_name="toy", format="round_robin", entry_days=2.0)


async def test_a_league_is_created_joined_and_left(manager: GameManager) -> None:
    desk = manager.leagues
    league = await desk.create("g", "chan", "mod", SPEC, may_run=True)
    assert (league.status, league.round_number, league.entrants) == ("entry", 0, ())
    assert league.spec == SPEC and league.guild_id == "g" and league.channel_id == "chan"
    await desk.join(league.id, "g", "alice")
    joined = await desk.join(league.id, "g", "bob")
    assert [(e.player, e.rating, e.status) for e in joined.entrants] == [
        ("alice", 1500.0, "in"),
        ("bob", 1500.0, "in"),
    ]
    left = await desk.leave(league.id, "g", "alice")
    assert [e.player for e in left.entrants] == ["bob"]
    assert [x.id for x in await desk.leagues_here("g")] == [league.id]
    assert await desk.leagues_here("elsewhere") == []


async def test_another_servers_league_is_unknown_in_the_same_words(manager: GameManager) -> None:
    league = await manager.leagues.create("g", "chan", "mod", SPEC, may_run=True)
    with pytest.raises(errors.UnknownLeague, match=f"no league #{league.id} on this server"):
        await manager.leagues.join(league.id, "other", "alice")
    with pytest.raises(errors.UnknownLeague, match="no league #999 on this server"):
        await manager.leagues.info(999, "g")
    assert (await manager.leagues.info(league.id, "g")).entrants == ()


async def test_creating_is_for_moderators_and_bad_values_are_refused(
    manager: GameManager,
) -> None:
    desk = manager.leagues
    with pytest.raises(errors.ModeratorOnly, match="Manage Server, or the server's league role"):
        await desk.create("g", "chan", "alice", SPEC, may_run=False)
    bad = [
        (LeagueSpec("", "toy", "swiss", rounds=3), errors.BadInput),
        (LeagueSpec("x", "chess", "swiss", rounds=3), errors.UnknownGame),
        (LeagueSpec("x", "toy", "ladder"), errors.UnknownWord),
        (LeagueSpec("x", "toy", "swiss"), errors.BadNumber),
        (LeagueSpec("x", "toy", "swiss", rounds=21), errors.BadNumber),
        (LeagueSpec("x", "toy", "round_robin", rounds=3), errors.BadNumber),
        (LeagueSpec("x", "toy", "round_robin", games_per_tie=2), errors.BadNumber),
        (LeagueSpec("x", "toy", "round_robin", entry_days=0.1), errors.BadNumber),
        (LeagueSpec("x", "toy", "round_robin", round_days=91), errors.BadNumber),
        (LeagueSpec("x", "toy", "round_robin", cap=1), errors.BadNumber),
        (LeagueSpec("x", "toy", "round_robin", clock="soon"), errors.UnknownWord),
    ]
    for spec, kind in bad:
        with pytest.raises(kind):
            await desk.create("g", "chan", "mod", spec, may_run=True)
    assert await desk.leagues_here("g") == []


async def test_joins_refused_full_late_twice_and_dispatch_unless_allowed(
    manager: GameManager, clock: FakeClock
) -> None:
    desk = manager.leagues
    small = await desk.create(
        "g", "chan", "mod", LeagueSpec("Duel", "toy", "swiss", rounds=1, cap=2), may_run=True
    )
    await desk.join(small.id, "g", "alice")
    with pytest.raises(errors.LeagueRefused, match="Already entered"):
        await desk.join(small.id, "g", "alice")
    await desk.join(small.id, "g", "bob")
    with pytest.raises(errors.LeagueRefused, match="is full"):
        await desk.join(small.id, "g", "carol")
    with pytest.raises(errors.LeagueRefused, match="may not enter"):
        await desk.enter_dispatch(small.id, "g", "easy", "mod", may_run=True)
    with pytest.raises(errors.ModeratorOnly):
        await desk.enter_dispatch(small.id, "g", "easy", "alice", may_run=False)
    with pytest.raises(errors.LeagueRefused, match="not entered"):
        await desk.leave(small.id, "g", "carol")
    open_to_bots = await desk.create(
        "g",
        "chan",
        "mod",
        LeagueSpec("Bots", "toy", "round_robin", dispatch_may_enter=True),
        may_run=True,
    )
    entered = await desk.enter_dispatch(open_to_bots.id, "g", "easy", "mod", may_run=True)
    assert [e.player for e in entered.entrants] == [bot_user("easy")]
    clock.advance(7 * 86_400.0)
    with pytest.raises(errors.LeagueRefused, match="deadline"):
        await desk.join(open_to_bots.id, "g", "dave")
    assert [e.player for e in (await desk.info(small.id, "g")).entrants] == ["alice", "bob"]


async def test_the_league_role_is_set_by_a_moderator(manager: GameManager) -> None:
    desk = manager.leagues
    assert await desk.league_role("g") is None
    with pytest.raises(errors.ModeratorOnly):
        await desk.set_league_role("g", "r1", by="alice", may_run=False)
    await desk.set_league_role("g", "r1", by="mod", may_run=True)
    assert await desk.league_role("g") == "r1"
    await desk.set_league_role("g", None, by="mod", may_run=True)
    assert await desk.league_role("g") is None


async def test_every_league_act_refuses_another_servers_league_and_non_moderators(
    manager: GameManager,
) -> None:
    desk = manager.leagues
    league = await desk.create("g", "chan", "mod", SPEC, may_run=True)
    for player in ("alice", "bob"):
        await desk.join(league.id, "g", player)
    n = league.id
    elsewhere = [
        desk.join(n, "x", "carol"),
        desk.enter_dispatch(n, "x", "easy", "mod", may_run=True),
        desk.leave(n, "x", "alice"),
        desk.start(n, "x", "mod", may_run=True),
        desk.info(n, "x"),
        desk.standings(n, "x"),
        desk.round(n, "x"),
        desk.games(n, "x"),
        desk.replace(n, "x", "alice", "carol", "mod", may_run=True),
        desk.decide(n, "x", 1, 1, Outcome.DRAW, "mod", "", may_run=True),
        desk.disqualify(n, "x", "alice", "mod", "", may_run=True),
        desk.cancel(n, "x", "mod", may_run=True),
        desk.export(n, "x"),
    ]
    for call in elsewhere:
        with pytest.raises(errors.UnknownLeague):
            await call
    not_a_moderator = [
        desk.start(n, "g", "alice", may_run=False),
        desk.replace(n, "g", "alice", "carol", "bob", may_run=False),
        desk.decide(n, "g", 1, 1, Outcome.DRAW, "bob", "", may_run=False),
        desk.disqualify(n, "g", "alice", "bob", "", may_run=False),
        desk.cancel(n, "g", "bob", may_run=False),
    ]
    for call in not_a_moderator:
        with pytest.raises(errors.ModeratorOnly):
            await call
    with pytest.raises(errors.LeagueRefused, match="has not started: no round yet"):
        await desk.round(n, "g")
    info = await desk.info(n, "g")
    assert (info.status, [e.player for e in info.entrants]) == ("entry", ["alice", "bob"])
    started = await desk.start(n, "g", "mod", may_run=True)
    with pytest.raises(errors.LeagueRefused, match="already started"):
        await desk.start(n, "g", "mod", may_run=True)
    with pytest.raises(errors.LeagueRefused, match="has started"):
        await desk.join(n, "g", "carol")
    assert started.number == 1


async def test_a_league_needs_two_entrants_to_start(manager: GameManager) -> None:
    league = await manager.leagues.create("g", "chan", "mod", SPEC, may_run=True)
    await manager.leagues.join(league.id, "g", "alice")
    with pytest.raises(errors.LeagueRefused, match="needs two players"):
        await manager.leagues.start(league.id, "g", "mod", may_run=True)
    assert (await manager.leagues.info(league.id, "g")).status == "entry"


async def test_entering_a_league_that_is_over_says_why(manager: GameManager) -> None:
    # A cancelled league's entries are closed because it was cancelled, not "started".
    desk = manager.leagues
    league = await desk.create("g", "chan", "mod", SPEC, may_run=True)
    await desk.cancel(league.id, "g", "mod", may_run=True)
    with pytest.raises(errors.LeagueRefused, match="Autumn cup was cancelled: its entries"):
        await desk.join(league.id, "g", "alice")
    assert (await desk.info(league.id, "g")).entrants == ()


def test_a_result_is_told_as_a_sentence_about_the_players() -> None:
    told = {outcome: result_words("1", "2", outcome) for outcome in Outcome}
    assert told == {
        Outcome.FIRST_WINS: "<@1> beat <@2>.",
        Outcome.SECOND_WINS: "<@2> beat <@1>.",
        Outcome.DRAW: "<@1> and <@2> drew.",
        Outcome.FIRST_FORFEITS: "<@1> forfeited to <@2>.",
        Outcome.SECOND_FORFEITS: "<@2> forfeited to <@1>.",
    }
    assert result_words("1", bot_user("easy"), Outcome.SECOND_WINS) == (
        "Dispatch (easy) beat <@1>."
    )
