"""A whole Swiss of 9 entrants on Discord, end to end in the emulator, with fake time.

Seven people join through the lobby post's Join button, and a moderator enters two of
Dispatch's levels (easy and normal). Three rounds: each has one bye (9 entrants); in round
2 one game is lost on time (the injected clock moved past its clock); in round 3 a player
withdraws while their game runs (it is forfeited). People's games end by resignation,
typed in each game's thread; Dispatch's moves are made by its workers, as in any game
(each person facing Dispatch resigns once Dispatch has made its first decision, in Fort
Sumter, a quick game whose sides both keep an objective at once to begin). The results
follow a fixed rule: Dispatch beats everyone, and between two people the lower number
wins. Every game is dealt from a fixed key, so the test depends on no deal.

On SQLite and on PostgreSQL. Checked: the pairings of each round, the final standings
against a table worked out by hand below (points, Buchholz, Sonneborn-Berger, each side's
record, byes), the final post with its standings embed and picture, and the pings: each
person once per new game (in the round's post; nothing in a game's thread pings before
its end post), and once by the final post.
"""

from __future__ import annotations

import hashlib
import itertools
from collections import Counter
from typing import Any

import pytest

from bot.discord_app.custom_ids import league_join_id, play_value
from bot.tables.bot_users import bot_user
from bot.tables.clocks import DAY
from rules.fort_sumter import GAME
from tests.discord_helpers import catch_errors, poll, table, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("discord_guard")]

PEOPLE = ("p1", "p2", "p3", "p4", "p5", "p6", "p7")
DISPATCH = {"De": bot_user("easy"), "Dn": bot_user("normal")}
NAME = "Nine"

#: Each round's boards (first side v second side) and its bye, as the Swiss pairs them:
#: round 1 by the entry standing (everyone level: rating, then name, Dispatch's names
#: after the people's numbers), later rounds by the points below.
ROUNDS: dict[int, tuple[tuple[tuple[str, str], ...], str]] = {
    1: ((("p1", "p5"), ("p6", "p2"), ("p3", "p7"), ("De", "p4")), "Dn"),
    2: ((("p2", "p1"), ("Dn", "p3"), ("p5", "De"), ("p4", "p6")), "p7"),
    3: ((("p1", "De"), ("p4", "Dn"), ("p3", "p2"), ("p7", "p5")), "p6"),
}
#: Round 2's p4 v p6 is lost on time by p6; in round 3 p7 withdraws from p7 v p5.
ON_TIME = (2, ("p4", "p6"))
WITHDRAWS = (3, ("p7", "p5"))

#: The final table worked out by hand (docs/leagues.md): a bye scores 1, a forfeit is a
#: win for the other; for Buchholz (opponents' points) and Sonneborn-Berger (beaten
#: opponents' points) a round without a game played counts as a game against a player
#: with one's own points.
#:   Dn: bye, beat p3, beat p4                3 pts; Bch 3+1+1 = 5; SB 3+1+1 = 5
#:   De: beat p4, beat p5, beat p1            3;     Bch 1+1+2 = 4; SB 4
#:   p1: beat p5, beat p2, lost to De         2;     Bch 1+2+3 = 6; SB 1+2 = 3
#:   p2: beat p6, lost to p1, beat p3         2;     Bch 1+2+1 = 4; SB 1+1 = 2
#:   p4: lost to De, p6 lost on time, lost Dn 1;     Bch 3+1+3 = 7; SB 1
#:   p3: beat p7, lost to Dn, lost to p2      1;     Bch 1+3+2 = 6; SB 1
#:   p5: lost to p1, lost to De, p7 withdrew  1;     Bch 2+3+1 = 6; SB 1
#:   p6: lost to p2, lost on time, bye        1;     Bch 2+1+1 = 4; SB 1
#:   p7: lost to p3, bye, withdrew            1;     Bch 1+1+1 = 3; SB 1
#: p3 and p5 are level on everything (they never met; same rating): they share 6th.
#: (rank, who, points, Buchholz, SB, first side W-D-L, second side W-D-L, byes, withdrawn)
FINAL: tuple[tuple[int, str, float, float, float, str, str, int, bool], ...] = (
    (1, "Dn", 3, 5, 5, "1-0-0", "1-0-0", 1, False),
    (2, "De", 3, 4, 4, "1-0-0", "2-0-0", 0, False),
    (3, "p1", 2, 6, 3, "1-0-1", "1-0-0", 0, False),
    (4, "p2", 2, 4, 2, "0-0-1", "2-0-0", 0, False),
    (5, "p4", 1, 7, 1, "1-0-1", "0-0-1", 0, False),
    (6, "p3", 1, 6, 1, "1-0-1", "0-0-1", 0, False),
    (6, "p5", 1, 6, 1, "0-0-1", "1-0-1", 0, False),
    (8, "p6", 1, 4, 1, "0-0-1", "0-0-1", 1, False),
    (9, "p7", 1, 3, 1, "0-0-1", "0-0-1", 1, True),
)


