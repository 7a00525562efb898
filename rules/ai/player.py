"""Players a seat can be given: the game's greedy policy (easy) or the search (normal, hard).

A player is made for one role of one game and asked ``choose(view)`` whenever that role
owes a decision; it reads nothing but the view. The search player keeps its tree between
decisions: when it has just chosen an action that reveals nothing (one token of a value
play, one face-down placement) and the next view is exactly the one the tree expected,
it carries on in the same tree, playing the planned next action at once when the tree
already explored it well enough, or searching on from that node otherwise. So the small
decisions of one turn share one search. In a game with a ``policy_margin`` (Lincoln), a
search's verdict overrules the game's own policy only when its best action averaged that
much more than the policy's choice, and a planned action reused from the tree is held to
the same test at its node.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from rules.ai.ismcts import Node, SearchResult, fingerprint, search, search_key, view_actions
from rules.core import Arg, Game, View

#: The thinking time each search level is calibrated to, in CPU seconds of one quiet core
#: per search. A level is not a time but a number of iterations (:data:`LEVEL_ITERATIONS`),
#: so it plays the same however busy the machine; the caller may stop a search that runs
#: far longer than this as a safety (``bot.dispatch_players.decision``: :data:`SAFETY_FACTOR`
#: times it, in CPU seconds), and ``rules`` reads no clock.
LEVEL_SECONDS: dict[str, float] = {"normal": 1.0, "hard": 5.0}
#: The search budget of each level in each game: iterations per search, calibrated by
#: ``bench/calibrate_levels.py`` so that one quiet core takes about ``LEVEL_SECONDS``
#: (figures in ``docs/ai.md``). An iteration costs very different times in different
#: games (War's playouts play the whole war out, Lincoln's stop after 60 actions).
LEVEL_ITERATIONS: dict[str, dict[str, int]] = {
    "fort_sumter": {"normal": 2_000, "hard": 11_000},
    "lincoln": {"normal": 900, "hard": 4_600},
    "war": {"normal": 850, "hard": 4_200},
}
#: Levels not shown stronger than the level below them, per game, with the reason
#: a player is told where the levels are offered (:func:`level_caveat`). Such a level still
#: plays at its own budget (a seat given it keeps working); the name is only qualified.
#: War: hard (4,200 iterations) against normal (850) scored 10 of 21 games, 47.6%
#: (28.3-67.6%), in the sequential test at the real budgets, undecided, and in the
#: strength table's paired deals 33-0-27 over 30 deals, 55.0% (42.6-67.4%) (docs/ai.md):
#: an interval that reaches below 50%, while normal's over easy does not. A War game
#: gives the bot few decisions (where reinforcements go) and the deal decides most of it.
#: Lincoln: hard (4,600) against normal (900) has 6-0-6 over 6 paired deals in the
#: strength table, 50.0% (3.1-96.9%), and 1-0-1 in the sequential test: nothing shown
#: either way. A paired Lincoln deal at hard costs about 10 CPU minutes, so its
#: measurement runs on (docs/ai.md); the line goes when a decided test shows hard stronger.
NOT_STRONGER: dict[str, dict[str, str]] = {
    "war": {"hard": "War is mostly luck"},
    "lincoln": {"hard": "too few games played to tell"},
}
#: The budget of a game that supports search but has no calibration above yet.
DEFAULT_ITERATIONS: dict[str, int] = {"normal": 1_000, "hard": 5_000}
#: A caller's safety cap on one search: this many times the level's nominal seconds. It
#: only stops a runaway, so it stays well clear of what a search of the budget costs on a
#: busy host: there a CPU second does less work (shared caches), and a normal Fort Sumter
#: search took 4.2 to 5.5 CPU s, more than 5 times its quiet second
#: (``bot.dispatch_players.speed`` widens the cap again on a machine that probes slower
#: than the reference).
SAFETY_FACTOR = 12.0
#: Every level, weakest first.
LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
#: A planned action is played without searching again once it has this many visits.
REUSE_VISITS = 30


class Player(Protocol):
    """Anything that picks one of ``view["actions"]`` from a role's own view."""

    def choose(
        self, view: View, should_stop: Callable[[], bool] | None = None
    ) -> tuple[str, Arg]: ...


