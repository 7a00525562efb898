"""Dispatch at the table: seats the bot plays itself.

A bot seat is an ordinary seat whose user id is one of :data:`BOT_USERS`
(``"Dispatch (easy)"``, ``"Dispatch (normal)"``, ``"Dispatch (hard)"``), so the lobby,
the turn, the table posts, undo, resignation, rematches and the action log all work for
it as for a person; the name says the level. It never gets private messages (the
courier skips them, ``skip_private``) and nobody is pinged on its behalf (it is not a
Discord user, so the front end writes its name as plain text).

:class:`BotSeats` is a room of its own that listens to the manager
(``bot.tables.listeners``): the manager never names it, and it is added where the
process is assembled (:meth:`BotSeats.attach`). It plays every bot move that is due,
through ``GameManager.act`` like a click, with the seat's role and the version it
decided on, so a move decided on a view that has since changed is refused as stale and
decided again. The decision itself (the game's greedy policy, or the search of
``rules.ai``) runs off the event loop, in a worker process by default
(``workers="process"``) or a thread (tests, the sandbox), and reads only the bot's own
view. There are several worker processes on a machine with the cores for them
(:func:`default_processes`: one core is left to the bot itself), so bot games decide
side by side; each game always goes to the same worker, which keeps its search tree
between the small decisions of a turn; a worker ends by itself when the bot's process is
gone, however it ended (:func:`watch_parent`). When the manager announces a decision
owed in a game with a bot seat, the seats :meth:`BotSeats.nudge` it, which returns at
once; the moves are made by a task. :meth:`BotSeats.resume` (when the manager announces
it resumed: on start, and on its background pass every few seconds) makes every move
that was due when a previous process stopped, or that failed: a game whose bot move
failed is tried again after a wait that doubles with each failure in a row
(:data:`RETRY_BASE_S` up to :data:`RETRY_CAP_S`), so a move that keeps failing costs one
attempt and one logged error every few minutes, not every pass. The pass reads only the
ids of the games where a bot seat owes a decision.

Search seeds are fixed per game and role (made with the game's secret key when it was
dealt from one, so that no player can rerun the bot's search: :func:`search_seed`), and a
search level is a number of iterations
per search in each game (``rules.ai.level_iterations``), not a time: a bot's decision
depends only on what its view shows (and the tree kept from earlier decisions of the
turn), never on how busy the machine is. A search that runs past
``rules.ai.safety_seconds`` (12 times the level's nominal time), widened by how much
slower than the reference core the machine ran when the process first searched
(``bot.dispatch_players.speed``), in CPU seconds of its own thread is cut as a safety, so that a
pathological position cannot hang a seat; each cut is logged with its game and level and
counted (:attr:`BotSeats.cut`, in the summary logged when the seats close). CPU time of
the thread, not wall time, so that other work on the machine brings the cap nearer only
as far as it makes a CPU second do less, which the cap's width leaves room for.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import concurrent.futures.process
import contextlib
import dataclasses
import functools
import hashlib
import json
import logging
import multiprocessing
import os
import secrets
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import rules
import rules.ai.ismcts
from bot import errors
from bot.delivery.notices import public_log
from bot.delivery.port import GameInfo
from bot.dispatch_players.speed import machine_slowdown
from bot.storage.errors import StoreError
from bot.storage.rows import ActionRow, BotEstimateRow, BotJobRow
from bot.storage.store import Store
from bot.tables.bot_users import BOT_USERS, is_bot, level_of
from bot.tables.listeners import Owed, SearchRunner, TableListener
from bot.tables.loading import GameRef
from bot.tables.replay import replay_seed
from bot.tables.requests import Move
from bot.tables.results import ActResult, PlayerView
from rules import compiled
from rules.ai import Player, SearchPlayer, make_player, safety_seconds
from rules.ai.player import LEVEL_SECONDS
from rules.core import Arg, Game, View


class GameManager(Protocol):
    """What the bot seats use of the manager they listen to (``bot.tables.manager``):
    named here rather than imported, so the seats never import the manager."""

    store: Store
    clock: Callable[[], float]
    #: Where the manager's hints search (the seats offer their workers).
    searches: SearchRunner

    @property
    def listeners(self) -> tuple[TableListener, ...]: ...

    def add_listener(self, listener: TableListener) -> None: ...

    def remove_listener(self, listener: TableListener) -> None: ...

    async def get_game_info(self, game: GameRef) -> GameInfo: ...

    async def view_for(
        self, game: GameRef, user_id: str | None, *, role: str | None = None
    ) -> PlayerView: ...

    async def act(
        self, game: GameRef, user_id: str, move: Move, *, deliver: bool = True
    ) -> ActResult: ...


log = logging.getLogger("dispatch.bots")

_T = TypeVar("_T")

#: After a failed bot move, the background pass waits this long before trying the game
#: again, twice as long after each further failure in a row, up to the cap.
RETRY_BASE_S = 10.0
RETRY_CAP_S = 900.0
#: The most characters of a move's public text kept beside its estimate.
MOVE_TEXT_MAX = 300
#: How long a claim on a job (``bot_jobs``) holds unless renewed: a process that died
#: loses its jobs to another after this; a search renews its lease every third of it.
JOB_LEASE_S = 60.0
#: Claims of one job before it is given up (the game flagged and the failure logged).
JOB_MAX_ATTEMPTS = 5


def search_seed(game_id: int, role: str, secret: str | None = None) -> int:
    """The seed of a bot seat's searches: fixed for the game and role, so the same view
    gets the same move on any machine. ``secret``: the key of a game dealt from one
    (``game_keys``), which no player knows, so that nobody can run the bot's own search
    on each hand it might hold and keep those that give the move it made. None for a
    game dealt from a chosen seed, whose cards anyone who knows the seed can work out."""
    text = f"dispatch bot {game_id} {role}".encode()
    key = secret.encode()[:64] if secret else b""
    digest = hashlib.blake2b(text, digest_size=8, key=key).digest()
    return int.from_bytes(digest, "little")


# -- the decision, in a worker -------------------------------------------------------

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
    #: ``bot.tables.estimates`` for a finished game only.
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


# -- the worker processes ----------------------------------------------------------------

#: How often a worker looks whether the bot's process still runs.
PARENT_WATCH_S = 0.5


def watch_parent(parent: int, interval: float = PARENT_WATCH_S) -> None:
    """Worker initializer: end this worker as soon as the bot's process is gone.

    A worker waits on a queue whose pipe it holds both ends of, so a bot killed with
    SIGKILL (no shutdown) left it waiting for good, and with it the resource tracker
    that a spawned pool starts (it stays while any worker holds its pipe). A daemon
    thread polls the parent id (reparenting changes it) and ends the process at once:
    portable, and unlike PR_SET_PDEATHSIG not tied to the thread that started it.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(0)

    threading.Thread(target=watch, name="dispatch-parent-watch", daemon=True).start()


