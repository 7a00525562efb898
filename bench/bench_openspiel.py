"""OpenSpiel's ISMCTS against ours on Fort Sumter: weight, search speed and strength.

The project uses OpenSpiel's ISMCTS only if it wins on measured strength, speed and weight
as a dependency, and a small search of its own otherwise (docs/ai.md, *Why our own search,
not OpenSpiel's*). This bench measures it. OpenSpiel
is never a dependency of the project: run the bench from a separate venv that has both,

    python3.11 -m venv /tmp/osvenv
    /tmp/osvenv/bin/pip install open_spiel==2.0.2    # pulls numpy, scipy, absl, ...
    /tmp/osvenv/bin/pip install -e .                 # this repository, from its root
    /tmp/osvenv/bin/python bench/bench_openspiel.py [--games 20] [--iterations 200]

Without ``pyspiel`` importable it stops with a one-line message.

**The adapter** (``SumterGame``, ``SumterState``) makes Fort Sumter a Python OpenSpiel
game. Actions: a fixed table built from the game's data (its verbs times every card,
objective, space, ``space:side`` and ``pool``, plus every order of up to three strategy
cards for the Final Crisis) gives each (verb, arg) one integer id. The mover is the first
active role (the seating order, as ``bench_ai_strength`` plays a decision both sides owe
at once). Information states come from ``game.view(state, role)``, which is exactly what
the role may know: its ``known_state`` plus the public log and its private log (what it
has seen so far, for perfect recall), as a 128-bit digest of their JSON so the tree's
keys stay short. Chance: our engines draw inside ``act`` from a keyed generator kept in
the state, so from OpenSpiel's side the game is declared deterministic; the generator is
hidden state like the deck order, and a resample deals both afresh (``determinize`` gives
a fresh generator), so every simulation still sees new draws. Turning our generator into
OpenSpiel chance nodes would mean rewriting every shuffle and draw of the engines.
Resampling uses our own sampler (``game.determinize`` from the mover's view, the public
and private logs put back) through ``ISMCTSBot.set_resampler`` (and the state's
``resample_from_infostate``). Returns are +1/-1 (0 for a draw). Every action applied
through the adapter is checked against the engine's legal list of that state (an
``AssertionError`` otherwise), and every action a player picks in a match against the
view's list before the engine's checked ``act`` carries it out.

**Figures.** (1) Installed weight: open_spiel and what it pulls in, from the installed
distributions' file lists, beside the project's own runtime dependencies and the sizes of
both venvs' site-packages. (2) Iterations per second (CPU time, ``time.process_time``) of
each search at a few positions of one greedy self-play game: ours, OpenSpiel's Python
``ISMCTSBot`` with its ``RandomRolloutEvaluator``, the same bot with our engine's own
playout as its evaluator (where OpenSpiel's time goes), and the C++ ``pyspiel.ISMCTSBot``
if it runs on a Python game (it prints why not when it does not). (3) Strength: each
pairing played ``--games`` times with the first-named player on each side, sides
alternating game by game from set-up seeds 10,000 on (as ``bench_ai_strength``); each game
is reported on standard error as it ends. Pairings: OpenSpiel v ours at equal iterations
per search, OpenSpiel v ours at equal CPU time per search (OpenSpiel gets the iterations
it runs in the time ours takes for ``--iterations``, from the speed figures, or
``--os-iterations``), and each of them v the greedy policy (the easy level).

Our ``SearchPlayer`` keeps its tree between decisions and plays a planned token without a
new search (see ``rules/ai/player.py``); OpenSpiel's bot searches every decision that has
more than one legal action. Budgets are per search; the decision times are printed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from functools import partial
from importlib import metadata
from itertools import permutations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts as os_ismcts
    from open_spiel.python.algorithms import mcts as os_mcts
except ImportError as error:
    sys.exit(
        f"bench_openspiel: pyspiel is not importable ({error}); run it with a venv that has "
        "open_spiel and this project (see the docstring), never the project's own venv."
    )

from rules import GAMES
from rules.ai import GreedyPlayer, SearchPlayer
from rules.ai.ismcts import as_tree_actions, rollout, search, view_actions
from rules.core import Arg, State
from rules.core.undo import copy_json
from rules.fort_sumter.cards import OBJECTIVES, ROLES, SPACE_IDS, STRATEGY

GAME = GAMES["fort_sumter"]
NAME = "python_dispatch_fort_sumter"
#: UCB exploration for OpenSpiel's bot: ours is 0.7 on rewards in [0, 1]; its rewards
#: run from -1 to 1, twice the range, so the same exploration is 1.4.
UCT_C = 1.4

# ----------------------------------------------------------------- the action table

#: Every verb Fort Sumter lists (without the Fate Die option, which this bench leaves off).
VERBS = (
    "keep",
    "event",
    "value",
    "claim",
    "place",
    "done",
    "move",
    "remove",
    "remove_any",
    "space",
    "to",
    "from",
    "order",
)


def action_table() -> tuple[dict[tuple[str, Arg], int], list[tuple[str, Arg]]]:
    """A fixed id for every (verb, arg) Fort Sumter can list, built from its data."""
    args: list[Arg] = [None, *OBJECTIVES, *STRATEGY, *SPACE_IDS, "pool"]
    args += [f"{space}:{role}" for space in SPACE_IDS for role in ROLES]
    pairs: list[tuple[str, Arg]] = [
        (verb, arg) for verb in VERBS if verb != "order" for arg in args
    ]
    for size in (1, 2, 3):
        pairs += [("order", ",".join(p)) for p in permutations(STRATEGY, size)]
    return {pair: index for index, pair in enumerate(pairs)}, pairs


ACTION_ID, ACTIONS = action_table()


def action_id(verb: str, arg: Arg) -> int:
    try:
        return ACTION_ID[(verb, arg)]
    except KeyError:
        raise AssertionError(f"{verb} {arg!r} is not in the action table") from None


# ---------------------------------------------------------------------- the adapter

GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="Dispatch Fort Sumter (adapter)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification={"seed": 0},
)
GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=len(ACTIONS),
    max_chance_outcomes=0,
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    utility_sum=0.0,
    max_game_length=5000,
)


def digest(payload: Any) -> str:
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def information(doc: State, role: str, recall: bool = True) -> str:
    """What ``role`` knows of ``doc``, from its view: the known state and, for perfect
    recall, the public log and its private log."""
    view = GAME.view(doc, role)
    if not recall:
        return digest([role, view["known_state"]])
    return digest([role, view["known_state"], view["log"], view["private_log"]])


class Core:
    """Our engine's state behind one OpenSpiel state, with what is worked out from it
    (the mover, the legal ids, the information strings) until the next action.

    OpenSpiel clones a Python state by ``copy.deepcopy`` of its attributes: the state is
    plain JSON, so :func:`copy_json` does it several times faster, and the worked-out
    parts (never changed in place) are shared."""

    __slots__ = ("doc", "info", "legal", "mover")

    def __init__(self, doc: State | None) -> None:
        self.doc = doc
        self.mover: str | None = None
        self.legal: dict[int, tuple[str, Arg]] | None = None
        self.info: dict[tuple[int, bool], str] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> Core:
        twin = Core(copy_json(self.doc))
        twin.mover, twin.legal, twin.info = self.mover, self.legal, dict(self.info)
        return twin


class SumterState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: SumterGame, doc: State | None = None) -> None:
        super().__init__(game)
        # Set up lazily: OpenSpiel's clone makes a new initial state and then replaces
        # its attributes with copies of the original's.
        self.core = Core(doc)
        self._seed = game.seed

    def state(self) -> State:
        if self.core.doc is None:
            self.core.doc = GAME.setup(seed=self._seed)
        return self.core.doc

    def _mover(self) -> str:
        core = self.core
        if core.mover is None:
            core.mover = GAME.active_roles(self.state())[0]
        return core.mover

    def legal_map(self) -> dict[int, tuple[str, Arg]]:
        core = self.core
        if core.legal is None:
            role = self._mover()
            core.legal = {
                action_id(verb, arg): (verb, arg)
                for _, verb, arg in as_tree_actions(role, GAME.legal_actions(self.state(), role))
            }
        return core.legal

    def current_player(self) -> int:
        if self.state()["outcome"] is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return ROLES.index(self._mover())

    def _legal_actions(self, player: int) -> list[int]:
        assert player == self.current_player(), "only the mover has actions"
        return sorted(self.legal_map())

    def _apply_action(self, action: int) -> None:
        move = self.legal_map().get(int(action))
        assert move is not None, f"{ACTIONS[action]} is not legal for {self._mover()} here"
        role = self._mover()
        GAME.act(self.state(), role, move[0], move[1], record_undo=False, trusted=True)
        self.core.mover, self.core.legal, self.core.info = None, None, {}

    def _action_to_string(self, player: int, action: int) -> str:
        verb, arg = ACTIONS[action]
        return verb if arg is None else f"{verb} {arg}"

    def is_terminal(self) -> bool:
        return self.state()["outcome"] is not None

    def returns(self) -> list[float]:
        outcome = self.state()["outcome"]
        if outcome is None or outcome["winner"] is None:
            return [0.0, 0.0]
        return [1.0 if role == outcome["winner"] else -1.0 for role in ROLES]

    def information_of(self, player: int, recall: bool = True) -> str:
        info = self.core.info
        key = (player, recall)
        if key not in info:
            info[key] = information(self.state(), ROLES[player], recall)
        return info[key]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SumterState:
        return resample(self, player_id, int(probability_sampler() * 2**53))

    def __str__(self) -> str:
        doc = self.state()
        return f"round {doc['round']} step {doc['step']} vp {doc['vp']}"


class Observer:
    """OpenSpiel's observer interface: strings only (no tensors)."""

    def __init__(self, iig_obs_type: Any, params: Any) -> None:
        self.recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: SumterState, player: int) -> None:
        pass

    def string_from(self, state: SumterState, player: int) -> str:
        return state.information_of(player, self.recall)


class SumterGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(GAME_TYPE, GAME_INFO, params or {})
        self.seed = int((params or {}).get("seed", 0))

    def new_initial_state(self, doc: State | None = None) -> SumterState:
        return SumterState(self, doc)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(iig_obs_type, params)


pyspiel.register_game(GAME_TYPE, SumterGame)


def resample(state: SumterState, player: int, key: int) -> SumterState:
    """A state the player cannot tell from ``state``, its hidden parts dealt by our own
    sampler from the player's view alone (the logs put back: they are part of what the
    player knows, and ``determinize`` leaves them out)."""
    role = ROLES[player]
    view = GAME.view(state.state(), role)
    doc = GAME.determinize(view, role, key)
    doc["log"] = copy_json(view["log"])
    doc["private_log"][role] = copy_json(view["private_log"])
    sample: SumterState = state.get_game().new_initial_state(doc)
    return sample


class Resampler:
    """``ISMCTSBot.set_resampler``'s callback, with keys from a seeded generator."""

    def __init__(self, seed: int) -> None:
        self.keys = random.Random(seed)

    def __call__(self, state: SumterState, player: int) -> SumterState:
        return resample(state, player, self.keys.getrandbits(64))


class EngineRollouts(os_mcts.Evaluator):  # type: ignore[misc]
    """OpenSpiel's evaluator interface over our engine's own random playout (the same
    uniform playout as ``RandomRolloutEvaluator``, without the adapter's calls)."""

    def __init__(self, seed: int) -> None:
        self.draw = random.Random(seed).random

    def evaluate(self, state: SumterState) -> Any:
        result = rollout(GAME, copy_json(state.state()), self.draw)
        return np.array([2 * result[role] - 1 for role in ROLES])

    def prior(self, state: SumterState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(action, 1 / len(legal)) for action in legal]


