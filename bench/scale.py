"""Ten thousand active games on one process (issue 14): what the pacing tick costs, and how
a lone game's clicks fare while it runs.

    python -m bench.scale [--games 10000] [--dir FOLDER] [--rounds 20] [--workers N]
                          [--hard-bot] [--bot-workers N] [--only-live] [--pillow]
                          [--png-threads N] [--profile N] [--timeline [FILE]]
                          [--live-rounds N] [--keep-harness] [--no-draw-ahead]

The bot runs in the offline Discord harness (tests/harness) on an SQLite file on disk with
``synchronous=FULL`` (in ``--dir``: use the disk the bot will use, not tmpfs). The games are
MLEM games in a realistic mix: most wait for a person (reminders every 12 h), a tenth have a
deadline of a day, one in twenty has a seat on autopilot, and a hundred have had their
channel deleted while their table lagged. About forty games are made through the host and
the rest cloned from them in SQL (state, seats, log, waits), their waits spread over the
last day and a half, so that reminders fall due all the time, as on a busy bot.

Reported: the tick's time (the first one, which pauses the lost channels; one with nothing
due; ones a minute apart with the usual share due); click→acknowledgement and click→image
(the table's PNG reaching Discord) p50/p99 for a lone game clicked while a tick runs;
accepting a move (``Host.play``, no render) p50/p99; moves per second with 20 games clicked
at once, with their click→acknowledgement (from the round's start, and from each click's own
arrival) and click→image (each game's new table) p50/p99 over every round; and the memory:
the bot's process and each render worker's RSS.

``--workers N`` draws the pictures in N worker processes (host/renderpool.py; the default,
0, draws them in a thread of the bot's process, as the offline tests do); ``--hard-bot``
keeps a hard bot searching (the search engine at level ``hard`` on a Galaxy Trucker game,
through ``Host.bot_pick`` as the host runs it) while the 20 games are clicked;
``--bot-workers N`` searches the bots' moves in N worker processes (host/botpool.py; the
default, 1, as the bot runs; 0 searches in a thread of the bot's process, the before);
``--only-live`` skips the ticks, the lone game's clicks and the accept runs;
``--pillow`` writes the PNGs with Pillow's own writer instead of the banded one with its
cache of deflated bands (render/pngbands.py), in the workers too: the before of issue 23's
banded PNGs; ``--png-threads N`` deflates a picture's missing bands on N threads;
``--profile N`` runs cProfile on the event loop's thread (only it) over the 20 games' rounds
and prints its top N functions by own and by cumulative time, in ms a move, and how much of
it is the offline harness's and the bench's own code (the click's parsing by discord.py and
the harness's HTTP are the bench's cost, not the bot's). The CPU per move is printed for
the whole process and for the event loop's thread alone; ``--profile-out FILE`` keeps the
profile for ``python -m pstats``. ``--timeline [FILE]`` records every click of the 20 games'
rounds step by step on one clock (fed, acknowledged, committed, its table asked of the render
pool, drawn in a worker by the worker's own clock, back on the event loop, sent), the loop's
idle time, each worker's drawing and each garbage collection, and prints what a round's last
picture waited for (FILE: every round as JSON). Between rounds the offline Discord forgets
what Discord keeps outside the bot (every request, interaction and older message version:
it would weigh on the bot's garbage collector; ``--keep-harness`` keeps it).
``--no-draw-ahead`` draws each table in its publish rather than the moment its move is
committed (the A/B of cogs.publish's ``draw_ahead``); ``--switch-interval MS`` sets the
interpreter's switch interval. The bench runs on the event loop the bot runs on
(``bot.run_loop``: uvloop's where it is installed; ``COSMODROME_UVLOOP=0``, asyncio's).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import contextvars
import cProfile
import functools
import gc
import os
import pstats
import random
import re
import resource
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiosqlite

from bench.common import pct
from bot import build_bot, run_loop
from host import botpool, pacing, registry, renderpool
from host.clock import FakeClock
from host.pacing import HOUR
from host.records import Snapshot
from host.renderpool import RenderPool, WorkerPool
from host.rows import GameRow, SeatRow
from host.sessions import Host, Player
from host.settings import Settings
from host.storage import SqliteStore
from render import kit, pngbands
from tests.e2e import driver
from tests.harness import Harness
from tests.harness.models import FakeUser
from tests.host.test_render_pool import jobs

TEMPLATES = 40
LOST = 100
LIVE = 20  # games clicked at once
LIVE_ROUNDS = 10  # rounds of one click in each (--live-rounds)


def rss_mb() -> tuple[float, float]:
    """(current, peak) resident set size in MB."""
    current = 0.0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            current = int(line.split()[1]) / 1024
    return current, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _field_mb(path: str, key: str) -> float:
    """A ``key: N kB`` row of a /proc file in MB (0 if the file or the row is gone)."""
    try:
        text = Path(path).read_text()
    except OSError:
        return 0.0
    for row in text.splitlines():
        if row.startswith(key):
            return int(row.split()[1]) / 1024
    return 0.0


def rss_of(pid: int) -> float:
    """A process's resident set size in MB (0 if it is gone)."""
    return _field_mb(f"/proc/{pid}/status", "VmRSS:")


def proc_stat(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command's name (state, parent, ...)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def pss_of(pid: int) -> float:
    """A process's proportional set size in MB (shared pages split between their users)."""
    return _field_mb(f"/proc/{pid}/smaps_rollup", "Pss:")


async def memory() -> str:
    """The bot's RSS, each render worker's and the sum; and the PSS of the workers and of
    the fork server they are forked from (its memory is shared with them); and the bots'
    search workers' RSS and PSS."""
    main = rss_of(os.getpid())
    pool = renderpool.current()
    pids = await pool.pids() if pool else set()
    workers = sorted(rss_of(pid) for pid in pids)
    searchers = botpool.current()
    bots = sorted(await searchers.pids()) if searchers else []
    bot_line = (
        f"; bot workers' RSS {', '.join(f'{rss_of(p):.0f}' for p in bots)} MB, "
        f"PSS {', '.join(f'{pss_of(p):.0f}' for p in bots)} MB"
        if bots
        else ""
    )
    if not workers:
        return f"RSS {main:.0f} MB (pictures drawn in-process){bot_line}"
    each = ", ".join(f"{w:.0f}" for w in workers)
    shares = ", ".join(f"{pss_of(pid):.0f}" for pid in sorted(pids))
    parents = {
        int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1]) for pid in pids
    }
    server = sum(pss_of(p) for p in parents - {os.getpid()})
    return (
        f"RSS {main:.0f} MB + {len(workers)} render workers ({each} MB) = "
        f"{main + sum(workers):.0f} MB; workers' PSS {shares} MB, fork server's {server:.0f} MB"
        f"{bot_line}"
    )