def new_worker_pool() -> concurrent.futures.ProcessPoolExecutor:
    """One worker process for decisions, which ends when the bot's process does.

    Spawned, not forked: the parent has threads (the store's) that a fork would copy
    mid-flight."""
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=watch_parent,
        initargs=(os.getpid(),),
    )


def stop_worker_pool(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """Stop ``pool`` at once, its search abandoned (its move is made again by the next
    process: nothing of it was committed): its worker is ended rather than waited for,
    then the pool is shut down whole (its queues closed and its manager thread joined),
    so that the resource tracker finds no semaphore left behind. Waiting for the search,
    as ``shutdown()`` does by default, held the whole stop for as long as it ran."""
    workers = list((pool._processes or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join()
    pool.shutdown(wait=True)


async def in_daemon_thread(call: Callable[[], _T]) -> _T:
    """Run ``call`` in a thread of its own that never holds up the end of the process
    (a ``dispatch worker`` stopped mid-search leaves at once; the search is abandoned)."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[_T] = loop.create_future()

    def settle(result: _T | None, error: BaseException | None) -> None:
        if answer.done():
            return  # abandoned (cancelled) meanwhile
        if error is not None:
            answer.set_exception(error)
        else:
            answer.set_result(result)  # type: ignore[arg-type]

    def work() -> None:
        try:
            result: _T | None = call()
            error: BaseException | None = None
        except BaseException as exc:  # handed to the awaiting task
            result, error = None, exc
        with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits any more
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=work, name="dispatch-search", daemon=True).start()
    return await answer


# -- the seats -------------------------------------------------------------------------

#: The most worker processes for decisions, however many cores there are.
MAX_PROCESSES = 4


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system says)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def default_processes() -> int:
    """Worker processes for the bot's decisions: one per core but one (which the event
    loop keeps for clicks and images), at least one, at most :data:`MAX_PROCESSES`."""
    return max(1, min(MAX_PROCESSES, usable_cores() - 1))


class BotSeats:
    """Plays the bot seats of one manager's games, as one of its listeners."""

    @classmethod
    def attach(cls, manager: GameManager, **options: Any) -> BotSeats:
        """Seats with ``options`` (those of the constructor) that listen to ``manager``
        from now on, in place of any seats it had; the manager's hints search in their
        workers. Called where the process is assembled, before ``deliver_pending``
        (whose announcement makes the moves a previous run left owed)."""
        seats = cls(manager, **options)
        for listener in manager.listeners:
            if isinstance(listener, BotSeats):
                manager.remove_listener(listener)
        manager.add_listener(seats)
        manager.searches = seats
        log.info(
            "Dispatch's searches run the rules %s",
            "compiled (dispatch compile-rules)"
            if compiled.is_compiled(rules.ai.ismcts)
            else "from their sources (dispatch compile-rules makes them about twice as fast)",
        )
        return seats

    @classmethod
    def of(cls, manager: GameManager) -> BotSeats:
        """The seats listening to ``manager`` (``LookupError``: none)."""
        for listener in manager.listeners:
            if isinstance(listener, BotSeats):
                return listener
        raise LookupError("no bot seats listen to this manager")

    def __init__(
        self,
        manager: GameManager,
        *,
        workers: str = "process",
        iterations: int | None = None,
        cap_seconds: float | None = None,
        clock: Callable[[], float] | None = None,
        processes: int | None = None,
    ) -> None:
        if workers not in ("process", "thread", "daemon"):
            raise ValueError("workers is 'process', 'thread' or 'daemon'")
        self.manager = manager
        self.workers = workers
        #: Iterations of every search instead of each level's budget (tests, benches).
        self.iterations = iterations
        #: The safety cap in CPU seconds instead of each level's ``safety_seconds``.
        self.cap_seconds = cap_seconds
        #: The search thread's CPU clock for the cap (tests; None: ``time.thread_time``).
        self.clock = clock
        self.processes = max(1, processes or default_processes())
        #: One single-process pool per worker, started when first needed.
        self._pools: dict[int, concurrent.futures.ProcessPoolExecutor] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        #: Games whose last bot move failed: (failures in a row, when to try again).
        self._failed: dict[int, tuple[int, float]] = {}
        #: Called after each bot move (game id, role, verb, arg); for logs and tests.
        self.on_move: Callable[[int, str, str, Arg], None] | None = None
        #: This process's name in the job claims it takes (``bot_jobs``).
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        #: Set by ``close``: no move is started after it.
        self._closed = False
        #: Moves made, and jobs dropped as stale, by this process.
        self.done = 0
        self.stale = 0
        #: Searches of this process's moves that the safety cap cut.
        self.cut = 0

    # -- what the manager announces (``bot.tables.listeners``) -------------------------

    async def decision_owed(self, news: Owed) -> None:
        """A change was committed: in a game with a bot seat, play what it owes (a seat
        that owes nothing finds so at once, ``play_one``)."""
        if any(is_bot(seat.user_id) for seat in news.game.seats):
            self.nudge(news.game.id)

    async def resumed(self) -> None:
        await self.resume()

    async def closing(self) -> None:
        await self.close()

    # -- triggers -----------------------------------------------------------------

    def nudge(self, game_id: int) -> None:
        """Something changed in ``game_id``: play its due bot moves soon (returns at once)."""
        if self._closed:
            return
        task = self._tasks.get(game_id)
        if task is not None and not task.done():
            self._again.add(game_id)
            return
        self._tasks[game_id] = asyncio.get_running_loop().create_task(self._run(game_id))

    async def resume(self) -> int:
        """Nudge every live game in which a bot owes a move, except those waiting to
        retry a failed move; returns how many were nudged."""
        await self.give_up_exhausted()
        async with self.manager.store.read() as db:
            games = await db.games_awaiting(BOT_USERS.values())
            # While a worker lives it takes every job queued or held: this process need
            # only write a missing job or take one a dead process held. Nudging every
            # game at every pass cost each process as much, however many there were.
            workers = await db.workers_alive(JOB_LEASE_S)
            theirs = await db.games_left_to_workers() if workers else set()
        for gone in self._failed.keys() - set(games):  # over, or no longer the bot's move
            del self._failed[gone]
        now = self.manager.clock()
        due = [
            g
            for g in games
            if g not in theirs and (g not in self._failed or self._failed[g][1] <= now)
        ]
        for game_id in due:
            self.nudge(game_id)
        return len(due)

    async def idle(self) -> None:
        """Wait until no bot move is being made (tests, shutdown)."""
        while any(not t.done() for t in self._tasks.values()):
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def close(self) -> None:
        """Stop now: no move is started from now on (a commit during the stop nudges in
        vain), the moves under way are abandoned, the worker processes stopped mid-search
        rather than waited for (a search can take minutes on a busy machine), and their
        jobs given back at once, uncounted, not left claimed by a stopped process until
        their lease runs out."""
        self._closed = True
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        pools = list(self._pools.values())
        self._pools.clear()
        await asyncio.gather(*(asyncio.to_thread(stop_worker_pool, pool) for pool in pools))
        try:
            async with self.manager.store.write() as db:
                await db.release_bot_jobs(self.owner)
        except StoreError:  # the store is gone: the leases lapse on their own
            log.warning("the bot's jobs could not be given back: the database is out of reach")
        log.info(
            "Dispatch's seats close. Moves made here: %d; searches cut by the safety cap: %d",
            self.done,
            self.cut,
        )

    # -- the work -----------------------------------------------------------------

    async def _run(self, game_id: int) -> None:
        while True:
            self._again.discard(game_id)
            try:
                while await self.play_one(game_id):
                    pass
                self._failed.pop(game_id, None)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                failures = self._failed.get(game_id, (0, 0.0))[0] + 1
                wait = min(RETRY_CAP_S, RETRY_BASE_S * 2 ** min(failures - 1, 20))
                self._failed[game_id] = (failures, self.manager.clock() + wait)
                if isinstance(exc, StoreError):
                    return  # the database out of reach: the store said so once
                log.error(
                    "game=%d: a bot move failed (%d in a row); trying again in %.0f s\n%s",
                    game_id,
                    failures,
                    wait,
                    errors.withheld(exc),
                )
                return
            if game_id not in self._again:
                return

    async def play_one(self, game_id: int) -> bool:
        """Make one due bot move in ``game_id``; False when no bot owes one, or when its
        job is another process's (a live ``dispatch worker`` takes jobs first: this
        process takes only those whose lease ran out while workers live)."""
        info = await self.manager.get_game_info(game_id)
        if info.status != "active":
            return False
        due = [s for s in info.seats if s.role in info.active_roles and is_bot(s.user_id)]
        if not due:
            return False
        seat = due[0]
        # Under the game's lock: a game that ends meanwhile (its jobs dropped) is seen
        # ended here and gets no job written after its end.
        async with self.manager.store.transaction(game=game_id) as db:
            if await db.version_of(game_id) != info.version:
                # The game moved on since it was read (another process's moves): a job
                # written for the version read would come back after its move was made
                # and its row pruned, and be played a second time (as stale). Read again.
                return True
            # Written with the turn; again here for a seat just handed to Dispatch or a
            # game from before the jobs (a second write changes nothing).
            await db.owe_bot_move(game_id, seat.role, info.version, level_of(seat.user_id))
            alive = await db.workers_alive(JOB_LEASE_S)
            jobs = await db.claim_bot_jobs(
                self.owner,
                JOB_LEASE_S,
                max_attempts=JOB_MAX_ATTEMPTS,
                game_id=game_id,
                lapsed_only=alive > 0,
            )
        if not jobs:
            return False
        try:
            outcome = await self.play_job(jobs[0])
        except BaseException:
            # Tried again after a growing wait (``_run``), as before the jobs: a failure
            # that this process saw is not counted; a claim lost with its process is.
            async with self.manager.store.write() as db:
                await db.release_bot_job(jobs[0], self.owner, counted=False)
            raise
        return outcome != "over"

    async def play_job(self, job: BotJobRow, *, deliver: bool = True) -> str:
        """Search and submit the move of a claimed ``job``: "done" when it was applied,
        "stale" when the game moved on without it (dropped), "over" when the game ended.
        ``deliver=False``: the table posts are left to the bot's processes (a worker)."""
        info = await self.manager.get_game_info(job.game_id)
        seat = next((s for s in info.seats if s.role == job.role), None)
        if info.status != "active":
            await self._finish(job, "stale")
            return "over"
        if seat is None or not is_bot(seat.user_id) or job.role not in info.active_roles:
            await self._finish(job, "stale")
            return "stale"
        level = level_of(seat.user_id)
        pv = await self.manager.view_for(job.game_id, seat.user_id, role=seat.role)
        if pv.version != job.version or not pv.view.get("actions"):
            await self._finish(job, "stale")
            return "stale"
        async with self.manager.store.read() as db:
            secret = await db.game_key(job.game_id)  # never shown: only the seed is made of it
            played = await db.actions(job.game_id)
        mine = own_turn(played, seat.role)
        turn = SeatTurn(
            search_seed(job.game_id, seat.role, secret),
            mine,
            played=len(played),
            tail=tuple((action.verb, action.arg) for action in played[len(played) - mine :]),
        )
        async with self._renewing():
            try:
                decision = await self._decide(
                    info.game_name, job.game_id, seat.role, level, pv.view, turn
                )
            except NeedsHistory:  # this process kept no tree for the turn: grown again
                earlier = await self._earlier(job.game_id, seat.role, played, turn.turn, secret)
                decision = await self._decide(
                    info.game_name,
                    job.game_id,
                    seat.role,
                    level,
                    pv.view,
                    dataclasses.replace(turn, earlier=earlier),
                )
        verb, arg = decision.action
        if decision.cut:
            self._count_cut(job.game_id, seat.role, level, decision)
        # Kept before the move, so that the end post of a game this move ends counts it;
        # taken back if the move is refused.
        kept = await self._keep_estimate(job.game_id, seat.role, job.version, decision.estimate)
        try:
            done = await self.manager.act(
                job.game_id,
                seat.user_id,
                Move(verb, arg, job.version, role=seat.role),
                deliver=deliver,
            )
        except (errors.StalePrompt, errors.NotYourTurn, errors.GameNotActive) as refused:
            await self._drop_estimate(kept)
            # Stale: the game moved on meanwhile (the caller looks again at what is owed
            # now); not active: it ended while the bot thought (a resignation, an abandon).
            async with self.manager.store.write() as db:
                if await db.version_of(job.game_id) != job.version or isinstance(
                    refused, errors.GameNotActive
                ):
                    await db.finish_bot_job(job, "stale")
                else:  # refused at the very version it owes: claimed again, uncounted
                    await db.release_bot_job(job, self.owner, counted=False)
            self.stale += 1
            return "over" if isinstance(refused, errors.GameNotActive) else "stale"
        # The verb only: the argument may be a hidden choice (a face-down card, the
        # order of a Final Crisis), and whoever reads the server log may be a player.
        log.info("game=%d bot %s (%s) made a move: %s", job.game_id, seat.role, level, verb)
        await self._finish(job, "done")  # the turn's transaction settled it already
        self.done += 1
        if kept is not None:
            await self._name_move(kept, pv.view, done)
        if self.on_move is not None:
            self.on_move(job.game_id, seat.role, verb, arg)
        return "done"

    def _count_cut(self, game_id: int, role: str, level: str, decision: Decision) -> None:
        """Count a search the safety cap cut, and log it: how far it got, never what it
        chose (the argument may be a hidden choice)."""
        self.cut += 1
        log.warning(
            "game=%d bot %s (%s): the safety cap of %.0f CPU s cut its search after "
            "%s of %s iterations (%d cut here since the start)",
            game_id,
            role,
            level,
            decision.cap_seconds,
            decision.iterations,
            decision.budget,
            self.cut,
        )

    async def _finish(self, job: BotJobRow, status: str) -> None:
        async with self.manager.store.write() as db:
            await db.finish_bot_job(job, status)
        if status == "stale":
            self.stale += 1

    @contextlib.asynccontextmanager
    async def _renewing(self) -> AsyncIterator[None]:
        """Renew this process's leases while a search runs (a long search keeps its job)."""

        async def renew() -> None:
            while True:
                await asyncio.sleep(JOB_LEASE_S / 3)
                async with self.manager.store.write() as db:
                    await db.extend_bot_jobs(self.owner, JOB_LEASE_S)

        task = asyncio.get_running_loop().create_task(renew())
        try:
            yield
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def give_up_exhausted(self) -> list[BotJobRow]:
        """Jobs claimed :data:`JOB_MAX_ATTEMPTS` times without a move are given up: each
        is logged and its game flagged (a moderator can export or abandon it)."""
        async with self.manager.store.write() as db:
            failed = await db.fail_exhausted_bot_jobs(JOB_MAX_ATTEMPTS)
            for job in failed:
                await db.mark_damaged(
                    job.game_id, f"Dispatch could not make its move after {job.attempts} attempts"
                )
        for job in failed:
            log.error(
                "game=%d: Dispatch's move for %s at version %d failed %d times; given up and "
                "the game flagged",
                job.game_id,
                job.role,
                job.version,
                job.attempts,
            )
        return failed

    async def _keep_estimate(
        self, game_id: int, role: str, version: int, estimate: float | None
    ) -> BotEstimateRow | None:
        """Store the bot's estimate for its move at ``version`` (a search level's only);
        secret until the game is over (``bot.tables.estimates``)."""
        if estimate is None:
            return None
        row = BotEstimateRow(game_id, version, role, estimate, "")
        async with self.manager.store.write() as db:
            await db.add_bot_estimate(row)
        return row

    async def _drop_estimate(self, row: BotEstimateRow | None) -> None:
        if row is not None:
            async with self.manager.store.write() as db:
                await db.drop_bot_estimate(row.game_id, row.version)

    async def _name_move(self, row: BotEstimateRow, before: View, done: ActResult) -> None:
        """Keep the public words of the move beside its estimate: the log lines it added,
        which everyone has seen."""
        move = " ".join(public_log(done.view)[len(public_log(before)) :])[:MOVE_TEXT_MAX]
        if move:
            async with self.manager.store.write() as db:
                await db.name_bot_move(row.game_id, row.version, move)

    async def _decide(
        self, game_name: str, game_id: int, role: str, level: str, view: View, seat: SeatTurn
    ) -> Decision:
        call = functools.partial(
            decide,
            game_name,
            game_id,
            role,
            level,
            view,
            SearchLimits(self.iterations, self.cap_seconds, self.clock, await self._slowdown()),
            seat,
        )
        return await self.off_loop(game_id, call)

    async def _slowdown(self) -> float | None:
        """The machine's slowdown for the searches' caps: probed once in this process, in
        a thread (not on the event loop), and handed to every worker; None when the seats
        have a cap of their own."""
        if self.cap_seconds is not None:
            return None
        return await asyncio.to_thread(machine_slowdown)

    async def _earlier(
        self, game_id: int, role: str, played: list[ActionRow], turn: int, secret: str | None
    ) -> tuple[Earlier, ...]:
        """The views and moves of ``role``'s last ``turn`` actions, from a replay of the
        game (in a thread: the whole log is played); none when it does not replay (a
        damaged record: the turn then goes on from a fresh search)."""
        async with self.manager.store.read() as db:
            row = await db.game(game_id)
        if row is None:
            return ()
        try:
            options = json.loads(row.options_json)
            seed = replay_seed(row, secret)
            return await asyncio.to_thread(
                earlier_decisions, row.game_name, options, seed, played, role, turn
            )
        except Exception as exc:
            # The kind of failure only: a rules message may name a hidden card, and whoever
            # reads the server log may be a player.
            log.warning(
                "game=%d: the turn so far did not replay (%s); searching afresh",
                game_id,
                type(exc).__name__,
            )
            return ()

    async def off_loop(self, game_id: int, call: Callable[[], _T]) -> _T:
        """Run ``call`` (picklable: a module-level function and its arguments) in the
        game's worker, off the event loop: bot decisions, and hints (``hints.py``)."""
        if self.workers == "thread":
            return await asyncio.to_thread(call)
        if self.workers == "daemon":
            return await in_daemon_thread(call)
        loop = asyncio.get_running_loop()
        # A game always decides in the same worker: its search tree lives there.
        worker = game_id % self.processes
        for attempt in (1, 2):
            pool = self._pools.get(worker)
            if pool is None:
                pool = self._pools[worker] = new_worker_pool()
            try:
                return await loop.run_in_executor(pool, call)
            except concurrent.futures.process.BrokenProcessPool:
                # The worker died (killed, out of memory): start a new one, once.
                log.warning("game=%d: the bot's worker process died (attempt %d)", game_id, attempt)
                if self._pools.get(worker) is pool:  # not already replaced by another move
                    del self._pools[worker]
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")
