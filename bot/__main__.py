"""``dispatch`` / ``python -m bot``: run the Discord bot, or ``dispatch sandbox``."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from pathlib import Path

from bot import discord_app
from bot.config import Config, ConfigError, health_file, setup_logging
from bot.process.health import check
from bot.process.lifecycle import stop_at_once_while_starting
from bot.storage.bulk_copy import CopyRefused
from bot.storage.errors import StoreError
from bot.storage.store import Store, StoreUnavailable
from bot.tables.store_check import CheckReport, check_store
from bot.tables.store_copy import copy_store
from bot.terminal import sandbox
from bot.tools import compile_rules
from bot.web import serve as web_page
from bot.workers import main as workers
from bot.workers.wake import listen_from
from bot.workers.worker import iterations_from

USAGE = """\
usage: dispatch                 run the Discord bot (needs DISCORD_TOKEN)
       dispatch health          exit 0 if the process in this container is healthy
                                (reads DISPATCH_HEALTH_FILE; for container healthchecks)
       dispatch worker          make Dispatch's moves for the bot, on this machine or
                                another (the same database settings as the bot)
       dispatch sandbox [--db PATH] [--out DIR] [--game NAME] [--seed N]
                                play in the terminal, no Discord needed
       dispatch compile-rules [--clean]
                                compile the rules with mypyc: the same moves, about
                                twice as fast (needs pip install -e ".[compiled]")
       dispatch store copy --to postgresql://user:password@host/db [--from FILE]
                                copy the SQLite store (DISPATCH_DB, or FILE) into an
                                empty PostgreSQL database and check every game replays
       dispatch store check     look again at every game flagged damaged: unflag those
                                that load and replay (exit 1 while any is still damaged)
       dispatch web [--port N]  serve the read-only spectator page alone (docs/web.md;
                                port: N, else DISPATCH_WEB_PORT, else 8080)

exit codes: 0 stopped, 2 usage, no token or a wrong setting, 3 the database file cannot be used
            (damaged, not a database, read-only, disk full, locked), 4 another
            Dispatch process is already using the database file, 5 Discord
            cannot be reached (no network, DNS, firewall, outage)"""

NO_TOKEN = """\
Dispatch needs a Discord bot token to connect to Discord.

  1. Create an application and a bot at https://discord.com/developers/applications
  2. Copy the bot's token and set it in the environment:
         export DISCORD_TOKEN=your-token-here
  3. Run `dispatch` again.

