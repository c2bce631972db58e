"""Private panels under bursts of Discord server errors on DM posts: a panel whose send
failed is owed and sent again by the next pacing tick at the latest (a restart in between
keeps it owed), the table goes on meanwhile, and "My hand" always shows the question."""

from __future__ import annotations

import logging
import random
from typing import Any

from core.contract import random_answer, split_picks
from host.clock import FakeClock
from tests.e2e.driver import hand_button, is_final, latest_table, move_buttons
from tests.e2e.kit import click_choice, cog_of, open_game, snapshot
from tests.harness import FakeUser, Harness, Message


def token_of(custom_id: str) -> str:
    return custom_id.split(":")[5]


def shows(m: Message, seat: int, token: str) -> bool:
    """Does ``m`` offer ``seat``'s decision ``token`` (any of its move buttons or menus)?"""
    return any(token_of(c) == token for c in move_buttons(m, seat))


async def private_questions(h: Harness) -> dict[int, str]:
    """seat -> the token of its open private question (people only)."""
    snap = await snapshot(h)
    out = {}
    for seat in snap.human_to_move():
        private = [d for d in snap.decisions_for(seat) if d.private]
        if private:
            out[seat] = snap.token(private[0])
    return out


def dm_fault(h: Harness, users: list[FakeUser], times: int) -> None:
    """The next ``times`` posts in these users' DM channels answer 503."""
    ids = [str(h.backend.dm_by_user[u.id]) for u in users if u.id in h.backend.dm_by_user]
    if ids:
        pattern = rf"/channels/({'|'.join(ids)})/messages$"
        h.fail_route("POST", pattern, status=503, message="Service Unavailable", times=times)


async def test_a_panel_lost_to_server_errors_is_sent_again_by_the_next_tick(
    harness: Harness, clock: FakeClock, caplog: Any
) -> None:
    h = harness
    caplog.set_level(logging.WARNING)
    users = [h.user("Ana", "en-US"), h.user("Ben", "es-ES"), h.user("Cal", "en-US")]
    await open_game(h, "red_planet", users[0], users[1:])
    rng = random.Random(7)
    faults = left_before_tick = restarts = 0
    for step in range(400):
        table = latest_table(h)
        if is_final(table):
            break
        if step % 3 == 0:  # a burst of server errors on the DM posts of the next moves
            dm_fault(h, users, times=rng.randint(1, 4))
            faults += 1
        snap = await snapshot(h)
        waiting = snap.human_to_move()
        seat = rng.choice(waiting)
        d = snap.decisions_for(seat)[0]
        answer = random_answer(d, rng)
        picks = split_picks(answer) if d.multi else [answer]
        # (on the table, in the DM panel, or — when the DM is owed — through "My hand")
        assert await click_choice(h, users[seat], seat, latest_table(h), picks, d.multi)
        owed = await private_questions(h)
        for s, token in owed.items():
            # "My hand" always shows the question, DM or not.
            hand = await h.click(users[s], latest_table(h), hand_button(latest_table(h)))
            assert shows(hand.posted, s, token), f"{users[s].name}'s hand lacks the question"
            dms = [m for m in h.dm_messages(users[s]) if move_buttons(m, s)]
            left_before_tick += not (dms and shows(dms[-1], s, token))
        if step % 25 == 24:
            await h.restart()  # what is owed is stored: the new process sends it
            restarts += 1
        h.backend.faults.clear()
        clock.advance(1)
        await cog_of(h).tick()
        # After the tick: every player with a private question has it in their DMs.
        for s, token in (await private_questions(h)).items():
            dms = [m for m in h.dm_messages(users[s]) if move_buttons(m, s)]
            assert dms and shows(dms[-1], s, token), f"{users[s].name} has no DM panel"
    assert is_final(latest_table(h))
    assert faults > 10 and left_before_tick > 0 and restarts > 0, (faults, left_before_tick)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_dm_refused_for_good_is_not_retried_at_every_tick(
    harness: Harness, clock: FakeClock, caplog: Any
) -> None:
    """A 4xx on a DM (an unknown user, 404) would be the same at every try: the seat is
    treated as having closed DMs ("My hand" shows the question, the channel says so), the
    game is not left owing the panel, and later ticks do not try again."""
    h = harness
    caplog.set_level(logging.WARNING)
    users = [h.user("Ana", "en-US"), h.user("Ben", "en-US"), h.user("Cal", "en-US")]
    await open_game(h, "red_planet", users[0], users[1:])
    ben = users[1]
    dm = h.backend.dm_by_user[ben.id]
    h.fail_route(
        "POST",
        rf"/channels/{dm}/messages$",
        status=404,
        code=10013,
        message="Unknown User",
        times=1000,
    )
    rng = random.Random(3)
    seat_of_ben = 1
    for _ in range(60):
        snap = await snapshot(h)
        if not snap.seats[seat_of_ben].dm_open:
            break
        seat = rng.choice(snap.human_to_move())
        d = snap.decisions_for(seat)[0]
        answer = random_answer(d, rng)
        picks = split_picks(answer) if d.multi else [answer]
        assert await click_choice(h, users[seat], seat, latest_table(h), picks, d.multi)
    snap = await snapshot(h)
    assert not snap.seats[seat_of_ben].dm_open
    assert any(str(ben.id) in m.content and "My hand" in m.content for m in h.messages())
    tries = sum(1 for r in h.backend.requests if r.path == f"/channels/{dm}/messages")
    for _ in range(3):
        clock.advance(120)
        await cog_of(h).tick()
    assert sum(1 for r in h.backend.requests if r.path == f"/channels/{dm}/messages") == tries
    for s, token in (await private_questions(h)).items():
        hand = await h.click(users[s], latest_table(h), hand_button(latest_table(h)))
        assert shows(hand.posted, s, token)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
