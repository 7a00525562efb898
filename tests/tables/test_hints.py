"""``/game hint`` through the manager: the search's top three choices
from the asker's own view, labelled in the view's words, the same for one position
whatever the opponent really holds; only in practice games; counted, and an assisted
game is never rated."""

from __future__ import annotations

import json

import pytest
from conftest import RecordingFrontEnd

from bot import errors
from bot.dispatch_players.bots import BotSeats
from bot.storage.rows import dumps
from bot.tables import hints
from bot.tables.bot_users import bot_user
from bot.tables.hints.queue import HintQueue
from bot.tables.manager import GameManager
from bot.tables.records import ratings
from bot.tables.requests import Move, NewGame
from rules import get_game
from rules.ai import SearchPlayer, level_iterations
from tests.ai.test_ai_search import TWINNED, _twin_with_other_hidden_cards
from tests.tables.test_ratings import changes_of, end_post, new_game, play_greedy

#: A small budget keeps the tests quick; the real one is the normal level's.
ITERATIONS = 60


@pytest.mark.parametrize("name", TWINNED)
def test_the_hint_is_the_same_whatever_the_opponent_really_holds(name: str) -> None:
    game = get_game(name)
    role, state, twin = _twin_with_other_hidden_cards(name)
    assert game.view(state, game.opponent(role)) != game.view(twin, game.opponent(role))
    first = hints.compute_hint(name, 1, 5, game.view(state, role), ITERATIONS)
    second = hints.compute_hint(name, 1, 5, game.view(twin, role), ITERATIONS)
    assert first == second
    assert 1 <= len(first.choices) <= hints.HINT_CHOICES


def test_a_hint_names_each_choice_in_the_views_words_with_how_often_it_won() -> None:
    game = get_game("fort_sumter")
    state = game.setup(seed=3)
    for role in game.active_roles(state):  # each side keeps an objective: now cards
        game.act(state, role, "keep", game.legal_actions(state, role)["keep"][0])
    role = game.active_roles(state)[0]
    view = game.view(state, role)
    hint = hints.compute_hint("fort_sumter", 1, 0, view, ITERATIONS)
    assert len(hint.choices) == hints.HINT_CHOICES
    labels = {
        str(text)
        for table in view["labels"].values()
        if isinstance(table, dict)
        for text in table.values()
    }
    assert all(choice.label in labels for choice in hint.choices)
    # Dispatch's choice first, then those the search cannot tell from it, then the rest,
    # each group by playouts.
    rest = hint.choices[1:]
    assert [c.equal for c in rest] == sorted((c.equal for c in rest), reverse=True)
    for group in ([c for c in rest if c.equal], [c for c in rest if not c.equal]):
        assert [c.visits for c in group] == sorted((c.visits for c in group), reverse=True)
    assert all(0.0 <= c.won <= 1.0 for c in hint.choices)
    assert sum(c.visits for c in hint.choices) <= hint.iterations == ITERATIONS
    text = hints.hint_text(hint)
    assert len(text) < 2000 and hint.choices[0].label in text and "won" in text
    # One position of one game gives one hint; another version of it, another search.
    assert hints.compute_hint("fort_sumter", 1, 0, view, ITERATIONS) == hint
    assert hints.hint_seed(1, role, 0) != hints.hint_seed(1, role, 1)


def test_a_hint_shows_choices_within_noise_of_the_first_as_equal() -> None:
    """Win rates a few points apart over a few hundred playouts are noise: shown as equal
    to Dispatch's choice, never as a ranking; a choice clearly worse keeps its place."""
    first = hints.HintChoice("Hold", 400, 0.49)
    others = [
        hints.HintChoice("Retreat", 300, 0.20),  # 29 points worse: the search can tell
        hints.HintChoice("Attack", 300, 0.47),  # 2 points: within noise
        hints.HintChoice("Feint", 30, 0.40),  # few playouts: within noise
    ]
    order = hints.ranked(first, others)
    assert [(c.label, c.equal) for c in order] == [
        ("Hold", True),
        ("Attack", True),
        ("Feint", True),
        ("Retreat", False),
    ]
    lines = hints.hint_text(hints.Hint(1, "union", 4, 1000, tuple(order[:3]))).splitlines()
    assert "cannot tell apart" in lines[0]
    assert lines[1:4] == [
        "1= Hold — 400 playouts, won 49%",
        "1= Attack — 300 playouts, won 47%",
        "1= Feint — 30 playouts, won 40%",
    ]
    # Apart by more than noise: ranked.
    order = hints.ranked(first, [hints.HintChoice("Retreat", 300, 0.20)])
    text = hints.hint_text(hints.Hint(1, "union", 4, 700, tuple(order)))
    assert "1. Hold — 400 playouts, won 49%" in text and "2. Retreat" in text


