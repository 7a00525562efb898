"""The lobby: opening a game in a channel, taking and leaving seats, calling it off.

Seats are fixed once every role is taken: the game then starts at once, in the same
transaction as the last seat. These functions work inside the caller's transaction (and
its game lock), except ``create_game``, which opens its own to catch the race for a channel.

The ruling on who the Fate Die may play for: the game option ``fate`` hands
a side's decisions to the die and lays two of its cards face up on the table, so it may
only run Dispatch's own side, or a side whose player asked for it: the creator's own
side, or every side at a hotseat table (the sandbox). Naming another person's side in
``options`` is refused; a lobby's open side that the die runs can be given to Dispatch,
never taken by a person. A rematch keeps the die with the same player, who agreed the
first time (see ``GameManager.rematch``).
"""

from __future__ import annotations

import dataclasses
import json
import random
import secrets
from collections.abc import Sequence
from typing import Any

import rules
from bot import errors
from bot.delivery.port import GameInfo
from bot.storage.errors import Conflict
from bot.storage.rows import NewGameRow
from bot.storage.session import Session
from bot.storage.store import Store
from bot.tables import clocks
from bot.tables.bot_users import is_bot
from bot.tables.loading import find_row, info_in, rules_of, rules_or_none, state_of
from bot.tables.turn import commit_turn
from bot.tables.turn_types import Commit, Table
from rules.core.rng import new_key

#: The seed column of a game set up from a secret key (the key is in the state and in
#: ``game_keys``).
NO_SEED = -1


def draw_seat(seed: int | None, roles: Sequence[str]) -> str:
    """A seat by lot: repeatable for a chosen seed (practice games, tests), else secret."""
    if seed is None:
        return secrets.choice(list(roles))
    return random.Random(seed).choice(list(roles))


@dataclasses.dataclass(frozen=True)
class CheckedGame:
    """A request to open a game, its values already checked (``bot.tables.validate``)."""

    guild_id: str | None
    channel_id: str
    game_name: str
    creator_id: str
    options: dict[str, Any] | None = None
    seed: int | None = None
    #: The creator's role, ``"random"``, or None for the first role.
    seat: str | None = None
    #: Takes the next free role at once.
    opponent_id: str | None = None
    #: One user may hold several seats (sandbox, testing).
    hotseat: bool = False
    #: The finished game this one follows (Rematch).
    rematch_of: int | None = None
    #: The opponent's side is run by the Fate Die (game option ``fate``).
    fate_opponent: bool = False
    #: The player whose side the ``fate`` option names agreed to it earlier (a rematch).
    fate_agreed: bool = False
    #: The time control (None: no clock, the default).
    clock: clocks.Control | None = None


def require_fate_playsheet(game: rules.Game) -> None:
    """Refuse the Fate Die opponent in a game without a playsheet for it."""
    if "fate" not in game.default_options:
        raise errors.BadOptions(
            f"{game.title} has no Fate Die playsheet (Fort Sumter and Lincoln have one)."
        )


FATE_ON_A_PERSON = (
    "The Fate Die runs only Dispatch's side or your own: {who} did not ask for it to play "
    "their cards. To play against the Fate Die, choose Dispatch as the opponent with "
    "style fate."
)


def check_fate_side(
    options: dict[str, Any], seating: Sequence[tuple[str, str]], request: CheckedGame
) -> None:
    """Refuse a ``fate`` option that names a side another person holds (module ruling)."""
    fated = options.get("fate")
    if not fated or request.hotseat or request.fate_agreed:
        return
    holder = dict(seating).get(str(fated))
    if holder is None or holder == request.creator_id or is_bot(holder):
        return  # an open seat (only Dispatch may take it), yours, or Dispatch's
    raise errors.BadOptions(FATE_ON_A_PERSON.format(who=f"<@{holder}>"))


def fate_side(options_json: str | None) -> str:
    """The side the Fate Die runs in a stored game ("" for none)."""
    try:
        fated = json.loads(options_json or "{}").get("fate")
    except (ValueError, AttributeError):
        return ""
    return str(fated or "")


async def create_game(store: Store, request: CheckedGame, *, reminder_hours: float) -> GameInfo:
    """Open a game in a channel and seat its creator (see ``GameManager.create_game``)."""
    opening = prepare(request)
    try:
        async with store.transaction() as db:
            return await _open(db, opening, reminder_hours)
    except Conflict:
        # Another creator won the race for this channel (the partial unique index).
        async with store.read() as db:
            busy = await db.lobby.live_game_in_channel(request.channel_id)
        raise errors.ChannelBusy(busy.id if busy else 0) from None


