"""What a publish reads first, read in one trip (issue 23): the game, its DM panels, its
recent moves and its people's settings (``Storage.for_publish``) — the same as read one by
one — and a player who asked for a DM on their turn gets it from the settings read there."""

from __future__ import annotations

import contextlib
import random

import pytest

from core.i18n import t
from host.clock import FakeClock
from host.records import HostError
from host.store_api import PublishRead
from tests.e2e.driver import play_turn
from tests.e2e.kit import host_of, open_game, snapshot
from tests.harness import Harness
from tests.host.kit import ANA, BEN, CAL, hosted, play_one, started


async def test_one_read_is_the_reads_one_by_one_and_the_turn_dm_follows(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "es-ES")
    await open_game(h, "mlem", ana, [ben])
    store = host_of(h).store
    await store.set_user_settings(ben.id, True, "es")  # Ben wants a DM on his turn
    rng = random.Random(5)
    dms = 0
    for _ in range(6):
        snap = await snapshot(h)
        read = await store.for_publish(snap.id, 300)
        assert read.loaded == await store.load(snap.id)
        assert read.panels == await store.dm_panels(snap.id)
        assert read.actions == await store.actions(snap.id, 300)
        assert read.settings == {ana.id: (False, None), ben.id: (True, "es")}
        await play_turn(h, {ana: 0, ben: 1}, rng)
        text = t("host.remind.your_turn", "es", game=t("mlem.name", "es"), link="")
        dms = sum(1 for m in h.dm_messages(ben) if (m.content or "").startswith(text.strip()))
    assert dms >= 1, "Ben was never told by DM that it was his turn"
    assert not any("🎲" in (m.content or "") for m in h.dm_messages(ana))  # Ana did not ask


async def test_the_one_read_on_both_databases(db: str) -> None:
    """``for_publish`` on SQLite and PostgreSQL, outside and inside the publish lock (on
    PostgreSQL the publish's reads run on the lock's connection): what the reads one by one
    give, the limit kept, a person without settings read as the defaults, a missing game
    read as nothing (and refused by the host)."""
    async with hosted(db, FakeClock()) as host:
        store = host.store
        gid = await started(host, ANA, BEN, CAL)
        for _ in range(5):
            await play_one(host, gid)
        await store.set_user_settings(BEN.user_id, True, "es")
        await store.set_dm_panel(gid, 1, "b/1", 40, 41)
        for limit in (300, 2):
            for locked in (False, True):
                async with store.lock_publish(gid) if locked else contextlib.nullcontext():
                    read = await store.for_publish(gid, limit)
                assert read.loaded == await store.load(gid)
                assert read.panels == await store.dm_panels(gid) == {1: ("b/1", 40, 41)}
                assert read.actions == await store.actions(gid, limit)
                assert len(read.actions) == min(limit, 5)
                assert read.settings == {
                    ANA.user_id: (False, None),
                    BEN.user_id: (True, "es"),
                    CAL.user_id: (False, None),
                }
                snap, _ = await host.for_publish(gid, limit)
                assert snap.row == (await host.by_id(gid)).row
        missing = await store.for_publish(gid + 1, 300)
        assert missing == PublishRead(None, {}, [], {})
        for wrong in (gid + 1, 2**63):
            with pytest.raises(HostError):
                await host.for_publish(wrong, 300)
