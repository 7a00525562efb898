"""The docs name every command there is: README's command table lists each slash command
the bot registers, with each of its options, and ``dispatch --help`` lists every
subcommand ``dispatch`` runs. A command added without its line fails here."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.__main__ import SUBCOMMANDS, main
from bot.discord_app.cogs import EXTENSIONS

README = Path(__file__).resolve().parents[2] / "README.md"


def walk(
    found: list[app_commands.Command | app_commands.Group], prefix: str = "/"
) -> Iterator[app_commands.Command]:  # type: ignore[type-arg]
    for command in found:
        if isinstance(command, app_commands.Group):
            yield from walk(command.commands, f"{prefix}{command.name} ")
        else:
            yield command


async def registered() -> dict[str, list[str]]:
    """Every slash command the cogs register, by its full name: its options' names."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    return {c.qualified_name: [p.name for p in c.parameters] for c in walk(bot.tree.get_commands())}


def table_rows() -> list[str]:
    """The rows of README's command table (the one whose header is ``| command |``)."""
    lines = README.read_text(encoding="utf-8").splitlines()
    start = lines.index("| command | what it does |")
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(line.split(" | ")[0])  # the command cell
    return rows


async def test_readme_lists_every_slash_command_with_its_options() -> None:
    found = await registered()
    assert "game move" in found and "game vacation" in found  # the walk reaches the groups
    rows = table_rows()
    missing = []
    for name, options in sorted(found.items()):
        named = re.compile(rf"`/{re.escape(name)}[ `]")
        row = next((r for r in rows if named.search(r)), None)
        if row is None:
            missing.append(f"/{name}")
            continue
        missing += [f"/{name} {o}:" for o in options if f"{o}:" not in row]
    assert not missing, f"README's command table lacks: {missing}"


def test_dispatch_help_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    usage = capsys.readouterr().out
    assert "store" in SUBCOMMANDS
    missing = [name for name in SUBCOMMANDS if not re.search(rf"dispatch {name}\b", usage)]
    assert not missing, f"`dispatch --help` lacks: {missing}"
    assert "dispatch store copy --to" in usage


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_every_subcommand_answers_help_with_its_usage(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``dispatch web --help`` and the rest: the usage, exit 0, nothing started."""
    with pytest.raises(SystemExit) as done:  # the subcommands with a parser of their own
        code = main([name, "--help"])
        raise SystemExit(code)
    assert done.value.code == 0
    assert f"dispatch {name}" in capsys.readouterr().out
