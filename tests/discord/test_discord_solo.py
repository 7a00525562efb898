"""CDG Solo System sessions through Discord (the loopback emulator), by clicks only.

A whole Paths of Glory session (Central Powers run by the Fate Die) played by buttons and
selects on the session's one message, with an undo and a restart between two clicks; a
Caesar session whose flipped card is told in one form (modal), also with a wrong answer;
CSV card lists imported good and bad; a session in a DM.
"""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import pytest

from bot.config import Config
from tests.discord_helpers import Table, catch_errors, components_of, table
from tests.emulator import Message

pytestmark = pytest.mark.slow

SOLO_ID = re.compile(r"^dsp:[oq]:")
MANAGE_GUILD = 1 << 5


def solo_choices(message: Message) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for comp in components_of(message):
        cid = comp.get("custom_id", "")
        if not SOLO_ID.match(cid):
            continue
        if comp["type"] == 2:
            out.append((cid, None))
        else:
            out.extend((cid, o["value"]) for o in comp.get("options", []))
    return out


def session_message(t: Table, channel_id: int) -> Message:
    """The newest message in the channel that carries session buttons."""
    found = [
        t.emu.message(m.id)
        for m in t.emu.channel_messages(channel_id)
        if solo_choices(t.emu.message(m.id))
    ]
    assert found, "no session message with buttons"
    return found[-1]


def verb_of(custom_id: str) -> str:
    return custom_id.split(":")[4]


async def press(t: Table, who: str, message: Message, cid: str, value: str | None) -> Any:
    return await t.press(who, message, cid, value)


def display_files(message: Message) -> list[str]:
    return [a.filename for a in message.attachments if a.filename.startswith("display-")]


async def start(t: Table) -> None:
    await t.start()
    await t.emu.wait_for_commands("solo")


async def test_whole_paths_of_glory_session_by_clicks_with_undo_and_a_restart(tmp_path) -> None:
    rng = random.Random(1914)
    with catch_errors() as caught:
        async with table(tmp_path, "alice") as t:
            await start(t)
            new = await t.slash(
                "alice", "solo new", playsheet="paths_of_glory", side="central_powers"
            )
            assert "Solo session #1 of Paths of Glory started" in new.text
            manager = t.bot.manager
            info = await manager.game_in_channel(str(t.channel.id))
            assert info is not None and info.game_name == "solo"
            message = session_message(t, t.channel.id)
            assert display_files(message), "the display image is on the session message"
            assert "Roll the Fate Die" in message.text() or any(
                ":roll:" in c for c, _v in solo_choices(message)
            )
            # nothing went by DM: the session lives in its channel
            assert t.emu.dms(t.players["alice"].id) == []

            clicks = undone = rolls = 0
            restarted = False
            shown_images: set[str] = set()
            while clicks < 80:
                message = session_message(t, t.channel.id)
                choices = solo_choices(message)
                verbs = {verb_of(c) for c, _v in choices}
                if clicks >= 30 and "undo" in verbs and not undone:
                    before = (await manager.get_game_info(info.id)).version
                    undo = next(c for c in choices if verb_of(c[0]) == "undo")
                    await press(t, "alice", message, *undo)
                    undone += 1
                    after = session_message(t, t.channel.id)
                    assert "taken back" in after.text()
                    assert (await manager.get_game_info(info.id)).version == before + 1
                    continue
                if clicks == 40 and not restarted:
                    # Restart with this prompt unpressed, then press it.
                    await t.restart()
                    await t.emu.wait_for_commands("solo")
                    restarted = True
                    manager = t.bot.manager
                    message = t.emu.message(message.id)
                rolls_now = [c for c in choices if verb_of(c[0]) == "roll"]
                forward = [c for c in choices if verb_of(c[0]) not in ("undo", "end")]
                if rolls_now and rng.random() < 0.6:
                    choice = rolls_now[0]
                    rolls += 1
                else:
                    choice = rng.choice(forward or choices)
                result = await press(t, "alice", message, *choice)
                assert "out of date" not in result.text, result.text
                clicks += 1
                edited = t.emu.message(message.id)
                files = display_files(edited)
                assert files, "every change shows the display"
                shown_images.update(files)
            # close the session from the table
            for _ in range(40):
                message = session_message(t, t.channel.id)
                ends = [c for c in solo_choices(message) if verb_of(c[0]) == "end"]
                if ends:
                    # ending cannot be undone: it is asked once more; "no" changes nothing
                    await press(t, "alice", message, *ends[0])
                    asked = t.emu.message(message.id)
                    assert "Close this solo session?" in asked.text()
                    stay = asked.component(label="No, keep playing")["custom_id"]
                    await press(t, "alice", asked, stay, None)
                    assert (await manager.get_game_info(info.id)).status == "active"
                    await press(t, "alice", message, *ends[0])
                    sure = t.emu.message(message.id).component(label="Yes, close it")
                    await press(t, "alice", t.emu.message(message.id), sure["custom_id"], None)
                    break
                forward = [c for c in solo_choices(message) if verb_of(c[0]) != "undo"]
                await press(t, "alice", message, *rng.choice(forward))
            final = await manager.get_game_info(info.id)
            assert final.status == "finished"
            assert restarted and undone == 1 and rolls >= 10
            assert len(shown_images) >= 10, "the display changes as the session goes"
            assert await manager.records.verify_replay(info.id)
            await t.emu.wait_for_messages(t.channel, 1, after=message)
            texts = [m.text() for m in t.emu.channel_messages(t.channel.id)]
            assert any("Session over" in x for x in texts)
            log = await t.slash("alice", "solo log", lines=200)
            assert "Fate Die for Central Powers" in log.text
            assert "Central Powers plays" in log.text
            state = await manager.records.replay(info.id)
            assert state["die"] is not None
            for record in t.emu.interactions:
                assert record.callback_type is not None
                assert record.ack_latency is not None and record.ack_latency < 3.0
            assert t.emu.dms(t.players["alice"].id) == []
    assert caught.discord_errors() == []


