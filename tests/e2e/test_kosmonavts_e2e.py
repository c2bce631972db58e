"""Kosmonavts through the offline Discord harness: whole games from ``/game new`` to final
scores, clicking only what the bot shows (the table, DMs, "My hand" replies), with one
player whose DMs are closed; secret orders and missions never reach a channel.

The simulated players mostly fly like the engine's pilot (``rules/kosmonavts/bot.py``) so
that a game ends by a return to Earth well before the round limit, and now and then click any
button they see. They decide from what their seat may know (other seats' orders and
missions are blanked first) and they only ever click one of the moves shown to them; every
option the engine offers a seat must be among those moves.
"""

from __future__ import annotations

import itertools
import random
import re
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from core.i18n import pick, t
from rules.kosmonavts.engine import ORDER_FINALS, STEP_CAP
from tests.e2e import kit
from tests.e2e.driver import (
    is_final,
    latest_table,
    offers,
    panel_of,
    pings,
    play_turn,
    press_offer,
    private_texts,
    refused,
    tables_ever,
    waiting_ids,
)
from tests.e2e.kit import (
    assert_finished,
    assert_no_secrets_in_channels,
    assert_played_in_private,
    assert_translated,
    host_of,
    snapshot,
)
from tests.e2e.players import Pilot
from tests.harness import FakeUser, Harness

MAX_CLICKS = 2000
pytestmark = pytest.mark.usefixtures("i18n_warnings")


# -- reading what the bot shows ---------------------------------------------------------


def text_patterns(key_prefixes: Iterable[str]) -> list[re.Pattern[str]]:
    return kit.text_patterns("kosmonavts", key_prefixes)


def mission_phrases() -> list[str]:
    """How a mission is named anywhere: its card label ("M1: 1st on Mars (2 VP)") and the
    quoted name the end-of-game events use ('first on Mars'), in both languages."""
    phrases = []
    for lang in kit.strings("kosmonavts").values():
        for key, text in lang.items():
            if key.startswith("kosmonavts.mission."):
                phrases.append(text)
            elif key.startswith(("kosmonavts.event.mission_done.", "kosmonavts.event.mission_fa")):
                phrases += [a or b for a, b in re.findall(r"'([^']+)'|«([^»]+)»", text)]
    return sorted({p for p in phrases if p})


#: Events that tell what an order was: only ever posted once every order is given.
ORDER_CONTENT = text_patterns(
    [
        f"kosmonavts.event.{k}"
        for k in ("order", "order_stay", "order_stayfull", "order_evac", "order_none")
    ]
    + ["kosmonavts.event.converted", "kosmonavts.event.takeoff"]
)
ORDER_GIVEN = text_patterns(["kosmonavts.event.order_confirmed"])
#: What only a private panel shows: the order being composed and the mission cards.
PRIVATE_ONLY = kit.secret_patterns("kosmonavts")


@dataclass
class Played(kit.Played):
    add_clicks_checked: int
    confirms_checked: int


async def play_game(
    h: Harness,
    seats: dict[FakeUser, int],
    rng: random.Random,
    *,
    closed: set[FakeUser],
    pilot: Pilot,
) -> Played:
    """Play to the end, checking after every click that secret orders stay secret."""
    watch = kit.PublicWatch(h)
    watch.fresh()
    during: list[str] = []
    adds = confirms = 0
    orders_view: dict[str, Any] | None = None
    t0 = time.perf_counter()
    game = kit.Clicking(h, seats, rng, pilot, closed, MAX_CLICKS)
    async for _, _, offer in game:
        versions, fresh = watch.fresh()
        after = await snapshot(h)
        if not is_final(latest_table(h)):
            during.extend(fresh)
        if after.state["phase"] != "orders":
            orders_view = None
            continue
        # Orders are being composed: the public view moves only by who has confirmed.
        public = public_but_confirmations(after.view(None))
        if orders_view is None:  # the orders phase has just begun
            orders_view = public
            continue
        assert public == orders_view
        if offer.private and offer.option.split(".")[0] in ("add", "addh", "undo", "convert"):
            # A cube added to (or taken from) an unconfirmed order: no channel message is
            # posted or edited, so the table's picture and text stay exactly as they were.
            assert versions == 0, f"a secret order click changed the channel: {fresh}"
            adds += 1
        elif offer.option in ORDER_FINALS:
            # Someone confirmed while others still compose: the channel says who, not what.
            assert any(p.search(line) for p in ORDER_GIVEN for line in fresh), fresh
            leaked = [line for line in fresh if any(p.search(line) for p in ORDER_CONTENT)]
            assert not leaked, leaked
            confirms += 1
    seconds = time.perf_counter() - t0
    return Played(latest_table(h), game.clicks, seconds, during, adds, confirms)


def public_but_confirmations(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("confirmed", "waiting")}


