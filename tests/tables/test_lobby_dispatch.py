"""A lobby's open seat given to Dispatch: the select under the lobby post (Discord), the
manager's ``seat_dispatch`` and the sandbox's ``dispatch`` command.

Only a player seated in the lobby (or a moderator, who may also cancel it) may do it; the
game then starts as when a person takes the seat, and the bot moves when it is its turn.
A stranger's, a stale or a forged click is answered politely and changes nothing.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import discord
import pytest
from conftest import RecordingFrontEnd

from bot import errors
from bot.discord_app import custom_ids as ids
from bot.discord_app import lobby as c
from bot.discord_app.cogs import game as game_cog
from bot.tables.bot_users import bot_user
from bot.tables.manager import GameManager
from bot.tables.requests import NewGame
from bot.terminal.sandbox import build_parser, run_sandbox
from tests.discord_helpers import Table, action_components, catch_errors, table, wait_until

MANAGE_CHANNELS = 1 << 4


def dispatch_select(message: Any) -> dict[str, Any]:
    [select] = [x for x in message.iter_components() if x.get("custom_id", "").startswith("dsp:d:")]
    return select


async def open_lobby(t: Table, game: str, side: str) -> tuple[Any, int]:
    """alice opens a lobby of ``game`` on ``side``: its post and the game's id."""
    result = await t.slash("alice", "game new", game=game, side=side)
    [lobby] = result.messages
    info = await t.bot.manager.game_in_channel(str(t.channel.id))
    assert info is not None and info.status == "lobby"
    return lobby, info.id


async def seats_of(t: Table, game_id: int) -> dict[str, str]:
    info = await t.bot.manager.get_game_info(game_id)
    return {s.role: s.user_id for s in info.seats}


def assert_clean(t: Table, caught: Any) -> None:
    """Every payload conformed to Discord's OpenAPI description; nothing went unanswered
    and nothing was logged at ERROR."""
    assert t.emu.world.invalid_bodies == []
    for record in t.emu.interactions:
        assert record.callback_type is not None, record.payload.get("data")
    assert caught.all_errors() == []


# -- the lobby post's components (no network) -------------------------------------------


def test_the_lobby_offers_dispatch_at_each_level_within_discord_limits() -> None:
    ui = c.build_lobby_view(7, [("union", "Union")], dispatch=("union", "Union"))
    rows = ui.to_components()
    assert [b["label"] for b in rows[0]["components"]] == ["Join as Union"]
    [select] = rows[1]["components"]
    assert select["custom_id"] == "dsp:d:7:union"
    assert [o["value"] for o in select["options"]] == ["easy", "normal", "hard"]
    assert "Dispatch" in select["placeholder"] and "Union" in select["placeholder"]
    parsed = ids.parse(select["custom_id"])
    assert (parsed.kind, parsed.game_id, parsed.role) == ("dispatch", 7, "union")
    # However many seats are open, the select keeps a row of its own: five rows at most.
    sides = [(f"r{i}", f"Side {i}") for i in range(30)]
    many = c.build_lobby_view(7, sides, dispatch=sides[0]).to_components()
    assert len(many) == c.MAX_ROWS
    assert many[-1]["components"][0]["custom_id"] == "dsp:d:7:r0"
    assert all(len(row["components"]) <= c.BUTTONS_PER_ROW for row in many)


@pytest.mark.parametrize(
    "forged", ["dsp:d:1:", "dsp:d:x:union", "dsp:d:1:bad side", "dsp:d:1:union:hard", "dsp:d:1"]
)
def test_a_malformed_dispatch_id_is_not_ours(forged: str) -> None:
    with pytest.raises(ids.BadCustomId):
        ids.parse(forged)
    with pytest.raises(ids.BadCustomId):
        ids.dispatch_id(1, "bad side")


# -- the manager ------------------------------------------------------------------------