async def test_a_flipped_card_is_told_in_one_form_and_a_wrong_answer_changes_nothing(
    tmp_path,
) -> None:
    with catch_errors() as caught:
        async with table(tmp_path, "alice") as t:
            await start(t)
            await t.slash("alice", "solo new", playsheet="caesar", side="rome")
            manager = t.bot.manager
            info = await manager.game_in_channel(str(t.channel.id))
            message = session_message(t, t.channel.id)
            assert "which card number is it?" in message.text()
            facts = next(
                c["custom_id"]
                for c in components_of(message)
                if c.get("custom_id", "").startswith("dsp:f:")
            )
            opened = await t.emu.click(t.players["alice"], message, facts)
            await opened.response()
            assert opened.callback_type == 9 and opened.modal is not None
            inputs = [
                comp["custom_id"]
                for row in opened.modal["components"]
                for comp in row["components"]
            ]
            assert inputs == ["number", "value", "event", "kind"]
            version = (await manager.get_game_info(info.id)).version

            wrong = await t.emu.submit_modal(
                t.players["alice"],
                opened,
                {"number": "12", "value": "9", "event": "no", "kind": "plain"},
            )
            await wrong.response()
            await t.settle()
            assert wrong.ephemeral and "from 0 to 6" in wrong.text
            assert (await manager.get_game_info(info.id)).version == version

            opened = await t.emu.click(t.players["alice"], t.emu.message(message.id), facts)
            await opened.response()
            good = await t.emu.submit_modal(
                t.players["alice"],
                opened,
                {"number": "12", "value": "3", "event": "yes", "kind": "surprise"},
            )
            await good.response()
            await t.settle()
            state = await manager.records.replay(info.id)
            told = [f for f in state["identity"].values() if f.get("number") == 12]
            assert told == [
                {"number": 12, "name": "", "value": 3, "event": True, "kind": "surprise"}
            ]
            assert state["library"]["shared"]["12"]["kind"] == "surprise"
            edited = t.emu.message(message.id)
            assert "card #12" in edited.text() or "which card number" in edited.text()
            assert (await manager.get_game_info(info.id)).version == version + 4
    assert caught.discord_errors() == []


async def test_csv_card_lists_good_and_bad(tmp_path) -> None:
    good = b"number,name,value,event,kind\n1,Gallic Revolt,2,yes,plain\n2,Senate,1,no,plain\n"
    with catch_errors() as caught:
        async with table(tmp_path, "alice") as t:
            # A server's list is shared by every session there: it takes Manage Server.
            managers = t.emu.add_role(t.guild, "managers", permissions=MANAGE_GUILD)
            t.guild.members[t.players["alice"].id].roles.append(managers.id)
            await start(t)
            emu, alice = t.emu, t.players["alice"]
            store = t.bot.manager.store

            async def upload(playsheet: str, name: str, data: bytes) -> Any:
                result = await emu.slash(
                    alice,
                    t.channel,
                    "solo cards import",
                    playsheet=playsheet,
                    file=emu.attachment(name, data),
                )
                await result.response()
                return result

            bad_header = await upload("caesar", "cards.csv", b"name,value\nA,1\n")
            assert bad_header.ephemeral and "header row" in bad_header.text
            bad_line = await upload("caesar", "cards.csv", good + b"x,Oops,1,no,plain\n")
            assert "Line 4" in bad_line.text and "not a number" in bad_line.text
            bad_kind = await upload("caesar", "cards.csv", b"number,kind\n3,dragon\n")
            assert "kind must be one of" in bad_kind.text
            not_text = await upload("caesar", "cards.csv", b"\xff\xfe\x00bad")
            assert "UTF-8" in not_text.text
            pog = await upload("paths_of_glory", "cards.csv", good)
            assert "needs no card list" in pog.text
            async with store.read() as db:
                assert await db.settings.solo_card_list(str(t.guild.id), "caesar") is None

            ok = await upload("caesar", "cards.csv", good)
            assert ok.ephemeral and "Imported 2 cards for Caesar: Rome vs Gaul" in ok.text
            async with store.read() as db:
                kept = await db.settings.solo_card_list(str(t.guild.id), "caesar")
            assert kept is not None and kept[1] == 2

            new = await t.slash("alice", "solo new", playsheet="caesar", side="rome")
            assert "card list is loaded" in new.text
            info = await t.bot.manager.game_in_channel(str(t.channel.id))
            state = await t.bot.manager.records.replay(info.id)
            assert state["library"]["shared"]["1"]["name"] == "Gallic Revolt"
    assert caught.discord_errors() == []


