"""What the store hands back: a frozen dataclass for each kind of row, the readers that
make one from a database row (``bot.storage.connection.Row``: either engine's rows,
read alike), and ``dumps``, the one JSON encoding the store writes."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.storage.connection import Row


def dumps(data: Any) -> str:
    """The one JSON encoding we store: sorted keys, compact, so equal data is equal text."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class NewGameRow:
    """A game as first written (``Session.insert_game``): a lobby at version 0."""

    guild_id: str | None
    channel_id: str
    game_name: str
    options: dict[str, Any]
    seed: int
    creator_id: str
    hotseat: bool
    state: dict[str, Any]


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: str | None
    channel_id: str
    game_name: str
    options_json: str
    seed: int
    status: str
    state_json: str | None
    version: int
    creator_id: str
    hotseat: bool
    active_roles: tuple[str, ...]
    posted_log: int
    created_at: float
    updated_at: float
    turn_started_at: float | None
    #: The roles and step of play the table's last post said it was waiting for.
    posted_active: tuple[str, ...] = ()
    posted_step: str = ""
    #: Why background work could not handle this game (None: healthy); see ``mark_damaged``.
    damaged: str | None = None
    #: The finished game this one is a rematch of.
    rematch_of: int | None = None


@dataclass(frozen=True)
class SeatRow:
    game_id: int
    role: str
    user_id: str
    dm_failed: bool
    abandon_requested: bool
    private_seen: int
    joined_at: float
    #: The game version at which this seat's decision (prompt, actions, private news)
    #: last changed, and a digest of that decision; see migration 0002.
    prompt_version: int = 0
    prompt_digest: str = ""


@dataclass(frozen=True)
class OutboxRow:
    id: int
    game_id: int
    kind: str
    target: str | None
    payload_json: str
    created_at: float
    attempts: int
    last_error: str | None
    next_attempt_at: float
    #: When the row's first send was started (None: never tried); see ``mark_sending``.
    sent_at: float | None = None


@dataclass(frozen=True)
class TimerRow:
    id: int
    game_id: int
    kind: str
    role: str | None
    user_id: str | None
    due_at: float
    interval_s: float
    fired: int


@dataclass(frozen=True)
class ActionRow:
    game_id: int
    seq: int
    role: str
    user_id: str
    verb: str
    arg: Any
    at: float


@dataclass(frozen=True)
class ResultRow:
    game_id: int
    winner: str | None
    reason: str
    score: dict[str, Any]
    finished_at: float
    #: How the game ended, for programs (``rules.core.types.Outcome``'s code).
    code: str = "unrecorded"


def _roles(text: Any) -> tuple[str, ...]:
    # A damaged cache must not break listings or the background pass: these columns only
    # drive "whose turn" displays and when to post, never the rules.
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return ()
    return tuple(str(r) for r in value) if isinstance(value, list) else ()


def read_game(r: Row) -> GameRow:
    return GameRow(
        id=r["id"],
        guild_id=r["guild_id"],
        channel_id=r["channel_id"],
        game_name=r["game_name"],
        options_json=r["options"],
        seed=r["seed"],
        status=r["status"],
        state_json=r["state"],
        version=r["version"],
        creator_id=r["creator_id"],
        hotseat=bool(r["hotseat"]),
        active_roles=_roles(r["active_roles"]),
        posted_log=r["posted_log"],
        created_at=r["created_at"],
        updated_at=r["updated_at"],
        turn_started_at=r["turn_started_at"],
        posted_active=_roles(r["posted_active"]),
        posted_step=str(r["posted_step"] or ""),
        damaged=r["damaged"],
        rematch_of=r["rematch_of"],
    )


def read_seat(r: Row) -> SeatRow:
    return SeatRow(
        game_id=r["game_id"],
        role=r["role"],
        user_id=r["user_id"],
        dm_failed=bool(r["dm_failed"]),
        abandon_requested=bool(r["abandon_requested"]),
        private_seen=r["private_seen"],
        joined_at=r["joined_at"],
        prompt_version=r["prompt_version"],
        prompt_digest=r["prompt_digest"],
    )


