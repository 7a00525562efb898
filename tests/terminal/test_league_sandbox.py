"""Leagues in the terminal sandbox (``league ...``), typed as a player would type them:
a league opened, its entrants (local players and Dispatch's levels), and bad input
refused with one clear line that changes nothing."""

from __future__ import annotations

import io
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import errors
from bot.dispatch_players.bots import BotSeats
from bot.tables import lobby
from bot.tables.leagues.entrants import Outcome
from bot.tables.manager import GameManager
from bot.terminal.frontend import TerminalFrontEnd
from bot.terminal.league_words import outcome_word
from bot.terminal.sandbox import Sandbox
from rules.core import rng
from tests.conftest import FakeClock
from tests.terminal.test_sandbox import run_script

pytestmark = pytest.mark.usefixtures("toy_game")


async def test_a_league_is_opened_and_entered_at_the_sandbox(tmp_path: Path) -> None:
    text = await run_script(
        tmp_path,
        'league new toy round_robin name="Winter cup" dispatch=yes round=2\n'
        "league join\nleague join bob carol\nleague dispatch easy\nleague\nleague list\n",
    )
    assert "League #1 “Winter cup”: Toy Twenty-One, round robin, rated · entry" in text, text
    assert "alice entered league #1 (1 entrant)." in text
    assert "carol entered league #1 (3 entrants)." in text
    assert "Dispatch (easy) entered league #1 (4 entrants)." in text
    assert "Entrants (4): alice, bob, carol, Dispatch (easy)" in text
    assert "#1 Winter cup · entry ←" in text
    assert "!" not in text.replace("league #1", "")  # nothing refused
    assert "Traceback" not in text and "Something went wrong" not in text


async def test_the_newest_league_is_in_hand_after_a_restart(tmp_path: Path) -> None:
    await run_script(
        tmp_path,
        "league new toy round_robin name=Autumn\nleague new toy swiss rounds=2 name=Spring\n"
        "league join alice bob\n",
    )
    text = await run_script(tmp_path, "league\nleague use 1\nleague list\n")
    assert "League #2 “Spring”: Toy Twenty-One, swiss, 2 rounds, rated · entry" in text, text
    assert "Entrants (2): alice, bob" in text
    assert "#1 Autumn · entry ←" in text and "#2 Spring · entry\n" in text
    assert "!" not in text


async def test_bad_league_words_are_refused_and_change_nothing(tmp_path: Path) -> None:
    text = await run_script(
        tmp_path,
        "league join\n"
        "league new\nleague new toy\nleague new chess swiss rounds=3\n"
        "league new toy knockout\nleague new toy swiss\nleague new toy swiss rounds=x\n"
        "league new toy swiss rounds=3 rounds=4\nleague new toy swiss rounds=3 colour=red\n"
        "league new toy swiss rounds=3 entry=soon\nleague new toy swiss rounds=3 rated=maybe\n"
        "league new toy round_robin rounds=3\nleague new toy round_robin name=\n"
        "league new toy round_robin\n"
        "league frob\nleague join alice alice\nleague dispatch easy\nleague dispatch a b\n"
        "league use\nleague use 9\nleague standings now\nleague standings\nleague list\n"
        "league\n",
    )
    for refusal in (
        "! No league yet: type `league new <game> <format>`",
        "! Which game and format? `league new <game> <format>",
        "! There is no game called “chess”.",
        "! A league's format is one of: round_robin, double_round_robin, swiss, elimination.",
        "! A Swiss is played over 1 to 20 rounds: say how many.",
        "! `rounds=` is a whole number, not “x”.",
        "! `rounds=` is given twice: give it once.",
        "! “colour=red” is not understood here",
        "! `entry=` is a number of days, such as 7 or 0.5, not “soon”.",
        "! `rated=` takes yes or no, not “maybe”.",
        "! Only a Swiss takes a number of rounds.",
        "! A league's name is one line of 1 to 60 characters.",
        "! “frob” is not a league command",
        "! Name each player once: `league join carol dave`.",
        "! `league dispatch` takes at most a level",
        "! Which league? `league use <id>`",
        "! There is no league #9 on this server.",
        "! `league standings` takes nothing after it.",
    ):
        assert refusal in text, (refusal, text)
    # Of all that, one league was opened (the one well typed), and nobody entered it.
    assert text.count("League #1 “Toy Twenty-One round robin”") == 2  # opened, then shown
    assert "#2" not in text
    assert "Entrants (0): none yet" in text
    assert "entered league" not in text
    assert "Nobody has entered yet: the table is empty." in text
    assert "#  player" not in text
    assert "Traceback" not in text and "Something went wrong" not in text