async def test_a_session_in_a_dm_and_polite_refusals(tmp_path) -> None:
    with catch_errors() as caught:
        async with table(tmp_path, "alice") as t:
            # Global commands (no dev guild), so /solo is offered in DMs as in production.
            t.config = lambda: Config(  # type: ignore[method-assign]
                token=t.emu.token, db_path=t.db_path, dev_guild_id=None, log_level="INFO"
            )
            await start(t)
            emu, alice = t.emu, t.players["alice"]
            bad = await emu.slash(alice, t.channel, "solo new", playsheet="monopoly")
            await bad.response()
            assert bad.ephemeral and "There is no playsheet" in bad.text
            bad_side = await emu.slash(
                alice, t.channel, "solo new", playsheet="caesar", side="martians"
            )
            await bad_side.response()
            assert "has the sides rome, gaul" in bad_side.text
            assert await t.bot.manager.game_in_channel(str(t.channel.id)) is None

            sheets = await emu.autocomplete(alice, t.channel, "solo new", playsheet="glory")
            assert [c["value"] for c in sheets] == ["paths_of_glory", "illusions_of_glory"]
            sides = await emu.autocomplete(
                alice, t.channel, "solo new", playsheet="cc_ancients", side=""
            )
            assert {c["value"] for c in sides} == {"blue", "red", "both"}

            started = await emu.slash(
                alice, None, "solo new", playsheet="paths_of_glory", side="allied_powers"
            )
            await started.response()
            assert "started" in started.text
            dm = emu.dm_channel(alice)
            message = session_message(t, dm.id)
            roll = next(c for c in solo_choices(message) if verb_of(c[0]) == "roll")
            result = await emu.click(alice, message, roll[0])
            await result.response()
            await t.settle()
            assert "Fate Die for Allied Powers" in emu.message(message.id).text()
            shown = await emu.slash(alice, None, "solo show")
            await shown.response()
            assert solo_choices(emu.message(shown.messages[-1].id))
    assert caught.discord_errors() == []


def realistic_list() -> bytes:
    """A 110-card list as a spreadsheet saves it: BOM, CRLF, quoted names with commas."""
    kinds = ["plain"] * 7 + ["surprise", "reaction"]
    rows = [
        f'{n},"{["Gallic Revolt", "Senate Orders, Rome", "Legio X"][n % 3]} {n}",'
        f"{n % 4},{'yes' if n % 2 else 'no'},{kinds[n % len(kinds)]}"
        for n in range(1, 111)
    ]
    text = "number,name,value,event,kind\r\n" + "\r\n".join(rows) + "\r\n"
    return ("\ufeff" + text).encode("utf-8")


