"""Mission: Red Planet through the offline Discord harness: whole games from ``/game new`` to
final scores (4 players, 6 players, and 2 players with the neutral colour), clicking only
what the bot shows (the table, DMs, "My hand" replies), one player with closed DMs, bots in
some seats; nothing private ever reaches a channel.

The simulated players mostly play like the engine's bot and now and then click any move
they see; every option the engine offers a seat must be among the moves shown to it.
"""

from __future__ import annotations

import json
import logging
import random
import re
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from core.i18n import pick, t
from rules.red_planet import GAME
from tests.e2e.driver import (
    Offer,
    is_final,
    latest_table,
    play_turn,
    private_texts,
    tables,
    tables_ever,
)
from tests.harness import FakeUser, Harness
from tests.harness.models import payload_text

ROOT = Path(__file__).resolve().parents[2]
STRINGS: dict[str, dict[str, str]] = json.loads(
    (ROOT / "data" / "red_planet" / "strings.json").read_text(encoding="utf-8")
)
MAX_CLICKS = 3000
RAW_KEY = re.compile(r"\b(?:red_planet|host|render|cmd)\.[a-z0-9_]+\.[a-zA-Z0-9_.]+")


def game_of(h: Harness) -> Any:
    return h.bot.host  # type: ignore[union-attr]


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


#: What only the player concerned may read: events addressed to one seat (a card drawn, a
#: discovery looked at, an action card committed), the missions, the secret prompts
#: (whether to play an action card this round included).
PRIVATE_ONLY = phrases(
    [
        "red_planet.event.drew",
        "red_planet.event.peeked",
        "red_planet.mission",
        "red_planet.prompt.mission",
        "red_planet.prompt.choose",
        "red_planet.prompt.assign",
        "red_planet.prompt.commit",
        "red_planet.event.commit",
    ]
)


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


def split_lines(payload: dict[str, Any], atts: Sequence[Any] = ()) -> list[str]:
    return [line for part in payload_text(payload, atts) for line in part.splitlines()]


class PublicWatch:
    """Every new version of every guild-channel message, click by click."""

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.seen: dict[int, int] = {}

    def fresh(self) -> list[str]:
        backend = self.h.backend
        lines: list[str] = []
        for cid, ids in backend.channel_order.items():
            if not backend.is_guild_channel(cid):
                continue
            for mid in ids:
                stored = backend.stored_messages[mid]
                n = self.seen.get(mid, 0)
                if stored.ephemeral or len(stored.versions) == n:
                    continue
                for payload, atts in stored.versions[n:]:
                    lines += split_lines(payload, atts)
                self.seen[mid] = len(stored.versions)
        return lines


@dataclass
class Player:
    """Picks one of the moves a player sees: the engine bot's choice with probability
    ``follow``, else any of them. Checks that what is shown is exactly what is offered."""

    h: Harness
    follow: float = 0.8
    last: tuple[FakeUser, int, Offer] | None = None
    clicks: Counter[str] = field(default_factory=Counter)

    async def __call__(
        self, user: FakeUser, seat: int, pool: Sequence[Offer], rng: random.Random
    ) -> Offer:
        state = (await snapshot(self.h)).state
        shown = sorted(o.option for o in pool)
        offered = sorted(o.id for d in GAME.pending(state) if d.seat == seat for o in d.options)
        assert shown == offered, f"seat {seat} is offered {offered} but sees {shown}"
        if rng.random() < self.follow:
            want = GAME.bot_choice(state, seat, random.Random(rng.random()))
            choice = next(o for o in pool if o.option == want)
        else:
            choice = rng.choice(list(pool))
        self.last = (user, seat, choice)
        self.clicks["private" if choice.private else "table"] += 1
        return choice


@dataclass
class Played:
    final: Any
    clicks: int
    seconds: float
    during: list[str]  # public lines shown before the game ended
    hidden_checked: int


async def play_game(
    h: Harness, seats: dict[FakeUser, int], rng: random.Random, *, closed: set[FakeUser]
) -> Played:
    """Play to the end. After each secret character choice, the channel may say who has
    chosen, never what, until the countdown reveals it."""
    player = Player(h)
    watch = PublicWatch(h)
    watch.fresh()
    during: list[str] = []
    labels = character_labels()
    hidden: dict[int, int] = {}  # seat -> character chosen and not yet revealed
    checked = 0
    t0 = time.perf_counter()
    clicks = 0
    while await play_turn(h, seats, rng, closed=closed, choose=player) is not None:
        clicks += 1
        assert clicks < MAX_CLICKS, "the game did not end"
        assert player.last is not None
        _, seat, offer = player.last
        fresh = watch.fresh()
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
    return Played(latest_table(h), clicks, time.perf_counter() - t0, during, checked)


async def open_game(h: Harness, owner: FakeUser, others: Sequence[FakeUser], bots: int = 0) -> Any:
    lang = pick(owner.locale)
    lobby = (await h.slash(owner, "game new", game="red_planet")).message
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
    final = played.final
    assert is_final(final)
    text = final.text()
    assert "🏆" in text and all(u.name in text for u in users), text
    snap = await snapshot(h)
    result = snap.result()
    assert snap.row.status == "over" and result is not None
    for seat, score in enumerate(result.scores):
        assert sum(result.breakdown[seat].values()) == score
    assert await game_of(h).replay(snap.id) == snap.row.state
    assert snap.state["round"] == 10

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
        assert "{'en'" not in body, where  # zone names reach players in their language
    missing = [r.getMessage() for r in caplog.records if "missing string" in r.getMessage()]
    assert not missing, missing

    # The player with closed DMs played through "My hand" only; the others by DM.
    actions = await game_of(h).store.actions(snap.id)
    assert not h.dm_messages(closed)
    assert any(a.seat == seats[closed] and re.fullmatch(r"c\d", a.choice) for a in actions)
    assert any(a.seat == seats[closed] and a.choice.startswith("keep.") for a in actions)
    assert any("private.png" in [a.name for a in m.attachments] for m in h.ephemeral_to(closed))
    for u in users:
        if u != closed:
            assert any(m.attachments for m in h.dm_messages(u)), u.name
    assert {a.seat for a in actions if a.by_bot} == set(bots)

    # The final scoring reached the channel whole, down to each player's sum (it is longer
    # than one message: the trail splits it).
    trail = "\n".join(m.content for m in h.messages()).splitlines()
    totals = {line for line in trail if any(p.search(line) for p in FINAL_TOTAL)}
    assert len(totals) == len(result.scores), totals
    assert all(len(m.content) < 2000 for m in h.messages())  # none cut at Discord's limit

    # Nothing private reached a channel: no private picture, no private line, and while
    # the game ran no mission by name.
    assert not private_images(h, users) & set(h.all_public_images())
    for line in public.splitlines():
        assert not any(p.search(line) for p in PRIVATE_ONLY), line
    for name in mission_names():
        assert not [line for line in played.during if name in line], name
    assert played.hidden_checked > 20
    assert not h.unexpected
    assert not h.errors, h.errors
    return snap


@pytest.fixture(autouse=True)
def _i18n_warnings(caplog: Any) -> None:
    caplog.set_level(logging.WARNING, logger="core.i18n")


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
