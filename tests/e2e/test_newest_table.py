"""Newest table only (issue 23): when a game's table is being published and newer moves of
the same game are stored already (their publishes wait for this one), the table drawn and
posted is the newest one, once; the intermediate tables are never drawn. Private pictures
likewise for a seat whose panel changes move after move.

The moves land at a chosen point of the first publish (after its trail is written, just
before its table is drawn; or as it reads the seats' DM panels): each is committed through
the host and followed by the cog's publish, as a click does, which waits on the game's
publish lock."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from cogs import present
from tests.conftest import render_views as views
from tests.e2e.driver import play_turn, tables_ever
from tests.e2e.kit import cog_of, host_of, open_game, snapshot
from tests.harness import Harness
from tests.harness.models import FakeUser


async def land_moves(h: Harness, n: int, queued: list[asyncio.Task[None]], seat: int) -> int:
    """``n`` moves of ``seat``, each committed and its publish queued; the version after."""
    host, cog = host_of(h), cog_of(h)
    for _ in range(n):
        snap = await snapshot(h)
        d = next(d for d in snap.decisions if d.seat == seat)
        uid = snap.seats[seat].user_id
        await host.play(snap.id, uid, seat, snap.token(d), d.options[0].id, bots=False)
        queued.append(asyncio.create_task(cog.publish(snap.id)))
        await asyncio.sleep(0)  # (no clock) it runs up to the game's publish lock and waits
    assert cog.publish_locks.waiting(snap.id) == n
    return int((await snapshot(h)).row.version)


async def two_players(h: Harness, game: str) -> tuple[FakeUser, FakeUser]:
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "es-ES")
    await open_game(h, game, ana, [ben])
    return ana, ben


async def test_two_moves_waiting_draw_one_table_the_newest(
    harness: Harness, renders: list[tuple[str, int | None]], monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    ana, ben = await two_players(h, "mlem")
    cog = cog_of(h)
    queued: list[asyncio.Task[None]] = []
    landed: list[int] = []
    trail = cog.write_trail

    async def write_trail(snap: Any, public: Any) -> bool:
        below = bool(await trail(snap, public))
        if not landed:  # the first publish, about to draw: two more moves land
            seat = (await snapshot(h)).decisions[0].seat
            landed.append(await land_moves(h, 2, queued, seat))
        return below

    monkeypatch.setattr(cog, "write_trail", write_trail)
    before = len(tables_ever(h))
    renders.clear()
    views.clear()
    await play_turn(h, {ana: 0, ben: 1}, random.Random(4))
    await h.idle()
    await asyncio.gather(*queued)
    await h.idle()
    row = (await snapshot(h)).row
    assert landed == [row.version]
    assert renders.count(("table", None)) == 1  # one table: none for the two moves before
    assert row.published_version == row.version  # ... and it is the newest
    assert views[-1] == (await snapshot(h)).view(None)  # drawn from the newest state
    assert len(tables_ever(h)) - before <= 1  # at most one table posted (or one edited)


async def test_a_seat_whose_panel_changes_gets_one_picture_the_newest(
    harness: Harness, renders: list[tuple[str, int | None]], monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    ana, _ben = await two_players(h, "galaxy_trucker")
    snap = await snapshot(h)
    assert any(d.private and d.seat == 0 for d in snap.decisions), "Ana builds in private"
    host, cog = host_of(h), cog_of(h)
    store = host.store
    queued: list[asyncio.Task[None]] = []
    landed: list[int] = []
    dm_panel = store.dm_panel

    async def panel_of(gid: int, seat: int) -> Any:
        found = await dm_panel(gid, seat)
        if seat == 0 and not landed and queued:  # Ana's panel is about to be drawn
            landed.append(await land_moves(h, 2, queued, 0))
        return found

    monkeypatch.setattr(store, "dm_panel", panel_of)
    dm_panels = store.dm_panels

    async def panels_of(gid: int) -> Any:  # every seat's panel read at once: Ana's too
        found = await dm_panels(gid)
        if not landed and queued:
            landed.append(await land_moves(h, 2, queued, 0))
        return found

    monkeypatch.setattr(store, "dm_panels", panels_of)
    for_publish = store.for_publish

    async def read_for_publish(gid: int, limit: int) -> Any:  # the game, panels, moves at once
        found = await for_publish(gid, limit)
        if not landed and queued:
            landed.append(await land_moves(h, 2, queued, 0))
        return found

    monkeypatch.setattr(store, "for_publish", read_for_publish)
    # Ana's first building move, committed and published as a click would be.
    d = next(d for d in snap.decisions if d.seat == 0)
    await host.play(snap.id, ana.id, 0, snap.token(d), d.options[0].id, bots=False)
    renders.clear()
    views.clear()
    queued.append(asyncio.create_task(cog.publish(snap.id)))
    await asyncio.gather(*queued[:1])
    await asyncio.gather(*queued)
    await h.idle()
    row = (await snapshot(h)).row
    assert landed == [row.version]
    assert renders.count(("private", 0)) == 1  # Ana's picture once, for the newest move
    assert row.published_version == row.version
    newest = await snapshot(h)
    assert views[renders.index(("private", 0))] == {**newest.view(0), "seat": 0}
    panel = await dm_panel(snap.id, 0)
    assert panel is not None and panel[0] == present.panel_mark(newest, 0)