async def open_in(db: Session, request: CheckedGame, *, reminder_hours: float) -> GameInfo:
    """Open a game in the caller's transaction (a league opens its games so, with the
    pairing they play in the same transaction)."""
    return await _open(db, prepare(request), reminder_hours)


def prepare(request: CheckedGame) -> _Opening:
    """The game ``request`` asks for, checked and set up, ready to be written."""
    game = rules_or_none(request.game_name)
    if game is None:
        raise errors.UnknownGame(request.game_name, rules.GAMES.keys())
    seating = seating_of(game, request)
    options = dict(request.options or {})
    if request.fate_opponent:
        require_fate_playsheet(game)
        if request.opponent_id is None or len(seating) < 2:
            raise errors.BadOptions("The Fate Die runs the opponent's side: name an opponent.")
        options["fate"] = seating[1][0]
    check_fate_side(options, seating, request)
    if request.clock is not None and game.one_seat:
        raise errors.PlayedAlone(
            f"{game.title} is played alone: nobody waits for you, so it takes no clock."
        )
    # No seed chosen: a secret key nobody at the table can guess or work back from the
    # cards they see (see rules.core.rng). It lives in the state and, for a moderator's
    # rescue export of a damaged state, in ``game_keys``; the seed column holds NO_SEED.
    seed = request.seed
    key: int | str = int(seed) if seed is not None else new_key()
    try:
        # Set up now, not at start: bad options are refused while the creator is
        # still here, and the stored state is exactly setup(key) either way.
        state = game.setup(seed=key, options=options)
    except rules.RulesError as exc:
        raise errors.BadOptions(str(exc)) from None
    except (TypeError, ValueError, KeyError) as exc:
        raise errors.BadOptions(str(exc) or type(exc).__name__) from None
    return _Opening(request, options, state, key, tuple(seating), len(game.roles))


def seating_of(game: rules.Game, request: CheckedGame) -> list[tuple[str, str]]:
    """(role, user) for the creator and, when named, the opponent (the next free role)."""
    roles = tuple(game.roles)
    seat, seed = request.seat, request.seed
    if seat is None:
        creator_role = roles[0]
    elif seat == "random":
        creator_role = draw_seat(seed, roles)
    elif seat in roles:
        creator_role = seat
    else:
        raise errors.UnknownRole(seat, roles)
    seating = [(creator_role, request.creator_id)]
    opponent_id = request.opponent_id
    if opponent_id is not None:
        if opponent_id == request.creator_id and not request.hotseat:
            raise errors.AlreadySeated(creator_role)
        free = [r for r in roles if r != creator_role]
        if game.one_seat:
            raise errors.PlayedAlone(f"{game.title} has one seat, yours: it takes no opponent.")
        if not free:
            raise errors.NoFreeSeat()
        seating.append((free[0], opponent_id))
    return seating


@dataclasses.dataclass(frozen=True)
class _Opening:
    """A new game, checked and set up, ready to be written."""

    request: CheckedGame
    options: dict[str, Any]
    state: dict[str, Any]
    key: int | str
    seating: tuple[tuple[str, str], ...]
    role_count: int


async def _open(db: Session, opening: _Opening, reminder_hours: float) -> GameInfo:
    """Write the new game and its seats; start it when every role is seated."""
    request, seed = opening.request, opening.request.seed
    busy = await db.lobby.live_game_in_channel(request.channel_id)
    if busy is not None:
        raise errors.ChannelBusy(busy.id)
    game_id = await db.insert_game(
        NewGameRow(
            guild_id=request.guild_id,
            channel_id=request.channel_id,
            game_name=request.game_name,
            options=opening.options,
            seed=NO_SEED if seed is None else int(seed),
            creator_id=request.creator_id,
            hotseat=request.hotseat,
            state=opening.state,
        )
    )
    if seed is None:
        await db.set_game_key(game_id, str(opening.key))
    if request.rematch_of is not None:
        await db.set_rematch_of(game_id, request.rematch_of)
    if request.clock is not None:
        control = request.clock
        await db.clocks.set_game_clock(
            game_id, control.initial_s, control.increment_s, control.cap_s
        )
    for role, user in opening.seating:
        await db.add_seat(game_id, role, user)
    if len(opening.seating) == opening.role_count:
        await start(db, game_id, reminder_hours=reminder_hours)
    return await info_in(db, game_id)