async def workers_cpu(pool: WorkerPool | RenderPool | None = None) -> float:
    """CPU seconds the render workers (or ``pool``'s) have used (user + system)."""
    pool = pool or renderpool.current()
    total = 0.0
    for pid in await pool.pids() if pool else set():
        try:
            fields = proc_stat(pid)
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def threads_cpu() -> dict[str, float]:
    """CPU seconds (user + system) of each of this process's threads, by name (the Python
    thread's name, or its class for a "Thread-N" such as aiosqlite's; else its kernel name)."""
    names = {
        t.native_id: type(t).__name__ if t.name.startswith("Thread-") else t.name
        for t in threading.enumerate()
        if t.native_id is not None
    }
    tick = os.sysconf("SC_CLK_TCK")
    out: dict[str, float] = {}
    for task in Path("/proc/self/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            comm = (task / "comm").read_text().strip()
        except OSError:
            continue
        name = names.get(int(task.name), comm)
        name = re.sub(r"[-_ ]?\d+( \(.*\))?$", "", name) or comm  # "Thread-3 (run)": "Thread"
        out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    return out


class Hops:
    """Counts the trips to aiosqlite's thread (one per statement, or per whole transaction
    through ``in_one_hop``): each wakes the event loop when it returns."""

    def __init__(self) -> None:
        self.count = 0
        self._orig = aiosqlite.Connection._execute

    def __enter__(self) -> Hops:
        orig = self._orig

        def counted(conn: Any, fn: Any, *args: Any, **kw: Any) -> Any:
            self.count += 1
            return orig(conn, fn, *args, **kw)  # (its coroutine: no frame of ours in between)

        aiosqlite.Connection._execute = counted  # type: ignore[method-assign, assignment]
        return self

    def __exit__(self, *_: object) -> None:
        aiosqlite.Connection._execute = self._orig  # type: ignore[method-assign]


class HardBot:
    """A hard bot searching without a pause, as the host runs a bot's search
    (``Host.bot_pick``: in the bot pool, host/botpool.py, when the bot runs one; else in a
    thread of the bot's process), on a Galaxy Trucker game whose four seats are hard bots
    (its moves applied by the engine, nothing stored), until stopped. Its event loop runs
    in a thread of its own: the harness waits for every search the bot's loop hands out,
    and the clicks' rounds must not wait for this one."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.stop = threading.Event()
        self.searches = 0
        self.thread = threading.Thread(target=lambda: asyncio.run(self.run()), daemon=True)

    def snapshot(self, state: Any, version: int) -> Snapshot:
        """The game as ``Host.by_id`` would read it (its row holds the state's dump)."""
        game = registry.get("galaxy_trucker")
        row = GameRow(
            id=0, guild_id=None, channel_id=0, game=game.id, status="active", options={},
            seed=9, version=version, state=game.dump(state), lang="en", owner_id=0,
            lobby_message_id=None, table_message_id=None, table_to_move=[], created_at=0.0,
            updated_at=0.0, finished_at=None,
        )  # fmt: skip
        seats = [SeatRow(0, i, None, True, f"B{i}", "en", False, level="hard") for i in range(4)]
        return Snapshot(row, seats, game, state, decisions=game.pending(state))

    async def run(self) -> None:
        game = registry.get("galaxy_trucker")
        rng = random.Random(9)
        state = game.new(4, {}, 9)
        version = 0
        while not self.stop.is_set():
            pending = game.pending(state)
            if not pending or game.result(state) is not None:
                state = game.new(4, {}, rng.randrange(1000))
                continue
            version += 1
            d = rng.choice(pending)
            answer = await self.host.bot_pick(self.snapshot(state, version), d.seat)
            state, _ = game.apply(state, d.seat, answer)
            self.searches += 1

    def __enter__(self) -> HardBot:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self.thread.join()


class Sampler:
    """A sampling profiler of one thread (the event loop's): every ``interval`` s another
    thread reads the loop thread's stack and charges it the CPU time that thread used since
    the last sample (its own CPU clock), to the function running (own time) and to every
    function on the stack (cumulative). Unlike cProfile it does not slow down Python calls
    more than C code, so it shows where the loop's CPU goes as it runs (the interpreter's
    switch interval is shortened meanwhile, so that the sampler gets its turns)."""

    def __init__(self, ident: int, interval: float = 0.0005) -> None:
        self.ident = ident
        self.clock = time.pthread_getcpuclockid(ident)
        self.interval = interval
        self.own: dict[tuple[str, int, str], float] = {}
        self.cum: dict[tuple[str, int, str], float] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.switch = sys.getswitchinterval()

    def run(self) -> None:
        last = time.clock_gettime(self.clock)
        while not self.stop.is_set():
            time.sleep(self.interval)
            frame = sys._current_frames().get(self.ident)
            now = time.clock_gettime(self.clock)
            spent, last = now - last, now
            seen = set()
            first = True
            while frame is not None:
                code = frame.f_code
                key = (code.co_filename, code.co_firstlineno, code.co_name)
                if first:
                    self.own[key] = self.own.get(key, 0.0) + spent
                    first = False
                if key not in seen:
                    seen.add(key)
                    self.cum[key] = self.cum.get(key, 0.0) + spent
                frame = frame.f_back

    def __enter__(self) -> Sampler:
        sys.setswitchinterval(self.interval / 5)
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self.thread.join()
        sys.setswitchinterval(self.switch)

    def report(self, moves: int, top: int) -> None:
        total = sum(self.own.values())
        harness = sum(
            t
            for (path, _line, _name), t in self.own.items()
            if any(part in path for part in ("tests/harness", "tests/e2e", "/bench/"))
        )
        print(
            f"samples of the event loop's thread: {total / moves * 1000:.2f} ms a move, of "
            f"which the harness and the bench (their own code) {harness / moves * 1000:.2f} ms"
        )
        for title, table in (("own time", self.own), ("cumulative time", self.cum)):
            print(f"top {top} by {title} (ms a move):")
            for key, t in sorted(table.items(), key=lambda kv: kv[1], reverse=True)[:top]:
                print(f"  {t / moves * 1000:7.3f}  {_where(key)}")


def _where(key: Any) -> str:
    path, lineno, name = key
    for root in ("/site-packages/", "/work/"):
        if root in path:
            path = path.split(root, 1)[1]
    return f"{path}:{lineno}({name})" if lineno else name


def print_profile(prof: cProfile.Profile, moves: int, top: int) -> None:
    """The event loop's thread under cProfile: the ``top`` functions by own time and by
    cumulative time, in ms a move (cProfile weighs Python-heavy code more than C calls), and
    the share of the harness's code (tests/harness, tests/e2e, bench) in the own time."""
    st = pstats.Stats(prof)
    entries: dict[Any, Any] = st.stats  # type: ignore[attr-defined]
    total = sum(tt for _cc, _nc, tt, _ct, _callers in entries.values())
    harness = sum(
        tt
        for (path, _line, _name), (_cc, _nc, tt, _ct, _callers) in entries.items()
        if any(part in path for part in ("tests/harness", "tests/e2e", "/bench/"))
    )
    print(
        f"profile of the event loop's thread (cProfile): {total / moves * 1000:.2f} ms a move "
        f"of own time, of which the harness and the bench {harness / moves * 1000:.2f} ms"
    )

    for title, index in (("own time", 2), ("cumulative time", 3)):
        print(f"top {top} by {title} (ms a move, calls a move):")
        ranked = sorted(entries.items(), key=lambda kv: kv[1][index], reverse=True)[:top]
        for key, (_cc, nc, tt, ct, _callers) in ranked:
            print(
                f"  {tt / moves * 1000:7.3f} own {ct / moves * 1000:7.3f} cum "
                f"{nc / moves:7.1f}  {_where(key)}"
            )


def line(name: str, ms: list[float]) -> str:
    return f"{name}: p50 {pct(ms, 50):.1f} ms, p99 {pct(ms, 99):.1f} ms (n={len(ms)})"


class Bench:
    def __init__(self, h: Harness, clock: FakeClock) -> None:
        self.h = h
        self.clock = clock
        assert h.bot is not None
        self.host: Host = h.bot.host  # type: ignore[union-attr]
        self.cog: Any = h.bot.get_cog("GameCog")
        self.users: list[FakeUser] = []
        #: game id -> (channel id, {user: seat})
        self.live: dict[int, tuple[int, dict[FakeUser, int]]] = {}

    def player(self, u: FakeUser) -> Player:
        return Player(u.id, u.name, "en")

    async def make_game(self, kind: str, rng: random.Random) -> int:
        """One MLEM game through the host, in a channel of its own: ``plain``, ``deadline``
        (a day per move) or ``autopilot`` (a player left; a bot plays the seat)."""
        n = rng.randint(2, 4)
        people = rng.sample(self.users, n)
        cid = int(self.h.backend.add_channel(f"g{len(self.live)}-{kind}")["id"])
        snap = await self.host.new_lobby(
            guild_id=self.h.guild_id,
            channel_id=cid,
            game_id="mlem",
            owner=self.player(people[0]),
            lang="en",
        )
        for u in people[1:]:
            await self.host.join(snap.id, self.player(u))
        if kind == "deadline":
            for _ in range(2):  # none -> 12h -> 1d
                await self.host.cycle_option(snap.id, "h.deadline", self.player(people[0]))
        await self.host.start(snap.id, self.player(people[0]))
        if kind == "autopilot":
            await self.host.leave(snap.id, self.player(people[-1]))
        await self.cog.publish(snap.id)
        self.live[snap.id] = (cid, {u: i for i, u in enumerate(people)})
        return snap.id

    async def clone(self, templates: list[int], total: int, rng: random.Random) -> list[int]:
        """Copies of the templates up to ``total`` games, in one transaction, each in a
        channel of its own with its waits moved back by up to a day and a half (what was
        due by now counted as done), and ``LOST`` of them in a deleted channel, lagging."""
        store = self.host.store
        assert isinstance(store, SqliteStore)
        now = self.clock.now()
        rows = {gid: (await self.host.by_id(gid)).row for gid in templates}
        waits = {gid: await store.waits(gid) for gid in templates}
        cols = (
            "guild_id, game, status, options, seed, version, state, lang, owner_id, "
            "table_to_move, created_at, updated_at, host_options, published_version, "
            "trail_seq, trail_key"
        )
        made: list[int] = []
        channels = [
            int(self.h.backend.add_channel(f"c{i}")["id"]) for i in range(total - len(templates))
        ]
        async with store.transaction() as db:
            for i, cid in enumerate(channels):
                src = templates[i % len(templates)]
                opts = rows[src].host_options
                span = pacing.seconds(opts.get("deadline"))
                back = rng.uniform(0, (span or 36 * HOUR) * 0.95)
                keep = {}
                for seat in waits[src]:
                    since = now - back
                    keep[seat] = (since, pacing.nudges_due(since, now, opts), 0)
                lost = i < LOST
                cur = await db.execute(
                    f"INSERT INTO games (channel_id, {cols}, wake_at) SELECT ?, {cols}, ? "
                    "FROM games WHERE id = ?",
                    (cid, pacing.wake_at(keep, opts), src),
                )
                gid = int(cur.lastrowid or 0)
                made.append(gid)
                for table, what in (
                    ("seats", "seat, user_id, is_bot, name, locale, dm_open, autopilot, missed"),
                    ("actions", "seq, seat, choice, by_user, by_bot, events, at, think"),
                ):
                    await db.execute(
                        f"INSERT INTO {table} (game_id, {what}) SELECT ?, {what} "
                        f"FROM {table} WHERE game_id = ?",
                        (gid, src),
                    )
                await db.executemany(
                    "INSERT INTO waits (game_id, seat, since, nudges, deadline) "
                    "VALUES (?, ?, ?, ?, ?)",
                    [(gid, seat, *w) for seat, w in keep.items()],
                )
                if lost:
                    self.h.backend.channels[cid]["deleted"] = True
                    await db.execute(
                        "UPDATE games SET published_version = version - 1 WHERE id = ?", (gid,)
                    )
        return made

    async def timed_tick(self) -> float:
        t0 = time.perf_counter()
        await self.cog.tick()
        return (time.perf_counter() - t0) * 1000


async def run(
    games: int,
    folder: str | None,
    rounds: int,
    workers: int,
    hard_bot: bool,
    only_live: bool,
    niceness: int | None = None,
    bot_workers: int = 1,
    profile: int = 0,
    profile_out: str | None = None,
    sample: int = 0,
    timeline_out: str | None = None,
    keep: bool = False,
) -> None:
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        settings = Settings(
            token="x",
            db_path=str(Path(tmp) / "scale.db"),
            tick_seconds=0,
            render_workers=workers,
            bot_workers=bot_workers,
        )
        clock, seeds = FakeClock(), random.Random(1)
        h = Harness(lambda: build_bot(settings, clock=clock, seeds=seeds))
        await h.start()
        pool = renderpool.current()
        if pool is not None and niceness is not None:
            # (as the bot's own: on a machine shared with other niced jobs the workers' +5
            # would measure the other jobs' share, not the bot's)
            await pool.close()
            pool = renderpool.RenderPool(workers, niceness=niceness)
            pool.start()
            renderpool.install(pool)
            h.bot.render_pool = pool  # type: ignore[union-attr]
        if pool is not None:
            await pool.ready()
        searchers = botpool.current()
        if searchers is not None:
            await searchers.ready()
        try:
            await measure(
                h,
                clock,
                games,
                rounds,
                hard_bot=hard_bot,
                only_live=only_live,
                profile=profile,
                profile_out=profile_out,
                sample=sample,
                timeline_out=timeline_out,
                keep=keep,
            )
        finally:
            await h.stop()


async def measure(
    h: Harness,
    clock: FakeClock,
    games: int,
    rounds: int,
    *,
    hard_bot: bool = False,
    only_live: bool = False,
    profile: int = 0,
    profile_out: str | None = None,
    sample: int = 0,
    timeline_out: str | None = None,
    keep: bool = False,
) -> None:
    rng = random.Random(14)
    b = Bench(h, clock)
    b.users = [h.user(f"P{i}", "en-US") for i in range(60)]
    t0 = time.perf_counter()
    kinds = ["plain"] * 30 + ["deadline"] * 8 + ["autopilot"] * 2
    templates = [await b.make_game(kind, rng) for kind in kinds[:TEMPLATES]]
    clones = await b.clone(templates, games, rng)
    print(
        f"{len(templates) + len(clones)} active games ready in {time.perf_counter() - t0:.0f} s "
        f"({LOST} with a deleted channel); {await memory()}"
    )
    if not only_live:
        await ticks_and_lone_clicks(b, clock, templates, clones, rounds, rng)
    live = [g for g in templates[1:] if g in b.live]
    searchers = botpool.current()
    cpu0, workers0 = time.process_time(), await workers_cpu()
    bots0 = await workers_cpu(searchers) if searchers else 0.0
    loop0 = time.thread_time()  # (this thread runs the event loop)
    threads0 = threads_cpu()
    # (timed by the thread's own CPU clock: the loop's waits in epoll count for nothing)
    prof = cProfile.Profile(time.thread_time) if profile else None
    if prof is not None:
        prof.enable()  # (this thread only: the event loop's)
    sampler = Sampler(threading.get_ident()) if sample else None
    timeline = Timeline() if timeline_out is not None else None
    with sampler or contextlib.nullcontext(), Hops() as hops:
        if hard_bot:
            with HardBot(b.host) as bot:
                moves, seconds, got = await twenty_at_once(b, live, rng, timeline, keep)
            where = "in the bot pool" if searchers else "in a thread of the bot's process"
            print(f"(a hard bot searching meanwhile, {where}: {bot.searches} searches)")
        else:
            moves, seconds, got = await twenty_at_once(b, live, rng, timeline, keep)
    if prof is not None:
        prof.disable()
    loop = time.thread_time() - loop0
    threads1 = threads_cpu()
    cpu, workers = time.process_time() - cpu0, await workers_cpu() - workers0
    bots = (await workers_cpu(searchers) if searchers else 0.0) - bots0
    print(f"{LIVE} games clicked at once: {moves / seconds:.0f} moves/s ({moves} moves)")
    print(
        f"CPU per move: the bot's process {cpu / moves * 1000:.1f} ms (its threads too; "
        f"the event loop's thread {loop / moves * 1000:.1f} ms), "
        f"render workers {workers / moves * 1000:.1f} ms, bot workers "
        f"{bots / moves * 1000:.1f} ms; load average {os.getloadavg()[0]:.1f}"
    )
    per = 1000 / moves
    spent = {k: v - threads0.get(k, 0.0) for k, v in threads1.items()}
    by_thread = ", ".join(
        f"{name} {t * per:.1f}"
        for name, t in sorted(spent.items(), key=lambda kv: -kv[1])
        if t * per >= 0.05
    )
    print(
        f"  by thread (ms a move): {by_thread}; database trips {hops.count / moves:.1f}, "
        f"tables sent {got.pictures / moves:.2f}, HTTP requests {got.requests / moves:.1f} a move"
    )
    print(
        f"  of which the clicks built before each round (Discord's work): "
        f"{got.building * per:.1f} ms (loop's thread {got.building_loop * per:.1f} ms); "
        f"without it, the bot's process {(cpu - got.building) * per:.1f} ms, "
        f"its loop's thread {(loop - got.building_loop) * per:.1f} ms"
    )
    if timeline is not None:
        timeline.report(timeline_out or None)
    if sampler is not None:
        sampler.report(moves, sample)
    if prof is not None:
        print_profile(prof, moves, profile)
        if profile_out:
            prof.dump_stats(profile_out)
            print(f"(the profile is in {profile_out}: python -m pstats {profile_out})")
    print(line(f"click→ack, {LIVE} games clicked at once (from its own click)", got.own_acks))
    print(line(f"click→ack, {LIVE} games clicked at once (from the round's start)", got.acks))
    print(line(f"click→image, {LIVE} games clicked at once", got.images))
    print(f"{await memory()} (peak of the bot's process {rss_mb()[1]:.0f} MB)")
    bands = pngbands.CACHE
    if kit.BANDED and bands.hits + bands.misses:
        print(
            f"PNG bands in the bot's process: {bands.hits / (bands.hits + bands.misses):.0%} "
            f"reused, cache {bands.bytes / 2**20:.1f} MB"
        )


async def ticks_and_lone_clicks(
    b: Bench,
    clock: FakeClock,
    templates: list[int],
    clones: list[int],
    rounds: int,
    rng: random.Random,
) -> None:
    """The ticks, a lone game clicked while a tick runs, and accepting moves."""

    first = await b.timed_tick()
    paused = [(await b.host.store.game(gid)) for gid in clones[:LOST]]
    paused_n = sum(1 for row in paused if row is not None and row.paused)
    print(f"first tick (pauses the lost channels: {paused_n} paused): {first:.0f} ms")
    idle = [await b.timed_tick() for _ in range(rounds)]
    print(line("tick, nothing due", idle))
    due_counts: list[int] = []
    busy: list[float] = []
    for _ in range(rounds):
        clock.advance(60)
        due_counts.append(len(await b.host.store.due_games(clock.now(), limit=10_000)))
        busy.append(await b.timed_tick())
    print(
        line("tick a minute later, the usual share due", busy)
        + f", {sum(due_counts) / len(due_counts):.1f} games due a minute"
    )

    # A lone game clicked while a tick runs: acknowledgement and image.
    lone = templates[0]
    cid, seats = b.live[lone]
    acks, images = await clicks_during_ticks(b, lone, cid, seats, rounds * 2)
    print(line("click→ack while a tick runs", acks))
    print(line("click→image while a tick runs", images))

    # Accepting a move (Host.play, no render) with 10,000 active games.
    accept: list[float] = []
    users = {u.id: u for u in b.users}
    for _ in range(1000):
        gid = rng.choice(templates[1:])
        snap = await b.host.by_id(gid)
        ds = [d for d in snap.decisions if snap.human(d.seat)]
        if not ds:
            continue
        d = rng.choice(ds)
        uid = snap.seats[d.seat].user_id
        assert uid in users
        t = time.perf_counter()
        # (as the cog does: a bot owed a move after it is moved in the background, not here)
        await b.host.play(gid, uid, d.seat, snap.token(d), rng.choice(d.options).id, bots=False)
        accept.append((time.perf_counter() - t) * 1000)
    print(line("accept a move (Host.play, no render)", accept))
    for gid in templates:  # show what the accept runs played
        await b.cog.publish(gid)


async def clicks_during_ticks(
    b: Bench, gid: int, cid: int, seats: dict[FakeUser, int], n: int
) -> tuple[list[float], list[float]]:
    """``n`` clicks on the lone game's table, each fed while a tick (a minute after the
    last) runs; the times of its acknowledgement and of its new table image."""
    h = b.h
    marks: dict[str, float] = {}
    inner = h.backend.http

    async def http(method: str, url: str, **kw: Any) -> Any:
        out = await inner(method, url, **kw)
        req = out[3]
        if "/callback" in req.path and "ack" not in marks:
            marks["ack"] = time.perf_counter()
        if f"/channels/{cid}/messages" in req.path and req.files and "image" not in marks:
            marks["image"] = time.perf_counter()
        return out

    h.backend.http = http  # type: ignore[method-assign]
    acks: list[float] = []
    images: list[float] = []
    rng = random.Random(3)
    try:
        for _ in range(n):
            table = driver.latest_table(h, cid)
            if driver.is_final(table):
                break
            waiting = [u for u in seats if u.id in driver.waiting_ids(table)]
            if not waiting:
                break
            user = rng.choice(waiting)
            pool = driver.offers(table, seats[user])
            if not pool:
                break
            offer = rng.choice(pool)
            b.clock.advance(60)
            marks.clear()
            tick = asyncio.create_task(b.cog.tick())
            await asyncio.sleep(0)  # the tick has started: it holds the loop between awaits
            values = None if offer.value is None else [offer.value]
            rec = h.build_click(user, offer.message, offer.custom_id, values=values)
            t0 = time.perf_counter()
            h.feed("INTERACTION_CREATE", rec.payload)
            await h.idle()
            await tick
            if "ack" in marks:
                acks.append((marks["ack"] - t0) * 1000)
            if "image" in marks:
                images.append((marks["image"] - t0) * 1000)
    finally:
        h.backend.http = inner  # type: ignore[method-assign]
    return acks, images


def timed_draw(
    kind: str, game_id: str, view: dict[str, Any], names: list[str], lang: str
) -> tuple[float, float, int, Any]:
    """:func:`host.renderpool.draw_described` in a worker, with when it started and ended
    there (``time.monotonic``: one clock for every process on Linux) and the worker's pid
    (``--timeline``)."""
    start = time.monotonic()
    out = renderpool.draw_described(kind, game_id, view, names, lang)
    return start, time.monotonic(), os.getpid(), out


class Timeline:
    """``--timeline``: when each click of a round of :func:`twenty_at_once` went through
    each step, on one clock (``time.monotonic``, ms from the round's start): fed to the
    bot, acknowledged, its move committed (``Host.play`` returned), its pictures asked of
    the render pool, started and ended in a worker, back on the event loop, and each of its
    HTTP requests answered (the trail, the table, the old table's deletion...); and when the
    event loop waited in its selector (idle) and when each worker drew. Printed: what a
    round's last picture waited for, step by step (the median over the rounds), and how
    busy the loop and the workers were in a round."""

    def __init__(self) -> None:
        self.t0 = 0.0
        self.rounds: list[dict[str, Any]] = []
        #: The game whose click the running task handles (tasks it starts inherit it).
        self.gid: contextvars.ContextVar[int | None] = contextvars.ContextVar("gid", default=None)
        self.sees_idle = True  # (the loop's selector hooked: asyncio's loop)

    def now(self) -> float:
        return (time.monotonic() - self.t0) * 1000

    def start_round(self) -> None:
        self.t0 = time.monotonic()
        self.rounds.append({"clicks": {}, "idle": [], "draws": [], "gc": [], "t0": self.t0})

    def collected(self, phase: str, info: dict[str, int]) -> None:
        """A ``gc.callbacks`` hook: each garbage collection in a round (from, to, gen)."""
        if phase == "start":
            self._gc = self.now()
        elif self.rounds:
            self.rounds[-1]["gc"].append((self._gc, self.now(), info["generation"]))

    def mark(self, gid: int | None, what: str, at: float | None = None) -> None:
        if gid is None or not self.rounds:
            return
        steps = self.rounds[-1]["clicks"].setdefault(gid, {})
        steps.setdefault(what, self.now() if at is None else at)
        steps[f"{what}*"] = self.now() if at is None else at  # (the last one too)

    def current_gid(self) -> int | None:
        return self.gid.get()

    def install(self, b: Bench) -> Callable[[], None]:
        """Hook the host, the render pool and the loop's selector; returns the undo."""
        host, loop = b.host, asyncio.get_running_loop()
        play, tl = host.play, self

        async def timed_play(gid: int, *args: Any, **kw: Any) -> Any:
            tl.gid.set(gid)
            tl.mark(gid, "play")
            try:
                return await play(gid, *args, **kw)
            finally:
                tl.mark(gid, "committed")

        host.play = timed_play  # type: ignore[method-assign, assignment]
        pool = renderpool.current()
        undo_pool: Callable[[], None] = lambda: None  # noqa: E731
        if pool is not None:
            described = pool.draw_described

            async def timed_described(kind: str, *args: Any) -> tuple[bool, Any]:
                gid = tl.current_gid()
                tl.mark(gid, f"{kind} asked")
                status, got = await pool.run(2, timed_draw, kind, *args)
                if status != "done":
                    return False, (None, "", None)
                start, end, pid, out = got
                tl.mark(gid, f"{kind} drawn from", (start - tl.t0) * 1000)
                tl.mark(gid, f"{kind} drawn to", (end - tl.t0) * 1000)
                tl.mark(gid, f"{kind} back")
                tl.rounds[-1]["draws"].append((pid, (start - tl.t0) * 1000, (end - tl.t0) * 1000))
                return True, out

            pool.draw_described = timed_described  # type: ignore[method-assign, assignment]

            def undo_pool() -> None:
                pool.draw_described = described  # type: ignore[method-assign]

        # (uvloop's loop, bot.loop_factory, waits in libuv, out of sight: no idle time seen)
        selector: Any = getattr(loop, "_selector", None)
        select = selector.select if selector is not None else None
        self.sees_idle = select is not None

        def timed_select(timeout: float | None = None) -> Any:
            t = time.monotonic()
            out = select(timeout)  # type: ignore[misc]
            if tl.rounds and time.monotonic() - t > 0.00005:
                tl.rounds[-1]["idle"].append(((t - tl.t0) * 1000, tl.now()))
            return out

        if selector is not None:
            selector.select = timed_select
        gc.callbacks.append(self.collected)

        def undo() -> None:
            host.play = play  # type: ignore[method-assign]
            undo_pool()
            if selector is not None:
                selector.select = select
            gc.callbacks.remove(self.collected)

        return undo

    def request(self, gid: int | None, kind: str) -> None:
        """An HTTP request of ``gid``'s click answered (``kind``: the harness's route)."""
        self.mark(gid, kind)

    STEPS = (
        ("fed", "fed"),
        ("acknowledged", "ack"),
        ("move asked of the host", "play"),
        ("move committed", "committed"),
        ("trail sent", "trail*"),
        ("table asked of the pool", "table asked"),
        ("drawing started in a worker", "table drawn from"),
        ("drawing ended", "table drawn to"),
        ("picture back on the loop", "table back"),
        ("table sent", "table sent"),
        ("old table deleted", "delete*"),
    )

    def report(self, out: str | None) -> None:
        """What each round's last picture waited for, and the cores' idle time."""
        lasts: list[dict[str, Any]] = []
        busy_loop, busy_workers, spans, asked, backs, sents = [], [], [], [], [], []
        for r in self.rounds:
            clicks = {g: s for g, s in r["clicks"].items() if "table sent" in s}
            if not clicks:
                continue
            last = max(clicks.values(), key=lambda s: s["table sent"])
            span = last["table sent"]
            lasts.append(last)
            spans.append(span)
            idle = sum(min(b, span) - a for a, b in r["idle"] if a < span)
            busy_loop.append(1 - idle / span)
            drawn = sum(min(b, span) - a for _pid, a, b in r["draws"] if a < span)
            busy_workers.append(drawn / span / max(1, len({p for p, _a, _b in r["draws"]})))
            asked.append(sorted(s.get("table asked", span) for s in clicks.values()))
            backs.append(sorted(s.get("table back", span) for s in clicks.values()))
            sents.append(sorted(s["table sent"] for s in clicks.values()))
        if not lasts:
            return
        print(f"timeline ({len(lasts)} rounds; ms from the round's start, median [p10–p90]):")
        print(f"  a round's last table sent: {_mid(spans)}")
        collections = [c for r in self.rounds for c in r["gc"]]
        if collections:
            took = [b - a for a, b, _gen in collections]
            print(
                f"  garbage collections in the rounds: {len(collections)} "
                f"({sum(1 for c in collections if c[2] == 2)} of the oldest generation), "
                f"{sum(took):.0f} ms in all, the longest {max(took):.1f} ms"
            )
        loop_busy = (
            f"the event loop busy {_mid([x * 100 for x in busy_loop], '%')} of the round"
            if self.sees_idle
            else "the event loop's idle time not seen (uvloop)"
        )
        print(
            f"  {loop_busy}, "
            f"each render worker drawing {_mid([x * 100 for x in busy_workers], '%')}"
        )
        for name, series in (("asked of the pool", asked), ("back on the loop", backs),
                             ("sent", sents)):  # fmt: skip
            firsts = [s[0] for s in series]
            mids = [s[len(s) // 2] for s in series]
            ends = [s[-1] for s in series]
            print(f"  tables {name}: first {_mid(firsts)}, tenth {_mid(mids)}, last {_mid(ends)}")
        every = [s for r in self.rounds for s in r["clicks"].values()]
        for name, a, b in (
            ("asked of the pool → drawing started (queued)", "table asked", "table drawn from"),
            ("drawing ended → back on the loop (delivery)", "table drawn to", "table back"),
            ("back on the loop → table sent", "table back", "table sent"),
        ):
            waits = [s[b] - s[a] for s in every if a in s and b in s]
            if waits:
                print(f"  every table, {name}: {_mid(waits)}")
        print("  the round's last table, step by step:")
        for label, key in self.STEPS:
            got = [s[key] for s in lasts if key in s]
            if got:
                print(f"    {label:32} {_mid(got)}")
        if out:
            import json

            Path(out).write_text(json.dumps(self.rounds, default=str))
            print(f"  (every round's timeline in {out})")


def _mid(xs: list[float], unit: str = " ms") -> str:
    xs = sorted(xs)
    if not xs:
        return "—"

    def at(q: float) -> float:
        return xs[min(len(xs) - 1, int(q * len(xs)))]

    return f"{at(0.5):.1f}{unit} [{at(0.1):.1f}–{at(0.9):.1f}]"


class Live:
    """Rounds of one click in each of ``LIVE`` games fed together; the times (ms from the
    round's start: its first click handed to the bot) of each acknowledgement and of each
    game's first picture on its channel (its new table), read off the harness's HTTP calls;
    and each acknowledgement's time from its own click (as Discord would measure it: the
    clicks fed one after the other, the bot parsing each as it comes)."""

    def __init__(self, b: Bench, gids: list[int]) -> None:
        self.b = b
        self.chosen = gids[:LIVE]
        self.channels = {b.live[gid][0] for gid in self.chosen}
        self.acks: list[float] = []
        self.own_acks: list[float] = []  # from each click's own arrival
        self.images: list[float] = []
        self.shown: set[int] = set()  # channels whose new table reached Discord this round
        #: Pictures posted or edited into the games' channels (a table superseded by a
        #: newer move before it was drawn is never sent: issue 23), and HTTP requests.
        self.pictures = 0
        self.requests = 0
        self.fed: dict[str, float] = {}  # interaction id -> when it was handed to the bot
        self.t0 = 0.0
        #: CPU seconds spent choosing and building the clicks before each round (the
        #: harness's work, which Discord does): the process's, and the loop thread's.
        self.building = 0.0
        self.building_loop = 0.0
        self.timeline: Timeline | None = None
        self.gid_of_channel = {b.live[gid][0]: gid for gid in self.chosen}
        self.gid_of_click: dict[str, int] = {}  # interaction id -> game id

    async def http(self, inner: Any, method: str, url: str, **kw: Any) -> Any:
        out = await inner(method, url, **kw)
        req = out[3]
        now = time.perf_counter()
        ms = (now - self.t0) * 1000
        parts = req.path.split("/")
        if "/callback" in req.path:
            self.acks.append(ms)
            # /interactions/<id>/<token>/callback
            if len(parts) > 2 and parts[2] in self.fed:
                self.own_acks.append((now - self.fed[parts[2]]) * 1000)
        self.requests += 1
        tl = self.timeline
        if tl is not None:
            if "/callback" in req.path:
                tl.mark(self.gid_of_click.get(parts[2] if len(parts) > 2 else ""), "ack")
            elif len(parts) > 2 and parts[1] == "channels" and parts[2].isdigit():
                what = "table sent" if req.files else {"DELETE": "delete"}.get(method, "trail")
                tl.mark(self.gid_of_channel.get(int(parts[2])), what)
        if req.files and len(parts) > 2 and parts[1] == "channels" and parts[2].isdigit():
            cid = int(parts[2])
            self.pictures += cid in self.channels
            if cid in self.channels and cid not in self.shown:
                self.shown.add(cid)
                self.images.append(ms)
        return out

    def clicks(self, rng: random.Random) -> list[dict[str, Any]]:
        h, clicks = self.b.h, []
        for gid in self.chosen:
            cid, seats = self.b.live[gid]
            table = driver.latest_table(h, cid)
            if driver.is_final(table):
                continue
            waiting = [u for u in seats if u.id in driver.waiting_ids(table)]
            offers = driver.offers(table, seats[waiting[0]]) if waiting else []
            if not offers:
                continue
            o = rng.choice(offers)
            values = None if o.value is None else [o.value]
            clicks.append({"user": waiting[0], "message": o.message, "custom_id": o.custom_id,
                           "values": values, "gid": gid})  # fmt: skip
        return clicks


async def twenty_at_once(
    b: Bench,
    gids: list[int],
    rng: random.Random,
    timeline: Timeline | None = None,
    keep: bool = False,
) -> tuple[int, float, Live]:
    """``LIVE_ROUNDS`` rounds (ten by default) of one click in each of ``LIVE`` games fed
    together: moves, seconds, and the click→acknowledgement and click→image times (ms, in
    :class:`Live`). The clicks' payloads are built before the round starts (the harness's
    work, which Discord does), after the offline Discord forgot what Discord keeps outside
    the bot (:func:`forget`; ``keep``: not). ``timeline``: each click's steps recorded
    there."""
    h, live = b.h, Live(b, gids)
    live.timeline = timeline
    moves, spent = 0, 0.0
    inner = h.backend.http
    undo = timeline.install(b) if timeline is not None else None

    h.backend.http = functools.partial(live.http, inner)  # type: ignore[method-assign]
    try:
        for _ in range(LIVE_ROUNDS):
            if not keep:
                forget(h)
            cpu0, loop0 = time.process_time(), time.thread_time()
            clicks = live.clicks(rng)
            if not clicks:
                break
            owners = [c.pop("gid") for c in clicks]
            records = [h.build_click(c.pop("user"), c.pop("message"), **c) for c in clicks]
            live.building += time.process_time() - cpu0
            live.building_loop += time.thread_time() - loop0
            live.shown.clear()
            if timeline is not None:
                timeline.start_round()
                live.gid_of_click = {str(r.id): g for r, g in zip(records, owners, strict=True)}
            live.t0 = time.perf_counter()
            for rec, gid in zip(records, owners, strict=True):
                live.fed[str(rec.id)] = time.perf_counter()
                if timeline is not None:
                    timeline.mark(gid, "fed")
                # (handed over, not copied: nothing reads these records' payloads again)
                h.feed("INTERACTION_CREATE", rec.payload, fresh=True)
                # As the gateway hands them over: one event per read of the socket, the loop
                # running what is ready in between (the click just fed starts).
                await asyncio.sleep(0)
            await h.idle()
            spent += time.perf_counter() - live.t0
            moves += len(clicks)
    finally:
        h.backend.http = inner  # type: ignore[method-assign]
        if undo is not None:
            undo()
    return moves, spent, live


def forget(h: Harness) -> None:
    """Between two rounds, drop what the offline Discord keeps for tests and Discord keeps
    outside the bot (every request made, every interaction, deleted messages, every older
    version of a message): in the bot's process here, it would weigh on its garbage
    collector as the bot's own memory never does."""
    backend = h.backend
    backend.requests.clear()
    backend.interactions.clear()
    backend.interactions_by_token.clear()
    gone = {mid for mid, m in backend.stored_messages.items() if m.deleted}
    for mid in gone:
        del backend.stored_messages[mid]
    for cid, order in backend.channel_order.items():
        backend.channel_order[cid] = [mid for mid in order if mid not in gone]
    for m in backend.stored_messages.values():
        del m.versions[:-1]


def sample_tables(n: int) -> list[tuple[str, str, dict[str, Any], list[str], str]]:
    """``n`` table jobs across the games, from seeded random play-outs cut at 0 to 57 moves."""
    found = []
    for seed in range(n):
        found += [job for job in jobs(seed, moves=seed % 20 * 3) if job[0] == "table"]
    return found[:n]


async def compare(workers: int, n: int = 100) -> None:
    """Tables per second: one thread under ``render.kit.LOCK`` (as before issue 23),
    ``workers`` threads without it (what threads with their own font faces could reach at
    best: the lock is lifted, the faces still shared), ``workers`` worker processes."""
    from concurrent.futures import ThreadPoolExecutor

    from render import kit

    jobs = sample_tables(n)
    for job in jobs[:10]:
        renderpool.draw(*job)  # fonts and layers loaded, as a warm worker's

    def threads(count: int) -> float:
        t = time.perf_counter()
        with ThreadPoolExecutor(count) as ex:
            list(ex.map(lambda job: renderpool.draw(*job), jobs))
        return time.perf_counter() - t

    one = threads(1)
    defaults = kit.picture_png.__kwdefaults__
    kit.picture_png.__kwdefaults__ = {"lock": _NoLock()}
    try:
        free = threads(workers)
    finally:
        kit.picture_png.__kwdefaults__ = defaults
    pool = renderpool.RenderPool(workers)
    pool.start()
    await pool.ready()
    t = time.perf_counter()
    await asyncio.gather(*(pool.draw(*job) for job in jobs))
    procs = time.perf_counter() - t
    await pool.close()
    print(f"{n} tables of every game: 1 thread (one lock) {n / one:.1f} tables/s; "
          f"{workers} threads, no lock {n / free:.1f}/s; "
          f"{workers} processes {n / procs:.1f}/s")  # fmt: skip


class _NoLock:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *_: object) -> None:
        return None


def main() -> None:
    global LIVE_ROUNDS
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument(
        "--dir", help="folder for the SQLite file, on the disk the bot will use (not tmpfs)"
    )
    ap.add_argument(
        "--workers",
        type=int,
        default=0,
        help="render worker processes (0: pictures drawn in-process, in a thread)",
    )
    ap.add_argument(
        "--hard-bot", action="store_true", help="a hard bot searching while the 20 games play"
    )
    ap.add_argument(
        "--bot-workers",
        type=int,
        default=1,
        help="bots' search worker processes (host/botpool.py; 0: searches in a thread)",
    )
    ap.add_argument(
        "--only-live",
        action="store_true",
        help="only the 20 games clicked at once (no ticks, lone clicks or accept runs)",
    )
    ap.add_argument(
        "--compare",
        action="store_true",
        help="only tables/s: one thread, --workers threads without the lock, --workers processes",
    )
    ap.add_argument(
        "--pillow",
        action="store_true",
        help="Pillow's PNG writer instead of the banded one (render/pngbands.py)",
    )
    ap.add_argument(
        "--png-threads",
        type=int,
        default=0,
        help="threads deflating a picture's bands (render.pngbands.THREADS; 0: none)",
    )
    ap.add_argument(
        "--worker-nice",
        type=int,
        default=None,
        help=f"the workers' niceness over the bot's (default {renderpool.NICENESS})",
    )
    ap.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="profile the event loop's thread (cProfile) over the 20 games' rounds and print "
        "its top N functions by own and by cumulative time",
    )
    ap.add_argument("--profile-out", metavar="FILE", help="with --profile: the pstats file")
    ap.add_argument(
        "--sample",
        type=int,
        default=0,
        metavar="N",
        help="sample the event loop's thread's stack (charged its CPU time) over the 20 "
        "games' rounds and print its top N functions by own and cumulative time",
    )
    ap.add_argument(
        "--timeline",
        nargs="?",
        const="",
        default=None,
        metavar="FILE",
        help="record each click's steps over the 20 games' rounds (fed, acknowledged, "
        "committed, drawn, sent) and print what a round's last picture waited for; FILE: "
        "every round's timeline as JSON",
    )
    ap.add_argument(
        "--live-rounds",
        type=int,
        default=LIVE_ROUNDS,
        help=f"rounds of one click in each of the {LIVE} games (default {LIVE_ROUNDS})",
    )
    ap.add_argument(
        "--keep-harness",
        action="store_true",
        help="the offline Discord keeps every request, interaction and message version "
        "between the 20 games' rounds (by default forgotten, as Discord keeps them outside "
        "the bot: they weigh on the bot's garbage collector)",
    )
    ap.add_argument(
        "--no-draw-ahead",
        action="store_true",
        help="a click's table drawn in its publish, not asked of the render pool the "
        "moment its move is committed (cogs.ahead.AheadMixin.draw_ahead)",
    )
    ap.add_argument(
        "--switch-interval",
        type=float,
        default=None,
        metavar="MS",
        help="the interpreter's switch interval (ms) in the bot's process",
    )
    args = ap.parse_args()
    LIVE_ROUNDS = args.live_rounds
    if args.switch_interval is not None:
        sys.setswitchinterval(args.switch_interval / 1000)
    if args.no_draw_ahead:
        from cogs.ahead import AheadMixin

        AheadMixin.draw_ahead_on = False
    if args.pillow:  # (before any render worker starts: they inherit the environment)
        os.environ["COSMODROME_PNG_BANDS"] = "0"
        kit.BANDED = False
    if args.png_threads:
        os.environ["COSMODROME_PNG_THREADS"] = str(args.png_threads)
        pngbands.THREADS = args.png_threads
    if args.compare:
        run_loop(compare(max(1, args.workers)))
        return
    run_loop(  # the bot's own event loop (bot.loop_factory)
        run(
            args.games,
            args.dir,
            args.rounds,
            args.workers,
            args.hard_bot,
            args.only_live,
            args.worker_nice,
            args.bot_workers,
            args.profile,
            args.profile_out,
            args.sample,
            args.timeline,
            args.keep_harness,
        )
    )


if __name__ == "__main__":
    main()
