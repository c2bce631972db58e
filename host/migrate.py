"""The numbered migrations of both databases: read from ``host/migrations/`` (one file a
number, written in SQLite's words) and put in PostgreSQL's words. The drivers
(host/storage.py, host/storage_pg.py) apply them."""

from __future__ import annotations

import re
from pathlib import Path

#: The migrations: ``NNNN_name.sql``, one file a number for both databases (see
#: :func:`migrations` and :func:`pg_migration`, and the folder's README).
MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def migrations(after: int = 0) -> list[tuple[int, str, str]]:
    """The migrations numbered above ``after``, in order: (number, file name, script as
    SQLite runs it; :func:`pg_migration` gives PostgreSQL's)."""
    found = []
    for path in sorted(MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.sql")):
        number = int(path.name[:4])
        if number > after:
            found.append((number, path.name, path.read_text(encoding="utf-8")))
    return found


#: What PostgreSQL reads for SQLite's words in a migration (in this order). A column named
#: ``*_id``, ``seed`` or ``by_user`` holds a Discord id, a game's id or a seed, all of which
#: need 64 bits: BIGINT there, where SQLite's INTEGER has 64 bits anyway; any other INTEGER
#: stays INTEGER. Times (REAL) are DOUBLE PRECISION; a ``-- pg:`` line is a statement for
#: PostgreSQL only (a comment to SQLite).
PG_WORDS = (
    (re.compile(r"^-- pg: ", re.MULTILINE), ""),
    (re.compile(r"\bINTEGER PRIMARY KEY AUTOINCREMENT\b"), "BIGSERIAL PRIMARY KEY"),
    (re.compile(r"\b(\w+_id|seed|by_user)(\s+)INTEGER\b"), r"\1\2BIGINT"),
    (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),
)


def pg_migration(script: str) -> str:
    """PostgreSQL's text of an SQLite migration ``script`` (see :data:`PG_WORDS`)."""
    for pattern, words in PG_WORDS:
        script = pattern.sub(words, script)
    return script
