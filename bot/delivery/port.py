"""The front-end port: what the GameManager hands to Discord, the sandbox or a test.

A front end implements ``FrontEnd``. The manager calls it only from its delivery step,
with data read back from the outbox, so a message is the same whether it is delivered
right after an action or after a restart. Views are the rules engine's own views (plain
JSON); a front end builds buttons from ``view["actions"]`` and images from the view with
``board_image`` / ``hand_image``.

To report how a delivery went, a front end returns normally (delivered), raises
``bot.errors.DirectMessageClosed`` (the player refuses DMs: permanent),
``bot.errors.TableUnreachable`` (it may not post in the game's channel: the table's posts
wait until the channel is fixed, see ``bot.delivery.courier``), or raises anything else,
ideally ``bot.errors.DeliveryRetry`` (transient: retried with backoff).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

log = logging.getLogger("dispatch.ports")

View = dict[str, Any]

GameStatus = Literal["lobby", "active", "finished", "cancelled", "abandoned"]


@dataclass(frozen=True)
class SeatInfo:
    role: str
    user_id: str
    #: The player refused a DM once; they get their prompts with ``/game hand`` instead.
    dm_failed: bool = False


@dataclass(frozen=True)
class GameInfo:
    id: int
    guild_id: str | None
    channel_id: str
    game_name: str
    title: str
    status: GameStatus
    #: Bumped once per applied action; buttons carry it (``expected_version``).
    version: int
    creator_id: str
    seats: tuple[SeatInfo, ...]
    #: Roles that owe a decision now (empty unless active).
    active_roles: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    #: Epoch seconds since the current decision has been waiting.
    turn_started_at: float | None = None
    #: Why background work found this game's record unreadable (None: healthy).
    damaged: str | None = None
    #: A game of one seat (``rules.Game.one_seat``): its prompt is posted at its table.
    one_seat: bool = False

    def seat_of(self, role: str) -> SeatInfo | None:
        return next((s for s in self.seats if s.role == role), None)

    def roles_of(self, user_id: str) -> tuple[str, ...]:
        return tuple(s.role for s in self.seats if s.user_id == user_id)

    @property
    def waiting_on(self) -> tuple[str, ...]:
        """User ids of whoever must act now."""
        return tuple(s.user_id for s in self.seats if s.role in self.active_roles)


TableKind = Literal["start", "turn", "end", "notice", "reminder"]


@dataclass(frozen=True)
class RatingChange:
    """One seat's rating before and after a rated game (``bot.tables.records.ratings``)."""

    role: str
    #: The user id, or the name of one of Dispatch's levels ("Dispatch (hard)").
    player_id: str
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before

    @property
    def delta_text(self) -> str:
        """``+12``, ``−8`` (a true minus sign), ``±0``."""
        d = self.delta
        return f"+{d}" if d > 0 else (f"−{-d}" if d < 0 else "±0")


@dataclass(frozen=True)
class TablePost:
    """One message to the game's channel.

    ``start``/``turn``/``end`` carry the public view (draw the board from it) and the new
    public log lines since the previous table post. ``notice``/``reminder`` are short text
    messages with ``view`` None. Front ends write the mentions themselves, in front of
    ``headline``.
    """

    kind: TableKind
    version: int
    headline: str
    view: View | None = None
    log_lines: tuple[str, ...] = ()
    #: Who to ping: whoever must act now, or whom a notice is for.
    mention_user_ids: tuple[str, ...] = ()
    active_roles: tuple[str, ...] = ()
    #: Set on ``end``: {"winner": role or None, "reason": str, "score": {...}}.
    outcome: dict[str, Any] | None = None
    #: Set on the ``end`` of a rated game: each seat's rating change.
    ratings: tuple[RatingChange, ...] = ()
    #: Set on the ``end`` of a game against Dispatch's search: one short line on where
    #: the game turned by its own estimates (``bot.tables.records.estimates``; all in /game log).
    turned: str = ""
    #: Set on the notice that a clock ran out where the win is claimed:
    #: the front end adds a **Claim the win** button (``bot.tables.clocks.claims``).
    claim: bool = False
    #: The outbox row's identity (``bot.delivery.outbox.delivery_nonce``), set by delivery: the same
    #: row sent twice (a crash between sending and marking) carries the same nonce, so
    #: Discord keeps the first message instead of posting again. Empty outside delivery.
    nonce: str = ""


PrivateKind = Literal["turn", "reveal", "reminder", "end", "notice"]


@dataclass(frozen=True)
class PrivateMessage:
    """One direct message to the player in ``role``.

    ``turn``: the role has just become active; ``view`` has its prompt, actions and hidden
    information; build buttons with ``version``. ``reveal``: hidden information for this
    role alone (``log_lines`` are its new private log lines). ``reminder``: a nudge, with
    the current view. ``notice``: a line of news about the game itself (its channel cannot
    be posted in), with no view: it neither shows nor replaces a prompt.
    """

    kind: PrivateKind
    role: str
    version: int
    headline: str
    view: View = field(default_factory=dict)
    log_lines: tuple[str, ...] = ()
    #: As ``TablePost.claim``: a notice offering the win on time carries the button.
    claim: bool = False
    #: As ``TablePost.nonce``: the outbox row's identity, the same on every retry.
    nonce: str = ""


@runtime_checkable
class FindsSent(Protocol):
    """A front end that can tell whether a message it sent earlier is there (by the
    row's nonce): the courier asks before sending a row again past the nonce window."""

    async def already_sent(
        self, game: GameInfo, seat: SeatInfo | None, nonce: str, since: float
    ) -> bool: ...


class FrontEnd(Protocol):
    async def post_table(self, game: GameInfo, post: TablePost) -> None:
        """Post to the game's channel (board image, log lines, mentions)."""
        ...

    async def send_private(self, game: GameInfo, seat: SeatInfo, message: PrivateMessage) -> None:
        """Send to one player; raise DirectMessageClosed if they refuse DMs."""
        ...


class NullFrontEnd:
    """Delivers nothing; for benchmarks and tools."""

    async def post_table(self, game: GameInfo, post: TablePost) -> None:
        return None

    async def send_private(self, game: GameInfo, seat: SeatInfo, message: PrivateMessage) -> None:
        return None
