"""The decision of a bot seat, made in a worker from the bot's own view.

A search level is a number of iterations per search in each game
(``rules.ai.level_iterations``), not a time: a bot's decision depends only on what its
view shows (and the tree kept from earlier decisions of the turn), never on how busy the
machine is; its seed is fixed for the game and role (``seeding.search_seed``). A search
that runs past ``rules.ai.safety_seconds`` (12 times the level's nominal time), widened
by how much slower than the reference core the machine ran when the process first
searched (``bot.dispatch_players.speed``), in CPU seconds of its own thread is cut as a
safety, so that a pathological position cannot hang a seat; each cut is logged with its
game and level and counted (``BotSeats.cut``, in the summary logged when the seats
close). CPU time of the thread, not wall time, so that other work on the machine brings
the cap nearer only as far as it makes a CPU second do less, which the cap's width
leaves room for.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import rules
from bot.dispatch_players.seeding import search_seed
from bot.dispatch_players.speed import machine_slowdown
from rules.ai import Player, SearchPlayer, make_player, safety_seconds
from rules.ai.player import LEVEL_SECONDS
from rules.core import Arg, Game, View

#: Players by (game id, role, level), kept in the worker so the small decisions of one
#: turn share a search tree. Bounded: the least recently used are dropped.
_PLAYERS: dict[tuple[int, str, str], Player] = {}
_MAX_PLAYERS = 256
#: How long the game's log was when each kept player last decided: whether it made the
#: turn's last decision, or the turn went on elsewhere (:func:`_made_the_last`).
_DECIDED_AT: dict[tuple[int, str, str], int] = {}


@dataclass(frozen=True)
class Decision:
    """A bot's move, and what the search behind it did (nothing of it hidden)."""

    verb: str
    arg: Arg
    #: Iterations of the search this decision ran; None when it ran none (the easy
    #: level, or a move planned by an earlier search of the turn).
    iterations: int | None = None
    #: The search's budget, in iterations.
    budget: int | None = None
    #: Whether the safety cap stopped the search before its budget.
    cut: bool = False
    #: The safety cap, in CPU seconds.
    cap_seconds: float = 0.0
    #: The search's estimate of the bot's chance after this move (the chosen action's
    #: mean result in the tree); None at the easy level. Hidden until the game is over
    #: (it would hint at the bot's cards): kept in ``bot_estimates``, read by
    #: ``bot.tables.records.estimates`` for a finished game only.
    estimate: float | None = None

    @property
    def action(self) -> tuple[str, Arg]:
        return self.verb, self.arg


@dataclass(frozen=True)
class SearchLimits:
    """How far a bot's search may go, when not as its level says (tests, benches)."""

    #: Iterations of every search instead of the level's budget.
    iterations: int | None = None
    #: The safety cap in CPU seconds instead of the level's ``safety_seconds``.
    cap_seconds: float | None = None
    #: The search thread's CPU clock for the cap (None: ``time.thread_time``).
    clock: Callable[[], float] | None = None
    #: How many times slower than the reference core this machine is: the level's
    #: ``safety_seconds`` is widened by it (None: this process's own probe,
    #: ``bot.dispatch_players.speed.machine_slowdown``).
    slowdown: float | None = None


class NeedsHistory(Exception):
    """``decide`` holds no player for a turn already under way (a restart, another worker,
    a player dropped from :data:`_PLAYERS`): it needs the role's earlier decisions of the
    turn (:class:`Earlier`) to grow the tree the kept player would have had."""


@dataclass(frozen=True)
class Earlier:
    """One of the role's earlier decisions in the turn under way: its view and move."""

    view: View
    verb: str
    arg: Arg


@dataclass(frozen=True)
class SeatTurn:
    """What ``decide`` is told of the seat beyond its view: its search seed
    (:func:`search_seed`, made where the game's key is read, which never leaves the bot's
    process; None: the seed of a game without a key), how many of the game's last
    actions were this role's own in a row (``turn``: the turn under way), and, when asked
    for them (:class:`NeedsHistory`), those decisions (``earlier``)."""

    seed: int | None = None
    turn: int = 0
    earlier: tuple[Earlier, ...] | None = None
    #: How many actions the game's log holds, and the turn's own (``turn`` last ones,
    #: as ``(verb, arg)``).
    played: int = 0
    tail: tuple[tuple[str, Arg], ...] = ()


