"""Ratings (issue 26, section 4): a rating per player per game, per server.

The model is openskill's Plackett-Luce (``openskill``, MIT, pure Python; why this library:
docs/ratings.md). Each player has a skill ``mu`` and an uncertainty ``sigma``; what is
shown and ranked is the conservative estimate ``mu - 3 sigma``, scaled so that a newcomer
stands at 1,500 (:func:`points`).

A game is rated when its result is recorded, in that same transaction (``rated_post``,
called by ``bot.tables.turn`` for the end post of a finished game and of a resignation),
and the end post carries each seat's change. The ``rating_changes`` row of each seat is
keyed by the game, so a game is rated once: replaying delivery or restarting re-sends
the post that was stored, it never rates again.

Rated: a finished game between different players, dealt from a secret key, after at
least :data:`MIN_DECISIONS` decisions by each side. Not rated: a practice game (a chosen
seed: its cards are known to whoever knows the seed), a hot-seat game (one person in
several seats), a one-seat game (the CDG Solo System), an assisted game (a player asked
``/game hint``: ``bot.tables.hints``), and any game that never records a
result (cancelled in its lobby, abandoned by agreement or by a moderator).

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
from bot.storage.rows import GameRow, RatingChangeRow, RatingRow, SeatRow
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
        raise errors.BadInput(
            f"{game.title or game.name} is played alone, so it has no ratings or leaderboard."
        )
    return str(game.name)


def leaderboard_size(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise errors.BadInput(f"A leaderboard shows from 1 to {LEADERBOARD_MAX} players.")
    if not 1 <= value <= LEADERBOARD_MAX:
        raise errors.BadInput(f"A leaderboard shows from 1 to {LEADERBOARD_MAX} players.")
    return value


def points(rating: PlackettLuceRating) -> float:
    """The shown rating: ``60 (mu - 3 sigma) + 1500``, so 1,500 for a newcomer."""
    return float(rating.ordinal(3.0, POINTS_PER_UNIT, NEWCOMER_POINTS))


def scope_of(guild_id: str | None) -> str:
    """Ratings are per server ('' for a game outside one; the sandbox is its own server)."""
    return guild_id or ""


def player_of(row: GameRow, seat: SeatRow) -> str:
    if is_bot(seat.user_id) and _fate_side(row.options_json) == seat.role:
        return FATE_PLAYER
    return seat.user_id


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
) -> str | None:
    """Why this finished game is not rated, or None when it is. ``hints``: how many times
    a player asked the search for a hint (``bot.tables.hints``)."""
    if len(roles) < 2 or len(seats) < 2:
        return "a one-seat game"
    if row.seed != KEYED:
        return "a practice game (chosen seed)"
    if hints:
        return "an assisted game (hints were used)"
    if len({player_of(row, s) for s in seats}) < len(seats):
        return "a hot-seat game"
    if any(decisions.get(r, 0) < MIN_DECISIONS for r in roles):
        return f"fewer than {MIN_DECISIONS} decisions by a side"
    return None


def ranks_of(seats: Sequence[SeatRow], winner: str | None) -> list[float]:
    """Plackett-Luce ranks: the winner first, everyone else next; all level in a draw."""
    if winner is None or winner not in {s.role for s in seats}:
        return [1.0] * len(seats)
    return [1.0 if s.role == winner else 2.0 for s in seats]


async def rate_game(
    db: Session, row: GameRow, seats: Sequence[SeatRow], roles: Sequence[str], winner: str | None
) -> tuple[RatingChange, ...]:
    """Rate a game whose result is being recorded in ``db``'s transaction; () if unrated.
    A game already rated keeps its first changes (they are returned, nothing is redone)."""
    done = await db.rating_changes(row.id)
    if done:
        return tuple(
            RatingChange(c.role, c.player_id, round(c.points_was), round(c.points_now))
            for c in done
        )
    decisions, hints = await db.decisions_by_role(row.id), await db.hints_used(row.id)
    if unrated_reason(row, seats, roles, decisions, hints) is not None:
        return ()
    scope = scope_of(row.guild_id)
    players = [player_of(row, s) for s in seats]
    stored = [await db.rating(scope, row.game_name, p) for p in players]
    before = [MODEL.rating(mu=r.mu, sigma=r.sigma) if r else MODEL.rating() for r in stored]
    ranks = ranks_of(seats, winner)
    after = [team[0] for team in MODEL.rate([[r] for r in before], ranks=ranks)]
    changes: list[RatingChange] = []
    for seat, player, old, was, now, rank in zip(
        seats, players, stored, before, after, ranks, strict=True
    ):
        won = int(winner is not None and rank == 1)
        await db.save_rating(_updated(old, (scope, row.game_name, player), now, won))
        change = RatingChange(seat.role, player, round(points(was)), round(points(now)))
        await _record_change(db, row.id, change, points(was), points(now))
        changes.append(change)
    return tuple(changes)


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
    await db.add_rating_change(RatingChangeRow(game_id, change.role, change.player_id, was, now))


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