# -- a whole league, run at the sandbox with fake time -----------------------------------

DAY_S = 86_400.0


class Typing:
    """A sandbox built as ``dispatch sandbox`` builds it, on a fake clock: each script
    is read as standard input is, and what it printed returned."""

    def __init__(self, sandbox: Sandbox, out: io.StringIO) -> None:
        self.sandbox = sandbox
        self.out = out

    async def type(self, script: str) -> str:
        start = len(self.out.getvalue())
        await self.sandbox.run(io.StringIO(script), interactive=False)
        return self.out.getvalue()[start:]

    async def decisions_of(self, game_id: int, player: str) -> int:
        async with self.sandbox.manager.store.read() as db:
            made = await db.records.decisions_by_holder(game_id)
        return sum(count for (_role, holder), count in made.items() if holder == player)


@pytest.fixture
async def typing(
    tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Typing]:
    # A league's games are dealt from secret keys: here from a fixed seed, so every run
    # deals the same cards (and the same side is to move at a round's deadline).
    deal = random.Random(36)
    monkeypatch.setattr(lobby, "new_key", lambda: deal.randbytes(rng.KEY_BYTES).hex())
    out = io.StringIO()
    front_end = TerminalFrontEnd(out=out, out_dir=tmp_path / "out")
    manager = await GameManager.open(tmp_path / "s.sqlite3", front_end, clock=clock, deliver=False)
    # Dispatch's seats as the sandbox has them, searching in a thread on a small budget.
    BotSeats.attach(manager, workers="thread", iterations=40)
    sandbox = Sandbox(manager, front_end, seed=7)
    await manager.deliver_pending()
    yield Typing(sandbox, out)
    await manager.close()


async def test_a_round_robin_of_four_with_dispatch_runs_to_its_final_standings(
    typing: Typing, clock: FakeClock, tmp_path: Path
) -> None:
    """Four entrants (alice, bob, carol and Dispatch's easy level), a round robin of
    three rounds of War, each game ended another way: Dispatch's win over alice once it
    has moved, a forfeit at the round's deadline, a resignation, a moderator's decision,
    a withdrawal. The final table is the one computed by hand."""
    entry = await typing.type(
        'league new war round_robin name="Winter cup" dispatch=yes round=1\n'
        "league join alice bob carol\nleague dispatch easy\nleague start\nleague round\n"
    )
    assert "League #1 started: round 1 is paired." in entry, entry
    # The round robin in entry order: alice v Dispatch and bob v carol in round 1.
    assert "Board 1: alice (Union) v Dispatch (easy) (Confederacy) · game #1 · playing" in entry
    assert "Board 2: bob (Union) v carol (Confederacy) · game #2 · playing" in entry

    # Round 1, board 1: Dispatch moves through its seat's worker, then alice resigns.
    first = await typing.type("league play 1\nwait\nauto 1\nwait\n")
    assert "Now at game #1: alice v Dispatch (easy)." in first, first
    assert await typing.decisions_of(1, "Dispatch (easy)") > 0, first
    await typing.type("resign\n")
    # Board 2 was never played: at the round's deadline the side to move forfeits.
    clock.advance(DAY_S + 60)
    second = await typing.type("league round 1\nas carol\nleague play\nresign\n")
    assert "Board 2: bob (Union) v carol (Confederacy) · game #2 · Union forfeits" in second, second
    assert "Now at game #3: carol v alice." in second

    # Round 2, board 2: Dispatch v bob, set as a draw by the moderator at the keyboard.
    third = await typing.type("league decide 2 2 draw agreed by both players\nleague round 2\n")
    assert "round 2, board 2: Dispatch (easy) (Union) v bob (Confederacy)" in third, third
    assert "draw (decided by carol)" in third

    # Round 3: bob resigns to alice; carol withdraws, forfeiting to Dispatch.
    last = await typing.type("as bob\nleague play\nresign\nas carol\nleague leave\n")
    assert "carol withdrew from league #1: their games are forfeited." in last, last
    table = await typing.type("league standings\nleague\n")
    assert table.splitlines()[1:6] == [
        "   #  player             pts  Buch    SB  as Union  as Confederacy",
        "   1  Dispatch (easy)    2.5     5  4.75     0-1-0           2-0-0",
        "   2  alice                2     4   1.5     1-0-1           1-0-0",
        "   3  carol (withdrawn)    1     4     1     0-0-2           1-0-0",
        "   4  bob                0.5     5  1.25     0-0-1           0-1-1",
    ], table
    assert "finished" in table
    exported = await typing.type(f"league export {tmp_path / 'winter'}\n")
    assert "exported" in exported, exported
    audit = (tmp_path / "winter.json").read_text(encoding="utf-8")
    assert "decided" in audit and "agreed by both players" in audit
    assert (tmp_path / "winter.csv").read_text(encoding="utf-8").count("\n") >= 6
    everything = typing.out.getvalue()
    assert "Traceback" not in everything and "Something went wrong" not in everything
    # The table comes with the posts of rounds 2 and 3 and the final one (round 1's
    # would be all noughts), and once for `league standings`.
    assert everything.count("#  player") == 4
    # Discord's markup (a ping, a timestamp) is written out for the terminal.
    assert "<@" not in everything and "<t:" not in everything
    assert "Entries close 2023-11-21 22:13 UTC." in everything
    assert "Game over: Confederacy wins (Union withdrew from the league)." in everything


