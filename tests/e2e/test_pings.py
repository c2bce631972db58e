"""How often a whole game pings its players, with the lobby's default ``pings`` (``away``:
a new table pings a player only if they have not acted in the game for
:data:`host.pacing.AWAY_AFTER`) and with ``live`` ("always"), in every registered game.

Players click as soon as it is their turn (the game's own bot heuristic picks their move,
so the games end), on the table, in their DMs or through "My hand" — whatever the bot shows
them; the clock only moves when the game waits for a timer alone. A ping is a channel
message whose ``allowed_mentions`` notify that user (:func:`tests.e2e.driver.pings`).
The figures are printed (``-s``); the README quotes them."""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from typing import Any

import pytest

from core import i18n
from core.contract import answers, random_answer, split_picks
from core.i18n import t
from host import registry
from host.clock import FakeClock
from host.pacing import AWAY_AFTER, HOUR
from tests.e2e.driver import (
    hand_button,
    is_final,
    latest_table,
    move_buttons,
    offers,
    ping_counts,
    pings,
)
from tests.harness import FakeUser, Harness, Message

GAMES = tuple(registry.GAME_MODULES)
#: The most pings a player may get in a whole 3-player game with the default options.
MOST_PINGS = 8
MAX_CLICKS = 4000


def cog(h: Harness) -> Any:
    return h.bot.get_cog("GameCog")  # type: ignore[union-attr]


async def snapshot(h: Harness) -> Any:
    host = cog(h).host
    return await host.snapshot(await host.store.latest_game(h.channel_id))


async def open_table(
    h: Harness, game: str, users: Sequence[FakeUser], *, pings_clicks: int = 0
) -> Message:
    """A lobby of ``game`` opened by the first user, joined by the others, its ``pings``
    option clicked ``pings_clicks`` times (default ``away``; 1: ``live``; 2: ``days``),
    then started."""
    lang = i18n.pick(users[0].locale)
    lobby = (await h.slash(users[0], "game new", game=game)).posted
    for u in users[1:]:
        await h.click(u, lobby, label=t("host.lobby.join", lang))
    for _ in range(pings_clicks):
        button = next(b for b in lobby.buttons if (b.custom_id or "").endswith(":o.h.pings"))
        await h.click(users[0], lobby, button.custom_id)
    await h.click(users[0], lobby, label=t("host.lobby.start", lang))
    return lobby


async def click_choice(
    h: Harness, user: FakeUser, seat: int, table: Message, picks: list[str], multi: bool
) -> bool:
    """Click ``picks`` (one option, or a multi-pick menu's values) where ``user`` sees
    them: on the table, in their last DM panel, or in a fresh "My hand" reply. False when
    nowhere shows them (e.g. on a later page of a long menu)."""
    places = [table]
    dms = [m for m in h.dm_messages(user) if move_buttons(m, seat)]
    if dms:
        places.append(dms[-1])
    for attempt in range(2):
        for m in places:
            for o in offers(m, seat):
                if o.option != picks[0]:
                    continue
                values = picks if (o.value is not None and multi) else None
                if o.value is not None and values is None:
                    values = [o.value]
                await h.click(user, o.message, o.custom_id, values=values)
                return True
        if attempt == 0:
            places = [(await h.click(user, table, hand_button(table))).posted]
    return False