async def test_the_manager_seats_dispatch_for_a_seated_player_only(
    manager: GameManager, front_end: RecordingFrontEnd
) -> None:
    game = await manager.create_game("g1", "c1", "alice", NewGame("toy", seat="north"))
    for user, level, role, moderator, refusal in [
        ("mallory", "easy", None, False, errors.ModeratorOnly),
        ("alice", "grandmaster", None, False, errors.UnknownWord),
        ("alice", 3, None, False, errors.UnknownWord),
        ("alice", "easy", "north", False, errors.SeatTaken),
        ("alice", "easy", "east", False, errors.UnknownRole),
        ("alice", "easy", None, "yes", errors.UnknownWord),
    ]:
        with pytest.raises(refusal):
            await manager.seat_dispatch(game.id, user, level, role, is_moderator=moderator)
    assert (await manager.get_game_info(game.id)).status == "lobby"
    assert front_end.posts == []
    info = await manager.seat_dispatch(game.id, "alice", "easy")
    assert info.status == "active"
    assert {s.role: s.user_id for s in info.seats} == {"north": "alice", "south": bot_user("easy")}
    [start] = front_end.posts
    assert start.kind == "start" and start.active_roles == ("north",)
    with pytest.raises(errors.GameNotActive, match="already under way"):
        await manager.seat_dispatch(game.id, "alice", "hard")


async def dump(manager: GameManager) -> dict[str, list[tuple[Any, ...]]]:
    async with manager.store.read() as db:
        return {
            table: sorted((tuple(r) for r in await db._all(f"SELECT * FROM {table}")), key=repr)
            for table in ("games", "seats", "actions", "outbox", "timers")
        }


HOSTILE = [None, True, 2**70, -1, 1.5, "", " ", "\x00", "\ud800", "x" * 300, ["easy"], b"easy"]


@pytest.mark.parametrize("parameter", ["game", "user_id", "level", "role", "is_moderator"])
@pytest.mark.parametrize("value", HOSTILE, ids=repr)
async def test_any_value_is_seated_or_refused_politely_with_nothing_changed(
    manager: GameManager, parameter: str, value: Any
) -> None:
    game = await manager.create_game("g1", "c1", "alice", NewGame("toy", seat="north"))
    call = {"game": game.id, "user_id": "alice", "level": "easy", "role": None}
    call[parameter] = value
    moderator = value if parameter == "is_moderator" else False
    call.pop("is_moderator", None)
    before = await dump(manager)
    try:
        info = await manager.seat_dispatch(**call, is_moderator=moderator)
    except errors.DispatchError as refused:
        assert str(refused)
        assert await dump(manager) == before
    else:
        assert info.status == "active" and "south" in {s.role for s in info.seats}


async def test_a_moderator_may_give_the_seat_to_dispatch(manager: GameManager) -> None:
    game = await manager.create_game("g1", "c1", "alice", NewGame("toy", seat="south"))
    info = await manager.seat_dispatch(game.id, "mod", None, is_moderator=True)
    assert {s.role: s.user_id for s in info.seats} == {"south": "alice", "north": bot_user()}
    assert info.status == "active"


# -- on Discord, end to end ---------------------------------------------------------------


