"""Single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse,
"Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012), over the rules contract.

One tree per decision, seen from the searching role (the *observer*). A node is a
sequence of actions (role, verb, arg) from the observer's current information set. Each
iteration:

1. **Determinize**: ``game.determinize(view, role, key)`` (through
   ``game.determinizer(view, role)``, ready for many keys) deals the hidden parts (the
   other side's hand, deck order, face-down choices) at random, consistent with the view.
   The search never sees the real state; everything it knows is the view.
2. **Select**: walk down the tree through the actions legal in this determinization,
   by UCB1 where each child's exploration term counts how often it was *available*
   rather than how often its parent was visited (the ISMCTS correction for actions that
   exist only in some determinizations).
3. **Expand** one action legal here but not yet in the tree.
4. **Simulate** with uniformly random legal actions (the simulation path:
   ``Game.playout``, which plays as ``decisions`` then ``act(..., record_undo=False,
   trusted=True)`` would, less the log lines nobody reads) to the end of the game or, in a
   game that sets a ``playout_horizon``, for that many actions, after which the game's
   ``estimate`` judges each side's chance from the position reached. A long game (Lincoln
   is several hundred actions) is mostly noise at its far end, and the cut playout
   costs a fraction of a whole one.
   With a *guide* (``guide_epsilon``, off by default), the playout is the game's own
   automated player instead (``Game.automated_player``, read from each acting role's
   view of the determinization), and a uniformly random action with probability
   epsilon: an epsilon-greedy playout (measured against random playouts at equal CPU in
   docs/ai.md, *Policy-guided playouts*).
   With a *prior* (``prior_weight``, off by default), the tree itself leans towards the
   automated player's choice instead: the first time a node is left through an untried
   action, the policy is asked once, from the mover's view of that iteration's
   determinization; that action is expanded first, and while it is tried it gets a
   progressive bias of ``prior_weight / (visits + 1)`` added to its UCB1 score (Chaslot
   et al., "Progressive Strategies for Monte-Carlo Tree Search", 2008), which fades as
   its own results come in. One policy call per node, not one per playout action.
5. **Back up** the result: 1 for a win, 0 for a loss, 1/2 for a draw (or the estimated
   chances), each node credited from the point of view of the role whose action led to
   it.

When several roles owe a decision at once (placements face down, secret objective
choices), the tree lets the observer act first and then the others, in seating order.
``undo`` is never searched. Every random choice is drawn from the search key (made from
the caller's seed and the view): the determinizations through the games' keyed generator
(``rules.core.rng``), the search's own picks and playouts from a Mersenne Twister instance
seeded with it. So the same view, seed and budget give the same search, node for node.
There is no clock here: the budget is a number of iterations or a ``should_stop``
callback supplied by the caller (a deadline).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.core import Actions, Arg, Game, State, View

#: An action in the tree: who takes it, the verb and its argument.
Action = tuple[str, str, Arg]

#: UCB1 exploration constant for rewards in [0, 1].
EXPLORATION = 0.7
#: A simulation that runs longer than this many actions stops there, and is scored by the
#: game's ``estimate`` (as a draw when it has none).
ROLLOUT_CAP = 20_000


class Node:
    """Statistics of one action sequence from the observer's information set."""

    __slots__ = ("asked", "available", "children", "hint", "mover", "reward", "visits")

    def __init__(self, mover: str | None) -> None:
        #: The role whose action led here (None at the root).
        self.mover = mover
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.available = 0
        #: Sum of results for ``mover``.
        self.reward = 0.0
        #: With a prior: whether the policy was asked here, and the action it chose.
        self.asked = False
        self.hint: Action | None = None

    def best(
        self, role: str | None = None, among: set[Action] | None = None
    ) -> tuple[Action, Node] | None:
        """The most visited child (of ``role``'s actions when given, and only of the
        actions ``among`` when given); ties go to the action first added, so the choice
        is deterministic."""
        found: tuple[Action, Node] | None = None
        for action, child in self.children.items():
            if role is not None and action[0] != role:
                continue
            if among is not None and action not in among:
                continue
            if found is None or child.visits > found[1].visits:
                found = (action, child)
        return found


@dataclass
class SearchResult:
    """What a search found: the action to take, the tree it grew, how much it did."""

    action: tuple[str, Arg]
    root: Node
    iterations: int

    def visits(self) -> dict[str, int]:
        """Visits of each of the observer's root actions, as ``"verb arg"`` (for tests
        and reports)."""
        return {
            f"{verb} {arg}" if arg is not None else verb: child.visits
            for (_, verb, arg), child in self.root.children.items()
        }


