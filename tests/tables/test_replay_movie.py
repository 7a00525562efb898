"""Replays you can watch: every frame is the public board at a turn's
end, scaled; no view but the public one is ever taken or drawn; the movie fits the upload
limit; only a game that is over, and only for those who may see it
(``replay.may_see_finished``); cached once built."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image, ImageSequence

import render
import rules
from bot import errors
from bot.storage.rows import GameRow, SeatRow
from bot.tables.manager import GameManager
from bot.tables.records import replay_movie
from bot.tables.records.replay import may_see_finished
from bot.tables.records.replay_movie import ReplayCache, build_movie, upload_limit
from bot.tables.requests import Move, NewGame
from tests.row_helpers import game_row

GAME = "war"
SEATS = {"union": "alice", "confederate": "bob"}


async def war_game(manager: GameManager, actions: int, guild: str | None = "g1") -> int:
    """alice (union) against bob on ``guild``, ``actions`` decisions by the automated
    player, then alice resigns: a finished game."""
    info = await manager.create_game(
        guild, "c1", "alice", NewGame(GAME, seat="union", opponent_id="bob")
    )
    game = rules.get_game(GAME)
    choose = game.automated_player()
    for _ in range(actions):
        current = await manager.get_game_info(info.id)
        role = current.active_roles[0]
        pv = await manager.view_for(info.id, SEATS[role], role=role)
        verb, arg = choose(game, pv.view)
        await manager.act(info.id, SEATS[role], Move(verb, arg, pv.version, role=role))
    await manager.resign(info.id, "alice")
    return info.id


def public_boards(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Worked out here again: the public view after set-up and each change of who acts."""
    game = rules.get_game(data["game"])
    state = game.setup(seed=data["seed"], options=data["options"])
    views, acting = [game.view(state, None)], game.active_roles(state)
    for n, a in enumerate(data["actions"], 1):
        state = game.act(state, a["role"], a["verb"], a["arg"])
        if game.active_roles(state) != acting or n == len(data["actions"]):
            views.append(game.view(state, None))
        acting = game.active_roles(state)
    return views


def expected_frame(view: dict[str, Any], width: int, size: tuple[int, int]) -> bytes:
    """``render.board_png`` of a public view, scaled to ``width`` as the replay scales it
    (box filter, back on the game's palette), padded to the movie's size; as RGB bytes."""
    board = Image.open(io.BytesIO(render.board_png(GAME, view)))
    if board.width > width:
        height = round(board.height * width / board.width)
        small = board.convert("RGB").resize((width, height), Image.Resampling.BOX)
        board = render.quantized(small, GAME)
    rgb = board.convert("RGB")
    canvas = Image.new("RGB", size, rgb.getpixel((0, rgb.height - 1)))
    canvas.paste(rgb, (0, 0))
    return canvas.tobytes()


def frames_of(gif: bytes) -> list[bytes]:
    movie = Image.open(io.BytesIO(gif))
    assert movie.format == "GIF"
    return [frame.convert("RGB").tobytes() for frame in ImageSequence.Iterator(movie)]


def in_order(found: list[bytes], expected: list[bytes]) -> bool:
    """Every frame found is one of ``expected``, in their order."""
    rest = iter(expected)
    return all(any(f == e for e in rest) for f in found)


async def test_every_frame_is_the_public_board_after_a_turn(manager: GameManager) -> None:
    game_id = await war_game(manager, 30)
    data = await manager.records.export(game_id)
    movie = await manager.records.watch_replay(game_id, "alice", "g1")
    views = public_boards(data)
    size = Image.open(io.BytesIO(movie.gif)).size
    expected = [expected_frame(v, movie.width, size) for v in views]
    deduplicated = [e for n, e in enumerate(expected) if n == 0 or e != expected[n - 1]]
    assert movie.turns == len(views) > 5 and movie.frames == len(views)
    assert frames_of(movie.gif) == deduplicated
    assert movie.log_text.splitlines() == [
        *views[-1]["log"],
        "Game over: Confederacy wins (Union resigned).",
    ]
    assert len(movie.gif) + len(movie.log_text.encode()) <= replay_movie.DEFAULT_UPLOAD_LIMIT


