"""A click's table drawn ahead (issue 23): with render workers, the new table's picture is
asked of the pool the moment the move is committed (before its publish has read the game,
written the trail and built the embed), so the picture is drawn while the event loop does
the rest. The publish takes that picture when it shows the same view, names and language
(the same bytes), else draws its own; a game whose publish is running draws nothing ahead
(a newer move could make the picture one nobody sees).

The pool here is a stand-in that draws in-process (real workers draw the same bytes:
tests/host/test_render_pool.py) and records the order of things."""

from __future__ import annotations

import asyncio
import functools
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot import build_bot
from host import renderpool
from host.clock import FakeClock
from host.settings import Settings
from tests.e2e.driver import latest_table, play_turn
from tests.e2e.kit import (
    cog_of,
    host_of,
    numbered_snowflakes,
    open_game,
    snapshot,
    table_picture,
)
from tests.harness import Harness
from tests.harness.models import FakeUser


class Pool:
    """A render pool drawing in-process, recording each picture asked for (a view in
    ``held``: its drawing waits until ``release`` is set)."""

    broken = closed = False

    def __init__(self, events: list[tuple[str, Any]]) -> None:
        self.events = events
        self.held: list[dict[str, Any]] = []
        self.release = asyncio.Event()

    async def draw_described(
        self, kind: str, game_id: str, view: dict[str, Any], names: list[str], lang: str
    ) -> tuple[bool, renderpool.Described]:
        self.events.append((f"draw {kind}", view))
        await asyncio.sleep(0)  # (handed over: a worker draws it meanwhile)
        if view in self.held:
            await self.release.wait()
        return True, renderpool.draw_described(kind, game_id, view, names, lang)


@pytest.fixture
async def events(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[list]:
    """What happened, in order: each picture asked of the pool, each publish's read of the
    game (when it has been read)."""
    got: list[tuple[str, Any]] = []
    store = host_of(harness).store
    for_publish = store.for_publish

    async def read(gid: int, limit: int) -> Any:
        found = await for_publish(gid, limit)
        got.append(("read", gid))  # (read: the loop ran what was ready meanwhile)
        return found

    monkeypatch.setattr(store, "for_publish", read)
    renderpool.install(Pool(got))  # type: ignore[arg-type]
    try:
        yield got
    finally:
        renderpool.install(None)


async def two_players(h: Harness) -> dict[FakeUser, int]:
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "es-ES")
    await open_game(h, "mlem", ana, [ben])
    return {ana: 0, ben: 1}


async def test_a_clicks_table_is_drawn_before_its_publish_reads_the_game(
    harness: Harness, events: list[tuple[str, Any]]
) -> None:
    h = harness
    seats = await two_players(h)
    rng = random.Random(3)
    for _ in range(6):
        events.clear()
        await play_turn(h, seats, rng)
        await h.idle()
        snap = await snapshot(h)
        kinds = [what for what, _ in events]
        # Drawn once, asked before the publish had read the game; and it is the table shown.
        assert kinds.count("draw table") == 1, kinds
        assert kinds.index("draw table") < kinds.index("read"), kinds
        drawn = next(view for what, view in events if what == "draw table")
        assert drawn == snap.view(None)
        assert table_picture(latest_table(h)) == renderpool.draw(
            "table", "mlem", snap.view(None), snap.names, snap.row.lang
        )
        assert not cog_of(h).drawn_ahead  # taken by its publish


