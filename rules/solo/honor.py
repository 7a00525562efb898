"""Commands & Colors: Samurai, Dragon cards and Honor & Fortune tokens.

The playsheet's "Dragon Cards" section keeps each side's Dragon cards face up beside its
display; its End of Turn section trades them against Honor & Fortune tokens; Order One
Unit cards draw one; the "Shogun" reshuffle shuffles the Dragon deck with its discards.
Dispatch counts them: per side the tokens held, the Dragon cards held and whether one was
played this turn; for the Dragon deck the cards left to draw and the discards. A
scenario's starting tokens and Dragon cards are the host game's: the player adds them
with the table verbs (gain_token, draw_dragon). State: ``state["honor"]``, made on first
use so sessions saved before it was kept still load.
"""

from __future__ import annotations

from typing import Any

from rules.core import State, log
from rules.solo.display import side_name
from rules.solo.sheets import of


def tracked(state: State) -> bool:
    """Does this playsheet keep Dragon cards and Honor & Fortune tokens?"""
    return bool(of(state).get("end_of_turn_honor"))


def _fresh(state: State) -> dict[str, Any]:
    """No tokens, no Dragon cards held, the whole Dragon deck to draw."""
    sides = of(state)["sides"]
    return {
        "tokens": dict.fromkeys(sides, 0),
        "dragons": dict.fromkeys(sides, 0),
        "played": dict.fromkeys(sides, False),
        "draw": int(of(state)["dragon_deck_size"]),
        "discard": 0,
    }


def honor(state: State) -> dict[str, Any]:
    """The counts, kept in the state from their first change on."""
    if state.get("honor") is None:
        state["honor"] = _fresh(state)
    found: dict[str, Any] = state["honor"]
    return found


def gain_tokens(state: State, side: str, count: int) -> None:
    honor(state)["tokens"][side] += count
    log(state, f"{side_name(state, side)} gains {count} Honor & Fortune token(s).")


def spend_token(state: State, side: str) -> None:
    counts = honor(state)
    counts["tokens"][side] = max(0, counts["tokens"][side] - 1)
    log(state, f"{side_name(state, side)} spends an Honor & Fortune token.")


def draw_dragon(state: State, side: str) -> None:
    """Draw a Dragon card face up beside the display; an empty Dragon deck is shuffled
    from its discards first (the host game's rule)."""
    counts = honor(state)
    if not counts["draw"] and counts["discard"]:
        shuffle_dragons(state)
    if not counts["draw"]:
        log(state, "The Dragon deck and its discards are empty: no Dragon card is drawn.")
        return
    counts["draw"] -= 1
    counts["dragons"][side] += 1
    log(state, f"{side_name(state, side)} draws a Dragon card and places it face up.")


def play_dragon(state: State, side: str) -> None:
    counts = honor(state)
    counts["dragons"][side] -= 1
    counts["discard"] += 1
    counts["played"][side] = True
    log(state, f"{side_name(state, side)} plays a Dragon card (pay its cost in tokens).")


def discard_dragon_for_token(state: State, side: str) -> None:
    counts = honor(state)
    counts["dragons"][side] -= 1
    counts["discard"] += 1
    counts["tokens"][side] += 1
    log(state, f"{side_name(state, side)} discards a Dragon card for a token.")


def shuffle_dragons(state: State) -> None:
    """ "Shogun": the Dragon deck is shuffled with its discard pile."""
    counts = honor(state)
    counts["draw"] += counts["discard"]
    counts["discard"] = 0
    log(state, "The Dragon deck is shuffled with its discards.")


def view(state: State) -> dict[str, Any] | None:
    """The public counts, or None where the playsheet keeps none."""
    if not tracked(state):
        return None
    counts = state.get("honor") or _fresh(state)
    return {
        "tokens": dict(counts["tokens"]),
        "dragons": dict(counts["dragons"]),
        "draw": counts["draw"],
        "discard": counts["discard"],
    }
