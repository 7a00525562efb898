"""Bad inputs get a polite refusal and change nothing: never a traceback, never an ERROR.

Examples first (each bad value named in `CASES`), then properties: hypothesis drives every
public GameManager method, the ``/game play`` text parser and the sandbox's command line
with arbitrary values, and checks that each call either does what a legal call does or
raises a ``DispatchError`` that left the whole database as it was.

The property tests run one event loop and one SQLite file for all their examples (a new
database per example would make them slow); "unchanged" is checked by dumping every table
before and after each refused call.
"""

from __future__ import annotations

import asyncio
import io
import logging
import math
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import FakeClock, RecordingFrontEnd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import errors
from bot.discord_app.custom_ids import encode_arg, parse_play_value, play_value
from bot.tables import validate
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame
from bot.terminal.frontend import TerminalFrontEnd
from bot.terminal.sandbox import Sandbox

TABLES = ("games", "seats", "actions", "outbox", "timers", "results", "channel_settings")


async def dump(manager: GameManager) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table: what "nothing changed" is checked against."""
    async with manager.store.read() as db:
        return {
            t: sorted((tuple(r) for r in await db._all(f"SELECT * FROM {t}")), key=repr)
            for t in TABLES
        }


async def start(manager: GameManager, channel: str = "c1") -> int:
    await manager.create_game("g1", channel, "alice", NewGame("toy", seed=5, seat="north"))
    return (await manager.join(channel, "bob")).id


def errors_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.ERROR]


# -- the examples ----------------------------------------------------------------------

HUGE = 2**63
GAME = object()  # stands for the started game's id
HOURS = "settings.reminder_hours"  # a channel's reminder interval, read or set
NEW = ("g1", "c9", "toy", "carol")  # create_game's plain arguments

#: (what, method, args, keyword args, the polite error expected)
CASES: list[tuple[str, str, tuple[Any, ...], dict[str, Any], type[errors.DispatchError]]] = [
    ("game id 2**63", "act", (HUGE, "alice", "add", 1), {}, errors.GameNotFound),
    ("game id -1", "act", (-1, "alice", "add", 1), {}, errors.GameNotFound),
    ("game id True", "act", (True, "alice", "add", 1), {}, errors.GameNotFound),
    ("game id of 5000 digits", "act", (10**5000, "alice", "add", 1), {}, errors.GameNotFound),
    ("info of game 2**63", "get_game_info", (HUGE,), {}, errors.GameNotFound),
    ("view of game 2**63", "view_for", (HUGE, "alice"), {}, errors.GameNotFound),
    ("export of game 2**63", "records.export", (HUGE,), {}, errors.GameNotFound),
    ("game id a list", "join", ([1], "carol"), {}, errors.GameNotFound),
    ("seed 2**63", "create_game", NEW, {"seed": HUGE}, errors.BadInput),
    ("seed 2**53", "create_game", NEW, {"seed": 2**53}, errors.BadInput),
    ("seed abc", "create_game", NEW, {"seed": "abc"}, errors.BadInput),
    ("seed -1", "create_game", NEW, {"seed": -1}, errors.BadInput),
    ("seed 1.5", "create_game", NEW, {"seed": 1.5}, errors.BadInput),
    ("options a list", "create_game", NEW, {"options": [1]}, errors.BadOptions),
    ("option value a list", "create_game", NEW, {"options": {"target": [1]}}, errors.BadOptions),
    ("option name an int", "create_game", NEW, {"options": {1: 2}}, errors.BadOptions),
    ("option value NaN", "create_game", NEW, {"options": {"t": math.nan}}, errors.BadOptions),
    ("game name a list", "create_game", ("g1", "c9", ["toy"], "carol"), {}, errors.BadInput),
    ("side a list", "create_game", NEW, {"seat": ["north"]}, errors.BadInput),
    (
        "reminder hours text",
        "settings.reminder_hours",
        ("c1",),
        {"reminder_hours": "12"},
        errors.BadInput,
    ),
    (
        "reminder hours NaN",
        "settings.reminder_hours",
        ("c1",),
        {"reminder_hours": math.nan},
        errors.NotAllowed,
    ),
    (
        "reminder hours inf",
        "settings.reminder_hours",
        ("c1",),
        {"reminder_hours": math.inf},
        errors.NotAllowed,
    ),
    (
        "reminder hours -3",
        "settings.reminder_hours",
        ("c1",),
        {"reminder_hours": -3},
        errors.NotAllowed,
    ),
    (
        "reminder hours 10**400",
        "settings.reminder_hours",
        ("c1",),
        {"reminder_hours": 10**400},
        errors.NotAllowed,
    ),
    (
        "reminder hours True",
        "settings.reminder_hours",
        ("c1",),
        {"reminder_hours": True},
        errors.BadInput,
    ),
    ("verb a list", "act", (GAME, "alice", ["add"], 1), {}, errors.BadInput),
    ("verb a dict", "act", (GAME, "alice", {"verb": "add"}, 1), {}, errors.BadInput),
    ("verb empty", "act", (GAME, "alice", "", None), {}, errors.BadInput),
    ("arg a list", "act", (GAME, "alice", "add", [1]), {}, errors.BadInput),
    ("arg a float", "act", (GAME, "alice", "add", 1.0), {}, errors.BadInput),
    ("arg True", "act", (GAME, "alice", "add", True), {}, errors.BadInput),
    ("arg 10**30", "act", (GAME, "alice", "add", 10**30), {}, errors.BadInput),
    ("arg of 5000 letters", "act", (GAME, "alice", "add", "x" * 5000), {}, errors.BadInput),
    ("arg a lone surrogate", "act", (GAME, "alice", "add", "\ud800"), {}, errors.BadInput),
    ("role a list", "act", (GAME, "alice", "add", 1), {"role": ["north"]}, errors.BadInput),
    ("user id an int", "act", (GAME, 7, "add", 1), {}, errors.BadInput),
    ("version 2.5", "act", (GAME, "alice", "add", 1, 2.5), {}, errors.StalePrompt),
    ("version 2**63", "act", (GAME, "alice", "add", 1, HUGE), {}, errors.StalePrompt),
    ("resign role a set", "resign", (GAME, "alice"), {"role": {"north"}}, errors.BadInput),
    ("moderator flag text", "abandon", (GAME, "alice", "yes"), {}, errors.BadInput),
    ("log count text", "records.log", (GAME, "5"), {}, errors.BadInput),
    ("channel None", "game_in_channel", (None,), {}, errors.BadInput),
]


@pytest.mark.parametrize(
    ("method", "args", "kwargs", "error"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
async def test_each_bad_value_is_refused_politely_and_changes_nothing(
    manager: GameManager,
    front_end: RecordingFrontEnd,
    caplog: pytest.LogCaptureFixture,
    method: str,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    error: type[errors.DispatchError],
) -> None:
    game_id = await start(manager)
    before = await dump(manager)
    delivered = len(front_end.deliveries)
    args = tuple(game_id if a is GAME else a for a in args)
    with pytest.raises(error) as refused:
        await invoke(manager, method, args, kwargs)
    message = str(refused.value)
    assert message and "Traceback" not in message and len(message) < 300
    assert await dump(manager) == before
    assert len(front_end.deliveries) == delivered
    assert errors_logged(caplog) == []


async def test_a_request_of_another_kind_is_refused_politely_and_changes_nothing(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    """``act`` takes a ``Move`` and ``create_game`` a ``NewGame``: the old flat values (a
    verb, a game's name) in their place are refused, not half read."""
    game_id = await start(manager)
    before = await dump(manager)
    delivered = len(front_end.deliveries)
    for call in (
        manager.act(game_id, "alice", "add"),  # type: ignore[arg-type]
        manager.act(game_id, "alice", ("add", 1)),  # type: ignore[arg-type]
        manager.create_game("g1", "c9", "carol", "toy"),  # type: ignore[arg-type]
        manager.create_game("g1", "c9", "carol", {"game_name": "toy"}),  # type: ignore[arg-type]
    ):
        with pytest.raises(errors.BadInput) as refused:
            await call
        assert "Traceback" not in str(refused.value) and len(str(refused.value)) < 300
    assert await dump(manager) == before
    assert len(front_end.deliveries) == delivered


async def test_the_largest_allowed_values_still_work(manager: GameManager) -> None:
    info = await manager.create_game("g1", "c2", "alice", NewGame("toy", seed=validate.MAX_SEED))
    assert (await manager.records.export(info.id))["seed"] == validate.MAX_SEED
    hours = await manager.settings.reminder_hours("c2", reminder_hours=720)
    assert hours.reminder_hours == 720.0
    with pytest.raises(errors.GameNotFound):
        await manager.get_game_info(validate.MAX_GAME_ID)  # the largest id SQLite holds


@pytest.mark.parametrize(
    "text",
    [
        "²:place:x",
        "٣:done:",
        "1²:done:",
        "",
        "12",
        "12:",
        "12::",
        ":done:",
        "x:done:",
        "-1:done:",
        "1" * 40 + ":done:",
        "3:DONE:",
        "3:do ne:",
        "3:" + "a" * 50 + ":",
        "3:add:" + "9" * 5000,
        "3:add:" + "9" * 20,
        "3:add:" + "x" * 400,
    ],
)
def test_play_text_that_is_not_an_offered_action_is_refused(text: str) -> None:
    with pytest.raises(errors.NotOffered):
        parse_play_value(text)


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("12:done:", (12, "done", None)),
        ("0:add:3", (0, "add", 3)),
        ("4:add:-3", (4, "add", -3)),
        ("4:card:K17", (4, "card", "K17")),
        ("4:card:'12", (4, "card", "12")),
        ("4:card:'", (4, "card", "")),
        ("4:space:a:b", (4, "space", "a:b")),
        ("4:card:²", (4, "card", "²")),  # text, which no game lists: refused as not offered
        ("4:card:٣", (4, "card", "٣")),
    ],
)
def test_play_text_accepted_syntax(text: str, parsed: tuple[int, str, Any]) -> None:
    assert parse_play_value(text) == parsed
    assert type(parse_play_value(text)[2]) is type(parsed[2])


