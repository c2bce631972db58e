"""Moves per second with one, then two bot processes on one PostgreSQL database.

    python -m bench.twoproc [--game mlem] [--games 200] [--seconds 20] [--tasks 4]
                            [--db postgresql://...]

Without ``--db`` it starts a throwaway PostgreSQL server (from the ``pgserver`` wheel of the
test extras, or the machine's binaries; fsync on, as in production). It sets up ``--games``
active games in a schema of its own, then runs the same load twice: one OS process, then two
at once, each a Host with its own connection pool playing random legal moves through
``Host.play`` (the path a click takes) on games picked at random among all of them, with
``--tasks`` clicks in flight per process (a bot process answers many players at once). Both
processes play the same games, so their game locks meet across processes. Reports the
moves applied per second (and the clicks refused because another got there first), and the
latency of the accepted ones. The schema is dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import time
import uuid

from bench.common import game_option, pct, timed_random_move
from host import registry
from host.clock import FakeClock
from host.sessions import Host, HostError, Player


async def setup(url: str, game_id: str, games: int) -> None:
    from host.storage_pg import PgStore

    game = registry.get(game_id)
    store = await PgStore.open(url)
    try:
        host = Host(store, clock=FakeClock(), seeds=random.Random(1))

        async def create(g: int) -> None:
            n = game.min_players + g % (game.max_players - game.min_players + 1)
            players = [Player(g * 10 + i + 1, f"P{i}") for i in range(n)]
            snap = await host.new_lobby(
                guild_id=1, channel_id=10_000 + g, game_id=game_id, owner=players[0], lang="en"
            )
            for p in players[1:]:
                await host.join(snap.id, p)
            await host.start(snap.id, players[0])

        for first in range(0, games, 8):
            await asyncio.gather(*(create(g) for g in range(first, min(games, first + 8))))
    finally:
        await store.close()


async def worker(url: str, seconds: float, tasks: int, index: int) -> dict[str, object]:
    """One bot process's load: ``tasks`` players clicking at once for ``seconds``."""
    from host.storage_pg import PgStore

    store = await PgStore.open(url)
    host = Host(store, clock=FakeClock(), seeds=random.Random(index))
    async with store.reading() as con:
        ids = [int(r["id"]) for r in await con.fetch("SELECT id FROM games WHERE status='active'")]
    latencies: list[float] = []
    refused = 0
    deadline = time.perf_counter() + seconds

    async def clicker(k: int) -> None:
        nonlocal refused
        rng = random.Random(index * 1000 + k)
        while time.perf_counter() < deadline:
            gid = rng.choice(ids)
            try:
                ms = await timed_random_move(host, gid, rng)
            except HostError:
                refused += 1  # the other process (or task) moved this game first
                continue
            if ms is not None:
                latencies.append(ms)

    try:
        await asyncio.gather(*(clicker(k) for k in range(tasks)))
    finally:
        await store.close()
    return {"moves": len(latencies), "refused": refused, "latencies": latencies}


def run_processes(url: str, procs: int, seconds: float, tasks: int) -> list[dict[str, object]]:
    children = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bench.twoproc",
                "--worker",
                url,
                "--seconds",
                str(seconds),
                "--tasks",
                str(tasks),
                "--index",
                str(i),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        for i in range(procs)
    ]
    out = []
    for child in children:
        stdout, _ = child.communicate()
        if child.returncode != 0:
            raise SystemExit(f"a worker process failed (exit {child.returncode})")
        out.append(json.loads(stdout))
    return out


def report(procs: int, seconds: float, results: list[dict[str, object]]) -> str:
    moves = sum(int(r["moves"]) for r in results)  # type: ignore[call-overload]
    refused = sum(int(r["refused"]) for r in results)  # type: ignore[call-overload]
    lat = sorted(x for r in results for x in r["latencies"])  # type: ignore[attr-defined]
    median = pct(lat, 50) if lat else float("nan")
    p99 = pct(lat, 99) if lat else float("nan")
    return (
        f"{procs} process{'es' if procs > 1 else ''}: {moves / seconds:.0f} moves/s "
        f"({moves} moves, {refused} clicks refused as already played), "
        f"accept median {median:.1f} ms p99 {p99:.1f} ms"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    game_option(ap)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--tasks", type=int, default=4, help="clicks in flight per process")
    ap.add_argument("--db", help="a postgresql:// URL (default: start a throwaway server)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--index", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(asyncio.run(worker(args.worker, args.seconds, args.tasks, args.index))))
        return
    server = None
    db = args.db
    if db is None:
        from tests.host.pgserver import PgTestServer

        server = PgTestServer.start(durable=True)
        db = server.url()
    import asyncpg

    schema = "bench_" + uuid.uuid4().hex[:10]

    async def schema_sql(sql: str) -> None:
        con = await asyncpg.connect(db)
        try:
            await con.execute(sql)
        finally:
            await con.close()

    try:
        asyncio.run(schema_sql(f"CREATE SCHEMA {schema}"))
        url = f"{db}{'&' if '?' in db else '?'}search_path={schema}"
        try:
            asyncio.run(setup(url, args.game, args.games))
            lines = [
                report(n, args.seconds, run_processes(url, n, args.seconds, args.tasks))
                for n in (1, 2)
            ]
        finally:
            asyncio.run(schema_sql(f"DROP SCHEMA {schema} CASCADE"))
    finally:
        if server is not None:
            server.stop()
    print(f"{args.game} on PostgreSQL, {args.games} active games, {args.tasks} clicks in flight:")
    for line in lines:
        print("  " + line)


if __name__ == "__main__":
    main()