def test_the_hints_first_choice_is_the_move_dispatch_would_make() -> None:
    """In Lincoln Dispatch keeps the game's own plan unless the search's most played
    choice averaged ``policy_margin`` more: the hint's first choice is that same move,
    not merely the most played (at the start of seed 1 the two differ)."""
    game = get_game("lincoln")
    state = game.setup(seed=1)
    role = game.active_roles(state)[0]
    view = game.view(state, role)
    player = SearchPlayer(game, role, seed=hints.hint_seed(1, role, 0), iterations=ITERATIONS)
    move = player.choose(view)
    assert player.last is not None and player.last.action != move  # the plan was kept
    hint = hints.compute_hint("lincoln", 1, 0, view, ITERATIONS)
    assert hint.choices[0].label == hints.label_of(view, *move)
    assert hint.plan_margin == game.policy_margin
    assert "the game's own plan, kept unless another scored 10 points more" in hints.hint_text(hint)


def test_a_hint_names_what_its_number_is_in_each_game() -> None:
    """Lincoln's playouts stop at a horizon and are scored by an estimate: its number is
    not a share of games won, and the hint says so; War's play to the end."""
    texts = {}
    for name in ("lincoln", "war"):
        game = get_game(name)
        state = game.setup(seed=2)
        role = game.active_roles(state)[0]
        texts[name] = hints.hint_text(
            hints.compute_hint(name, 1, 0, game.view(state, role), ITERATIONS)
        )
    assert "scored" in texts["lincoln"] and ", won " not in texts["lincoln"]
    assert "not a share of games won" in texts["lincoln"] and "after 60 actions" in texts["lincoln"]
    assert ", won " in texts["war"] and "random playouts (to the game's end)" in texts["war"]


def test_the_budget_is_the_normal_levels() -> None:
    assert hints.HINT_LEVEL == "normal"
    game = get_game("war")
    assert level_iterations(game, hints.HINT_LEVEL) == level_iterations(game, "normal")


async def _vs_dispatch(manager: GameManager, to_cards: bool = True, **kwargs: object) -> int:
    """A Fort Sumter game of alice against Dispatch (easy); with ``to_cards``, played on
    past her first decision (her objective) to her first hand of cards."""
    BotSeats.attach(manager, workers="thread", iterations=ITERATIONS)
    info = await manager.create_game(
        "g1",
        "c1",
        "alice",
        NewGame("fort_sumter", seat="secessionist", opponent_id=bot_user("easy"), **kwargs),
    )
    await BotSeats.of(manager).idle()
    if to_cards:
        await play_to_cards(manager, info.id)
    return info.id


async def play_to_cards(manager: GameManager, game_id: int) -> None:
    """alice keeps her first objective; then she has a hand of cards to choose from."""
    pv = await manager.view_for(game_id, "alice")
    await manager.act(game_id, "alice", Move("keep", pv.view["actions"]["keep"][0], pv.version))
    for _ in range(20):
        await BotSeats.of(manager).idle()
        info = await manager.get_game_info(game_id)
        if "secessionist" in info.active_roles:
            return
    raise AssertionError("alice never had a card to play")


