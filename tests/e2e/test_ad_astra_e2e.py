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

import json
import logging
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from core.contract import split_picks
from core.i18n import pick, t
from host.clock import FakeClock
from rules.ad_astra import GAME
from tests.e2e.driver import (
    Offer,
    is_final,
    latest_table,
    offers,
    panel_of,
    press_offer,
    private_texts,
    refused,
    tables,
    tables_ever,
    waiting_ids,
)
from tests.harness import FakeUser, Harness

ROOT = Path(__file__).resolve().parents[2]
STRINGS: dict[str, dict[str, str]] = json.loads(
    (ROOT / "data" / "ad_astra" / "strings.json").read_text(encoding="utf-8")
)
MAX_CLICKS = 4000
RAW_KEY = re.compile(r"\b(?:ad_astra|host|render|cmd)\.[a-z0-9_]+\.[a-zA-Z0-9_.]+")
TRADE_SECONDS = {"live": 120, "days": 43200}
OFFER_SECONDS = {"live": 40, "days": 14400}  # an offer's own, shorter time


def game_of(h: Harness) -> Any:
    return h.bot.host  # type: ignore[union-attr]


def cog(h: Harness) -> Any:
    return h.bot.get_cog("GameCog")  # type: ignore[union-attr]


async def snapshot(h: Harness) -> Any:
    row = await game_of(h).store.latest_game(h.channel_id)
    return await game_of(h).snapshot(row)


def phrases(prefixes: Iterable[str]) -> list[re.Pattern[str]]:
    """Regexes matching any rendering (both languages) of the strings under these keys."""
    out = []
    for lang in STRINGS.values():
        for key, text in lang.items():
            if any(key == p or key.startswith(p + ".") for p in prefixes):
                parts = re.split(r"\{[^}]*\}", text)
                out.append(re.compile(".+".join(re.escape(p) for p in parts)))
    return out


#: What only the player concerned may read: the planets seen, the card planned, the
#: artifact drawn, the cards discarded at the hand limit, the private prompts.
PRIVATE_ONLY = phrases(
    [
        "ad_astra.event.saw",
        "ad_astra.event.placed_card",
        "ad_astra.event.artifact_is",
        "ad_astra.event.discarded_cards",
        "ad_astra.prompt.plan_card",
        "ad_astra.prompt.land",
        "ad_astra.prompt.discard",
    ]
)


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
            await cog(h).tick()
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
    lang = pick(owner.locale)
    lobby = (await h.slash(owner, "game new", game="ad_astra")).message
    assert lobby is not None
    for u in others:
        await h.click(u, lobby, label=t("host.lobby.join", lang))
    for _ in range(bots):
        await h.click(owner, lobby, label=t("host.lobby.add_bot", lang))
    await h.click(owner, lobby, label=t("host.lobby.start", lang))
    return await snapshot(h)


def private_images(h: Harness, users: Iterable[FakeUser]) -> set[bytes]:
    return {
        a.data
        for u in users
        for m in [*h.dm_messages(u), *h.ephemeral_to(u)]
        for _, atts in m.stored.versions
        for a in atts
        if a.is_image
    }


