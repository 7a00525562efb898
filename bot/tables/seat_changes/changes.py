"""Seats that change hands in a running game.

Three ways, each one transaction under the game's lock (the manager's), like a turn:
- an **offer**: a seated player offers their seat to a named user, who accepts or
  declines with buttons (``offer``, ``answer_offer``);
- a **reseat**: a moderator gives a seat to someone (``reseat``);
- a **hand-over**: a seated player gives their own seat to Dispatch at a level
  (``hand_over``); the bot then takes its moves as in any game it sits in.

Rulings:
- only a running game's seats change hands: a lobby's seats are taken and left
  (``lobby``), and nobody hands over a seat of a finished, abandoned or cancelled game;
- a user may not take a seat in a game they already sit in (no hot-seat by hand-over),
  except at a hot-seat table (the sandbox's own games);
- an offer names a person: an offer to Dispatch is refused (hand the seat over instead);
- an offer holds while the game stands where it was offered (any action, by anyone, moves
  it on and the offer lapses: the new player agreed to take the seat as it was) and for
  ``OFFER_HOURS`` at most (the store's clock, injected in tests); a new offer of the same
  seat replaces the old; any change of seat withdraws every open offer of the game;
- the Fate Die's side (game option ``fate``) passes only to Dispatch: the die may run a
  person's cards only when they asked for it (lobby ruling);
- a solo session (one seat) is its player's own and does not change hands.

A change is not an action (the rules never see who holds a seat, so the log still replays
to the stored state): it is a ``seat_changes`` row at the game version it happened at,
listed by the export. In the same transaction the table is told (one notice), the new
holder gets the seat's hand and prompt by DM (the courier sends a seat's DMs to whoever
holds it when it delivers), and the seat's reminder follows it. The old holder's buttons
were drawn for them: every click of theirs is refused as ``SeatPassed``, and the front
end closes their live prompt.
"""

from __future__ import annotations

import dataclasses

import rules
from bot import errors
from bot.delivery.notices import role_name
from bot.delivery.outbox import message_payload, post_payload
from bot.delivery.port import PrivateMessage, TablePost
from bot.storage.rows import GameRow, SeatOfferRow, SeatRow
from bot.storage.session import Session
from bot.tables.bot_users import is_bot, level_of
from bot.tables.loading import find_row, rules_of, rules_or_none, safe_view, seat_view
from bot.tables.lobby import fate_side
from bot.tables.prompts import decision_digest

#: How long an offer holds at most if the game does not move on first.
OFFER_HOURS = 24.0

HOW = ("offer", "reseat", "handover")


def who(user_id: str) -> str:
    """A user as the table reads them: a Discord mention, Dispatch's level, or a name."""
    if is_bot(user_id):
        return f"Dispatch ({level_of(user_id)})"
    return f"<@{user_id}>" if user_id.isascii() and user_id.isdigit() else user_id


@dataclasses.dataclass(frozen=True)
class SeatChange:
    """What a change did, for the front end: whose prompt to close, what to say."""

    game_id: int
    role: str
    seat: str
    from_user: str
    to_user: str
    version: int

    @property
    def line(self) -> str:
        return f"{who(self.to_user)} now plays the {self.seat}, in place of {who(self.from_user)}."


@dataclasses.dataclass(frozen=True)
class Offer:
    """An open offer, as the front end shows it."""

    id: int
    game_id: int
    role: str
    seat: str
    from_user: str
    to_user: str
    expires_at: float


async def running(db: Session, game_id: int) -> tuple[GameRow, list[SeatRow], rules.Game]:
    """The game, if its seats may change hands now."""
    row = await find_row(db, game_id, live=False)
    if row.status != "active":
        raise errors.GameNotActive(row.status)
    rules_game = rules_of(row)
    if rules_game.one_seat:
        raise errors.PlayedAlone("A solo session is its player's own: its seat does not pass.")
    return row, await db.seats(game_id), rules_game


def own_seat(seats: list[SeatRow], user_id: str, role: str | None) -> SeatRow:
    """The seat ``user_id`` holds (``role`` when they hold several)."""
    mine = [s for s in seats if s.user_id == user_id]
    if not mine:
        raise errors.NotSeated()
    if role is not None:
        found = [s for s in mine if s.role == role]
        if not found:
            raise errors.SeatNotHeld(role)
        return found[0]
    if len(mine) > 1:
        raise errors.ChooseRole([s.role for s in mine])
    return mine[0]