async def test_a_hint_in_a_game_against_dispatch_is_counted_and_the_game_is_not_rated(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    game_id = await _vs_dispatch(manager, to_cards=False)
    first = await manager.hints.ask(game_id, "alice")  # before her first decision: her objective
    assert first.role == "secessionist"
    await play_to_cards(manager, game_id)
    hint = await manager.hints.ask(game_id, "alice")  # the game is assisted: more at any time
    assert hint.role == "secessionist" and len(hint.choices) == hints.HINT_CHOICES
    async with manager.store.read() as db:
        assert await db.hints.hints_used(game_id) == 2
    await play_greedy(manager, game_id, "alice")
    assert end_post(front_end).outcome is not None
    assert not end_post(front_end).ratings
    assert await changes_of(manager, game_id) == []


async def test_a_first_hint_after_a_decision_against_dispatch_is_refused_and_the_game_rated(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    """A hint cannot take a game going badly out of the ratings: in a keyed game against
    Dispatch the first one must come before the asker's first decision."""
    game_id = await _vs_dispatch(manager)  # alice has kept her objective: one decision
    with pytest.raises(errors.HintRefused):
        await manager.hints.ask(game_id, "alice")
    async with manager.store.read() as db:
        assert await db.hints.hints_used(game_id) == 0
    await play_greedy(manager, game_id, "alice")
    assert end_post(front_end).outcome is not None
    assert end_post(front_end).ratings  # rated as any game against Dispatch
    assert len(await changes_of(manager, game_id)) == 2
    # A practice game (a chosen seed) is never rated: a hint there comes at any time.
    practice = await _vs_dispatch(manager, seed=11)
    assert (await manager.hints.ask(practice, "alice")).role == "secessionist"


async def test_a_hint_is_refused_in_a_rated_game_between_people(manager: GameManager) -> None:
    BotSeats.attach(manager, workers="thread", iterations=ITERATIONS)
    info = await manager.create_game(
        "g1", "c1", "alice", NewGame("fort_sumter", seat="secessionist", opponent_id="bob")
    )
    for who in ("alice", "bob"):
        with pytest.raises(errors.HintRefused):
            await manager.hints.ask(info.id, who)
    async with manager.store.read() as db:
        assert await db.hints.hints_used(info.id) == 0


async def test_a_hint_is_given_in_a_hot_seat_game_which_is_never_rated(
    manager: GameManager,
) -> None:
    """One person in both seats of a keyed game: never rated, so a hint takes nothing out
    of the ratings (it was refused as a rated game between people)."""
    BotSeats.attach(manager, workers="thread", iterations=ITERATIONS)
    info = await manager.create_game(
        "g1",
        "c1",
        "alice",
        NewGame("fort_sumter", seat="secessionist", opponent_id="alice", hotseat=True),
    )
    role = (await manager.view_for(info.id, "alice")).role
    assert (await manager.hints.ask(info.id, "alice")).role == role
    async with manager.store.read() as db:
        assert await db.hints.hints_used(info.id) == 1


@pytest.mark.source_only  # the toy game is a stand-in, not a rules Game
async def test_a_hint_is_refused_politely_when_there_is_nothing_to_ask(
    manager: GameManager,
) -> None:
    game_id = await _vs_dispatch(manager, seed=4)
    with pytest.raises(errors.NotSeated):
        await manager.hints.ask(game_id, "carol")
    # A game the search cannot play (the toy game has no hidden-information hooks).
    toy = await new_game(manager, channel="c2", seed=1)
    with pytest.raises(errors.HintRefused):
        await manager.hints.ask(toy.id, "alice")
    # Waiting for the other side: nothing to decide.
    await manager.act(toy.id, "alice", Move("add", 3, role="north"))
    await manager.act(toy.id, "alice", Move("done", role="north"))
    with pytest.raises(errors.HintRefused):
        await manager.hints.ask(toy.id, "alice")
    await manager.resign(toy.id, "alice")
    with pytest.raises(errors.GameNotActive):
        await manager.hints.ask(toy.id, "alice")
    async with manager.store.read() as db:
        assert await db.hints.hints_used(game_id) == await db.hints.hints_used(toy.id) == 0


async def test_the_hint_reads_the_askers_view_not_the_stored_state(manager: GameManager) -> None:
    """The opponent's hidden hand swapped in the stored state: the same hint."""
    game_id = await _vs_dispatch(manager, seed=9)
    before = await manager.view_for(game_id, "alice")
    theirs = await manager.view_for(game_id, bot_user("easy"))
    first = await manager.hints.ask(game_id, "alice")
    async with manager.store.transaction() as db:
        [[text]] = await db.db.execute_fetchall("SELECT state FROM games WHERE id = ?", (game_id,))
        state = json.loads(text)
        hand, deck = state["hands"]["unionist"], state["strategy_deck"]
        assert hand and deck
        hand[0], deck[0] = deck[0], hand[0]
        await db.db.execute_fetchall(
            "UPDATE games SET state = ? WHERE id = ?", (dumps(state), game_id)
        )
    after = await manager.view_for(game_id, "alice")
    assert after.view == before.view and after.version == before.version
    # What the opponent really holds did change (its own view shows it).
    assert (await manager.view_for(game_id, bot_user("easy"))).view != theirs.view
    manager.hints.queue = HintQueue()  # searched again, not the hint kept for the position
    assert await manager.hints.ask(game_id, "alice") == first


def test_an_assisted_game_is_not_rated() -> None:
    from bot.storage.rows import GameRow, SeatRow

    row = GameRow(1, "g", "c", "toy", "{}", -1, "finished", None, 9, "a", False, (), 0, 0, 0, None)
    seats = [
        SeatRow(1, "north", "a", False, False, 0, 0),
        SeatRow(1, "south", bot_user("hard"), False, False, 0, 0),
    ]
    enough = {"north": 3, "south": 3}
    assert ratings.unrated_reason(row, seats, ("north", "south"), enough) is None
    reason = ratings.unrated_reason(row, seats, ("north", "south"), enough, hints=1)
    assert reason == "an assisted game (hints were used)"
