"""Small pieces every part of the flow uses: ending an action, the Europe end, naval
cards in hand."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from rules.core import State, goto
from rules.lincoln.board import sync_captures, union_vp
from rules.lincoln.data import CARDS, EUROPE_END

if TYPE_CHECKING:
    from rules.core import Game


def check_europe(game: Game, state: State) -> bool:
    """Europe at the Confederate end wins the game for the Confederacy at once."""
    if state["outcome"] is None and state["europe"] >= EUROPE_END:
        game.finish(
            state,
            "confederate",
            "the Europe marker reached the Confederate end: Europe enters the war",
            {"union": union_vp(state)},
            code="europe",
        )
    return state["outcome"] is not None


def finish_action(game: Game, state: State) -> None:
    """An action is over: Europe captures are brought up to date and play goes back to
    the turn (which ends it when no action is left)."""
    state["doing"] = None
    sync_captures(state)
    if check_europe(game, state):
        return
    goto(game, state, "turn")


#: The cards bearing the naval icon, and those bearing the train icon: the turn sorts its
#: hand by them at every listing, so they are sets rather than lookups card by card.
NAVAL_CARDS: frozenset[str] = frozenset(c for c, data in CARDS.items() if data["icons"]["naval"])
TRAIN_CARDS: frozenset[str] = frozenset(c for c, data in CARDS.items() if data["icons"]["train"])


def run_by_die(state: State, role: str) -> bool:
    """Whether the Fate Die runs ``role`` (``rules.fate_die.opponent.fate_role(state) ==
    role``). Asked at every card drawn or discarded and every action spent, so the
    die's record is read here directly."""
    fate = state.get("fate")
    return fate is not None and fate["role"] == role


def naval_cards(state: State, role: str, exclude: tuple[str, ...] = ()) -> list[str]:
    return [c for c in state["piles"][role]["hand"] if c in NAVAL_CARDS and c not in exclude]


def train_cards(state: State, role: str) -> list[str]:
    return [c for c in state["piles"][role]["hand"] if c in TRAIN_CARDS]


def options(items: Iterable[int | str]) -> list[int | str]:
    """A list of choices as the rules contract types it."""
    return list(items)
