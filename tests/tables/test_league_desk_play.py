"""Whole small leagues played through the desk with fake time: a round robin and a
Swiss played by resignations, the posts they say and whom they ping, the standings,
the export, forfeits on time and by withdrawal, and a moderator's acts."""

from __future__ import annotations

import json

import pytest
from conftest import FakeClock, RecordingFrontEnd

from bot import errors
from bot.storage.session import Session
from bot.storage.statements.leagues import LeagueStatements
from bot.tables.bot_users import bot_user
from bot.tables.leagues.entrants import Outcome
from bot.tables.leagues.port import LocalRoom
from bot.tables.leagues.records import LeagueInfo, LeagueSpec
from bot.tables.manager import GameManager

PLAYERS = ("alice", "bob", "carol", "dave")
BOT = bot_user("easy")


async def _league(
    manager: GameManager, spec: LeagueSpec, players: tuple[str, ...] = PLAYERS
) -> LeagueInfo:
    league = await manager.leagues.create("g", "chan", "mod", spec, may_run=True)
    for player in players:
        await manager.leagues.join(league.id, "g", player)
    return league


async def _play_out(manager: GameManager, league_id: int, loser_of) -> int:  # type: ignore[no-untyped-def]
    """Resign every open game of each round as ``loser_of(game)`` says; how many rounds."""
    rounds = 0
    while (await manager.leagues.info(league_id, "g")).status == "running":
        played = await manager.leagues.round(league_id, "g")
        rounds += 1
        for game in played.games:
            if game.outcome is None:
                assert game.game_id is not None
                await manager.resign(game.game_id, loser_of(game))
    return rounds


