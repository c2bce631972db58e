"""The bots' search pool (issue 23) with real worker processes: a search in a worker gives
the move the in-thread search gives for the same position (every game, every level); a
search whose worker raises, is killed or hangs still gives the bot a move (the game's
heuristic) and the workers are replaced; a pool that cannot search leaves the search to a
thread of the bot's process; and a whole bot with a bot worker plays its bots through it.

The other tests search in a thread (``Settings.bot_workers`` is 0 unless set)."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot import Cosmodrome, build_bot
from core.contract import IllegalMove, answers, check_picks
from host import botpool, registry, renderpool
from host.clock import FakeClock
from host.records import Snapshot
from host.rows import SeatRow
from host.sessions import Host
from host.settings import Settings, SettingsError
from tests.e2e.driver import play_turn
from tests.e2e.kit import host_of, open_game
from tests.e2e.kit import snapshot as snapshot_of
from tests.harness import Harness
from tests.host.kit import game_row
from tests.render.kit import random_states

#: The levels searched here: the lobby's easy and normal as they are, hard with the real
#: level's shape and a smaller budget (the real one takes up to 2 s a decision).
LEVELS = {
    "easy": registry.bot_levels()["easy"],
    "normal": registry.bot_levels()["normal"],
    "hard": type(registry.bot_levels()["hard"])(playouts=8, depth=4),
}


def snapshot(game_id: str, state: Any, level: str, version: int) -> Snapshot:
    """A game of ``game_id`` at ``state`` whose every seat is a bot at ``level`` (as
    ``Host.by_id`` reads one: the row holds the state's dump)."""
    game = registry.get(game_id)
    row = game_row(game_id, version=version, seed=11, state=game.dump(state))
    seats = [SeatRow(1, i, None, True, f"Bot {i}", "en", False, level=level) for i in range(3)]
    snap = Snapshot(row=row, seats=seats, game=game, state=state)
    snap.decisions = game.pending(state)
    return snap


def bare_host() -> Host:
    """A Host with nothing but what ``bot_pick`` reads (no storage)."""
    host = Host.__new__(Host)
    host._chooser, host.bot_budgets = None, dict(LEVELS)
    return host


def positions(per_game: int = 3) -> Iterator[tuple[str, Any]]:
    """Seeded positions of every game (three players): a few random moves in, each with a
    decision open."""
    for game_id in registry.GAME_MODULES:
        game = registry.get(game_id)
        for seed in range(per_game):
            states = random_states(game, 3, seed, limit=6 + 9 * seed)
            live = [s for s in states if game.result(s) is None and game.pending(s)]
            yield game_id, live[-1]


@pytest.fixture
async def pool() -> Any:
    p = botpool.BotPool(1, warm=False)
    p.start()
    await p.ready()
    botpool.install(p)
    try:
        yield p
    finally:
        botpool.install(None)
        await p.close()


async def picks(host: Host, snap: Snapshot) -> list[str]:
    return [await host.bot_pick(snap, d.seat) for d in snap.decisions[:2]]


async def test_a_worker_searches_the_same_move_as_the_thread(pool: botpool.BotPool) -> None:
    host = bare_host()
    compared = set()
    for i, (game_id, state) in enumerate(positions()):
        for level in LEVELS:
            snap = snapshot(game_id, state, level, version=i + 1)
            before = pool.searches
            in_worker = await picks(host, snap)
            assert pool.searches - before == len(in_worker)  # every one searched there
            botpool.install(None)
            try:
                in_thread = await picks(host, snap)
            finally:
                botpool.install(pool)
            assert in_worker == in_thread, (game_id, level, i)
            compared.add((game_id, level))
    assert compared == {(g, lv) for g in registry.GAME_MODULES for lv in LEVELS}
    for pid in await pool.pids():  # nicer than the bot and its render workers
        mine = os.getpriority(os.PRIO_PROCESS, 0)
        assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, mine + botpool.NICENESS)


async def test_several_games_searching_at_once_wait_their_turn(pool: botpool.BotPool) -> None:
    # Every game's bots asking at once (one worker): each search waits for the worker,
    # none is lost or mixed up with another's.
    host = bare_host()
    snaps = [snapshot(g, s, "hard", version=i + 1) for i, (g, s) in enumerate(positions(1))]
    asked = [(snap, d.seat) for snap in snaps for d in snap.decisions[:2]]
    at_once = await asyncio.gather(*(host.bot_pick(snap, seat) for snap, seat in asked))
    assert pool.searches == len(asked) and pool.replaced == 0
    botpool.install(None)
    assert list(at_once) == [await host.bot_pick(snap, seat) for snap, seat in asked]


def fallback(snap: Snapshot, seat: int) -> str:
    """The game's heuristic answer, as ``bot_pick`` plays it when a search fails."""
    seed = f"{snap.row.seed}:bot:{snap.row.version}:{seat}"
    return str(snap.game.bot_choice(snap.state, seat, random.Random(seed)))  # type: ignore[attr-defined]


