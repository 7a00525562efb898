"""The store: SQLite (one aiosqlite connection, WAL; the default) or PostgreSQL (an asyncpg
pool), schema through ``bot.storage.migrate``, each engine behind one seam
(``bot.storage.backends``: a connection lent, a transaction's calls, closing), its
connections in ``bot.storage.engines``.

All access goes through ``Store.read()`` or ``Store.transaction()``, which hand out a
``Session`` with the SQL. On SQLite one connection is shared by every coroutine, so an
open transaction would otherwise swallow another coroutine's writes; the backend's lock
keeps each session whole. Sessions are short (no awaits on the network inside them).

``Store.open`` takes a file path (SQLite) or a ``postgresql://`` URL. On SQLite one process
owns the file (``ProcessLock``) and its single writer serialises every game. On PostgreSQL
several bot processes may share the database: a turn's transaction takes the game's
advisory lock (``Session.lock_game``) and the version check the buttons carry still
refuses a stale click; background work claims its rows with a lease (``claim_*``).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import itertools
import logging
import os
import secrets
import socket
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, ClassVar

import aiosqlite
import asyncpg

try:
    import fcntl
except ImportError:  # not on Windows: one process per file is then up to the admin
    fcntl = None  # type: ignore[assignment]

from bot.storage.backends import Backend, Lent, PostgresBackend, SqliteBackend, Step
from bot.storage.engines import is_postgres_url
from bot.storage.errors import (
    Busy,
    CommitUnknown,
    Conflict,
    Unavailable,
    classify,
)
from bot.storage.migrate import migrate, migrate_postgres
from bot.storage.reach import Reach
from bot.storage.session import Session
from bot.storage.statements.processes import CLAIMED_TABLES

log = logging.getLogger("dispatch.store")

Clock = Callable[[], float]

BUSY_TIMEOUT_MS = 5000

#: How long a claim of background work holds before another process may take it over
#: (migration 0018): longer than any one pass, short enough that a dead process's work
#: is soon done by another.
LEASE_S = 120.0


class Store:
    """Owns the connection (SQLite) or the pool (PostgreSQL); open with ``Store.open``."""

    def __init__(self, backend: Backend, path: Path | str, clock: Clock, reach: Reach) -> None:
        #: The engine under the store, spoken to through one seam (``bot.storage.backends``).
        self.backend = backend
        #: The SQLite file, or the PostgreSQL URL.
        self.path = path
        self.clock = clock
        #: This process's name in the claims it takes (migration 0018): host, pid, tag.
        self.instance = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        #: Whether the database answers, told once each way in the log.
        self.reach = reach

    @property
    def dialect(self) -> str:
        return self.backend.dialect

    @classmethod
    async def open(
        cls, path: str | Path, clock: Clock = time.time, *, patient: bool = False
    ) -> Store:
        """Open (creating and migrating) the database file, or the PostgreSQL database a
        ``postgresql://`` URL names; a file is used by one process at a time.

        Raises ``StoreUnavailable`` with one sentence for an administrator when the file
        cannot be used: another Dispatch process has it, it is not a database or is
        damaged, it is read-only, the disk is full, or it stays locked past the timeout;
        or when the PostgreSQL server cannot be reached or refuses. ``patient`` (the bot
        and its workers, which run for weeks): a PostgreSQL server out of reach for a
        while (restarting, not up yet) is waited for, said once each way in the log; a
        refusal that waiting cannot mend (a wrong password, no such database) is raised.
        """
        reach = Reach()
        if is_postgres_url(path):
            url = str(path)
            pool = await (_wait_for_postgres(url) if patient else _connect_postgres(url))
            return cls(PostgresBackend(pool, reach, POOL_WAIT_S), url, clock, reach)
        path = Path(path)
        try:
            if path.parent and not path.parent.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreUnavailable(path, f"its folder cannot be created ({exc.strerror})") from None
        # Creates a missing file, readable by the bot's own account only.
        owner = ProcessLock.acquire(path)
        try:
            db = await _connect(path)
            if owner.sole_holder:
                await _forget_claims(db)
        except BaseException:
            owner.release()
            raise
        return cls(SqliteBackend(db, owner.release), path, clock, reach)

    async def close(self) -> None:
        await self.backend.close()

    @asynccontextmanager
    async def _connection(self, batched: bool = False) -> AsyncIterator[Lent]:
        """A connection for one session (``Backend.connection``); once it is given back
        whole, the database answers again if it was out of reach."""
        async with self.backend.connection(batched) as conn:
            yield conn
        self.reach.up()

    # The three kinds of session. The database failing under them becomes one of the
    # store's errors (``bot.storage.errors``): ``Unavailable`` for a transient fault,
    # ``Conflict`` for a refused constraint, ``Refused`` for the rest; each tells the
    # player politely that nothing changed, and a transaction is rolled back.

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Session]:
        async with self._connection() as db:
            try:
                yield Session(db, self.clock())
            except Exception as exc:
                raise self._failure(exc, "reading the database") from None

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Session]:
        """One statement that commits by itself (no BEGIN/COMMIT round trips).

        For single-row bookkeeping such as marking an outbox row delivered; anything that
        must change several rows together uses ``transaction()``.
        """
        async with self._connection() as db:
            try:
                yield Session(db, self.clock())
            except Exception as exc:
                raise self._failure(exc, "writing to the database") from None

    @asynccontextmanager
    async def transaction(
        self, game: int | None = None, *, batched: bool = False
    ) -> AsyncIterator[Session]:
        """BEGIN (IMMEDIATE on SQLite) … COMMIT, rolled back if the block raises.

        ``game``: the transaction changes that game, and first takes its lock, so that
        the game's transactions in every process run one at a time (``Session.lock_game``).
        ``batched``: on PostgreSQL, statements that return nothing wait to be sent
        together (``bot.storage.batch``), so a constraint they break is raised at the
        next read or at COMMIT rather than where they were written.

        A connection lost while COMMIT was on its way to PostgreSQL raises
        ``CommitUnknown``: the server may have committed, and only a read says.
        """
        async with self._connection(batched) as db:
            begin, commit, rollback = self.backend.transaction_calls(db)
            try:
                await begin()
            except Exception as exc:
                raise self._failure(exc, "starting a transaction", driver=True) from None
            try:
                session = Session(db, self.clock())
                if game is not None:
                    await session.lock_game(game)
                yield session
            except BaseException as exc:
                await _quietly(rollback)
                raise self._failure(exc, "a transaction failed and was rolled back") from None
            try:
                await commit()
            except Exception as exc:
                await _quietly(rollback)
                if self.backend.commit_lost(exc):
                    self.reach.down(exc)
                    raise CommitUnknown() from None
                raise self._failure(exc, "COMMIT failed", driver=True) from None

    def _failure(self, exc: BaseException, doing: str, *, driver: bool = False) -> BaseException:
        """What a failed session raises: a driver's failure as the store's own error
        (logged once while the store is out of reach), anything else as it is.

        ``driver``: raised by asyncpg itself (BEGIN, COMMIT), where an OSError is the
        network's; a statement's are already the store's own (``PgConnection``)."""
        failure = classify(exc, networked=driver and self.backend.networked)
        if failure is None or isinstance(failure, Conflict):
            return failure or exc
        if isinstance(failure, Unavailable) and not isinstance(failure, Busy):
            return self.reach.down(exc, failure)
        log.warning("%s: %r", doing, exc)
        return failure

    async def release_claims(self) -> None:
        """Give back every claim this process holds (outbox rows, timers, clocks, league
        pairings to open and league posts), so another process takes them over at once
        rather than when their leases run out: on a clean stop. On SQLite there is no
        other process, and nothing is lost by it."""
        async with self.transaction() as db:
            await db.processes.release_claims(self.instance, PROCESS_CLAIMS)

    async def pragma(self, name: str) -> Any:
        """A SQLite pragma's value (None on PostgreSQL, which has none)."""
        return await self.backend.pragma(name)

    # -- bulk work on PostgreSQL (``dispatch store copy``) --------------------------------
    @asynccontextmanager
    async def bulk_connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection of the PostgreSQL pool, held for bulk work that sessions do not
        speak (``dispatch store copy``: COPY into tables, moving the id sequences on).
        Not on SQLite, which has no pool: ``StoreUnavailable`` says so."""
        pool = self.backend.pool
        if pool is None:
            raise StoreUnavailable(self.path, "a bulk copy needs a PostgreSQL database")
        async with pool.acquire() as conn:
            yield conn


async def _quietly(rollback: Step) -> None:
    """ROLLBACK after a failure; on a lost connection the server rolls back by itself."""
    with contextlib.suppress(Exception):
        await rollback()


def _display(url: str) -> str:
    """The URL without its password, for messages and logs."""
    head, sep, tail = url.partition("@")
    if not sep or ":" not in head.split("//", 1)[-1]:
        return url
    scheme, _, user_pass = head.partition("//")
    return f"{scheme}//{user_pass.split(':', 1)[0]}:***@{tail}"


#: Connections a process keeps to PostgreSQL at most: its sessions run side by side on
#: them (a click, the courier, the background pass, the bot seats); more wait their turn.
POOL_SIZE = 8
#: How long a session waits for a connection of an exhausted pool before it is told the
#: store is unavailable (a transient fault: the caller may try again).
POOL_WAIT_S = 30.0


#: How long a patient start waits between tries while PostgreSQL is out of reach, at most.
PATIENT_RETRY_CAP_S = 10.0


async def _wait_for_postgres(url: str) -> asyncpg.Pool:
    """:func:`_connect_postgres`, tried again with backoff for as long as the server is
    out of reach (a transient fault: refused connections, a server starting or shutting
    down); one WARNING when it is first missed, one INFO when it answers."""
    for attempt in itertools.count():
        try:
            pool = await _connect_postgres(url)
        except StoreUnavailable as exc:
            if not exc.transient:
                raise
            if attempt == 0:
                log.warning("%s; waiting for it to answer", exc)
            await asyncio.sleep(min(PATIENT_RETRY_CAP_S, 0.5 * 2**attempt))
            continue
        if attempt:
            log.info("PostgreSQL %s answers again", _display(url))
        return pool
    raise AssertionError("unreachable")


async def _connect_postgres(url: str) -> asyncpg.Pool:
    """A small pool on the database, migrated; its failures as one sentence."""
    try:
        pool = await asyncpg.create_pool(
            # No floor of idle connections: asyncpg would keep reopening it while the
            # server is away, logging a traceback each time; a session opens what it needs.
            url,
            min_size=0,
            max_size=POOL_SIZE,
            statement_cache_size=1024,
            command_timeout=60,
        )
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, ValueError) as exc:
        raise _refused(url, exc) from None
    try:
        async with pool.acquire() as conn:
            await migrate_postgres(conn)
    except BaseException as exc:
        await pool.close()
        if isinstance(exc, asyncpg.PostgresError | asyncpg.InterfaceError | OSError):
            raise _refused(url, exc) from None
        raise
    return pool


def _refused(url: str, exc: BaseException) -> StoreUnavailable:
    transient = isinstance(classify(exc, networked=True), Unavailable)
    return StoreUnavailable(_display(url), f"PostgreSQL refused it ({exc})", transient=transient)


async def _connect(path: Path) -> aiosqlite.Connection:
    """Connect, set the pragmas and migrate, turning SQLite's failures into one sentence."""
    try:
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, so a transaction is
        # exactly the span of ``transaction()`` and nothing is committed behind our back.
        db = await aiosqlite.connect(path, isolation_level=None)
    except sqlite3.Error as exc:
        raise StoreUnavailable(path, _why(exc)) from None
    db.row_factory = aiosqlite.Row
    try:
        await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await db.execute("PRAGMA journal_mode = WAL")
        await db.execute("PRAGMA foreign_keys = ON")
        # NORMAL is durable across application crashes in WAL mode; only a power
        # loss may drop the last transactions, never corrupt the file.
        await db.execute("PRAGMA synchronous = NORMAL")
        await migrate(db)
        await _probe_writing(db)
    except (sqlite3.Error, OSError) as exc:
        await db.close()
        raise StoreUnavailable(path, _why(exc)) from None
    except BaseException:
        await db.close()
        raise
    return db