@pytest.mark.parametrize("game", ["mlem", "kosmonavts"])
async def test_the_same_channel_with_and_without_drawing_ahead(
    make_harness: Any, tmp_path: Path, game: str
) -> None:
    """Every request the bot makes to Discord (messages, embeds, buttons, pictures and
    their alt texts, the DMs' private pictures) in a few turns is the same whether the
    tables are drawn ahead (a pool) or in the publish (none); Kosmonavts: secret orders."""
    shown = []
    for pool in (None, Pool([])):
        settings = Settings(
            token="t", db_path=str(tmp_path / f"{pool is None}.db"), tick_seconds=0
        )
        seeds, clock = random.Random(2024), FakeClock()
        h = await make_harness(functools.partial(build_bot, settings, clock=clock, seeds=seeds))
        renderpool.install(pool)  # type: ignore[arg-type]
        try:
            if game == "mlem":
                seats = await two_players(h)
            else:
                users = [h.user("Ana", "en-US"), h.user("Ben", "es-ES"), h.user("Cai", "en-US")]
                await open_game(h, game, users[0], users[1:])
                seats = {u: seat for seat, u in enumerate(users)}
            rng = random.Random(8)
            for _ in range(8 if game == "mlem" else 24):
                await play_turn(h, seats, rng)
            await h.idle()
            said = [
                numbered_snowflakes(json.dumps([r.method, r.path, r.json]))
                for r in h.backend.requests
            ]
            files = [[(f.filename, f.data) for f in r.files] for r in h.backend.requests]
            shown.append((said, files))
        finally:
            renderpool.install(None)
            await h.stop()
    assert shown[0] == shown[1]


