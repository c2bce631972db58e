"""Accepting a choice (check + apply + one SQLite commit, no render) with many active games.

    python -m bench.accept [--game mlem] [--games 500] [--moves 2000] [--synchronous FULL]
                           [--dir FOLDER]

Creates ``--games`` active games in a fresh SQLite file (WAL), then plays ``--moves``
random choices spread over them through ``Host.play`` — the same path a button click takes
after it is acknowledged — and reports p50/p99 latency. ``--synchronous NORMAL`` measures
what the bot's ``synchronous=FULL`` (a move survives a power cut) costs.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from bench.common import random_options, summary
from host import registry
from host.clock import FakeClock
from host.sessions import Host, Player
from host.storage import SYNCHRONOUS, Store


async def run(
    game_id: str,
    games: int,
    moves: int,
    synchronous: str = SYNCHRONOUS,
    folder: str | None = None,
) -> list[float]:
    game = registry.get(game_id)
    rng = random.Random(5)
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        store = await Store.open(Path(tmp) / "bench.db")
        await store.db.execute(f"PRAGMA synchronous={synchronous}")
        host = Host(store, clock=FakeClock(), seeds=random.Random(1))
        ids: list[int] = []
        users: dict[int, list[Player]] = {}
        for g in range(games):
            n = rng.randint(game.min_players, game.max_players)
            players = [Player(g * 10 + i + 1, f"P{i}") for i in range(n)]
            snap = await host.new_lobby(
                guild_id=1, channel_id=10_000 + g, game_id=game_id, owner=players[0], lang="en"
            )
            for p in players[1:]:
                await host.join(snap.id, p)
            for spec_id, value in random_options(game, rng).items():
                spec = next(o for o in game.options if o.id == spec_id)
                while (await host.by_id(snap.id)).row.options.get(spec_id) != value:
                    await host.cycle_option(snap.id, spec.id, players[0])
            await host.start(snap.id, players[0])
            ids.append(snap.id)
            users[snap.id] = players
        times: list[float] = []
        while len(times) < moves:
            gid = rng.choice(ids)
            snap = await host.by_id(gid)
            if not snap.decisions:
                continue
            d = rng.choice(snap.decisions)
            opt = rng.choice(d.options).id
            who = users[gid][d.seat]
            t0 = time.perf_counter()
            await host.play(gid, who.user_id, d.seat, snap.token(d), opt)
            times.append((time.perf_counter() - t0) * 1000)
        await store.close()
    return times


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="mlem", choices=list(registry.GAME_MODULES))
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--moves", type=int, default=2000)
    ap.add_argument("--synchronous", default=SYNCHRONOUS, choices=["FULL", "NORMAL"])
    ap.add_argument(
        "--dir", help="folder for the SQLite file, on the disk the bot will use (not tmpfs)"
    )
    args = ap.parse_args()
    times = asyncio.run(run(args.game, args.games, args.moves, args.synchronous, args.dir))
    print(
        f"{args.game}: accept a choice with {args.games} active games, "
        f"synchronous={args.synchronous}: {summary(times)}"
    )


if __name__ == "__main__":
    main()