# -- properties ------------------------------------------------------------------------

#: Values of every kind a payload or a caller could hand in.
anything = st.one_of(
    # four families in equal measure: numbers, text, containers, and None / bools
    st.one_of(
        st.integers(),
        st.sampled_from([0, 1, -1, 2**31, 2**53 - 1, 2**53, 2**63 - 1, 2**63, -(2**63)]),
        st.sampled_from([10**400, 10**5000]),  # the last is too long even for str()
        st.floats(),
        st.sampled_from([math.nan, math.inf, -math.inf, 0.0, 1.0, 2.0, 2.5, 1e308]),
    ),
    st.one_of(
        st.text(max_size=30),
        st.text(max_size=500),
        st.sampled_from(["", " ", "²", "٣", "abc", "\ud800", "\x00", "x" * 300, "12", "-1"]),
    ),
    st.one_of(
        st.lists(st.integers(), max_size=3),
        st.dictionaries(
            st.text(max_size=5), st.one_of(st.integers(), st.text(max_size=5)), max_size=3
        ),
        st.binary(max_size=4),
        st.tuples(st.integers()),
        st.frozensets(st.integers(), max_size=2),
    ),
    st.one_of(st.none(), st.booleans()),
)


class World:
    """One manager on one file, shared by all examples; the game is renewed when it moves."""

    def __init__(self, loop: asyncio.AbstractEventLoop, manager: GameManager) -> None:
        self.loop = loop
        self.manager = manager
        self.game_id = 0
        self.channel = "c0"
        self.games = 0

    def __repr__(self) -> str:  # short, for hypothesis's report of a failing example
        return f"World(game_id={self.game_id}, channel={self.channel!r})"

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def new_game(self) -> None:
        self.games += 1
        self.channel = f"c{self.games}"
        self.game_id = self.run(start(self.manager, self.channel))


