"""The words of ``/stats`` and ``/games``: a count in plain English, and a solo session
that ends with neither a winner nor a draw (it has no opponent)."""

from __future__ import annotations

from bot.discord_app import history_ui
from bot.storage.finished_pages import FinishedGame
from bot.tables.records.pages import Stats, Tally


def test_a_record_of_one_game_says_one_finished_game() -> None:
    one = Stats("42", None, games=1, by_side={("war", "union"): Tally(wins=1)})
    assert history_ui.stats_text(one).startswith("**Record of <@42>**: 1 finished game\n")
    two = Stats("42", None, games=2, by_side={("war", "union"): Tally(wins=2)})
    assert history_ui.stats_text(two).startswith("**Record of <@42>**: 2 finished games\n")


def test_a_closed_solo_session_is_ended_not_drawn_nor_hot_seat() -> None:
    session = FinishedGame(
        id=3,
        guild_id="g",
        channel_id="c",
        game_name="solo",
        winner=None,
        reason="the solo session was closed",
        code="closed",
        finished_at=0.0,
        seats=(("solo", "42"),),
    )
    row = history_ui.row_text(session, "42")
    assert "CDG Solo System as Solo player: **ended** (the solo session was closed)" in row
    assert "drawn" not in row and "hot-seat" not in row
