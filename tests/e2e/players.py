"""Simulated players of single games who know the game a little (they pick what the
game's own bot would, most of the time): used by the game's e2e tests and by the tests of
bot levels and channel flow. Each checks, at every click, that what it is shown is what the
engine offers its seat."""

from __future__ import annotations

import copy
import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.galaxy_trucker import GAME as GALAXY_TRUCKER
from rules.kosmonavts import GAME as KOSMONAVTS
from rules.kosmonavts.engine import seat_options
from tests.e2e.driver import Offer, latest_table, play_turn
from tests.e2e.kit import assert_finished, assert_no_secrets_in_channels, secret_patterns, snapshot
from tests.harness import FakeUser, Harness

#: The most clicks a Galaxy Trucker flight takes in these tests.
GT_MAX_CLICKS = 1500

#: What only a Galaxy Trucker builder may read: where they put a tile, what they drew, what
#: they hold.
SHIP_IN_PROGRESS = secret_patterns("galaxy_trucker")


def own_knowledge(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """A Kosmonavts state as ``seat`` may know it: other seats' missions and orders blanked,
    the event deck's order unknown."""
    s = copy.deepcopy(state)
    for k in range(s["n"]):
        if k == seat:
            continue
        s["missions"][k] = []
        if s["dealt"] is not None:
            s["dealt"][k] = []
        if s["choice"] is not None:
            s["choice"][k] = {**s["choice"][k], "keep": []}
        if s["orders"] is not None:
            s["orders"][k] = {**s["orders"][k], "steps": [], "final": None}
    s["deck"] = []
    return s


@dataclass
class Follower:
    """Picks one of the moves a player sees: the game's own bot's choice (from what the
    seat may know) with probability ``follow``, else any of them. Checks that what is shown
    is exactly what the engine offers the seat."""

    h: Harness
    game: Any
    follow: float = 0.8
    last: tuple[FakeUser, int, Offer] | None = None
    clicks: Counter[str] = field(default_factory=Counter)

    def offered(self, state: Any, seat: int) -> list[str]:
        return [o.id for d in self.game.pending(state) if d.seat == seat for o in d.options]

    def known(self, state: Any, seat: int) -> Any:
        """The state as ``seat`` may know it (what the bot decides from)."""
        return state

    async def __call__(
        self, user: FakeUser, seat: int, pool: Sequence[Offer], rng: random.Random
    ) -> Offer:
        state = (await snapshot(self.h)).state
        shown = sorted(o.option for o in pool)
        offered = sorted(self.offered(state, seat))
        assert shown == offered, f"seat {seat} is offered {offered} but sees {shown}"
        if rng.random() < self.follow:
            known = self.known(state, seat)
            want = self.game.bot_choice(known, seat, random.Random(rng.random()))
            pick = next(o for o in pool if o.option == want)
        else:
            pick = rng.choice(list(pool))
        self.last = (user, seat, pick)
        self.clicks["private" if pick.private else "table"] += 1
        return pick


@dataclass
class Pilot(Follower):
    """Kosmonavts: follows the engine's pilot (85% of the time), deciding from what the
    seat may know (:func:`own_knowledge`)."""

    game: Any = KOSMONAVTS
    follow: float = 0.85

    def offered(self, state: Any, seat: int) -> list[str]:
        return [o.id for o in seat_options(state, seat)]

    def known(self, state: Any, seat: int) -> Any:
        return own_knowledge(state, seat)


@dataclass
class Trucker:
    """Galaxy Trucker: picks one of the moves a player sees: the engine bot's pick when it
    is shown (a placement may sit on another block of a paged grid), else any shown move; a
    builder finishes once their ship has ``tiles`` tiles. Checks that every move shown is
    offered."""

    h: Harness
    tiles: int = 6
    clicks: Counter[str] = field(default_factory=Counter)

    async def __call__(
        self, user: FakeUser, seat: int, pool: Sequence[Offer], rng: random.Random
    ) -> Offer:
        state = (await snapshot(self.h)).state
        pending = GALAXY_TRUCKER.pending(state)
        offered = {o.id for d in pending if d.seat == seat for o in d.options}
        shown = {o.option for o in pool}
        assert shown and shown <= offered, f"seat {seat} sees {shown - offered} not offered"
        assert "hg.out" not in shown  # only the clock ends the sand
        # Placing a tile never needs paging: every free cell is one tap away.
        places = {o for o in offered if o.startswith("place.")}
        if places and pool[0].private:
            assert places <= shown, f"cells hidden behind arrows: {places - shown}"
            self.clicks["place-panels"] += 1
        me = state["players"][seat]
        if state["phase"] == "build" and len(me["ship"]) >= self.tiles and "done" in shown:
            want = "done"
        else:
            want = GALAXY_TRUCKER.bot_choice(state, seat, random.Random(rng.random()))
        choice = next((o for o in pool if o.option == want), None)
        if choice is None:
            choice = rng.choice([o for o in pool if o.option != "lift"] or list(pool))
        self.clicks[state["phase"] + (":private" if choice.private else ":table")] += 1
        return choice


def ship_guard(h: Harness, users: Sequence[FakeUser]) -> None:
    """Galaxy Trucker: nothing of a ship in progress in any channel output: no private
    picture (and some was shown), no line about where a tile went or what a builder holds."""
    for m in h.messages():
        assert "private.png" not in [a.name for a in m.attachments], m.text()[:200]
    assert_no_secrets_in_channels(h, users, SHIP_IN_PROGRESS, pictures=True)


async def finish_flight(
    h: Harness, seats: dict[FakeUser, int], rng: random.Random, closed: set[FakeUser], tr: Trucker
) -> Any:
    """Galaxy Trucker: play on (``tr`` choosing) to the credits, which explain the scores;
    every card was named in turn on the table. The final snapshot."""
    for _ in range(GT_MAX_CLICKS):
        if await play_turn(h, seats, rng, closed=closed, choose=tr) is None:
            break
    else:
        raise AssertionError("the flight did not end")
    snap = await assert_finished(h)
    assert snap.state["phase"] == "over"
    text = latest_table(h).text()
    for score in snap.result().scores:
        assert f"**{score}**" in text
    # the trail has no card headers (one move may resolve several cards): each card's
    # first line names it ("Card 3 of 12: Meteor swarm"), every card in turn
    public = h.all_public_text()
    assert not re.search(r"^\*\*(Card|Carta) \d+\*\*", public, re.M)
    numbers = [int(k) for k in re.findall(r"🃏 (?:Card|Carta) (\d+) (?:of|de) \d+", public)]
    assert numbers and set(numbers) == set(range(1, max(numbers) + 1))
    return snap