@pytest.fixture
def world(toy_game: object, db_path: Path, clock: FakeClock) -> Iterator[World]:
    loop = asyncio.new_event_loop()
    manager = loop.run_until_complete(GameManager.open(db_path, RecordingFrontEnd(), clock=clock))
    w = World(loop, manager)
    w.new_game()
    yield w
    loop.run_until_complete(manager.close())
    loop.close()


def good_values(w: World, to_act: str) -> dict[str, st.SearchStrategy[Any]]:
    """Values a legal call could use, per parameter name; mixed with ``anything`` below."""
    return {
        "game": st.sampled_from([w.game_id, w.channel]),
        # mostly the player to act, so arbitrary verbs and args reach the rules
        "user_id": st.sampled_from([to_act, to_act, to_act, "alice", "bob", "carol"]),
        "verb": st.sampled_from(["add", "done", "bonus", "pick", "undo", "fly"]),
        "arg": st.sampled_from([None, 0, 1, 2, 3, "1", "x"]),
        "expected_version": st.sampled_from([None, 0, 1, 2]),
        "role": st.sampled_from([None, "north", "south", "random"]),
        "is_moderator": st.booleans(),
        "level": st.sampled_from([None, "easy", "normal", "hard", "expert"]),
        "count": st.sampled_from([1, 5, 0]),
        "channel_id": st.sampled_from([w.channel, "c-new"]),
        "guild_id": st.sampled_from([None, "g1"]),
        "reminder_hours": st.sampled_from([None, 0.5, 2, 720]),
        "game_name": st.sampled_from(["toy", "chess"]),
        "creator_id": st.sampled_from(["alice", "carol"]),
        "options": st.sampled_from([None, {}, {"target": 5}, {"colour": "red"}]),
        "seed": st.sampled_from([None, 0, 7]),
        "seat": st.sampled_from([None, "north", "random", "east"]),
        "opponent_id": st.sampled_from([None, "bob", "alice"]),
        "hotseat": st.booleans(),
        "text": st.sampled_from(["0:add:1", "1:done:", "0:add:'1", "0:pick:2"]),
        "limit": st.sampled_from([None, 10 * 2**20, 2**16]),
    }