@pytest.mark.source_only  # spies on a rules method, which a compiled class does not allow
async def test_no_view_but_the_public_one_is_ever_taken_or_drawn(
    manager: GameManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await war_game(manager, 30)
    data = await manager.records.export(game_id)
    render.board_png(GAME, public_boards(data)[0])  # the palette's sample game, drawn first
    game = rules.get_game(GAME)
    module = render._module(GAME)
    asked: list[str | None] = []
    drawn: list[dict[str, Any]] = []
    view, draw_board = game.view, module.draw_board

    def spy_view(state: dict[str, Any], role: str | None) -> dict[str, Any]:
        asked.append(role)
        return view(state, role)

    def spy_draw(shown: dict[str, Any]) -> Any:
        drawn.append(shown)
        return draw_board(shown)

    monkeypatch.setattr(game, "view", spy_view)
    monkeypatch.setattr(module, "draw_board", spy_draw)
    movie = build_movie(data, 120 * 2**10)
    monkeypatch.undo()
    public = public_boards(data)
    assert asked and set(asked) == {None}
    assert len(drawn) >= movie.frames and all(v in public for v in drawn)
    assert not any("hand" in v or ("actions" in v and v["actions"]) for v in drawn)


async def test_a_movie_too_large_is_drawn_narrower_then_with_fewer_frames(
    manager: GameManager,
) -> None:
    game_id = await war_game(manager, 60)
    data = await manager.records.export(game_id)
    views = public_boards(data)
    big = await manager.records.watch_replay(game_id, "bob", "g1")
    limit = 100 * 2**10
    small = await manager.records.watch_replay(game_id, "bob", "g1", limit)
    assert big.size > limit >= small.size
    assert small.width < big.width and small.frames <= big.frames
    size = Image.open(io.BytesIO(small.gif)).size
    expected = [expected_frame(v, small.width, size) for v in views]
    found = frames_of(small.gif)
    assert found[0] == expected[0] and found[-1] == expected[-1]
    assert in_order(found, expected)
    with pytest.raises(errors.NotAllowed, match="does not fit"):
        build_movie(data, replay_movie.MIN_UPLOAD_LIMIT // 8)


async def test_a_board_is_drawn_twice_at_most_however_often_the_movie_is_fitted(
    manager: GameManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await war_game(manager, 60)
    data = await manager.records.export(game_id)
    views = public_boards(data)
    render.board_png(GAME, views[0])  # the palette's sample game, drawn first
    module = render._module(GAME)
    drawn: list[dict[str, Any]] = []
    draw_board = module.draw_board

    def spy_draw(shown: dict[str, Any]) -> Any:
        drawn.append(shown)
        return draw_board(shown)

    monkeypatch.setattr(module, "draw_board", spy_draw)
    small = build_movie(data, 100 * 2**10)  # fitted narrower, then with fewer frames
    monkeypatch.undo()
    big = build_movie(data, replay_movie.DEFAULT_UPLOAD_LIMIT)
    assert small.width < big.width  # it took several attempts: more than two
    assert small.frames <= len(drawn) <= 2 * len(views)
    # Drawn at the first attempt, and again, to be kept, at the second; never after.
    assert all(drawn.count(view) <= 2 * views.count(view) for view in drawn)
    # Scaled from the boards kept, the frames are those drawn afresh at that width.
    size = Image.open(io.BytesIO(small.gif)).size
    expected = [expected_frame(v, small.width, size) for v in views]
    assert in_order(frames_of(small.gif), expected)


def test_the_upload_limit_is_checked() -> None:
    assert upload_limit(None) == replay_movie.DEFAULT_UPLOAD_LIMIT
    assert upload_limit(25 * 2**20) == 25 * 2**20
    for bad in (0, 1000, -5, True, 2.5, "10MB", [1]):
        with pytest.raises(errors.BadInput):
            upload_limit(bad)


def row(status: str, guild: str | None = "g1") -> GameRow:
    return game_row(GAME, id=7, guild_id=guild, status=status, version=3)


def test_may_see_finished_a_game_played_or_one_played_on_this_server() -> None:
    seats = [
        SeatRow(7, "union", "alice", False, False, 0, 0.0),
        SeatRow(7, "confederate", "bob", False, False, 0, 0.0),
    ]
    for status in ("finished", "abandoned"):
        assert may_see_finished(row(status), seats, "alice", None)  # played, asked in a DM
        assert may_see_finished(row(status), seats, "alice", "g2")  # played, elsewhere
        assert may_see_finished(row(status), seats, "carol", "g1")  # played on this server
        assert not may_see_finished(row(status), seats, "carol", "g2")
        assert not may_see_finished(row(status), seats, "carol", None)
        assert not may_see_finished(row(status, guild=None), seats, "carol", None)
    for status in ("lobby", "active", "cancelled"):
        assert not may_see_finished(row(status), seats, "alice", "g1")


async def test_refused_politely_while_played_elsewhere_or_unknown(manager: GameManager) -> None:
    live = await manager.create_game(
        "g1", "c1", "alice", NewGame(GAME, seat="union", opponent_id="bob")
    )
    with pytest.raises(errors.WrongStage):
        await manager.records.check_replay("c1", "alice", "g1")
    with pytest.raises(errors.WrongStage):
        await manager.records.watch_replay(live.id, "alice", "g1")
    await manager.resign(live.id, "bob")
    assert await manager.records.check_replay("c1", "carol", "g1") == live.id
    with pytest.raises(errors.NotYours):
        await manager.records.check_replay(live.id, "carol", "g2")
    with pytest.raises(errors.NotYours):
        await manager.records.watch_replay(live.id, "carol", None)
    assert (
        await manager.records.check_replay(live.id, "bob", None) == live.id
    )  # a DM: bob played it
    # A stranger learns nothing from a number: unknown, or another server's live game.
    other = await manager.create_game(
        "g2", "c2", "dan", NewGame(GAME, seat="union", opponent_id="eve")
    )
    answers = []
    for number in (other.id, other.id + 50, 2**63):
        with pytest.raises(errors.NotYours) as refused:
            await manager.records.check_replay(number, "carol", "g1")
        answers.append(str(refused.value).replace(str(number), "N"))
    assert len(set(answers)) == 1, answers
    for bad in ("", "x" * 500, None, 3.5):
        with pytest.raises(errors.BadInput):
            await manager.records.check_replay(live.id, bad, "g1")  # type: ignore[arg-type]
    with pytest.raises(errors.BadInput):
        await manager.records.watch_replay(live.id, "alice", "g1", 12)
    assert manager.records.replays.builds == 0  # nothing refused was ever drawn


async def test_a_cancelled_game_has_nothing_to_replay(manager: GameManager) -> None:
    lobby = await manager.create_game("g1", "c1", "alice", NewGame(GAME))
    await manager.cancel(lobby.id, "alice")
    with pytest.raises(errors.WrongStage):
        await manager.records.check_replay(lobby.id, "alice", "g1")


async def test_a_replay_is_built_once_and_the_cache_is_bounded(manager: GameManager) -> None:
    first = await war_game(manager, 8)
    second = await war_game(manager, 8)
    one = await manager.records.watch_replay(first, "alice", "g1")
    assert await manager.records.watch_replay(first, "bob", None) is one
    assert manager.records.replays.builds == 1
    small = ReplayCache(max_bytes=one.size + 1)
    small.movies[(first, 0, 1)] = one
    data = await manager.records.export(second)
    other = await small.movie(data, replay_movie.DEFAULT_UPLOAD_LIMIT)
    assert list(small.movies.values()) == [other] and small.held <= small.max_bytes + other.size


async def test_an_abandoned_game_replays_and_says_so(manager: GameManager) -> None:
    info = await manager.create_game(
        "g1", "c1", "alice", NewGame(GAME, seat="union", opponent_id="bob")
    )
    await manager.abandon(info.id, "carol", is_moderator=True)
    movie = await manager.records.watch_replay(info.id, "carol", "g1")
    assert movie.frames == movie.turns == 1
    assert movie.log_text.splitlines()[-1] == "The game was abandoned, without a result."


async def test_a_one_seat_game_gets_a_frame_for_each_logged_step(manager: GameManager) -> None:
    solo = {"playsheet": "paths_of_glory", "side": "central_powers"}
    info = await manager.create_game("g1", "c1", "alice", NewGame("solo", options=solo))
    game = rules.get_game("solo")
    choose = game.automated_player()
    for _ in range(12):
        pv = await manager.view_for(info.id, "alice")
        if not pv.view.get("actions"):
            break
        verb, arg = choose(game, pv.view)
        await manager.act(info.id, "alice", Move(verb, arg, pv.version))
    await manager.resign(info.id, "alice")
    movie = await manager.records.watch_replay(info.id, "alice", None)
    assert movie.turns > 3 and movie.frames == movie.turns
    assert movie.log_text.splitlines()[-1].startswith("Session over")


async def test_a_game_without_a_board_is_refused_politely(manager: GameManager) -> None:
    info = await manager.create_game("g1", "c1", "alice", NewGame("toy", opponent_id="bob"))
    await manager.resign(info.id, "alice")
    with pytest.raises(errors.NotAllowed, match="has no board to replay"):
        await manager.records.check_replay(info.id, "alice", "g1")
    with pytest.raises(errors.NotAllowed, match="has no board to replay"):
        await manager.records.watch_replay(info.id, "bob", None)
