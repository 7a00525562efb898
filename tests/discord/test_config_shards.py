"""DISPATCH_SHARD_IDS and DISPATCH_SHARD_COUNT: read, checked, explained.

A wrong shard setting would leave guilds unanswered (a shard nobody runs) or answered
twice; each is refused at start with one line that says what to write instead.
"""

from __future__ import annotations

import pytest

from bot.__main__ import main
from bot.config import Config, ConfigError
from bot.discord_app import create_bot
from bot.discord_app.client import DispatchBot
from bot.discord_app.shards import ShardedDispatchBot, shard_label


def shards(ids: str | None = None, count: str | None = None) -> Config:
    env = {"DISCORD_TOKEN": "t"}
    if ids is not None:
        env["DISPATCH_SHARD_IDS"] = ids
    if count is not None:
        env["DISPATCH_SHARD_COUNT"] = count
    return Config.from_env(env)


def test_no_shard_settings_means_one_plain_connection() -> None:
    config = shards()
    assert config.shard_ids is None and config.shard_count is None and not config.sharded
    bot = create_bot(config, sync_on_start=False)
    assert type(bot) is DispatchBot and bot.shard_count is None


@pytest.mark.parametrize(
    ("ids", "count", "expected"),
    [
        ("0-3", "4", (0, 1, 2, 3)),
        ("0,1", "4", (0, 1)),
        (" 0-1, 4 ", "6", (0, 1, 4)),
        ("3", "4", (3,)),
        ("2,0", "4", (0, 2)),
        (None, "3", (0, 1, 2)),  # a count alone: every shard in this process
    ],
)
def test_shard_ranges_are_read(ids: str | None, count: str, expected: tuple[int, ...]) -> None:
    config = shards(ids, count)
    assert config.shard_ids == expected and config.shard_count == int(count)
    bot = create_bot(config, sync_on_start=False)
    assert isinstance(bot, ShardedDispatchBot)
    assert bot.shard_ids == list(expected) and bot.shard_count == int(count)


@pytest.mark.parametrize(
    ("ids", "count", "words"),
    [
        ("0-1", None, "needs DISPATCH_SHARD_COUNT"),
        ("0-1", "zero", "whole number of shards"),
        ("0", "0", "whole number of shards"),
        ("0", "-2", "whole number of shards"),
        ("0-3", "2", "names shard 2, but DISPATCH_SHARD_COUNT=2 has shards 0 to 1 only"),
        ("4", "4", "names shard 4"),
        ("3-1", "4", "runs backwards; write 1-3"),
        ("0-", "4", "such as 0-3 or 0,1"),
        ("a,b", "4", "such as 0-3 or 0,1"),
        ("0;1", "4", "such as 0-3 or 0,1"),
        ("0,0-1", "4", "names a shard twice"),
    ],
)
def test_bad_shard_settings_are_refused_politely(
    ids: str | None, count: str | None, words: str
) -> None:
    with pytest.raises(ConfigError) as raised:
        shards(ids, count)
    assert words in str(raised.value)
    assert "\n" not in str(raised.value) and raised.value.exit_code == 2


def test_a_bad_shard_setting_stops_dispatch_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("DISPATCH_SHARD_IDS", "0-2")
    monkeypatch.setenv("DISPATCH_SHARD_COUNT", "2")
    assert main([]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("dispatch: DISPATCH_SHARD_IDS names shard 2") and "\n" not in err


def test_shard_label_writes_ranges() -> None:
    assert shard_label((0, 1, 2, 3)) == "0-3"
    assert shard_label((0, 1, 4)) == "0-1,4"
    assert shard_label((5,)) == "5"
    assert shard_label((0, 2, 3, 7)) == "0,2-3,7"