def openspiel_bot(
    game: SumterGame, seed: int, iterations: int, engine_rollouts: bool = False
) -> Any:
    """OpenSpiel's Python ISMCTS, resampling with our sampler."""
    evaluator = (
        EngineRollouts(seed + 1)
        if engine_rollouts
        else os_mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed + 1))
    )
    bot = os_ismcts.ISMCTSBot(
        game,
        evaluator,
        UCT_C,
        iterations,
        random_state=np.random.RandomState(seed),
        final_policy_type=os_ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    )
    bot.set_resampler(Resampler(seed + 2))
    return bot


# ------------------------------------------------------------------- the self-check


def greedy_positions(seed: int) -> list[State]:
    """Every state of one greedy self-play game where the mover has two actions or more."""
    greedy = GreedyPlayer(GAME)
    doc = GAME.setup(seed=seed)
    found = []
    while doc["outcome"] is None:
        role = GAME.active_roles(doc)[0]
        view = GAME.view(doc, role)
        if len(view_actions(view)) > 1:
            found.append(copy_json(doc))
        verb, arg = greedy.choose(view)
        GAME.act(doc, role, verb, arg, record_undo=False)
    return found


def self_check(game: SumterGame) -> int:
    """The adapter's guarantees, at positions of a greedy game; returns how many.

    No peeking: a role's information string is the same when the other side's hidden
    cards are swapped with unseen ones (by hand, and by our sampler) and changes when
    its own hand does. Resampling keeps the mover's information string and legal ids.
    Every listed action has an id that maps back to it."""
    positions = greedy_positions(10_000)[::7]
    for doc in positions:
        state = game.new_initial_state(copy_json(doc))
        for player, role in enumerate(ROLES):
            other = ROLES[1 - player]
            mine = state.information_of(player)
            assert mine == state.information_state_string(player)
            hand = doc["hands"][other]
            if hand and doc["strategy_deck"]:
                swapped = copy_json(doc)
                swapped["hands"][other][0], swapped["strategy_deck"][0] = (
                    swapped["strategy_deck"][0],
                    swapped["hands"][other][0],
                )
                twin = game.new_initial_state(swapped)
                assert twin.information_of(player) == mine, f"{role} sees {other}'s hand"
                assert twin.information_of(1 - player) != state.information_of(1 - player)
            for key in range(3):
                sample = resample(state, player, key)
                assert sample.information_of(player) == mine, "a resample changed what it knows"
                if player == state.current_player():
                    assert sample.legal_actions() == state.legal_actions()
        for action in state.legal_actions():
            assert action_id(*ACTIONS[action]) == action
    return len(positions)