def check_newcomer(row: GameRow, seats: list[SeatRow], role: str, user_id: str) -> None:
    """May ``user_id`` take the ``role`` seat (see the module's rulings)?"""
    held = [s.role for s in seats if s.user_id == user_id]
    if held and not row.hotseat:
        seat = role_name(rules_or_none(row.game_name), held[0])
        raise errors.SeatRefused(
            f"{who(user_id)} already plays the {seat} seat of this game: one player, one "
            "seat. Nothing changed."
        )
    if not is_bot(user_id) and fate_side(row.options_json) == role:
        raise errors.SeatRefused(
            "The Fate Die runs this side: it can only be handed over to Dispatch."
        )


async def offer(db: Session, game_id: int, by: str, to: str, role: str | None) -> Offer:
    """``by`` offers their seat to ``to``; the offer waits for ``to``'s answer."""
    row, seats, rules_game = await running(db, game_id)
    seat = own_seat(seats, by, role)
    if to == by:
        raise errors.BadInput("That seat is already yours: offer it to someone else.")
    if is_bot(to):
        raise errors.SeatRefused(
            "Dispatch takes a seat by hand-over, not by offer: use /game hand-over."
        )
    check_newcomer(row, seats, seat.role, to)
    expires = db.now + OFFER_HOURS * 3600
    offer_id = await db.seat_changes.add_seat_offer(
        game_id, seat.role, (by, to), row.version, expires
    )
    return Offer(offer_id, game_id, seat.role, role_name(rules_game, seat.role), by, to, expires)


class OfferClosed(errors.NotAllowed):
    """The offer can no longer be accepted by anyone: its post may lose its buttons."""


def offer_refusal(found: SeatOfferRow | None, user_id: str, row: GameRow, now: float) -> str:
    """Why ``user_id`` may not answer the offer now (empty: they may)."""
    if found is None:
        return "This offer does not exist. Nothing changed."
    if found.status != "open":
        return f"This offer was already {found.status}. Nothing changed."
    if user_id != found.to_user:
        return f"This offer is for {who(found.to_user)}, not you. Nothing changed."
    if row.status != "active":
        return "This game is no longer running, so its seats do not change hands."
    if row.version != found.at_version:
        return "The game has moved on since this offer was made, so it lapsed. Nothing changed."
    if now >= found.expires_at:
        return "This offer has expired. Nothing changed."
    return ""


async def answer_offer(
    db: Session, game_id: int, offer_id: int, user_id: str, *, accept: bool, hours: float
) -> SeatChange | None:
    """The named user accepts (the seat is theirs: the change) or declines (None).
    ``hours``: the default reminder interval, for the seat's reminder."""
    found = await db.seat_changes.seat_offer(offer_id)
    if found is not None and found.game_id != game_id:
        found = None  # a forged button: another game's offer id
    row = await find_row(db, game_id, live=False)
    refusal = offer_refusal(found, user_id, row, db.now)
    if refusal and found is not None and user_id == found.to_user:
        raise OfferClosed(refusal)  # answered, lapsed or expired: for everyone
    if refusal:
        raise errors.SeatRefused(refusal)
    assert found is not None
    if not accept:
        await db.seat_changes.set_offer_status(offer_id, "declined")
        return None
    row, seats, rules_game = await running(db, game_id)
    holder = next(s.user_id for s in seats if s.role == found.role)
    if holder != found.from_user:
        raise errors.Outdated("This seat changed hands since the offer. Nothing changed.")
    check_newcomer(row, seats, found.role, user_id)
    await db.seat_changes.set_offer_status(offer_id, "accepted")
    passing = Passing(found.role, (holder, user_id, holder), "offer")
    return await change_seat(db, row, rules_game, passing, hours)


async def reseat(
    db: Session, game_id: int, role: str, users: tuple[str, str], hours: float
) -> SeatChange:
    """A moderator (``users``: to, by) gives the ``role`` seat to a person."""
    to, by = users
    row, seats, rules_game = await running(db, game_id)
    holder = next((s.user_id for s in seats if s.role == role), None)
    if holder is None:
        raise errors.UnknownRole(role, [s.role for s in seats])
    if holder == to:
        seat = role_name(rules_game, role)
        raise errors.BadInput(f"{who(to)} already plays the {seat} seat. Nothing changed.")
    if is_bot(to):
        raise errors.SeatRefused("To give a seat to Dispatch, its player hands it over.")
    check_newcomer(row, seats, role, to)
    passing = Passing(role, (holder, to, by), "reseat")
    return await change_seat(db, row, rules_game, passing, hours)


