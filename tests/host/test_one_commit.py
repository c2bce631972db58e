"""An accepted move is one transaction: the action, the state, the version and whom the
game now waits for are written together (one disk sync with synchronous=FULL)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from host.sessions import Host
from tests.host.kit import ANA, BEN, started


def count_transactions(h: Host) -> list[int]:
    counter = [0]
    inner = h.store.transaction

    @contextlib.asynccontextmanager
    async def counted() -> AsyncIterator[object]:
        counter[0] += 1
        async with inner() as db:
            yield db

    h.store.transaction = counted  # type: ignore[method-assign]
    one_hop = getattr(h.store, "in_one_hop", None)  # SQLite: a transaction in one trip
    if one_hop is not None:

        async def counted_hop(body: Any) -> Any:
            counter[0] += 1
            return await one_hop(body)

        h.store.in_one_hop = counted_hop  # type: ignore[attr-defined]
    return counter


async def test_a_public_move_is_one_transaction(host: Host) -> None:
    gid = await started(host, ANA, BEN)
    by = {0: ANA, 1: BEN}
    counter = count_transactions(host)
    for _ in range(3):  # turns pass from one person to the other: the waits change
        snap = await host.by_id(gid)
        (decision,) = snap.decisions
        before = counter[0]
        await host.play(
            gid, by[decision.seat].user_id, decision.seat, snap.token(decision), "add1"
        )
        assert counter[0] - before == 1
        waits = await host.store.waits(gid)
        assert set(waits) == set((await host.by_id(gid)).to_move())
    assert await host.replay(gid) == (await host.by_id(gid)).row.state