async def test_a_round_robin_of_four_is_played_out_by_resignations(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    league = await _league(manager, LeagueSpec("Cup", "toy", "round_robin"))
    first = await manager.leagues.start(league.id, "g", "mod", may_run=True)
    assert first.number == 1 and len(first.games) == 2
    assert all(g.game_id is not None and g.channel_id for g in first.games)
    # Each league game started at once in its thread, and its start post pinged nobody.
    starts = [p for p in front_end.posts if p.kind != "notice"]
    assert starts and all(p.mention_user_ids == () for p in starts)
    # The lower name loses every game: alice wins all, dave none.
    rounds = await _play_out(manager, league.id, lambda g: max(g.first, g.second))
    assert rounds == 3
    table = await manager.leagues.standings(league.id, "g")
    assert [(s.player, s.points) for s in table] == [
        ("alice", 3.0),
        ("bob", 2.0),
        ("carol", 1.0),
        ("dave", 0.0),
    ]
    info = await manager.leagues.info(league.id, "g")
    assert (info.status, info.round_number) == ("finished", 3)
    room = manager.leagues.room
    assert isinstance(room, LocalRoom)
    kinds = [p.kind for p in room.posts]
    assert kinds == ["lobby", "round", "round", "round", "final"]
    for post in room.posts[1:4]:
        assert sorted(post.mention_user_ids) == sorted(PLAYERS)  # each once
        assert all("<#league-" in line for line in post.lines)
    assert sorted(room.posts[-1].mention_user_ids) == sorted(PLAYERS)
    assert len(room.opened) == 6  # one thread per game, never two
    games = await manager.leagues.games(league.id, "g")
    assert len(games) == 6 and len({g.game_id for g in games}) == 6
    exported = await manager.leagues.export(league.id, "g")
    data = json.loads(exported.json_text)
    assert [a["what"] for a in data["audit"]][:6] == [
        "created",
        "joined",
        "joined",
        "joined",
        "joined",
        "started",
    ]
    assert sum(1 for a in data["audit"] if a["what"] == "round done") == 3
    sheet = exported.csv_text.splitlines()
    assert sheet[0] == "round,board,first,second,game_id,outcome,decided_by"
    assert sheet[7] == "" and sheet[8] == "at,by,what,detail"  # six games, then the audit
    assert len(sheet) == 9 + len(data["audit"])
    assert sheet[9].split(",")[1:3] == ["mod", "created"]
    assert len(data["games"]) == 6 and data["standings"][0]["player"] == "alice"


async def test_a_swiss_of_five_has_a_bye_each_round_and_no_rematch(manager: GameManager) -> None:
    players = ("p1", "p2", "p3", "p4", "p5")
    league = await _league(manager, LeagueSpec("Swiss", "toy", "swiss", rounds=3), players)
    await manager.leagues.start(league.id, "g", "mod", may_run=True)
    rounds = await _play_out(manager, league.id, lambda g: g.second)
    assert rounds == 3
    met = [frozenset((g.first, g.second)) for g in await manager.leagues.games(league.id, "g")]
    assert len(met) == len(set(met)) == 6
    byes = [(await manager.leagues.round(league.id, "g", n)).byes for n in (1, 2, 3)]
    assert all(len(b) == 1 for b in byes) and len({b[0] for b in byes}) == 3
    table = await manager.leagues.standings(league.id, "g")
    assert sum(s.points for s in table) == 6 + 3  # a point a game, a point a bye


async def test_a_swiss_league_game_lost_at_the_round_deadline_is_a_forfeit(
    manager: GameManager, clock: FakeClock
) -> None:
    league = await _league(manager, LeagueSpec("Deadline", "toy", "swiss", rounds=1, round_days=2))
    await manager.leagues.start(league.id, "g", "mod", may_run=True)
    played = await manager.leagues.round(league.id, "g")
    done, late = played.games
    assert done.game_id is not None and late.game_id is not None
    await manager.resign(done.game_id, done.second)
    assert await manager.leagues.pass_deadlines() == 0
    clock.advance(2 * 86_400.0 + 1)
    assert await manager.leagues.pass_deadlines() == 1
    game = await manager.get_game_info(late.game_id)
    assert game.status == "finished"
    after = await manager.leagues.round(league.id, "g", 1)
    assert after.status == "done"
    assert after.games[1].outcome in (Outcome.FIRST_FORFEITS, Outcome.SECOND_FORFEITS)
    assert (await manager.leagues.info(league.id, "g")).status == "finished"


async def test_a_player_who_leaves_forfeits_and_is_never_paired_again(manager: GameManager) -> None:
    league = await _league(manager, LeagueSpec("Leave", "toy", "swiss", rounds=3))
    await manager.leagues.start(league.id, "g", "mod", may_run=True)
    played = await manager.leagues.round(league.id, "g")
    mine = next(g for g in played.games if "alice" in (g.first, g.second))
    assert mine.game_id is not None
    info = await manager.leagues.leave(league.id, "g", "alice")
    assert {e.player: e.status for e in info.entrants}["alice"] == "withdrawn"
    assert (await manager.get_game_info(mine.game_id)).status == "finished"
    forfeit = (await manager.leagues.round(league.id, "g", 1)).games[mine.board - 1]
    alice_first = forfeit.first == "alice"
    assert forfeit.outcome is (Outcome.FIRST_FORFEITS if alice_first else Outcome.SECOND_FORFEITS)
    await _play_out(manager, league.id, lambda g: g.second)
    later = [g for g in await manager.leagues.games(league.id, "g") if g.round > 1]
    assert later and all("alice" not in (g.first, g.second) for g in later)
    with pytest.raises(errors.LeagueRefused):
        await manager.leagues.leave(league.id, "g", "alice")


async def test_a_moderator_decides_replaces_disqualifies_and_cancels(
    manager: GameManager,
) -> None:
    desk = manager.leagues
    league = await _league(manager, LeagueSpec("Mods", "toy", "round_robin"))
    await desk.start(league.id, "g", "mod", may_run=True)
    one, two = (await desk.round(league.id, "g")).games
    with pytest.raises(errors.ModeratorOnly):
        await desk.decide(league.id, "g", 1, 1, Outcome.DRAW, "alice", "", may_run=False)
    decided = await desk.decide(league.id, "g", 1, 1, Outcome.DRAW, "mod", "agreed", may_run=True)
    assert (decided.outcome, decided.decided_by) == (Outcome.DRAW, "mod")
    assert one.game_id is not None
    assert (await manager.get_game_info(one.game_id)).status == "finished"
    with pytest.raises(errors.LeagueRefused, match="already has a result"):
        await desk.decide(league.id, "g", 1, 1, Outcome.FIRST_WINS, "mod", "", may_run=True)
    newcomer = "erin"
    out = two.first
    replaced = await desk.replace(league.id, "g", out, newcomer, "mod", may_run=True)
    assert newcomer in [e.player for e in replaced.entrants]
    assert out not in [e.player for e in replaced.entrants]
    assert two.game_id is not None
    seated = await manager.get_game_info(two.game_id)
    assert newcomer in [s.user_id for s in seated.seats]
    with pytest.raises(errors.LeagueRefused, match="already entered"):
        await desk.replace(league.id, "g", two.second, newcomer, "mod", may_run=True)
    gone = await desk.disqualify(league.id, "g", two.second, "mod", "abuse", may_run=True)
    assert {e.player: e.status for e in gone.entrants}[two.second] == "disqualified"
    assert (await desk.round(league.id, "g", 1)).status == "done"
    cancelled = await desk.cancel(league.id, "g", "mod", may_run=True)
    assert cancelled.status == "cancelled"
    with pytest.raises(errors.LeagueRefused):
        await desk.cancel(league.id, "g", "mod", may_run=True)
    audit = json.loads((await desk.export(league.id, "g")).json_text)["audit"]
    whats = [a["what"] for a in audit]
    for what in ("decided", "replaced", "disqualified", "cancelled"):
        assert what in whats


async def test_standings_kept_between_looks_follow_every_result(manager: GameManager) -> None:
    league = await _league(manager, LeagueSpec("Looks", "toy", "round_robin"))
    await manager.leagues.start(league.id, "g", "mod", may_run=True)
    before = await manager.leagues.standings(league.id, "g")
    assert before == await manager.leagues.standings(league.id, "g")  # kept: the same
    game = (await manager.leagues.round(league.id, "g")).games[0]
    assert game.game_id is not None
    await manager.resign(game.game_id, game.second)
    after = await manager.leagues.standings(league.id, "g")
    assert [s.points for s in before] == [0.0] * 4
    assert {s.player: s.points for s in after}[game.first] == 1.0


async def test_a_player_out_cannot_leave_again_and_dispatch_plays_its_league_games(
    manager: GameManager,
) -> None:
    spec = LeagueSpec("Bots", "toy", "swiss", rounds=2, dispatch_may_enter=True)
    league = await _league(manager, spec, ("alice", "bob", "carol"))
    await manager.leagues.enter_dispatch(league.id, "g", "easy", "mod", may_run=True)
    await manager.leagues.start(league.id, "g", "mod", may_run=True)
    await manager.leagues.disqualify(league.id, "g", "carol", "mod", "no show", may_run=True)
    with pytest.raises(errors.LeagueRefused, match="already out"):
        await manager.leagues.leave(league.id, "g", "carol")
    with pytest.raises(errors.LeagueRefused, match="already out"):
        await manager.leagues.disqualify(league.id, "g", "carol", "mod", "", may_run=True)
    played = await manager.leagues.round(league.id, "g", 1)
    bot_game = next(g for g in played.games if BOT in (g.first, g.second))
    assert bot_game.game_id is not None
    async with manager.store.read() as db:
        jobs = await db.bot_jobs.of_game(bot_game.game_id)
    info = await manager.get_game_info(bot_game.game_id)
    bot_seat = next(s for s in info.seats if s.user_id == BOT)
    # Dispatch's seat is played like any Dispatch seat: its move is owed as a job.
    assert jobs or bot_seat.role not in info.active_roles
    room = manager.leagues.room
    assert isinstance(room, LocalRoom)
    round_post = next(p for p in room.posts if p.kind == "round")
    assert BOT not in round_post.mention_user_ids


async def test_a_league_game_won_by_a_claim_opens_the_next_round_at_once(
    manager: GameManager, clock: FakeClock
) -> None:
    """A claim on time that ends a round pairs the next one and opens its games in the
    same call, as a resignation does: no background pass is needed."""
    await manager.clocks.rules("g", on_time="claim")
    spec = LeagueSpec("Claims", "toy", "double_round_robin", clock="fast")
    league = await _league(manager, spec, ("alice", "bob"))
    await manager.leagues.start(league.id, "g", "mod", may_run=True)
    [game] = (await manager.leagues.round(league.id, "g")).games
    assert game.game_id is not None
    clock.advance(86_400.0)  # the first player's clock runs out
    assert await manager.clocks.expire() == 1  # the win is offered, not given
    info = await manager.get_game_info(game.game_id)
    mover = info.waiting_on[0]
    claimer = game.second if mover == game.first else game.first
    await manager.clocks.claim_win(game.game_id, claimer)
    second = await manager.leagues.round(league.id, "g")
    assert second.number == 2
    [rematch] = second.games
    assert rematch.game_id is not None  # opened by the claim itself
    room = manager.leagues.room
    assert isinstance(room, LocalRoom)
    assert [p.kind for p in room.posts] == ["lobby", "round", "round"]


async def test_a_game_opened_since_the_look_is_locked_before_the_league(
    manager: GameManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A moderator's act looks up the games it must lock, then locks them before the
    league, the order a game's end takes them in. A game opened between the look and the
    locks makes the transaction roll back and begin again with that game locked first,
    so the two can never wait for each other (a deadlock on PostgreSQL)."""
    league = await _league(manager, LeagueSpec("Locks", "toy", "round_robin"), ("alice", "bob"))
    await manager.leagues.start(league.id, "g", "mod", may_run=True)
    [game] = (await manager.leagues.round(league.id, "g")).games
    assert game.game_id is not None
    taken = _record_locks(monkeypatch)
    looks = 0

    async def opened_after_the_first_look(db: Session) -> list[int]:
        nonlocal looks
        looks += 1
        return [] if looks == 1 else [game.game_id]  # type: ignore[list-item]

    async with manager.store.read() as db:
        before = await db.leagues.league(league.id)
    async with manager.leagues._games_then_league(league.id, opened_after_the_first_look) as (
        _db,
        _league_row,
        locked,
    ):
        assert locked == [game.game_id]
    # The first attempt took the league's lock with the game unlocked, saw the game and
    # rolled back; the second took the game's lock first.
    assert taken == [("league", league.id), ("game", game.game_id), ("league", league.id)]
    async with manager.store.read() as db:
        after = await db.leagues.league(league.id)
    assert before is not None and after is not None
    assert after.version == before.version + 1  # the rolled-back attempt left no trace


def _record_locks(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """From now on, every game lock, league lock and pairing linked to its game, in the
    order taken (each still done by the real store)."""
    taken: list[tuple[str, int]] = []
    lock_game, lock_league = Session.lock_game, LeagueStatements.lock_league
    link_game = LeagueStatements.link_game

    async def recording_game_lock(self: Session, game_id: int) -> None:
        taken.append(("game", game_id))
        await lock_game(self, game_id)

    async def recording_league_lock(self: LeagueStatements, league_id: int) -> object:
        taken.append(("league", league_id))
        return await lock_league(self, league_id)

    async def recording_link(self: LeagueStatements, row_id: int, game_id: int) -> bool:
        taken.append(("link", game_id))
        return await link_game(self, row_id, game_id)

    monkeypatch.setattr(Session, "lock_game", recording_game_lock)
    monkeypatch.setattr(LeagueStatements, "lock_league", recording_league_lock)
    monkeypatch.setattr(LeagueStatements, "link_game", recording_link)
    return taken


async def test_a_round_game_is_linked_to_its_league_under_the_league_lock(
    manager: GameManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each game of a round is linked in a transaction that took the league's lock first,
    so a moderator's act, which locks the league's games and then the league, sees every
    game opened before it and none opened during it."""
    league = await _league(manager, LeagueSpec("Opening", "toy", "round_robin"))
    taken = _record_locks(monkeypatch)
    await manager.leagues.start(league.id, "g", "mod", may_run=True)
    links = [i for i, (kind, _) in enumerate(taken) if kind == "link"]
    assert len(links) == 2  # four players: two boards
    assert all(taken[i - 1] == ("league", league.id) for i in links), taken


@pytest.mark.parametrize("act", ["leave", "disqualify", "replace", "decide"])
async def test_a_moderators_act_locks_the_players_game_before_the_league(
    manager: GameManager, monkeypatch: pytest.MonkeyPatch, act: str
) -> None:
    """Each act that may end a running game takes that game's lock before the league's,
    the order the game's own end takes them in."""
    desk = manager.leagues
    league = await _league(manager, LeagueSpec("Order", "toy", "round_robin"))
    await desk.start(league.id, "g", "mod", may_run=True)
    board = next(
        g for g in (await desk.round(league.id, "g")).games if "alice" in (g.first, g.second)
    )
    assert board.game_id is not None
    taken = _record_locks(monkeypatch)
    if act == "leave":
        await desk.leave(league.id, "g", "alice")
    elif act == "disqualify":
        await desk.disqualify(league.id, "g", "alice", "mod", "no show", may_run=True)
    elif act == "replace":
        await desk.replace(league.id, "g", "alice", "erin", "mod", may_run=True)
    else:
        await desk.decide(
            league.id, "g", 1, board.board, Outcome.DRAW, "mod", "agreed", may_run=True
        )
    assert taken[:2] == [("game", board.game_id), ("league", league.id)], taken