#: Each public method and the parameters a caller fills in; "play" is the /game play path
#: (the text parser, then ``act``), which is what the Discord command runs.
METHODS: dict[str, tuple[str, ...]] = {
    "create_game": (
        "guild_id",
        "channel_id",
        "game_name",
        "creator_id",
        "options",
        "seed",
        "seat",
        "opponent_id",
        "hotseat",
    ),
    "join": ("game", "user_id", "role"),
    "leave": ("game", "user_id"),
    "cancel": ("game", "user_id", "is_moderator"),
    "act": ("game", "user_id", "verb", "arg", "expected_version", "role"),
    "undo": ("game", "user_id", "expected_version", "role"),
    "resign": ("game", "user_id", "role"),
    "abandon": ("game", "user_id", "is_moderator"),
    "game_in_channel": ("channel_id",),
    "get_game_info": ("game",),
    "game_in_reach": ("game", "user_id", "guild_id"),
    "view_for": ("game", "user_id", "role"),
    "records.log": ("game", "count"),
    "records.games_for_user": ("user_id",),
    "records.export": ("game",),
    "records.replay": ("game",),
    "records.verify_replay": ("game",),
    "records.check_replay": ("game", "user_id", "guild_id"),
    "records.watch_replay": ("game", "user_id", "guild_id", "limit"),
    "settings.reminder_hours": ("channel_id", "reminder_hours", "guild_id"),
    "prompts.dms_reopened": ("user_id",),
    "play": ("game", "user_id", "text"),
    "seat_dispatch": ("game", "user_id", "level", "role", "is_moderator"),
}
KEYWORD_ONLY = {"hotseat", "role", "is_moderator"}
READ_ONLY = {"game_in_channel", "get_game_info", "view_for", "records.log"}
READ_ONLY |= {"records.games_for_user", "records.export"}
READ_ONLY |= {"game_in_reach"}
READ_ONLY |= {"records.replay", "records.verify_replay", "records.check_replay"}
READ_ONLY |= {"records.watch_replay"}


def _whole(x: Any, low: int, high: int) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and low <= x <= high


def _scalar(x: Any) -> bool:
    if x is None or isinstance(x, bool | str):
        return True
    return _whole(x, -(2**53), 2**53) or (isinstance(x, float) and math.isfinite(x))