async def open_game(
    h: Harness, owner: FakeUser, others: Sequence[FakeUser], options: dict[str, str]
) -> Any:
    """``/game new``, the others join, the lobby's option buttons are clicked (by the last
    to join) until they show ``options``, then the owner starts."""
    lang = pick(owner.locale)
    lobby = await kit.open_game(
        h, "kosmonavts", owner, others, options=options, by=others[-1], start=False
    )
    for key, value in options.items():
        shown = f"{t(f'kosmonavts.opt.{key}', lang)}: {t(f'kosmonavts.opt.{key}.{value}', lang)}"
        assert shown in [b.label for b in lobby.buttons], lobby.text()
    assert (await snapshot(h)).row.options == options
    await h.click(owner, lobby, label=t("host.lobby.start", lang))
    return await snapshot(h)


# -- checks shared by the whole games ---------------------------------------------------


async def check_finished_game(
    h: Harness, played: Played, seats: dict[FakeUser, int], closed: FakeUser, caplog: Any
) -> Any:
    users = list(seats)
    snap = await assert_finished(h, users)
    text = played.final.text()
    result = snap.result()
    assert snap.state["end"] == "return", "nobody came back to Earth: the pilots are lost"
    for score in result.scores:
        assert f"**{score}**" in text
    # The end explains the score in the game's language: each player's points by category,
    # every secret mission (met or not, with its points), the tie-break when one decided.
    lang = "es" if "Puntuación final" in text else "en"
    names = [u.name for u in sorted(seats, key=seats.__getitem__)]
    for seat, parts in enumerate(result.breakdown):
        line = next(x for x in text.splitlines() if names[seat] in x and "**" in x)
        for key, pts in parts.items():
            if pts:
                assert f"{t(f'kosmonavts.score.{key}', lang)} {pts}" in line, line
        held = snap.state["missions"][seat]
        shown = [x for x in text.splitlines() if x.startswith(f"{names[seat]}:")]
        assert len(shown) == len(held) and all(("✓" in x) != ("✗" in x) for x in shown)
    tie = t("host.table.tiebreak", lang, what=t(result.tiebreak, lang)) if result.tiebreak else ""
    assert (tie in text) if tie else ("Tie broken" not in text and "Empate deshecho" not in text)
    # A table pings only whom the game did not wait for already: those still composing
    # their orders are not pinged again each time another player confirms.
    posted = tables_ever(h)
    assert len(posted) > 10
    pinged = dict(pings(h))
    for before, table in itertools.pairwise(posted):
        assert not pinged.get(table.id, set()) & set(waiting_ids(before)), table.text()

    assert_translated(h, "kosmonavts", users, caplog)

    # The player with closed DMs played through "My hand" only; the others by DM.
    actions = await host_of(h).store.actions(snap.id)
    assert_played_in_private(h, users, closed)
    assert any(a.seat == seats[closed] and a.choice in ORDER_FINALS for a in actions)
    assert not [a for a in actions if a.by_bot]

    # Nothing private reached a channel: no private picture, no private panel text, no
    # mission card, and while the game ran no mission by any name.
    assert_no_secrets_in_channels(h, users, PRIVATE_ONLY)
    public = h.all_public_text()
    for phrase in mission_phrases():
        if phrase.startswith(("M1:", "M2:")):
            assert phrase not in public, phrase
        assert not [line for line in played.during if phrase in line], phrase
    return snap


def setup_clicks(actions: Sequence[Any]) -> Counter[int]:
    return Counter(a.seat for a in actions if a.choice.startswith(("body.", "space.")))


# -- the games --------------------------------------------------------------------------


async def test_three_players_basic_game_with_planets_placed_by_players(
    harness: Harness, caplog: Any
) -> None:
    h = harness
    people = ("Ana", "es-ES"), ("Ben", "en-US"), ("Cal", "en-GB")
    (ana, ben, cal), seats = kit.seated(h, *people, closed=2)
    snap = await open_game(h, ana, [ben, cal], {"rules": "basic", "planets": "players"})
    assert snap.state["phase"] == "setup"

    pilot = Pilot(h)
    played = await play_game(h, seats, random.Random(11), closed={cal}, pilot=pilot)
    snap = await check_finished_game(h, played, seats, cal, caplog)
    # When the first secret order was due, the channel told Cal (in the game's language)
    # to use "My hand", without saying anything secret.
    assert any(str(cal.id) in m.content and "Mi mano" in m.content for m in h.messages())
    actions = await host_of(h).store.actions(snap.id)
    # The nine bodies were placed by the three players with the table's buttons.
    placed = setup_clicks(actions)
    assert set(placed) == {0, 1, 2}
    assert sum(1 for a in actions if a.choice.startswith("space.")) == 9
    assert played.add_clicks_checked > 20 and played.confirms_checked > 10
    print(
        f"\nbasic 3p: {snap.state['round']} rounds, {played.clicks} clicks "
        f"({dict(pilot.clicks)}), {played.seconds:.1f} s"
    )