class GreedyPlayer:
    """Easy: the game's own automated player (``Game.policy``)."""

    def __init__(self, game: Game) -> None:
        policy = game.automated_player()
        if policy is None:
            raise ValueError(f"{game.title} has no automated player for the easy level")
        self.game = game
        self._policy = policy

    def choose(self, view: View, should_stop: Callable[[], bool] | None = None) -> tuple[str, Arg]:
        return self._policy(self.game, view)


class SearchPlayer:
    """Normal and hard: information-set MCTS from the view (see ``rules.ai.ismcts``).

    ``iterations`` fixes the budget of each search (deterministic for a given ``seed``).
    ``should_stop`` (given to :meth:`choose`) ends a search sooner: with a budget, only as
    a safety cap (then :attr:`cut` says so); without one, it is the whole budget (a
    deadline, which makes the move depend on the machine's speed and load).
    """

    def __init__(
        self,
        game: Game,
        role: str,
        *,
        seed: int,
        iterations: int | None = None,
        reuse_visits: int = REUSE_VISITS,
        guide_epsilon: float | None = None,
        prior_weight: float | None = None,
    ) -> None:
        self.game = game
        #: Epsilon-greedy playouts by the game's automated player (``rules.ai.ismcts``);
        #: None, the default and what every level ships, plays them out at random.
        self.guide_epsilon = guide_epsilon
        #: The weight of the automated player's choices as a prior in the tree
        #: (``rules.ai.ismcts``): the game's own ``prior_weight`` unless given; None or 0
        #: leaves the tree to its own results.
        self.prior_weight = game.prior_weight if prior_weight is None else prior_weight
        self.role = role
        self.seed = seed
        self.iterations = iterations
        self.reuse_visits = reuse_visits
        #: Searches run, and decisions taken from an earlier search without a new one.
        self.searches = 0
        self.reused = 0
        #: Decisions where the game's policy was kept over the search's own best.
        self.deferred = 0
        self._policy = game.automated_player() if game.policy_margin is not None else None
        self.last: SearchResult | None = None
        #: Whether ``should_stop`` ended the last search before its iterations.
        self.cut = False
        #: The mean result of the last chosen action in the tree (the search's estimate
        #: of this role's chance from there), or None when the tree never tried it.
        self.estimate: float | None = None
        #: The view the tree expects next (its fingerprint) and the node it would be at.
        self._expected: tuple[str, Node] | None = None

    def choose(self, view: View, should_stop: Callable[[], bool] | None = None) -> tuple[str, Arg]:
        if view["role"] != self.role:
            raise ValueError(f"this player plays {self.role}, not {view['role']}")
        self.cut = False
        here = fingerprint(view)
        node: Node | None = None
        if self._expected is not None and self._expected[0] == here:
            node = self._expected[1]
            found = node.best(self.role, among=set(view_actions(view)))
            if found is not None and found[1].visits >= self.reuse_visits:
                self.reused += 1
                (_, planned_verb, planned_arg), _ = found
                verb, arg = self._overrule(view, node, (planned_verb, planned_arg))
                self._settle(view, (verb, arg), node.children[(self.role, verb, arg)])
                return verb, arg
        if self.iterations is None and should_stop is None:
            raise ValueError("a search player needs iterations or a deadline")
        result = search(
            self.game,
            view,
            seed=self.seed,
            iterations=self.iterations,
            should_stop=should_stop,
            root=node,
            guide_epsilon=self.guide_epsilon,
            prior_weight=self.prior_weight,
        )
        self.searches += 1
        self.last = result
        self.cut = self.iterations is not None and result.iterations < self.iterations
        verb, arg = self._overrule(view, result.root, result.action)
        self._settle(view, (verb, arg), result.root.children[(self.role, verb, arg)])
        return verb, arg

    def forget(self) -> None:
        """Drop the tree kept for the next decision: the next one is searched afresh (a
        caller whose turn began anew says so, whatever the next view looks like)."""
        self._expected = None

    def _settle(self, view: View, action: tuple[str, Arg], child: Node) -> None:
        """Keep the chosen ``child``'s mean as the estimate, and the tree for what follows."""
        self.estimate = child.reward / child.visits if child.visits else None
        self._expect(view, action, child)

    def _overrule(self, view: View, node: Node, action: tuple[str, Arg]) -> tuple[str, Arg]:
        """The tree's ``action`` at ``node``, unless the game keeps its policy's choice:
        that stands when the tree tried it there and ``action`` did not average
        ``policy_margin`` more."""
        margin = self.game.policy_margin
        if self._policy is None or margin is None:
            return action
        verb, arg = self._policy(self.game, view)
        hint = node.children.get((self.role, verb, arg))
        best = node.children[(self.role, *action)]
        if hint is None or not hint.visits or hint is best:
            return action
        if best.reward / best.visits - hint.reward / hint.visits < margin:
            self.deferred += 1
            return verb, arg
        return action

    def _expect(self, view: View, action: tuple[str, Arg], child: Node) -> None:
        """Remember which view follows ``action`` if it reveals nothing, and where the
        tree is then. Worked out on one determinization: the view after the action
        matches the real one exactly when the action drew or revealed nothing."""
        self._expected = None
        if not child.children:
            return
        state = self.game.determinize(view, self.role, search_key(self.seed, view))
        verb, arg = action
        self.game.act(state, self.role, verb, arg, record_undo=False)
        if self.game.outcome(state) is None and self.role in self.game.active_roles(state):
            self._expected = (fingerprint(self.game.view(state, self.role)), child)


