"""A channel Dispatch cannot post in: ``/game new`` refuses it and says
what to grant; a game whose channel stops taking posts (permissions taken away, the
channel deleted) parks the table's post instead of retrying it for ever, tells both
players once by DM how to recover, and goes on by DM; ``/game status`` once the channel
is fixed sends what waited."""

from __future__ import annotations

import pytest

import rules
from bot.tables.requests import Move
from tests.discord.test_discord_controls import press_for
from tests.discord.test_discord_e2e_fort_sumter import SEATS, new_game
from tests.discord.test_discord_e2e_war import best_prompt
from tests.discord_helpers import action_components, catch_errors, table, version_of
from tests.emulator.state import ATTACH_FILES, PATIENCE_S, SEND_MESSAGES, SEND_MESSAGES_IN_THREADS

pytestmark = pytest.mark.slow

GAME = rules.get_game("fort_sumter")
NOTICE = "I cannot post in the channel of game"


@pytest.mark.parametrize(
    ("denied", "named"), [(SEND_MESSAGES, "Send Messages"), (ATTACH_FILES, "Attach Files")]
)
async def test_game_new_refuses_a_channel_it_cannot_post_in(tmp_path, denied, named):
    """With threads off, the game is played in the channel itself (with threads on, the
    thread's permissions are checked: tests/discord/test_discord_threads.py)."""
    with catch_errors() as errors_seen:
        async with table(tmp_path, "alice", "bob") as t:
            await t.start()
            await t.bot.manager.threads.enabled(str(t.guild.id), False)
            t.emu.deny_bot(t.channel, denied)
            result = await t.slash(
                "alice", "game new", game="fort_sumter", opponent=t.players["bob"]
            )
            assert result.ephemeral and named in result.text, result.text
            assert "the game is on" not in result.text
            assert await t.bot.manager.game_in_channel(str(t.channel.id)) is None
    assert errors_seen.all_errors() == []


def refuse_posts(t) -> None:
    """Take from the bot what posting at the game's table needs: Send Messages in a
    channel, Send Messages in Threads in the game's thread."""
    t.emu.deny_bot(t.channel, SEND_MESSAGES_IN_THREADS if t.parent else SEND_MESSAGES)


def table_posts_tried(t) -> int:
    return sum(
        1
        for r in t.emu.world.requests
        if r.method == "POST" and r.path.endswith(f"/channels/{t.channel.id}/messages")
    )


def notices(t, who: str) -> list:
    return [m for m in t.emu.dms(t.players[who].id) if NOTICE in t.emu.message(m.id).text()]


async def play_one_turn(t, game_id: int) -> None:
    """The active player keeps an objective (the first decision of a round)."""
    manager = t.bot.manager
    info = await manager.get_game_info(game_id)
    for role in info.active_roles:
        who = SEATS[role]
        prompt = best_prompt(t, who)
        pv = await manager.view_for(game_id, str(t.players[who].id), role=role)
        verb, arg = manager_choice(pv.view)
        await t.press(who, prompt, *press_for(prompt, game_id, verb, arg))


def manager_choice(view: dict) -> tuple[str, object]:
    """What Dispatch's own automated player would choose."""
    choose = GAME.automated_player()
    assert choose is not None
    return choose(GAME, view)


async def test_a_channel_that_stops_taking_posts_parks_them_and_tells_the_players(tmp_path):
    with catch_errors() as errors_seen:
        async with table(tmp_path, "alice", "bob") as t:
            await t.start()
            game_id = await new_game(t, seed=5)
            manager = t.bot.manager
            refuse_posts(t)

            def public() -> list:
                return [m for m in t.emu.channel_messages(t.channel.id) if not m.ephemeral]

            posted = len(public())
            for _ in range(3):  # three decisions, each passing the turn or not
                await play_one_turn(t, game_id)
            info = await manager.get_game_info(game_id)
            assert info.status == "active" and info.damaged is None  # the game is not lost
            assert len(public()) == posted
            for who in ("alice", "bob"):
                [notice] = notices(t, who)
                text = t.emu.message(notice.id).text()
                assert "Send Messages" in text and "/game status" in text
            # The game goes on by DM: whoever must act has a live prompt.
            assert best_prompt(t, SEATS[info.active_roles[0]]) is not None
            # Not retried for ever: an hour later the table was not tried again.
            tried = table_posts_tried(t)
            t.clock_offset = 3600  # many retry intervals (0.2 s at most here); no reminder
            for _ in range(20):
                await manager.deliver_due()
            assert table_posts_tried(t) == tried

            # Fixed: /game status sends what waited, in order, and nobody is told twice.
            async def table_rows_waiting() -> list:
                async with manager.store.read() as db:
                    return [r for r in await db.outbox.undelivered(game_id) if r.kind == "table"]

            waiting = len(await table_rows_waiting())
            assert waiting >= 1
            t.emu.deny_bot(t.channel, 0)
            await t.slash("alice", "game status")
            await t.emu.world.wait_until(
                lambda: len(public()) >= posted + waiting,
                PATIENCE_S,
                "the posts that waited",
            )
            await manager.deliver_due(game_id)  # waits for the status command's pass
            assert await table_rows_waiting() == []
            assert any("to act" in m.content for m in public()[posted:])
            for who in ("alice", "bob"):
                assert len(notices(t, who)) == 1
    assert errors_seen.all_errors() == []