def mlem_snapshot(level: str = "hard") -> Snapshot:
    game_id, state = next(p for p in positions(1) if p[0] == "mlem")
    return snapshot(game_id, state, level, version=3)


async def test_a_search_that_raises_in_the_worker_plays_the_heuristic(
    pool: botpool.BotPool,
) -> None:
    host = bare_host()
    host.bot_budgets["hard"] = "no such level"  # the engine refuses it, in the worker
    snap = mlem_snapshot()
    seat = snap.decisions[0].seat
    assert await host.bot_pick(snap, seat) == fallback(snap, seat)
    assert pool.replaced == 0 and not pool.broken  # the worker itself is fine
    host.bot_budgets = dict(LEVELS)
    botpool.install(None)
    expected = await host.bot_pick(snap, seat)
    botpool.install(pool)
    assert await host.bot_pick(snap, seat) == expected


async def test_an_error_that_cannot_be_sent_back_does_not_break_the_pool(
    pool: botpool.BotPool,
) -> None:
    # The rules' IllegalMove does not survive pickling (its arguments are keywords): raised
    # in a worker, the executor would take it for a dead worker and kill the workers.
    decision = mlem_snapshot().decisions[0]
    with pytest.raises(IllegalMove):
        check_picks(decision, "no such option")
    with pytest.raises(renderpool.WorkerError, match=r"IllegalMove: host\.error\.not_offered"):
        await pool.run(1, check_picks, decision, "no such option")
    with pytest.raises(KeyError, match="unknown game"):  # one that does: as it is
        await pool.run(1, registry.get, "no such game")
    assert pool.replaced == 0 and not pool.broken
    status, pid = await pool.run(1, renderpool.worker_pid)  # the same worker goes on
    assert status == "done" and {pid} == await pool.pids()


async def test_a_killed_worker_loses_its_search_and_is_replaced(pool: botpool.BotPool) -> None:
    host = bare_host()
    snap = mlem_snapshot()
    seat = snap.decisions[0].seat
    (pid,) = await pool.pids()
    os.kill(pid, signal.SIGSTOP)  # (so that the search cannot end before the kill)
    picking = asyncio.create_task(host.bot_pick(snap, seat))
    while not getattr(pool._executor, "_pending_work_items", None):
        await asyncio.sleep(0)  # (the loop's turn, no clock) until the search is handed over
    os.kill(pid, signal.SIGKILL)  # its only worker, mid-search: the search is lost
    answer = await picking
    assert answer == fallback(snap, seat)
    assert any(answers(d, answer) for d in snap.decisions_for(seat))
    assert pool.replaced == 1 and not pool.broken
    assert pid not in await pool.pids()
    searched = pool.searches
    again = await host.bot_pick(snap, seat)  # the fresh worker searches again
    assert pool.searches == searched + 1
    botpool.install(None)
    assert again == await host.bot_pick(snap, seat)


async def test_a_worker_killed_while_idle_costs_no_search(pool: botpool.BotPool) -> None:
    # Killed between two moves (the out-of-memory killer, an operator): the next search
    # goes to a fresh worker and gives the searched move, not the heuristic.
    host = bare_host()
    snap = mlem_snapshot()
    seat = snap.decisions[0].seat
    botpool.install(None)
    expected = await host.bot_pick(snap, seat)
    botpool.install(pool)
    assert expected != fallback(snap, seat)  # (else this test would tell nothing)
    executor = pool._executor
    assert executor is not None
    (pid,) = await pool.pids()
    os.kill(pid, signal.SIGKILL)
    # (no clock: the executor's manager thread ends once it has marked the pool broken)
    await asyncio.to_thread(executor._executor_manager_thread.join)  # type: ignore[attr-defined]
    assert await host.bot_pick(snap, seat) == expected
    assert pool.searches == 1 and pool.replaced == 1 and not pool.broken
    assert pid not in await pool.pids()


async def test_a_hung_worker_is_killed_and_replaced(pool: botpool.BotPool) -> None:
    host = bare_host()
    snap = mlem_snapshot()
    seat = snap.decisions[0].seat
    (pid,) = await pool.pids()
    os.kill(pid, signal.SIGSTOP)  # hung, using no CPU: caught by the wall-clock backstop
    pool.timeout = 0.5  # (a stopped worker never answers: the outcome is the same)
    try:
        assert await host.bot_pick(snap, seat) == fallback(snap, seat)
    finally:
        pool.timeout = botpool.BACKSTOP if botpool.CPU_TIMED else botpool.TIMEOUT
    assert pool.replaced == 1 and pid not in await pool.pids()
    searched = pool.searches
    await host.bot_pick(snap, seat)
    assert pool.searches == searched + 1


def handed_over(pool: botpool.BotPool) -> list[Any]:
    """The calls handed to the pool's executor (queued for its workers, or running)."""
    return list((getattr(pool._executor, "_pending_work_items", None) or {}).values())


