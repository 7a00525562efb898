"""The terminal sandbox, driven by scripts as a player would type them."""

from __future__ import annotations

import concurrent.futures
import io
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

import rules
from bot.delivery.port import GameInfo, TablePost
from bot.dispatch_players.bots import BotSeats
from bot.tables.clocks.desk import ClockDesk
from bot.tables.manager import GameManager
from bot.terminal.display import private_lines
from bot.terminal.frontend import TerminalFrontEnd
from bot.terminal.menus import choices_text, game_verbs
from bot.terminal.sandbox import Sandbox, build_parser, run_sandbox

ROOT = Path(__file__).resolve().parents[2]


async def run_script(tmp_path: Path, script: str, *extra: str) -> str:
    args = build_parser().parse_args(
        ["--db", str(tmp_path / "sandbox.sqlite3"), "--out", str(tmp_path / "out"), *extra]
    )
    out = io.StringIO()
    code = await run_sandbox(args, stdin=io.StringIO(script), stdout=out)
    assert code == 0
    return out.getvalue()


@pytest.mark.usefixtures("toy_game")
async def test_scripted_toy_game_reaches_the_end(tmp_path: Path) -> None:
    text = await run_script(
        tmp_path,
        "new toy 3\n"
        "2\n"  # alice: add 2
        "undo\n"
        "add 1\n"
        "done\n"
        "as bob\n"
        "1\n"
        "auto\n"
        "status\n",
        "--seed",
        "1",
    )
    assert "New game of Toy Twenty-One: alice plays North, bob plays South." in text
    assert " 1) add 1" in text and " 2) add 2" in text
    assert "Undone" in text
    assert "North adds 1: the counter is 1." in text
    assert "@bob to act." in text
    assert "Game over:" in text
    assert "· finished ·" in text
    assert "Traceback" not in text


@pytest.mark.usefixtures("toy_game")
async def test_private_messages_wait_for_their_player(tmp_path: Path) -> None:
    text = await run_script(tmp_path, "new toy 3\nhand\nas bob\n")
    assert "(1 private message for bob — type `as bob`)" in text
    alice_hand, bob_part = text.split("bob@", 1)[0], text.split("alice@#1> as bob", 1)[1]
    assert "codeword" in alice_hand  # alice sees her own hand
    assert "Your codeword is" in bob_part  # bob's queued reveal prints when he sits down


@pytest.mark.usefixtures("toy_game")
async def test_errors_are_short_and_readable(tmp_path: Path) -> None:
    text = await run_script(
        tmp_path, "board\n5\nnew chess\nnew toy x\nnew toy 1\n9\nfly\nas\nlog\nuse 77\nquit\nhelp\n"
    )
    errors = [line for line in text.splitlines() if line.startswith("!")]
    assert len(errors) == 8, text
    assert "No game yet" in errors[0]
    assert "no game called “chess”" in errors[2]
    assert "Choose a number from 1 to" in errors[4]
    assert "Game #77 was not found." in errors[7]
    assert "Commands:" not in text  # quit stopped the script before help
    assert "Traceback" not in text


@pytest.mark.usefixtures("toy_game")
async def test_sandbox_resumes_a_game_after_restart(tmp_path: Path) -> None:
    await run_script(tmp_path, "new toy 3\nadd 1\n")
    text = await run_script(tmp_path, "done\nstatus\n")
    assert "Resuming game #1" in text
    assert "@bob to act." in text


