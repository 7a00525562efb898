"""The single-instance lock and a read-only database.

Found by careful play: the lock was a ``<db>.lock`` file beside the database, so a hard
link to the database under another name, or deleting ``<db>.lock`` while the bot ran, let
a second process in (every message delivered twice). And a read-only database file
started the bot (exit 0), which then logged a traceback every 5 s, although README
promises exit code 3 and one line. The lock is now on the database file itself, and the
file is opened for writing at start.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.storage.store import Store, StoreInUse, StoreUnavailable
from tests.storage.test_store_health import hold

ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def held_elsewhere(db: Path) -> Iterator[subprocess.Popen[str]]:
    """Another Dispatch process with ``db`` open, killed (as a crash would) afterwards."""
    other = hold(db)
    try:
        yield other
    finally:
        other.send_signal(signal.SIGKILL)
        other.wait()


async def test_a_hard_link_to_a_database_in_use_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "dispatch.sqlite3"
    link = tmp_path / "other-name.sqlite3"
    with held_elsewhere(db):
        os.link(db, link)
        with pytest.raises(StoreInUse) as raised:
            await Store.open(link)
        assert raised.value.exit_code == 4


async def test_deleting_a_lock_file_does_not_let_a_second_process_in(tmp_path: Path) -> None:
    db = tmp_path / "dispatch.sqlite3"
    with held_elsewhere(db):
        for beside in tmp_path.glob("dispatch.sqlite3.lock"):
            beside.unlink()  # what an administrator "cleaning up" would do
        with pytest.raises(StoreInUse):
            await Store.open(db)


async def test_a_new_database_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "new.sqlite3")
    await store.close()
    assert (tmp_path / "new.sqlite3").stat().st_mode & 0o777 == 0o600


# -- a read-only database ------------------------------------------------------------

NOBODY = 65534


async def made(db: Path) -> None:
    store = await Store.open(db)
    await store.close()


@contextlib.contextmanager
def shared_folder() -> Iterator[Path]:
    """A folder any account may enter (root's pytest folders are closed to others)."""
    where = Path(tempfile.mkdtemp(prefix="dispatch-ro-"))
    where.chmod(0o777)
    try:
        yield where
    finally:
        where.chmod(0o777)
        shutil.rmtree(where, ignore_errors=True)


def run_dispatch(db: Path) -> tuple[int, str]:
    """``dispatch`` on ``db`` in a child process, stopped where it would connect to
    Discord; as ``nobody`` when the tests run as root (root may write any file whatever
    its mode). Forked rather than started anew: root's Python is not ``nobody``'s to run.
    """
    import bot.__main__ as entry

    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through its exit code and pipe
        code = 99
        try:
            os.close(read)
            sys.stderr = os.fdopen(write, "w")  # pytest's capture is the parent's
            if os.geteuid() == 0:
                os.setgid(NOBODY)
                os.setgroups([])
                os.setuid(NOBODY)
            os.environ.update({"DISCORD_TOKEN": "not-a-real-token", "DISPATCH_DB": str(db)})
            entry.run_discord = lambda config: 0  # never the network
            code = entry.main([])
        finally:
            sys.stderr.flush()
            os._exit(code)
    os.close(write)
    with os.fdopen(read) as said:
        stderr = said.read()
    _, status = os.waitpid(child, 0)
    return os.waitstatus_to_exitcode(status), stderr


def crash_on(db: Path) -> None:
    """A process that dies with the database open leaves its -wal and -shm behind."""
    script = (
        f"import sqlite3, os; db = sqlite3.connect({str(db)!r}); "
        "db.execute('SELECT count(*) FROM sqlite_master').fetchall(); os._exit(0)"
    )
    subprocess.run([sys.executable, "-c", script], check=True)


@pytest.mark.parametrize(("what", "crashed"), [("file", False), ("file", True), ("folder", False)])
def test_a_read_only_database_gives_one_line_and_exit_code_3(what: str, crashed: bool) -> None:
    """The case found: the file read-only after a crash left its -wal and -shm (SQLite
    then opens it read-only without a word, and every write failed afterwards)."""
    with shared_folder() as where:
        db = where / "dispatch.sqlite3"
        asyncio.run(made(db))  # a good, migrated database
        if crashed:
            crash_on(db)
            assert (where / "dispatch.sqlite3-wal").exists()
        for name in where.iterdir():
            if os.geteuid() == 0:
                os.chown(name, NOBODY, NOBODY)
        if what == "file":
            db.chmod(0o444)
        else:
            where.chmod(0o555)  # the file may be written, but no -wal made beside it
        code, stderr = run_dispatch(db)
    assert code == 3, (code, stderr)
    assert "Traceback" not in stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dispatch: Cannot use the database"), stderr
    assert "read-only" in lines[0], lines[0]


async def test_a_read_only_file_is_refused_in_process(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root may write any file; the subprocess test above covers root")
    db = tmp_path / "dispatch.sqlite3"
    store = await Store.open(db)
    await store.close()
    db.chmod(0o444)
    with pytest.raises(StoreUnavailable, match="read-only") as raised:
        await Store.open(db)
    assert raised.value.exit_code == 3
