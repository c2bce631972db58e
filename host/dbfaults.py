"""Database faults, told apart from bugs, so that a player is told the truth.

A database that restarts, drops a connection, stops answering (a timeout), or an SQLite
file whose disk is full or which another program holds locked, is not a bug of ours: the
player gets one private sentence ("the game's storage is not answering; try again in a
moment"), nothing is half-written (every write is one transaction), and the next click,
once the database answers again, plays as ever. :func:`storage_fault` says whether an error
is such a fault; :class:`StorageDown` is the one the host raises itself.

One case needs more than a sentence: a connection lost *during* a move's COMMIT (or a COMMIT
that fails otherwise) leaves it unknown whether the move was stored. The host then reads the
game again (:func:`move_stored`) on a connection outside the move's transaction, and says what
it finds: the move was made (and the table follows), it was not, or the storage does not
answer that either (then it cannot tell yet). Outside the move's transaction, so that what it
reads is what is durable: PostgreSQL's pool hands out another connection (the failed one is
reset or dropped when it goes back); SQLite's store has one connection, which is never left
inside a failed transaction: if the ROLLBACK after a failed COMMIT fails too, the store closes
that connection (SQLite drops what was not committed) and opens a new one before it lets
anything else use the file (host/storage.py, ``SqliteStore._settle``).
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterator
from types import TracebackType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from host.storage import Storage

#: What SQLite says when the file cannot take a write now (full disk, another program's
#: lock, an I/O error): a fault of the machine, not of the game.
SQLITE_FAULTS = (
    "database or disk is full",
    "database is locked",
    "database table is locked",
    "disk i/o error",
    "unable to open database file",
    "attempt to write a readonly database",
)


class StorageDown(Exception):
    """The game's storage did not answer (or could not take a write) in time. ``key``: the
    sentence the player gets (an i18n key)."""

    def __init__(self, key: str = "host.error.storage_down") -> None:
        super().__init__(key)
        self.key = key


def fault_key(err: BaseException) -> str:
    """The sentence for a :func:`storage_fault`: a :class:`StorageDown`'s own, else
    "the game's storage is not answering"."""
    for e in _chain(err):
        if isinstance(e, StorageDown):
            return e.key
    return "host.error.storage_down"


def _chain(err: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    todo: BaseException | None = err
    while todo is not None and id(todo) not in seen:
        seen.add(id(todo))
        yield todo
        todo = todo.__cause__ or todo.__context__


def _from_asyncpg(tb: TracebackType | None) -> bool:
    """Whether a traceback passed through asyncpg (a timeout or a socket error of the
    database's client, not of Discord's)."""
    while tb is not None:
        if "/asyncpg/" in tb.tb_frame.f_code.co_filename.replace("\\", "/"):
            return True
        tb = tb.tb_next
    return False


def storage_fault(err: BaseException) -> bool:
    """Whether ``err`` (or what caused it) is the database being away rather than a bug:
    a lost or refused connection, a timeout of the database's client, the server shutting
    down or cancelling the statement, SQLite's full disk or locked file."""
    asyncpg = sys.modules.get("asyncpg")
    for e in _chain(err):
        if isinstance(e, StorageDown):
            return True
        if isinstance(e, sqlite3.OperationalError) and any(
            m in str(e).lower() for m in SQLITE_FAULTS
        ):
            return True
        if asyncpg is not None:
            exc = asyncpg.exceptions
            if isinstance(
                e,
                (
                    exc.PostgresConnectionError,
                    exc.ConnectionDoesNotExistError,
                    exc.OperatorInterventionError,  # admin shutdown, cancelled statement
                    exc.CannotConnectNowError,
                    exc.TooManyConnectionsError,
                    exc.LockNotAvailableError,
                ),
            ):
                return True
            # A connection closed under a query, or detached from its pool proxy by then.
            if isinstance(e, exc.InterfaceError) and any(
                m in str(e) for m in ("closed", "released back to the pool")
            ):
                return True
            if isinstance(e, (TimeoutError, OSError)) and _from_asyncpg(e.__traceback__):
                return True
    return False


def timed_out(err: BaseException) -> bool:
    """Whether ``err`` is a :func:`storage_fault` of a database that does not answer (a
    timeout, SQLite's locked file), rather than one that dropped a connection: asking it
    again at once would only wait as long again."""
    if not storage_fault(err):
        return False
    return any(
        isinstance(e, TimeoutError)
        or (isinstance(e, sqlite3.OperationalError) and "locked" in str(e).lower())
        for e in _chain(err)
    )


async def move_stored(
    store: Storage, game_id: int, *, after_seq: int, seat: int, user_id: int, choice: str
) -> bool | None:
    """After a move's commit failed in a way that leaves its fate unknown: whether the move
    is stored (an action later than ``after_seq`` by this seat and user, with this choice),
    read outside the move's transaction (see the module's docstring: a pooled connection on
    PostgreSQL, SQLite's one connection once the store has ended or replaced the failed
    transaction), so only a committed move counts. None: the storage does not answer that
    either."""
    try:
        recent = await store.actions(game_id, limit=8, live=False)
    except Exception as err:
        if storage_fault(err):
            return None
        raise
    return any(
        a.seq > after_seq and a.seat == seat and a.by_user == user_id and a.choice == choice
        for a in recent
    )
