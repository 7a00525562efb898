"""The turn under way, read back from a game's log for a bot seat's search.

A search player keeps its tree between the small decisions of one turn; a process that
kept none (a restart, another worker) grows it again from the role's earlier decisions
of the turn, which a replay of the game gives (``decision.NeedsHistory``).
"""

from __future__ import annotations

from typing import Any

import rules
from bot.dispatch_players.decision import Earlier
from bot.storage.rows import ActionRow


def own_turn(played: list[ActionRow], role: str) -> int:
    """How many of the last actions of ``played`` (a game's log) are ``role``'s, in a row."""
    count = 0
    for action in reversed(played):
        if action.role != role:
            break
        count += 1
    return count


def earlier_decisions(
    game_name: str,
    options: Any,
    seed: int | str | None,
    played: list[ActionRow],
    role: str,
    turn: int,
) -> tuple[Earlier, ...]:
    """The game replayed from ``seed`` through ``played``: ``role``'s view before each of
    the last ``turn`` actions, with the action (but the formal Dones)."""
    game = rules.get_game(game_name)
    if seed is None:
        raise ValueError("no seed to replay from")
    state = game.setup(seed=seed, options=options)
    cut = len(played) - turn
    for action in played[:cut]:
        state = game.act(state, action.role, action.verb, action.arg)
    found = []
    for action in played[cut:]:
        view = game.view(state, role)
        # A formal Done (nothing left to choose) is sent by the manager, never asked of
        # the player: it is no decision of the turn.
        if not (action.verb == "done" and view.get("done_implied")):
            found.append(Earlier(view, action.verb, action.arg))
        state = game.act(state, action.role, action.verb, action.arg)
    return tuple(found)