async def play_straight(
    h: Harness,
    users: Sequence[FakeUser],
    clock: FakeClock,
    rng: random.Random,
    *,
    think: float = 0.0,
) -> int:
    """Play the game in the channel to its end, each waiting player clicking at once (or
    ``think`` seconds after the previous click); otherwise the clock moves only when nobody
    but a timer is awaited. The clicks made."""
    seats = {u.id: i for i, u in enumerate(users)}
    clicks = 0
    while True:
        table = latest_table(h)
        if is_final(table):
            return clicks
        snap = await snapshot(h)
        waiting = snap.human_to_move()
        if not waiting:
            due = [d for d, _ in snap.running_timers()]
            assert due, "the game waits for nobody and for no timer"
            clock.advance(max(1.0, min(due) - clock.now() + 1))
            await cog(h).tick()
            continue
        seat = rng.choice(waiting)
        user = next(u for u in users if seats[u.id] == seat)
        decisions = snap.decisions_for(seat)
        pick = getattr(snap.game, "bot_choice", None)
        choice = str(pick(snap.state, seat, random.Random(rng.random()))) if pick else None
        decision = next((d for d in decisions if choice and answers(d, choice)), None)
        if decision is None:
            decision = decisions[0]
            choice = random_answer(decision, rng)
        assert choice is not None
        picks = split_picks(choice) if decision.multi else [choice]
        clock.advance(think)
        if not await click_choice(h, user, seat, table, picks, decision.multi):
            # Not shown where the player looks (a later page): any move they are shown.
            choice = random_answer(decision, rng)
            picks = split_picks(choice) if decision.multi else [choice]
            assert await click_choice(h, user, seat, table, picks, decision.multi), (
                f"{user.name} sees no move of {decision.prompt}"
            )
        clicks += 1
        assert clicks < MAX_CLICKS, "the game did not end"


async def whole_game(
    h: Harness,
    clock: FakeClock,
    game: str,
    *,
    pings_clicks: int = 0,
    seed: int = 1,
    think: float = 0.0,
) -> tuple[dict[str, int], int]:
    users = [h.user("Ana", "en-US"), h.user("Ben", "es-ES"), h.user("Cal", "en-GB")]
    await open_table(h, game, users, pings_clicks=pings_clicks)
    clicks = await play_straight(h, users, clock, random.Random(seed), think=think)
    return ping_counts(h, users), clicks


@pytest.mark.skipif(
    not os.environ.get("COSMODROME_FIGURES"), reason="the README's figures: COSMODROME_FIGURES=1"
)
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(("mode", "think"), [("live", 0.0), ("away", 30.0), ("away", 120.0)])
async def test_figures(
    harness: Harness, clock: FakeClock, game: str, mode: str, think: float
) -> None:
    """The README's other figures: ``always`` (``live``), and the default with players
    who take 30 seconds or 2 minutes a move."""
    clicks_to = {"away": 0, "live": 1}[mode]
    counts, clicks = await whole_game(harness, clock, game, pings_clicks=clicks_to, think=think)
    assert (await snapshot(harness)).row.host_options["pings"] == mode
    print(f"\npings {game} 3p {mode} think {think:.0f}s: {counts} in {clicks} clicks")


@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_game_with_default_options_pings_each_player_at_most_8_times(
    harness: Harness, clock: FakeClock, game: str
) -> None:
    counts, clicks = await whole_game(harness, clock, game)
    mode = (await snapshot(harness)).row.host_options["pings"]
    assert mode == "away"
    print(f"\npings {game} 3p default ({mode}): {counts} in {clicks} clicks")
    assert all(n <= MOST_PINGS for n in counts.values()), counts
    assert any(counts.values())  # the first turns do ping: nobody has acted yet


async def test_a_player_away_is_pinged_when_their_turn_comes(
    harness: Harness, clock: FakeClock
) -> None:
    h = harness
    users = [h.user("Ana", "en-US"), h.user("Ben", "en-US"), h.user("Cal", "en-US")]
    await open_table(h, "mlem", users)
    rng = random.Random(3)
    seats = {i: u for i, u in enumerate(users)}
    last: dict[int, float] = {}  # when each seat last clicked
    away_pinged = along_quiet = 0
    for _ in range(200):
        table = latest_table(h)
        if is_final(table):
            break
        snap = await snapshot(h)
        (mover,) = snap.human_to_move()
        d = snap.decisions_for(mover)[0]
        before = len(pings(h))
        # Now and then everyone is away a while (beyond the window) before a move.
        if len(last) == 3 and rng.random() < 0.25:
            clock.advance(AWAY_AFTER + 1)
        answer = random_answer(d, rng)
        picks = split_picks(answer) if d.multi else [answer]
        assert await click_choice(h, seats[mover], mover, table, picks, d.multi)
        last[mover] = clock.now()
        after = await snapshot(h)
        got = set().union(*[who for _, who in pings(h)[before:]])
        for s in after.human_to_move():
            if s == mover or s not in last:
                continue
            if clock.now() - last[s] >= AWAY_AFTER:  # away: pinged when their turn comes
                assert seats[s].id in got
                away_pinged += 1
            else:  # clicking along: no ping
                assert seats[s].id not in got
                along_quiet += 1
        clock.advance(20)
    assert away_pinged >= 3 and along_quiet >= 10, (away_pinged, along_quiet)