def decide(
    game_name: str,
    game_id: int,
    role: str,
    level: str,
    view: View,
    limits: SearchLimits = SearchLimits(),
    seat: SeatTurn = SeatTurn(),
) -> Decision:
    """The bot's decision from its own view (runs in a worker process or thread), with
    the seat's seed and turn so far (:class:`SeatTurn`).

    A search level runs its budget of iterations in this game (``limits.iterations``
    instead, when given), whatever the time, unless the search passes the safety cap: the
    clock (CPU seconds of this thread, ``time.thread_time``, unless ``limits`` gives
    another) has advanced ``limits.cap_seconds`` (unless given, the level's
    ``safety_seconds`` times the machine's slowdown: :func:`_cap_seconds`).

    The search player keeps its tree between the decisions of a turn (``seat.turn``:
    this role's own actions at the end of the game's log, in a row). A turn
    that begins (``turn`` 0) starts afresh, whatever the player kept. A turn under way
    with no player kept here raises :class:`NeedsHistory` unless ``seat.earlier`` gives
    its decisions: they are searched again, in order, by a new player, which so
    holds the very tree a player kept from the start of the turn would hold. So the move
    is the same whether or not this process kept the player (a restart, another worker);
    only a search the safety cap cut could come out differently the second time, and then
    the turn goes on from a fresh search."""
    game = rules.get_game(game_name)
    key = (game_id, role, level)
    seed = search_seed(game_id, role) if seat.seed is None else seat.seed
    player = _PLAYERS.pop(key, None)
    decided_at = _DECIDED_AT.pop(key, None)
    if player is not None and seat.turn and not _made_the_last(decided_at, seat):
        player = None  # the turn went on in another process: this player missed some of it
    if player is None:
        if seat.turn and seat.earlier is None and level in LEVEL_SECONDS:
            raise NeedsHistory(game_id, role, seat.turn)
        player = make_player(game, role, level, seed=seed, iterations=limits.iterations)
        if isinstance(player, SearchPlayer) and seat.turn and seat.earlier is not None:
            player = _grown(game, player, seat.earlier, level, seed, limits)
    while len(_PLAYERS) >= _MAX_PLAYERS:
        oldest = next(iter(_PLAYERS))
        _PLAYERS.pop(oldest)
        _DECIDED_AT.pop(oldest, None)
    _PLAYERS[key] = player  # the most recently used last
    _DECIDED_AT[key] = seat.played
    if not isinstance(player, SearchPlayer):
        verb, arg = player.choose(view)
        return Decision(verb, arg)
    if not seat.turn:
        player.forget()
    stop = _safety_stop(level, limits)
    searches = player.searches
    verb, arg = player.choose(view, should_stop=stop)
    searched = player.last.iterations if player.searches > searches and player.last else None
    cap = _cap_seconds(level, limits)
    return Decision(verb, arg, searched, player.iterations, player.cut, cap, player.estimate)


def _made_the_last(decided_at: int | None, seat: SeatTurn) -> bool:
    """Whether a player that last decided when the log held ``decided_at`` actions made
    the turn's last decision: it decided within the turn, and all that came after its
    move is formal Dones (the manager's, never asked of a player)."""
    start = seat.played - seat.turn
    if decided_at is None or not start <= decided_at < seat.played:
        return False
    return all(action == ("done", None) for action in seat.tail[decided_at - start + 1 :])


def _cap_seconds(level: str, limits: SearchLimits) -> float:
    """The safety cap of a search of ``level``, in CPU seconds: the limits' own, or the
    level's widened by the machine's slowdown (the limits', or this process's probe)."""
    if limits.cap_seconds is not None:
        return limits.cap_seconds
    slowdown = machine_slowdown() if limits.slowdown is None else limits.slowdown
    return safety_seconds(level) * slowdown


def _safety_stop(level: str, limits: SearchLimits) -> Callable[[], bool]:
    """The safety cap of one search: true once the clock has run ``cap_seconds`` on."""
    cap = _cap_seconds(level, limits)  # first: a probe it may take is no part of the search
    tick = limits.clock or time.thread_time
    end = tick() + cap
    return lambda: tick() >= end


def _grown(
    game: Game,
    player: SearchPlayer,
    earlier: tuple[Earlier, ...],
    level: str,
    seed: int,
    limits: SearchLimits,
) -> SearchPlayer:
    """``player`` after the turn's ``earlier`` decisions, searched again in order; a new
    player when one of them comes out otherwise than it was played (it was cut by the
    safety cap, or made by whoever held the seat before)."""
    for step in earlier:
        if not step.view.get("actions"):
            break
        if player.choose(step.view, should_stop=_safety_stop(level, limits)) != (
            step.verb,
            step.arg,
        ):
            break
    else:
        return player
    fresh = make_player(game, player.role, level, seed=seed, iterations=limits.iterations)
    assert isinstance(fresh, SearchPlayer)
    return fresh
