"""Random play of every playsheet: never a dead end, every card always accounted for."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from rules.solo import GAME, invariants
from rules.solo.sheets import SHEETS
from tests.playthrough import legal_moves


def card_list(rows: list[tuple[int, int, str, str]], side: str = "") -> str:
    """A CSV card list: (number, value, event yes/no, kind)."""
    head = "number,name,value,event,kind" + (",side" if side else "")
    tail = f",{side}" if side else ""
    lines = [f"{n},Card {n},{v},{e},{k}{tail}" for n, v, e, k in rows]
    return "\n".join([head, *lines])


CAESAR_LIST = card_list(
    [(n, n % 4, "yes", "plain") for n in range(1, 19)]
    + [(24, 0, "yes", "reaction"), (42, 2, "yes", "plain"), (47, 2, "yes", "plain")]
    + [(n, 0, "yes", "surprise") for n in (52, 54, 55)]
)
FTP_LIST = card_list(
    [(n, 1 + n % 3, "yes", "plain") for n in range(30, 50)]
    + [(n, 2, "yes", "reaction") for n in (1, 7, 8, 25, 130)]
    + [(n, 2, "yes", "mandatory") for n in (81, 82)]
    + [(14, 2, "yes", "plain"), (27, 2, "yes", "plain"), (119, 2, "yes", "plain")]
)
WW_LIST = card_list(
    [(n, 1 + n % 3, "no", "plain") for n in range(1, 16)]
    + [(n, 0, "yes", "battle") for n in range(20, 25)]
    + [(n, 0, "yes", "mandatory") for n in (30, 31)]
    + [(n, 0, "yes", "plain") for n in (84, 97, 102, 106, 109)]
)


CONFIGS = [
    *[(name, {}) for name in SHEETS],
    ("paths_of_glory", {"guns_of_august": True, "eight_card_hands": True}),
    ("paths_of_glory", {"side": "allied_powers"}),
    ("washingtons_war", {"deck_size": 20}),  # small deck: empty-deck paths get played
    ("caesar", {"deck_size": 24}),
    ("caesar", {"side": "rome"}),  # one display: Rome's Winter Campaign comes up
    ("illusions_of_glory", {"deck_size": 20}),
    ("cc_ancients", {"scenario": "lake_trasimenus"}),
    ("cc_ancients", {"scenario": "hellespont", "red_hand": 7}),
    ("cc_ancients", {"scenario": "brindisi_raid"}),
    ("cc_ancients", {"scenario": "phyle"}),
    ("cc_samurai", {"scenario": "tedorigawa"}),
    ("cc_samurai", {"blue_hand": 8, "red_hand": 4, "deck_size": 30}),
    ("caesar", {"card_list": CAESAR_LIST}),
    ("for_the_people", {"card_list": FTP_LIST}),
    ("washingtons_war", {"card_list": WW_LIST}),
]
ACTIONS = 700


def play(name: str, options: dict, seed: int) -> Counter[str]:  # type: ignore[type-arg]
    chooser = random.Random(seed)
    state = GAME.setup(seed=seed, options={"playsheet": name, **options})
    verbs: Counter[str] = Counter()
    for number in range(ACTIONS):
        moves = [m for m in legal_moves(GAME, state) if m[1] != "end"]
        assert moves, f"{name} seed {seed}: dead end at {state['step']}"
        _role, verb, arg = chooser.choice(moves)
        state = GAME.act(state, "solo", verb, arg)
        verbs[verb] += 1
        assert invariants(state) == [], (name, seed, number, verb, arg, invariants(state))
        if number % 97 == 0:
            assert json.loads(json.dumps(state)) == state
            view = GAME.view(state, "solo")
            assert view["actions"] and view["prompt"]
            _no_face_down_card_shown(state, view)
    for _ in range(200):  # finish the round in progress, then close the session
        if state["step"] == "table":
            break
        _role, verb, arg = chooser.choice(legal_moves(GAME, state))
        state = GAME.act(state, "solo", verb, arg)
    GAME.act(state, "solo", "end")
    assert GAME.outcome(state) is not None
    return verbs


def _no_face_down_card_shown(state: dict, view: dict) -> None:  # type: ignore[type-arg]
    """No face-down card, nor the order of a deck, is in the view (Paths of Glory ids are
    real card names; tokens would say nothing, but the rule is the same)."""
    text = json.dumps(view)
    hidden = [c for deck in state["decks"].values() for c in deck["draw"][1:]]
    for deck in state["decks"].values():
        if deck["draw"] and not deck["top_up"]:
            hidden.append(deck["draw"][0])
    for display in state["displays"].values():
        hidden += [
            e["card"] for entries in display["slots"].values() for e in entries if not e["up"]
        ]
    for card in hidden:
        assert json.dumps(card) not in text, f"face-down {card} is in the view"


@pytest.mark.slow
@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_random_play_never_dead_ends_and_accounts_for_every_card(name: str, options: dict) -> None:  # type: ignore[type-arg]
    seen: Counter[str] = Counter()
    for seed in range(2):
        seen += play(name, options, seed)
    # the fuzz really plays rounds, not only table talk
    assert seen["roll"] > 10 and seen["played"] > 10 and seen["purpose"] > 10
    assert seen["new_turn"] > 3 and seen["reshuffle"] > 3


@pytest.mark.slow
def test_fuzz_reaches_every_playsheet_procedure() -> None:
    """Across the configurations, random play uses each procedure verb at least once."""
    seen: Counter[str] = Counter()
    for name, options in CONFIGS:
        for seed in (7, 8, 10):
            seen += play(name, options, seed)
    for verb in [
        "flip",
        "number",
        "value",
        "event",
        "kind",
        "unnumbered",
        "discard",
        "exchange",
        "attack",
        "battle",
        "combat",
        "reaction",
        "first_strike",
        "seppuku",
        "leader_lost",
        "commitment",
        "offensive",
        "across",
        "gain_token",
        "draw_dragon",
        "play_dragon",
        "random_discard",
        "unplayable",
        "senate",
        "winter_campaign",
        "drop_surprise",
        "playable",
        "reward",
        "dragon_discard",
    ]:
        assert seen[verb] > 0, f"random play never used {verb}"
