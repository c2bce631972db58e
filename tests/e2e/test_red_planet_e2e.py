"""Mission: Red Planet through the offline Discord harness: whole games from ``/game new`` to
final scores (4 players, 6 players, and 2 players with the neutral colour), clicking only
what the bot shows (the table, DMs, "My hand" replies), one player with closed DMs, bots in
some seats; nothing private ever reaches a channel.

The simulated players mostly play like the engine's bot and now and then click any move
they see; every option the engine offers a seat must be among the moves shown to it.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from core.i18n import t
from rules.red_planet import GAME
from tests.e2e import kit
from tests.e2e.driver import (
    is_final,
    latest_table,
    private_texts,
    tables,
)
from tests.e2e.kit import (
    assert_finished,
    assert_no_secrets_in_channels,
    assert_played_in_private,
    assert_tables_have_pictures,
    assert_translated,
    host_of,
    snapshot,
)
from tests.e2e.players import Follower
from tests.harness import FakeUser, Harness

STRINGS = kit.strings("red_planet")
MAX_CLICKS = 3000
pytestmark = pytest.mark.usefixtures("i18n_warnings")


def phrases(prefixes: Iterable[str]) -> list[re.Pattern[str]]:
    return kit.text_patterns("red_planet", prefixes)


#: What only the player concerned may read: events addressed to one seat (a card drawn, a
#: discovery looked at, an action card committed), the missions, the secret prompts
#: (whether to play an action card this round included).
PRIVATE_ONLY = kit.secret_patterns("red_planet")


#: Each player's final sum ("Ann: 46 (tokens) + 3 (missions) + … = 49 points.").
FINAL_TOTAL = phrases(["red_planet.event.final.total"])


def mission_names() -> list[str]:
    return sorted(
        {
            text
            for lang in STRINGS.values()
            for key, text in lang.items()
            if re.fullmatch(r"red_planet\.card\.M\d+", key)
        }
    )


def character_labels() -> dict[int, list[str]]:
    """The button label of each character, in both languages ("9 Recruiter")."""
    return {
        num: [lang[f"red_planet.char.{num}"] for lang in STRINGS.values()] for num in range(1, 10)
    }


async def open_game(h: Harness, owner: FakeUser, others: Sequence[FakeUser], bots: int = 0) -> Any:
    await kit.open_game(h, "red_planet", owner, others, bots=bots)
    return await snapshot(h)


@dataclass
class Played(kit.Played):
    hidden_checked: int


async def play_game(
    h: Harness, seats: dict[FakeUser, int], rng: random.Random, *, closed: set[FakeUser]
) -> Played:
    """Play to the end. After each secret character choice, the channel may say who has
    chosen, never what, until the countdown reveals it."""
    player = Follower(h, GAME)
    watch = kit.PublicWatch(h)
    watch.fresh()
    during: list[str] = []
    labels = character_labels()
    hidden: dict[int, int] = {}  # seat -> character chosen and not yet revealed
    checked = 0
    t0 = time.perf_counter()
    game = kit.Clicking(h, seats, rng, player, closed, MAX_CLICKS)
    async for _, seat, offer in game:
        watch.fresh()
        fresh = watch.shown
        if not is_final(latest_table(h)):
            during.extend(fresh)
        state = (await snapshot(h)).state
        if re.fullmatch(r"c\d", offer.option):
            hidden[seat] = int(offer.option[1:])
        revealed = {(c, num) for c, num in state["done"]}
        hidden = {s: num for s, num in hidden.items() if (s, num) not in revealed}
        for s, num in hidden.items():
            # what this seat chose appears nowhere new in the channel: no "reveals" line for
            # it; the character's name may only appear for others' revealed choices.
            others = {n for c, n in revealed if c != s}
            if num in others:
                continue
            for label in labels[num]:
                assert not [line for line in fresh if label in line], (s, num, fresh)
            checked += 1
    return Played(latest_table(h), game.clicks, time.perf_counter() - t0, during, checked)


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
    result = snap.result()
    assert snap.state["round"] == 10

    # Every table message carries its picture (old tables are replaced by new ones).
    posted = assert_tables_have_pictures(h)
    assert len(posted) > 10 and len(tables(h)) == 1

    assert_translated(h, "red_planet", users, caplog)
    public = h.all_public_text()
    for where, body in [("public", public), ("private", "\n".join(private_texts(h, users)))]:
        assert "{'en'" not in body, where  # zone names reach players in their language

    # The player with closed DMs played through "My hand" only; the others by DM.
    actions = await host_of(h).store.actions(snap.id)
    assert_played_in_private(h, users, closed)
    assert any(a.seat == seats[closed] and re.fullmatch(r"c\d", a.choice) for a in actions)
    assert any(a.seat == seats[closed] and a.choice.startswith("keep.") for a in actions)
    assert {a.seat for a in actions if a.by_bot} == set(bots)

    # The final scoring reached the channel whole, down to each player's sum (it is longer
    # than one message: the trail splits it).
    trail = "\n".join(m.content for m in h.messages()).splitlines()
    totals = {line for line in trail if any(p.search(line) for p in FINAL_TOTAL)}
    assert len(totals) == len(result.scores), totals
    assert all(len(m.content) < 2000 for m in h.messages())  # none cut at Discord's limit

    # Nothing private reached a channel: no private picture, no private line, and while
    # the game ran no mission by name.
    assert_no_secrets_in_channels(h, users, PRIVATE_ONLY)
    for name in mission_names():
        assert not [line for line in played.during if name in line], name
    assert played.hidden_checked > 20
    return snap


async def test_four_players_two_of_them_bots(harness: Harness, caplog: Any) -> None:
    h = harness
    ana, ben = h.user("Ana", "es-ES"), h.user("Ben", "en-US")
    h.fail_dms(ben)
    seats = {ana: 0, ben: 1}
    snap = await open_game(h, ana, [ben], bots=2)
    assert snap.state["n"] == 4 and snap.state["step"] == "missions"
    played = await play_game(h, seats, random.Random(21), closed={ben})
    await check_finished_game(h, played, seats, ben, caplog, bots=(2, 3))
    # Ana's DMs say whose they are, then the game's name.
    assert any("Solo para ti — Misión: Planeta Rojo" in m.text() for m in h.dm_messages(ana))
    # Ben was told in the channel, without anything secret, to use "My hand".
    assert any(str(ben.id) in m.content and "Mi mano" in m.content for m in h.messages())
    print(f"\n4p: {played.clicks} clicks, {played.seconds:.1f} s")


async def test_six_players_three_of_them_bots(harness: Harness, caplog: Any) -> None:
    h = harness
    ana, ben, cal = h.user("Ana", "en-US"), h.user("Ben", "es-ES"), h.user("Cal", "en-GB")
    h.fail_dms(cal)
    seats = {ana: 0, ben: 1, cal: 2}
    snap = await open_game(h, ana, [ben, cal], bots=3)
    assert snap.state["n"] == 6 and len(snap.state["docks"]) == 6
    played = await play_game(h, seats, random.Random(22), closed={cal})
    await check_finished_game(h, played, seats, cal, caplog, bots=(3, 4, 5))
    print(f"\n6p: {played.clicks} clicks, {played.seconds:.1f} s")


async def test_two_players_with_the_neutral_colour(harness: Harness, caplog: Any) -> None:
    h = harness
    dan, eva = h.user("Dan", "en-US"), h.user("Eva", "es-ES")
    h.fail_dms(dan)
    seats = {dan: 0, eva: 1}
    snap = await open_game(h, dan, [eva])
    assert snap.state["n"] == 2 and snap.state["nc"] == 3 and snap.state["neutral"] == 2
    played = await play_game(h, seats, random.Random(23), closed={dan})
    snap = await check_finished_game(h, played, seats, dan, caplog)
    # The neutral is drawn and named on the table, never ranked.
    assert len(snap.result().scores) == 2
    public = h.all_public_text()
    assert "neutral" in public.lower()
    print(f"\n2p: {played.clicks} clicks, {played.seconds:.1f} s")


async def test_rules_summary_in_both_languages(harness: Harness) -> None:
    h = harness
    eng, esp = h.user("Eng", "en-US"), h.user("Esp", "es-ES")
    for user, lang, words in ((eng, "en", "countdown"), (esp, "es", "cuenta hacia atrás")):
        reply = await h.slash(user, "game rules", game="red_planet")
        assert reply.ephemeral
        body = reply.text()
        assert words in body and t("red_planet.name", lang) in body
        assert "2" in body and "6" in body  # the footer: 2–6 players
        # In sections: the goal, a turn, scoring and the end, in our own words.
        for part in ("goal", "turn", "scoring", "end"):
            text = t(f"red_planet.rules.{part}", lang)
            assert text.split(".")[0] in body, part
