"""The Fate Die opponent in Fort Sumter: one side's hand is a Card Display
(``rules.fate_die.opponent``, playsheet ``rules/fate_die/data/fort_sumter.json``); before each of
its card plays the die is rolled and only the cards it allows may be played."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import FakeClock, RecordingFrontEnd

import render
from bot import errors
from bot.dispatch_players.bots import BotSeats
from bot.tables.bot_users import bot_user
from bot.tables.manager import GameManager
from bot.tables.requests import NewGame
from rules import IllegalAction, get_game
from rules.ai import SearchPlayer
from rules.fate_die import opponent as fate
from tests.fate_helpers import (
    assert_determinize_keeps_the_face_up_cards,
    assert_face_down_cards_unseen,
    random_fate_game,
    swap_a_face_down_card,
)

GAME = get_game("fort_sumter")
OTHER = {"unionist": "secessionist", "secessionist": "unionist"}


def _random_game(seed: int, side: str, stop: Any = None) -> list[dict[str, Any]]:
    return random_fate_game(GAME, seed, side, stop=stop)


def _fate_plays(state: dict[str, Any]) -> bool:
    return bool(state["step"] == "play_cards" and state["turn"] == state["fate"]["role"])


@pytest.mark.parametrize("side", ["unionist", "secessionist"])
def test_whole_games_keep_the_display_equal_to_the_hand(side: str) -> None:
    for seed in range(6):
        states = _random_game(seed, side)
        assert GAME.outcome(states[-1]) is not None
        for state in states:
            assert GAME.invariants(state) == []
        # Nine card plays a game, each after a roll (rolls again when a face allowed nothing).
        assert states[-1]["fate"]["rolls"] >= 9
        lines = [str(line) for line in states[-1]["log"]]
        may_play = [line for line in lines if "Fate Die for" in line and "It may play" in line]
        no_card = [line for line in lines if "Fate Die for" in line and "allows no card" in line]
        # The table reads every roll: one line per play, one per face that allowed nothing.
        assert len(may_play) == 9
        assert len(may_play) + len(no_card) >= states[-1]["fate"]["rolls"]


@pytest.mark.parametrize("side", ["unionist", "secessionist"])
def test_only_the_cards_the_die_allows_may_be_played(side: str) -> None:
    seen = 0
    for seed in range(8):
        for state in _random_game(seed, side):
            if not _fate_plays(state):
                continue
            seen += 1
            allowed = state["fate"]["allowed"]
            assert allowed, "a play without a roll"
            actions = GAME.legal_actions(state, side)
            assert actions["value"] == allowed  # every card may be played for its value
            for verb in ("event", "claim"):
                assert set(actions.get(verb, [])) <= set(allowed)
            # What the die allows was turned face up: the table sees it.
            assert set(allowed) <= set(fate.face_up(state["fate"]))
            prompt = GAME.view(state, side)["prompt"]
            assert "The Fate Die allows" in prompt
    assert seen >= 8 * 9


def test_the_other_side_plays_as_usual() -> None:
    for state in _random_game(1, "secessionist"):
        if state["step"] == "play_cards" and state["turn"] == "unionist":
            assert GAME.legal_actions(state, "unionist")["value"] == state["hands"]["unionist"]


def test_face_down_cards_stay_hidden_from_the_table_and_the_other_side() -> None:
    checked = 0
    for state in _random_game(2, "unionist"):
        if state["phase"] == "rounds":
            checked += assert_face_down_cards_unseen(GAME, state, "unionist", "secessionist")
    assert checked > 10


def test_a_face_down_card_changes_no_pixel_of_the_board() -> None:
    state = next(s for s in _random_game(4, "secessionist") if _fate_plays(s))
    down = sorted(fate.secret_cards(state))
    assert down
    other = json.loads(json.dumps(state))
    # Swap a face-down display card with an unseen deck card: nobody can tell.
    swap_a_face_down_card(other, other["hands"]["secessionist"], other["strategy_deck"])
    assert GAME.invariants(other) == []
    before = render.board_png("fort_sumter", GAME.view(state, None))
    after = render.board_png("fort_sumter", GAME.view(other, "unionist"))
    assert before == after
    # The band is there: the board is taller by it.
    import io

    from PIL import Image

    assert Image.open(io.BytesIO(before)).height == 812 + 128


def _count(image: Any, colour: tuple[int, int, int]) -> int:
    """How many pixels of ``image`` are exactly ``colour``."""
    colours = image.getcolors(maxcolors=image.width * image.height)
    return sum(n for n, c in colours if c == colour)


def test_the_allowed_cards_are_ringed_on_the_board() -> None:
    import io

    from PIL import Image

    from render.fate import ALLOWED

    state = next(s for s in _random_game(5, "unionist") if _fate_plays(s))
    image = Image.open(io.BytesIO(render.board_png("fort_sumter", GAME.view(state, None))))
    band = image.convert("RGB").crop((0, 812, image.width, image.height))
    assert _count(band, ALLOWED) > 100
    played = json.loads(json.dumps(state))
    played["fate"]["allowed"] = None  # the roll spent: nothing ringed
    image = Image.open(io.BytesIO(render.board_png("fort_sumter", GAME.view(played, None))))
    band = image.convert("RGB").crop((0, 812, image.width, image.height))
    assert _count(band, ALLOWED) == 0


@pytest.mark.parametrize("side", ["unionist", "secessionist"])
def test_determinize_keeps_the_face_up_cards_and_deals_the_rest(side: str) -> None:
    knower = OTHER[side]
    for state in _random_game(3, side)[::7]:
        sample = assert_determinize_keeps_the_face_up_cards(GAME, state, side, knower, 17)
        assert sorted(fate.cards(sample["fate"])) == sorted(
            sample["hands"][side] if state["phase"] == "rounds" else fate.cards(sample["fate"])
        )


def test_the_search_plays_within_the_die() -> None:
    state = GAME.setup(seed=8, options={"fate": "unionist"})
    player = SearchPlayer(GAME, "unionist", seed=1, iterations=6)
    rng = random.Random(8)
    plays = 0
    while GAME.outcome(state) is None:
        role = GAME.active_roles(state)[0]
        view = GAME.view(state, role)
        if role == "unionist":
            verb, arg = player.choose(view)
            if _fate_plays(state):
                assert arg in state["fate"]["allowed"]
                plays += 1
        else:
            actions = {k: a for k, a in view["actions"].items() if k != "undo"}
            verb = rng.choice(sorted(actions))
            arg = None if actions[verb] is True else rng.choice(actions[verb])
        state = GAME.act(state, role, verb, arg)
    assert plays == 9


def test_a_side_that_is_no_side_is_refused() -> None:
    with pytest.raises(IllegalAction, match="names a side"):
        GAME.setup(seed=1, options={"fate": "nobody"})


async def test_dispatch_with_the_fate_die_takes_the_opponents_side(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:

    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        BotSeats.attach(manager, workers="thread", iterations=4)
        info = await manager.create_game(
            "g1",
            "c1",
            "alice",
            NewGame("fort_sumter", seat="unionist", opponent_id=bot_user("normal"), fate=True),
        )
        state = await manager.records.replay(info.id)
        assert state["options"]["fate"] == "secessionist"
        assert state["fate"]["role"] == "secessionist"
        with pytest.raises(errors.BadOptions, match="no Fate Die playsheet"):
            await manager.create_game(
                "g1", "c2", "alice", NewGame("war", opponent_id=bot_user("easy"), fate=True)
            )
        with pytest.raises(errors.BadOptions, match="name an opponent"):
            await manager.create_game("g1", "c3", "alice", NewGame("fort_sumter", fate=True))
        await BotSeats.of(manager).idle()
        await manager.resign(info.id, "alice")
        # A rematch with the sides swapped: the die still runs Dispatch's side.
        again = await manager.rematch(info.id, "alice", "swap")
        seats = {s.user_id: s.role for s in again.seats}
        assert seats["alice"] == "secessionist"
        state = await manager.records.replay(again.id)
        assert state["options"]["fate"] == "unionist"
        await BotSeats.of(manager).idle()
    finally:
        await manager.close()


def test_three_rolls_that_allow_no_card_give_way_and_the_table_is_told() -> None:
    """A display whose only card lies face down in A: half the faces allow nothing. After
    three such rolls every card is allowed, and the table reads that, not the last face."""
    from rules.core.rng import generator

    outcomes = set()
    for seed in range(120):
        state: dict[str, Any] = {"rng": generator(seed), "seal": 0, "undo": [], "log": []}
        fate.setup(state, "unionist", "fort_sumter")
        state["fate"]["slots"]["A"] = [{"card": "S14", "up": False}]
        assert fate.roll(state, "Unionist", lambda c: 2, lambda c: False) == ["S14"]
        title = fate.roll_title(state["fate"])
        refusals = [line for line in state["log"] if "allows no card" in line]
        if state["fate"]["gave_way"]:
            assert state["fate"]["rolls"] == fate.MAX_ROLLS == len(refusals)
            assert title == "3 rolls allowed no card, so any card"
        else:
            assert title == fate.FACE_TITLES[state["fate"]["face"]]
            assert len(refusals) == state["fate"]["rolls"] - 1
        shown = fate.public(state, lambda c: {"id": c})
        assert shown is not None and shown["face_title"] == title
        outcomes.add(state["fate"]["gave_way"])
    assert outcomes == {True, False}
