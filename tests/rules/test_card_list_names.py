"""A card list's cells are not spreadsheet formulas, and its names are shown as plain
text: ``=HYPERLINK(...)`` is refused naming the line; ``@everyone``, ``<@id>`` and ``**x**``
are names like any other, and a refusal quoting a field through Discord neither mentions
anyone nor turns it bold."""

from __future__ import annotations

from typing import Any

import pytest

from bot import errors
from bot.tables import card_csv, solo
from tests.discord.test_discord_solo import MANAGE_GUILD
from tests.discord_helpers import catch_errors, table

HEAD = "number,name,value,event,kind\n"


@pytest.mark.parametrize(
    "name",
    [
        '"=HYPERLINK(""http://x.example"",""Senate"")"',
        "=1+1",
        "+Senate",
        "-Legion",
        "=cmd|' /C calc'!A0",
    ],
)
def test_a_formula_cell_is_refused_naming_its_line(name: str) -> None:
    with pytest.raises(errors.CardListRefused) as refused:
        solo.check_card_list("caesar", HEAD + "1,Senate,1,no,plain\n" + f"2,{name},1,no,plain\n")
    said = str(refused.value)
    assert "Line 3: the name" in said and "runs as a formula" in said
    # Signs within a name, and signs Discord reads, are names like any other.
    kept = "2,@everyone <@111111111111111111> **x** <@&2> Rome - Gaul +1,1,no,plain\n"
    assert solo.check_card_list("caesar", HEAD + "1,Senate,1,no,plain\n" + kept)[1] == 2


def test_a_formula_is_refused_in_a_column_no_playsheet_lists() -> None:
    # Read with no playsheet known (a typed option): kinds and sides are not listed.
    with pytest.raises(errors.CardListRefused, match=r"Line 2: the kind .* runs as a formula"):
        card_csv.rows_of(HEAD + "1,Senate,1,no,=cmd\n")


#: A mention short enough to be quoted whole (a refusal quotes 20 characters).
MENTION = "<@" + "1" * 17 + ">"


@pytest.mark.slow
async def test_a_refusal_through_discord_quotes_fields_as_plain_text(tmp_path: Any) -> None:
    with catch_errors() as caught:
        async with table(tmp_path, "alice") as t:
            managers = t.emu.add_role(t.guild, "managers", permissions=MANAGE_GUILD)
            t.guild.members[t.players["alice"].id].roles.append(managers.id)
            await t.start()
            await t.emu.wait_for_commands("solo")

            async def upload(text: str) -> str:
                file = t.emu.attachment("cards.csv", text.encode())
                result = await t.emu.slash(
                    t.players["alice"],
                    t.channel,
                    "solo cards import",
                    playsheet="caesar",
                    file=file,
                )
                await result.response()
                said: str = result.text
                return said

            mention = await upload(HEAD + f"{MENTION},Senate,1,no,plain\n")
            assert "Line 2: the number" in mention
            assert MENTION not in mention and "<@\u200b" + "1" * 17 + ">" in mention
            bold = await upload(HEAD + "**7**,Senate,1,no,plain\n")
            assert "Line 2: the number" in bold and "**7**" not in bold
            assert "\\*\\*7\\*\\*" in bold  # shown as typed, not bold
            formula = await upload(HEAD + "1,=HYPERLINK(1),1,no,plain\n")
            assert "Line 2: the name" in formula and "runs as a formula" in formula
            async with t.bot.manager.store.read() as db:
                assert await db.settings.solo_card_list(str(t.guild.id), "caesar") is None
    assert caught.discord_errors() == []


@pytest.mark.slow
async def test_a_list_kept_before_is_refused_quoting_its_fields_as_plain_text(
    tmp_path: Any,
) -> None:
    with catch_errors() as caught:
        async with table(tmp_path, "alice") as t:
            await t.start()
            await t.emu.wait_for_commands("solo")
            kept = HEAD + f"{MENTION},Senate,1,no,plain\n"  # stored before today's checks
            async with t.bot.manager.store.transaction() as db:
                await db.settings.set_solo_card_list(str(t.guild.id), "caesar", kept, 1, "u1")
            result = await t.emu.slash(
                t.players["alice"], t.channel, "solo new", playsheet="caesar", side="rome"
            )
            await result.response()
            said: str = result.text
            assert "does not pass the checks any more" in said and "Line 2" in said
            assert MENTION not in said and "<@\u200b" + "1" * 17 + ">" in said
            assert await t.bot.manager.game_in_channel(str(t.channel.id)) is None
    assert caught.discord_errors() == []
