"""Galaxy Trucker's Intergalactic Trek through the offline Discord harness: a 2-player Trek
from ``/game new`` to the final credits, three flights (levels I, II, III) built through
private views (one player's DMs closed: "My hand"), each flight with its own hourglass; the
table says which flight it is and the running credits, a player gives up a flight from the
table's "retire" button, and nothing of a ship in progress ever reaches the channel."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from core.i18n import t
from host.clock import FakeClock
from host.sessions import Host, Player
from host.storage import open_store
from tests.e2e.driver import Offer, field, is_final, latest_table, play_turn
from tests.e2e.kit import assert_translated, host_of, open_game, seated, snapshot
from tests.e2e.players import Trucker, ship_guard
from tests.harness import FakeUser, Harness

MAX_CLICKS = 4000
PHASE = (t("host.table.phase", "en"), t("host.table.phase", "es"))
SCORES = (t("host.table.scores", "en"), t("host.table.scores", "es"))


class Quitter(Trucker):
    """A Trucker who gives up a flight the first time the table offers it."""

    retired_in: list[int]

    async def __call__(
        self, user: FakeUser, seat: int, pool: Sequence[Offer], rng: random.Random
    ) -> Offer:
        state = (await snapshot(self.h)).state
        quit_ = next((o for o in pool if o.option == "retire"), None)
        if quit_ is not None and not self.retired_in:
            assert not quit_.private  # a public move, on the table
            self.retired_in.append(state["trek"]["flight"])
            return quit_
        return await super().__call__(user, seat, pool, rng)


pytestmark = pytest.mark.usefixtures("i18n_warnings")


async def test_two_players_intergalactic_trek_to_the_final_credits(
    harness: Harness, caplog: Any
) -> None:
    h = harness
    (ana, ben), seats = seated(h, ("Ana", "en-US"), ("Ben", "es-ES"), closed=1)
    await open_game(h, "galaxy_trucker", ana, [ben], options={"level": "trek", "hourglass": "10m"})
    snap = await snapshot(h)
    state = snap.state
    assert state["trek"]["flight"] == 1 and state["level"] == "I" and state["phase"] == "build"
    phase = field(latest_table(h), PHASE)
    assert phase == t("galaxy_trucker.phase.trek1.build", "en"), phase

    tr = Quitter(h, tiles=9)
    tr.retired_in = []
    rng = random.Random(10)
    phases: set[str] = set()
    flights_seen: list[int] = []
    between: list[str] = []
    for _ in range(MAX_CLICKS):
        table = latest_table(h)
        phases.add(field(table, PHASE) or "")
        state = (await snapshot(h)).state
        if not flights_seen or flights_seen[-1] != state["trek"]["flight"]:
            flights_seen.append(state["trek"]["flight"])
            if state["trek"]["flight"] == 2:
                between.append(field(table, SCORES) or "")
        if await play_turn(h, seats, rng, closed={ben}, choose=tr) is None:
            break
    else:
        raise AssertionError("the Trek did not end")
    assert flights_seen == [1, 2, 3]

    # The table said which flight of the Trek was being played.
    for k in (1, 2, 3):
        assert t(f"galaxy_trucker.phase.trek{k}.build", "en") in phases, (k, phases)
    # Every flight ran its own hourglass (a timer key per flight).
    host = host_of(h)
    snap = await snapshot(h)
    keys = set(await host.store.timers(snap.id))
    assert {"t1.hourglass.1", "t2.hourglass.1", "t3.hourglass.1"} <= keys, keys

    # The final table: the totals, broken down by flight, in the embed and the picture.
    final = latest_table(h)
    assert is_final(final)
    assert snap.row.status == "over" and snap.state["phase"] == "over"
    result = snap.result()
    trek = snap.state["trek"]
    assert len(trek["flights"]) == 3
    assert any(x > 0 for flight in trek["flights"] for x in flight)  # credits were won
    for seat, score in enumerate(result.scores):
        assert list(result.breakdown[seat]) == ["flight_1", "flight_2", "flight_3"]
        assert sum(result.breakdown[seat].values()) == score == trek["banked"][seat]
        assert f"**{score}**" in final.text()
    text = final.text()
    assert "🏆" in text
    for seat in range(2):  # "Ben 9 (Flight I 4, Flight II 5)"
        for k in range(3):
            got = trek["flights"][k][seat]
            labels = [t(f"galaxy_trucker.score.flight_{k + 1}", lang) for lang in ("en", "es")]
            assert not got or any(f"{label} {got}" in text for label in labels), (seat, k)

    # The trail: each flight's end told each player's credits and running total.
    public = h.all_public_text()
    for k in (1, 2):
        for seat, name in enumerate(("Ana", "Ben")):
            got = trek["flights"][k - 1][seat]
            total = sum(trek["flights"][j][seat] for j in range(k))
            args = {"seat": name, "credits": got, "total": total}
            line = t("galaxy_trucker.event.trek_credits", "en", **args)
            line_es = t("galaxy_trucker.event.trek_credits", "es", **args)
            assert line in public or line_es in public, line
    # While the next flight was built, the table's scores were the running totals.
    assert between and all(str(x) in between[0] for x in trek["flights"][0]), between

    actions = await host.store.actions(snap.id)
    # Both built every flight themselves (Ben through "My hand"); a retirement, if the
    # flight offered one, was Ana's or Ben's public click.
    for seat in (0, 1):
        assert sum(1 for a in actions if a.seat == seat and a.choice.startswith("place.")) >= 12
    # Somebody gave up a flight from the table's button: the channel said so.
    retired = [a for a in actions if a.choice == "retire"]
    assert len(tr.retired_in) == len(retired) == 1
    name = ("Ana", "Ben")[retired[0].seat]
    gave_up = [t("galaxy_trucker.event.will_retire", lang, seat=name) for lang in ("en", "es")]
    assert any(line in public for line in gave_up), gave_up
    assert not [a for a in actions if a.by_bot]
    assert not h.dm_messages(ben)
    assert await host.replay(snap.id) == snap.row.state
    ship_guard(h, [ana, ben])
    assert_translated(h, "galaxy_trucker", [ana, ben], caplog)
    assert not h.unexpected and not h.errors, h.errors
    print(f"\ntrek 2p: {len(actions)} moves, credits {trek['flights']}, clicks {dict(tr.clicks)}")


async def test_a_rollback_in_the_second_flight_stays_in_it(tmp_path: Any) -> None:
    """Each flight of the Trek counts its cards from 1 again: a rollback goes back to the
    start of the current card of the current flight, not to the same card number of an
    earlier flight (the host rolls back to where the last unbroken run of the round began)."""
    from rules.galaxy_trucker import GAME

    store = await open_store(str(tmp_path / "trek.db"))
    games: dict[str, Any] = {"galaxy_trucker": GAME}
    host = Host(store, clock=FakeClock(), seeds=random.Random(3), games=lambda: games)
    ana, ben = Player(1, "Ana", "en"), Player(2, "Ben", "en")
    mod = Player(9, "Mod", "en", can_manage=True)
    try:
        snap = await host.new_lobby(
            guild_id=1, channel_id=100, game_id="galaxy_trucker", owner=ana, lang="en"
        )
        gid = snap.id
        await host.join(gid, ben)
        while (await host.by_id(gid)).row.options["level"] != "trek":
            await host.cycle_option(gid, "level", ana)
        await host.start(gid, ana)
        rng = random.Random(4)
        who = {0: ana, 1: ben}
        first: set[Any] = set()
        for _ in range(3000):
            snap = await host.by_id(gid)
            s = snap.state
            before = snap.view(None).get("round")
            d = snap.decisions[0]
            ids = [o.id for o in d.options]
            if s["phase"] == "build" and len(s["players"][d.seat]["ship"]) >= 8 and "done" in ids:
                choice = "done"
            else:
                choice = GAME.bot_choice(s, d.seat, rng)
            await host.play(gid, who[d.seat].user_id, d.seat, snap.token(d), choice)
            after = await host.by_id(gid)
            s2 = after.state
            now = after.view(None).get("round")
            if s2["trek"]["flight"] == 1:
                first.add(now)
            elif s2["phase"] == "flight" and now == before and now in first:
                break  # a card number flight 1 also stopped at, with a move in it
        else:
            raise AssertionError("no second-flight card like one of the first flight")
        round_ = after.view(None).get("round")
        moves = len(await host.store.actions(gid))
        rolled, outcome, _, _ = await host.rollback(gid, mod)
        assert outcome == "rolled"
        assert rolled.state["trek"]["flight"] == 2 and rolled.view(None).get("round") == round_
        assert 0 < moves - len(await host.store.actions(gid)) < 10
    finally:
        await store.close()