def supports_search(game: Game) -> bool:
    """Whether ``game`` implements the search hooks (``known_state``, ``determinize``)."""
    # Read, not called: any object with the rules contract may be registered (a test's
    # toy game is no ``Game``), and only a class that overrides the hook can be searched.
    method = getattr(type(game), "determinize", None)
    return method is not None and method is not Game.determinize


def level_iterations(game: Game, level: str) -> int:
    """The iterations of one search of ``level`` (normal or hard) in ``game``."""
    if level not in LEVEL_SECONDS:
        raise ValueError(f"{level!r} is not a search level; those are {', '.join(LEVEL_SECONDS)}")
    return LEVEL_ITERATIONS.get(game.name, DEFAULT_ITERATIONS)[level]


def level_caveat(game_name: str, level: str) -> str | None:
    """What a player offered ``level`` in the game ``game_name`` should know, when it has
    not been shown stronger than the level below it there (:data:`NOT_STRONGER`): "not
    shown stronger than normal: War is mostly luck"; None otherwise. It takes the game's
    name, not the game: a compiled build checks a ``Game`` argument's class."""
    reason = NOT_STRONGER.get(game_name, {}).get(level)
    if reason is None or level not in LEVELS[1:]:
        return None
    return f"not shown stronger than {LEVELS[LEVELS.index(level) - 1]}: {reason}"


def safety_seconds(level: str) -> float:
    """The CPU seconds after which a caller may cut a search of ``level``: far beyond its
    calibrated time, so only a pathological position (or a far slower machine) meets it."""
    return SAFETY_FACTOR * LEVEL_SECONDS[level]


def make_player(
    game: Game, role: str, level: str, *, seed: int, iterations: int | None = None
) -> Player:
    """A player for ``role`` at ``level`` (one of :data:`LEVELS`). A search level searches
    ``iterations`` per decision, by default the level's budget in this game
    (:func:`level_iterations`), so its decisions depend on the game, the seed and the
    budget alone."""
    if level == "easy":
        return GreedyPlayer(game)
    if level in LEVEL_SECONDS:
        if not supports_search(game):
            # A game without the search hooks still has its greedy player.
            return GreedyPlayer(game)
        budget = level_iterations(game, level) if iterations is None else iterations
        return SearchPlayer(game, role, seed=seed, iterations=budget)
    raise ValueError(f"unknown level {level!r}; the levels are {', '.join(LEVELS)}")
