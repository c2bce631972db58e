"""Timed decisions through the offline harness: the table shows the time left, the pacing
tick applies the expiry once (also across a restart), and replay reproduces the state."""

from __future__ import annotations

import io
import re
from types import SimpleNamespace

import pytest
from PIL import Image

from host import registry
from host.clock import FakeClock
from tests import timedgame
from tests.e2e.driver import field, latest_table, move_buttons
from tests.e2e.kit import open_game
from tests.harness import Harness

LIVE = timedgame.SPEED["live"]
DAYS = timedgame.SPEED["days"]
TIMER_FIELD = ("⏳ Time runs out", "⏳ Se acaba el tiempo")
STAMP = re.compile(r"<t:(\d+):R>")


def _png(*_: object) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), "white").save(out, "PNG")
    return out.getvalue()


@pytest.fixture(autouse=True)
def timed_game(monkeypatch):
    """The toy timed game, registered for these tests only (with a blank picture)."""
    monkeypatch.setitem(registry.GAME_MODULES, "timed", "tests.timedgame")
    registry.games.cache_clear()
    real = registry.renderer
    stub = SimpleNamespace(render_table=_png, render_private=lambda *_: None)
    monkeypatch.setattr(registry, "renderer", lambda gid: stub if gid == "timed" else real(gid))
    yield
    registry.games.cache_clear()


def cog(h: Harness):
    return h.bot.get_cog("GameCog")  # type: ignore[union-attr]


def host(h: Harness):
    return h.bot.host  # type: ignore[union-attr]


async def snapshot(h: Harness):
    row = await host(h).store.latest_game(h.channel_id)
    return await host(h).snapshot(row)


def time_left(h: Harness) -> list[int]:
    """The relative timestamps in the latest table's timer field."""
    value = field(latest_table(h), TIMER_FIELD)
    assert value is not None, "the table shows no timer"
    return [int(x) for x in STAMP.findall(value)]


def time_up_notices(h: Harness) -> list[str]:
    return [m.content for m in h.messages() if m.content.startswith("⏳ Time is up")]


async def test_a_timed_turn_expires_once_across_a_restart(
    harness: Harness, clock: FakeClock
) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    t0 = clock.now()
    await open_game(h, "timed", ana, [ben])
    snap = await snapshot(h)
    mover = snap.to_move()[0]
    users = {0: ana, 1: ben}
    # The table shows when the turn runs out, as a Discord relative timestamp.
    assert time_left(h) == [int(t0 + LIVE)]
    # A ticker set to every 10 minutes wakes up in time for it.
    assert await cog(h)._until_next_tick(600) == LIVE + 0.5

    # Not yet: nothing happens.
    clock.advance(LIVE - 1)
    await cog(h).tick()
    assert await host(h).store.count_actions(snap.id) == 0 and not time_up_notices(h)

    # Time is up: the turn passes, the channel is told, the table shows the next timer.
    clock.advance(1)
    await cog(h).tick()
    (a,) = await host(h).store.actions(snap.id)
    assert (a.seat, a.choice, a.timer, a.by_user, a.by_bot) == (
        mover,
        "pass",
        "turn.0",
        None,
        False,
    )
    (notice,) = time_up_notices(h)
    assert f"<@{users[mover].id}>" in notice
    assert time_left(h) == [int(t0 + 2 * LIVE)]
    table = latest_table(h)
    assert move_buttons(table, 1 - mover) and "ran out of time" in table.text()

    # The next turn runs out while the bot is down; after the restart it fires once.
    clock.advance(LIVE + 30)
    await h.restart()
    await cog(h).tick()
    await cog(h).tick()
    actions = await host(h).store.actions(snap.id)
    assert [(x.seat, x.timer) for x in actions] == [(mover, "turn.0"), (1 - mover, "turn.1")]
    assert len(time_up_notices(h)) == 2
    # Its time is the time it was applied; the new turn counts from then.
    assert actions[1].at == clock.now()
    assert time_left(h) == [int(clock.now() + LIVE)]

    # Another restart, no time passed: nothing fires twice.
    await h.restart()
    await cog(h).tick()
    assert await host(h).store.count_actions(snap.id) == 2 and len(time_up_notices(h)) == 2

    # A move in time: no expiry for that turn.
    table = latest_table(h)
    (add,) = [b for b in move_buttons(table, mover) if b.endswith(":add2")]
    await h.click(users[mover], table, add)
    clock.advance(LIVE - 1)
    await cog(h).tick()
    assert await host(h).store.count_actions(snap.id) == 3

    final = await snapshot(h)
    assert await host(h).replay(final.id) == final.row.state


async def test_days_speed_and_secret_guesses_time_out(harness: Harness, clock: FakeClock) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "es-ES")
    await open_game(h, "timed", ana, [ben], clicks={"speed": 1})  # live -> days: 12 hours a move
    snap = await snapshot(h)
    assert snap.row.options["speed"] == "days"
    assert snap.decisions[0].timer.seconds == DAYS
    clock.advance(11 * 3600)
    await cog(h).tick()
    assert await host(h).store.count_actions(snap.id) == 0
    for _ in range(3):  # three turns run out, half a day each: the secret guesses open
        clock.advance(13 * 3600)
        await cog(h).tick()
    snap = await snapshot(h)
    assert snap.to_move() == [0, 1] and all(d.private for d in snap.decisions)
    # Ana guesses by DM; Ben lets his time run out.
    panel = next(m for m in reversed(h.dm_messages(ana)) if move_buttons(m))
    odd = next(b for b in move_buttons(panel) if b.endswith(":odd"))
    await h.click(ana, panel, odd)
    assert len(time_left(h)) == 1  # only Ben's guess is still running
    clock.advance(DAYS)
    await cog(h).tick()
    acts = await host(h).store.actions(snap.id)
    assert [(a.seat, a.choice) for a in acts if a.timer and a.timer.startswith("guess")] == [
        (1, "even")
    ]
    # What the timer chose for a secret decision is never told in the channel.
    notice = time_up_notices(h)[-1]
    assert f"<@{ben.id}>" in notice and "even" not in notice.lower()
    snap = await snapshot(h)
    assert snap.view(None)["round"] == 2
    assert await host(h).replay(snap.id) == snap.row.state
