"""Ratings: a rating per player per game, per server.

The model is openskill's Plackett-Luce (``openskill``, MIT, pure Python; why this library:
docs/ratings.md). Each player has a skill ``mu`` and an uncertainty ``sigma``; what is
shown and ranked is the conservative estimate ``mu - 3 sigma``, scaled so that a newcomer
stands at 1,500 (:func:`points`).

A game is rated when its result is recorded, in that same transaction (``rated_post``,
called by ``bot.tables.turn_post`` for the end post of a finished game and by
``bot.tables.endings`` for that of a resignation), and the end post carries each seat's
change. The ``rating_changes`` row of each seat is keyed by the game, so a game is rated
once: replaying delivery or restarting re-sends the post that was stored, it never rates
again.

Rated: a finished game between different players, dealt from a secret key, after at
least :data:`MIN_DECISIONS` decisions by each side. Not rated: a game of an unrated
league (``bot.tables.leagues``), a practice game (a chosen
seed: its cards are known to whoever knows the seed), a hot-seat game (one person in
several seats), a one-seat game (the CDG Solo System), an assisted game (a player asked
``/game hint``: ``bot.tables.hints``), and any game that never records a
result (cancelled in its lobby, abandoned by agreement or by a moderator).

Who is rated: every player of a seat with :data:`MIN_DECISIONS` decisions at it, not
only its holder at the end, so that handing a losing seat to Dispatch or offering it to a
second account never takes the loss away; a moderator's reseat is the reseated player's
loss on time (:func:`forfeits`). Each is rated as in a two-player game against the other
side's main player (:func:`principal`), so the opponent is rated once.

Dispatch's levels are players too (their seat's user id: "Dispatch (hard)"), and a seat
run by the Fate Die is the player :data:`FATE_PLAYER`, so a rating earned against the bot
means something and each level's strength shows on the leaderboard.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence

from openskill.models import PlackettLuce, PlackettLuceRating

import rules
from bot import errors
from bot.delivery.port import RatingChange, TablePost
from bot.storage.rows import GameRow, RatingChangeRow, RatingRow, SeatChangeRow, SeatRow
from bot.storage.session import Session
from bot.tables.bot_users import is_bot

#: Each side must have made this many decisions (actions other than undo) for the game to
#: be rated. Three is past any side's first turn in every game Dispatch plays (a card or
#: a placement, then done): a game resigned at its first prompt (the wrong side, the wrong
#: game, a test) moves nobody, while any game actually played is rated.
MIN_DECISIONS = 3

#: The shown rating of a newcomer, and how many points one unit of openskill's scale is.
NEWCOMER_POINTS = 1500.0
POINTS_PER_UNIT = 60.0

#: The player a seat run by the Fate Die is rated as (whichever level holds the seat).
FATE_PLAYER = "Dispatch (Fate Die)"

#: The seed column of a game dealt from a secret key (``bot.tables.lobby.NO_SEED``; not
#: imported, as the lobby imports the turn, which imports this module).
KEYED = -1

MODEL = PlackettLuce()

#: How many players a leaderboard shows unless asked, and at most.
LEADERBOARD_SIZE = 10
LEADERBOARD_MAX = 25


def rated_game(name: str) -> str:
    """``name`` if it is a game with ratings; else a polite refusal."""
    game = rules.GAMES.get(name.strip().lower())
    if game is None:
        raise errors.UnknownGame(name, rules.GAMES.keys())
    if game.one_seat:
        raise errors.PlayedAlone(
            f"{game.title or game.name} is played alone, so it has no ratings or leaderboard."
        )
    return str(game.name)


def leaderboard_size(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise errors.BadNumber(f"A leaderboard shows from 1 to {LEADERBOARD_MAX} players.")
    if not 1 <= value <= LEADERBOARD_MAX:
        raise errors.BadNumber(f"A leaderboard shows from 1 to {LEADERBOARD_MAX} players.")
    return value


def points(rating: PlackettLuceRating) -> float:
    """The shown rating: ``60 (mu - 3 sigma) + 1500``, so 1,500 for a newcomer."""
    return float(rating.ordinal(3.0, POINTS_PER_UNIT, NEWCOMER_POINTS))


def scope_of(guild_id: str | None) -> str:
    """Ratings are per server ('' for a game outside one; the sandbox is its own server)."""
    return guild_id or ""


def player_of(row: GameRow, seat: SeatRow) -> str:
    return player_for(row, seat.role, seat.user_id)


def player_for(row: GameRow, role: str, user_id: str) -> str:
    """Who ``user_id`` is rated as at the ``role`` seat: the Fate Die's side is one player,
    whichever level of Dispatch holds it."""
    if is_bot(user_id) and _fate_side(row.options_json) == role:
        return FATE_PLAYER
    return user_id


def _fate_side(options_json: str | None) -> str:
    try:
        options = json.loads(options_json or "{}")
    except ValueError:
        return ""
    return str(options.get("fate") or "") if isinstance(options, dict) else ""


def unrated_reason(
    row: GameRow,
    seats: Sequence[SeatRow],
    roles: Sequence[str],
    decisions: dict[str, int],
    hints: int = 0,
    *,
    unrated_league: bool = False,
) -> str | None:
    """Why this finished game is not rated, or None when it is. ``hints``: how many times
    a player asked the search for a hint (``bot.tables.hints``); ``unrated_league``: the
    game was played in a league created unrated (``db.leagues.in_unrated_league``)."""
    if len(roles) < 2 or len(seats) < 2:
        return "a one-seat game"
    if unrated_league:
        return "a game of an unrated league"
    if row.seed != KEYED:
        return "a practice game (chosen seed)"
    if hints:
        return "an assisted game (hints were used)"
    if len({player_of(row, s) for s in seats}) < len(seats):
        return "a hot-seat game"
    if any(decisions.get(r, 0) < MIN_DECISIONS for r in roles):
        return f"fewer than {MIN_DECISIONS} decisions by a side"
    return None


def ranks_of(roles: Sequence[str], winner: str | None) -> list[float]:
    """Plackett-Luce ranks of players of these sides: the winner first, everyone else
    next; all level in a draw."""
    if winner is None or winner not in roles:
        return [1.0] * len(roles)
    return [1.0 if role == winner else 2.0 for role in roles]


@dataclasses.dataclass(frozen=True)
class Holder:
    """Someone who played a seat: its role, their user id, the player they are rated as,
    the decisions they made at it, and whether a moderator's reseat took it from them
    (``forfeited``: their result is a loss on time, whatever the side's)."""

    role: str
    user_id: str
    player: str
    decisions: int
    forfeited: bool = False


def forfeits(how: str, by_user: str, from_user: str) -> bool:
    """A seat a moderator gave away from a person (not their own, not Dispatch's), ``how``
    and ``by_user`` as its change records: its player vanished, and the game counts as
    their loss on time."""
    return how == "reseat" and by_user != from_user and not is_bot(from_user)


def holders(
    row: GameRow,
    seats: Sequence[SeatRow],
    decisions: dict[tuple[str, str], int],
    changes: Sequence[SeatChangeRow],
) -> list[Holder]:
    """Everyone who played each seat, seat by seat: each player who made a decision at it
    and its holder at the end. A player whose last change of the seat was a moderator's
    reseat away from them (:func:`forfeits`) and who does not hold it now forfeited."""
    last_left = {(c.role, c.from_user): c for c in changes}
    found: list[Holder] = []
    for seat in seats:
        users = [u for (role, u) in decisions if role == seat.role]
        for user in dict.fromkeys([seat.user_id, *users]):
            left = last_left.get((seat.role, user))
            forfeited = (
                user != seat.user_id and left is not None and forfeits(left.how, left.by_user, user)
            )
            player = player_for(row, seat.role, user)
            count = decisions.get((seat.role, user), 0)
            found.append(Holder(seat.role, user, player, count, forfeited))
    return found


def rated_holders(found: Sequence[Holder]) -> list[Holder]:
    """Who the game rates: each player of a seat with :data:`MIN_DECISIONS` decisions at
    it; nobody when one player made them at two seats (a hot-seat game by seat changes)."""
    rated = [h for h in found if h.decisions >= MIN_DECISIONS]
    if len({h.player for h in rated}) < len(rated):
        return []
    return rated


def principal(found: Sequence[Holder], role: str) -> Holder:
    """Who a side's opponents are rated against: of its players who carry its result (not
    forfeited), the one who made the most decisions (a tie: the holder at the end)."""
    side = [h for h in found if h.role == role and not h.forfeited]
    return max(side, key=lambda h: h.decisions)  # the holder at the end comes first


def match_of(
    holder: Holder, found: Sequence[Holder], roles: Sequence[str], winner: str | None
) -> tuple[list[Holder], list[float]]:
    """One player's game as it is rated: them against the principal player of each other
    side, with Plackett-Luce ranks (a forfeit: last behind every other side)."""
    others = [principal(found, r) for r in roles if r != holder.role]
    if holder.forfeited:
        return [holder, *others], [2.0] + [1.0] * len(others)
    entrants = [holder, *others]
    return entrants, ranks_of([h.role for h in entrants], winner)


async def rate_game(
    db: Session, row: GameRow, seats: Sequence[SeatRow], roles: Sequence[str], winner: str | None
) -> tuple[RatingChange, ...]:
    """Rate a game whose result is being recorded in ``db``'s transaction; () if unrated.
    Each player of each seat with :data:`MIN_DECISIONS` decisions at it is rated on the
    result, however the seat left them (docs/ratings.md). A game already rated keeps its
    first changes (they are returned, nothing is redone)."""
    done = await db.records.rating_changes(row.id)
    if done:
        return tuple(
            RatingChange(c.role, c.player_id, round(c.points_was), round(c.points_now))
            for c in done
        )
    by_holder, hints = (
        await db.records.decisions_by_holder(row.id),
        await db.hints.hints_used(row.id),
    )
    unrated_league = await db.leagues.in_unrated_league(row.id)
    if unrated_reason(row, seats, roles, by_role(by_holder), hints, unrated_league=unrated_league):
        return ()
    held = {(s.role, s.user_id) for s in seats}
    # Only a decision made by someone no longer in the seat needs the seat's changes.
    passes = await db.seat_changes.of_game(row.id) if set(by_holder) - held else []
    found = holders(row, seats, by_holder, passes)
    scope = scope_of(row.guild_id)
    matches = [match_of(h, found, roles, winner) for h in rated_holders(found)]
    # Every rating as it stood before this game, read (once each) before any is saved.
    players = dict.fromkeys(h.player for entrants, _ in matches for h in entrants)
    stored = {p: await db.records.rating(scope, row.game_name, p) for p in players}
    changes: list[RatingChange] = []
    for entrants, ranks in matches:
        old = stored[entrants[0].player]
        before = [_model_rating(stored[h.player]) for h in entrants]
        now = MODEL.rate([[r] for r in before], ranks=ranks)[0][0]
        won = int(ranks[0] == 1 and len(set(ranks)) > 1)
        player = entrants[0].player
        change = RatingChange(
            entrants[0].role, player, round(points(before[0])), round(points(now))
        )
        await db.records.save_rating(_updated(old, (scope, row.game_name, player), now, won))
        await _record_change(db, row.id, change, points(before[0]), points(now))
        changes.append(change)
    return tuple(changes)


def by_role(by_holder: dict[tuple[str, str], int]) -> dict[str, int]:
    """Each side's decisions, whoever made them: ``by_holder`` summed per role."""
    totals: dict[str, int] = {}
    for (role, _user), n in by_holder.items():
        totals[role] = totals.get(role, 0) + n
    return totals


def _model_rating(row: RatingRow | None) -> PlackettLuceRating:
    return MODEL.rating(mu=row.mu, sigma=row.sigma) if row else MODEL.rating()


def _updated(
    old: RatingRow | None, key: tuple[str, str, str], now: PlackettLuceRating, won: int
) -> RatingRow:
    """``key``: (scope, game, player)."""
    return RatingRow(
        scope=key[0],
        game_name=key[1],
        player_id=key[2],
        mu=now.mu,
        sigma=now.sigma,
        points=points(now),
        games=(old.games if old else 0) + 1,
        wins=(old.wins if old else 0) + won,
    )


async def _record_change(
    db: Session, game_id: int, change: RatingChange, was: float, now: float
) -> None:
    # The primary key (game, role) refuses a second rating of the same seat: the whole
    # result would roll back rather than rate a game twice.
    await db.records.add_rating_change(
        RatingChangeRow(game_id, change.role, change.player_id, was, now)
    )


async def rated_post(
    db: Session, row: GameRow, seats: Sequence[SeatRow], roles: Sequence[str], post: TablePost
) -> TablePost:
    """The end post of a finished game with each seat's rating change, rating the game in
    ``db``'s transaction (the one that records its result); other posts as they are."""
    if post.kind != "end" or not post.outcome:
        return post
    winner = post.outcome.get("winner")
    changes = await rate_game(db, row, seats, roles, str(winner) if winner else None)
    return dataclasses.replace(post, ratings=changes) if changes else post
