"""Words the players read in prompts, headlines and images are
written as a person would write them."""

from __future__ import annotations

import pytest
from solo_helpers import known

from rules.core.log import a_or_an
from rules.solo import GAME
from rules.solo.session import settle


@pytest.mark.parametrize(
    ("word", "said"),
    [
        ("American", "an American"),
        ("Oda", "an Oda"),
        ("Allied Powers", "an Allied Powers"),
        ("Uesugi", "an Uesugi"),
        ("Union", "a Union"),
        ("Unionist", "a Unionist"),
        ("British", "a British"),
        ("Red", "a Red"),
    ],
)
def test_a_side_name_takes_the_article_it_is_said_with(word: str, said: str) -> None:
    assert a_or_an(word) == said


@pytest.mark.parametrize(
    ("sheet", "side", "name"),
    [("washingtons_war", "american", "American"), ("cc_samurai", "blue", "Oda")],
)
def test_the_solo_identify_question_reads_an_american_card(
    sheet: str, side: str, name: str
) -> None:
    """ "A American card is face up in slot A" (and "A Oda card") read wrong."""
    state = GAME.setup(seed=1, options={"playsheet": sheet})
    state["side_names"][side] = name
    prompts = []
    while state["step"] == "identify":
        prompts.append(GAME.view(state, "solo")["prompt"])
        known(state, state["asking"]["card"], value=3)
        settle(GAME, state, state["asking"]["resume"])
    asked = [p for p in prompts if name in p]
    assert asked and all(p.startswith(f"An {name} card is face up") for p in asked)
