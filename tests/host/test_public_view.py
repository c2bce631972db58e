"""The public view of a loaded game is computed once per snapshot and state
(``Snapshot.view``): a table's publish reads it for its embed, its fingerprint, its trail,
its picture and alt text."""

from __future__ import annotations

from typing import Any

import pytest

from host.sessions import Host
from tests.host.kit import ANA, BEN, started


async def test_the_public_view_is_computed_once_per_state(
    host: Host, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = await started(host, ANA, BEN)
    snap = await host.by_id(gid)
    game = snap.game
    calls: list[Any] = []
    inner = game.view

    def view(state: Any, seat: int | None) -> Any:
        calls.append(seat)
        return inner(state, seat)

    monkeypatch.setattr(game, "view", view)
    public = snap.view(None)
    assert snap.view(None) is public and calls == [None]
    assert snap.view(0) == inner(snap.state, 0) and calls == [None, 0]  # not kept
    snap.state = game.load(game.dump(snap.state))  # another state: computed again
    assert snap.view(None) == public and calls == [None, 0, None]