async def take_seat(
    db: Session, game_id: int, user_id: str, role: str | None, *, reminder_hours: float
) -> str:
    """Seat ``user_id`` (``role``, ``"random"`` or the first free one); return the role."""
    row = await find_row(db, game_id, live=True)
    if row.status != "lobby":
        raise errors.GameNotActive(row.status)
    rules_game = rules_of(row)
    roles = tuple(rules_game.roles)
    seats = await db.seats(game_id)
    taken = {s.role: s.user_id for s in seats}
    mine = [s.role for s in seats if s.user_id == user_id]
    if mine and not row.hotseat:
        raise errors.AlreadySeated(mine[0])
    fated = fate_side(row.options_json)
    die_only = "" if is_bot(user_id) or row.hotseat else fated
    if role is None or role == "random":
        free = [r for r in roles if r not in taken]
        if not free:
            raise errors.NoFreeSeat()
        free = [r for r in free if r != die_only] or free  # the die's side: refused below
        role = (
            draw_seat(row.seed if row.seed != NO_SEED else None, free)
            if role == "random"
            else free[0]
        )
    elif role not in roles:
        raise errors.UnknownRole(role, roles)
    elif role in taken:
        raise errors.SeatTaken(role)
    if role == die_only:
        raise errors.SeatRefused(
            "The Fate Die runs this side: only Dispatch can take it (a seated player can "
            "give it to Dispatch from the lobby). Take another side, or open your own game."
        )
    await db.add_seat(game_id, role, user_id)
    if len(taken) + 1 == len(roles):
        await start(db, game_id, reminder_hours=reminder_hours)
    return role


async def seat_dispatch(
    db: Session,
    game_id: int,
    by: str,
    bot: str,
    role: str | None,
    *,
    is_moderator: bool,
    reminder_hours: float,
) -> str:
    """Give an open seat of a lobby to Dispatch (``bot``, the user id of its level); return
    the role. Asked by a player already seated there, or a moderator (who may also cancel
    the lobby): nobody else decides whom its players face. The game then starts exactly as
    when a person takes the last seat."""
    row = await find_row(db, game_id, live=True)
    if row.status != "lobby":
        raise errors.GameNotActive(row.status)
    seated = {s.user_id for s in await db.seats(game_id)}
    if by not in seated and not is_moderator:
        raise errors.ModeratorOnly(
            "Only a player seated in this game (or a moderator) can give its open seat "
            "to Dispatch. To play it yourself, take a seat."
        )
    return await take_seat(db, game_id, bot, role, reminder_hours=reminder_hours)


async def leave_seats(db: Session, game_id: int, user_id: str) -> None:
    """Give up every seat ``user_id`` holds in a lobby; an empty lobby is cancelled."""
    row = await find_row(db, game_id, live=True)
    if row.status != "lobby":
        raise errors.WrongStage(
            "The game has started, so seats are fixed: use resign to concede it."
        )
    seats = await db.seats(game_id)
    mine = [s.role for s in seats if s.user_id == user_id]
    if not mine:
        raise errors.NotSeated()
    for role in mine:
        await db.remove_seat(game_id, role)
    if len(mine) == len(seats):
        await db.set_status(game_id, "cancelled")


async def call_off(db: Session, game_id: int, user_id: str, is_moderator: bool) -> None:
    """Cancel a game still in its lobby, for its creator or a moderator."""
    row = await find_row(db, game_id, live=True)
    if row.status != "lobby":
        raise errors.WrongStage(
            "Only a game still waiting for players can be cancelled; "
            "a running game can be resigned or abandoned."
        )
    if row.creator_id != user_id and not is_moderator:
        raise errors.NotCreator()
    await db.set_status(game_id, "cancelled")


async def start(db: Session, game_id: int, *, reminder_hours: float) -> None:
    """Every seat is taken: the game begins with its set-up state (version 0)."""
    row = await db.game(game_id)
    assert row is not None
    await db.set_status(game_id, "active")
    row = dataclasses.replace(row, status="active")
    seats = await db.seats(game_id)
    state = state_of(row)
    how = Commit(None, (), reminder_hours, start=True)
    await commit_turn(db, Table(row, seats, rules_of(row)), state, how)
