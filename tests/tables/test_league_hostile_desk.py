"""The leagues desk against a hostile player and a moderator who makes mistakes: numbers
past any stored league, names that hide themselves, exports a spreadsheet would run,
and a refusal that must say what the league's state really is."""

from __future__ import annotations

import csv
import io
import json

import pytest

from bot import errors
from bot.tables.leagues.entrants import Outcome
from bot.tables.leagues.records import LeagueSpec
from bot.tables.manager import GameManager

SPEC = LeagueSpec(name="Winter cup", game_name="toy", format="round_robin")
PAST_ANY_ID = 2**63


async def test_a_cancelled_league_is_not_said_to_have_started(manager: GameManager) -> None:
    desk = manager.leagues
    league = await desk.create("g", "chan", "mod", SPEC, may_run=True)
    await desk.join(league.id, "g", "alice")
    await desk.join(league.id, "g", "bob")
    await desk.cancel(league.id, "g", "mod", may_run=True)
    with pytest.raises(errors.LeagueRefused, match="Winter cup was cancelled"):
        await desk.start(league.id, "g", "mod", may_run=True)
    assert (await desk.info(league.id, "g")).status == "cancelled"


async def test_a_number_past_any_stored_league_round_or_board_names_none(
    manager: GameManager,
) -> None:
    """A forged Join button or a typed number too large to store is no league at all,
    in the same words as any other unknown number, never a fault of the store."""
    desk = manager.leagues
    with pytest.raises(errors.UnknownLeague, match=f"no league #{PAST_ANY_ID} on this server"):
        await desk.join(PAST_ANY_ID, "g", "alice")
    with pytest.raises(errors.UnknownLeague):
        await desk.info(PAST_ANY_ID, "g")
    league = await desk.create("g", "chan", "mod", SPEC, may_run=True)
    for player in ("alice", "bob"):
        await desk.join(league.id, "g", player)
    await desk.start(league.id, "g", "mod", may_run=True)
    for round_, board in ((PAST_ANY_ID, 1), (1, PAST_ANY_ID)):
        with pytest.raises(errors.LeagueRefused, match=f"no board {board} in round {round_}"):
            await desk.decide(
                league.id, "g", round_, board, Outcome.DRAW, "mod", "late", may_run=True
            )
    assert [g.outcome for g in (await desk.round(league.id, "g")).games] == [None]


async def test_the_csv_export_runs_no_formula_a_moderator_typed(manager: GameManager) -> None:
    """A reason is written by a moderator and kept whole; opened in a spreadsheet, a cell
    that starts with = + - or @ would run as a formula, so it is quoted as text."""
    desk = manager.leagues
    league = await desk.create("g", "chan", "mod", SPEC, may_run=True)
    for player in ("alice", "bob", "carol"):
        await desk.join(league.id, "g", player)
    await desk.start(league.id, "g", "mod", may_run=True)
    board = (await desk.round(league.id, "g")).games[0]
    attack = "=cmd|' /C calc'!A0"
    await desk.decide(league.id, "g", 1, board.board, Outcome.DRAW, "mod", attack, may_run=True)
    await desk.disqualify(league.id, "g", "alice", "mod", "@SUM(1+1)", may_run=True)
    made = await desk.export(league.id, "g")
    cells = [cell for row in csv.reader(io.StringIO(made.csv_text)) for cell in row]
    assert not [cell for cell in cells if cell.startswith(("=", "+", "-", "@"))]
    assert "'" + attack in cells  # kept, as text


@pytest.mark.parametrize(
    "name",
    [
        "\u200b\u200b",  # zero-width spaces only: a league with no name to see
        "Cup\u202eevil",  # a direction override turns the rest of a post backwards
        "Cup\x00",  # a NUL, which PostgreSQL's text cannot hold
        "Cup\udc80",  # a lone surrogate, which neither store can encode
    ],
)
async def test_a_league_name_that_hides_itself_or_cannot_be_kept_is_refused(
    manager: GameManager, name: str
) -> None:
    spec = LeagueSpec(name=name, game_name="toy", format="round_robin")
    with pytest.raises(errors.BadInput, match="A league's name"):
        await manager.leagues.create("g", "chan", "mod", spec, may_run=True)
    assert await manager.leagues.leagues_here("g") == []


