"""Every solo choice is labelled in words, with card names, never as an
internal verb and id (``combat cp37``, ``flip A``, ``tokens 0``)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from rules.solo import GAME
from tests.playthrough import legal_moves
from tests.rules.test_solo_fuzz import CONFIGS

ACTIONS = 260
#: A bare verb (``done``, ``reward``) or a verb and an id (``discard ap16``, ``flip A``).
BARE = re.compile(r"[a-z_]+( [\w-]+)?")


def bare_labels(state: dict[str, Any]) -> list[str]:
    """The labels of the current choices that read as a verb and an id."""
    view = GAME.view(state, "solo")
    bad = []
    for verb, labels in view["labels"].items():
        texts = [labels] if isinstance(labels, str) else list(labels.values())
        args = [None] if isinstance(labels, str) else list(labels)
        for arg, label in zip(args, texts, strict=True):
            if BARE.fullmatch(label) or label in (verb, f"{verb} {arg}"):
                bad.append(f"{state['step']}: {verb} {arg} -> {label!r}")
    return bad


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_random_play_labels_every_choice_in_words(name: str, options: dict[str, Any]) -> None:
    chooser = random.Random(11)
    state = GAME.setup(seed=11, options={"playsheet": name, **options})
    seen: set[str] = set()
    for _ in range(ACTIONS):
        seen.update(bare_labels(state))
        moves = [m for m in legal_moves(GAME, state) if m[1] != "end"]
        _role, verb, arg = chooser.choice(moves)
        state = GAME.act(state, "solo", verb, arg)
    assert not seen, sorted(seen)
