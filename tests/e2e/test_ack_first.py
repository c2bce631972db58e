"""A move's click is acknowledged before anything else (issue 23): before the language
lookup, the checks and the move, so Discord hears back within a millisecond or so whatever
the load. A refused click is then answered with an ephemeral follow-up, the same sentence
the player saw before, and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from core.i18n import t
from tests.e2e.driver import latest_table, move_buttons
from tests.e2e.kit import host_of, open_game, refusal_text, snapshot
from tests.harness import Harness


def acks(h: Harness) -> int:
    return sum(1 for r in h.backend.requests if r.path.endswith("/callback"))


async def test_a_refused_click_is_acknowledged_first_then_refused_privately(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    ana, ben, eve = h.user("Ana", "en-US"), h.user("Ben", "en-US"), h.user("Eve", "es-ES")
    await open_game(h, "mlem", ana, [ben])
    table = latest_table(h)
    before = await snapshot(h)
    store = host_of(h).store
    settings = store.user_settings
    acked_before_lookup: list[int] = []

    async def user_settings(user_id: int) -> Any:
        acked_before_lookup.append(acks(h))
        return await settings(user_id)

    monkeypatch.setattr(store, "user_settings", user_settings)
    sent = acks(h)
    move = move_buttons(table, 0)[0]
    reply = await h.click(eve, table, move)  # Eve is not playing
    assert acked_before_lookup == [sent + 1]  # acknowledged before the language lookup
    assert reply.type == 6  # a silent acknowledgement ...
    assert refusal_text(reply) == t("host.error.not_a_player", "es")  # ... then the sentence
    assert all(f.ephemeral for f in reply.followups)
    after = await snapshot(h)
    assert after.row.version == before.row.version  # nothing changed
    assert latest_table(h).id == table.id
