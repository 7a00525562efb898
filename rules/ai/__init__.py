"""Computer opponents for every game that supports search (issue 12).

Levels (``rules.ai.player``): ``easy`` is the game's own greedy policy (``Game.policy``);
``normal`` and ``hard`` are information-set Monte Carlo tree search (``rules.ai.ismcts``)
with about 1 s and 5 s of one core per decision (the caller supplies the deadline, or a
fixed number of iterations). Pure like the rest of ``rules``: no I/O, no clock, and no
randomness but the keyed generator of ``rules.core.rng``.

A game supports search by implementing two optional hooks of the contract
(``rules.core.game.Game``): ``known_state(state, role)``, the state as the role knows it,
which ``view`` carries as ``view["known_state"]`` (so hidden information is still
decided in ``view`` alone), and ``determinize(view, role, key)``, a complete state
consistent with that view with the hidden parts dealt at random. War and Fort Sumter
implement both (``rules/war/hidden.py``, ``rules/fort_sumter/hidden.py``); a new game
plugs in by doing the same.

Why our own search and not OpenSpiel's ISMCTS: OpenSpiel's games are C++ or Python
``pyspiel.State`` objects with integer actions, a chance-node model and its own
information-state strings; to use its ISMCTS each of our engines would need an adapter
mapping (verb, arg) to integer ids, our views to its information states and our keyed
generator to its chance outcomes, plus a resampler for hidden state, i.e. everything
this package does, behind a large compiled dependency (open_spiel wheels are hundreds of
MB with numpy and absl) whose search loop cannot read our views directly. The search
itself is about 150 lines here; the cost of a decision is dominated by our engines'
speed, which OpenSpiel could not change.
"""

from rules.ai.ismcts import Node, SearchResult, fingerprint, search
from rules.ai.player import (
    LEVEL_SECONDS,
    LEVELS,
    GreedyPlayer,
    Player,
    SearchPlayer,
    make_player,
    supports_search,
)

__all__ = [
    "LEVELS",
    "LEVEL_SECONDS",
    "GreedyPlayer",
    "Node",
    "Player",
    "SearchPlayer",
    "SearchResult",
    "fingerprint",
    "make_player",
    "search",
    "supports_search",
]
