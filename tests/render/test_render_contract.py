"""Every built-in game with a renderer draws its board and hands at every stage of a
whole game, the same view always gives the same picture, and a hand image comes only
from a role's own view."""

from __future__ import annotations

import pytest

from render import NoRenderer, board_png, hand_png
from rules import BUILTIN_GAMES, get_game

PNG = b"\x89PNG\r\n\x1a\n"
DRAWN = [name for name in BUILTIN_GAMES if get_game(name).renderer is not None]


def test_every_built_in_game_names_its_renderer_and_player() -> None:
    assert list(BUILTIN_GAMES) == DRAWN
    for name in BUILTIN_GAMES:
        assert get_game(name).automated_player() is not None, name


@pytest.mark.parametrize("name", DRAWN)
def test_boards_and_hands_draw_at_every_stage_of_a_game(name: str) -> None:
    game = get_game(name)
    choose = game.automated_player()
    assert choose is not None
    state = game.setup(seed=3)
    step = 0
    while True:
        over = game.outcome(state) is not None
        if step % 6 == 0 or over:
            public = game.view(state, None)
            board = board_png(name, public)
            assert board.startswith(PNG) and len(board) < 400_000
            assert board_png(name, game.view(state, None)) == board  # same view, same board
            for role in game.roles:
                hand = hand_png(name, game.view(state, role))
                assert hand is None or hand.startswith(PNG)
        if over:
            break
        role = game.active_roles(state)[0]
        state = game.act(state, role, *choose(game, game.view(state, role)))
        step += 1
    assert step > 20


def test_a_game_without_a_renderer_is_refused_cleanly() -> None:
    with pytest.raises(NoRenderer):
        board_png("no_such_game", {})


@pytest.mark.parametrize("name", DRAWN)
def test_the_log_is_in_the_message_not_in_the_board(name: str) -> None:
    # At Discord's inline preview a log drawn in the image cannot be read; the posts
    # carry the new log lines as text, so the board must not depend on the log at all.
    game = get_game(name)
    choose = game.automated_player()
    assert choose is not None
    state = game.setup(seed=5)
    for _ in range(12):
        role = game.active_roles(state)[0]
        state = game.act(state, role, *choose(game, game.view(state, role)))
    public = game.view(state, None)
    assert public["log"]
    other = {**public, "log": ["# A heading", "Something else entirely happened."] * 20}
    assert board_png(name, public) == board_png(name, other)