def fingerprint(view: View) -> str:
    """A digest of everything the viewer knows (its ``known_state``)."""
    text = json.dumps(view["known_state"], sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def search_key(seed: int, view: View) -> int:
    """The generator key of one search: from the caller's seed and what the view shows,
    so a given view and seed always give the same search."""
    digest = hashlib.blake2b(f"{seed}|{fingerprint(view)}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def as_tree_actions(role: str, legal: Actions) -> list[Action]:
    """``legal`` (a role's listed actions) as the tree names them, in the same order,
    without ``undo``."""
    actions: list[Action] = []
    for verb, args in legal.items():
        if verb == "undo":
            continue
        if args is True:
            actions.append((role, verb, None))
        elif isinstance(args, list):
            actions.extend((role, verb, arg) for arg in args)
    return actions


def view_actions(view: View) -> list[Action]:
    """The actions ``view`` lists for its role."""
    return as_tree_actions(view["role"], view["actions"])


def mover_of(active: tuple[str, ...], observer: str) -> str:
    """Who acts next in the tree when several roles owe a decision: the observer first."""
    return observer if observer in active else active[0]


def listed(game: Game, state: State, role: str) -> list[Action]:
    """Every legal action of ``role`` (never ``undo``), in the engine's order, less the
    game's ``idle_actions`` unless nothing else is left (a search that may pass when
    passing changes nothing can pass for ever against itself)."""
    actions = as_tree_actions(role, game.legal_actions(state, role))
    idle = game.idle_actions(state, role)
    if idle:
        kept = [a for a in actions if (a[1], a[2]) not in idle]
        return kept or actions
    return actions


def rewards(game: Game, state: State) -> dict[str, float]:
    """1 for the winner, 0 for the others, 1/2 each for a draw; for an unfinished game the
    game's ``estimate``, or 1/2 each when it has none."""
    outcome = game.outcome(state)
    if outcome is None:
        guess = game.estimate(state)
        return guess if guess is not None else {role: 0.5 for role in game.roles}
    winner = outcome["winner"]
    if winner is None:
        return {role: 0.5 for role in game.roles}
    return {role: 1.0 if role == winner else 0.0 for role in game.roles}


def rollout(game: Game, state: State, draw: Callable[[], float]) -> dict[str, float]:
    """Play on with uniformly random legal actions to the end, the game's playout horizon
    or the cap, whichever comes first; ``draw`` is the search's own uniform generator in
    [0, 1)."""
    game.playout(state, draw, game.playout_horizon or ROLLOUT_CAP)
    return rewards(game, state)


#: A playout's chooser: a uniform draw in [0, 1) and the state, played on in place.
Rollout = Callable[[Game, State, Callable[[], float]], dict[str, float]]


def guided_rollout(epsilon: float, policy: Callable[[Game, View], tuple[str, Arg]]) -> Rollout:
    """A playout that takes ``policy``'s choice from the acting role's view, or with
    probability ``epsilon`` one round of the random playout, to the end of the game, its
    horizon or the cap; scored as :func:`rollout` scores."""
    if not 0 <= epsilon <= 1:
        raise ValueError(f"a guide's epsilon is a probability, not {epsilon!r}")

    def play(game: Game, state: State, draw: Callable[[], float]) -> dict[str, float]:
        for _ in range(game.playout_horizon or ROLLOUT_CAP):
            if state["outcome"] is not None:
                break
            if draw() < epsilon:
                game.playout(state, draw, 1)
                continue
            role = next(iter(game.decisions(state)))
            verb, arg = policy(game, game.view(state, role))
            game.act(state, role, verb, arg, record_undo=False, trusted=True)
        return rewards(game, state)

    return play


# Every option after the view is keyword-only and off by default, so the count is harmless.
def search(  # noqa: PLR0913
    game: Game,
    view: View,
    *,
    seed: int,
    iterations: int | None = None,
    should_stop: Callable[[], bool] | None = None,
    root: Node | None = None,
    guide_epsilon: float | None = None,
    prior_weight: float | None = None,
) -> SearchResult:
    """Search from ``view`` (the observer's own view) and return the most visited action.

    The budget is ``iterations``, or ``should_stop`` (asked before every iteration), or
    both (whichever ends first); at least one iteration always runs. ``root`` continues a
    tree grown by an earlier search of the same information set (tree reuse).
    ``guide_epsilon`` makes the playouts the game's automated player's, epsilon-greedy
    (:func:`guided_rollout`); by default, and in a game without one, they are random.
    ``prior_weight`` biases the tree towards the automated player's choices (the module's
    step 2); off when None or 0, and in a game without an automated player."""
    if iterations is None and should_stop is None:
        raise ValueError("a search needs a budget: iterations or should_stop")
    if prior_weight is not None and prior_weight < 0:
        raise ValueError(f"a prior's weight is not negative, not {prior_weight!r}")
    policy = game.automated_player() if guide_epsilon is not None else None
    play_out = rollout if policy is None else guided_rollout(guide_epsilon or 0.0, policy)
    prior = game.automated_player() if prior_weight else None
    lean = Prior(prior, prior_weight or 0.0) if prior is not None else None
    role = view["role"]
    if not view["actions"]:
        raise ValueError("nothing to decide: this role has no action now")
    tree = root if root is not None else Node(None)
    key = search_key(seed, view)
    # The search's own choices (which untried action, the random playouts) need no
    # secrecy, only a fixed sequence for a fixed key: a seeded Mersenne Twister instance
    # (never the global one) draws them about twenty times faster than the keyed
    # generator the games deal with.
    draw = random.Random(key).random
    deal = game.determinizer(view, role)
    done = 0
    while True:
        if done and iterations is not None and done >= iterations:
            break
        if done and should_stop is not None and should_stop():
            break
        state = deal(_mix(key, done + 1))
        _iterate(game, state, role, tree, draw, play_out, lean)
        done += 1
    # A tree kept from an earlier search also holds actions that other chance outcomes
    # allowed there (another Fate Die roll, another card drawn): only what the view lists
    # now may be chosen.
    found = tree.best(role, among=set(view_actions(view)))
    if found is None:
        raise RuntimeError("the search found no action for the observer")
    (_, verb, arg), _ = found
    return SearchResult(action=(verb, arg), root=tree, iterations=done)


@dataclass(frozen=True)
class Prior:
    """The automated player whose choices the tree leans towards, and how hard."""

    policy: Callable[[Game, View], tuple[str, Arg]]
    weight: float

    def hint(self, game: Game, state: State, node: Node, mover: str) -> Action | None:
        """The policy's choice at ``node``, asked the first time and kept: it reads only
        the mover's view of the determinization, as the automated player would."""
        if not node.asked:
            node.asked = True
            verb, arg = self.policy(game, game.view(state, mover))
            node.hint = (mover, verb, arg)
        return node.hint


def _iterate(
    game: Game,
    state: State,
    observer: str,
    root: Node,
    draw: Callable[[], float],
    play_out: Rollout = rollout,
    prior: Prior | None = None,
) -> None:
    node = root
    path = [root]
    while state["outcome"] is None:
        # One question for who acts and how (``decisions``), as ``listed`` would answer it
        # for the mover ``mover_of`` names.
        options = game.decisions(state)
        mover = observer if observer in options else next(iter(options))
        actions = as_tree_actions(mover, options[mover])
        idle = game.idle_actions(state, mover)
        if idle:
            actions = [a for a in actions if (a[1], a[2]) not in idle] or actions
        untried = [a for a in actions if a not in node.children]
        hint = prior.hint(game, state, node, mover) if prior is not None else None
        if untried:
            if hint is not None and hint in untried:
                action = hint
            else:
                action = untried[int(draw() * len(untried))]
            child = Node(mover)
            node.children[action] = child
            child.available += 1
            _apply(game, state, action)
            path.append(child)
            break
        chosen: Action | None = None
        best = -1.0
        for action in actions:
            child = node.children[action]
            child.available += 1
        for action in actions:
            child = node.children[action]
            score = child.reward / child.visits + EXPLORATION * math.sqrt(
                math.log(child.available) / child.visits
            )
            if action == hint and prior is not None:
                score += prior.weight / (child.visits + 1)
            if score > best:
                best, chosen = score, action
        assert chosen is not None
        _apply(game, state, chosen)
        node = node.children[chosen]
        path.append(node)
    result = play_out(game, state, draw)
    root.visits += 1
    for node in path[1:]:
        node.visits += 1
        if node.mover is not None:
            node.reward += result[node.mover]


def _mix(key: int, n: int) -> int:
    """The determinization key of iteration ``n`` of the search keyed ``key``."""
    return (key ^ (n * 0x9E3779B97F4A7C15)) & ((1 << 64) - 1)


def _apply(game: Game, state: State, action: Action) -> None:
    role, verb, arg = action
    game.act(state, role, verb, arg, record_undo=False, trusted=True)


def describe(result: SearchResult, top: int = 5) -> list[dict[str, Any]]:
    """The observer's most visited root actions with their visits and mean result."""
    rows: list[dict[str, Any]] = [
        {"action": (verb, arg), "visits": child.visits, "mean": child.reward / child.visits}
        for (_, verb, arg), child in result.root.children.items()
        if child.visits
    ]
    rows.sort(key=lambda row: -int(row["visits"]))
    return rows[:top]