def strength(who: str) -> int:
    """Dispatch beats everyone; between two people the lower number wins."""
    return 0 if who in DISPATCH else int(who[1:])


class Swiss:
    """The test's view of the league: who is who, and acting as the players."""

    def __init__(self, t: Any) -> None:
        self.t = t
        self.ids = {name: str(t.players[name].id) for name in PEOPLE} | DISPATCH
        self.names = {player: name for name, player in self.ids.items()}
        self.league_id = 0

    @property
    def desk(self) -> Any:
        return self.t.bot.manager.leagues

    @property
    def guild(self) -> str:
        return str(self.t.guild.id)

    def round_posts(self, number: int) -> list[Any]:
        head = f"{NAME}: round {number}"
        return [
            m for m in self.t.emu.channel_messages(self.t.channel.id) if m.content.startswith(head)
        ]

    async def round_games(self, number: int) -> Any:
        await wait_until(lambda: self.round_posts(number), what=f"round {number}'s post")
        shown = await self.desk.round(self.league_id, self.guild, number)
        boards = tuple((self.names[g.first], self.names[g.second]) for g in shown.games)
        assert (boards, self.names[shown.byes[0]]) == ROUNDS[number], (number, boards)
        assert all(g.game_id is not None and g.channel_id for g in shown.games)
        return shown

    def thread(self, game: Any) -> Any:
        return self.t.emu.world.channels[int(game.channel_id)]

    async def resign(self, who: str, game: Any) -> None:
        result = await self.t.emu.slash(self.t.players[who], self.thread(game), "game resign")
        await result.response()
        assert "You resigned" in result.text, result.text

    async def dispatch_decided(self, game: Any, level: str) -> None:
        manager = self.t.bot.manager
        role = GAME.roles[0] if game.first == DISPATCH[level] else GAME.roles[1]

        async def played() -> bool:
            info = await manager.get_game_info(game.game_id)
            return role not in info.active_roles

        await poll(played, f"{level}'s first decision in game {game.game_id}")

    async def play_one(self, who: str, game: Any) -> None:
        """``who`` makes their first offered decision with ``/game play`` in the thread."""
        seen = await self.t.bot.manager.view_for(game.game_id, self.ids[who])
        verb, args = next((v, a) for v, a in seen.view["actions"].items() if v != "undo")
        action = play_value(seen.version, verb, args[0] if isinstance(args, list) else None)
        result = await self.t.emu.slash(
            self.t.players[who], self.thread(game), "game play", action=action
        )
        await result.response()

    async def end(self, game: Any) -> None:
        """The game ends by the rule: the weaker side resigns (after Dispatch decided)."""
        first, second = self.names[game.first], self.names[game.second]
        loser = first if strength(first) > strength(second) else second
        winner = second if loser == first else first
        if winner in DISPATCH:
            await self.dispatch_decided(game, winner)
        await self.resign(loser, game)


async def _enter(s: Swiss) -> None:
    t = s.t
    made = await t.slash(
        "owner",
        "league create",
        name=NAME,
        game=GAME.name,
        format="swiss",
        rounds=3,
        clock="fast",
        dispatch_may_enter=True,
    )
    assert made.ephemeral, made.text
    await t.settle()
    [lobby] = [m for m in t.emu.channel_messages(t.channel.id) if m.content.startswith("**League")]
    [league] = await s.desk.leagues_here(s.guild)
    s.league_id = league.id
    for name in PEOPLE:
        await t.press(name, lobby, league_join_id(league.id))
    for level in ("easy", "normal"):
        said = await t.slash("owner", "league enter-dispatch", league=league.id, level=level)
        assert f"Dispatch ({level}) is in" in said.text
    await t.settle()
    assert "Entrants: 9" in t.emu.message(lobby.id).text()
    started = await t.slash("owner", "league start", league=league.id)
    assert "has started" in started.text, started.text


async def _round_1(s: Swiss) -> None:
    for game in (await s.round_games(1)).games:
        await s.end(game)


