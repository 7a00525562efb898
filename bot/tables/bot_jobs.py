"""The moves Dispatch owes, kept as jobs (``bot_jobs``, migration 0019).

Every turn that leaves one of Dispatch's seats owing a decision writes one job for it
(game, role, version, level) in the turn's own transaction (:func:`owe_moves`, called by
``turn.commit_turn``), so a crash never loses it and it is written once; the same
transaction settles the jobs of earlier versions (done for the role that acted, stale
otherwise) and, when it settled one, deletes the game's finished jobs beyond the newest
:data:`KEEP_FINISHED` (a game of months against Dispatch keeps a handful of rows, not
hundreds); the game's end deletes all of them (``Session.set_status``, migration 0020).
A job is claimed with a lease by a ``dispatch worker`` (``bot.workers``) or, when no
worker is alive, by the bot's own pool (``bots.BotSeats``), and its move is submitted
through the ``GameManager`` with the job's version: a stale or repeated job is refused
there, so a move is never applied twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.storage.rows import SeatRow
from bot.storage.session import Session
from bot.tables.bot_users import is_bot, level_of

#: How many finished jobs a live game keeps (its pending ones are always kept): the
#: newest tells a late second write of a move just made (``BotSeats.play_one``) apart
#: from a new one; the few before it help whoever reads the table by hand.
KEEP_FINISHED = 4


async def owe_moves(
    db: Session,
    game_id: int,
    version: int,
    seats: Sequence[SeatRow],
    active_now: Sequence[str],
    *,
    acting: str | None,
    over: bool,
) -> None:
    """The game is now at ``version``: settle its earlier jobs and, unless it is over,
    write one for each of Dispatch's seats that owes a decision."""
    await db.bot_jobs.settle_bot_jobs(game_id, version, acting)
    if over:
        return  # the game's end dropped its jobs
    # Whether anything settled is not asked: on PostgreSQL the answer would cost the
    # turn a round trip, where the prune goes with its other writes (bot.storage.batch).
    await db.bot_jobs.prune_bot_jobs(game_id, KEEP_FINISHED)
    user_of: Mapping[str, str] = {s.role: s.user_id for s in seats}
    for role in active_now:
        user = user_of.get(role)
        if is_bot(user):
            assert user is not None
            await db.bot_jobs.owe_bot_move(game_id, role, version, level_of(user))