async def test_a_newer_move_before_the_table_is_drawn_shows_the_newest(
    harness: Harness, events: list[tuple[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The picture drawn ahead is left when a newer move is stored before the publish
    draws: the newest table is drawn and shown."""
    h = harness
    seats = await two_players(h)
    cog, host = cog_of(h), host_of(h)
    trail = cog.write_trail
    queued: list[asyncio.Task[None]] = []

    async def write_trail(snap: Any, public: Any) -> bool:
        below = bool(await trail(snap, public))
        if not queued:  # the click's publish, about to draw: another move lands
            now = await snapshot(h)
            d = now.decisions[0]
            uid = now.seats[d.seat].user_id
            await host.play(now.id, uid, d.seat, now.token(d), d.options[0].id, bots=False)
            queued.append(asyncio.create_task(cog.publish(now.id)))
            await asyncio.sleep(0)
        return below

    monkeypatch.setattr(cog, "write_trail", write_trail)
    events.clear()
    await play_turn(h, seats, random.Random(5))
    await asyncio.gather(*queued)
    await h.idle()
    newest = await snapshot(h)
    assert newest.row.published_version == newest.row.version
    drawn = [view for what, view in events if what == "draw table"]
    assert drawn[-1] == newest.view(None) and drawn[0] != newest.view(None)
    assert table_picture(latest_table(h)) == renderpool.draw(
        "table", "mlem", newest.view(None), newest.names, newest.row.lang
    )


async def test_nothing_is_drawn_ahead_while_the_games_publish_runs(
    harness: Harness, events: list[tuple[str, Any]]
) -> None:
    h = harness
    await two_players(h)
    cog = cog_of(h)
    snap = await snapshot(h)
    events.clear()
    async with cog.publish_locks[snap.id]:
        cog.draw_ahead(snap)
        assert snap.id not in cog.drawn_ahead
    cog.draw_ahead(snap)
    assert snap.id in cog.drawn_ahead
    await h.idle()
    assert [what for what, _ in events] == ["draw table"]
    renderpool.install(None)  # without render workers: none drawn ahead
    cog.drawn_ahead.clear()
    cog.draw_ahead(snap)
    assert not cog.drawn_ahead


async def test_a_table_drawn_ahead_and_not_shown_is_stopped(
    harness: Harness, events: list[tuple[str, Any]]
) -> None:
    """A picture drawn ahead that will not be shown (replaced by a newer move's, or taken
    by a publish that shows another view or nothing new) stops drawing: no worker time,
    no task left running (nor at shutdown). A pool that cannot draw gets none ahead."""
    h = harness
    seats = await two_players(h)
    cog = cog_of(h)
    pool = renderpool.current()
    assert isinstance(pool, Pool)
    before = await snapshot(h)
    await play_turn(h, seats, random.Random(5))
    await h.idle()
    now = await snapshot(h)
    assert now.view(None) != before.view(None)
    pool.held.append(before.view(None))  # its drawing never ends by itself

    cog.draw_ahead(before)
    first = cog.drawn_ahead[before.id][3]
    cog.draw_ahead(before)  # a newer move's (here the same) replaces it
    await asyncio.sleep(0)
    assert first.cancelled()
    stale = cog.drawn_ahead[before.id][3]
    events.clear()
    await cog.publish(now.id)  # shows the game as it is: not that picture
    await h.idle()
    assert stale.cancelled() and not cog.drawn_ahead
    assert table_picture(latest_table(h)) == renderpool.draw(
        "table", "mlem", now.view(None), now.names, now.row.lang
    )

    for attr in ("broken", "closed"):
        setattr(pool, attr, True)
        cog.draw_ahead(now)
        assert not cog.drawn_ahead
        setattr(pool, attr, False)

    cog.draw_ahead(before)  # still drawing when the bot stops: stopped with it
    left = cog.drawn_ahead[before.id][3]
    await h.restart()
    assert left.cancelled()


async def test_a_failed_or_cancelled_drawing_ahead_is_drawn_again(
    harness: Harness, events: list[tuple[str, Any]]
) -> None:
    """The picture drawn ahead failed, or was cancelled by someone else: the publish draws
    the table itself and shows it (it is not cancelled with it)."""
    h = harness
    seats = await two_players(h)
    cog = cog_of(h)
    for spoil in ("fail", "cancel"):
        await play_turn(h, seats, random.Random(7))
        await h.idle()
        snap = await snapshot(h)
        loop = asyncio.get_running_loop()
        spoiled: asyncio.Future[Any] = loop.create_future()
        if spoil == "fail":
            spoiled.set_exception(RuntimeError("a worker's bad day"))
        else:
            spoiled.cancel()
        view, names, lang = snap.view(None), snap.names, snap.row.lang
        picture = await cog.table_picture(snap, lang, (view, names, lang, spoiled))
        assert picture == await cog.table_picture(snap, lang, None)


@pytest.mark.parametrize("how", ["fails", "cancelled"])
async def test_a_drawing_ahead_that_fails_is_drawn_again_by_the_publish(
    harness: Harness, events: list[tuple[str, Any]], monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    h = harness
    seats = await two_players(h)
    cog = cog_of(h)
    draw_ahead = cog.draw_ahead
    pool: Any = renderpool.current()
    draw = pool.draw_described

    def spoiled(snap: Any, before: Any = None) -> None:
        draw_ahead(snap, before)
        if how == "cancelled":  # (as when the bot closes)
            cog.drawn_ahead[snap.id][3].cancel()

    calls: list[str] = []

    async def failing(*args: Any) -> Any:
        calls.append(args[0])
        if len(calls) == 1:  # the drawing ahead
            raise RuntimeError("a drawing that fails")
        return await draw(*args)

    monkeypatch.setattr(cog, "draw_ahead", spoiled)
    if how == "fails":
        monkeypatch.setattr(pool, "draw_described", failing)
    events.clear()
    await play_turn(h, seats, random.Random(2))
    await h.idle()
    snap = await snapshot(h)
    assert snap.row.published_version == snap.row.version
    assert table_picture(latest_table(h)) == renderpool.draw(
        "table", "mlem", snap.view(None), snap.names, snap.row.lang
    )
    assert not cog.drawn_ahead
    if how == "fails":
        assert calls == ["table", "table"]  # drawn ahead (failed), then by the publish


async def test_a_move_that_changes_no_picture_draws_none_ahead(
    harness: Harness, events: list[tuple[str, Any]]
) -> None:
    """Kosmonavts' secret orders change nothing the table's picture shows, and their
    publish most often shows nothing new: no table is drawn ahead for them (before, every
    click drew one: 60 tables drawn for 22 shown in these 60 clicks)."""
    h = harness
    ana, ben, cai = h.user("Ana", "en-US"), h.user("Ben", "es-ES"), h.user("Cai", "en-US")
    await open_game(h, "kosmonavts", ana, [ben, cai])
    seats = {ana: 0, ben: 1, cai: 2}
    rng = random.Random(4)
    events.clear()
    start = len(h.requests)
    for _ in range(60):
        assert await play_turn(h, seats, rng) is not None
        await h.idle()
    drawn = [what for what, _ in events].count("draw table")
    shown = sum(1 for r in h.requests[start:] for f in r.files if f.filename == "table.png")
    assert drawn == shown == 22