async def test_an_odd_but_visible_league_name_is_kept_as_typed(manager: GameManager) -> None:
    name = "👨\u200d👩\u200d👧 **cup** @everyone دوري"
    spec = LeagueSpec(name=name, game_name="toy", format="round_robin")
    league = await manager.leagues.create("g", "chan", "mod", spec, may_run=True)
    assert league.spec.name == name


async def test_a_player_disqualified_before_the_start_is_told_so_when_joining_again(
    manager: GameManager,
) -> None:
    desk = manager.leagues
    league = await desk.create("g", "chan", "mod", SPEC, may_run=True)
    await desk.join(league.id, "g", "alice")
    await desk.disqualify(league.id, "g", "alice", "mod", "abuse", may_run=True)
    with pytest.raises(errors.LeagueRefused, match="You were disqualified from Winter cup"):
        await desk.join(league.id, "g", "alice")
    await desk.join(league.id, "g", "bob")
    with pytest.raises(errors.LeagueRefused, match="Already entered in Winter cup"):
        await desk.join(league.id, "g", "bob")
    statuses = {e.player: e.status for e in (await desk.info(league.id, "g")).entrants}
    assert statuses == {"alice": "disqualified", "bob": "in"}


async def test_a_player_who_leaves_what_they_are_not_in_is_spoken_to_as_you(
    manager: GameManager,
) -> None:
    """Their own mention read back to them ("<@you> is not entered") reads like a fault
    of someone else's; a moderator's act names the player."""
    desk = manager.leagues
    league = await desk.create("g", "chan", "mod", SPEC, may_run=True)
    with pytest.raises(errors.LeagueRefused, match=r"^You are not entered in Winter cup"):
        await desk.leave(league.id, "g", "zed")
    with pytest.raises(errors.LeagueRefused, match=r"^<@zed> is not entered in Winter cup"):
        await desk.disqualify(league.id, "g", "zed", "mod", "no show", may_run=True)
    for player in ("alice", "bob", "carol"):
        await desk.join(league.id, "g", player)
    await desk.start(league.id, "g", "mod", may_run=True)
    await desk.leave(league.id, "g", "alice")
    with pytest.raises(errors.LeagueRefused, match=r"^You are already out of Winter cup"):
        await desk.leave(league.id, "g", "alice")
    with pytest.raises(errors.LeagueRefused, match=r"^<@alice> is already out of Winter cup"):
        await desk.disqualify(league.id, "g", "alice", "mod", "twice", may_run=True)


async def test_a_decision_on_a_league_that_ended_says_it_is_over(
    manager: GameManager,
) -> None:
    """A double-clicked decision that ended the league must not read 'not running' as if
    the league had stalled."""
    desk = manager.leagues
    league = await desk.create("g", "chan", "mod", SPEC, may_run=True)
    for player in ("alice", "bob"):
        await desk.join(league.id, "g", player)
    await desk.start(league.id, "g", "mod", may_run=True)
    await desk.decide(league.id, "g", 1, 1, Outcome.DRAW, "mod", "agreed", may_run=True)
    assert (await desk.info(league.id, "g")).status == "finished"
    with pytest.raises(errors.LeagueRefused, match="Winter cup is over: nothing changes now"):
        await desk.decide(league.id, "g", 1, 1, Outcome.DRAW, "mod", "agreed", may_run=True)


async def test_the_audit_list_names_who_set_the_league_role(manager: GameManager) -> None:
    """Every change to a league is in its audit list with who made it: the role that
    lets members decide results is the last one to record as a nameless 'moderator'."""
    desk = manager.leagues
    league = await desk.create("g", "chan", "mod", SPEC, may_run=True)
    await desk.set_league_role("g", "r1", by="owner", may_run=True)
    audit = json.loads((await desk.export(league.id, "g")).json_text)["audit"]
    assert [(a["by_user"], a["detail"]) for a in audit if a["what"] == "role set"] == [
        ("owner", "r1")
    ]