async def test_two_players_advanced_game_with_missions_chosen_in_private(
    harness: Harness, caplog: Any
) -> None:
    h = harness
    (dan, eva), seats = kit.seated(h, ("Dan", "en-US"), ("Eva", "es-ES"), closed=0)
    snap = await open_game(h, dan, [eva], {"rules": "advanced", "planets": "players"})
    assert snap.state["rules"] == "advanced" and snap.state["phase"] == "setup"

    pilot = Pilot(h)
    played = await play_game(h, seats, random.Random(12), closed={dan}, pilot=pilot)
    snap = await check_finished_game(h, played, seats, dan, caplog)
    actions = await host_of(h).store.actions(snap.id)
    assert sum(1 for a in actions if a.choice.startswith("space.")) == 9
    # Both kept two of their four missions, Dan through "My hand", Eva by DM; the mission
    # cards were shown to each of them privately, never in the channel.
    for seat in (0, 1):
        assert [a.choice for a in actions if a.seat == seat].count("confirm") >= 1
        assert len(snap.state["missions"][seat]) == 2
    seen = set(private_texts(h, [dan, eva]))
    cards = [p for p in mission_phrases() if p.startswith(("M1:", "M2:"))]
    assert any(c in line for c in cards for line in seen)
    print(
        f"\nadvanced 2p: {snap.state['round']} rounds, {played.clicks} clicks "
        f"({dict(pilot.clicks)}), {played.seconds:.1f} s"
    )


async def test_an_order_stays_secret_until_everyone_has_given_theirs(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "es-ES")
    await open_game(h, ana, [ben], {"rules": "basic", "planets": "random"})
    snap = await snapshot(h)
    assert snap.state["phase"] == "orders" and snap.state["round"] == 1
    table = latest_table(h)
    image = kit.table_picture(table)
    versions = len(table.versions)
    watch = kit.PublicWatch(h)
    watch.fresh()

    # Ana adds a cube to her order in her DM panel: her panel shows it, the channel does not
    # change at all (no edit of the table, so the same picture).
    panel = await panel_of(h, ana, table, set())
    add = next(o for o in offers(panel) if o.option == "add.ne")
    reply = await press_offer(h, ana, add)
    assert not refused(reply)
    assert "↗" in panel.text() and "(1/3" in panel.text()
    assert watch.fresh() == (0, [])
    assert len(table.versions) == versions and kit.table_picture(table) == image
    assert latest_table(h) == table

    # She confirms: the channel learns that she has given her order, not what it is.
    confirm = next(o for o in offers(panel) if o.option == "confirm")
    assert not refused(await press_offer(h, ana, confirm))
    shown = "\n".join(watch.fresh()[1])
    assert "Ana has given their order." in shown, shown
    assert "↗" not in shown and not any(p.search(shown) for p in ORDER_CONTENT), shown
    ship = (await snapshot(h)).view(None)["ships"][0]
    assert ship["tank"] == 10 and ship["velocity"] == [0, 0] and ship["landed"] == "earth"
    # Her panel has no more buttons: a confirmed order is final.
    assert offers(panel) == []

    # Ben stays landed: now both orders are given and the channel tells them.
    ben_panel = await panel_of(h, ben, latest_table(h), set())
    stay = next(o for o in offers(ben_panel) if o.option == "stay")
    assert not refused(await press_offer(h, ben, stay))
    shown = "\n".join(watch.fresh()[1])
    assert "Ana fired 1 cube: ↗" in shown, shown
    assert (await snapshot(h)).view(None)["ships"][0]["landed"] is None
    # Given orders are final: once they are all known, the table offers no Undo.
    assert t("host.btn.undo", "en") not in [b.label for b in latest_table(h).buttons]

    # Next round, both compose at length (adding and taking back cubes until the engine's
    # cap leaves only the closing options): the channel does not move at all, not even the
    # recent-events lines of the table.
    seats = {ana: 0, ben: 1}
    rng = random.Random(5)
    pilot = Pilot(h, follow=1.0)
    while (await snapshot(h)).state["phase"] != "orders":
        assert await play_turn(h, seats, rng, choose=pilot) is not None
    watch.fresh()
    table = latest_table(h)
    versions = len(table.versions)
    panels = {u: await panel_of(h, u, table, set()) for u in seats}
    for _ in range(STEP_CAP // 2):
        for u, panel in panels.items():
            for kind in ("add", "undo"):
                offer = next(o for o in offers(panel) if o.option.startswith(kind))
                assert not refused(await press_offer(h, u, offer))
                assert watch.fresh() == (0, [])
    assert len(table.versions) == versions and latest_table(h) == table
    for panel in panels.values():
        assert {o.option for o in offers(panel)} <= set(ORDER_FINALS)