# -------------------------------------------------------------------------- weight


def dist_size(dist: metadata.Distribution) -> int:
    total = 0
    for file in dist.files or []:
        path = Path(str(dist.locate_file(file)))
        if path.is_file():
            total += path.stat().st_size
    return total


def closure(name: str) -> list[metadata.Distribution]:
    """The installed distribution ``name`` and everything it requires (no extras)."""
    seen: dict[str, metadata.Distribution] = {}
    todo = [name]
    while todo:
        wanted = todo.pop()
        try:
            dist = metadata.distribution(wanted)
        except metadata.PackageNotFoundError:
            continue
        key = dist.metadata["Name"].lower().replace("_", "-")
        if key in seen:
            continue
        seen[key] = dist
        for requirement in dist.requires or []:
            if "extra ==" in requirement:
                continue
            named = re.match(r"[A-Za-z0-9._-]+", requirement)
            if named is not None:
                todo.append(named.group(0))
    return list(seen.values())


def tree_size(root: Path) -> int:
    total = 0
    for folder, _, files in os.walk(root):
        for file in files:
            path = Path(folder, file)
            if not path.is_symlink():
                total += path.stat().st_size
    return total


def site_packages(prefix: Path) -> Path | None:
    found = sorted(prefix.glob("lib/python3*/site-packages"))
    return found[0] if found else None


def weight(project_venv: Path) -> None:
    mb = 1 / 1_000_000
    print("## Weight (installed, apparent file sizes)")
    for name in ("open_spiel", "dispatch-bot"):
        dists = sorted(closure(name), key=dist_size, reverse=True)
        sizes = ", ".join(f"{d.metadata['Name']} {dist_size(d) * mb:.1f}" for d in dists)
        total = sum(dist_size(d) for d in dists)
        print(f"  {name} and what it requires: {total * mb:.1f} MB in {len(dists)} dists ({sizes})")
    ours = site_packages(Path(sys.prefix))
    if ours is not None:
        print(f"  this venv's site-packages ({ours}): {tree_size(ours) * mb:.1f} MB")
    theirs = site_packages(project_venv)
    if theirs is not None:
        print(
            f"  the project's own venv ({theirs}, with the test tools): "
            f"{tree_size(theirs) * mb:.1f} MB"
        )
    print(f"  OpenSpiel {metadata.version('open_spiel')}, Python {sys.version.split()[0]}")


# --------------------------------------------------------------------------- speed


def timed(call: Callable[[], Any]) -> float:
    started = time.process_time()
    call()
    return time.process_time() - started


def cpp_bot(game: SumterGame, state: SumterState, iterations: int) -> str:
    """The C++ ISMCTS on this Python game, in this process (it may crash the process)."""
    bot = pyspiel.ISMCTSBot(
        1, pyspiel.RandomRolloutEvaluator(1, 1), UCT_C, iterations, -1,
        pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False,
    )  # fmt: skip
    spent = timed(lambda: bot.step(state))
    return f"{iterations / spent:,.0f} it/s"