async def test_a_real_card_list_works_end_to_end_and_only_managers_change_it(tmp_path) -> None:
    """A 110-card list imported, then refused by /solo new (its options
    were capped at 200 characters); any member could replace the server's list; none
    could be deleted; a bare CR escaped as "Something went wrong"."""
    with catch_errors() as caught:
        async with table(tmp_path, "alice", "bob") as t:
            managers = t.emu.add_role(t.guild, "managers", permissions=MANAGE_GUILD)
            t.guild.members[t.players["alice"].id].roles.append(managers.id)
            await start(t)
            emu, store, guild = t.emu, t.bot.manager.store, str(t.guild.id)

            async def command(who: str, name: str, **fields: Any) -> Any:
                result = await emu.slash(t.players[who], t.channel, name, **fields)
                await result.response()
                return result

            def upload(who: str, data: bytes) -> Any:
                file = emu.attachment("cards.csv", data)
                return command(who, "solo cards import", playsheet="caesar", file=file)

            refused = await upload("bob", realistic_list())
            assert refused.ephemeral and "needs the Manage Server permission" in refused.text
            async with store.read() as db:
                assert await db.settings.solo_card_list(guild, "caesar") is None

            cr = await upload("alice", b"number,name\n1,Senate\r2,Legion\n")
            assert "Line 2: it holds a carriage return alone" in cr.text
            assert "went wrong" not in cr.text.lower()

            ok = await upload("alice", realistic_list())
            assert "Imported 110 cards for Caesar: Rome vs Gaul" in ok.text

            new = await t.slash("alice", "solo new", playsheet="caesar", side="rome")
            assert "card list is loaded" in new.text
            info = await t.bot.manager.game_in_channel(str(t.channel.id))
            state = await t.bot.manager.records.replay(info.id)
            assert len(state["library"]["shared"]) == 110
            assert state["library"]["shared"]["1"]["name"] == "Senate Orders, Rome 1"
            assert "\r" not in state["options"]["card_list"]

            no = await command("bob", "solo cards delete", playsheet="caesar")
            assert "needs the Manage Server permission" in no.text
            gone = await command("alice", "solo cards delete", playsheet="caesar")
            assert "The card list for Caesar: Rome vs Gaul in this server is deleted" in gone.text
            again = await command("alice", "solo cards delete", playsheet="caesar")
            assert "There is no card list for Caesar: Rome vs Gaul" in again.text
            async with store.read() as db:
                assert await db.settings.solo_card_list(guild, "caesar") is None
            # The running session keeps its own copy.
            state = await t.bot.manager.records.replay(info.id)
            assert len(state["library"]["shared"]) == 110
    assert caught.discord_errors() == []


async def test_a_stranger_cannot_touch_a_public_session_message(tmp_path) -> None:
    """Found in review: "End the session" and "No, keep playing" are the front end's own,
    so no rules action refused a stranger: anyone in the channel could turn a player's
    session message into the close prompt, and "No, keep playing" then redrew it as an
    onlooker sees it, with no controls left at all."""
    with catch_errors() as caught:
        async with table(tmp_path, "alice", "bob") as t:
            await start(t)
            await t.slash("alice", "solo new", playsheet="paths_of_glory", side="central_powers")
            [message] = [m for m in t.emu.channel_messages(t.channel.id) if m.custom_ids()]
            before = t.emu.message(message.id).custom_ids()
            end = next(i for i in before if ":end:" in i)
            refused = await t.press("bob", message, end)
            assert "not playing" in refused.text and refused.messages[-1].ephemeral
            assert t.emu.message(message.id).custom_ids() == before
            # The player herself still gets the close prompt, and may keep playing.
            await t.press("alice", message, end)
            prompt = t.emu.message(message.id)
            stay = next(i for i in prompt.custom_ids() if ":stay:" in i)
            refused = await t.press("bob", prompt, stay)
            assert "not playing" in refused.text
            await t.press("alice", prompt, stay)
            assert sorted(t.emu.message(message.id).custom_ids()) == sorted(before)
    assert caught.discord_errors() == []


async def test_a_session_click_is_acknowledged_before_the_store_is_read(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord's 3 seconds are for the acknowledgement: a store slow to answer (busy with
    other work) must not hold it up, so nothing is read before it."""
    with catch_errors() as caught:
        async with table(tmp_path, "alice", "bob") as t:
            await start(t)
            await t.slash("alice", "solo new", playsheet="paths_of_glory", side="central_powers")
            [message] = [m for m in t.emu.channel_messages(t.channel.id) if m.custom_ids()]
            store = t.bot.manager.store
            acknowledged: list[bool] = []

            def newest_acknowledged() -> bool:
                newest = max(t.emu.world.interactions.values(), key=lambda i: i.id)
                return newest.callback_type is not None

            def spied(opened: Any) -> Any:
                def spying(*args: Any, **kwargs: Any) -> Any:
                    task = asyncio.current_task()
                    if task is None or task.get_name() != "dispatch-deliveries":
                        acknowledged.append(newest_acknowledged())  # not the background pass
                    return opened(*args, **kwargs)

                return spying

            monkeypatch.setattr(store, "read", spied(store.read))
            monkeypatch.setattr(store, "write", spied(store.write))
            monkeypatch.setattr(store, "transaction", spied(store.transaction))
            # A stranger's click, refused privately, and the player's own.
            end = next(i for i in message.custom_ids() if ":end:" in i)
            refused = await t.press("bob", message, end)
            assert "not playing" in refused.text and refused.messages[-1].ephemeral
            choice = next(c for c in solo_choices(message) if verb_of(c[0]) not in ("end", "stay"))
            await press(t, "alice", t.emu.message(message.id), *choice)
            monkeypatch.undo()
            assert acknowledged and all(acknowledged), acknowledged
    assert caught.discord_errors() == []
