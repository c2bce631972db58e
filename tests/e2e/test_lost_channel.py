"""Games that lost their channel (issue 14): a 404 Unknown Channel or 403 Missing Access on
the table pauses the game after that one failure, nothing is drawn for it on later ticks,
``/game list`` and ``/game mine`` say why, its players are told by DM, and ``/game status``
in the channel, once it answers again, resumes it. Other failures are retried later and
later. Through the offline harness, with the clock moved by hand."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cogs import present
from host.clock import FakeClock
from host.pacing import HOUR
from tests.e2e.driver import latest_table, play_turn, tables
from tests.e2e.kit import cog_of, host_of, open_game, snapshot
from tests.harness import FakeUser, Harness


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every table image drawn, by game id."""
    drawn: list[str] = []
    inner = present._render_table

    def counted(game_id: str, *args: Any) -> bytes:
        drawn.append(game_id)
        return inner(game_id, *args)

    monkeypatch.setattr(present, "_render_table", counted)
    return drawn


async def mlem_for_two(h: Harness, ben_locale: str = "en-US") -> tuple[FakeUser, FakeUser, int]:
    """Ana and Ben (who speaks ``ben_locale``) in a MLEM game in the harness channel; its id."""
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", ben_locale)
    await open_game(h, "mlem", ana, [ben])
    return ana, ben, (await snapshot(h)).id


async def lag(h: Harness) -> None:
    """A move committed but never shown (as after a crash between commit and publish)."""
    snap = await snapshot(h)
    d = next(d for d in snap.decisions if not d.private)
    uid = snap.seats[d.seat].user_id
    assert uid is not None
    await host_of(h).play(snap.id, uid, d.seat, snap.token(d), d.options[0].id)
    row = (await snapshot(h)).row
    assert row.published_version < row.version


def paused_dms(h: Harness, user: Any) -> list[str]:
    return [m.content for m in h.dm_messages(user) if m.content.startswith("⏸️")]


async def test_a_deleted_channel_pauses_the_game_until_status_brings_it_back(
    harness: Harness, clock: FakeClock, renders: list[str]
) -> None:
    h = harness
    ana, ben, gid = await mlem_for_two(h, "es-ES")
    h.lose_channel(h.channel_id)  # deleted: 404 Unknown Channel on every request
    await lag(h)
    renders.clear()
    await cog_of(h).tick()
    row = (await snapshot(h)).row
    assert row.paused == "deleted" and len(renders) <= 1  # one failure is enough
    assert len(paused_dms(h, ana)) == 1 and len(paused_dms(h, ben)) == 1
    assert "deleted" in paused_dms(h, ana)[0] and "borró" in paused_dms(h, ben)[0]
    # Later ticks draw nothing for it, send nothing to it, and tell nobody again.
    sent = len(h.backend.requests)
    for _ in range(3):
        clock.advance(13 * HOUR)  # reminders and republishing would both be due
        await cog_of(h).tick()
    assert renders == [] and len(h.backend.requests) == sent
    assert len(paused_dms(h, ana)) == 1
    assert gid not in await host_of(h).store.lagging_games()
    # /game list and /game mine say why (each in the reader's language).
    listed = await h.slash(ana, "game list")
    assert "paused: its channel was deleted" in listed.content
    mine = await h.slash(ben, "game mine")
    assert "en pausa: se borró su canal" in mine.content
    # The channel is back: /game status there resumes the game and shows the table.
    h.restore_channel(h.channel_id)
    before = latest_table(h).id
    status = await h.slash(ana, "game status")
    assert "goes on" in status.content
    assert (await snapshot(h)).row.paused is None and latest_table(h).id != before
    assert len(tables(h)) == 1 and len(renders) == 1  # the table, drawn once, posted anew
    assert gid not in await host_of(h).store.lagging_games()
    # Its clocks start again from now: the next reminder is 12 h away, not overdue.
    reminders = len([m for m in h.messages() if m.content.startswith("⏰")])
    await cog_of(h).tick()
    assert len([m for m in h.messages() if m.content.startswith("⏰")]) == reminders
    clock.advance(13 * HOUR)
    await cog_of(h).tick()
    assert len([m for m in h.messages() if m.content.startswith("⏰")]) == reminders + 1


async def test_lost_access_pauses_a_reminder_too_and_a_click_there_resumes(
    harness: Harness, clock: FakeClock, renders: list[str]
) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    await open_game(h, "mlem", ana, [ben])
    h.lose_channel(h.channel_id, status=403)  # the bot can no longer see the channel
    clock.advance(13 * HOUR)
    await cog_of(h).tick()  # the reminder cannot be posted
    assert (await snapshot(h)).row.paused == "no_access"
    assert len(paused_dms(h, ana)) == 1
    listed = await h.slash(ben, "game list")
    assert "I can no longer see its channel" in listed.content
    renders.clear()
    for _ in range(3):
        clock.advance(30 * HOUR)  # reminders, deadlines: nothing while paused
        await cog_of(h).tick()
    assert renders == [] and not [m for m in h.messages() if m.content.startswith("⏰")]
    # The channel is visible again, and a click on its table shows it: the game goes on.
    h.restore_channel(h.channel_id)
    version = (await snapshot(h)).row.version
    await play_turn(h, {ana: 0, ben: 1}, random.Random(1))
    row = (await snapshot(h)).row
    assert row.paused is None and row.version > version
    assert row.published_version == row.version and renders


async def test_a_server_error_is_retried_later_and_later(
    harness: Harness, clock: FakeClock, renders: list[str]
) -> None:
    h = harness
    *_, gid = await mlem_for_two(h)
    await lag(h)
    # Discord's 503 (a 500 is first retried by discord.py itself, on the wall clock).
    posts = r"/channels/\d+/messages(/\d+)?$"
    h.fail_route("*", posts, status=503, message="Service Unavailable", times=4)
    renders.clear()
    await cog_of(h).tick()
    row = (await snapshot(h)).row
    assert row.paused is None and row.publish_fails == 1
    assert row.retry_at == clock.now() + 60
    drawn = len(renders)
    await cog_of(h).tick()  # too early: nothing tried, nothing drawn
    assert len(renders) == drawn
    clock.advance(60)
    await cog_of(h).tick()
    row = (await snapshot(h)).row
    assert row.publish_fails == 2 and row.retry_at == clock.now() + 120  # doubled
    clock.advance(120)
    await cog_of(h).tick()  # the faults are used up: published, failures forgotten
    row = (await snapshot(h)).row
    assert gid not in await host_of(h).store.lagging_games()
    assert row.publish_fails == 0 and row.retry_at is None and row.paused is None
