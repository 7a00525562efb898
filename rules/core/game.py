"""The rules contract every game implements, and the machinery they share.

A game subclasses :class:`Game`, names its roles and steps, and fills in ``initialise``
(the set-up), ``public_view`` and ``private_view``. Everything else (checking that an
action is legal, undo, the prompt and the list of actions in a view, the outcome) is here,
once, so every game behaves the same to the manager, the bot and the tests.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, cast

from mypy_extensions import mypyc_attr

from rules.core import undo
from rules.core.errors import IllegalAction, MalformedAction, NotAllowedNow
from rules.core.flow import Step, main_frame
from rules.core.log import QUIET
from rules.core.rng import SPLITMIX, generator
from rules.core.types import UNRECORDED, Actions, Arg, Outcome, State, View


@mypyc_attr(allow_interpreted_subclasses=True)
class Game:
    """Base class of a game's rules engine; one shared instance per game."""

    #: Registry key, e.g. ``"war"``.
    name: ClassVar[str] = ""
    #: Title shown to players.
    title: ClassVar[str] = ""
    #: Role ids in seating order, e.g. ``("union", "confederate")``.
    roles: ClassVar[tuple[str, ...]] = ()
    #: Display names of the roles.
    role_names: ClassVar[Mapping[str, str]] = {}
    #: Schema version of this game's state document; bump when its shape changes.
    state_version: ClassVar[int] = 1
    #: Options a game accepts at creation, with their defaults.
    default_options: ClassVar[Mapping[str, Any]] = {}
    #: The flow of play: every named step of the game.
    steps: ClassVar[Mapping[str, Step]] = {}
    #: A short how-to-play summary in our own words (for ``/rules``), plain text.
    summary: ClassVar[str] = ""
    #: The module that draws this game (``draw_board(view)``, ``draw_hand(view)``), named
    #: here so ``rules`` never imports Pillow; None: the game is played in text only.
    renderer: ClassVar[str | None] = None
    #: The module of this game's automated player (``choose(game, view) -> (verb, arg)``),
    #: used for golden playthroughs, balance figures and tests; None: random legal moves.
    policy: ClassVar[str | None] = None
    #: How many actions a search's random playout makes before it stops and asks
    #: :meth:`estimate` who is winning; None: every playout is played to the end.
    playout_horizon: ClassVar[int | None] = None
    #: A search player keeps :attr:`policy`'s choice unless the search's own best action
    #: averaged at least this much more (results run 0 to 1); None: the search decides
    #: alone. For a game whose hand-written policy outplays a search of the levels'
    #: budgets, so the search only overrules it where it is clearly better.
    policy_margin: ClassVar[float | None] = None
    #: The weight of :attr:`policy`'s choices as a prior in a search's tree (progressive
    #: bias, ``rules.ai.ismcts``): its choice at a node is tried first and leaned towards
    #: until the node's own results outweigh it. None (or 0): the tree learns alone.
    prior_weight: ClassVar[float | None] = None

    #: A game of one seat (the CDG Solo System): its table is its player's own, so it takes
    #: no opponent, clock or reminder, and its prompt is posted at the table, never DMed.
    #: Declared, and held to ``len(roles) == 1`` by the contract tests.
    one_seat: ClassVar[bool] = False
    #: The ``code`` of every way this game's rules may end it (:meth:`finish` refuses any
    #: other); the table's own endings (``TABLE_OUTCOMES``) may come on top.
    outcome_codes: ClassVar[frozenset[str]] = frozenset()

    #: Whether the game overrides :meth:`can_undo` (set for each subclass).
    own_can_undo: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.own_can_undo = cls.can_undo is not Game.can_undo

    # ----------------------------------------------------------------- the contract

    def setup(self, seed: int | str, options: Mapping[str, Any] | None = None) -> State:
        """A new game, ready for its first decision.

        ``seed`` is a secret key (hex, from :func:`rules.core.rng.new_key`) for a game
        nobody can predict, or a chosen int for a practice game anyone who knows the
        number can predict (see ``rules.core.rng``).
        """
        chosen = dict(self.default_options)
        for key, value in (options or {}).items():
            if key not in self.default_options:
                raise IllegalAction(f"{self.title} has no option {key!r}.")
            if not isinstance(value, type(self.default_options[key])):
                raise IllegalAction(
                    f"Option {key!r} takes a {type(self.default_options[key]).__name__}."
                )
            chosen[key] = value
        state: State = {
            "version": self.state_version,
            "game": self.name,
            # A chosen seed is public; a key is secret and lives only in "rng".
            "seed": _public_seed(seed),
            "rng": generator(seed),
            "options": chosen,
            "step": "",
            "calls": [main_frame()],
            "log": [],
            "private_log": {role: [] for role in self.roles},
            "undo": [],
            "seal": 0,
            "outcome": None,
        }
        self.initialise(state)
        return state

    def view(self, state: State, role: object) -> View:
        """What ``role`` may see (``None``: an observer). The one gate of hidden information.

        ``role`` is typed ``object``: anything else than a role of the game or None is a
        :class:`MalformedAction` (in the compiled build too, which checks declared types)."""
        if role is None:
            return self._view(state, None)
        if not isinstance(role, str) or role not in self.roles:
            raise MalformedAction(f"There is no role {role!r} in {self.title}.")
        return self._view(state, role)

    def _view(self, state: State, role: str | None) -> View:
        view: View = self.public_view(state)
        if role is not None:
            view.update(self.private_view(state, role))
        step = self._step(state)
        actions = self.legal_actions(state, role) if role is not None else {}
        view.update(
            {
                "game": self.name,
                "role": role,
                "step": state["step"],
                "active": list(self.active_roles(state)),
                "status": self.status(state),
                "score": self.score(state),
                "prompt": step.prompt(self, state, role) if role and actions else "",
                "actions": actions,
                "labels": self._labels(state, role, actions) if role else {},
                "batch": (view_batch := self._batch(state, role, actions) if role else {}),
                "done_implied": bool(role and self._done_implied(state, role, actions)),
                "repeats": self._repeats(state, role, view_batch) if role and actions else {},
                "log": list(state["log"]),
                "private_log": list(state["private_log"].get(role, [])) if role else [],
                "outcome": state["outcome"],
            }
        )
        if role is not None:
            known = self.known_state(state, role)
            if known is not None:
                view["known_state"] = known
        return view

    def act(
        self,
        state: State,
        role: object,
        verb: object,
        arg: object = None,
        *,
        record_undo: bool = True,
        trusted: bool = False,
    ) -> State:
        """Apply one decision of ``role``; raise :class:`IllegalAction` if it is not listed.

        ``record_undo=False`` is for simulations that never undo (random play, policies,
        benchmarks): no snapshot is taken, so snapshot undo is never offered, and otherwise the
        game goes exactly as with snapshots; once the game is over the two states are
        identical.

        ``trusted=True`` is the simulation fast path: the caller promises that ``verb`` and
        ``arg`` were taken unchanged from :meth:`legal_actions` of this very state and role
        (never ``undo``), so the action list is not built a second time to check them. The
        game then goes exactly as through the checked path. Anything a player sends stays
        on the checked path.

        ``role``, ``verb`` and ``arg`` are typed ``object``: whatever a caller sends is
        checked here, so a malformed one raises :class:`MalformedAction` (never a
        ``TypeError``, even in the compiled build, which checks declared types)."""
        if trusted:
            return self._apply(state, cast(str, role), cast(str, verb), cast(Arg, arg), record_undo)
        if not isinstance(role, str) or role not in self.roles:
            raise MalformedAction(f"There is no role {role!r} in {self.title}.")
        if not isinstance(verb, str) or not _VERB.fullmatch(verb):
            raise MalformedAction(f"{str(verb)[:40]!r} is not an action word.")
        if isinstance(arg, bool) or not isinstance(arg, int | str | None):
            raise MalformedAction(f"'{verb}' takes a number or a name.")
        if state["outcome"] is not None:
            raise NotAllowedNow("The game is over.")
        actions = self.legal_actions(state, role)
        if not actions:
            raise NotAllowedNow(f"It is not your turn: {self.status(state)}")
        if verb not in actions:
            raise NotAllowedNow(
                f"'{verb}' is not possible now; you may: {', '.join(sorted(actions))}."
            )
        arg = _match_arg(verb, actions[verb], arg)
        if verb == "undo":
            self.undo(state, role)
            return state
        return self._apply(state, role, verb, arg, record_undo)

    def _apply(self, state: State, role: str, verb: str, arg: Arg, record_undo: bool) -> State:
        """Carry out a checked decision: the step's handler, then undo bookkeeping."""
        step = self.steps.get(state["step"]) or self._step(state)
        if not record_undo and not state.get("undo"):
            # No snapshot to keep and none on the stack: the bookkeeping below could only
            # empty an empty stack, so a simulation skips it.
            step.handle(self, state, role, verb, arg)
            return state
        before = undo.snapshot(state) if record_undo else None
        seal_before = state["seal"]
        # Listed actions exist only while the game is on, so no outcome check here. The
        # role deciding is active (listed actions are only given to active roles), so a
        # step with one chooser had exactly that role active.
        active_before = (role,) if step.one_chooser else step.active(self, state)
        step.handle(self, state, role, verb, arg)
        if state["seal"] != seal_before:
            return state  # new information: the stack is already gone
        if state["outcome"] is None:
            step = self.steps.get(state["step"]) or self._step(state)
            if step.active(self, state) == active_before:
                if before is not None:
                    undo.push(state, role, before)
                return state
        undo.hand_over(state)
        return state

    def upgrade(self, state: State) -> State:
        """Bring a state stored by an older version of this engine up to date, in place.

        Called wherever a stored state is loaded; a current state is returned untouched.
        Each game converts its own documents in :meth:`upgrade_from`, one version at a
        time; the undo snapshots inside the state are converted too, so an undo taken
        after the upgrade lands on an up-to-date state.
        """
        version = int(state.get("version", 1))
        if version > self.state_version:
            raise IllegalAction(
                f"This game was saved by a newer version of {self.title}; it cannot continue."
            )
        while version < self.state_version:
            self.upgrade_from(state, version)
            for entry in state.get("undo") or []:
                self.upgrade_from(entry["state"], version)
                entry["state"]["version"] = version + 1
            version += 1
            state["version"] = version
        # Snapshots of the version-1 kind held whole copies, logs included.
        state["undo"] = [undo.from_full_copy(entry) for entry in state.get("undo") or []]
        return state

    def upgrade_from(self, document: State, version: int) -> None:
        """Convert ``document`` (a state, or an undo snapshot of one, without ``undo``)
        from ``version`` to ``version + 1``, in place. Games override this when they bump
        :attr:`state_version`."""
        raise NotImplementedError(f"{self.name} cannot upgrade a version {version} state")

    def active_roles(self, state: State) -> tuple[str, ...]:
        """Roles that owe a decision now; empty once the game is over."""
        if state["outcome"] is not None:
            return ()
        step = self.steps.get(state["step"]) or self._step(state)
        return step.active(self, state)

    def outcome(self, state: State) -> Outcome | None:
        """``None`` while playing, else ``{"winner", "code", "reason", "score"}``."""
        stored = state["outcome"]
        if stored is None:
            return None
        return {
            "winner": stored.get("winner"),
            "code": str(stored.get("code") or UNRECORDED),
            "reason": str(stored.get("reason") or ""),
            "score": dict(stored.get("score") or {}),
        }

    # ------------------------------------------------------------ shared machinery

    def legal_actions(self, state: State, role: str) -> Actions:
        """Every legal action of ``role`` now, including ``undo`` when allowed."""
        if state["outcome"] is not None:
            return {}
        step = self.steps.get(state["step"]) or self._step(state)
        if role not in step.active(self, state):
            return {}
        actions = step.actions(self, state, role)
        # With no snapshot on the stack the plain ``can_undo`` says no (simulations never
        # keep any); a game with its own ``can_undo`` is always asked.
        if (state.get("undo") or self.own_can_undo) and self.can_undo(state, role):
            return {**actions, "undo": True}
        return actions

    def decisions(self, state: State) -> dict[str, Actions]:
        """``{role: actions}`` for every role that owes a decision now, in the order of
        :meth:`active_roles`: each role's :meth:`legal_actions` without ``undo``, which
        random play and searches never take. Empty once the game is over.

        The simulation path's question at every position, answered in one call: the step
        is looked up and asked who is active once, where ``active_roles`` followed by
        ``legal_actions`` asks twice. The dicts are new on every call."""
        if state["outcome"] is not None:
            return {}
        step = self.steps.get(state["step"]) or self._step(state)
        # ``legal_actions`` is the step's list plus ``undo``: the step's list is the answer.
        if step.one_chooser:
            (role,) = step.active(self, state)
            return {role: step.actions(self, state, role)}
        return {role: step.actions(self, state, role) for role in step.active(self, state)}

    def playout(self, state: State, draw: Callable[[], float], limit: int) -> None:
        """Play on from ``state``, in place, with uniformly random legal actions: at most
        ``limit`` rounds, ending sooner with the game. ``draw`` is a uniform generator in
        [0, 1); a search's playouts (``rules.ai.ismcts``) are made of these.

        Each round: when several roles owe a decision, one of them drawn uniformly; then
        one of that role's listed actions (never ``undo``), every verb's args flattened in
        the engine's order, drawn uniformly. It is the loop of :meth:`decisions` then
        ``act(..., record_undo=False, trusted=True)``, with the same draws, the same
        actions and the same states, less what that loop does and a playout never reads:
        the other active roles' action lists, the second look-up of the step, the calls
        through ``act`` and ``_apply``, the undo bookkeeping (there is no snapshot to
        keep: a state without any on its stack never gets one on this path), and the log:
        the state is marked quiet while it plays (``rules.core.log``), so no line is
        added to ``log`` or ``private_log``. Once it returns, the state is the one that
        loop reaches, less those lines. A state that holds snapshots (a player's, never
        a search's) plays through ``act``, lines and all."""
        if state.get("undo") or "undo" not in state:
            self._playout_checked(state, draw, limit)
            return
        if QUIET in state:
            self._playout_quiet(state, draw, limit)
            return
        state[QUIET] = True
        try:
            self._playout_quiet(state, draw, limit)
        finally:
            del state[QUIET]

    def _playout_quiet(self, state: State, draw: Callable[[], float], limit: int) -> None:
        """The rounds of :meth:`playout` on a state marked quiet and without snapshots.

        The same draws as :meth:`_playout_checked`, one per round for the action (and one
        before it when several roles owe a decision), with the loop cut to what a round
        needs: a step's one verb (most steps list one or two) is drawn from without the
        count over every verb, an arg list is counted by its truth and ``len`` (the values
        of :data:`~rules.core.types.Actions` are lists or bools), and the handler is called
        directly (``Step.handle``'s own look-up, unless the step overrides ``handle``)."""
        find = self.steps.get
        outcome, at = "outcome", "step"
        for _ in range(limit):
            if state[outcome] is not None:
                return
            step = find(state[at]) or self._step(state)
            if step.one_chooser:
                (role,) = step.active(self, state)
            else:
                active = step.active(self, state)
                role = active[0] if len(active) == 1 else self._drawn_role(active, draw)
            legal = step.actions(self, state, role)
            arg: Arg = None
            if len(legal) == 1:
                ((verb, args),) = legal.items()
                if args is True:
                    draw()  # one action of one: the draw is made all the same
                else:
                    size = len(args) if args else 0
                    pick = int(draw() * size)
                    if pick >= size:
                        continue  # nothing listed (or a draw that rounds up): no action
                    arg = args[pick]  # type: ignore[index]
            else:
                drawn = self._drawn_action(legal, draw())
                if drawn is None:
                    continue  # nothing listed (or a draw that rounds up): no action
                verb, arg = drawn
            handler = None if step.own_handle else step.handlers.get(verb)
            if handler is None:
                step.handle(self, state, role, verb, arg)
            else:
                handler(step, self, state, role, arg)

    @staticmethod
    def _drawn_action(legal: Actions, drawn: float) -> tuple[str, Arg] | None:
        """The action at ``drawn`` (in [0, 1)) of every action that ``legal`` lists, in
        order, each verb's args one by one and a bare verb as one; None when the draw
        rounds up past the last."""
        total = 0
        for args in legal.values():
            if args is True:
                total += 1
            elif args:
                total += len(args)
        pick = int(drawn * total)
        for verb, args in legal.items():
            if args is True:
                if not pick:
                    return verb, None
                pick -= 1
            elif args:
                if pick < len(args):
                    return verb, args[pick]
                pick -= len(args)
        return None

    @staticmethod
    def _drawn_role(active: tuple[str, ...], draw: Callable[[], float]) -> str:
        """The role a playout round draws among several active ones (one draw only when
        there are several): ``decisions`` keys its dict by role, so a role named twice
        counts once."""
        roles = list(dict.fromkeys(active))
        return roles[0] if len(roles) == 1 else roles[int(draw() * len(roles))]

    def _playout_checked(self, state: State, draw: Callable[[], float], limit: int) -> None:
        """:meth:`playout` through :meth:`decisions` and ``act`` (the reference loop)."""
        for _ in range(limit):
            if state["outcome"] is not None:
                return
            options = self.decisions(state)
            if len(options) == 1:
                ((role, legal),) = options.items()
            else:
                role = list(options)[int(draw() * len(options))]
                legal = options[role]
            sizes = [
                len(args) if isinstance(args, list) else 1 if args is True else 0
                for args in legal.values()
            ]
            pick = int(draw() * sum(sizes))
            for (verb, args), size in zip(legal.items(), sizes, strict=True):
                if pick < size:
                    arg = args[pick] if isinstance(args, list) else None
                    self.act(state, role, verb, arg, record_undo=False, trusted=True)
                    break
                pick -= size

    def can_undo(self, state: State, role: str) -> bool:
        stack: list[dict[str, Any]] | None = state.get("undo")
        return stack is not None and len(stack) > 0 and stack[-1]["role"] == role

    def undo(self, state: State, role: str) -> None:
        """Step back the newest decision of ``role`` (only listed when it is theirs)."""
        undo.restore(state)

    def status(self, state: State) -> str:
        """One public line: what the table is waiting for, or how the game ended."""
        if state["outcome"] is not None:
            winner = state["outcome"].get("winner")
            reason = state["outcome"].get("reason", "")
            who = f"{self.role_name(winner)} won" if winner else "The game is drawn"
            return f"{who}: {reason}" if reason else f"{who}."
        return self._step(state).status(self, state)

    def score(self, state: State) -> dict[str, int] | None:
        """The running score by role, public (VP, forces alive...), or None when the game
        keeps none; front ends show it in every post and in ``/game status``."""
        return None

    def role_name(self, role: str) -> str:
        return self.role_names.get(role, role.title())

    def opponent(self, role: str) -> str:
        """The other side of a two-sided game."""
        others = [r for r in self.roles if r != role]
        if len(others) != 1 or role not in self.roles:
            raise MalformedAction(f"{self.title} has no single opponent for {role!r}.")
        return others[0]

    def automated_player(self) -> Callable[[Game, View], tuple[str, Arg]] | None:
        """This game's automated player, or None when it has none."""
        if self.policy is None:
            return None
        chooser: Callable[[Game, View], tuple[str, Arg]] = importlib.import_module(
            self.policy
        ).choose
        return chooser

    def finish(
        self,
        state: State,
        winner: str | None,
        reason: str,
        score: Mapping[str, Any],
        *,
        code: str,
    ) -> None:
        """End the game (``code`` names the way it ended, one of :attr:`outcome_codes`;
        ``reason`` says it in words); nothing may be undone past the end."""
        if code not in self.outcome_codes:
            raise ValueError(f"{self.name} does not declare the outcome code {code!r}")
        outcome: Outcome = {"winner": winner, "code": code, "reason": reason, "score": dict(score)}
        state["outcome"] = outcome
        undo.seal(state)

    def _step(self, state: State) -> Step:
        """The current step. The simulation path (``active_roles``, ``legal_actions``,
        ``_apply``) looks it up as ``self.steps.get(...) or self._step(state)``: the same
        answer without a method call when the step exists, this error when it does not."""
        try:
            return self.steps[state["step"]]
        except KeyError:
            raise IllegalAction("This game is in an unknown step; it cannot continue.") from None

    def done_implied(self, state: State, role: str) -> bool:
        """``done`` is all ``role`` is asked for, as a formality (see ``Step.done_implied``)."""
        return self._done_implied(state, role, self.legal_actions(state, role))

    def _done_implied(self, state: State, role: str, actions: Actions) -> bool:
        return actions.get("done") is True and self._step(state).done_implied(self, state, role)

    def _batch(self, state: State, role: str, actions: Actions) -> dict[str, int]:
        """``{verb: n}``: up to ``n`` of the listed args of ``verb`` may be sent at once."""
        wanted = self._step(state).batch(self, state, role)
        return {
            verb: int(n)
            for verb, n in wanted.items()
            if isinstance(actions.get(verb), list) and int(n) >= 2
        }

    def _repeats(self, state: State, role: str, batch: dict[str, int]) -> dict[str, Any]:
        """``{verb: {arg: k}}``: args of a batch verb that may be taken ``k`` >= 2 times."""
        step = self._step(state)
        out: dict[str, Any] = {}
        for verb, most in batch.items():
            each = {
                str(arg): min(int(k), most)
                for arg, k in step.repeats(self, state, role, verb).items()
                if min(int(k), most) >= 2
            }
            if each:
                out[verb] = each
        return out

    def _labels(self, state: State, role: str, actions: Actions) -> dict[str, Any]:
        step = self._step(state)
        labels: dict[str, Any] = {}
        for verb, args in actions.items():
            if verb == "undo":
                labels[verb] = "Undo"
            elif args is True:
                labels[verb] = step.label(self, state, role, verb, None)
            elif isinstance(args, list):
                labels[verb] = {str(a): step.label(self, state, role, verb, a) for a in args}
        return labels

    # ------------------------------------------------------- what each game fills in

    def initialise(self, state: State) -> None:
        """Set up the pieces and go to the first step (``goto``)."""
        raise NotImplementedError

    def public_view(self, state: State) -> View:
        """What everyone may see."""
        raise NotImplementedError

    def private_view(self, state: State, role: str) -> View:
        """What only ``role`` may see, merged over the public view."""
        return {}

    # ----------------------------------------- hooks for search (rules.ai), optional

    def known_state(self, state: State, role: str) -> State | None:
        """The state as ``role`` knows it, for :meth:`determinize`: every public part of
        the state plus ``role``'s own hidden parts, with whatever ``role`` may not see
        (the other side's hand, the order of face-down decks, face-down choices, the
        random generator) left out or replaced by its count. Part of ``view(state, role)``
        as ``view["known_state"]``, so it passes the same gate (and the same leak tests) as
        the rest of the view. None (the default): the game offers no search support."""
        return None

    def determinize(self, view: View, role: str, key: int | str) -> State:
        """A complete state consistent with everything ``view`` (``role``'s own view)
        shows, the hidden parts sampled from what the view allows, using the random
        generator keyed by ``key`` (the same key gives the same state). It reads only the
        view, never the real state: this is how a search player guesses what it cannot
        see. Games with :meth:`known_state` implement it."""
        raise NotImplementedError(f"{self.title} does not support search players")

    def determinizer(self, view: View, role: str) -> Callable[[int | str], State]:
        """:meth:`determinize` for ``view`` and ``role``, as a function of the key alone: a
        search deals many states from one view, so a game may read what the view alone
        decides once, here, and give a dealer that does only the rest per key. Each call
        must give what ``determinize(view, role, key)`` gives. The default asks
        :meth:`determinize` every time."""
        return lambda key: self.determinize(view, role, key)

    def estimate(self, state: State) -> dict[str, float] | None:
        """Each role's chance of winning from ``state``, judged without playing on (the
        chances sum to 1), for a search playout cut short at :attr:`playout_horizon`.
        ``state`` is a complete state (a determinized one, in a search). None (the
        default): the game has no such judgement, and an unfinished playout counts as a
        draw."""
        return None

    def idle_actions(self, state: State, role: str) -> set[tuple[str, Arg]]:
        """Legal actions of ``role`` that a search player leaves out of its tree because
        they change nothing (a Lincoln pass with a full hand: two searches passing so
        would play for ever). The rules still offer them to people. Empty by default."""
        return set()

    def catalogue(self) -> list[dict[str, Any]]:
        """Every card of the game as public facts, for look-ups such as ``/card``.

        Each entry has at least ``id``, ``name`` and ``text`` (our paraphrase), plus
        whatever else the game shows (value, side, kind...).
        """
        return []

    # ------------------------------------------------- hooks for the generic tests

    def secrets(self, state: State, role: str) -> set[str]:
        """Ids that only ``role`` may know right now (cards in hand, face-down choices).

        The generic tests check that none of them appears, as a JSON string, in the
        public view, the other roles' views or the log.
        """
        return set()

    def invariants(self, state: State) -> list[str]:
        """Broken conservation rules, as sentences; empty when all is well."""
        return []


#: What a verb looks like: a short lower-case word ("place", "done", "first_strike").
_VERB = re.compile(r"[a-z][a-z0-9_]{0,31}")


def _match_arg(verb: str, legal: list[int | str] | bool, arg: Arg) -> Arg:
    """The listed arg that ``arg`` names (an int may arrive as its string form)."""
    if legal is True:
        if arg is not None and arg != "":
            raise MalformedAction(f"'{verb}' takes no argument.")
        return None
    if isinstance(legal, list):
        for candidate in legal:
            if candidate == arg or (arg is not None and str(candidate) == str(arg)):
                return candidate
    if arg is None:
        raise MalformedAction(f"'{verb}' needs a choice.")
    raise NotAllowedNow(f"'{verb} {arg}' is not possible now.")


def _public_seed(seed: int | str) -> int | None:
    """The seed the state records: a chosen int (or an old game's), never a secret key."""
    if isinstance(seed, int):
        return int(seed)
    head, _, tail = seed.partition(":")
    return int(tail) if head == SPLITMIX and tail.isascii() and tail.isdigit() else None