@pytest.mark.slow
async def test_a_seated_player_gives_the_open_seat_to_dispatch_and_it_plays(tmp_path):
    """alice opens Lincoln as the Confederacy; with nobody to join she lets Dispatch play
    the Union, which moves first; then it is her turn and she is told so."""
    with catch_errors() as caught:
        async with table(tmp_path, "alice") as t:
            await t.start()
            alice = t.players["alice"].id
            lobby, game_id = await open_lobby(t, "lincoln", "confederate")
            # The lobby waits a while: the bot restarts in between, its post still works.
            await t.restart()
            assert lobby.button_labels() == ["Join as Union"]
            assert "let Dispatch (this bot) play" in lobby.content
            select = dispatch_select(lobby)
            assert select["custom_id"] == ids.dispatch_id(game_id, "union")
            assert [o["value"] for o in select["options"]] == ["easy", "normal", "hard"]

            picked = await t.press("alice", lobby, select["custom_id"], "easy")
            assert picked.callback_type == 6  # acknowledged by updating the lobby post
            told = t.emu.ephemeral_replies(alice)[-1].text()
            assert "Dispatch (easy) plays Union; the game has begun." in told
            lobby = t.emu.message(lobby.id)
            assert "the game is on" in lobby.content and lobby.custom_ids() == []
            assert "Dispatch (easy)" in lobby.content
            assert await seats_of(t, game_id) == {
                "union": bot_user("easy"),
                "confederate": str(alice),
            }
            # The game began as with a person, and Dispatch, the Union, plays first...
            [begins] = await t.emu.wait_for_messages(t.channel, 1, responses=False)
            # It is sent while Dispatch's first move is owed, and says so.
            assert begins.content == (
                "Dispatch (easy) Lincoln begins. Union to act. Dispatch is thinking…"
            )
            mention = f"<@{alice}>"
            assert mention not in begins.content  # the Union acts first, not alice
            # ...until it is alice's turn: the table post names her and her prompt comes.
            await wait_until(
                lambda: any(
                    mention in m.content
                    for m in t.emu.channel_messages(t.channel.id)
                    if m.id != lobby.id
                ),
                timeout=60,
                what="Dispatch's turn, then a post for alice",
            )
            info = await t.bot.manager.get_game_info(game_id)
            assert info.active_roles == ("confederate",) and info.version > 0
            await wait_until(
                lambda: any(action_components(m) for m in t.emu.dms(alice)),
                what="alice's prompt",
            )
            assert await t.bot.manager.records.verify_replay(game_id)
            assert_clean(t, caught)


@pytest.mark.slow
async def test_a_stranger_is_refused_and_a_moderator_may(tmp_path):
    with catch_errors() as caught:
        async with table(tmp_path, "alice", "mallory") as t:
            mods = t.emu.add_role(t.guild, "mods", permissions=MANAGE_CHANNELS)
            t.players["mod"] = t.emu.add_member(t.guild, "mod", roles=[mods])
            await t.start()
            lobby, game_id = await open_lobby(t, "lincoln", "union")
            before = (lobby.content, lobby.custom_ids())
            cid = dispatch_select(lobby)["custom_id"]

            refused = await t.press("mallory", lobby, cid, "easy")
            assert refused.messages[-1].ephemeral
            assert "Only a player seated in this game (or a moderator)" in refused.text
            assert await seats_of(t, game_id) == {"union": str(t.players["alice"].id)}
            lobby = t.emu.message(lobby.id)
            assert (lobby.content, lobby.custom_ids()) == before
            assert (await t.bot.manager.get_game_info(game_id)).status == "lobby"

            # A moderator may fill it (as they may cancel it); alice, the Union, moves first.
            await t.press("mod", lobby, cid, "hard")
            assert await seats_of(t, game_id) == {
                "union": str(t.players["alice"].id),
                "confederate": bot_user("hard"),
            }
            info = await t.bot.manager.get_game_info(game_id)
            assert info.status == "active" and info.active_roles == ("union",)
            assert_clean(t, caught)


@pytest.mark.slow
async def test_a_stale_click_after_the_seat_was_taken_is_refused_politely(tmp_path):
    """Two copies of the lobby post (``/game status`` posts it again): bob joins from
    one; Dispatch picked on the other, older copy changes nothing."""
    with catch_errors() as caught:
        async with table(tmp_path, "alice", "bob", "carol") as t:
            await t.start()
            lobby, game_id = await open_lobby(t, "war", "union")
            [again] = (await t.slash("alice", "game status")).messages
            cid = dispatch_select(again)["custom_id"]
            assert cid == dispatch_select(lobby)["custom_id"]
            await t.press("bob", lobby, ids.join_id(game_id, "confederate"))
            info = await t.bot.manager.get_game_info(game_id)
            assert info.status == "active"

            for who in ("alice", "carol"):  # seated or not, the post is out of date
                stale = await t.press(who, again, cid, "normal")
                assert stale.messages[-1].ephemeral
                assert "This game is already under way." in stale.text
            assert await seats_of(t, game_id) == {
                "union": str(t.players["alice"].id),
                "confederate": str(t.players["bob"].id),
            }
            assert (await t.bot.manager.get_game_info(game_id)).version == info.version
            assert_clean(t, caught)


