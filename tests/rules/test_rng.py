"""The random generator: uniform, unpredictable without its key, never shown, and old
games keep the generator they started with.

The statistical tests use fixed keys and a fixed tolerance, so they never flake: a broken
generator (a biased draw, a stuck counter, a key that is ignored) fails them every time.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.tables.requests import Move, NewGame
from rules import get_game
from rules.core.rng import (
    KEYED,
    SPLITMIX,
    chosen_key,
    generator,
    legacy_seed,
    new_key,
    randbelow,
    roll,
    shuffle,
)
from tests.legacy import as_old
from tests.playthrough import legal_moves

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

#: Chi-square critical values at p = 0.001 (a fair generator passes 999 times in 1,000;
#: with fixed keys the outcome is decided once and for all).
CHI2_23_DOF = 49.73
CHI2_5_DOF = 20.52


def chi_square(counts: Counter[Any], cells: int, total: int) -> float:
    expected = total / cells
    assert set(counts) <= set(range(cells))
    return sum((counts.get(k, 0) - expected) ** 2 / expected for k in range(cells))


def state_for(seed: int | str) -> dict[str, Any]:
    return {"rng": generator(seed), "seal": 0, "undo": []}


def test_shuffles_are_uniform_over_all_permutations() -> None:
    perms = {p: i for i, p in enumerate(itertools.permutations(range(4)))}
    counts: Counter[int] = Counter()
    total = 24_000
    state = state_for("00" * 32)
    for _ in range(total):
        items = [0, 1, 2, 3]
        shuffle(state, items)
        counts[perms[tuple(items)]] += 1
    assert len(counts) == 24
    assert chi_square(counts, 24, total) < CHI2_23_DOF


def reference_shuffle(state: dict[str, Any], items: list[Any]) -> None:
    """Fisher-Yates as first written: one ``randbelow`` (and its seal) per position."""
    for i in range(len(items) - 1, 0, -1):
        j = randbelow(state, i + 1)
        items[i], items[j] = items[j], items[i]
    state["undo"] = []
    state["seal"] += 1


@pytest.mark.parametrize("seed", [7, "ab" * 32, legacy_seed(11)])
def test_shuffle_is_randbelow_per_position(seed: int | str) -> None:
    """The inlined shuffle makes the same draws, the same order and the same seal count as
    a draw per position, so stored games replay unchanged."""
    fast, slow = state_for(seed), state_for(seed)
    for size in [0, 1, 2, 3, 7, 52, 110, 3, 0, 1]:
        fast["undo"] = slow["undo"] = [{"role": "a", "state": {}}]
        ours, theirs = list(range(size)), list(range(size))
        shuffle(fast, ours)
        reference_shuffle(slow, theirs)
        assert ours == theirs
        assert fast == slow


class _RiggedHasher:
    """A stand-in for the keyed BLAKE2b hasher whose draw for counter ``n`` is chosen by
    the test: refused draws (at or above the bound) happen about once in 2**59 for real."""

    def __init__(self, words: dict[int, int]) -> None:
        self.words, self.counter = words, -1

    def copy(self) -> _RiggedHasher:
        return _RiggedHasher(self.words)

    def update(self, data: bytes) -> None:
        self.counter = int.from_bytes(data, "little")

    def digest(self) -> bytes:
        word = self.words.get(self.counter, self.counter * 0x9E3779B97F4A7C15 % 2**64)
        return word.to_bytes(8, "little")


def test_a_refused_draw_moves_every_later_position_on_by_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The batched shuffle draws again after a refusal, as a draw per position does: the
    same order and the same counter, with refusals at the first, a middle and the last
    position, and two in a row."""
    from rules.core import rng

    top = 2**64 - 1  # refused for every bound that is not a power of two
    rigged = _RiggedHasher({0: top, 6: top, 7: top, 12: top, 40: top})
    monkeypatch.setattr(rng, "_keyed", lambda key: rigged)
    monkeypatch.setattr(rng, "_COPY", _RiggedHasher.copy)
    monkeypatch.setattr(rng, "_UPDATE", _RiggedHasher.update)
    monkeypatch.setattr(rng, "_DIGEST", _RiggedHasher.digest)
    for size in (2, 3, 11, 30):
        fast, slow = state_for(chosen_key(1)), state_for(chosen_key(1))
        ours, theirs = list(range(size)), list(range(size))
        shuffle(fast, ours)
        reference_shuffle(slow, theirs)
        assert ours == theirs and fast["rng"] == slow["rng"]
    assert fast["rng"]["n"] > 29  # the 30 cards took refused draws too


def test_die_rolls_are_uniform_for_every_kind_of_seed() -> None:
    for seed in (new_key(), 7, legacy_seed(7)):
        state = state_for(seed)
        total = 12_000
        counts = Counter(roll(state, 6) - 1 for _ in range(total))
        assert chi_square(counts, 6, total) < CHI2_5_DOF, seed


def test_consecutive_draws_are_independent() -> None:
    # Pairs of consecutive rolls: 36 cells, each as likely as any other.
    state = state_for(chosen_key(99))
    total = 36_000
    counts = Counter(randbelow(state, 6) * 6 + randbelow(state, 6) for _ in range(total))
    assert chi_square(counts, 36, total) < 66.62  # 35 degrees of freedom, p = 0.001


def test_the_key_decides_every_draw() -> None:
    a, b = state_for("01" * 32), state_for("02" * 32)
    assert [randbelow(a, 1000) for _ in range(50)] != [randbelow(b, 1000) for _ in range(50)]
    again = state_for("01" * 32)
    first = state_for("01" * 32)
    assert [randbelow(again, 1000) for _ in range(50)] == [
        randbelow(first, 1000) for _ in range(50)
    ]