def assert_well_formed(method: str, v: dict[str, Any]) -> None:
    """A call that went through carried values of the kinds the contract names (a second,
    independent statement of the rules ``bot.validate`` enforces)."""
    if method == "act":
        assert isinstance(v["verb"], str), v
        arg = v["arg"]
        assert arg is None or _whole(arg, -(2**63), 2**63) or isinstance(arg, str), v
    if method == "create_game":
        assert v["seed"] is None or _whole(v["seed"], 0, 2**53 - 1), v
        options = v["options"] or {}
        assert isinstance(options, dict), v
        assert all(isinstance(k, str) and _scalar(x) for k, x in options.items()), v
        assert isinstance(v["hotseat"], bool), v
    if method == "settings.reminder_hours" and v["reminder_hours"] is not None:
        hours = v["reminder_hours"]
        assert isinstance(hours, int | float) and not isinstance(hours, bool), v
        assert math.isfinite(hours) and 0.1 <= hours <= 720, v
    if method in ("cancel", "abandon", "seat_dispatch"):
        assert isinstance(v["is_moderator"], bool), v
    if method == "seat_dispatch":
        assert v["level"] is None or isinstance(v["level"], str), v
    if method == "records.log":
        assert _whole(v["count"], -(10**5000), 10**5000), v
    for key in ("user_id", "creator_id", "channel_id"):
        observer = method == "view_for" and key == "user_id" and v[key] is None
        assert key not in v or observer or isinstance(v[key], str), v
    for key in ("role", "seat", "opponent_id", "guild_id"):
        assert v.get(key) is None or isinstance(v[key], str), v


def listed(view: dict[str, Any], verb: Any, arg: Any) -> bool:
    """Whether the toy game listed this action (it reads args as text: "1" is 1)."""
    legal = (view.get("actions") or {}).get(verb) if isinstance(verb, str) else None
    if legal is True:
        return arg in (None, "")
    return isinstance(legal, list) and any(a == arg or str(a) == str(arg) for a in legal)


async def call(w: World, method: str, values: dict[str, Any]) -> Any:
    m = w.manager
    if method == "play":
        version, verb, arg = parse_play_value(values["text"])
        return await m.act(values["game"], values["user_id"], Move(verb, arg, version))
    positional = [values[p] for p in METHODS[method] if p not in KEYWORD_ONLY]
    keywords = {p: values[p] for p in METHODS[method] if p in KEYWORD_ONLY}
    return await invoke(m, method, tuple(positional), keywords)