async def check_finished_game(
    h: Harness,
    played: Played,
    seats: dict[FakeUser, int],
    closed: FakeUser,
    caplog: Any,
    bots: Sequence[int] = (),
) -> Any:
    users = list(seats)
    final = latest_table(h)
    assert is_final(final)
    text = final.text()
    assert "🏆" in text and all(u.name in text for u in users), text
    snap = await snapshot(h)
    result = snap.result()
    assert snap.row.status == "over" and result is not None
    for seat, score in enumerate(result.scores):
        assert sum(result.breakdown[seat].values()) == score
    assert await game_of(h).replay(snap.id) == snap.row.state

    # Trades through the UI: one accepted, one refused (by the players), one lapsed (by the
    # timer, logged as that timer's move).
    actions = await game_of(h).store.actions(snap.id)
    acc = [a for a in actions if a.choice.startswith("acc.") and a.by_user]
    ref = [a for a in actions if a.choice.startswith("ref.") and a.by_user]
    lapsed = [a for a in actions if a.choice.startswith("lapse.") and a.timer]
    assert acc and ref and lapsed, (len(acc), len(ref), len(lapsed))
    assert all(a.timer.startswith("offer.") for a in lapsed)  # type: ignore[union-attr]
    assert not played.script.need

    # Every table message carries its picture (old tables are replaced by new ones).
    posted = tables_ever(h)
    assert len(posted) > 10 and len(tables(h)) == 1
    for m in posted:
        footers = [e.get("footer", {}).get("text", "") for e in m.embeds]
        if any("Partida n.º" in f or "Game #" in f for f in footers):
            assert any(a.name == "table.png" and a.is_image for a in m.attachments), m.text()

    # Every word reached the players translated.
    public = h.all_public_text()
    for where, body in [("public", public), ("private", "\n".join(private_texts(h, users)))]:
        assert not RAW_KEY.findall(body), (where, sorted(set(RAW_KEY.findall(body)))[:10])
    missing = [r.getMessage() for r in caplog.records if "missing string" in r.getMessage()]
    assert not missing, missing

    # The player with closed DMs played through "My hand" only; the others by DM.
    assert not h.dm_messages(closed)
    assert any(a.seat == seats[closed] and a.choice.startswith("c.") for a in actions)
    assert any("private.png" in [a.name for a in m.attachments] for m in h.ephemeral_to(closed))
    for u in users:
        if u != closed:
            assert any(m.attachments for m in h.dm_messages(u)), u.name
    assert {a.seat for a in actions if a.by_bot} == set(bots)

    # Nothing private reached a channel: no private picture, no private line.
    assert not private_images(h, users) & set(h.all_public_images())
    for line in public.splitlines():
        assert not any(p.search(line) for p in PRIVATE_ONLY), line
    assert not h.unexpected
    assert not h.errors, h.errors
    return snap


@pytest.fixture(autouse=True)
def _i18n_warnings(caplog: Any) -> None:
    caplog.set_level(logging.WARNING, logger="core.i18n")


async def test_three_players(harness: Harness, clock: FakeClock, caplog: Any) -> None:
    h = harness
    ana, ben, cal = h.user("Ana", "es-ES"), h.user("Ben", "en-US"), h.user("Cal", "en-GB")
    h.fail_dms(ben)
    seats = {ana: 0, ben: 1, cal: 2}
    snap = await open_game(h, ana, [ben, cal])
    assert snap.state["n"] == 3
    played = await play_game(
        h, seats, random.Random(31), clock, closed={ben}, trade_seconds=TRADE_SECONDS["days"]
    )
    await check_finished_game(h, played, seats, ben, caplog)
    # Ben was told in the channel, without anything secret, to use "My hand".
    assert any(str(ben.id) in m.content and "Mi mano" in m.content for m in h.messages())
    print(f"\n3p: {played.clicks} clicks, {played.ticks} ticks")


async def test_four_players_one_bot(harness: Harness, clock: FakeClock, caplog: Any) -> None:
    h = harness
    ana, ben, cal = h.user("Ana", "en-US"), h.user("Ben", "es-ES"), h.user("Cal", "en-US")
    h.fail_dms(cal)
    seats = {ana: 0, ben: 1, cal: 2}
    snap = await open_game(h, ana, [ben, cal], bots=1)
    assert snap.state["n"] == 4
    played = await play_game(
        h, seats, random.Random(41), clock, closed={cal}, trade_seconds=TRADE_SECONDS["days"]
    )
    await check_finished_game(h, played, seats, cal, caplog, bots=(3,))
    print(f"\n4p: {played.clicks} clicks, {played.ticks} ticks")


async def test_five_players_two_bots(harness: Harness, clock: FakeClock, caplog: Any) -> None:
    h = harness
    ana, ben, cal = h.user("Ana", "es-ES"), h.user("Ben", "es-ES"), h.user("Cal", "en-US")
    h.fail_dms(ana)
    seats = {ana: 0, ben: 1, cal: 2}
    snap = await open_game(h, ana, [ben, cal], bots=2)
    assert snap.state["n"] == 5
    played = await play_game(
        h, seats, random.Random(51), clock, closed={ana}, trade_seconds=TRADE_SECONDS["days"]
    )
    await check_finished_game(h, played, seats, ana, caplog, bots=(3, 4))
    print(f"\n5p: {played.clicks} clicks, {played.ticks} ticks")


async def test_rules_in_both_languages(harness: Harness) -> None:
    h = harness
    eng, esp = h.user("Eng", "en-US"), h.user("Esp", "es-ES")
    for user, lang, words in ((eng, "en", "deep space"), (esp, "es", "espacio profundo")):
        reply = await h.slash(user, "game rules", game="ad_astra")
        assert reply.ephemeral
        body = reply.text()
        assert words in body.lower() and t("ad_astra.name", lang) in body
        assert t("ad_astra.rules.goal", lang)[:60] in body
