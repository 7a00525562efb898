"""The leagues desk against a hostile player and a moderator who makes mistakes: numbers
past any stored league, names that hide themselves, exports a spreadsheet would run,
and a refusal that must say what the league's state really is."""

from __future__ import annotations

import pytest

from bot import errors
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
