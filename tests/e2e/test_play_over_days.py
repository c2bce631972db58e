"""Play over days: reminders, deadlines and autopilot, undo and rollback, stats,
preferences — through the offline harness, with the clock moved by hand. The end-of-game
package and a finished game counted by /stats and /leaderboard are read on the whole game
of each game that tests/e2e/test_contract_e2e.py plays once for all its checks."""

from __future__ import annotations

import random

from host.clock import FakeClock
from host.pacing import HOUR
from tests.e2e.driver import latest_table, move_buttons, play_to_end, play_turn
from tests.e2e.kit import cog_of, host_of, open_game, play_straight, snapshot
from tests.harness import Harness


def reminders(h: Harness, users) -> dict[str, int]:
    """How many reminders each user got, in the channel (mentioned) or by DM."""
    out = {}
    for u in users:
        in_channel = sum(
            1 for m in h.messages() if m.content.startswith("⏰") and str(u.id) in m.content
        )
        by_dm = sum(1 for m in h.dm_messages(u) if m.content.startswith("⏰"))
        out[u.name] = in_channel + by_dm
    return out


async def test_reminders_only_for_waiting_players_and_survive_restart(
    harness: Harness, clock: FakeClock
) -> None:
    h = harness
    ana, ben, cal = h.user("Ana", "en-US"), h.user("Ben", "en-US"), h.user("Cal", "en-US")
    # Secret missions: everyone chooses at once; Ana chooses, Ben and Cal do not.
    await open_game(h, "mlem", ana, [ben, cal], clicks={"missions": 1})
    panel = next(m for m in h.dm_messages(ana) if move_buttons(m))
    await h.click(ana, panel, move_buttons(panel)[0])
    clock.advance(13 * HOUR)
    await cog_of(h).tick()
    assert reminders(h, (ana, ben, cal)) == {"Ana": 0, "Ben": 1, "Cal": 1}
    first = [m for m in h.messages() if m.content.startswith("⏰")]
    assert len(first) == 1 and "<t:" in first[0].content  # one message, a Discord timestamp
    # A restart in between: nothing is repeated...
    await h.restart()
    await cog_of(h).tick()
    assert reminders(h, (ana, ben, cal)) == {"Ana": 0, "Ben": 1, "Cal": 1}
    # ...and nothing is lost: 24 h later, once more (by DM this time).
    clock.advance(24 * HOUR)
    await cog_of(h).tick()
    assert reminders(h, (ana, ben, cal)) == {"Ana": 0, "Ben": 2, "Cal": 2}
    assert any(m.content.startswith("⏰") for m in h.dm_messages(ben))
    await cog_of(h).tick()
    assert reminders(h, (ana, ben, cal)) == {"Ana": 0, "Ben": 2, "Cal": 2}


async def test_reminders_can_be_off(harness: Harness, clock: FakeClock) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    await open_game(h, "mlem", ana, [ben], clicks={"h.reminders": 2})  # 12h -> 24h -> off
    assert (await snapshot(h)).row.host_options["reminders"] == "off"
    clock.advance(100 * HOUR)
    await cog_of(h).tick()
    assert reminders(h, (ana, ben)) == {"Ana": 0, "Ben": 0}


async def test_deadline_bot_move_autopilot_and_take_back(
    harness: Harness, clock: FakeClock
) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    seats = {ana: 0, ben: 1}
    # Time per move: none -> 12h -> 1 day. Autopilot after 2 missed moves (default).
    await open_game(h, "mlem", ana, [ben], clicks={"h.deadline": 2})
    snap = await snapshot(h)
    assert snap.row.host_options["deadline"] == "1d"
    misses = 0
    rng = random.Random(10)
    # Ben is away: Ana plays her own moves, and covers Ben's when his time runs out.
    for _ in range(200):
        snap = await snapshot(h)
        if snap.human_to_move() == [0]:
            await play_turn(h, {ana: 0}, rng)
            continue
        assert snap.human_to_move() == [1], (misses, snap.row.status, snap.to_move())
        clock.advance(25 * HOUR)
        await cog_of(h).tick()
        notice = h.messages()[-1]
        assert "ran out of time" in notice.content and str(ben.id) in notice.content
        before = await host_of(h).store.count_actions(snap.id)
        bot_button = next(b for b in notice.buttons if "bot" in (b.label or ""))
        # The absent player cannot cover for themselves.
        reply = await h.click(ben, notice, bot_button.custom_id)
        assert any(f.ephemeral and "your own move" in f.content for f in reply.followups)
        await h.click(ana, notice, bot_button.custom_id)
        actions = await host_of(h).store.actions(snap.id)
        assert len(actions) >= before + 1
        covered = actions[before]
        assert covered.seat == 1 and covered.by_bot and covered.by_user == ana.id
        misses += 1
        if (await snapshot(h)).seats[1].autopilot:
            break
    absent_user = ben
    assert misses == 2
    assert "bot plays that seat" in h.messages()[-1].content or any(
        "bot plays that seat" in m.content for m in h.messages()
    )
    # While a bot plays it, the owner still sees their own hand privately.
    hand = await h.slash(ben, "game hand")
    assert hand.ephemeral and "not playing" not in hand.text()
    # The owner takes the seat back with one click on the table.
    table = latest_table(h)
    back = next(b for b in table.buttons if b.label == "Take my seat back")
    reply = await h.click(ana, table, back.custom_id)  # not Ana's seat
    assert any(f.ephemeral for f in reply.followups)
    await h.click(absent_user, table, back.custom_id)
    snap = await snapshot(h)
    assert not snap.seats[1].is_bot and not snap.seats[1].autopilot
    final = await play_to_end(h, seats, random.Random(11))
    assert "🏆" in final.text()


