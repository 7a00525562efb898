"""Computer opponents for every game that supports search.

Levels (``rules.ai.player``): ``easy`` is the game's own greedy policy (``Game.policy``);
``normal`` and ``hard`` are information-set Monte Carlo tree search (``rules.ai.ismcts``)
with a fixed number of iterations per search in each game (``LEVEL_ITERATIONS``),
calibrated to about 1 s and 5 s of one quiet core, so a level plays the same on a busy
machine as on a quiet one (the caller may add a safety cap on time). Pure like the rest
of ``rules``: no I/O, no clock, and no randomness that the search's seed and the view
do not fix (see ``rules.ai.ismcts``).

A game supports search by implementing two optional hooks of the contract
(``rules.core.game.Game``): ``known_state(state, role)``, the state as the role knows it,
which ``view`` carries as ``view["known_state"]`` (so hidden information is still
decided in ``view`` alone), and ``determinize(view, role, key)``, a complete state
consistent with that view with the hidden parts dealt at random. Every built-in game
implements both (``rules/<game>/hidden.py``); a new game plugs in by doing the same. A
game may also give ``determinizer(view, role)``, ``determinize`` for one view as a
function of the key alone, reading what the view decides once per search (Lincoln does).
A long game may also set ``playout_horizon`` and ``estimate(state)``: the search's random
playouts then stop after that many actions and take the game's judgement of who is
winning (Lincoln: a logistic model fitted to self-play, ``rules/lincoln/estimate.py``).

The Fate Die opponent is not a player here but a rules variant: a game's ``fate`` option
(Fort Sumter and Lincoln, ``rules.fate_die.opponent``) makes one side's hand a CDG Solo
System Card Display, and that side's card choices list only what the die allows. Any
player above then decides within them (``/game new ... style: fate`` seats Dispatch at a
level on such a side), and the search samples the display's face-down cards like the
rest of a hand.

Why our own search rather than OpenSpiel's, and the measured figures (engine speed,
decision times, strength per pairing, legality), are in ``docs/ai.md``.
"""

from rules.ai.ismcts import Node, SearchResult, fingerprint, search
from rules.ai.player import (
    LEVEL_ITERATIONS,
    LEVEL_SECONDS,
    LEVELS,
    NOT_STRONGER,
    SAFETY_FACTOR,
    GreedyPlayer,
    Player,
    SearchPlayer,
    level_caveat,
    level_iterations,
    make_player,
    safety_seconds,
    supports_search,
)

__all__ = [
    "LEVELS",
    "LEVEL_ITERATIONS",
    "LEVEL_SECONDS",
    "NOT_STRONGER",
    "SAFETY_FACTOR",
    "GreedyPlayer",
    "Node",
    "Player",
    "SearchPlayer",
    "SearchResult",
    "fingerprint",
    "level_caveat",
    "level_iterations",
    "make_player",
    "safety_seconds",
    "search",
    "supports_search",
]