async def _probe_writing(db: aiosqlite.Connection) -> None:
    """Take the write lock once and let it go: a database SQLite could only open
    read-only (its folder or file not writable) fails here, at start, with one line,
    instead of at every write afterwards."""
    await db.execute("BEGIN IMMEDIATE")
    await db.execute("ROLLBACK")


READ_ONLY = "it is read-only: Dispatch needs to write to it and to its folder"


def _why(exc: BaseException) -> str:
    text = str(exc).lower()
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return "it is not a Dispatch database, or it is damaged"
    if "readonly" in text or "read-only" in text or "permission" in text:
        return READ_ONLY
    if "full" in text:
        return "the disk is full"
    if "locked" in text or "busy" in text:
        return "another program keeps it locked"
    if "unable to open" in text:
        return "it cannot be opened (check the path and the folder's permissions)"
    return f"SQLite refused it ({exc})"


class StoreUnavailable(Exception):
    """The database file cannot be used; ``str()`` is one line for an administrator."""

    #: Exit code of ``python -m bot`` for this failure (a supervisor should not loop).
    exit_code = 3

    def __init__(self, path: Path | str, why: str, *, transient: bool = False) -> None:
        super().__init__(f"Cannot use the database {path}: {why}.")
        self.path = path
        #: The server is out of reach for now (refused, starting, shutting down): waiting
        #: may mend it, as no waiting mends a wrong password or a damaged file.
        self.transient = transient


