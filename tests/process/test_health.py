"""``dispatch health``: the container healthcheck reads a sign of life the process keeps
fresh while it is connected (bot/health.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import Config
from bot.process.health import STALE_AFTER_S, beat, check, forget


def test_a_fresh_sign_of_life_is_healthy_and_an_old_one_is_not(tmp_path: Path) -> None:
    path = tmp_path / "health"
    assert beat(path, lambda: True, now=lambda: 1000.0)
    assert check(path, now=lambda: 1010.0) == (True, "healthy: last sign of life 10 s ago")
    healthy, why = check(path, now=lambda: 1000.0 + STALE_AFTER_S + 1)
    assert not healthy and "91 s old" in why


def test_nothing_is_written_while_not_connected(tmp_path: Path) -> None:
    path = tmp_path / "health"
    assert not beat(path, lambda: False)
    healthy, why = check(path)
    assert not healthy and "no sign of life yet" in why
    beat(path, lambda: True)
    forget(path)  # a stopped process takes its sign of life away
    assert not path.exists()


def test_an_unreadable_or_unset_health_file_is_unhealthy(tmp_path: Path) -> None:
    path = tmp_path / "health"
    path.write_text("not a time")
    assert check(path)[0] is False and "cannot read" in check(path)[1]
    assert check(None) == (
        False,
        "DISPATCH_HEALTH_FILE is not set; the process writes no sign of life",
    )


def test_the_health_file_setting_is_read() -> None:
    assert Config.from_env({}).health_file is None
    config = Config.from_env({"DISPATCH_HEALTH_FILE": " /tmp/dispatch-health "})
    assert config.health_file == Path("/tmp/dispatch-health")


def test_dispatch_health_exit_codes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "health"
    monkeypatch.setenv("DISPATCH_HEALTH_FILE", str(path))
    assert main(["health"]) == 1
    assert "no sign of life yet" in capsys.readouterr().err
    beat(path, lambda: True)
    assert main(["health"]) == 0
    assert capsys.readouterr().out.startswith("dispatch: healthy")