def cpp_probe() -> str:
    """Whether the C++ ISMCTS runs on this Python game: tried in a child process (run
    alone, after the other measurements), since a failure there can be a crash."""
    try:
        done = subprocess.run(
            [sys.executable, __file__, "--cpp-probe"],
            capture_output=True,
            text=True,
            timeout=300,
        )
    except subprocess.TimeoutExpired:
        return "no answer in 300 s"
    if done.returncode == 0:
        return done.stdout.strip().splitlines()[-1]
    how = f"signal {-done.returncode}" if done.returncode < 0 else f"exit {done.returncode}"
    last = (done.stderr.strip().splitlines() or ["no message"])[-1][:160]
    return (
        f"does not run: the process died ({how}; {last}). pybind releases the GIL in "
        "ISMCTSBot.step, and the C++ search then calls the Python game's observer without "
        "it; past that, the Python state has no ResampleFromInfostate for C++ to call and "
        "the C++ bot has no set_resampler in Python"
    )


def speed(game: SumterGame, iterations: int) -> float:
    """Iterations per second of each search; returns OpenSpiel's (its own evaluator)
    over ours, for the equal-time budget."""
    print(f"## Search speed (CPU time, {iterations} iterations a search)")
    print(f"  {'position':34} {'ours':>9} {'OpenSpiel':>10} {'OS+our playout':>15}")
    positions = greedy_positions(10_000)
    picks = [positions[i * (len(positions) - 1) // 3] for i in range(4)]
    totals = {"ours": 0.0, "os": 0.0}
    for number, doc in enumerate(picks):
        role = GAME.active_roles(doc)[0]
        view = GAME.view(doc, role)
        state = game.new_initial_state(copy_json(doc))
        ours = timed(partial(search, GAME, view, seed=number, iterations=iterations))
        os_time = timed(partial(openspiel_bot(game, number, iterations).step, state.clone()))
        fast = openspiel_bot(game, number, iterations, engine_rollouts=True)
        os_fast = timed(partial(fast.step, state.clone()))
        totals["ours"] += ours
        totals["os"] += os_time
        rates = [iterations / t for t in (ours, os_time, os_fast)]
        where = f"round {doc['round']} {doc['step']} ({role[:5]})"
        print(f"  {where:34} {rates[0]:9,.0f} {rates[1]:10,.0f} {rates[2]:15,.0f}", flush=True)
    total = len(picks) * iterations
    print(
        f"  {'all':34} {total / totals['ours']:9,.0f} {total / totals['os']:10,.0f}"
        f"   (OpenSpiel/ours = {totals['ours'] / totals['os']:.3f})"
    )
    print(f"  C++ pyspiel.ISMCTSBot on this Python game: {cpp_probe()}")
    return totals["ours"] / totals["os"]


# ------------------------------------------------------------------------ strength


class OpenSpielPlayer:
    """OpenSpiel's Python ISMCTS as a player of the match loop."""

    def __init__(self, game: SumterGame, seed: int, iterations: int) -> None:
        self.bot = openspiel_bot(game, seed, iterations)
        self.searches = 0

    def pick(self, state: SumterState) -> tuple[str, Arg]:
        if len(state.legal_actions()) > 1:
            self.searches += 1
        action = int(self.bot.step(state))
        return ACTIONS[action]


def play(
    game: SumterGame,
    seed: int,
    kinds: dict[str, str],
    budgets: dict[str, int],
    times: dict[str, list[float]],
) -> str | None:
    """One game; ``kinds`` maps each role to a player kind (``os``, ``os-time``, ``ours``,
    ``greedy``); returns the winner, adding each search's CPU time to ``times``."""
    players: dict[str, Any] = {}
    for index, (role, kind) in enumerate(kinds.items()):
        player_seed = seed * 31 + index
        if kind.startswith("os"):
            players[role] = OpenSpielPlayer(game, player_seed, budgets[kind])
        elif kind == "ours":
            players[role] = SearchPlayer(GAME, role, seed=player_seed, iterations=budgets[kind])
        else:
            players[role] = GreedyPlayer(GAME)
    state = game.new_initial_state(GAME.setup(seed=seed))
    while not state.is_terminal():
        doc = state.state()
        role = GAME.active_roles(doc)[0]
        view = GAME.view(doc, role)
        player = players[role]
        searches = getattr(player, "searches", 0)
        started = time.process_time()
        if isinstance(player, OpenSpielPlayer):
            # The bot gets the real state, but reads it only through the adapter: its
            # information string, its legal ids and our sampler, all from its view.
            verb, arg = player.pick(state)
        else:
            verb, arg = player.choose(view)
        spent = time.process_time() - started
        if getattr(player, "searches", 0) > searches:
            times.setdefault(kinds[role], []).append(spent)
        assert (role, verb, arg) in view_actions(view), f"{kinds[role]} chose {verb} {arg!r}"
        checked = copy_json(doc)
        GAME.act(checked, role, verb, arg, record_undo=False)  # the checked path
        state.apply_action(action_id(verb, arg))
        assert state.state() == checked
    winner: str | None = state.state()["outcome"]["winner"]
    return winner


LABELS = {
    "os": "OpenSpiel",
    "os-time": "OpenSpiel (equal time)",
    "ours": "ours",
    "greedy": "greedy",
}
PAIRINGS = ("os:ours", "os-time:ours", "ours:greedy", "os:greedy")


def strength(
    game: SumterGame, pairings: Iterable[str], games: int, budgets: dict[str, int]
) -> None:
    print(
        f"## Strength: {games} games per pairing and side; ours {budgets['ours']}, "
        f"OpenSpiel {budgets['os']} (equal iterations) and {budgets['os-time']} "
        "(equal CPU time) iterations per search"
    )
    print(f"  {'pairing':32} {'as unionist':>12} {'as secess.':>11} {'draws':>6} {'overall':>8}")
    times: dict[str, list[float]] = {}
    for pairing in pairings:
        measured, other = pairing.split(":")
        order = [(index, 10_000 + n + 100_000 * index) for n in range(games) for index in (0, 1)]
        wins = [0, 0]
        draws = 0
        for index, seed in order:
            kinds = {r: (measured if r == ROLES[index] else other) for r in ROLES}
            spent: dict[str, list[float]] = {}
            winner = play(game, seed, kinds, budgets, spent)
            for kind, values in spent.items():
                times.setdefault(kind, []).extend(values)
            wins[index] += winner == ROLES[index]
            draws += winner is None
            medians = ", ".join(
                f"{kind} {len(v)} searches median {statistics.median(v):.3f} s"
                for kind, v in spent.items()
            )
            print(
                f"  {pairing} seed {seed}: {measured} as {ROLES[index]}, winner {winner}; "
                f"{measured} won {sum(wins)} so far ({medians})",
                file=sys.stderr,
                flush=True,
            )
        rates = [f"{100 * won / games:.0f}%" for won in wins]
        overall = 100 * (sum(wins) + 0.5 * draws) / (2 * games)
        label = f"{LABELS[measured]} v {LABELS[other]}"
        print(f"  {label:32} {rates[0]:>12} {rates[1]:>11} {draws:>6} {overall:>7.1f}%", flush=True)
    print("  CPU seconds per search: player, searches, median, p90, max")
    for kind, values in sorted(times.items()):
        ordered = sorted(values)
        print(
            f"    {LABELS[kind]:24} {len(values):6} {statistics.median(values):8.3f} "
            f"{ordered[int(0.9 * (len(ordered) - 1))]:8.3f} {ordered[-1]:8.3f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per pairing and side")
    parser.add_argument("--iterations", type=int, default=200, help="iterations per search")
    parser.add_argument(
        "--os-iterations",
        type=int,
        help="OpenSpiel's iterations for the equal-time pairing (default: from the speeds)",
    )
    parser.add_argument(
        "--speed-iterations", type=int, default=400, help="iterations of each timed search"
    )
    parser.add_argument("--pairing", action="append", help=f"one of {', '.join(PAIRINGS)}")
    parser.add_argument(
        "--project-venv",
        type=Path,
        default=Path(__file__).resolve().parents[1] / ".venv",
        help="the project's own venv, for the weight comparison",
    )
    parser.add_argument("--skip", action="append", default=[], choices=["weight", "speed"])
    parser.add_argument("--cpp-probe", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    game = pyspiel.load_game(NAME)
    if options.cpp_probe:
        doc = greedy_positions(10_000)[5]
        print(cpp_bot(game, game.new_initial_state(doc), 20))
        return
    print(f"self-check: the adapter holds at {self_check(game)} positions", flush=True)
    if "weight" not in options.skip:
        weight(options.project_venv)
    ratio = None
    if "speed" not in options.skip:
        ratio = speed(game, options.speed_iterations)
    equal_time = options.os_iterations
    if equal_time is None:
        if ratio is None:
            parser.error("--skip speed needs --os-iterations")
        equal_time = max(1, round(options.iterations * ratio))
    budgets = {
        "os": options.iterations,
        "os-time": equal_time,
        "ours": options.iterations,
    }
    strength(game, options.pairing or PAIRINGS, options.games, budgets)


if __name__ == "__main__":
    main()
