"""Starting the bot with a wrong setting, a new token, or from a git checkout.

Found by careful play: a non-numeric ``DISPATCH_DEV_GUILD``, or a dev guild the bot is not
in, ended in a traceback; switching to another application's token on the same database
never synced its commands (the fingerprint ignored the application); the lock and
fingerprint files next to the database were not ignored by git; README's permission
list left out "Use Application Commands". No test here touches the network: Discord is
the loopback emulator, and ``dispatch`` is stopped before it would connect.
"""

from __future__ import annotations

import fnmatch
from pathlib import Path

import discord
import pytest

import bot.__main__ as entry
from bot import discord_app
from bot.config import Config, ConfigError
from tests.emulator import Emulator

ROOT = Path(__file__).resolve().parents[2]
GUILD_SYNC = "PUT /applications/*/guilds/*/commands"


def never_connects(config: Config) -> int:
    raise AssertionError("dispatch went on to connect to Discord with a wrong setting")


def refused_at_start(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    name: str,
    value: str,
) -> str:
    """``dispatch`` started with ``name`` set to ``value``: it must stop with exit code 2
    and one line, no traceback, never reaching Discord. Returns that line."""
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("DISPATCH_DB", str(tmp_path / "x.sqlite3"))
    monkeypatch.setenv(name, value)
    monkeypatch.setattr(entry, "run_discord", never_connects)
    assert entry.main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


@pytest.mark.parametrize("guild", ["my-test-server", "12ab", "-5", "0", "9" * 25])
def test_a_dev_guild_that_is_not_an_id_gives_one_line_and_exit_code_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, guild: str
) -> None:
    err = refused_at_start(monkeypatch, capsys, tmp_path, "DISPATCH_DEV_GUILD", guild)
    assert err.startswith("dispatch: DISPATCH_DEV_GUILD must be a server id")
    assert not (tmp_path / "x.sqlite3").exists()  # stopped before anything was opened


@pytest.mark.parametrize("level", ["LOUD", "verbose", "5", "info level"])
def test_a_log_level_logging_does_not_know_gives_one_line_and_exit_code_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, level: str
) -> None:
    err = refused_at_start(monkeypatch, capsys, tmp_path, "DISPATCH_LOG_LEVEL", level)
    assert err.startswith("dispatch: DISPATCH_LOG_LEVEL must be one of DEBUG, INFO")
    assert Config.from_env({"DISPATCH_LOG_LEVEL": " debug "}).log_level == "DEBUG"


def test_a_dev_guild_id_is_accepted() -> None:
    config = Config.from_env({"DISPATCH_DEV_GUILD": " 123456789012345678 "})
    assert config.dev_guild_id == "123456789012345678"
    with pytest.raises(ConfigError):
        Config.from_env({"DISPATCH_DEV_GUILD": "guild"})


async def test_a_dev_guild_the_bot_is_not_in_stops_the_start_with_one_sentence(
    tmp_path: Path,
) -> None:
    async with Emulator() as emu:
        # What Discord answers for a server the bot was not invited to.
        emu.fail_next(GUILD_SYNC, status=403, code=50001, message="Missing Access")
        config = Config(
            token=emu.token,
            db_path=tmp_path / "x.sqlite3",
            dev_guild_id="123456789012345678",
            log_level="INFO",
        )
        bot = discord_app.create_bot(config)
        with pytest.raises(discord_app.DevGuildUnusable) as raised:
            async with emu.running(bot):
                pass
    said = str(raised.value)
    assert "\n" not in said and "123456789012345678" in said and "not in that server" in said
    assert raised.value.exit_code == 2


def test_dispatch_prints_the_dev_guild_refusal_as_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def refused(config: Config) -> None:
        raise discord_app.DevGuildUnusable("123", "the bot is not in that server")

    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("DISPATCH_DB", str(tmp_path / "x.sqlite3"))
    monkeypatch.setattr(discord_app, "run", refused)
    assert entry.main([]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dispatch: Cannot sync the commands to DISPATCH_DEV_GUILD 123")
    assert err.count("\n") == 1


async def start_and_count_global_syncs(emu: Emulator, db: Path) -> int:
    config = Config(token=emu.token, db_path=db, dev_guild_id=None, log_level="INFO")
    async with emu.running(discord_app.create_bot(config)):
        pass
    return sum(1 for r in emu.requests if r.method == "PUT" and r.path.endswith("/commands"))


async def test_another_applications_token_on_the_same_database_syncs_its_commands(
    tmp_path: Path,
) -> None:
    db = tmp_path / "dispatch.sqlite3"
    async with Emulator() as first:
        assert await start_and_count_global_syncs(first, db) == 1
        # Restarting the same application syncs nothing: its commands are unchanged.
        assert await start_and_count_global_syncs(first, db) == 1
    async with Emulator() as second:  # a new application (a new token), same database
        assert second.application_id != first.application_id
        assert await start_and_count_global_syncs(second, db) == 1
        assert {c["name"] for c in second.world.global_commands} >= {"game", "rules"}


def ignored_by_git(name: str) -> bool:
    patterns = (ROOT / ".gitignore").read_text().split()
    return any(fnmatch.fnmatch(name, p) for p in patterns if not p.endswith("/"))


@pytest.mark.parametrize(
    "name",
    [
        "dispatch.sqlite3",
        "dispatch.sqlite3-wal",
        "dispatch.sqlite3-shm",
        "dispatch.sqlite3.lock",
        "dispatch.sqlite3.commands-sha256",
    ],
)
def test_the_files_next_to_the_database_are_ignored_by_git(name: str) -> None:
    assert ignored_by_git(name)


#: discord.py's name of each permission -> how Discord's client (and the docs) say it.
PERMISSION_NAMES = {
    "view_channel": "View Channels",
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "create_public_threads": "Create Public Threads",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "read_message_history": "Read Message History",
    "use_application_commands": "Use Application Commands",
}


@pytest.mark.parametrize("doc", ["README.md", "docs/discord.md"])
def test_the_permission_list_names_every_permission_of_the_integer(doc: str) -> None:
    text = " ".join((ROOT / doc).read_text().split())
    value = 311385246720
    assert f"{value}" in text
    # These permissions make exactly the integer of the invite, no more, no fewer.
    assert discord.Permissions(**dict.fromkeys(PERMISSION_NAMES, True)).value == value
    start = text.index("View Channels")
    listed = text[start : start + 240]
    for said in PERMISSION_NAMES.values():
        assert said in listed, (doc, said)