@pytest.mark.slow
async def test_a_forged_dispatch_click_is_refused_and_changes_nothing(tmp_path):
    with catch_errors() as caught:
        async with table(tmp_path, "alice") as t:
            await t.start()
            _, game_id = await open_lobby(t, "war", "union")
            options = [{"label": "Easy", "value": "easy"}, {"label": "Max", "value": "max"}]
            forged = {
                (ids.dispatch_id(game_id, "union"), "easy"): "seat is already taken",
                (ids.dispatch_id(game_id, "cavalry"), "easy"): "not a side in this game",
                (ids.dispatch_id(game_id + 99, "confederate"), "easy"): "was not found",
                (ids.dispatch_id(game_id, "confederate"), "max"): "Choose one of Dispatch's levels",
                ("dsp:d:x:confederate", "easy"): "not recognised",
            }
            for (cid, value), expected in forged.items():
                select = {"type": 3, "custom_id": cid, "options": options}
                message = t.emu.inject_message(
                    t.channel, "forged", components=[{"type": 1, "components": [select]}]
                )
                result = await t.press("alice", message, cid, value)
                assert result.messages[-1].ephemeral and expected in result.text, (cid, result.text)
            assert await seats_of(t, game_id) == {"union": str(t.players["alice"].id)}
            assert (await t.bot.manager.get_game_info(game_id)).status == "lobby"
            assert_clean(t, caught)


# -- the sandbox --------------------------------------------------------------------------


async def run_script(tmp_path: Path, script: str) -> str:
    args = build_parser().parse_args(
        ["--db", str(tmp_path / "sandbox.sqlite3"), "--out", str(tmp_path / "out")]
    )
    out = io.StringIO()
    assert await run_sandbox(args, stdin=io.StringIO(script), stdout=out) == 0
    return out.getvalue()


async def test_the_sandbox_gives_the_open_seat_of_a_lobby_to_dispatch(tmp_path: Path) -> None:
    text = await run_script(
        tmp_path,
        "help\n"
        "new war 7 open\n"
        "as bob\n"
        "dispatch easy\n"
        "as alice\n"
        "dispatch easy fate\n"
        "dispatch easy\n"
        "wait\n"
        "status\n"
        "dispatch hard\n",
    )
    assert "dispatch [level]    give the current lobby's open seat to Dispatch" in text
    assert (
        "New game of War Between the States: alice plays Union, Confederacy (confederate) is open."
        in text
    )
    assert "waits for players (open: Confederacy (confederate))" in text
    assert "Only a player seated in this game (or a moderator)" in text  # bob is not
    assert "The Fate Die is chosen when a game is opened" in text
    assert "Dispatch (easy) plays Confederacy (confederate) in game #1." in text
    status = text[text.rindex("alice@#1> status") :]
    assert "Confederacy (confederate): Dispatch (easy)" in status
    # Both sides place at once: Dispatch placed its own at once, alice is still to act.
    assert "Union: alice (to act, you)" in status and "Waiting for Union." in status
    assert "Dispatch is thinking" not in status  # `wait` waited for its move
    assert "This game is already under way." in status
    assert "Traceback" not in text and "Something went wrong" not in text


async def test_the_sandbox_lobby_takes_a_person_too_and_refuses_muddled_words(
    tmp_path: Path,
) -> None:
    text = await run_script(
        tmp_path,
        "new war open dispatch\nnew war dispatch open\nnew war 3 open\nas bob\njoin\nstatus\n",
    )
    assert text.count("`open` leaves the second side for later") == 2
    assert "bob plays Confederacy (confederate) in game #1." in text
    assert "Confederacy (confederate): bob (you)" in text
    assert "Traceback" not in text


def test_the_select_is_a_dynamic_item_the_bot_registers() -> None:
    view = c.build_lobby_view(5, [("union", "Union")], dispatch=("union", "Union"))
    chooser = next(i for i in view.children if isinstance(i.item, discord.ui.Select))
    assert type(chooser) in game_cog.ITEMS
    assert issubclass(type(chooser), discord.ui.DynamicItem)
    assert type(chooser).__discord_ui_compiled_template__.fullmatch(ids.dispatch_id(5, "union"))
    assert type(chooser).kind == "dispatch"
