"""rules.core.deck: drawing, reshuffling the discards, cards added at the n-th reshuffle
(Lincoln's I and II cards), and the hook a game's checks hang on."""

from __future__ import annotations

from typing import Any

from rules.core.deck import Piles, can_draw, draw, draw_many, reshuffle
from rules.core.rng import generator

LINCOLN_LIKE = Piles(draw="deck", discard="discard", reshuffles="reshuffles", additions="added")


def state() -> dict[str, Any]:
    return {"rng": generator(5), "seal": 0, "undo": [{"role": "a", "state": {}}]}


def test_draw_takes_the_top_card_the_last_of_the_pile_and_seals_undo() -> None:
    s = state()
    holder = {"deck": ["c", "b", "a"], "discard": []}
    assert draw(s, holder, Piles()) == "a"
    assert holder["deck"] == ["c", "b"]
    assert s["undo"] == [] and s["seal"] == 1


def test_an_empty_pile_is_remade_from_the_discards_shuffled() -> None:
    s = state()
    holder = {"deck": [], "discard": [f"x{i}" for i in range(10)]}
    told: list[int] = []
    first = draw(s, holder, Piles(), told.append)
    assert first is not None and told == [1]
    assert holder["discard"] == []
    assert sorted([first, *holder["deck"]]) == sorted(f"x{i}" for i in range(10))


def test_nothing_left_anywhere_gives_none() -> None:
    holder: dict[str, Any] = {"deck": [], "discard": []}
    assert not can_draw(holder, Piles())
    assert draw(state(), holder, Piles()) is None


def test_cards_join_at_the_first_and_second_reshuffle_and_the_hook_counts_them() -> None:
    s = state()
    holder: dict[str, Any] = {
        "deck": ["a"],
        "discard": ["b"],
        "reshuffles": 0,
        "added": {"1": ["I1", "I2"], "2": ["II1"]},
    }
    told: list[int] = []
    drawn = draw_many(s, holder, LINCOLN_LIKE, 4, told.append)
    assert drawn[0] == "a" and sorted(drawn[1:]) == ["I1", "I2", "b"]
    assert told == [1] and holder["reshuffles"] == 1 and "1" not in holder["added"]
    holder["discard"] = ["c"]
    drawn = draw_many(s, holder, LINCOLN_LIKE, 2, told.append)
    assert sorted(drawn) == ["II1", "c"] and told == [1, 2]
    # a third exhaustion still counts, with nothing added (Lincoln ends the game there)
    holder["discard"] = ["d"]
    assert draw(s, holder, LINCOLN_LIKE, told.append) == "d" and told == [1, 2, 3]


def test_cards_due_at_a_reshuffle_can_be_drawn_even_with_no_discards() -> None:
    holder: dict[str, Any] = {
        "deck": [],
        "discard": [],
        "reshuffles": 0,
        "added": {"1": ["I1"]},
    }
    assert can_draw(holder, LINCOLN_LIKE)
    assert draw(state(), holder, LINCOLN_LIKE) == "I1"


def test_a_reshuffle_goes_under_what_is_left_of_the_old_pile() -> None:
    holder = {"deck": ["top"], "discard": ["a", "b"]}
    assert reshuffle(state(), holder, Piles()) == 1
    assert holder["deck"][-1] == "top" and sorted(holder["deck"][:2]) == ["a", "b"]
