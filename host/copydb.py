"""Move a bot's database from SQLite to PostgreSQL.

    python -m host.copydb cosmodrome.db postgresql://cosmo@localhost/cosmodrome

Copies every table (games, seats, the action log, votes, private panels, waits, timers,
results, ratings, user and server settings) in one PostgreSQL transaction, then verifies the copy:
the same number of rows in every table, and every started game replayed from its seed on
PostgreSQL equals its stored state. It refuses a target that already holds anything, and
changes nothing there when it refuses or fails. Stop the bot first; start it again with
``COSMODROME_DB`` set to the URL. Buttons posted before the move keep working (game ids and
versions are kept). The SQLite file is first brought up to the current schema, as the bot
would at start; nothing else in it changes.

Exit status: 0 copied and verified; 2 refused or failed (one line on stderr says why).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.contract import Game, IllegalMove
from host import registry
from host.settings import redact_url
from host.storage import SqliteStore, is_postgres_url
from host.storage_pg import MIGRATION_TIMEOUT, PgStore

#: Every table, parents before children (foreign keys).
TABLES = (
    "games",
    "seats",
    "actions",
    "votes",
    "dm_panels",
    "waits",
    "timers",
    "results",
    "ratings",
    "rating_changes",
    "user_settings",
    "guild_settings",
)


class CopyError(Exception):
    """The copy was refused or failed; the message is one line for the operator."""


@dataclass
class Report:
    rows: dict[str, int] = field(default_factory=dict)
    replayed: int = 0

    def summary(self) -> str:
        tables = ", ".join(f"{n} {t}" for t, n in self.rows.items() if n)
        return f"copied {tables or 'nothing'}; {self.replayed} games replayed equal"


async def _columns(src: SqliteStore, table: str) -> list[str]:
    async with src.db.execute(f"PRAGMA table_info({table})") as cur:
        return [str(r[1]) for r in await cur.fetchall()]


async def _rows(src: SqliteStore, table: str, columns: list[str]) -> list[tuple[Any, ...]]:
    async with src.db.execute(f"SELECT {', '.join(columns)} FROM {table}") as cur:
        return [tuple(r) for r in await cur.fetchall()]


async def copy(
    src: SqliteStore, dst: PgStore, games: Callable[[], dict[str, Game]] = registry.games
) -> Report:
    """Copy ``src`` into the empty ``dst`` and verify it (see the module's docstring)."""
    from host.sessions import Host

    report = Report()
    async with dst.pool.acquire() as con, con.transaction():
        # Nobody else writes the target while it is filled (a bot started too early).
        await con.execute("LOCK TABLE " + ", ".join(TABLES) + " IN EXCLUSIVE MODE")
        for table in TABLES:
            if await con.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
                raise CopyError(
                    f"the target database is not empty (table {table} has rows); copy only "
                    "into a new, empty database"
                )
        async with src.reading():
            for table in TABLES:
                columns = await _columns(src, table)
                rows = await _rows(src, table, columns)
                if rows:
                    await con.copy_records_to_table(table, records=rows, columns=columns)
                report.rows[table] = len(rows)
        # New games go on from the highest copied id.
        await con.execute(
            "SELECT setval(pg_get_serial_sequence('games', 'id'), "
            "COALESCE(MAX(id), 1), MAX(id) IS NOT NULL) FROM games"
        )
        for table in TABLES:
            n = await con.fetchval(f"SELECT COUNT(*) FROM {table}")
            if n != report.rows[table]:
                raise CopyError(f"table {table}: {report.rows[table]} rows read, {n} written")
        # Verify what PostgreSQL now holds, before it is committed: a failure keeps nothing.
        async with dst.bound(con):
            host = Host(dst, games=games)
            ids = await con.fetch("SELECT id FROM games WHERE state IS NOT NULL ORDER BY id")
            for (gid,) in ids:
                try:
                    snap = await host.by_id(gid)
                    replayed = await host.replay(gid)
                except (IllegalMove, ValueError, KeyError, TypeError) as exc:
                    raise CopyError(f"game {gid} cannot be replayed ({exc})") from exc
                if replayed != snap.row.state:
                    raise CopyError(f"game {gid} does not replay to its stored state")
                report.replayed += 1
    return report


async def copy_database(
    source: str | Path, target: str, games: Callable[[], dict[str, Game]] = registry.games
) -> Report:
    if not is_postgres_url(target):
        raise CopyError(f"the target must be a postgresql:// URL, got {target!r}")
    if is_postgres_url(source) or not Path(source).is_file():
        raise CopyError(f"the source must be an existing SQLite file, got {str(source)!r}")
    src = await SqliteStore.open(source)
    try:
        dst = await PgStore.open(target, timeout=MIGRATION_TIMEOUT)  # one long transaction
        try:
            return await copy(src, dst, games)
        finally:
            await dst.close()
    finally:
        await src.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m host.copydb",
        description="Copy a Cosmodrome SQLite database into an empty PostgreSQL database "
        "and verify it by replaying every game.",
    )
    parser.add_argument("source", help="the SQLite file (COSMODROME_DB until now)")
    parser.add_argument("target", help="postgresql://user:password@host/database")
    args = parser.parse_args(argv)
    try:
        report = asyncio.run(copy_database(args.source, args.target))
    except CopyError as exc:
        print(f"copydb: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a database that cannot be reached or read: one line
        text = " ".join(f"{type(exc).__name__}: {exc}".split())
        print(f"copydb: failed, nothing copied ({text})", file=sys.stderr)
        return 2
    print(f"copydb: {report.summary()} into {redact_url(args.target)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