async def test_a_moderators_acts_and_their_slips_at_the_sandbox(tmp_path: Path) -> None:
    text = await run_script(
        tmp_path,
        "league new toy swiss rounds=3 round=1\nleague join alice bob carol\nleague start\n"
        "league round\n"
        # Each slip is refused in one line, and changes nothing.
        "league decide\nleague decide 1 x first why\nleague decide 1 1 sideways why\n"
        "league decide 1 1 first\nleague decide 9 1 first why\nleague play 5\n"
        "league play 1 2 3\nleague round x\nleague export\n"
        f"league export {tmp_path / 'nowhere' / 'x'}\nleague cancel now\n"
        "league replace alice\nleague disqualify bob\nleague join dave\nleague round\n"
        # Then the acts themselves.
        "league decide 1 1 north-forfeits never moved\nleague replace bob dave\n"
        "league disqualify carol left the server\nleague cancel\nleague\n",
    )
    for refusal in (
        "! Which game, what result and why? `league decide <round> <board> <result> <reason>`",
        "! The round and the board are whole numbers",
        "! “sideways” is not a result",
        "! Round 1 has no board 5.",
        "! Which game? `league play` (yours), `league play <board>`",
        "! Which round? `league round` (the current one) or `league round <n>`.",
        "! Where to? `league export <file>`",
        "! There is no folder",
        "! `league cancel` takes nothing after it: type it alone to cancel league #1.",
        "! Who takes whose place? `league replace <player> <new player>`.",
        "! Whom, and why? `league disqualify <player> <reason>`.",
        "has started: its entries are closed.",
    ):
        assert refusal in text, (refusal, text)
    before_acts = text.split("league decide 1 1 north-forfeits")[0]
    assert before_acts.count("Board 1: alice (North) v bob (South) · game #1 · playing") == 2
    assert "Bye: carol (1 point)" in before_acts
    assert "decided" not in before_acts and "cancelled" not in before_acts
    acts = text.split("league decide 1 1 north-forfeits")[1]
    assert "round 1, board 1: alice (North) v bob (South) · game #1 · North forfeits" in acts
    assert "dave takes bob's place in league #1." in acts, acts
    assert "carol is disqualified from league #1" in acts
    assert "carol (disqualified)" in acts  # in the standings of round 3's post
    assert "League #1 is cancelled." in acts
    assert "· cancelled" in acts
    assert "Traceback" not in text and "Something went wrong" not in text


@pytest.mark.parametrize(
    ("typed", "outcome"),
    [
        ("first", Outcome.FIRST_WINS),
        ("first-wins", Outcome.FIRST_WINS),
        ("north_wins", Outcome.FIRST_WINS),
        ("SOUTH", Outcome.SECOND_WINS),
        ("second-wins", Outcome.SECOND_WINS),
        ("draw", Outcome.DRAW),
        ("first-forfeits", Outcome.FIRST_FORFEITS),
        ("south-forfeits", Outcome.SECOND_FORFEITS),
    ],
)
def test_a_decided_result_is_typed_by_place_or_by_side(typed: str, outcome: Outcome) -> None:
    assert outcome_word(typed, ("north", "south")) is outcome


@pytest.mark.parametrize("typed", ["north-loses", "east", "forfeits", "wins", ""])
def test_a_result_not_understood_is_refused(typed: str) -> None:
    with pytest.raises(errors.UnknownWord, match="is not a result"):
        outcome_word(typed, ("north", "south"))
