"""Galaxy Trucker R26c through the offline Discord harness: mid-flight, a player who is not
asked anything gives up from the table's standing button ("Ana: 🏳️ Give up after this
card"). Another player's click on it is refused and changes nothing; the trail says at once
that the ship will leave after this card (Undo takes it back while it is the last move); it
leaves when the card is resolved, before the next card; the next tables have no button for
it; the flight goes on to the credits. Nobody is pinged or waited for because of the
standing option."""

from __future__ import annotations

import random
from typing import Any

import pytest

from core.i18n import pick, t
from tests.e2e.driver import (
    latest_table,
    offers,
    play_turn,
    press_offer,
    refused,
    waiting_ids,
)
from tests.e2e.kit import assert_translated, host_of, open_game, snapshot
from tests.e2e.players import GT_MAX_CLICKS as MAX_CLICKS
from tests.e2e.players import Trucker, ship_guard
from tests.e2e.players import finish_flight as finish
from tests.harness import Harness

NAMES = ["Ana", "Ben"]
pytestmark = pytest.mark.usefixtures("i18n_warnings")


def line(key: str, lang: str, **args: Any) -> str:
    return t(f"galaxy_trucker.{key}", lang, NAMES, **args)


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_a_ship_not_asked_gives_up_from_the_table(
    harness: Harness, caplog: Any, locale: str
) -> None:
    h = harness
    ana, ben, eve = h.user("Ana", locale), h.user("Ben", locale), h.user("Eve", locale)
    lang = pick(locale)
    seats = {ana: 0, ben: 1}
    await open_game(h, "galaxy_trucker", ana, [ben], options={"level": "I"})
    tr = Trucker(h, tiles=6)
    rng = random.Random(8)
    # Play (building, pre-launch, the first cards) until a card is being resolved with
    # Ben asked and Ana's ship flying, asked nothing.
    for _ in range(MAX_CLICKS):
        snap = await snapshot(h)
        f = snap.state.get("flight")
        if f and f["card"] and f["ask"] and f["ask"]["seat"] == 1 and f["pos"][0] is not None:
            break
        assert await play_turn(h, seats, rng, choose=tr) is not None
    else:
        raise AssertionError("Ben was never asked with Ana flying")
    card = f["card"]
    table = latest_table(h)
    assert waiting_ids(table) == [ben.id]  # only Ben is waited for (and mentioned)
    (mine,) = offers(table, 0)  # Ana's only button: the standing one
    assert mine.option == "retire"
    assert mine.label == f"Ana: {line('opt.give_up', lang)}"
    assert "🏳" in table.text()  # the legend explains the flag
    assert line("legend.give_up", lang) in table.text()
    asked = [o.custom_id for o in offers(table, 1)]

    # Ben, then someone not in the game, clicks Ana's button: refused, nothing changes.
    version = snap.row.version
    reply = await press_offer(h, ben, mine)
    assert refused(reply) and t("host.error.not_your_button", lang) in reply.text()
    reply = await press_offer(h, eve, mine)
    assert refused(reply)
    assert (await snapshot(h)).row.version == version

    # Ana gives up: the trail says so at once; she still flies until the card is resolved.
    reply = await press_offer(h, ana, mine)
    assert not refused(reply), reply.text()
    snap = await snapshot(h)
    f = snap.state["flight"]
    assert f["quit"] == [0] and f["pos"][0] is not None and f["card"] == card
    will = line("event.will_retire", lang, seat=0)
    assert will in h.all_public_text()
    table = latest_table(h)
    assert not offers(table, 0)  # taken: gone
    assert [o.custom_id.split(":")[3:] for o in offers(table, 1)] == [
        c.split(":")[3:] for c in asked
    ]  # Ben's question is the same question (same token; only the version moved on)
    assert waiting_ids(table) == [ben.id]

    # The message her button was on no longer shows it (the table was edited).
    assert mine.custom_id not in [b.custom_id for b in mine.message.buttons]

    # She may take it back while it is the last move (Undo), and give up again.
    reply = await h.click(ana, table, label=t("host.btn.undo", lang))
    assert not refused(reply), reply.text()
    snap = await snapshot(h)
    assert not snap.state["flight"].get("quit") and snap.state["flight"]["pos"][0] is not None
    table = latest_table(h)
    (mine,) = offers(table, 0)  # the button is back
    assert mine.option == "retire"
    assert not refused(await press_offer(h, ana, mine))
    snap = await snapshot(h)
    assert snap.state["flight"]["quit"] == [0]
    # The trail reads in order: the give-up, the undo notice, the give-up again (below it).
    public = h.all_public_text()
    undone = t("host.undo.done", lang, who="Ana")
    assert public.index(will) < public.index(undone) < public.rindex(will)
    table = latest_table(h)
    assert not offers(table, 0)

    # Play on: Ana's ship leaves when the card is resolved, before the next card.
    for _ in range(MAX_CLICKS):
        snap = await snapshot(h)
        f = snap.state.get("flight")
        if snap.state["phase"] != "flight" or f["pos"][0] is None:
            break
        assert f["card"] in (card, None)  # no other card while Ana's ship flies
        assert await play_turn(h, seats, rng, choose=tr) is not None
    assert snap.state["flight"]["retired"][:1] == [0] or snap.state["phase"] == "over"
    public = h.all_public_text()
    gone = line("event.retired", lang, seat=0)
    assert gone in public and public.index(will) < public.rindex(gone)
    after = public[public.rindex(gone) :]
    earlier_cards = public[: public.rindex(gone)].count("🃏")
    assert public.count("🃏") >= earlier_cards  # (the next card, if any, comes after)
    if snap.state["phase"] == "flight":
        table = latest_table(h)
        assert not offers(table, 0)  # no button for a ship that left
        assert "🃏" in after  # the next card is revealed after the retirement line

    snap = await finish(h, seats, rng, set(), tr)
    result = snap.result()
    assert result.breakdown[0].get("reward", 0) == 0  # no arrival reward for a retired ship
    actions = await host_of(h).store.actions(snap.id)
    kept = [(a.seat, a.choice) for a in actions if a.choice == "retire" and not a.undone]
    assert kept == [(0, "retire")]
    ship_guard(h, [ana, ben])
    assert_translated(h, "galaxy_trucker", [ana, ben], caplog)
    assert not h.unexpected and not h.errors, h.errors
