"""How fast interactions are acknowledged: a whole game through the offline harness, timing
each click from the moment it is fed to discord.py until the bot's interaction callback
(the acknowledgement Discord needs within 3 s) is sent.

    python -m bench.ack [--game mlem] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from bench.common import game_option, summary
from bot import build_bot
from host.clock import FakeClock
from host.settings import Settings
from tests.e2e import driver
from tests.harness import Harness
from tests.harness.session import FakeSession

OPTIONS = {"mlem": ("ufo", "recon", "missions"), "kosmonavts": ("rules",)}


async def run(game: str, seed: int) -> list[float]:
    acks: list[float] = []
    original = FakeSession.request

    def request(self, method, url, **kwargs):  # type: ignore[no-untyped-def]
        if "/callback" in str(url):
            acks.append(time.perf_counter())
        return original(self, method, url, **kwargs)

    FakeSession.request = request  # type: ignore[method-assign]
    latencies: list[float] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            settings = Settings(token="x", db_path=str(Path(tmp) / "b.db"), tick_seconds=0)
            clock, seeds = FakeClock(), random.Random(seed)
            h = Harness(lambda: build_bot(settings, clock=clock, seeds=seeds))
            await h.start()
            users = [h.user(n, "en-US") for n in ("Ana", "Ben", "Cal")]
            lobby = (await h.slash(users[0], "game new", game=game)).message
            assert lobby is not None
            for u in users[1:]:
                await h.click(u, lobby, label="Join")
            for key in OPTIONS.get(game, ()):
                b = next(b for b in lobby.buttons if (b.custom_id or "").endswith(f":o.{key}"))
                await h.click(users[0], lobby, b.custom_id)
            await h.click(users[0], lobby, label="Start")
            seats = {u: i for i, u in enumerate(users)}
            rng = random.Random(seed)
            original_click = h.click

            async def timed_click(*args, **kwargs):  # type: ignore[no-untyped-def]
                before = len(acks)
                t0 = time.perf_counter()
                reply = await original_click(*args, **kwargs)
                if len(acks) > before:
                    latencies.append((acks[before] - t0) * 1000)
                return reply

            h.click = timed_click  # type: ignore[method-assign]
            for _ in range(5000):
                if await driver.play_turn(h, seats, rng) is None:
                    break
            await h.stop()
    finally:
        FakeSession.request = original  # type: ignore[method-assign]
    return latencies


def main() -> None:
    ap = argparse.ArgumentParser()
    game_option(ap)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    ms = asyncio.run(run(args.game, args.seed))
    print(f"{args.game}: click acknowledged after {summary(ms)}")


if __name__ == "__main__":
    main()
