"""Ad Astra through the offline Discord harness: whole games from ``/game new`` to final
scores (3, 4 and 5 players, bots in some seats), clicking only what the bot shows (the
table, DMs, "My hand" replies), one player with closed DMs; in each game at least one
player-to-player trade is accepted, one refused and one lapses when its timer runs out
(FakeClock + the pacing tick); nothing private ever reaches a channel.

The simulated players play like the engine's bot, except that they plan their Trade cards
(the bot never does) and, while they trade, follow a small script: an offer to one player
that is left to lapse (its timer fires at the pacing tick), an offer to another that is
accepted or refused, then Done (or the window's own timer closes it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from core.contract import split_picks
from core.i18n import t
from host.clock import FakeClock
from rules.ad_astra import GAME
from tests.e2e import kit
from tests.e2e.driver import (
    Offer,
    is_final,
    latest_table,
    offers,
    panel_of,
    press_offer,
    refused,
    tables,
    waiting_ids,
)
from tests.e2e.kit import (
    assert_finished,
    assert_no_secrets_in_channels,
    assert_played_in_private,
    assert_tables_have_pictures,
    assert_translated,
    cog_of,
    host_of,
    snapshot,
)
from tests.harness import FakeUser, Harness

MAX_CLICKS = 4000
pytestmark = pytest.mark.usefixtures("i18n_warnings")
TRADE_SECONDS = {"live": 120, "days": 43200}
OFFER_SECONDS = {"live": 40, "days": 14400}  # an offer's own, shorter time


#: What only the player concerned may read: the planets seen, the card planned, the
#: artifact drawn, the cards discarded at the hand limit, the private prompts.
PRIVATE_ONLY = kit.secret_patterns("ad_astra")


@dataclass
class Script:
    """What the trading players still have to show, and the plan of the open window."""

    need: set[str] = field(default_factory=lambda: {"acc", "ref", "lapse"})
    tid: int | None = None
    steps: list[tuple[str, int]] = field(default_factory=list)
    outcome: dict[int, str] = field(default_factory=dict)  # offer id -> acc/ref/lapse
    lapse_at: float | None = None
    window_at: float = 0.0  # when the open window's own timer runs out
    window_secs: int = 0
    lapsed: int = 0


@dataclass
class Played:
    clicks: int
    ticks: int
    script: Script


def _pool_for(pool: Sequence[Offer], picks: Sequence[str]) -> tuple[Offer, list[str]]:
    """The message element to click for these picks, and the values to send."""
    hits = [o for o in pool if o.option in picks]
    assert hits and {o.option for o in hits} == set(picks), (picks, [o.option for o in pool])
    return hits[0], list(picks)


async def click(h: Harness, user: FakeUser, pool: Sequence[Offer], picks: Sequence[str]) -> None:
    offer, values = _pool_for(pool, picks)
    if offer.value is None:
        assert len(values) == 1
        reply = await press_offer(h, user, offer)
    else:
        reply = await h.click(user, offer.message, offer.custom_id, values=values)
    assert not refused(reply), f"a legal-looking click was refused: {reply.text()}"


async def pool_of(
    h: Harness, user: FakeUser, seat: int, closed: set[FakeUser], state: dict[str, Any]
) -> list[Offer]:
    """Every move the player sees; checked against what the engine offers the seat."""
    table = latest_table(h)
    mine = [d for d in GAME.pending(state) if d.seat == seat]
    pool = offers(table, seat)
    # Too many public questions for the table (a trade window with an offer to answer):
    # one "Your move" button per seat opens that seat's questions privately.
    move = [b.custom_id for b in table.buttons if (b.custom_id or "").endswith(f":t:move.{seat}")]
    if move:
        opened = await h.click(user, table, move[0])
        assert opened.message is not None and opened.message.ephemeral
        pool += offers(opened.message, seat)
    if any(d.private for d in mine) or not pool:  # a secret question: DM or "My hand"
        seen = {o.option for o in pool}  # "My hand" repeats the table's questions too
        pool += [
            o for o in offers(await panel_of(h, user, table, closed), seat) if o.option not in seen
        ]
    shown = sorted(o.option for o in pool)
    offered = sorted(o.id for d in GAME.pending(state) if d.seat == seat for o in d.options)
    assert shown == offered, f"seat {seat} is offered {offered} but sees {shown}"
    return pool


def _trade_move(
    state: dict[str, Any], script: Script, humans: dict[int, FakeUser], now: float
) -> tuple[int, list[str]] | str | None:
    """The scripted move of a trade window: (seat, picks), "tick", or None (not scripted)."""
    task = state["task"]
    owner = task["o"]
    pend = GAME.pending(state)
    # Answers first: the offers we mean to accept or refuse.
    for off in task["offers"]:
        want = script.outcome.get(off["id"])
        if not off["prop"] and want in ("acc", "ref") and off["to"] in humans:
            ids = [o.id for d in pend if d.seat == off["to"] for o in d.options]
            if f"{want}.{off['id']}" in ids:
                return off["to"], [f"{want}.{off['id']}"]
            return off["to"], [f"ref.{off['id']}"]  # no longer feasible: refuse it
    mine = [d for d in pend if d.seat == owner]
    if owner in humans and mine:
        d = mine[0]
        ids = [o.id for o in d.options]
        if d.prompt.endswith("prompt.compose"):
            give = next((i for i in ids if i.startswith("g.")), None)
            gave = give.split(".")[1] if give else ""
            # a different type (ruling 23: a card is never traded for its own type)
            want = next((i for i in ids if i.startswith("w.") and i.split(".")[1] != gave), None)
            return owner, [i for i in (give, want) if i] or ["x"]
        if d.prompt.endswith("prompt.bank_get"):
            return owner, ["back"]
        if script.tid != task["tid"]:  # a new window: plan it
            script.tid = task["tid"]
            script.outcome = {}
            script.window_at = now + script.window_secs
            targets = [
                int(i.split(".")[1])
                for i in ids
                if i.startswith("offer.") and int(i[6:]) in humans
            ]
            steps: list[tuple[str, int]] = []
            # An offer has its own timer, shorter than the window's: the offer left to lapse
            # runs out while the window stays open, whoever it goes to.
            if "lapse" in script.need and len(targets) >= 2:
                steps = [("lapse", targets[0])]
                targets = targets[1:]
            if script.need & {"acc", "ref"} and targets:
                steps.append(("acc" if "acc" in script.need else "ref", targets[0]))
            script.steps = steps
        lapse_open = any(script.outcome.get(o["id"]) == "lapse" for o in task["offers"])
        while script.steps:
            _kind, target = script.steps[0]
            if f"offer.{target}" not in ids:
                script.steps.pop(0)
                continue
            return owner, [f"offer.{target}"]
        if lapse_open:
            return "tick"
        return owner, ["done"]
    return None


async def play_game(
    h: Harness,
    seats: dict[FakeUser, int],
    rng: random.Random,
    clock: FakeClock,
    *,
    closed: set[FakeUser],
    trade_seconds: int,
) -> Played:
    humans = {seat: u for u, seat in seats.items()}
    script = Script(window_secs=trade_seconds)
    offer_seconds = OFFER_SECONDS[next(k for k, v in TRADE_SECONDS.items() if v == trade_seconds)]
    clicks = ticks = 0
    while True:
        table = latest_table(h)
        if is_final(table):
            break
        clicks += 1
        assert clicks < MAX_CLICKS, "the game did not end"
        state = (await snapshot(h)).state
        ids = waiting_ids(table)
        move: tuple[int, list[str]] | str | None = None
        task = state["task"]
        if state["step"] == "act" and task is not None and task["k"] == "trade":
            move = _trade_move(state, script, humans, clock.now())
        if move == "tick":
            # Nobody answers the offer: its time runs out and the pacing tick lapses it.
            lapse = [o for o in task["offers"] if script.outcome.get(o["id"]) == "lapse"]
            assert script.lapse_at is not None
            assert script.lapse_at < script.window_at, "the offer outlives the window"
            clock.advance(max(0.0, script.lapse_at - clock.now()))
            await cog_of(h).tick()
            ticks += 1
            after = (await snapshot(h)).state["task"]
            assert after is not None and after["k"] == "trade", "the window closed too"
            assert after["tid"] == task["tid"]
            assert not {o["id"] for o in after["offers"]} & {o["id"] for o in lapse}, (
                "the offer did not lapse"
            )
            script.need.discard("lapse")
            script.lapsed += 1
            continue
        if move is None:
            waiting = [u for u in seats if u.id in ids]
            assert waiting, f"the table waits for nobody we know: {table.text()[:300]}"
            if task is not None and task.get("k") == "trade":
                # Others while someone trades: no proposals (the script does the trading).
                for u in waiting:
                    mine = [d for d in GAME.pending(state) if d.seat == seats[u]]
                    if mine and "pass" in [o.id for o in mine[0].options]:
                        move = (seats[u], ["pass"])
                        break
            if move is None:
                user = rng.choice(waiting)
                seat = seats[user]
                d = next(d for d in GAME.pending(state) if d.seat == seat)
                opt_ids = [o.id for o in d.options]
                if "c.t" in opt_ids and script.need and rng.random() < 0.8:
                    picks = ["c.t"]
                else:
                    choice = GAME.bot_choice(state, seat, random.Random(rng.random()))
                    picks = split_picks(choice)
                move = (seat, picks)
        assert isinstance(move, tuple)
        seat, picks = move
        user = humans[seat]
        pool = await pool_of(h, user, seat, closed, state)
        before = state["task"]
        await click(h, user, pool, picks)
        # Remember what each new offer is for.
        if picks[0].startswith("offer."):
            target = int(picks[0][6:])
            kind = script.steps.pop(0)[0] if script.steps else "ref"
            script.outcome[-target - 1] = kind  # resolved to the offer id once composed
        if before is not None and before.get("k") == "trade":
            after = (await snapshot(h)).state["task"]
            if after is not None and after["k"] == "trade":
                for o in after["offers"]:
                    key = -o["to"] - 1
                    if o["id"] not in script.outcome and key in script.outcome and not o["prop"]:
                        script.outcome[o["id"]] = script.outcome.pop(key)
                        if script.outcome[o["id"]] == "lapse":
                            script.lapse_at = clock.now() + offer_seconds
        if picks[0].startswith(("acc.", "ref.")):
            script.need.discard(picks[0][:3])
    return Played(clicks, ticks, script)


async def open_game(h: Harness, owner: FakeUser, others: Sequence[FakeUser], bots: int = 0) -> Any:
    await kit.open_game(h, "ad_astra", owner, others, bots=bots)
    return await snapshot(h)


async def check_finished_game(
    h: Harness,
    played: Played,
    seats: dict[FakeUser, int],
    closed: FakeUser,
    caplog: Any,
    bots: Sequence[int] = (),
) -> Any:
    users = list(seats)
    snap = await assert_finished(h, users)

    # Trades through the UI: one accepted, one refused (by the players), one lapsed (by the
    # timer, logged as that timer's move).
    actions = await host_of(h).store.actions(snap.id)
    acc = [a for a in actions if a.choice.startswith("acc.") and a.by_user]
    ref = [a for a in actions if a.choice.startswith("ref.") and a.by_user]
    lapsed = [a for a in actions if a.choice.startswith("lapse.") and a.timer]
    assert acc and ref and lapsed, (len(acc), len(ref), len(lapsed))
    assert all(a.timer.startswith("offer.") for a in lapsed)  # type: ignore[union-attr]
    assert not played.script.need

    # Every table message carries its picture (old tables are replaced by new ones).
    posted = assert_tables_have_pictures(h)
    assert len(posted) > 10 and len(tables(h)) == 1
    assert_translated(h, "ad_astra", users, caplog)

    # The player with closed DMs played through "My hand" only; the others by DM.
    assert_played_in_private(h, users, closed)
    assert any(a.seat == seats[closed] and a.choice.startswith("c.") for a in actions)
    assert {a.seat for a in actions if a.by_bot} == set(bots)

    # Nothing private reached a channel: no private picture, no private line.
    assert_no_secrets_in_channels(h, users, PRIVATE_ONLY)
    return snap


#: The tables played: the players' locales (Ana, Ben, Cal; Ana's is the game's language),
#: whose DMs are closed, how many bots, the seed.
TABLES = {
    "three_players": (("es-ES", "en-US", "en-GB"), 1, 0, 31),
    "four_players_one_bot": (("en-US", "es-ES", "en-US"), 2, 1, 41),
    "five_players_two_bots": (("es-ES", "es-ES", "en-US"), 0, 2, 51),
}


@pytest.mark.parametrize("table", TABLES)
async def test_a_whole_game(harness: Harness, clock: FakeClock, caplog: Any, table: str) -> None:
    h = harness
    locales, closed_seat, bots, seed = TABLES[table]
    users = [h.user(name, loc) for name, loc in zip(("Ana", "Ben", "Cal"), locales, strict=True)]
    closed = users[closed_seat]
    h.fail_dms(closed)
    seats = {u: seat for seat, u in enumerate(users)}
    snap = await open_game(h, users[0], users[1:], bots=bots)
    assert snap.state["n"] == 3 + bots
    played = await play_game(
        h, seats, random.Random(seed), clock, closed={closed}, trade_seconds=TRADE_SECONDS["days"]
    )
    await check_finished_game(h, played, seats, closed, caplog, bots=tuple(range(3, 3 + bots)))
    # The player whose DMs are closed was told in the channel, in the game's language and
    # without anything secret, to use "My hand".
    hand = "Mi mano" if locales[0] == "es-ES" else "My hand"
    assert any(str(closed.id) in m.content and hand in m.content for m in h.messages())
    print(f"\n{3 + bots}p: {played.clicks} clicks, {played.ticks} ticks")


async def test_rules_in_both_languages(harness: Harness) -> None:
    h = harness
    eng, esp = h.user("Eng", "en-US"), h.user("Esp", "es-ES")
    for user, lang, words in ((eng, "en", "deep space"), (esp, "es", "espacio profundo")):
        reply = await h.slash(user, "game rules", game="ad_astra")
        assert reply.ephemeral
        body = reply.text()
        assert words in body.lower() and t("ad_astra.name", lang) in body
        assert t("ad_astra.rules.goal", lang)[:60] in body