def test_new_keys_are_secret_sized_and_never_repeat() -> None:
    keys = {new_key() for _ in range(200)}
    assert len(keys) == 200
    assert all(len(k) == 64 and int(k, 16) >= 0 for k in keys)  # 256 bits each


def test_a_chosen_seed_is_repeatable_for_practice_and_tests() -> None:
    game = get_game("war")
    assert json.dumps(game.setup(seed=7)) == json.dumps(game.setup(seed=7))
    assert game.setup(seed=7)["sides"] != game.setup(seed=8)["sides"]
    assert game.setup(seed=7)["seed"] == 7


@pytest.mark.parametrize("name", ["war", "fort_sumter"])
def test_a_keyed_game_never_shows_its_key(name: str) -> None:
    import random

    game = get_game(name)
    key = new_key()
    state = game.setup(seed=key)
    assert state["seed"] is None and state["rng"] == {
        "alg": KEYED,
        "key": key,
        "n": state["rng"]["n"],
    }
    chooser = random.Random(1)
    for _ in range(400):
        if game.outcome(state) is not None:
            break
        for role in (None, *game.roles):
            shown = json.dumps(game.view(state, role))
            assert key not in shown and key.upper() not in shown
        role, verb, arg = chooser.choice(legal_moves(game, state))
        state = game.act(state, role, verb, arg)
    assert key not in json.dumps(state["log"]) + json.dumps(state["private_log"])


def _unsealed(document: Any) -> Any:
    """A state (undo snapshots included) without its seal counts."""
    if isinstance(document, dict):
        return {k: _unsealed(v) for k, v in document.items() if k != "seal"}
    if isinstance(document, list):
        return [_unsealed(x) for x in document]
    return document


@pytest.mark.parametrize("index", [0, 1, 2])
def test_a_game_stored_before_the_keyed_generator_keeps_splitmix(index: int) -> None:
    """Games the old engine stored (frozen in ``fixtures/legacy_games.json``) are upgraded
    to SplitMix64 by name, and replaying them from their marked seed gives exactly the
    state the old engine stored: no running game's future changes."""
    entry = json.loads((FIXTURES / "legacy_games.json").read_text())[index]
    game = get_game(entry["game"])
    stored = game.upgrade(json.loads(json.dumps(entry["state"])))
    assert stored["rng"]["alg"] == SPLITMIX
    replayed = game.setup(seed=legacy_seed(entry["seed"]))
    for role, verb, arg in entry["actions"]:
        replayed = game.act(replayed, role, verb, arg)
    if stored["outcome"] is not None:  # the old engine wrote no reason code
        assert replayed["outcome"].pop("code") == "no_forces"
    # The seal counts are compared apart: the old engine also counted hand-overs (one
    # side's decision answered by another's), which now empty the undo stack without a
    # count. Nothing reads a count but ``Game._apply``, within one action, so the game's
    # future is the same; the replay's count is the old one less the hand-overs.
    assert replayed["seal"] <= stored["seal"]
    assert json.dumps(_unsealed(as_old(replayed)), sort_keys=True) == json.dumps(
        _unsealed(stored), sort_keys=True
    )
    # and the upgraded game goes on drawing from the same generator as the replay
    if game.outcome(stored) is None:
        role, verb, arg = legal_moves(game, stored)[0]
        a = game.act(stored, role, verb, arg)
        b = game.act(replayed, role, verb, arg)
        assert json.dumps(_unsealed(as_old(a)), sort_keys=True) == json.dumps(
            _unsealed(as_old(b)), sort_keys=True
        )


async def test_the_key_of_a_game_reaches_no_player_until_the_game_is_over(
    tmp_path: Path,
) -> None:
    import dataclasses
    import random

    from bot import errors
    from bot.tables.manager import GameManager
    from tests.conftest import RecordingFrontEnd

    front_end = RecordingFrontEnd()
    manager = await GameManager.open(tmp_path / "db.sqlite3", front_end)
    try:
        info = await manager.create_game("g", "c", "alice", NewGame("war", opponent_id="bob"))
        async with manager.store.read() as db:
            row = await db.game(info.id)
        assert row is not None and row.seed == -1  # no seed in the games table
        key = json.loads(row.state_json or "")["rng"]["key"]
        seen: list[str] = []
        chooser = random.Random(5)
        for _ in range(3000):
            info = await manager.get_game_info(info.id)
            if info.status != "active":
                break
            role = info.active_roles[0]
            user = info.seat_of(role).user_id  # type: ignore[union-attr]
            pv = await manager.view_for(info.id, user, role=role)
            seen.append(json.dumps(pv.view))
            choices = [
                (verb, arg)
                for verb, args in pv.view["actions"].items()
                if verb != "undo"
                for arg in (args if isinstance(args, list) else [None])
            ]
            verb, arg = chooser.choice(choices)
            result = await manager.act(info.id, user, Move(verb, arg, pv.version, role=role))
            seen.append(json.dumps(result.view))
            if len(seen) == 20:
                with pytest.raises(errors.WrongStage):
                    await manager.records.export_for_player(info.id)
        assert info.status == "finished"
        seen += [json.dumps(dataclasses.asdict(d), default=str) for d in front_end.deliveries]
        seen += await manager.records.log(info.id, 10_000)
        assert not [s for s in seen if key in s]
        exported = await manager.records.export_for_player(info.id)
        assert exported["seed"] == key
        assert await manager.records.verify_replay(info.id)
    finally:
        await manager.close()
