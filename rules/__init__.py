"""Rules engines: pure, synchronous, deterministic. The contract every game keeps is
described in docs/architecture.md ("The rules contract").

>>> from rules import get_game
>>> game = get_game("war")
>>> state = game.setup(seed=4)
>>> game.roles
('union', 'confederate')
>>> game.active_roles(state)           # both place reinforcements at once, face down
('union', 'confederate')
>>> view = game.view(state, "union")
>>> sorted(view["actions"])
['place']
>>> state = game.act(state, "union", "place", view["actions"]["place"][0])
>>> game.outcome(state) is None
True
"""

from __future__ import annotations

import importlib

# Before any other module of the package: a compiled build older than its sources is
# passed over for the sources (``rules/compiled.py``).
from rules import compiled

compiled.guard()

from rules.core import (  # noqa: E402 (after the guard, on purpose)
    Game,
    IllegalAction,
    MalformedAction,
    NotAllowedNow,
    RulesError,
    UnknownGame,
)

GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add a game to :data:`GAMES` under its name."""
    GAMES[game.name] = game
    return game


def get_game(name: str) -> Game:
    """The registered game called ``name``; :class:`UnknownGame` if there is none."""
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES)) or "none"
        raise UnknownGame(f"There is no game called {name!r} (known: {known}).") from None


#: The game packages shipped with Dispatch; each module exposes ``GAME``.
BUILTIN_GAMES: tuple[str, ...] = ("war", "fort_sumter", "lincoln", "solo")


def _register_builtin_games() -> None:
    for module_name in BUILTIN_GAMES:
        module = importlib.import_module(f"rules.{module_name}")
        register(module.GAME)


__all__ = [
    "GAMES",
    "Game",
    "IllegalAction",
    "MalformedAction",
    "NotAllowedNow",
    "RulesError",
    "UnknownGame",
    "get_game",
    "register",
]

_register_builtin_games()