async def invoke(
    manager: GameManager, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> Any:
    """Call a public method of the manager with its values listed flat, as a caller fills
    them in: ``act``'s decision goes in a ``Move``, ``create_game``'s game in a
    ``NewGame`` (every value still as given, checked by the manager alone)."""
    if method == "act":
        game, user, *decision = args
        return await manager.act(game, user, Move(*decision, **kwargs))
    if method == "create_game":
        guild, channel, name, creator, *rest = args
        return await manager.create_game(guild, channel, creator, NewGame(name, *rest, **kwargs))
    return await REACH[method](manager)(*args, **kwargs)


#: How each public method is reached from the manager: its core or one of its desks.
REACH: dict[str, Callable[[GameManager], Callable[..., Awaitable[Any]]]] = {
    "join": lambda m: m.join,
    "leave": lambda m: m.leave,
    "cancel": lambda m: m.cancel,
    "undo": lambda m: m.undo,
    "resign": lambda m: m.resign,
    "abandon": lambda m: m.abandon,
    "game_in_channel": lambda m: m.game_in_channel,
    "get_game_info": lambda m: m.get_game_info,
    "game_in_reach": lambda m: m.game_in_reach,
    "view_for": lambda m: m.view_for,
    "seat_dispatch": lambda m: m.seat_dispatch,
    "records.log": lambda m: m.records.log,
    "records.games_for_user": lambda m: m.records.games_for_user,
    "records.export": lambda m: m.records.export,
    "records.replay": lambda m: m.records.replay,
    "records.verify_replay": lambda m: m.records.verify_replay,
    "records.check_replay": lambda m: m.records.check_replay,
    "records.watch_replay": lambda m: m.records.watch_replay,
    "settings.reminder_hours": lambda m: m.settings.reminder_hours,
    "prompts.dms_reopened": lambda m: m.prompts.dms_reopened,
}


#: Examples per method: more where more can go wrong, fewer for the plain queries.
BUDGET = {"act": 200, "play": 150, "create_game": 200, "settings.reminder_hours": 100, "join": 100}


@pytest.mark.slow
@pytest.mark.parametrize("method", sorted(METHODS))
def test_manager_api_refuses_anything_politely_and_changes_nothing(
    world: World, caplog: pytest.LogCaptureFixture, method: str
) -> None:
    @settings(max_examples=BUDGET.get(method, 50), deadline=None)
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        one_call(world, caplog, method, data)

    check()


def one_call(w: World, caplog: pytest.LogCaptureFixture, method: str, data: st.DataObject) -> None:
    info = w.run(w.manager.get_game_info(w.game_id))
    to_act = next((s.user_id for s in info.seats if s.role in info.active_roles), "alice")
    good = good_values(w, to_act)
    params = METHODS[method]
    # Mostly one parameter gets an arbitrary value and the rest plausible ones, so every
    # parameter is reached with the others valid (all arbitrary would stop at the first).
    one = st.sampled_from(params).map(lambda p: {p})
    bad = data.draw(st.one_of(one, one, one, st.sets(st.sampled_from(params), max_size=2)))
    values = {
        p: data.draw((st.text() if p == "text" else anything) if p in bad else good[p], label=p)
        for p in params
    }
    before = w.run(dump(w.manager))
    views = {
        u: w.run(w.manager.view_for(w.game_id, u)).view
        for u in ("alice", "bob")
        if info.status == "active"
    }
    caplog.clear()
    try:
        result = w.run(call(w, method, values))
    except errors.DispatchError as refused:
        assert str(refused), f"{method}: an empty message"
        assert w.run(dump(w.manager)) == before, f"{method} {values!r} changed the database"
    else:
        assert_well_formed(method, values)
        if method in ("act", "play"):
            # Only a listed action of the user's own seat goes through, and it moves one step.
            if method == "play":
                _, verb, arg = parse_play_value(values["text"])
            else:
                verb, arg = values["verb"], values["arg"]
            if result.game.id == w.game_id:
                assert listed(views[values["user_id"]], verb, arg), (verb, arg)
                assert result.version == info.version + 1
        if method in READ_ONLY:
            assert w.run(dump(w.manager)) == before, f"{method} is a query but wrote"
        elif w.run(dump(w.manager)) != before:
            w.new_game()  # the game moved on (or a new one opened): start the next from fresh
    assert errors_logged(caplog) == [], f"{method} {values!r}"


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(text=st.one_of(st.text(), st.text(alphabet="0123456789:²٣-'abcdonex ", max_size=30)))
def test_play_text_parser_returns_an_action_or_refuses_politely(text: str) -> None:
    try:
        version, verb, arg = parse_play_value(text)
    except errors.BadInput as refused:
        assert str(refused)
        return
    assert isinstance(version, int) and 0 <= version < 10**18
    assert isinstance(verb, str) and verb.isascii() and verb[:1].isalpha()
    assert arg is None or isinstance(arg, str) or (type(arg) is int and abs(arg) < 10**19)
    assert validate.verb(verb) == verb  # a parsed verb always passes the manager's door


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    version=st.integers(0, 10**18 - 1),
    verb=st.from_regex(r"[a-z][a-z0-9_]{0,31}", fullmatch=True),
    arg=st.one_of(
        st.none(),
        st.integers(-(2**63) + 1, 2**63 - 1),
        st.text(max_size=100).filter(lambda s: "\n" not in s),
    ),
)
def test_every_offered_action_reads_back_as_itself(version: int, verb: str, arg: Any) -> None:
    value = play_value(version, verb, arg)
    assert value == f"{version}:{verb}:{encode_arg(arg)}"
    assert parse_play_value(value) == (version, verb, arg)


# -- the sandbox -----------------------------------------------------------------------


