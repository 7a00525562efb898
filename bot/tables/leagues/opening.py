"""A round's games opened after the commit that paired them, and the league's posts
delivered after that: by any process, any number of times, one thread and one game per
pairing.

Per pairing without a game: a claim (a lease, so two processes never open it at once),
its thread opened by the room and kept (``set_table``: a retry after a crash opens the
game in that thread, never in a second one), then one transaction that takes the
league's lock (as every change to the league does), writes the game with both seats, so
it starts at once, and links it to the pairing only while the pairing
has neither a game nor a result (``link_game``): should another process have opened it
meanwhile, or a moderator decided it, the transaction is rolled back and nothing is
left. Then its posts are delivered and the listeners told (Dispatch's seats move)."""

from __future__ import annotations

import logging

import rules
from bot.delivery.port import GameInfo
from bot.storage.errors import StoreError
from bot.storage.league_rows import LeagueGameRow, LeagueRow
from bot.storage.session import Session
from bot.storage.store import LEASE_S
from bot.tables import lobby
from bot.tables.clocks import Control, parse
from bot.tables.core import Core
from bot.tables.leagues import posts, reading
from bot.tables.leagues.port import LeagueRoom
from bot.tables.loading import info_in

log = logging.getLogger("dispatch.leagues")

#: How many pairings one pass claims, and how many posts.
BATCH = 50


class _Taken(Exception):
    """The pairing was opened or decided elsewhere: roll the new game back."""


async def open_games(core: Core, room: LeagueRoom) -> int:
    """Open every pairing claimed by this process; how many games were opened."""
    store = core.store
    async with store.transaction() as db:
        claimed = await db.leagues.claim_unopened(store.instance, LEASE_S, BATCH)
    opened = 0
    for game in claimed:
        try:
            info = await _open_one(core, room, game)
        except StoreError:
            raise  # the database, not the pairing: the next pass tries again
        except Exception:  # the room failed: its claim lapses, and it is tried again then
            log.exception(
                "league=%d round %d board %d was not opened; tried again in %d s",
                game.league_id,
                game.round,
                game.board,
                LEASE_S,
            )
            continue
        if info is None:
            async with store.write() as db:
                await db.leagues.release_claim(game.id, store.instance)
            continue
        opened += 1
        await core.deliver_due(info.id)
        await core.listening.owed(info)
    return opened


async def _open_one(core: Core, room: LeagueRoom, game: LeagueGameRow) -> GameInfo | None:
    store = core.store
    async with store.read() as db:
        league = await db.leagues.league(game.league_id)
        if league is None or league.status != "running":
            return None
        info = await reading.info_of(db, league)
        control = await _control(db, league)
    channel = game.channel_id
    if channel is None:
        name = f"{league.name}: round {game.round}, board {game.board}"
        channel = await room.open_table(info, reading.game_info(game), name)
        async with store.write() as db:
            await db.leagues.set_table(game.id, channel)
    roles = tuple(rules.GAMES[league.game_name].roles)
    request = lobby.CheckedGame(
        league.guild_id, channel, league.game_name, game.first, seat=roles[0], clock=control
    )
    hours = core.default_reminder_hours
    try:
        async with store.transaction() as db:
            # The league's lock first, as every change to the league takes it. So a
            # moderator's act, which locks the league's games and then the league, sees
            # every game opened before it; and an opening that waited for such an act
            # finds the pairing it ruled on decided (``link_game`` refuses it), and
            # opens nothing.
            locked = await db.leagues.lock_league(game.league_id)
            if locked is None or locked.status != "running":
                raise _Taken()
            made = await lobby.open_in(db, request, reminder_hours=hours)
            if not await db.leagues.link_game(game.id, made.id):
                raise _Taken()
            await lobby.take_seat(db, made.id, game.second, roles[1], reminder_hours=hours)
            started = await info_in(db, made.id)
    except _Taken:
        return None
    log.info(
        "league=%d round %d board %d opened as game %d", league.id, game.round, game.board, made.id
    )
    return started


async def _control(db: Session, league: LeagueRow) -> Control | None:
    """The league's clock: its own, or the server's default for new games."""
    written = league.clock
    if written is None:
        written = await db.settings.default_clock(league.guild_id)
    return parse(written) if written else None


async def deliver_posts(core: Core, room: LeagueRoom) -> int:
    """Say each league post due in its league's channel, in order; how many were said.
    A post that fails is tried again later, further apart each time; a round's post
    waits while its games are being opened (and holds back its league's later posts)."""
    store = core.store
    async with store.transaction() as db:
        claimed = await db.leagues.claim_posts(store.instance, LEASE_S, BATCH)
    said, held = 0, set[int]()
    for row in claimed:
        async with store.read() as db:
            league = await db.leagues.league(row.league_id)
            post = await posts.worded(db, league, row.payload) if league else None
            info = await reading.info_of(db, league) if league else None
        if league is not None and (post is None or row.league_id in held):
            held.add(row.league_id)
            async with store.write() as db:
                await db.leagues.post_later(row.id, db.now, failed=False)
            continue
        try:
            if post is not None and info is not None:
                await room.post(info, post)
        except Exception:
            log.exception("league=%d post %d failed; it is tried again", row.league_id, row.id)
            held.add(row.league_id)
            wait = min(core.tuning.retry_cap_s, core.tuning.retry_base_s * 2**row.attempts)
            async with store.write() as db:
                await db.leagues.post_later(row.id, db.now + wait, failed=True)
            continue
        async with store.write() as db:
            await db.leagues.post_delivered(row.id)
        said += 1
    return said