Optional: DISPATCH_DB (database file, default dispatch.sqlite3), DISPATCH_DATABASE_URL
(postgresql://... : use PostgreSQL instead of the file), DISPATCH_DEV_GUILD
(a test server id for instant slash-command sync), DISPATCH_LOG_LEVEL.

To try the games without Discord, run:  dispatch sandbox"""


def run_discord(config: Config) -> int:
    """Start the Discord front end."""
    try:
        discord_app.run(config)
    except (
        discord_app.DiscordUnreachable,
        discord_app.DevGuildUnusable,
        discord_app.TokenRefused,
    ) as exc:
        # One line, as for a database that cannot be used: no traceback of the DNS lookup
        # or of the refused command sync.
        print(f"dispatch: {exc}", file=sys.stderr)
        return exc.exit_code
    return 0


def check_database(path: Path | str) -> None:
    """Open (and migrate) the database once before connecting to Discord.

    A file that cannot be used raises ``StoreUnavailable`` here, before any network, so
    the administrator reads one line and a supervisor sees a distinct exit code instead
    of a crash loop of tracebacks. A PostgreSQL server that is only out of reach for now
    is waited for instead (``Store.open(patient=True)``).
    """

    async def probe() -> None:
        # A PostgreSQL server out of reach for now (restarting, not up yet) is waited
        # for: a supervisor that starts Dispatch beside it must not see it give up.
        store = await Store.open(path, patient=True)
        await store.close()

    asyncio.run(probe())


def health_main() -> int:
    """``dispatch health``: 0 and one line if the sign of life is fresh, else 1."""
    healthy, why = check(health_file(os.environ))
    print(f"dispatch: {why}", file=sys.stdout if healthy else sys.stderr)
    return 0 if healthy else 1


def worker_main(args: list[str]) -> int:
    """``dispatch worker``: claim and make Dispatch's owed moves until SIGTERM (exit 0)."""
    if args:
        print(f"dispatch worker: takes no arguments, not {args[0]!r}\n{USAGE}", file=sys.stderr)
        return 2
    try:
        config = Config.from_env()
        iterations_from(os.environ)
        listen_from(os.environ)
    except (ConfigError, ValueError) as exc:
        print(f"dispatch: {exc}", file=sys.stderr)
        return 2
    setup_logging(config.log_level)
    try:
        return workers.run(config.store_target, config.health_file)
    except StoreUnavailable as exc:
        print(f"dispatch: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 0


STORE_USAGE = """usage: dispatch store copy --to postgresql://user:password@host/db [--from FILE]
       dispatch store check

copy: copies the SQLite store (DISPATCH_DB, or FILE) into an empty PostgreSQL database,
then replays every game from its actions and compares it with the copied state.
check: looks again at every game flagged damaged (DISPATCH_DB or DISPATCH_DATABASE_URL)
and unflags each that loads and replays; exit 1 while any is still damaged."""


def store_main(args: list[str]) -> int:
    """``dispatch store copy``: exit 0 when every game replays to its copied state;
    ``dispatch store check``: exit 0 when no game is left flagged damaged."""
    if args == ["check"]:
        return store_check_main()
    if len(args) < 3 or args[0] != "copy" or args[1] != "--to":
        print(STORE_USAGE, file=sys.stderr)
        return 2
    url = args[2]
    source = Path(args[4]) if len(args) >= 5 and args[3] == "--from" else None
    if source is None:
        try:
            source = Config.from_env().db_path
        except ConfigError as exc:
            print(f"dispatch: {exc}", file=sys.stderr)
            return exc.exit_code
    try:
        report = asyncio.run(copy_store(source, url))
    except (CopyRefused, StoreUnavailable) as exc:
        print(f"dispatch: {exc}", file=sys.stderr)
        return 3
    for line in report.lines():
        print(line)
    return 1 if report.mismatches else 0


def store_check_main() -> int:
    """``dispatch store check`` on the configured store (on PostgreSQL while the bot runs;
    a SQLite file is one process's, so there the bot is stopped first)."""
    try:
        config = Config.from_env()
    except ConfigError as exc:
        print(f"dispatch: {exc}", file=sys.stderr)
        return exc.exit_code

    async def check() -> CheckReport:
        store = await Store.open(config.store_target)
        try:
            return await check_store(store)
        finally:
            await store.close()

    try:
        report = asyncio.run(check())
    except (StoreUnavailable, StoreError) as exc:
        print(f"dispatch: {exc}", file=sys.stderr)
        return exc.exit_code if isinstance(exc, StoreUnavailable) else 3
    for line in report.lines():
        print(line)
    return 1 if report.damaged else 0


def _health(args: list[str]) -> int:
    return health_main()


def _worker(args: list[str]) -> int:
    stop_at_once_while_starting()
    return worker_main(args)


#: Every subcommand: its word and what runs it with the words after it. ``USAGE`` names
#: each one (held so by tests/project/test_docs_commands.py).
SUBCOMMANDS: dict[str, Callable[[list[str]], int]] = {
    "sandbox": sandbox.main,
    "health": _health,
    "worker": _worker,
    "store": store_main,
    "compile-rules": compile_rules.main,
    "web": web_page.main,
}


#: The subcommands with a parser of their own, which answer ``--help`` themselves.
HELP_OF_THEIR_OWN = frozenset({"sandbox", "compile-rules"})


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in SUBCOMMANDS:
        if args[1:] in (["-h"], ["--help"]) and args[0] not in HELP_OF_THEIR_OWN:
            print(USAGE)  # every subcommand's words are there
            return 0
        return SUBCOMMANDS[args[0]](args[1:])
    if args and args[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0
    if args:
        print(f"dispatch: unknown command {args[0]!r}\n{USAGE}", file=sys.stderr)
        return 2
    try:
        config = Config.from_env()
    except ConfigError as exc:
        print(f"dispatch: {exc}", file=sys.stderr)
        return exc.exit_code
    if not config.token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    setup_logging(config.log_level)
    stop_at_once_while_starting()
    try:
        check_database(config.store_target)
        return run_discord(config)
    except StoreUnavailable as exc:
        print(f"dispatch: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
