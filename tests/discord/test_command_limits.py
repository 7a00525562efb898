"""Every command the bot registers keeps every limit Discord documents, and the emulator
refuses a command sync that breaks one, as Discord does: Discord refuses the whole list
for one bad field, so one bound of 2**53 made every command vanish.

The limits and their reading are in ``tests/emulator/command_limits.py``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.config import Config
from bot.discord_app import create_bot
from bot.discord_app.cogs import EXTENSIONS
from tests.emulator import Emulator
from tests.emulator.command_limits import MAX_SAFE_INTEGER, characters, problems


async def registered_commands(tmp_path: Path) -> list[dict[str, Any]]:
    """The command list the bot syncs: its real tree, every extension loaded, as
    ``tree.sync()`` sends it."""
    config = Config(
        token=None, db_path=tmp_path / "db.sqlite3", dev_guild_id=None, log_level="INFO"
    )
    bot = create_bot(config)
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    return [command.to_dict(bot.tree) for command in bot.tree.get_commands()]


async def test_every_registered_command_keeps_every_limit_discord_documents(
    tmp_path: Path,
) -> None:
    found = await registered_commands(tmp_path)
    assert {"game", "rules", "solo", "dispatch"} <= {c["name"] for c in found}
    assert problems(found) == []


async def test_the_game_number_options_take_the_largest_bound_discord_allows(
    tmp_path: Path,
) -> None:
    [game] = [c for c in await registered_commands(tmp_path) if c["name"] == "game"]
    bounds = {
        sub["name"]: option["max_value"]
        for sub in game["options"]
        for option in sub.get("options", [])
        if option["name"] == "game" and "max_value" in option
    }
    assert {"export", "move", "replay"} <= set(bounds)
    assert set(bounds.values()) == {MAX_SAFE_INTEGER}


# -- the checker: each documented limit, one field broken at a time --------------------


def good_command() -> dict[str, Any]:
    return {
        "type": 1,
        "name": "game",
        "description": "Games",
        "options": [
            {
                "type": 1,
                "name": "new",
                "description": "Start one",
                "options": [
                    {
                        "type": 3,
                        "name": "kind",
                        "description": "Which",
                        "required": True,
                        "choices": [{"name": "War", "value": "war"}],
                        "max_length": 6000,
                    },
                    {
                        "type": 4,
                        "name": "seed",
                        "description": "A seed",
                        "min_value": -MAX_SAFE_INTEGER,
                        "max_value": MAX_SAFE_INTEGER,
                    },
                ],
            }
        ],
    }


Change = Callable[[dict[str, Any]], None]


def _new(c: dict[str, Any]) -> dict[str, Any]:
    sub: dict[str, Any] = c["options"][0]
    return sub


def _kind(c: dict[str, Any]) -> dict[str, Any]:
    option: dict[str, Any] = _new(c)["options"][0]
    return option


def _seed(c: dict[str, Any]) -> dict[str, Any]:
    option: dict[str, Any] = _new(c)["options"][1]
    return option


def _option(n: int) -> dict[str, Any]:
    return {"type": 5, "name": f"o{n}", "description": "An option"}


BROKEN: dict[str, Change] = {
    "name of 33 characters": lambda c: c.update(name="g" * 33),
    "empty name": lambda c: c.update(name=""),
    "name with a capital": lambda c: c.update(name="Game"),
    "name with a space": lambda c: c.update(name="new game"),
    "name with a dot": lambda c: c.update(name="game.new"),
    "option name with a capital": lambda c: _kind(c).update(name="Kind"),
    "localised name with a capital": lambda c: c.update(name_localizations={"fr": "Jeu"}),
    "description of 101 characters": lambda c: c.update(description="d" * 101),
    "empty description": lambda c: c.update(description=""),
    "empty option description": lambda c: _seed(c).update(description=""),
    "26 options": lambda c: _new(c)["options"].extend(_option(n) for n in range(24)),
    "26 subcommands": lambda c: c["options"].extend(
        {"type": 1, "name": f"s{n}", "description": "A subcommand"} for n in range(25)
    ),
    "26 choices": lambda c: _kind(c).update(
        choices=[{"name": f"c{n}", "value": f"c{n}"} for n in range(26)]
    ),
    "choice name of 101 characters": lambda c: _kind(c).update(
        choices=[{"name": "n" * 101, "value": "war"}]
    ),
    "empty choice name": lambda c: _kind(c).update(choices=[{"name": "", "value": "war"}]),
    "string choice value of 101 characters": lambda c: _kind(c).update(
        choices=[{"name": "War", "value": "v" * 101}]
    ),
    "integer choice value 2**53": lambda c: _seed(c).update(
        choices=[{"name": "Big", "value": 2**53}]
    ),
    "max_value 2**53": lambda c: _seed(c).update(max_value=2**53),
    "min_value -(2**53)": lambda c: _seed(c).update(min_value=-(2**53)),
    "number max_value 2**53 as a float": lambda c: _seed(c).update(type=10, max_value=2.0**53),
    "max_length 6001": lambda c: _kind(c).update(max_length=6001),
    "max_length 0": lambda c: _kind(c).update(max_length=0),
    "min_length -1": lambda c: _kind(c).update(min_length=-1),
    "min_length 6001": lambda c: _kind(c).update(min_length=6001),
    "min_length on an integer": lambda c: _seed(c).update(min_length=1),
    "max_value on a string": lambda c: _kind(c).update(max_value=5),
    "choices with autocomplete": lambda c: _kind(c).update(autocomplete=True),
    "a required option after an optional one": lambda c: _new(c)["options"].reverse(),
    "two options of one name": lambda c: _seed(c).update(name="kind"),
    "a subcommand beside a plain option": lambda c: c["options"].append(_option(1)),
    "a subcommand inside a subcommand": lambda c: _new(c)["options"].append(
        {"type": 1, "name": "deeper", "description": "Too deep"}
    ),
    "more than 4000 characters": lambda c: (
        _new(c)["options"].extend(
            {"type": 3, "name": f"o{n}", "description": "d" * 100} for n in range(23)
        )
        or c["options"].extend(
            {
                "type": 1,
                "name": f"s{n}",
                "description": "d" * 100,
                "options": [
                    {"type": 3, "name": f"o{m}", "description": "d" * 100} for m in range(20)
                ],
            }
            for n in range(2)
        )
    ),
    "an unknown option type": lambda c: _seed(c).update(type=12),
}


@pytest.mark.parametrize("change", BROKEN.values(), ids=BROKEN.keys())
def test_a_command_that_breaks_a_documented_limit_is_found(change: Change) -> None:
    assert problems([good_command()]) == []
    command = good_command()
    change(command)
    assert problems([command]) != []


ACCEPTED: dict[str, Change] = {
    "name of 32 characters": lambda c: c.update(name="g" * 32),
    "accented name": lambda c: c.update(name="partie-jouée"),
    "Devanagari name": lambda c: c.update(name="खेल"),
    "Thai name": lambda c: c.update(name="เกม"),
    "digits, hyphen and underscore": lambda c: c.update(name="game_2-b"),
    "description of 100 characters": lambda c: c.update(description="d" * 100),
    "25 choices": lambda c: _kind(c).update(
        choices=[{"name": f"c{n}", "value": f"c{n}"} for n in range(25)]
    ),
    "min_length 0": lambda c: _kind(c).update(min_length=0),
    "number bounds": lambda c: _seed(c).update(type=10, min_value=0.1, max_value=720.0),
    "a user command with capitals and spaces": lambda c: (
        c.clear() or c.update(type=2, name="Seat Dispatch", description="")
    ),
}


@pytest.mark.parametrize("change", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_a_command_within_every_limit_is_accepted(change: Change) -> None:
    command = good_command()
    change(command)
    assert problems([command]) == []


def test_a_list_of_more_than_100_slash_commands_or_repeated_names_is_found() -> None:
    def named(n: int) -> dict[str, Any]:
        return {"type": 1, "name": f"c{n}", "description": "A command"}

    assert problems([named(n) for n in range(100)]) == []
    assert problems([named(n) for n in range(101)]) != []
    assert problems([named(1), named(1)]) != []


def test_the_characters_counted_are_names_descriptions_and_choices() -> None:
    command = copy.deepcopy(good_command())
    # game+Games, new+Start one, kind+Which+War+war, seed+A seed
    assert characters(command) == 4 + 5 + 3 + 9 + 4 + 5 + 3 + 3 + 4 + 6


# -- the emulator refuses such a sync, as Discord does ---------------------------------


def bot_with_bound(bound: int) -> commands.Bot:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())

    async def export(interaction: discord.Interaction, game: int) -> None:
        await interaction.response.send_message(f"game {game}")

    # Set as objects: this file's annotations are text, and ``bound`` is no global.
    export.__annotations__["game"] = app_commands.Range[int, 1, bound]
    export.__annotations__["interaction"] = discord.Interaction
    bot.tree.command(name="export", description="Export a game")(export)
    return bot


async def test_the_emulator_refuses_a_sync_that_breaks_a_limit_and_keeps_the_last() -> None:
    async with Emulator() as emu:
        good = bot_with_bound(MAX_SAFE_INTEGER)
        async with emu.running(good):
            await good.tree.sync()
        [kept] = emu.world.global_commands
        bad = bot_with_bound(2**53)
        async with emu.running(bad):
            with pytest.raises(app_commands.CommandSyncFailure) as refused:
                await bad.tree.sync()
        assert (refused.value.status, refused.value.code) == (400, 50035)
        # Discord's error body names the field: discord.py reads it back to the parameter.
        assert "In parameter 'game'\n    max_value: Must be between" in str(refused.value)
        assert emu.world.global_commands == [kept]  # the whole list refused: nothing changed
        [(route, found)] = emu.world.invalid_bodies
        assert route == "bulk_overwrite_commands" and "max_value" in found[0]
