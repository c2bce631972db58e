"""Accepting a choice (check + apply + one commit, no render) with many active games.

    python -m bench.accept [--game mlem] [--games 10000] [--moves 2000] [--synchronous FULL]
                           [--dir FOLDER] [--db postgresql://...] [--pg-server]

Creates ``--games`` active games (10,000 by default: lobby, joins, options, start, each
through the host as players would) in a fresh SQLite file (WAL), then plays ``--moves``
random choices spread over them through ``Host.play`` — the same path a button click takes
after it is acknowledged — and reports p50/p99 latency. ``--synchronous NORMAL`` measures
what the bot's ``synchronous=FULL`` (a move survives a power cut) costs.

``--db postgresql://...`` measures PostgreSQL instead: the games go in a schema of their own
in that database, dropped at the end (nothing else in the database is touched).
``--pg-server`` starts a throwaway PostgreSQL server for the run (from the ``pgserver``
wheel of the test extras, or the machine's binaries; with fsync on, as in production) and
measures on it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

from bench.common import game_option, random_options, summary, timed_random_move
from host import registry
from host.clock import FakeClock
from host.sessions import Host, Player
from host.storage import SYNCHRONOUS, SqliteStore, Storage


@contextlib.asynccontextmanager
async def bench_store(
    synchronous: str, folder: str | None, db: str | None
) -> AsyncIterator[Storage]:
    """A fresh SQLite file in a temporary folder, or a fresh schema in ``db`` (PostgreSQL)."""
    if db is None:
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            store = await SqliteStore.open(Path(tmp) / "bench.db")
            await store.db.execute(f"PRAGMA synchronous={synchronous}")
            try:
                yield store
            finally:
                await store.close()
        return
    import asyncpg

    from host.storage_pg import PgStore

    schema = "bench_" + uuid.uuid4().hex[:10]
    con = await asyncpg.connect(db)
    try:
        await con.execute(f"CREATE SCHEMA {schema}")
        sep = "&" if "?" in db else "?"
        pg = await PgStore.open(f"{db}{sep}search_path={schema}")
        try:
            yield pg
        finally:
            await pg.close()
    finally:
        await con.execute(f"DROP SCHEMA {schema} CASCADE")
        await con.close()


async def run(
    game_id: str,
    games: int,
    moves: int,
    synchronous: str = SYNCHRONOUS,
    folder: str | None = None,
    db: str | None = None,
) -> list[float]:
    game = registry.get(game_id)
    rng = random.Random(5)
    async with bench_store(synchronous, folder, db) as store:
        host = Host(store, clock=FakeClock(), seeds=random.Random(1))
        ids: list[int] = []

        async def create(g: int, options: dict[str, str], n: int) -> None:
            players = [Player(g * 10 + i + 1, f"P{i}") for i in range(n)]
            snap = await host.new_lobby(
                guild_id=1, channel_id=10_000 + g, game_id=game_id, owner=players[0], lang="en"
            )
            for p in players[1:]:
                await host.join(snap.id, p)
            for spec_id, value in options.items():
                spec = next(o for o in game.options if o.id == spec_id)
                while (await host.by_id(snap.id)).row.options.get(spec_id) != value:
                    await host.cycle_option(snap.id, spec.id, players[0])
            await host.start(snap.id, players[0])
            ids.append(snap.id)

        # PostgreSQL takes several set-ups at once (one per pooled connection); SQLite has
        # one writer, so one at a time.
        batch = 8 if db is not None else 1
        t0 = time.perf_counter()
        for first in range(0, games, batch):
            todo = range(first, min(games, first + batch))
            specs = [
                (random_options(game, rng), rng.randint(game.min_players, game.max_players))
                for _ in todo
            ]
            await asyncio.gather(*(create(g, o, n) for g, (o, n) in zip(todo, specs, strict=True)))
            if (first // batch) % 250 == 0:
                print(f"  {len(ids)} games set up", file=sys.stderr, flush=True)
        ids.sort()
        print(
            f"  {len(ids)} active games set up in {time.perf_counter() - t0:.0f} s",
            file=sys.stderr,
        )
        times: list[float] = []
        while len(times) < moves:
            gid = rng.choice(ids)
            ms = await timed_random_move(host, gid, rng)
            if ms is not None:
                times.append(ms)
    return times


def main() -> None:
    ap = argparse.ArgumentParser()
    game_option(ap)
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--moves", type=int, default=2000)
    ap.add_argument("--synchronous", default=SYNCHRONOUS, choices=["FULL", "NORMAL"])
    ap.add_argument(
        "--dir", help="folder for the SQLite file, on the disk the bot will use (not tmpfs)"
    )
    ap.add_argument("--db", help="a postgresql:// URL: measure PostgreSQL instead of SQLite")
    ap.add_argument(
        "--pg-server", action="store_true", help="start a throwaway PostgreSQL server for --db"
    )
    args = ap.parse_args()
    server = None
    if args.pg_server:
        from tests.host.pgserver import PgTestServer

        server = PgTestServer.start(durable=True)
        args.db = server.url()
    try:
        times = asyncio.run(
            run(args.game, args.games, args.moves, args.synchronous, args.dir, args.db)
        )
    finally:
        if server is not None:
            server.stop()
    where = "PostgreSQL" if args.db else f"SQLite synchronous={args.synchronous}"
    print(
        f"{args.game}: accept a choice with {args.games} active games, {where}: {summary(times)}"
    )


if __name__ == "__main__":
    main()
