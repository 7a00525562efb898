"""A level not shown stronger than the one below it says so where it is offered: War's
hard level (War is mostly luck) and Lincoln's (too few games played to tell) in the
lobby's level select on Discord, in the lobby post once Dispatch holds a seat at it, and
in the sandbox's help and seating lines. Such a seat still plays at its own level."""

from __future__ import annotations

import io
from pathlib import Path

from bot.delivery.port import GameInfo, SeatInfo
from bot.discord_app import lobby
from bot.tables.bot_users import bot_user
from bot.terminal.sandbox import build_parser, run_sandbox
from rules import GAMES
from rules.ai import (
    LEVELS,
    NOT_STRONGER,
    SearchPlayer,
    level_caveat,
    level_iterations,
    make_player,
)
from tests.discord_helpers import catch_errors, table

WAR_HARD = "not shown stronger than normal: War is mostly luck"
LINCOLN_HARD = "not shown stronger than normal: too few games played to tell"


def test_only_the_declared_levels_carry_a_caveat() -> None:
    assert level_caveat("war", "hard") == WAR_HARD
    assert level_caveat("lincoln", "hard") == LINCOLN_HARD
    assert level_caveat("fort_sumter", "hard") is None
    for name in GAMES:
        for level in LEVELS:
            if level not in NOT_STRONGER.get(name, {}):
                assert level_caveat(name, level) is None
    # A War seat at hard still plays at hard's own budget.
    hard = make_player(GAMES["war"], "union", "hard", seed=1)
    normal = make_player(GAMES["war"], "union", "normal", seed=1)
    assert isinstance(hard, SearchPlayer) and isinstance(normal, SearchPlayer)
    assert hard.iterations == level_iterations(GAMES["war"], "hard") > normal.iterations


def options_of(game: str | None) -> list[dict[str, str]]:
    ui = lobby.build_lobby_view(7, [("union", "Union")], dispatch=("union", "Union"), game=game)
    [select] = ui.to_components()[1]["components"]
    options: list[dict[str, str]] = select["options"]
    return options


def test_the_lobby_select_says_war_and_lincoln_hard_are_no_stronger_than_normal() -> None:
    war = {o["value"]: o["description"] for o in options_of("war")}
    assert list(war) == ["easy", "normal", "hard"]
    assert war["hard"] == f"Thinks about 5 seconds a move, yet {WAR_HARD}"
    assert all(len(text) <= lobby.DESCRIPTION_MAX for text in war.values())
    lincoln = {o["value"]: o["description"] for o in options_of("lincoln")}
    assert lincoln["hard"] == f"Thinks about 5 seconds a move, yet {LINCOLN_HARD}"
    assert all(len(text) <= lobby.DESCRIPTION_MAX for text in lincoln.values())
    plain = {o["value"]: o["description"] for o in options_of("fort_sumter")}
    assert plain["hard"] == "Thinks about 5 seconds a move"


def war_info(user: str) -> GameInfo:
    return GameInfo(
        id=3,
        guild_id="1",
        channel_id="2",
        game_name="war",
        title="War Between the States",
        status="active",
        version=1,
        creator_id="10",
        seats=(SeatInfo("union", "10"), SeatInfo("confederate", user)),
        roles=("union", "confederate"),
    )


def test_the_lobby_post_says_so_of_a_war_seat_at_hard() -> None:
    hard = lobby.lobby_payload(war_info(bot_user("hard")))["content"]
    assert f"Dispatch (hard) is {WAR_HARD}." in hard
    normal = lobby.lobby_payload(war_info(bot_user("normal")))["content"]
    assert "not shown stronger" not in normal


async def test_a_war_lobby_offers_hard_with_its_caveat_on_discord(tmp_path: Path) -> None:
    with catch_errors() as caught:
        async with table(tmp_path, "alice") as t:
            await t.start()
            result = await t.slash("alice", "game new", game="war", side="union")
            [post] = result.messages
            [select] = [
                x for x in post.iter_components() if x.get("custom_id", "").startswith("dsp:d:")
            ]
            described = {o["value"]: o.get("description") for o in select["options"]}
            assert described["hard"] == f"Thinks about 5 seconds a move, yet {WAR_HARD}"
            assert described["normal"] == "Thinks about 1 second a move"
            assert t.emu.world.invalid_bodies == []
            assert caught.all_errors() == []


async def test_the_sandbox_says_so_in_its_help_and_when_it_seats_war_hard(
    tmp_path: Path,
) -> None:
    args = build_parser().parse_args(
        ["--db", str(tmp_path / "sandbox.sqlite3"), "--out", str(tmp_path / "out")]
    )
    out = io.StringIO()
    script = "help\nnew war 7 open\ndispatch hard\n"
    assert await run_sandbox(args, stdin=io.StringIO(script), stdout=out) == 0
    text = out.getvalue()
    assert f"In war, Dispatch's hard level is {WAR_HARD}." in text
    assert f"In lincoln, Dispatch's hard level is {LINCOLN_HARD}." in text
    assert "In fort_sumter" not in text
    seated = text[text.index("dispatch hard") :]
    assert f"Dispatch (hard) is {WAR_HARD}." in seated
    assert "Dispatch (hard) plays Confederacy (confederate) in game #1." in seated
    assert "Traceback" not in text and "Something went wrong" not in text
