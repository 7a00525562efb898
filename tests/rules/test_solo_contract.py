"""The generic rules-contract tests of ``test_contract``, run for the solo assistant.

The solo game is a built-in game now (``rules.BUILTIN_GAMES``), so ``test_contract`` covers
it with its default options (Paths of Glory); this module runs the same checks by name and
on token playsheets too. The fixture keeps it registered should a test swap the registry.
"""

from __future__ import annotations

import pytest

import rules
from rules.solo import GAME
from tests.rules import test_contract as contract


@pytest.fixture(autouse=True)
def solo_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rules.GAMES, GAME.name, GAME)


def test_solo_declares_name_title_and_roles() -> None:
    contract.test_game_declares_name_title_and_roles("solo")


def test_solo_setup_is_json_with_a_version_and_deterministic() -> None:
    contract.test_setup_is_json_with_a_version_and_deterministic("solo")


def test_solo_unknown_option_is_refused() -> None:
    contract.test_unknown_option_is_refused("solo")


@pytest.mark.parametrize("seed", contract.THOROUGH_SEEDS)
def test_solo_every_action_keeps_the_contract(seed: int) -> None:
    contract.test_every_action_keeps_the_contract("solo", seed)


def test_solo_same_seed_and_actions_give_a_byte_identical_state() -> None:
    contract.test_same_seed_and_actions_give_a_byte_identical_state("solo")


def test_solo_unlisted_actions_are_refused_and_change_nothing() -> None:
    contract.test_unlisted_actions_are_refused_and_change_nothing("solo")


def test_solo_nothing_is_legal_once_the_game_is_over() -> None:
    contract.test_nothing_is_legal_once_the_game_is_over("solo")


def test_solo_undo_steps_back_only_the_actors_own_decision() -> None:
    contract.test_undo_steps_back_only_the_actors_own_decision("solo")


@pytest.mark.slow
def test_solo_random_play_always_ends() -> None:
    contract.test_random_play_always_ends("solo")


@pytest.mark.parametrize("playsheet", ["washingtons_war", "cc_samurai", "for_the_people"])
def test_solo_contract_holds_for_other_playsheets(
    monkeypatch: pytest.MonkeyPatch, playsheet: str
) -> None:
    """The generic checks use default options (Paths of Glory); run them on token games."""
    defaults = dict(GAME.default_options, playsheet=playsheet)
    monkeypatch.setattr(type(GAME), "default_options", defaults)
    contract.test_every_action_keeps_the_contract("solo", 1)
    contract.test_unlisted_actions_are_refused_and_change_nothing("solo")