async def test_a_deleted_channel_parks_the_post_and_the_game_goes_on(tmp_path):
    with catch_errors() as errors_seen:
        async with table(tmp_path, "alice", "bob") as t:
            await t.start()
            game_id = await new_game(t, seed=5)
            t.emu.delete_channel(t.channel)
            info = await t.bot.manager.get_game_info(game_id)
            for role in info.active_roles:  # both keep an objective: a table post is due
                user = str(t.players[SEATS[role]].id)
                pv = await t.bot.manager.view_for(game_id, user, role=role)
                verb, arg = manager_choice(pv.view)
                await t.bot.manager.act(game_id, user, Move(verb, arg, pv.version))
            for who in ("alice", "bob"):
                assert len(notices(t, who)) == 1
            async with t.bot.manager.store.read() as db:
                [parked] = [r for r in await db.outbox.undelivered(game_id) if r.kind == "table"]
            assert parked.last_error and parked.last_error.startswith("table unreachable")
            assert (await t.bot.manager.get_game_info(game_id)).damaged is None
    assert errors_seen.all_errors() == []


@pytest.mark.parametrize(
    ("status", "code", "permanent"),
    [
        (403, 50013, True),
        (403, 50001, True),
        (404, 10003, True),
        (400, 50083, True),
        (404, 0, False),
    ],
)
async def test_which_refusals_park_the_table(tmp_path, status, code, permanent):
    """Missing Permissions or Access, Unknown Channel and an archived thread will not pass
    by themselves; another 404 is retried."""
    import dataclasses

    from bot.delivery.port import TablePost
    from bot.errors import DeliveryRetry, TableUnreachable

    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        game_id = await new_game(t, seed=5)
        info = await t.bot.manager.get_game_info(game_id)
        post = TablePost(kind="notice", version=info.version, headline="Hello.")
        t.emu.fail_next("POST /channels/*/messages", status=status, code=code)
        expected = TableUnreachable if permanent else DeliveryRetry
        with pytest.raises(expected):
            await t.bot.frontend.post_table(info, dataclasses.replace(post, nonce="dsp999.t"))


async def test_a_player_who_chose_the_channel_is_sent_their_turns_while_it_is_parked(tmp_path):
    """Both players asked for their turns in the channel (``/game settings notify``); the
    channel stops taking posts and they are told the game goes on by DM: so it must, or
    their turns would wait unannounced with the parked table post (found by a hostile
    review: the notice promised DMs that never came). The turn handed over by the post that
    was parked first is sent too."""
    with catch_errors() as errors_seen:
        async with table(tmp_path, "alice", "bob") as t:
            await t.start()
            game_id = await new_game(t, seed=5)
            for who in ("alice", "bob"):
                await t.slash(who, "game settings", notify="channel")
            manager = t.bot.manager
            refuse_posts(t)

            def dm_prompt_version(who: str) -> int | None:
                msgs = [t.emu.message(m.id) for m in t.emu.dms(t.players[who].id)]
                versions = [version_of(m) for m in msgs if action_components(m)]
                return max((v for v in versions if v is not None), default=None)

            handed: list[str] = []
            for _ in range(12):  # decisions, until the turn has passed twice
                info = await manager.get_game_info(game_id)
                before = set(info.active_roles)
                role = info.active_roles[0]
                user = str(t.players[SEATS[role]].id)
                pv = await manager.view_for(game_id, user, role=role)
                verb, arg = manager_choice(pv.view)
                await manager.act(game_id, user, Move(verb, arg, pv.version))
                await manager.deliver_due(game_id)
                info = await manager.get_game_info(game_id)
                if info.status != "active":
                    break
                for new in set(info.active_roles) - before:
                    who = SEATS[new]
                    await t.emu.world.wait_until(
                        lambda who=who, v=info.version: dm_prompt_version(who) == v,
                        5.0,
                        f"{who}'s turn by DM",
                    )
                    handed.append(who)
                if len(handed) >= 2:
                    break
            assert len(handed) >= 2, "no turn was handed over while the table was parked"
            assert all(len(notices(t, w)) == 1 for w in ("alice", "bob"))
    assert errors_seen.all_errors() == []


def test_a_solo_sessions_notice_does_not_promise_direct_messages() -> None:
    """A solo session sends nothing by DM (its prompt is its table post): the notice of a
    parked table must not tell its player that it goes on by direct message."""
    from bot.delivery.courier import unreachable_notice
    from bot.delivery.port import GameInfo, SeatInfo

    def info(roles: tuple[str, ...]) -> GameInfo:
        seats = tuple(SeatInfo(role=r, user_id=f"u{i}") for i, r in enumerate(roles))
        one_seat = len(roles) == 1  # as the game declares it (rules.Game.one_seat)
        return GameInfo(
            1, "g", "c", "x", "X", "active", 3, "u0", seats, roles, roles, one_seat=one_seat
        )

    solo = unreachable_notice(info(("player",)), "player").headline
    assert "direct message" not in solo and "waits" in solo and "/game status" in solo
    duel = unreachable_notice(info(("union", "confederate")), "union").headline
    assert "goes on here by direct message" in duel
