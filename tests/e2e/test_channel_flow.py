"""What the channel shows: one live table at the bottom, a short trail of the moves above
it, pings only for whom the game now waits for, and pacing over days (FakeClock).

That a whole game keeps one live table, its older tables deleted, and a short trail that
tells every public move once is checked on the whole game of each game that
tests/e2e/test_contract_e2e.py plays once for all its checks (``check_channel``; it prints
the channel figures the README quotes)."""

from __future__ import annotations

import random

from cogs import trail
from host.clock import FakeClock
from host.pacing import HOUR, PING_AFTER
from tests.e2e.driver import latest_table, ping_counts, pings, play_turn, tables
from tests.e2e.kit import (
    cog_of,
    is_trail,
    live_tables,
    open_game,
    public_log,
    snapshot,
    trail_lines,
)
from tests.harness import Harness


async def test_a_new_table_pings_only_whom_the_game_now_waits_for(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    await open_game(h, "mlem", ana, [ben])
    rng = random.Random(3)
    for _ in range(12):
        before = (await snapshot(h)).human_to_move()
        start = len(pings(h))
        await play_turn(h, {ana: 0, ben: 1}, rng)
        snap = await snapshot(h)
        waited = {snap.seats[s].user_id for s in snap.human_to_move()}
        for _, who in pings(h)[start:]:
            # nobody is pinged who is not waited for, nor again while still waited for
            assert who <= waited, (who, waited)
            assert not who & {snap.seats[s].user_id for s in before}, (who, before)


async def test_status_reposts_the_table_without_pinging(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    await open_game(h, "mlem", ana, [ben])
    await play_turn(h, {ana: 0, ben: 1}, random.Random(4))
    old = latest_table(h)
    start = len(pings(h))
    await h.slash(ben, "game status")
    new = latest_table(h)
    assert new.id != old.id and old.deleted and h.messages()[-1] == new
    assert all(not who for _, who in pings(h)[start:])
    assert str(ana.id) in new.content or str(ben.id) in new.content  # named, not pinged


async def test_an_old_table_that_cannot_be_deleted_is_greyed_out(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    await open_game(h, "mlem", ana, [ben])
    old = latest_table(h)
    h.fail_route("DELETE", r"/channels/\d+/messages/\d+$", status=403, code=50013, times=1)
    await h.slash(ana, "game status")
    new = latest_table(h)
    assert new.id != old.id and not old.deleted
    assert old.buttons and all(b.disabled for b in old.buttons)
    assert live_tables(h) == [new]


async def test_play_over_days_pings_only_after_a_wait(harness: Harness, clock: FakeClock) -> None:
    h = harness
    ana, ben, cal = h.user("Ana", "en-US"), h.user("Ben", "en-US"), h.user("Cal", "en-US")
    seats = {ana: 0, ben: 1, cal: 2}
    await open_game(h, "mlem", ana, [ben, cal], clicks={"h.pings": 2})
    assert (await snapshot(h)).row.host_options["pings"] == "days"
    rng = random.Random(6)
    # Everyone answers within the waiting time: nobody is ever pinged.
    for _ in range(25):
        clock.advance(PING_AFTER - 60)
        await cog_of(h).tick()
        if await play_turn(h, seats, rng) is None:
            break
    assert ping_counts(h, list(seats)) == {"Ana": 0, "Ben": 0, "Cal": 0}
    # The table still names whom it waits for (without a ping).
    snap = await snapshot(h)
    waited = [snap.seats[s].user_id for s in snap.human_to_move()]
    assert waited and all(str(uid) in latest_table(h).content for uid in waited)
    # Someone takes longer: one light message pings exactly them.
    clock.advance(PING_AFTER + 60)
    await cog_of(h).tick()
    last = h.messages()[-1]
    assert last.content.startswith("⏰") and not last.embeds and not last.components
    assert pings(h)[-1][1] == set(waited)
    await cog_of(h).tick()
    assert sum(1 for _, who in pings(h) if who) == 1  # and only once
    # Once they have moved, the reminder is stale: it goes, the channel stays short.
    for _ in range(20):
        snap = await snapshot(h)
        if not {snap.seats[s].user_id for s in snap.human_to_move()} & set(waited):
            break
        await play_turn(h, seats, rng)
    assert last.deleted


async def test_a_deadline_warns_at_half_time_never_with_time_up(
    harness: Harness, clock: FakeClock
) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    # Time per move: none -> 12 h; reminders stay at their default, 12 h (the old clash).
    await open_game(h, "mlem", ana, [ben], clicks={"h.deadline": 1})
    snap = await snapshot(h)
    opts = snap.row.host_options
    assert (opts["deadline"], opts["reminders"]) == ("12h", "12h")
    waited = {snap.seats[s].user_id for s in snap.human_to_move()}

    def notices() -> list[str]:
        return [m.content[:1] for m in h.messages() if m.content[:1] in ("⏰", "⌛")]

    clock.advance(6 * HOUR - 60)
    await cog_of(h).tick()
    assert notices() == []
    clock.advance(60)  # half of the time: the warning, naming only whom the game waits for
    await cog_of(h).tick()
    assert notices() == ["⏰"]
    assert pings(h)[-1][1] == waited
    clock.advance(6 * HOUR)  # time is up: the notice alone, no reminder with it
    await cog_of(h).tick()
    assert notices() == ["⏰", "⌛"]
    await cog_of(h).tick()
    assert notices() == ["⏰", "⌛"]


async def test_a_bot_back_after_the_deadline_sends_no_warning_with_the_notice(
    harness: Harness, clock: FakeClock
) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    await open_game(h, "mlem", ana, [ben], clicks={"h.deadline": 1})
    clock.advance(13 * HOUR)  # the bot was down through the half-time warning
    await cog_of(h).tick()
    contents = [m.content for m in h.messages()]
    assert any(c.startswith("⌛") for c in contents)
    assert not any(c.startswith("⏰") for c in contents)


async def test_a_full_trail_message_goes_on_in_a_new_one(harness: Harness, monkeypatch) -> None:
    h = harness
    monkeypatch.setattr(trail, "TRAIL_CHARS", 300)
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    await open_game(h, "mlem", ana, [ben])
    rng = random.Random(9)
    for _ in range(30):
        await play_turn(h, {ana: 0, ben: 1}, rng)
        # The table stays the last message, below every trail message.
        assert h.messages()[-1] == latest_table(h) and len(tables(h)) == 1
    trails = [m for m in h.messages() if is_trail(m)]
    assert len(trails) > 3
    assert all(len(m.content) <= 300 or m.content.count("\n• ") == 0 for m in trails)
    assert trail_lines(h) == await public_log(h)


async def test_the_trail_and_the_table_go_on_after_a_restart(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    seats = {ana: 0, ben: 1}
    await open_game(h, "mlem", ana, [ben])
    rng = random.Random(12)
    for _ in range(8):
        await play_turn(h, seats, rng)
    trails = [m.id for m in h.messages() if is_trail(m)]
    await h.restart()
    await play_turn(h, seats, rng)
    # The same trail message is written on (or a new one follows it), never restarted.
    after = [m.id for m in h.messages() if is_trail(m)]
    assert after[: len(trails)] == trails
    assert trail_lines(h) == await public_log(h)
    assert len(tables(h)) == 1 and h.messages()[-1] == latest_table(h)