class Desk:
    """The sandbox on one file, shared by all examples (a plain class: a short report)."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        manager: GameManager,
        sandbox: Sandbox,
        out: io.StringIO,
    ) -> None:
        self.loop, self.manager, self.sandbox, self.out = loop, manager, sandbox, out

    def __repr__(self) -> str:
        return f"Desk(game_id={self.sandbox.game_id})"

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)


@pytest.fixture
def desk(toy_game: object, tmp_path: Path) -> Iterator[Desk]:
    loop = asyncio.new_event_loop()
    out = io.StringIO()
    front_end = TerminalFrontEnd(out=out, out_dir=tmp_path / "out")
    manager = loop.run_until_complete(GameManager.open(tmp_path / "s.sqlite3", front_end))
    sandbox = Sandbox(manager, front_end, seed=1)
    d = Desk(loop, manager, sandbox, out)
    d.run(sandbox.handle("new toy 3"))
    yield d
    loop.run_until_complete(manager.close())
    loop.close()


command_words = st.sampled_from(
    [
        "new",
        "as",
        "use",
        "log",
        "auto",
        "hand",
        "board",
        "undo",
        "resign",
        "status",
        "games",
        "help",
        "add",
        "done",
        "pick",
        "bonus",
        "1",
        "2",
        "²",
        "٣",
        "99",
        "toy",
        "alice",
        "bob",
    ]
)
argument = st.one_of(
    st.sampled_from(
        [
            "toy",
            "alice",
            "bob",
            "1",
            "2",
            "3",
            "²",
            "٣",
            "-5",
            "9" * 40,
            "9" * 5000,
            "''",
            '"',
            "\\",
            "x" * 300,
            "1.5",
            "nan",
        ]
    ),
    st.text(max_size=20),
)


@pytest.mark.slow
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(words=st.lists(st.one_of(command_words, argument), min_size=1, max_size=4))
def test_sandbox_answers_any_line_without_a_crash(
    desk: Desk, caplog: pytest.LogCaptureFixture, words: list[str]
) -> None:
    line = " ".join(words)
    if words[0] in ("auto",):  # a whole game per example would be slow; a few moves do
        line = f"auto 3 {' '.join(words[1:])}"
    before = desk.run(dump(desk.manager))
    start_at = len(desk.out.getvalue())
    caplog.clear()
    desk.run(desk.sandbox.handle(line))
    said = desk.out.getvalue()[start_at:]
    assert "Something went wrong" not in said, (line, said)
    assert "Traceback" not in said
    refused = any(line.startswith("! ") for line in said.splitlines())
    if refused and "auto:" not in said:
        assert desk.run(dump(desk.manager)) == before, (line, said)
    assert errors_logged(caplog) == [], line
    if desk.sandbox.game_id is None or not desk.sandbox.running:
        desk.sandbox.running = True


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("²", "Unknown command or action “²”"),
        ("٣", "Unknown command or action “٣”"),
        ("use ²", "Which game?"),
        ("use " + "9" * 25, "That game was not found."),
        ("use " + "9" * 5000, "Which game?"),
        ("new toy ²", "The seed must be a whole number"),
        ("new toy -5", "The seed must be a whole number"),
        ("new toy " + "9" * 20, "The seed must be a whole number from 0 to 9007199254740991."),
        ("log ²", "`log` takes how many lines to show"),  # not a count: refused
        ("auto -3", "`auto` takes how many moves to play"),  # once played the whole game
        ("as " + "x" * 200, "That player is not recognised"),
        ("add " + "x" * 300, "is not one of the choices for `add` now; you may choose: 1"),
        ("''", ""),  # a line of two quotes: nothing to do
        ("new solo", "Which playsheet?"),  # once started Paths of Glory unasked
        ("new solo 5", "Which playsheet?"),
        ("new solo marsbar", "“marsbar” is not a playsheet"),
    ],
)
def test_sandbox_refuses_bad_numbers_and_words_politely(
    desk: Desk, caplog: pytest.LogCaptureFixture, line: str, expected: str
) -> None:
    before = desk.run(dump(desk.manager))
    start_at = len(desk.out.getvalue())
    desk.run(desk.sandbox.handle(line))
    said = desk.out.getvalue()[start_at:]
    assert expected in said
    assert "Something went wrong" not in said and "New game" not in said
    assert desk.run(dump(desk.manager)) == before
    assert errors_logged(caplog) == []