async def test_always_pings_at_every_turn_change(harness: Harness, clock: FakeClock) -> None:
    h = harness
    users = [h.user("Ana", "en-US"), h.user("Ben", "en-US"), h.user("Cal", "en-US")]
    await open_table(h, "mlem", users, pings_clicks=1)
    assert (await snapshot(h)).row.host_options["pings"] == "live"
    await play_straight(h, users, clock, random.Random(2))
    assert all(n > MOST_PINGS for n in ping_counts(h, users).values())


async def test_a_player_who_left_just_before_their_turn_is_pinged_once_by_the_tick(
    harness: Harness, clock: FakeClock
) -> None:
    """The default's gap, closed: a player who moved a minute before their turn came (so
    the table does not ping them) and then left is pinged once by the pacing tick, about
    AWAY_AFTER after their turn came; a player the table pinged is not pinged again."""
    h = harness
    users = [h.user("Ana", "en-US"), h.user("Ben", "en-US"), h.user("Cal", "en-US")]
    await open_table(h, "mlem", users)
    rng = random.Random(5)
    seats = {i: u for i, u in enumerate(users)}
    tick = cog(h).tick
    last: dict[int, float] = {}

    async def click(mover: int) -> None:
        table = latest_table(h)
        d = (await snapshot(h)).decisions_for(mover)[0]
        answer = random_answer(d, rng)
        picks = split_picks(answer) if d.multi else [answer]
        assert await click_choice(h, seats[mover], mover, table, picks, d.multi)
        last[mover] = clock.now()

    def pinged_since(start: int) -> list[set[int]]:
        return [who for _, who in pings(h)[start:] if who]

    # Quick moves, 30 s apart, until a player's turn comes a minute or so after their move.
    for _ in range(60):
        (mover,) = (await snapshot(h)).human_to_move()
        before = len(pings(h))
        await click(mover)
        (nxt,) = (await snapshot(h)).human_to_move()
        came = clock.now()
        if nxt != mover and nxt in last and came - last[nxt] <= 90:
            break
        clock.advance(30)
    else:
        raise AssertionError("no turn came shortly after the player's own move")
    assert seats[nxt].id not in set().union(*pinged_since(before))  # clicking along: quiet
    # They do not come back: nothing until AWAY_AFTER into their turn, then one ping.
    start = len(pings(h))
    clock.advance(AWAY_AFTER - 1)
    await tick()
    assert pinged_since(start) == []
    clock.advance(1)
    await tick()
    assert pinged_since(start) == [{seats[nxt].id}]
    clock.advance(HOUR)
    await tick()
    assert pinged_since(start) == [{seats[nxt].id}]  # once
    # Back, they move; everyone is then away: the next table pings its player, and the
    # catch-up does not ping them again.
    clock.advance(AWAY_AFTER + 1)
    before = len(pings(h))
    await click(nxt)
    (then,) = (await snapshot(h)).human_to_move()
    assert then != nxt and pinged_since(before) == [{seats[then].id}]
    start = len(pings(h))
    for _ in range(6):
        clock.advance(AWAY_AFTER)
        await tick()
    assert pinged_since(start) == []