async def test_closing_does_not_wait_for_a_hung_search(pool: botpool.BotPool) -> None:
    # The bot stopping while a worker hangs mid-search: the worker is killed after the
    # grace, the close returns, and the search's caller still gets a move.
    host = bare_host()
    snap = mlem_snapshot()
    seat = snap.decisions[0].seat
    (pid,) = await pool.pids()
    workers = list(pool._executor._processes.values())  # type: ignore[union-attr]
    os.kill(pid, signal.SIGSTOP)  # hung: it will never answer
    picking = asyncio.create_task(host.bot_pick(snap, seat))
    while not any(item.future.running() for item in handed_over(pool)):
        await asyncio.sleep(0)  # (the loop's turn, no clock) until the worker has it
    pool.close_grace = 0.2  # (a stopped worker never answers: the outcome is the same)
    await pool.close()
    assert [w.exitcode for w in workers] == [-signal.SIGKILL]
    assert await picking == fallback(snap, seat)  # its search lost: the heuristic


async def test_a_pool_that_cannot_search_leaves_it_to_a_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    host = bare_host()
    snap = mlem_snapshot()
    seat = snap.decisions[0].seat
    expected = await host.bot_pick(snap, seat)

    def cannot_start(*_: Any, **__: Any) -> Any:
        raise OSError("no more processes")

    monkeypatch.setattr(renderpool, "ProcessPoolExecutor", cannot_start)
    broken = botpool.BotPool(1)
    broken.start()
    assert broken.broken
    monkeypatch.undo()
    closed = botpool.BotPool(1, warm=False)
    closed.start()
    await closed.close()
    for p in (broken, closed):
        botpool.install(p)
        try:
            assert await host.bot_pick(snap, seat) == expected
        finally:
            botpool.install(None)
        assert p.searches == 0
    # A chooser of the tests' own, or a game the registry does not know: in a thread too.
    assert botpool.searcher(snap.game, "mlem", snap.row.state) is None  # (none installed)
    botpool.install(closed)
    try:
        assert botpool.searcher(snap.game, "kosmonavts", snap.row.state) is None
        assert botpool.searcher(snap.game, "mlem", None) is None
        assert botpool.searcher(snap.game, "mlem", snap.row.state) is closed
    finally:
        botpool.install(None)


@pytest.fixture
def bot_factory(db_path: Path, clock: FakeClock) -> Callable[[], Cosmodrome]:
    settings = Settings(token="t", db_path=str(db_path), tick_seconds=0, bot_workers=1)
    seeds = random.Random(2024)
    return lambda: build_bot(settings, clock=clock, seeds=seeds)


async def test_a_bot_with_a_bot_worker_plays_its_bots_through_it(harness: Harness) -> None:
    h = harness
    pool = botpool.current()
    assert pool is not None and pool.workers == 1
    assert pool.clock is host_of(h).clock  # (its cool-downs in the house's clock)
    await pool.ready()
    ana = h.user("Ana", "en-US")
    await open_game(h, "mlem", ana, bots=2)
    rng = random.Random(1)
    for _ in range(3):
        await play_turn(h, {ana: 0}, rng)
    snap = await snapshot_of(h)
    assert sum(n for seat, n in snap.moves_by_seat.items() if seat > 0) > 0
    assert pool.searches > 0  # every bot move was searched in the worker
    await h.stop()
    assert botpool.current() is None and pool.closed


async def test_a_restart_with_a_bot_move_owed_plays_it_through_the_fresh_pool(
    harness: Harness,
) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "es-ES")
    await open_game(h, "mlem", ana, [ben], bots=1)
    rng = random.Random(3)
    await play_turn(h, {ana: 0, ben: 1}, rng)
    # Ben's seat handed to a bot behind the bot's back: nothing plays it before the restart.
    before = await snapshot_of(h)
    seat = next(s for s in before.to_move() if before.human(s))
    await host_of(h).store.update_seat(before.id, seat, is_bot=True, autopilot=True)
    owed = await snapshot_of(h)
    assert host_of(h).bot_to_move(owed) == seat
    old = botpool.current()
    botpool.install(None)
    expected = await host_of(h).bot_pick(owed, seat)  # the search in a thread
    botpool.install(old)
    await h.restart()
    pool = botpool.current()
    assert pool is not None and pool is not old and old is not None and old.closed
    # At start-up the fresh bot finds the move owed and plays it, searched in its pool.
    played = sum(owed.moves_by_seat.values())
    moves = [a for a in await host_of(h).store.actions(owed.id) if a.seq > played]
    assert moves and moves[0].seat == seat and moves[0].by_bot
    assert moves[0].choice == expected and pool.searches >= 1


def test_the_setting() -> None:
    def workers(value: str | None) -> int:
        env = {} if value is None else {"COSMODROME_BOT_WORKERS": value}
        return Settings.from_env(env=env, dotenv=None).bot_workers

    assert workers(None) == 1
    assert workers("0") == 0 and workers(" 2 ") == 2
    for bad in ("-1", "two", "65", "1.5"):
        with pytest.raises(SettingsError, match="COSMODROME_BOT_WORKERS"):
            workers(bad)
    assert Settings().bot_workers == 0  # built in code (tests, benchmarks): in a thread