async def _round_2(s: Swiss) -> None:
    """Every game ends by the rule but p4 v p6: p4 decides, p6 never does, and the clock
    passes p6's time: p6 loses it on time, a forfeit, and round 3 is paired."""
    late = None
    for game in (await s.round_games(2)).games:
        if (s.names[game.first], s.names[game.second]) == ON_TIME[1]:
            late = game
            continue
        await s.end(game)
    assert late is not None
    await s.play_one("p4", late)
    info = await s.t.bot.manager.get_game_info(late.game_id)
    assert info.active_roles == (GAME.roles[1],)  # only p6 owes a decision: their clock runs
    s.t.clock_offset += DAY + 60  # a day and a minute: p6's day on the fast clock is gone
    await wait_until(lambda: s.round_posts(3), what="round 3 after the loss on time")
    shown = await s.desk.round(s.league_id, s.guild, 2)
    [forfeit] = [g for g in shown.games if g.game_id == late.game_id]
    assert forfeit.outcome is not None and forfeit.outcome.value == "second forfeits"


async def _round_3(s: Swiss) -> None:
    """p7 leaves while their game runs: it is forfeited; the others end by the rule, the
    last one ending the league."""
    shown = await s.round_games(3)
    [post] = s.round_posts(3)  # the table so far comes with the round's games
    [embed] = post.embeds
    assert embed["title"] == f"{NAME}: standings before round 3"
    assert [a.filename for a in post.attachments] == ["standings.png"]
    left = await s.t.slash("p7", "league leave", league=s.league_id)
    assert "You have withdrawn from" in left.text, left.text
    assert "unfinished games are forfeited" in left.text, left.text
    for game in shown.games:
        if (s.names[game.first], s.names[game.second]) != WITHDRAWS[1]:
            await s.end(game)


def _pings(s: Swiss) -> tuple[Counter[str], Counter[str]]:
    """Who was pinged in the league's channel, and in its game threads before their end
    (a game's end post pings its players, as every game's does: not a new game's ping)."""
    t = s.t
    threads = [c.id for c in t.emu.world.channels.values() if c.parent_id == t.channel.id]
    league: Counter[str] = Counter()
    for message in t.emu.channel_messages(t.channel.id):
        league.update(s.names[str(u)] for u in message.pinged)
    in_play: Counter[str] = Counter()
    for thread in threads:
        for message in t.emu.channel_messages(thread):
            if not message.content.startswith("Game over:"):
                in_play.update(s.names[str(u)] for u in message.pinged)
    return league, in_play


async def test_a_swiss_of_nine_with_dispatch_a_bye_a_loss_on_time_and_a_withdrawal(
    tmp_path, db_path, monkeypatch
):
    keys = (hashlib.sha256(f"league {n}".encode()).hexdigest() for n in itertools.count())
    monkeypatch.setattr("bot.tables.lobby.new_key", lambda: next(keys))
    with catch_errors() as errors:
        async with table(tmp_path, *PEOPLE, store=db_path) as t:
            t.players["owner"] = t.emu.owner
            await t.start()
            await t.emu.wait_for_commands("league")
            s = Swiss(t)
            await _enter(s)
            await _round_1(s)
            await _round_2(s)
            await _round_3(s)

            finals = await wait_until(
                lambda: [
                    m
                    for m in t.emu.channel_messages(t.channel.id)
                    if m.content.startswith(f"{NAME} is over")
                ],
                what="the final post",
            )
            league = await s.desk.info(s.league_id, s.guild)
            assert league.status == "finished"
            table_now = await s.desk.standings(s.league_id, s.guild)
            got = tuple(
                (
                    line.rank,
                    s.names[line.player],
                    line.points,
                    line.buchholz,
                    line.sonneborn_berger,
                    str(line.first),
                    str(line.second),
                    line.byes,
                    line.withdrawn,
                )
                for line in table_now
            )
            assert got == FINAL

            [final] = finals
            [embed] = final.embeds
            assert embed["title"] == f"{NAME}: final standings"
            assert embed["fields"][0]["value"].startswith("**1.** Dispatch (normal): **3**")
            assert [a.filename for a in final.attachments] == ["standings.png"]

            games = Counter(who for boards, _ in ROUNDS.values() for pair in boards for who in pair)
            expected = Counter({name: games[name] + 1 for name in PEOPLE})  # + the final
            assert _pings(s) == (expected, Counter())
            assert all(s.ids[n] in final.content for n in PEOPLE)
    assert errors.discord_errors() == []