async def hand_over(
    db: Session, game_id: int, users: tuple[str, str], role: str | None, hours: float
) -> SeatChange:
    """A player (``users``: by, bot) gives their own seat to Dispatch at a level (``bot``,
    the user id of its level)."""
    by, bot = users
    row, seats, rules_game = await running(db, game_id)
    seat = own_seat(seats, by, role)
    check_newcomer(row, seats, seat.role, bot)
    passing = Passing(seat.role, (by, bot, by), "handover")
    return await change_seat(db, row, rules_game, passing, hours)


@dataclasses.dataclass(frozen=True)
class Passing:
    """A seat about to pass: its role, (from, to, by) and how (``HOW``)."""

    role: str
    users: tuple[str, str, str]
    how: str


async def change_seat(
    db: Session, row: GameRow, rules_game: rules.Game, passing: Passing, hours: float
) -> SeatChange:
    """The seat passes: the record, the new holder's prompt, the reminder (``hours``: the
    default interval), the table's notice; every open offer of the game lapses."""
    role, users = passing.role, passing.users
    old, new, _by = users
    await db.seat_changes.set_seat_user(row.id, role, new, row.version)
    # The prompt's digest is the decision as it stands (what a click is checked against);
    # the welcome shows the new holder the game as the seat may know it (``seat_view``).
    await db.set_prompt(row.id, role, row.version, decision_digest(safe_view(row, role)))
    view = seat_view(row, role)
    await db.seat_changes.add_seat_change(row.id, role, users, passing.how, row.version)
    await db.seat_changes.withdraw_seat_offers(row.id)
    change = SeatChange(row.id, role, role_name(rules_game, role), old, new, row.version)
    await move_reminder(db, row, role, new, hours)
    if is_bot(new):  # Dispatch's seats have no clock; a person inherits it
        await db.clocks.delete_clock(row.id, role)
    post = TablePost(
        kind="notice",
        version=row.version,
        headline=change.line,
        # Both are pinged: one takes the seat over, the other learns it is gone.
        mention_user_ids=tuple(u for u in (new, old) if not is_bot(u)),
    )
    await db.outbox.queue(row.id, "table", None, post_payload(post))
    if not is_bot(new):
        await db.outbox.queue(row.id, "private", role, message_payload(welcome(change, view)))
    return change


def welcome(change: SeatChange, view: dict[str, object]) -> PrivateMessage:
    """The new holder's first DM: the seat's hand and, when it is their turn, its prompt
    (which becomes their live prompt)."""
    prompt = str(view.get("prompt", "") or "")
    headline = f"You now play the {change.seat} in game #{change.game_id}."
    if prompt and view.get("actions"):
        headline += f" {prompt}"
    # A "reveal" shows its own headline, the hand, and the buttons when there are any.
    return PrivateMessage(
        kind="reveal",
        role=change.role,
        version=change.version,
        headline=headline,
        view=dict(view),
    )


async def move_reminder(db: Session, row: GameRow, role: str, new: str, default: float) -> None:
    """The seat's reminder now nudges its new holder, from now (none for Dispatch)."""
    await db.timers.delete_timers(row.id, role)
    if is_bot(new) or role not in row.active_roles:
        return
    hours = await db.settings.reminder_hours(row.channel_id, default)
    await db.timers.set_timer(row.id, "reminder", role, new, db.now + hours * 3600, hours * 3600)


def offer_number(value: object) -> int:
    """An offer's id as a front end hands it in: a whole number."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 2**63:
        raise errors.Malformed("That is not an offer of a seat. Nothing changed.")
    return value


async def open_offer_for(db: Session, game_id: int, user_id: str) -> Offer | None:
    """The latest open offer of a seat of the game to ``user_id`` (None: none)."""
    found = [o for o in await db.seat_changes.open_seat_offers(game_id) if o.to_user == user_id]
    if not found:
        return None
    row = await find_row(db, game_id, live=False)
    last = found[-1]
    seat = role_name(rules_or_none(row.game_name), last.role)
    return Offer(last.id, game_id, last.role, seat, last.from_user, last.to_user, last.expires_at)


async def why_not_seated(db: Session, game_id: int, user_id: str) -> errors.NotSeated:
    """``SeatPassed`` for a user whose seat passed (with who holds it now), else the plain
    ``NotSeated``."""
    passed = await db.seat_changes.seat_passed(game_id, user_id)
    if passed is None:
        return errors.NotSeated()
    holders = {s.role: s.user_id for s in await db.seats(game_id)}
    if user_id in holders.values():
        return errors.NotSeated()
    row = await find_row(db, game_id, live=False)
    seat = role_name(rules_or_none(row.game_name), passed.role)
    return errors.SeatPassed(seat, who(holders.get(passed.role, passed.to_user)))
