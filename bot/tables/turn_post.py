"""The table post of a turn that passed, queued in the turn's transaction: the board with
its clock band, the new public log lines, whom it mentions, and, in its headline, the
rating and turning point of a game that ended (``ratings``, ``estimates``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from bot.delivery import notices
from bot.delivery.notices import public_log
from bot.delivery.outbox import post_payload
from bot.delivery.port import View
from bot.storage.rows import ClockRow
from bot.storage.session import Session
from bot.tables import notice_plan
from bot.tables.clocks import clock_pass
from bot.tables.leagues import play as league_play
from bot.tables.records import estimates, ratings
from bot.tables.turn_types import Table


@dataclasses.dataclass(frozen=True)
class TurnPost:
    public: View
    ticked: Sequence[ClockRow]
    away: dict[str, float]  # the roles whose player is on vacation, with its end
    routing: notice_plan.Routing
    step: str


async def post_if_passed(
    db: Session,
    table: Table,
    state: dict[str, Any],
    change: notice_plan.Change,
    passed: bool,
    what: TurnPost,
) -> int:
    """Queue the table post of a turn that passed; return how many public log lines the
    table has been shown after it (all of them once a post went out)."""
    public_lines = public_log(what.public)
    if not passed:
        return min(table.row.posted_log, len(public_lines))
    await post_turn(db, table, state, change, what)
    return len(public_lines)


async def post_turn(
    db: Session, table: Table, state: dict[str, Any], change: notice_plan.Change, what: TurnPost
) -> None:
    """Queue the table post of a turn that passed (a solo session's shows its own seat's
    view: its prompt is posted at the table)."""
    row, seats, rules_game = table.row, table.seats, table.rules_game
    band = clock_pass.band(
        what.ticked, rules_game, db.now, what.away
    )  # the board's headline shows it
    public = what.public
    if change.one_seat:
        public = rules_game.view(state, rules_game.roles[0])
    elif band:
        public = {**public, "clock_band": band}
    public_lines = public_log(what.public)
    news = notices.TurnNews(
        row.version,
        public,
        tuple(public_lines[min(row.posted_log, len(public_lines)) :]),
        change.active_now,
        mention=what.routing.mention,
        start=change.start,
        acting=change.acting_role,
    )
    post = notices.turn_post(rules_game, row.game_name, news)
    if change.start and await db.leagues.game_of(row.id) is not None:
        # A league game's start pings nobody: the round's post pinged its players once.
        post = dataclasses.replace(post, mention_user_ids=())
    if change.ended:  # a league's game records its result and may advance its round
        outcome: dict[str, Any] = dict(rules_game.outcome(state) or {})
        winner, code = outcome.get("winner"), str(outcome.get("code") or "")
        await league_play.game_ended(db, row.id, rules_game.roles, winner, code)
    post = await ratings.rated_post(db, row, seats, rules_game.roles, post)
    post = await estimates.with_turning_point(db, row.id, seats, post)
    await db.outbox.queue(row.id, "table", None, post_payload(post))
    await db.set_posted_turn(row.id, change.active_now, what.step)