def read_outbox(r: Row) -> OutboxRow:
    return OutboxRow(
        id=r["id"],
        game_id=r["game_id"],
        kind=r["kind"],
        target=r["target"],
        payload_json=r["payload"],
        created_at=r["created_at"],
        attempts=r["attempts"],
        last_error=r["last_error"],
        next_attempt_at=r["next_attempt_at"],
        sent_at=r["sent_at"],
    )


def read_timer(r: Row) -> TimerRow:
    return TimerRow(
        id=r["id"],
        game_id=r["game_id"],
        kind=r["kind"],
        role=r["role"],
        user_id=r["user_id"],
        due_at=r["due_at"],
        interval_s=r["interval_s"],
        fired=r["fired"],
    )


@dataclass(frozen=True)
class BotEstimateRow:
    """Dispatch's estimate of its chance after one of its moves (migration 0015)."""

    game_id: int
    version: int
    role: str
    estimate: float
    #: The public log text of the move.
    move: str


@dataclass(frozen=True)
class RatingRow:
    scope: str
    game_name: str
    player_id: str
    mu: float
    sigma: float
    #: The shown rating (see ``bot.tables.ratings.points``).
    points: float
    games: int
    wins: int


@dataclass(frozen=True)
class RatingChangeRow:
    game_id: int
    role: str
    player_id: str
    points_was: float
    points_now: float


def read_rating(r: Row) -> RatingRow:
    return RatingRow(
        scope=r["scope"],
        game_name=r["game_name"],
        player_id=r["player_id"],
        mu=r["mu"],
        sigma=r["sigma"],
        points=r["points"],
        games=r["games"],
        wins=r["wins"],
    )


@dataclass(frozen=True)
class ClockRow:
    """One person's clock: seconds left when it last started or stopped, and while it
    runs, since when and until when."""

    role: str
    remaining_s: float
    running_since: float | None = None
    deadline: float | None = None
    #: While it runs: when its player is next warned (None: no warning to come).
    warn_at: float | None = None
    #: On a server whose clocks are claimed: when it ran out and the opponent was offered
    #: the win (migration 0016). It stays at zero, owing, until the game ends.
    flagged_at: float | None = None

    def left(self, now: float) -> float:
        """Seconds left at ``now`` (never below zero). A clock may start in the future
        (its player is on vacation until then): nothing is spent before it starts."""
        if self.running_since is None:
            return max(0.0, self.remaining_s)
        return max(0.0, self.remaining_s - max(0.0, now - self.running_since))

    def paused(self, now: float) -> bool:
        """It is its player's to run but starts later: they are on vacation."""
        return self.running_since is not None and self.running_since > now

    def expired(self, now: float) -> bool:
        """The clock runs and its deadline has come."""
        return self.deadline is not None and now >= self.deadline


@dataclass(frozen=True)
class VacationRow:
    user_id: str
    scope: str
    starts_at: float
    ends_at: float
    days: int


@dataclass(frozen=True)
class SeatChangeRow:
    id: int
    game_id: int
    role: str
    from_user: str
    to_user: str
    by_user: str
    #: "offer" (accepted), "reseat" (a moderator) or "handover" (to Dispatch).
    how: str
    at_version: int
    at: float


@dataclass(frozen=True)
class SeatOfferRow:
    id: int
    game_id: int
    role: str
    from_user: str
    to_user: str
    at_version: int
    created_at: float
    expires_at: float
    status: str


def read_seat_change(r: Row) -> SeatChangeRow:
    return SeatChangeRow(**{k: r[k] for k in SeatChangeRow.__dataclass_fields__})


def read_seat_offer(r: Row) -> SeatOfferRow:
    return SeatOfferRow(**{k: r[k] for k in SeatOfferRow.__dataclass_fields__})


@dataclass(frozen=True)
class BotJobRow:
    """A move Dispatch owes (``bot_jobs``, migration 0019)."""

    game_id: int
    role: str
    version: int
    level: str
    status: str
    attempts: int
    claimed_by: str | None
    lease_until: float | None
    created_at: float


def read_bot_job(r: Row) -> BotJobRow:
    return BotJobRow(
        int(r["game_id"]),
        str(r["role"]),
        int(r["version"]),
        str(r["level"]),
        str(r["status"]),
        int(r["attempts"]),
        r["claimed_by"],
        float(r["lease_until"]) if r["lease_until"] is not None else None,
        float(r["created_at"]),
    )