def run_cli(
    args: list[str], stdin: str = "", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    base["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env={**base, **(env or {})},
        timeout=600,
        cwd=ROOT,
    )


def test_missing_token_explains_and_exits_2(tmp_path: Path) -> None:
    result = run_cli([], env={"DISPATCH_DB": str(tmp_path / "x.sqlite3")})
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr and "dispatch sandbox" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


@pytest.mark.slow
@pytest.mark.parametrize(
    "game", [g for g in rules.BUILTIN_GAMES if len(rules.get_game(g).roles) == 2]
)
def test_every_game_plays_to_the_end_through_auto(tmp_path: Path, game: str) -> None:
    out_dir = tmp_path / "out"
    result = run_cli(
        ["sandbox", "--db", str(tmp_path / "s.sqlite3"), "--out", str(out_dir)],
        stdin=f"new {game} 7\nauto\nstatus\nboard\n",
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert "Game over:" in result.stdout
    assert "· finished ·" in result.stdout
    pngs = sorted(out_dir.glob("*.png"))
    assert len(pngs) >= 2
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in pngs)


@pytest.mark.parametrize("game", ["war", "fort_sumter", "lincoln"])
async def test_hand_lists_cards_as_readable_lines(tmp_path: Path, game: str) -> None:
    out = await run_script(tmp_path, f"new {game} 4\nas alice\nhand\n")
    section = out[out.index("side:") :]
    assert "hand:" in section
    block = section[section.index("hand:") :].splitlines()[1:]
    cards = [line for line in block if line.startswith("     · ")]  # under the heading
    assert len(cards) >= 3, section  # one line per card: "[value] name — text"
    assert '{"id"' not in section  # no raw JSON
    # The view as the search reads it is not for a person.
    assert "known state" not in section
    assert list((tmp_path / "out").glob("*hand*.png"))


def test_a_refused_token_is_explained_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import discord

    from bot import discord_app
    from bot.config import Config

    class RefusingBot:
        """Discord refuses the token at login (``run`` drives it through ``serve``)."""

        async def __aenter__(self) -> RefusingBot:
            return self

        async def __aexit__(self, *exc: object) -> None:
            return None

        async def start(self, token: str) -> None:
            raise discord.LoginFailure("Improper token has been passed.")

        async def close(self) -> None:
            return None

    monkeypatch.setattr(discord_app, "create_bot", lambda config: RefusingBot())
    config = Config.from_env(
        {"DISCORD_TOKEN": "not-a-real-token", "DISPATCH_DB": str(tmp_path / "x.sqlite3")}
    )
    with pytest.raises(discord_app.TokenRefused, match="refused the token") as refused:
        discord_app.run(config)
    assert refused.value.exit_code == 2  # a setting to correct, as the usage says


async def test_alice_plays_against_dispatch_in_the_sandbox(tmp_path: Path) -> None:
    text = await run_script(tmp_path, "new fort_sumter 3 dispatch easy\nauto\nstatus\n")
    assert "alice plays Unionist, Dispatch (easy) plays Secessionist" in text
    assert "Game over:" in text
    assert "· finished ·" in text
    assert "auto: Dispatch" not in text  # auto plays alice only; Dispatch plays itself
    assert "Traceback" not in text


async def test_an_unknown_dispatch_level_is_refused_politely(tmp_path: Path) -> None:
    text = await run_script(tmp_path, "new war dispatch grandmaster\n")
    assert "Dispatch plays at levels easy, normal, hard, not “grandmaster”." in text
    assert "Traceback" not in text


@pytest.mark.parametrize("name", ["fort_sumter", "lincoln"])
async def test_alice_plays_against_dispatch_and_the_fate_die(tmp_path: Path, name: str) -> None:
    text = await run_script(tmp_path, f"new {name} 4 dispatch easy fate\nauto\nstatus\n")
    assert "(the Fate Die picks Dispatch's cards)" in text
    assert "Fate Die for" in text  # each roll is in the table's log
    assert "Game over:" in text
    assert "Traceback" not in text


async def test_the_fate_die_is_refused_politely_where_there_is_no_playsheet(
    tmp_path: Path,
) -> None:
    text = await run_script(tmp_path, "new war dispatch easy fate\ngames\n")
    assert "has no Fate Die playsheet" in text
    assert "Traceback" not in text
    # Refused before anything is announced, and no game was opened.
    assert "New game of" not in text
    assert "No open games" in text


async def test_a_bad_count_is_refused_and_plays_nothing(tmp_path: Path) -> None:
    """`auto -3` used to play the whole game; a count must be a positive whole number."""
    text = await run_script(tmp_path, "new war 7\nauto -3\nauto x\nauto 0\nlog x\nstatus\n")
    assert text.count("`auto` takes how many moves to play") == 3
    assert "`log` takes how many lines to show" in text
    assert "auto:" not in text  # no move was played
    assert "version 0" in text


@pytest.mark.usefixtures("toy_game")
async def test_the_last_table_post_gives_the_result_once(tmp_path: Path) -> None:
    """Found by a newcomer: the end's "Game over: ..." used to be printed twice."""
    text = await run_script(tmp_path, "new toy 3\nauto\n", "--seed", "1")
    last_post = text[text.rindex("── table") :].split("── private", 1)[0]
    result = [line for line in last_post.splitlines() if "wins (" in line]
    assert result == ["   @alice @bob Game over: South wins (South reached 21)."], last_post


#: What the sandbox itself prints at column 0; everything a game says is indented.
OWN_LINES = ("Dispatch sandbox", "Type `help`", "alice@", "bob@", "── ", "New game of", "! ")


async def test_a_two_line_prompt_is_indented_as_one_block(tmp_path: Path) -> None:
    """Found by a newcomer: a Fort Sumter event's prompt (its text, then what is left to
    do) printed its second line at column 0."""
    # Seed 1: both keep an objective, then alice plays Frederick Douglass for its event.
    text = await run_script(tmp_path, "new fort_sumter 1\n1\nas bob\n1\nas alice\n1\n")
    lines = text.splitlines()
    at = max(i for i, line in enumerate(lines) if line.startswith("   alice (unionist): "))
    continuation = lines[at + 1]
    assert continuation.startswith("     ") and not continuation.strip()[0].isdigit(), text
    stray = [line for line in lines if line and not line.startswith((" ", *OWN_LINES))]
    assert stray == [], text


def test_every_line_of_a_block_is_indented() -> None:
    out = io.StringIO()
    TerminalFrontEnd(out=out, out_dir=Path("unused")).say_block("Heading.\nWhat is left.")
    assert out.getvalue() == "   Heading.\n     What is left.\n"


async def test_help_says_auto_shows_both_sides_choices(tmp_path: Path) -> None:
    """`auto` prints every move it plays, face-down placements included, to whoever is at
    the keyboard: fine for a test tool, and help says so."""
    text = await run_script(tmp_path, "help\n")
    auto = text[text.index("  auto [n]") :].splitlines()[:2]
    assert "face-down ones too" in auto[1], auto


@pytest.mark.parametrize("name", sorted(rules.GAMES))
def test_every_verb_a_game_lists_is_one_of_its_known_words(name: str) -> None:
    """``game_verbs`` is what tells "not possible now" from "unknown": every verb that
    random games of each game list, events' choices included, must be in it. War's
    event columns were once missing, so `column center` typed at the wrong moment was
    called an unknown command."""
    game = rules.GAMES[name]
    known = game_verbs(name)
    listed: set[str] = set()
    chooser = random.Random(12)
    for seed in range(8):
        state = game.setup(seed=seed)
        for _ in range(2000):
            if state["outcome"] is not None:
                break
            options = game.decisions(state)
            role = chooser.choice(list(options))
            legal = options[role]
            listed.update(legal)
            verb = chooser.choice(list(legal))
            args = legal[verb]
            arg = chooser.choice(args) if isinstance(args, list) else None
            state = game.act(state, role, verb, arg, record_undo=False)
    assert listed, name
    assert listed <= known, sorted(listed - known)


async def test_a_real_action_now_or_not_is_told_apart_from_an_unknown_word(tmp_path: Path) -> None:
    """Found by a newcomer: in Fort Sumter, `place mars` answered "Unknown command or
    action" although `place` was an action right then; only the space was wrong."""
    out = io.StringIO()
    front_end = TerminalFrontEnd(out=out, out_dir=tmp_path / "out")
    manager = await GameManager.open(tmp_path / "s.sqlite3", front_end, deliver=False)
    sandbox = Sandbox(manager, front_end, seed=1)

    async def answer(line: str) -> str:
        """What the sandbox says to ``line``, which must change nothing."""
        assert sandbox.game_id is not None
        before = await manager.view_for(sandbox.game_id, "alice")
        start = len(out.getvalue())
        await sandbox.handle(line)
        after = await manager.view_for(sandbox.game_id, "alice")
        assert (after.version, after.view) == (before.version, before.view), line
        said = out.getvalue()[start:].strip()
        assert said.startswith("! ") and "\n" not in said, said
        return said

    try:
        await sandbox.handle("new fort_sumter 1")  # alice keeps an objective first
        assert "`place` is not possible now; you may: `keep`" in await answer("place mars")
        assert "Unknown command or action “fly”" in await answer("fly")
        keep = await answer("keep mars")
        assert "“mars” is not one of the choices for `keep` now; you may choose: O" in keep
        await sandbox.handle("1")
        waiting = await answer("place mars")  # bob keeps his now
        assert "`place` is not possible now: alice has no move (waiting for @bob)" in waiting
        assert "is not a command" in await answer("fly")
        for line in ("as bob", "1", "as alice", "1"):  # alice plays an event: place tokens
            await sandbox.handle(line)
        place = await answer("place mars")
        assert place == (
            "! “mars” is not one of the choices for `place` now; you may choose: abolitionists."
        )
        assert "`keep` is not possible now; you may: `place`, `done`" in await answer("keep O07")
        assert "Unknown command or action “fly”" in await answer("fly")
        assert "`place` needs one of: abolitionists." in await answer("place")
        assert "`done` takes nothing after it" in await answer("done now")
        assert "Traceback" not in out.getvalue() and "Something went wrong" not in out.getvalue()
        # The space as it is listed, whatever its case, is taken.
        game_id = sandbox.game_id
        assert game_id is not None
        before = await manager.view_for(game_id, "alice")
        await sandbox.handle("place Abolitionists")
        after = await manager.view_for(game_id, "alice")
        assert after.version == before.version + 1
        assert "places a token in Abolitionists" in after.view["log"][-1]
    finally:
        await manager.close()


def test_choices_beyond_a_dozen_are_summarised() -> None:
    assert choices_text(list(range(1, 21))) == (
        "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 and 8 more (type the number of one from the list)"
    )


async def test_every_word_of_new_is_understood_or_refused(tmp_path: Path) -> None:
    """Found by a hostile player: `new fort_sumter 7 fate` started a game against bob (no
    Dispatch, no Fate Die) and `new war 7 8 dispatch easy` dropped the 8, both silently."""
    text = await run_script(
        tmp_path,
        "new fort_sumter 7 fate\n"
        "new war 7 8 dispatch easy\n"
        "new fort_sumter fate dispatch easy\n"
        "new war 7 dispatch easy hard\n"
        "games\n",
    )
    assert text.count("so `fate` comes after `dispatch`") == 2
    assert "“8” is not understood here" in text
    assert "“hard” is not understood here" in text
    assert "This is game" not in text and "No open games" in text
    # The game's name in any case, the level and `fate` too.
    text = await run_script(tmp_path, "new Fort_Sumter 4 DISPATCH Easy FATE\nstatus\n")
    assert "This is game #1, seed 4" in text
    assert "the Fate Die picks Dispatch's cards" in text


async def test_small_slips_get_a_clear_answer_and_change_nothing(tmp_path: Path) -> None:
    """Found by a hostile player: `1 2` was an "unknown command", a 5,000-character word
    was echoed whole, `as " "` seated a blank name and `resign now` conceded at once."""
    text = await run_script(
        tmp_path,
        f'new war 3\n1 2\n{"x" * 5000}\nas " "\n""\nresign now\nstatus\n',
    )
    assert "One number at a time: type `1` alone." in text
    [unknown] = [line for line in text.splitlines() if line.startswith("! Unknown command")]
    assert f"“{'x' * 40}”" in unknown and "x" * 41 not in unknown  # the echo is cut short
    assert "Who? `as alice` or `as bob` (one name)." in text
    assert "`resign` takes nothing after it: type `resign` alone to concede game #1." in text
    assert "#1 War Between the States · active · version" in text
    assert "Traceback" not in text and "Something went wrong" not in text
    assert "“”" not in text  # a line of two quotes is nothing, as an empty line


async def test_status_names_the_winner_as_the_table_does(tmp_path: Path) -> None:
    text = await run_script(tmp_path, "new war 3\nresign\nstatus\n")
    winner = rules.get_game("war").role_name(rules.get_game("war").roles[1])
    assert f"Result: {winner} wins — " in text


async def test_auto_in_a_solo_session_says_each_move_and_draws_the_board_as_it_ends(
    tmp_path: Path,
) -> None:
    """Found by a hostile player: after `auto 6` in a solo session the board written was
    the one from the start (version 0) and the moves' log lines were never shown."""
    text = await run_script(tmp_path, "new solo paths_of_glory central_powers 5\nauto 6\nstatus\n")
    after = text[text.index("Played 6 moves.") :]
    version = int(re.findall(r"· version (\d+)", text)[-1])
    assert f"board-v{version}.png" in after
    moves = text[text.index("auto 6") : text.index("Played 6 moves.")]
    assert moves.count("   auto: alice") == 6
    assert "   Central Powers plays #" in moves  # each move's log lines, as a typed move


async def test_a_bot_move_that_failed_is_tried_again_at_the_next_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by a hostile player: when the bot's worker process died twice, the game
    waited on Dispatch for ever; the Discord bot's background loop retries, the sandbox
    had nothing that did."""
    failures = []
    decide = BotSeats._decide

    async def dies_once(self: BotSeats, *args: object) -> object:
        if not failures:
            failures.append(args)
            raise concurrent.futures.process.BrokenProcessPool("killed")
        return await decide(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(BotSeats, "_decide", dies_once)
    out = io.StringIO()
    front_end = TerminalFrontEnd(out=out, out_dir=tmp_path / "out")
    manager = await GameManager.open(tmp_path / "s.sqlite3", front_end, deliver=False)
    BotSeats.attach(manager, workers="thread")
    sandbox = Sandbox(manager, front_end, seed=1)
    try:
        await sandbox.handle("new fort_sumter 2 dispatch easy")
        # A command no longer waits for Dispatch's move (it answers while Dispatch
        # thinks): the test does, before it looks.
        await sandbox.bots.idle()
        assert failures  # the bot's first move failed
        assert sandbox.game_id is not None
        info = await manager.get_game_info(sandbox.game_id)
        bot_role = info.roles[1]
        assert bot_role in info.active_roles  # and it still owes its objective
        await sandbox.handle("status")  # tries the failed move again
        await sandbox.bots.idle()
        info = await manager.get_game_info(sandbox.game_id)
        assert bot_role not in info.active_roles, info.active_roles
    finally:
        await manager.close()


def test_a_hand_limit_is_not_shown_as_the_hand_it_limits() -> None:
    """Found by a newcomer: Lincoln's `hand` printed "hand size: 6" under a hand of one."""
    assert private_lines("hand_size", 6) == ["hand size (you draw up to it): 6"]
    assert private_lines("objective", "O3") == ["objective: O3"]


async def test_a_war_hand_shows_no_menu_helper_and_says_why_an_event_is_ignored(
    tmp_path: Path,
) -> None:
    """Found by a newcomer: War's ``hand`` printed its menu helper as "plans: ?", and an
    Event drawn as a reinforcement showed its printed text with no word that it is
    ignored. Seed 5 deals alice US Sanitary Commission, an Event, in her first hand."""
    out = await run_script(tmp_path, "new war 5\nas alice\nhand\n")
    section = out[out.index("side:") :]
    assert "plans" not in section and ": ?" not in section, section
    event = next(line for line in section.splitlines() if "US Sanitary Commission —" in line)
    assert "ignored and counts 0" in event, event


def test_an_event_in_a_war_hand_carries_the_note_and_nothing_else_does() -> None:
    game = rules.get_game("war")
    state = game.setup(seed=5, options={})
    hand = game.view(state, "union")["hand"]
    notes = {card["name"]: card.get("note") for card in hand}
    assert notes["US Sanitary Commission"], notes
    assert [name for name, note in notes.items() if note] == ["US Sanitary Commission"]


@pytest.mark.usefixtures("toy_game")
async def test_finished_games_and_stats_in_the_sandbox(tmp_path: Path) -> None:
    text = await run_script(
        tmp_path,
        "games finished\n"
        "new toy 3\nauto\n"
        "new toy 4\nresign\n"
        "games finished\n"
        "games finished older 2\n"
        "games finished older x\n"
        "stats\n"
        "stats bob toy\n"
        "stats bob toy extra\n",
    )
    assert "No finished games there" in text
    assert re.search(r"#2 \d{4}-\d\d-\d\d Toy Twenty-One as North vs bob \(South\): lost", text)
    assert "resigned" in text
    assert "#1 " in text and "older: games finished older" not in text
    assert "is not a game number" in text
    assert "Record of alice: 2 finished games" in text
    assert "Record of bob: 2 finished games of Toy Twenty-One" in text
    assert "Type stats [player] [game]" in text
    assert "Traceback" not in text


async def test_the_end_post_names_the_sandbox_log_command_not_discords(tmp_path: Path) -> None:
    """The shared texts point at /game log; in the sandbox that command is `log`."""
    out = io.StringIO()
    fe = TerminalFrontEnd(out, tmp_path, draw_boards=False)
    game = GameInfo(
        1, None, "terminal", "war", "War Between the States", "finished", 9, "alice", ()
    )
    post = TablePost(
        kind="end",
        version=9,
        headline="alice wins.",
        log_lines=("(4 earlier lines of the last turn: /game log)",),
        turned="Dispatch's estimate turned between moves 3 and 5: where the game turned is "
        "in /game log.",
    )
    await fe.post_table(game, post)
    text = out.getvalue()
    assert "/game log" not in text
    assert "(4 earlier lines of the last turn: `log`)" in text
    assert "where the game turned is in `log`." in text


@pytest.mark.usefixtures("toy_game")
async def test_a_post_landing_while_the_turn_is_read_never_splits_the_prompt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dispatch's table post can print while the prompt's clocks are read: it must come
    before the prompt's heading or after its list, never between them."""
    out = io.StringIO()
    original = ClockDesk.lines

    async def lines_with_a_post_meanwhile(
        self: ClockDesk, game: int, *, plain: bool = False
    ) -> list[str]:
        out.write("A TABLE POST\n")
        return await original(self, game, plain=plain)

    monkeypatch.setattr(ClockDesk, "lines", lines_with_a_post_meanwhile)
    args = build_parser().parse_args(
        ["--db", str(tmp_path / "sandbox.sqlite3"), "--out", str(tmp_path / "out")]
    )
    assert await run_sandbox(args, stdin=io.StringIO("new toy 3\n"), stdout=out) == 0
    text = out.getvalue()
    heading = text.index("alice (north):")
    assert " 1) add 1" in text[heading:]
    assert "A TABLE POST" in text
    assert "A TABLE POST" not in text[heading : text.index(" 1) add 1", heading)]
