"""The store's own errors: what went wrong, said without a driver's exception names.

Everything above ``bot/storage`` handles these, whichever engine runs, and needs neither
``sqlite3`` nor ``asyncpg`` to tell the faults apart:

- ``Unavailable``: transient. The connection was lost, the server is starting or shutting
  down, the pool is exhausted; or, as ``Busy``, the database contended: a serialization
  failure or a deadlock, a lock timeout (SQLite's "database is locked"). Nothing was
  changed; the same request may succeed in a moment, so a caller that can retry does,
  with backoff. Never a sign of damage.
- ``CommitUnknown``: the connection died while COMMIT was on its way, so the server may
  or may not have committed. The caller finds out by reading back what it wrote.
- ``Conflict``: a unique index or a version refused the row (another writer won a race).
- ``Refused``: the database refused for good (disk full, read-only, a statement it
  rejects). Not transient, and not a game's damage either.
- ``Damaged``: a stored row of a game does not decode or replay. Only this flags a game.

Each is a ``DispatchError`` whose text a player may read: it names no card and no SQL.
"""

from __future__ import annotations

import asyncio
import sqlite3

import asyncpg

from bot import errors

#: What a player is told when a move was not made because the database is out of reach.
MOVE_NOT_MADE = "Dispatch cannot reach its database; your move was not made. Try again in a minute."
#: The same for anything else they asked for.
NOTHING_CHANGED = "Dispatch cannot reach its database, so nothing changed. Try again in a minute."
#: What a player is told when the database was busy (a lock held too long).
BUSY = "Dispatch's database was busy, so nothing changed. Try again in a moment."
#: The same when it was their move.
MOVE_BUSY = (
    "Dispatch's database was busy, so nothing changed: your move was not made. "
    "Try again in a moment."
)
#: What a player is told when a save's COMMIT lost its connection (nobody knows yet).
SAVE_UNKNOWN = (
    "Dispatch lost its database while saving that and cannot tell yet whether it was "
    "saved. Look again in a minute before trying again."
)
#: The same for a move, once reading it back could not tell either.
OUTCOME_UNKNOWN = (
    "Dispatch lost its database while saving your move and cannot tell yet whether it was "
    "made. Look at the game in a minute (/game status) before trying again."
)


class StoreError(errors.SaveFailed):
    """Base of the store's errors; ``str()`` is a sentence for the player."""

    def __init__(self, message: str | None = None) -> None:
        super().__init__()
        if message is not None:
            self.args = (message,)


class Unavailable(StoreError):
    """Transient: the database cannot be reached or cannot serve now; nothing changed."""

    def __init__(self, message: str = NOTHING_CHANGED) -> None:
        super().__init__(message)


class Busy(Unavailable):
    """Transient, the database answering but contended: a lock held past its timeout, a
    serialization failure or a deadlock. Nothing changed; the same request may succeed
    in a moment."""

    def __init__(self, message: str = BUSY) -> None:
        super().__init__(message)


class CommitUnknown(Unavailable):
    """The connection died during COMMIT: the transaction may or may not be saved."""

    def __init__(self, message: str = SAVE_UNKNOWN) -> None:
        super().__init__(message)


class Conflict(StoreError):
    """A unique index or a version refused the row: another writer came first."""


class Refused(StoreError):
    """The database refused for good (disk full, read-only, a statement it rejects)."""


class Damaged(errors.CorruptGame):
    """A stored row of a game does not decode or replay: the one fault that flags a game."""


#: SQLite's words for a lock held past the busy timeout: transient.
_SQLITE_BUSY = ("locked", "busy")

#: PostgreSQL contended: a serialization failure or deadlock (40), a lock not available
#: (55P03), a statement cancelled by its timeout (57014).
_PG_BUSY: tuple[type[BaseException], ...] = (
    asyncpg.TransactionRollbackError,
    asyncpg.LockNotAvailableError,
    asyncpg.QueryCanceledError,
)
#: PostgreSQL out of reach: the connection (class 08), the server starting or shutting
#: down (57), too many connections (53).
_PG_TRANSIENT: tuple[type[BaseException], ...] = (
    asyncpg.PostgresConnectionError,
    asyncpg.OperatorInterventionError,
    asyncpg.InsufficientResourcesError,
    # The driver's own: a closed connection, "another operation is in progress".
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
)
#: The socket under a PostgreSQL connection failing, or a statement's timeout: transient
#: there. On SQLite, whose file is local, an OSError is the disk refusing (``Refused``).
_NETWORK: tuple[type[BaseException], ...] = (OSError, TimeoutError, asyncio.TimeoutError)


def classify(exc: BaseException, *, networked: bool = False) -> StoreError | None:
    """The store's error for a driver's failure (None: not a database failure);
    ``networked``: the failure came from a PostgreSQL connection, over the network."""
    if isinstance(exc, StoreError):
        return exc
    if isinstance(exc, sqlite3.IntegrityError | asyncpg.IntegrityConstraintViolationError):
        return Conflict()
    if isinstance(exc, _PG_BUSY) or (
        isinstance(exc, sqlite3.OperationalError)
        and any(word in str(exc).lower() for word in _SQLITE_BUSY)
    ):
        return Busy()
    if isinstance(exc, _PG_TRANSIENT) or (networked and isinstance(exc, _NETWORK)):
        return Unavailable()
    if isinstance(exc, sqlite3.Error | asyncpg.PostgresError | OSError):
        return Refused()
    return None


#: The faults after which a COMMIT may or may not have reached the server: the connection
#: itself failed (not a refusal the server answered, such as a serialization failure).
_PG_LOST: tuple[type[BaseException], ...] = (
    asyncpg.PostgresConnectionError,
    asyncpg.OperatorInterventionError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    OSError,
    TimeoutError,
    asyncio.TimeoutError,
)


def connection_lost(exc: BaseException) -> bool:
    """Whether the connection failed under a statement, rather than the server refusing
    it: after COMMIT, the transaction's fate is then unknown."""
    return isinstance(exc, _PG_LOST) or isinstance(exc.__cause__, _PG_LOST)


def is_transient(exc: BaseException) -> bool:
    """Whether a driver's failure (or the store's own error) is worth a retry."""
    return isinstance(classify(exc, networked=True), Unavailable)
