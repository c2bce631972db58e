"""What the channel shows: one live table at the bottom, a short trail of the moves above
it, pings only for whom the game now waits for, and pacing over days (FakeClock).

The whole games print their channel figures (messages per voyage / round, pings per
player); the README quotes them."""

from __future__ import annotations

import random
from typing import Any

from cogs import present, trail
from host.clock import FakeClock
from host.pacing import HOUR, PING_AFTER
from host.sessions import public_move
from tests.e2e.driver import (
    is_final,
    is_table,
    latest_table,
    ping_counts,
    pings,
    play_turn,
    tables,
    tables_ever,
)
from tests.e2e.kit import (
    assert_finished,
    assert_tables_have_pictures,
    cog_of,
    open_game,
    snapshot,
)
from tests.e2e.players import Pilot
from tests.harness import FakeUser, Harness, Message


def live_tables(h: Harness) -> list[Message]:
    """Table messages in the channel whose buttons can still be pressed."""
    return [m for m in tables(h) if any(not b.disabled for b in m.buttons) or m.selects]


def is_trail(m: Message) -> bool:
    return not m.embeds and not m.attachments and "\n• " in f"\n{m.content}"


def trail_lines(h: Harness) -> list[str]:
    """Every move line of the trail messages in the channel, in order."""
    return [
        line.removeprefix("• ")
        for m in h.messages()
        if is_trail(m)
        for line in m.content.splitlines()
        if line.startswith("• ")
    ]


async def public_log(h: Harness) -> list[str]:
    snap = await snapshot(h)
    actions = await cog_of(h).host.store.actions(snap.id)
    public = [a for a in actions if public_move(a.events)]
    return present.log_lines(snap, public, None, snap.row.lang)


def game_messages(h: Harness, lobby: Message) -> list[Message]:
    """The channel's messages after the lobby (the lobby stays where it was)."""
    return [m for m in h.messages() if m.id > lobby.id]


async def play_watching(
    h: Harness, seats: dict[FakeUser, int], rng: random.Random, *, choose: Any = None
) -> int:
    """Play to the end; after every click the channel holds exactly one table, whose
    buttons are the only live ones, and it is the last message but for notices."""
    clicks = 0
    while await play_turn(h, seats, rng, choose=choose) is not None:
        clicks += 1
        assert clicks < 3000, "the game did not end"
        assert len(tables(h)) == 1, [m.id for m in tables(h)]
        assert len(live_tables(h)) <= 1
    return clicks


async def test_mlem_keeps_one_live_table_and_a_short_trail(harness: Harness) -> None:
    h = harness
    ana, ben, cal = h.user("Ana", "es-ES"), h.user("Ben", "en-US"), h.user("Cal", "en-GB")
    lobby = await open_game(h, "mlem", ana, [ben, cal])  # Ana opens it: the channel speaks Spanish
    users = [ana, ben, cal]
    await play_watching(h, {ana: 0, ben: 1, cal: 2}, random.Random(1))
    final = latest_table(h)
    snap = await assert_finished(h, users)  # over, its scores add up, its log replays
    assert_tables_have_pictures(h, ever=False)
    # Buttons are routed by pattern: discord.py keeps no view per message in memory.
    assert not h.bot._connection._view_store._views  # type: ignore[union-attr]
    voyages = int(snap.view(None)["round"])
    shown = game_messages(h, lobby)
    # Many tables were posted over the game, each deleted when the next one came.
    assert len(tables_ever(h)) > 10 and tables(h) == [final]
    # The trail tells every public move once, in order: nothing is lost with old tables.
    assert trail_lines(h) == await public_log(h)
    # What is left: the trail, the final table and the end-of-game package.
    per_voyage = len(shown) / voyages
    assert per_voyage <= 3, [m.content[:60] for m in shown]
    assert all(is_trail(m) or is_table(m) or m.attachments for m in shown)
    pinged = ping_counts(h, users)
    print(
        f"\nMLEM 3p: {voyages} voyages, {len(shown)} channel messages left "
        f"({per_voyage:.1f} per voyage), {len(tables_ever(h))} tables posted in turn, "
        f"pings {pinged}"
    )


async def test_kosmonavts_keeps_one_live_table_per_round(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana", "es-ES"), h.user("Ben", "en-US")
    options = {"rules": "basic", "planets": "players"}
    await open_game(h, "kosmonavts", ana, [ben], options=options, by=ben)
    lobby = h.messages()[0]
    await play_watching(h, {ana: 0, ben: 1}, random.Random(5), choose=Pilot(h))
    assert is_final(latest_table(h))
    snap = await snapshot(h)
    rounds = int(snap.state["round"])
    shown = game_messages(h, lobby)
    assert trail_lines(h) == await public_log(h)
    per_round = len(shown) / rounds
    assert per_round <= 3, [m.content[:60] for m in shown]
    print(
        f"\nKosmonavts 2p: {rounds} rounds, {len(shown)} channel messages left "
        f"({per_round:.1f} per round), pings {ping_counts(h, [ana, ben])}"
    )


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
