"""Starting the bot without a network: one clear line and exit code 5, each log line once.

Found by a newcomer: with a token but no network, ``dispatch`` printed an 84-line
traceback of the DNS lookup, and every log line twice (discord.py's handler on the root
logger next to ours). No test here touches the network: logging in is made to fail the
way aiohttp fails when the name of discord.com cannot be resolved.
"""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import aiohttp
import pytest
from aiohttp.client_reqrep import ConnectionKey

from bot import discord_app
from bot.config import Config, setup_logging

ROOT = Path(__file__).resolve().parents[2]
SAYS = (
    "dispatch: Cannot reach Discord: cannot connect to discord.com:443 "
    "(Name or service not known). Check the network and try again."
)


def dns_failure() -> aiohttp.ClientConnectorDNSError:
    """What aiohttp raises when discord.com cannot be looked up."""
    key = ConnectionKey("discord.com", 443, True, True, None, None, None)
    return aiohttp.ClientConnectorDNSError(key, socket.gaierror(-2, "Name or service not known"))


#: ``dispatch`` as an administrator runs it, with logging in failing as without a network;
#: afterwards it prints where log records go, for the test to count.
OFFLINE_BOT = textwrap.dedent(
    """
    import logging, socket, sys
    import aiohttp, discord.http
    from aiohttp.client_reqrep import ConnectionKey
    from bot.__main__ import main

    async def no_network(self, token):
        key = ConnectionKey("discord.com", 443, True, True, None, None, None)
        raise aiohttp.ClientConnectorDNSError(
            key, socket.gaierror(-2, "Name or service not known")
        )

    discord.http.HTTPClient.static_login = no_network
    code = main([])
    def printing(name):
        found = logging.getLogger(name).handlers
        return len([h for h in found if not isinstance(h, logging.NullHandler)])

    print(printing(None), printing("discord"))
    sys.exit(code)
    """
)


@pytest.fixture(scope="module")
def offline(tmp_path_factory: pytest.TempPathFactory) -> subprocess.CompletedProcess[str]:
    """One start of ``dispatch`` without a network, shared by the tests that read it."""
    where = tmp_path_factory.mktemp("offline")
    env = {
        **os.environ,
        "DISCORD_TOKEN": "not-a-real-token",
        "DISPATCH_DB": str(where / "x.sqlite3"),
        "DISPATCH_LOG_LEVEL": "INFO",
        "PYTHONPATH": str(ROOT),
    }
    return subprocess.run(
        [sys.executable, "-c", OFFLINE_BOT],
        cwd=where,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_no_network_gives_one_clear_line_and_exit_code_5(
    offline: subprocess.CompletedProcess[str],
) -> None:
    assert offline.returncode == 5, offline.stderr
    assert "Traceback" not in offline.stderr
    assert offline.stderr.splitlines()[-1] == SAYS


def test_each_log_line_is_printed_once(offline: subprocess.CompletedProcess[str]) -> None:
    lines = [line for line in offline.stderr.splitlines() if line.strip()]
    records = [line.split(" ", 2)[-1] for line in lines if not line.startswith("dispatch:")]
    assert "INFO    discord.client: logging in using static token" in records
    assert offline.stderr.count("logging in using static token") == 1
    assert len(records) == len(set(records)), offline.stderr
    assert "\x1b[" not in offline.stderr  # no second, coloured copy from discord.py
    assert offline.stdout.split()[-2:] == ["1", "0"]  # one printing handler, on the root


def test_no_voice_library_warning_at_start(offline: subprocess.CompletedProcess[str]) -> None:
    """Dispatch never joins voice, so an administrator is not told at every start that
    PyNaCl and davey are missing (discord.py warns unless told not to)."""
    assert "logging in using static token" in offline.stderr  # the client was built
    assert "voice will NOT be supported" not in offline.stderr, offline.stderr


def test_run_adds_no_second_log_handler_and_reports_the_network(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    class OfflineBot:
        """Logging in fails as with no network (``run`` drives it through ``serve``)."""

        async def __aenter__(self) -> OfflineBot:
            return self

        async def __aexit__(self, *exc: object) -> None:
            await self.close()

        async def start(self, token: str) -> None:
            raise dns_failure()

        async def close(self) -> None:
            return None

    monkeypatch.setattr(discord_app, "create_bot", lambda config: OfflineBot())
    config = Config.from_env(
        {"DISCORD_TOKEN": "not-a-real-token", "DISPATCH_DB": str(tmp_path / "x.sqlite3")}
    )
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        setup_logging(config.log_level)  # as ``dispatch`` does before the database check
        configured = list(root.handlers)
        with pytest.raises(discord_app.DiscordUnreachable) as raised:
            discord_app.run(config)
        assert root.handlers == configured
        # discord.py's own NullHandler prints nothing; it must gain no other.
        printing = logging.getLogger("discord").handlers
        assert all(isinstance(h, logging.NullHandler) for h in printing), printing
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    assert f"dispatch: {raised.value}" == SAYS
    assert raised.value.exit_code == 5