async def test_no_one_blocks_a_game_forever(harness: Harness, clock: FakeClock) -> None:
    """With a deadline, a move nobody covers is played by a bot at twice the deadline."""
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    await open_game(h, "mlem", ana, [ben], clicks={"h.deadline": 1})  # 12 h
    snap = await snapshot(h)
    before = await host_of(h).store.count_actions(snap.id)
    clock.advance(13 * HOUR)
    await cog_of(h).tick()
    clock.advance(12 * HOUR)
    await cog_of(h).tick()
    assert await host_of(h).store.count_actions(snap.id) == before + 1
    assert any("a bot made the move" in m.content for m in h.messages())


async def test_undo_allowed_and_refused(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    await open_game(h, "mlem", ana, [ben], bots=1)  # a bot seat too: it acts right after people
    seats = {ana: 0, ben: 1}
    rng = random.Random(12)
    snap = await snapshot(h)
    store = host_of(h).store

    # Undo of a move that revealed nothing (boarding an astronaut, with someone still to
    # board after), from the table's button.
    for _ in range(50):
        snap = await snapshot(h)
        (mover,) = snap.human_to_move()
        user = ana if mover == 0 else ben
        table = latest_table(h)
        buttons = move_buttons(table, mover)
        await h.click(user, table, buttons[0])
        undoable = await host_of(h).undoable(await snapshot(h))
        if undoable is not None:
            break
    else:
        raise AssertionError("no undoable move came up")
    after = await snapshot(h)
    table = latest_table(h)
    undo = next(b for b in table.buttons if b.label == "Undo")
    other = ben if user is ana else ana
    reply = await h.click(other, table, undo.custom_id)  # not the other player's to undo
    assert any(f.ephemeral and "your own move" in f.content for f in reply.followups)
    await h.click(user, table, undo.custom_id)
    back = await snapshot(h)
    assert back.row.state == snap.row.state and back.row.version > after.row.version
    assert any("took back their last move" in m.content for m in h.messages())
    log = await store.actions(snap.id, live=False)
    assert log[-1].undone == "undo"
    assert await host_of(h).replay(snap.id) == back.row.state

    # Refused after a die roll: play until a move of a person reveals something.
    for _ in range(400):
        await play_turn(h, seats, rng)
        last = (await store.actions(snap.id))[-1]
        if not last.by_bot and any(e.get("reveals") for e in last.events):
            break
    actor = ana if last.seat == 0 else ben
    reply = await h.slash(actor, "game undo")
    assert reply.ephemeral and "revealed something" in reply.content

    # Refused after another player's move: the earlier mover tries to take theirs back.
    for _ in range(400):
        await play_turn(h, seats, rng)
        acts = await store.actions(snap.id)
        humans = {0, 1}
        if (
            len(acts) >= 2
            and acts[-1].seat in humans
            and acts[-2].seat in humans
            and acts[-1].seat != acts[-2].seat
        ):
            break
    else:
        raise AssertionError("two people never moved back to back")
    earlier = ana if acts[-2].seat == 0 else ben
    reply = await h.slash(earlier, "game undo")
    assert reply.ephemeral and "your own move" in reply.content
    assert (await store.actions(snap.id))[-1].seq == acts[-1].seq  # nothing changed


async def test_rollback_by_vote_and_by_moderator(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    mod = h.user("Mod", "en-US", admin=True)
    await open_game(h, "mlem", ana, [ben])
    seats = {ana: 0, ben: 1}
    rng = random.Random(13)
    store = host_of(h).store

    async def advance_into_round() -> int:
        for _ in range(500):
            await play_turn(h, seats, rng)
            snap = await snapshot(h)
            live = await store.actions(snap.id)
            rounds = snap.view(None).get("round")
            if rounds and rounds >= 2 and live and live[-1].seq > 0:
                return rounds
        raise AssertionError

    current = await advance_into_round()
    reply = await h.slash(ana, "game rollback")
    if "nothing to roll back" in reply.content:
        await play_turn(h, seats, rng)
        reply = await h.slash(ana, "game rollback")
    assert "1/2" in reply.content
    reply = await h.slash(ben, "game rollback")
    assert "went back to the start of round" in reply.content
    snap = await snapshot(h)
    assert snap.view(None)["round"] == current or snap.view(None)["round"] >= current - 1
    assert await host_of(h).replay(snap.id) == snap.row.state
    assert any(a.undone == "rollback" for a in await store.actions(snap.id, live=False))
    # A moderator forces it without a vote (or is told there is nothing to roll back).
    await play_turn(h, seats, rng)
    reply = await h.slash(mod, "game rollback")
    assert "went back" in reply.content or "nothing to roll back" in reply.content


async def test_abandoned_games_do_not_count_and_bots_are_marked(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    await open_game(h, "mlem", ana, [ben])
    mod = h.user("Mod", "en-US", admin=True)
    await h.slash(mod, "game abandon")
    reply = await h.slash(ana, "stats")
    assert "No finished games" in reply.text()
    await open_game(h, "mlem", ana, bots=1)
    await play_straight(h, [ana], host_of(h).clock, random.Random(15))
    reply = await h.slash(ana, "stats")
    assert "1 with bots" in reply.text()


async def test_game_in_a_new_thread_and_mine(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    reply = await h.slash(ana, "game new", game="mlem", thread=True)
    assert reply.ephemeral and "open in <#" in reply.text()
    thread = int(reply.text().split("<#")[1].split(">")[0])
    lobby = next(m for m in h.messages(thread) if m.buttons)
    await h.click(ben, lobby, label="Join")
    await h.click(ana, lobby, label="Start")
    assert latest_table(h, thread)
    reply = await h.slash(ben, "game mine")
    assert reply.ephemeral and f"/{thread}/" in reply.content
    reply = await h.slash(ana, "game list")
    assert "since <t:" in reply.content


async def test_settings_language_override_and_dm_on_turn(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    reply = await h.slash(ana, "settings me", language="es", dm_on_turn=True)
    assert "Guardado" in reply.content
    reply = await h.slash(ana, "game status")
    assert "No hay ninguna partida" in reply.content  # Spanish although Discord says English
    await open_game(h, "mlem", ben, [ana])
    for _ in range(30):
        if any(m.content.startswith("🎲") for m in h.dm_messages(ana)):
            break
        await play_turn(h, {ben: 0, ana: 1}, random.Random(16))
    assert any(m.content.startswith("🎲 Te toca") for m in h.dm_messages(ana))
    assert not any(m.content.startswith("🎲") for m in h.dm_messages(ben))


async def test_server_defaults_need_manage_server(harness: Harness) -> None:
    h = harness
    ana = h.user("Ana", "en-US")
    admin = h.user("Admin", "en-US", admin=True)
    reply = await h.slash(ana, "settings server", language="es")
    assert "Manage Server" in reply.content
    reply = await h.slash(admin, "settings server", language="es", reminders="4h")
    assert "Saved" in reply.content
    lobby = (await h.slash(ana, "game new", game="mlem")).posted
    assert "Unirme" in [b.label for b in lobby.buttons]  # the server's language
    snap = await snapshot(h)
    assert snap.row.host_options["reminders"] == "4h"


async def test_log_is_paged_with_buttons(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    await open_game(h, "mlem", ana, [ben])
    rng = random.Random(17)
    for _ in range(40):
        await play_turn(h, {ana: 0, ben: 1}, rng)
    reply = await h.slash(ben, "game log")
    assert reply.ephemeral
    footer = reply.embeds[0]["footer"]["text"]
    assert footer.startswith("Page ") and not footer.startswith("Page 1 of 1")
    last_page = reply.embeds[0]["description"]
    older = next(b for b in reply.buttons if b.label == "◀")
    newer = next(b for b in reply.buttons if b.label == "▶")
    assert newer.disabled and not older.disabled  # it opens on the latest page
    turned = await h.click(ben, reply.posted, older.custom_id)
    assert turned.posted.embeds[0]["description"] != last_page
    assert turned.posted.embeds[0]["footer"]["text"] != footer


async def test_undo_refused_after_a_card_draw(harness: Harness) -> None:
    """Kosmonavts: the move that ends an event draws the next event card: no undo."""
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    await open_game(h, "kosmonavts", ana, [ben])
    store = host_of(h).store
    snap = await snapshot(h)
    rng = random.Random(18)
    for _ in range(2000):
        await play_turn(h, {ana: 0, ben: 1}, rng)
        last = (await store.actions(snap.id))[-1]
        if not last.by_bot and any(e["code"].endswith("card_drawn") for e in last.events):
            break
    else:
        raise AssertionError("no event card was drawn by a person's move")
    drawer = ana if last.seat == 0 else ben
    table = latest_table(h)
    assert "Undo" not in [b.label for b in table.buttons]
    reply = await h.slash(drawer, "game undo")
    # Secret orders follow the draw, and then undo has one answer for everyone.
    assert reply.ephemeral and (
        "revealed something" in reply.content or "secret choices" in reply.content
    )
    assert (await store.actions(snap.id))[-1].seq == last.seq


async def test_dms_are_tried_again_when_the_player_asks(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    h.fail_dms(ben)
    await open_game(h, "mlem", ana, [ben], clicks={"missions": 1})
    snap = await snapshot(h)
    assert not snap.seats[1].dm_open
    h.fail_dms(ben, fail=False)
    await h.slash(ben, "settings me", dm_on_turn=True)
    snap = await snapshot(h)
    assert snap.seats[1].dm_open