class StoreInUse(StoreUnavailable):
    """Another Dispatch process already runs on this database file."""

    exit_code = 4

    def __init__(self, path: Path) -> None:
        StoreUnavailable.__init__(
            self,
            path,
            "another Dispatch process is already using it (two would deliver every "
            "message twice); stop the other one first, or use PostgreSQL for several "
            "processes (DISPATCH_DATABASE_URL, docs/deploy.md)",
        )


#: The tables whose rows background work claims with a lease (migrations 0018, 0019).
#: Those a store claims in its process's own name (``Store.instance``): Dispatch's jobs
#: are claimed by its seats in theirs, and given back by them when they stop.
PROCESS_CLAIMS = ("outbox", "timers", "clocks", "league_games", "league_posts")


async def _forget_claims(db: aiosqlite.Connection) -> None:
    """A SQLite file is one process's (``ProcessLock``): a claim found in it when that
    process opens it was left by one that ended (a crash, a kill), and is given back at
    once rather than after its lease, so a restarted bot delivers what waited at once."""
    for table in CLAIMED_TABLES:
        await db.execute(
            f"UPDATE {table} SET claimed_by = NULL, lease_until = NULL WHERE claimed_by IS NOT NULL"
        )
    await db.commit()


class ProcessLock:
    """One Dispatch process per database file: an exclusive ``flock`` on the file itself.

    Locking the database file's own inode (not a ``<file>.lock`` beside it) means a hard
    link to the database under another name, or deleting a lock file while the bot runs,
    cannot let a second process in. ``flock`` locks are separate from the POSIX byte-range
    locks SQLite takes on the same file, so the two never interfere. The operating system
    drops the lock when the process ends, however it ends, so a crash never leaves a stale
    lock behind. Within one process the lock is shared by every store on the file (tests
    restart a manager on the same file), whatever name each used.

    Opening the file for writing is also where a read-only database file is found: it
    cannot be used, and the administrator is told so at start (exit code 3).
    """

    _held: ClassVar[dict[tuple[int, int], tuple[ProcessLock, int]]] = {}

    def __init__(self, key: tuple[int, int], fd: int) -> None:
        self.key = key
        self._fd = fd

    @classmethod
    def acquire(cls, path: Path) -> ProcessLock:
        known = _file_key(path)
        held = cls._held.get(known) if known is not None else None
        if held is not None:
            # Found by name, without opening it: closing a second descriptor of the file
            # would drop the POSIX locks this process's SQLite connections hold on it.
            cls._held[held[0].key] = (held[0], held[1] + 1)
            return held[0]
        fd = _open_for_writing(path)
        stat = os.fstat(fd)
        key = (stat.st_dev, stat.st_ino)
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise StoreInUse(path) from None
        lock = cls(key, fd)
        cls._held[key] = (lock, 1)
        return lock

    @property
    def sole_holder(self) -> bool:
        """Whether this is the process's only store on the file: then no other store,
        in this process or another, holds a claim in it."""
        return self._held.get(self.key, (self, 1))[1] == 1

    def release(self) -> None:
        lock, count = self._held.get(self.key, (self, 1))
        if count > 1:
            self._held[self.key] = (lock, count - 1)
            return
        self._held.pop(self.key, None)
        os.close(self._fd)  # closing the descriptor releases the lock


def _file_key(path: Path) -> tuple[int, int] | None:
    """The file's identity (device, inode): the same for every name of a hard link."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return (stat.st_dev, stat.st_ino)


def _open_for_writing(path: Path) -> int:
    """The database file opened read-write (created, readable by its owner only, when
    missing); a file or folder the bot may not write is refused here with one sentence.

    Every game is in here whole, hidden hands and secret keys included, hence 0600
    (SQLite gives its -wal and -shm files the same permissions).
    """
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise StoreUnavailable(path, READ_ONLY) from None
        raise StoreUnavailable(path, _why(exc)) from None
