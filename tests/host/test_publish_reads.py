"""What a publish reads first, read in one trip (issue 23): the game, its DM panels, its
recent moves and its people's settings (``Storage.for_publish``) — the same as read one by
one — and a player who asked for a DM on their turn gets it from the settings read there."""

from __future__ import annotations

import random

from core.i18n import t
from tests.e2e.driver import play_turn
from tests.e2e.kit import host_of, open_game, snapshot
from tests.harness import Harness


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
