"""The e2e game kit: what every game's end-to-end tests (and the PostgreSQL bot tests in
tests/host/) need around the offline Discord harness, written once.

* :func:`host_of`, :func:`cog_of`, :func:`snapshot` — the bot's host, its game cog, and a
  snapshot of the latest game of a channel.
* :func:`open_game` — ``/game new`` of any registered game: the others join, bots are
  added, lobby options are set (to a value, or by a number of clicks), then the owner starts
  (or not); the lobby message.
* :func:`private_images`, :func:`assert_no_secrets_in_channels` — the privacy guard: no
  private picture, no line matching a secret's pattern, in any channel message.
* :func:`assert_finished`, :func:`assert_played_in_private`, :func:`assert_replays` — a
  game over with its scores explained, a player with closed DMs served by "My hand".
* :func:`assert_tables_have_pictures`, :func:`table_picture`, :func:`assert_translated`,
  :func:`text_patterns`, :func:`secret_patterns` — every table carries its picture; every
  word reached the players translated; what only one seat may read, by game.
* The table readers (the last table message, its move buttons and offers) are in
  :mod:`tests.e2e.driver` (``latest_table``, ``move_buttons``, ``offers``); a whole game
  read click by click: :class:`PublicWatch`, :class:`Played`.
* :func:`forged_click`, :func:`refusal_text` — a click as an out-of-date client sends it,
  and the ephemeral sentence the bot answered with.
* :func:`click_choice`, :func:`play_straight`, :func:`play_whole_game`,
  :func:`open_and_play` — players who click the game's own heuristic (any registered game
  ends this way), wherever the bot shows them their moves; a few random clicks.
* :func:`register_toys` — toy games registered with the host for one test.

The simulated players themselves (clicking only what they are shown) are in
:mod:`tests.e2e.driver`.
"""

from __future__ import annotations

import io
import json
import random
import re
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PIL import Image

from cogs import present
from core import i18n
from core.contract import answers, random_answer, split_picks
from core.i18n import pick, t
from host import registry
from host.clock import FakeClock
from host.sessions import public_move
from render import words
from tests.e2e.driver import (
    hand_button,
    is_final,
    latest_table,
    move_buttons,
    offers,
    play_turn,
    private_texts,
    tables,
    tables_ever,
)
from tests.harness import FakeUser, Harness, Message, Reply
from tests.harness.models import payload_text

ROOT = Path(__file__).resolve().parents[2]


# -- the bot's pieces ---------------------------------------------------------------------


def host_of(h: Harness) -> Any:
    return h.bot.host  # type: ignore[union-attr]


def cog_of(h: Harness) -> Any:
    return h.bot.get_cog("GameCog")  # type: ignore[union-attr]


async def snapshot(h: Harness, channel: int | None = None) -> Any:
    """The latest game of ``channel`` (default: the harness's channel), as the host sees it."""
    host = host_of(h)
    row = await host.store.latest_game(channel or h.channel_id)
    assert row is not None, "no game in the channel"
    return await host.snapshot(row)


async def assert_replays(h: Harness) -> Any:
    """The stored action log replays to the stored state; the snapshot."""
    snap = await snapshot(h)
    assert await host_of(h).replay(snap.id) == snap.row.state
    return snap


async def assert_finished(h: Harness, users: Iterable[FakeUser] = ()) -> Any:
    """The game of the channel is over: its last table gives the final scores with a 🏆
    and every user's name, each score is the sum of its breakdown, and the action log
    replays to the stored state. The snapshot."""
    final = latest_table(h)
    assert is_final(final)
    text = final.text()
    assert "🏆" in text and all(u.name in text for u in users), text
    snap = await snapshot(h)
    result = snap.result()
    assert snap.row.status == "over" and result is not None
    for seat, score in enumerate(result.scores):
        assert sum(result.breakdown[seat].values()) == score
    assert await host_of(h).replay(snap.id) == snap.row.state
    return snap


def assert_played_in_private(h: Harness, users: Iterable[FakeUser], closed: FakeUser) -> None:
    """The player whose DMs are closed played through "My hand" (ephemeral replies with
    their private picture) and got no DM; every other user got their panels by DM."""
    assert not h.dm_messages(closed)
    assert any("private.png" in [a.name for a in m.attachments] for m in h.ephemeral_to(closed))
    for u in users:
        if u != closed:
            assert any(m.attachments for m in h.dm_messages(u)), u.name


# -- toy games -------------------------------------------------------------------------------


def one_colour_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), (20, 30, 60)).save(out, format="PNG")
    return out.getvalue()


def register_toys(
    monkeypatch: pytest.MonkeyPatch,
    games: Mapping[str, Any],
    strings: Iterable[Mapping[str, Mapping[str, str]]] = (),
) -> None:
    """Register toy games with the host for one test: the games, their strings (language
    -> key -> text) and a renderer that draws a one-colour picture for them."""
    for gid, game in games.items():
        monkeypatch.setitem(registry.games(), gid, game)
    catalog = i18n.catalog()
    for table in strings:
        for lang, texts in table.items():
            for key, text in texts.items():
                monkeypatch.setitem(catalog[lang], key, text)
    picture = one_colour_png()
    fake = SimpleNamespace(
        render_table=lambda view, names, lang: picture,
        render_private=lambda view, names, lang: picture,
    )
    real = registry.renderer
    monkeypatch.setattr(registry, "renderer", lambda gid: fake if gid in games else real(gid))


# -- opening a game -----------------------------------------------------------------------


def seated(
    h: Harness, *people: tuple[str, str], closed: int | None = None
) -> tuple[list[FakeUser], dict[FakeUser, int]]:
    """A test's players in seat order, each ``(name, locale)``, and each one's seat; the
    ``closed`` seat's DMs fail (that player plays from "My hand")."""
    users = [h.user(name, locale) for name, locale in people]
    if closed is not None:
        h.fail_dms(users[closed])
    return users, {u: seat for seat, u in enumerate(users)}


def option_button(lobby: Message, key: str) -> str:
    """The custom_id of the lobby's button for option ``key`` (``h.<key>``: a host option)."""
    for b in lobby.buttons:
        if (b.custom_id or "").endswith(f":o.{key}"):
            return b.custom_id or ""
    raise AssertionError(f"no lobby button for option {key}: {lobby.text()[:300]}")


async def open_game(
    h: Harness,
    game: str,
    owner: FakeUser,
    others: Sequence[FakeUser] = (),
    *,
    bots: int = 0,
    options: Mapping[str, str] | None = None,
    clicks: Mapping[str, int] | None = None,
    by: FakeUser | None = None,
    start: bool = True,
) -> Message:
    """``/game new`` of ``game`` by ``owner`` (the lobby speaks their language), the others
    join, ``bots`` bots are added; each option of ``clicks`` is clicked that many times and
    each of ``options`` until it shows that value (by ``by``, default the owner; ``h.<key>``
    for a host option); then the owner starts, unless ``start`` is False. The lobby."""
    lang = pick(owner.locale)
    lobby = (await h.slash(owner, "game new", game=game)).posted
    for u in others:
        await h.click(u, lobby, label=t("host.lobby.join", lang))
    for _ in range(bots):
        await h.click(owner, lobby, label=t("host.lobby.add_bot", lang))
    clicker = by or owner
    for key, times in (clicks or {}).items():
        for _ in range(times):
            await h.click(clicker, lobby, option_button(lobby, key))
    for key, value in (options or {}).items():
        for _ in range(12):
            if await lobby_option(h, key) == value:
                break
            await h.click(clicker, lobby, option_button(lobby, key))
        assert await lobby_option(h, key) == value, (key, value)
    if start:
        await h.click(owner, lobby, label=t("host.lobby.start", lang))
    return lobby


async def open_and_play(
    h: Harness, game: str, users: Sequence[FakeUser], *, turns: int, seed: int, bots: int = 0
) -> tuple[dict[FakeUser, int], random.Random]:
    """``game`` opened by ``users[0]``, joined by the others (seats in that order), with
    ``bots`` bots, started; then ``turns`` random clicks by waiting players
    (``random.Random(seed)``). The seats and the rng, to play on."""
    await open_game(h, game, users[0], users[1:], bots=bots)
    seats = {u: seat for seat, u in enumerate(users)}
    rng = random.Random(seed)
    for _ in range(turns):
        await play_turn(h, seats, rng)
    return seats, rng


async def lobby_option(h: Harness, key: str) -> str | None:
    row = (await snapshot(h)).row
    if key.startswith("h."):
        return row.host_options.get(key[2:])  # type: ignore[no-any-return]
    return row.options.get(key)  # type: ignore[no-any-return]


# -- what the channel shows -----------------------------------------------------------------


@cache
def strings(game: str) -> dict[str, dict[str, str]]:
    """A game's strings file: language -> key -> text."""
    path = ROOT / "data" / game / "strings.json"
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def text_patterns(
    game: str, key_prefixes: Iterable[str], *, drop_empty: bool = False
) -> list[re.Pattern[str]]:
    """Regexes matching any rendering (both languages) of ``game``'s strings under these
    keys (a key itself, or its children). ``drop_empty``: a placeholder at an end of the
    text matches nothing there (looser patterns)."""
    prefixes = list(key_prefixes)
    out = []
    for lang in strings(game).values():
        for key, text in lang.items():
            if any(key == p or key.startswith(p + ".") for p in prefixes):
                parts = re.split(r"\{[^}]*\}", text)
                if drop_empty:
                    parts = [p for p in parts if p]
                out.append(re.compile(".+".join(re.escape(p) for p in parts)))
    return out


def table_picture(m: Message) -> bytes:
    """The picture of a table message (its ``table.png``), as last shown."""
    found = [a.data for a in m.attachments if a.name == "table.png" and a.is_image]
    assert found, f"a table without its picture: {m.text()[:200]}"
    return found[0]


#: What only the seat concerned may read, by game: keys of the game's strings (a key and
#: its children) whose text must never reach a channel, and whether a placeholder at an
#: end of a text matches nothing there (:func:`text_patterns`' ``drop_empty``).
SECRET_KEYS: dict[str, tuple[tuple[str, ...], bool]] = {
    # the order being composed and the mission cards
    "kosmonavts": (
        (
            "kosmonavts.prompt.order",
            "kosmonavts.prompt.order_landed",
            "kosmonavts.prompt.missions",
        ),
        False,
    ),
    # events addressed to one seat (a card drawn, a discovery looked at, an action card
    # committed), the missions, the secret prompts (whether to play an action card too)
    "red_planet": (
        (
            "red_planet.event.drew",
            "red_planet.event.peeked",
            "red_planet.mission",
            "red_planet.prompt.mission",
            "red_planet.prompt.choose",
            "red_planet.prompt.assign",
            "red_planet.prompt.commit",
            "red_planet.event.commit",
        ),
        False,
    ),
    # the planets seen, the card planned, the artifact drawn, the cards discarded at the
    # hand limit, the private prompts
    "ad_astra": (
        (
            "ad_astra.event.saw",
            "ad_astra.event.placed_card",
            "ad_astra.event.artifact_is",
            "ad_astra.event.discarded_cards",
            "ad_astra.prompt.plan_card",
            "ad_astra.prompt.land",
            "ad_astra.prompt.discard",
        ),
        False,
    ),
    # a ship in progress: where a tile went, what a builder drew or holds (a ship broken by
    # a hit in flight is asked on the table with "prompt.broken": ships in flight are
    # public; the pre-launch "prompt.split" is private)
    "galaxy_trucker": (
        (
            *(
                f"galaxy_trucker.event.{k}"
                for k in ("place", "rot", "lift", "drawn", "use", "back", "unpeek")
            ),
            "galaxy_trucker.prompt.hand",
            "galaxy_trucker.prompt.fix",
            "galaxy_trucker.prompt.split",
        ),
        True,
    ),
}


def secret_patterns(game: str) -> list[re.Pattern[str]]:
    """Regexes of the texts of ``game`` that only one seat may read (none listed: none)."""
    keys, drop_empty = SECRET_KEYS.get(game, ((), False))
    return text_patterns(game, keys, drop_empty=drop_empty) if keys else []


def assert_tables_have_pictures(h: Harness, *, ever: bool = True) -> list[Message]:
    """Every table message (of a game's footer) carries its picture: every one ever posted
    (deleted ones too), or the ones in the channel now. The tables ever posted."""
    posted = tables_ever(h) if ever else h.messages(h.channel_id)
    for m in posted:
        footers = [e.get("footer", {}).get("text", "") for e in m.embeds]
        if any("Partida n.º" in f or "Game #" in f for f in footers):
            assert any(a.name == "table.png" and a.is_image for a in m.attachments), m.text()
    return tables_ever(h)


def raw_key(game: str) -> re.Pattern[str]:
    """An i18n key of ``game`` (or of the host) that reached a player untranslated."""
    return re.compile(rf"\b(?:{game}|host|render|cmd)\.[a-z0-9_]+\.[a-zA-Z0-9_.]+")


def assert_translated(h: Harness, game: str, users: Iterable[FakeUser], caplog: Any) -> None:
    """Every word reached the players translated: no raw key in a channel or in what these
    users saw privately, and no "missing string" warning (``i18n_warnings`` records them)."""
    key = raw_key(game)
    for where, body in [
        ("public", h.all_public_text()),
        ("private", "\n".join(private_texts(h, users))),
    ]:
        assert not key.findall(body), (where, sorted(set(key.findall(body)))[:10])
    missing = [r.getMessage() for r in caplog.records if "missing string" in r.getMessage()]
    assert not missing, missing


@dataclass
class Played:
    """A whole game played click by click, and what the channels showed meanwhile."""

    final: Message
    clicks: int
    seconds: float
    during: list[str]  # public lines shown before the game ended


# -- watching the channels click by click ---------------------------------------------------


def live_tables(h: Harness) -> list[Message]:
    """Table messages in the channel whose buttons can still be pressed."""
    return [m for m in tables(h) if any(not b.disabled for b in m.buttons) or m.selects]


def is_trail(m: Message) -> bool:
    """A trail message: the moves told one line each, above the table."""
    return not m.embeds and not m.attachments and "\n• " in f"\n{m.content}"


def trail_lines(h: Harness) -> list[str]:
    """Every move line of the trail messages in the channel, in order."""
    return [
        line.removeprefix("• ")
        for m in h.messages()
        if is_trail(m)
        for line in m.content.splitlines()
        if line.startswith("• ")
    ]


async def public_log(h: Harness) -> list[str]:
    """The log lines of the public moves of the channel's game, in its language."""
    snap = await snapshot(h)
    actions = await cog_of(h).host.store.actions(snap.id)
    public = [a for a in actions if public_move(a.events)]
    return present.log_lines(snap, public, None, snap.row.lang)


def game_messages(h: Harness, lobby: Message) -> list[Message]:
    """The channel's messages after the lobby (the lobby stays where it was)."""
    return [m for m in h.messages() if m.id > lobby.id]


def split_lines(payload: dict[str, Any], atts: Sequence[Any] = ()) -> list[str]:
    return [line for part in payload_text(payload, atts) for line in part.splitlines()]


class PublicWatch:
    """Every version of every guild-channel message, as it appears, click by click."""

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.seen: dict[int, int] = {}
        self.table: list[str] = []  # the text of the latest table, as last seen
        self.shown: list[str] = []  # every line of the versions the last call counted

    def fresh(self) -> tuple[int, list[str]]:
        """How many public message versions were shown since the last call, and their new
        lines: an edited message is compared with its previous version, a new table with the
        table it replaces (whose recent-events lines it repeats). Every line of those versions,
        new or not, is kept in :attr:`shown`."""
        backend = self.h.backend
        self.shown = []
        versions = 0
        lines: list[str] = []
        for cid, ids in backend.channel_order.items():
            if not backend.is_guild_channel(cid):
                continue
            for mid in ids:
                stored = backend.stored_messages[mid]
                n = self.seen.get(mid, 0)
                if stored.ephemeral or len(stored.versions) == n:
                    continue
                is_table = any(a.name == "table.png" for a in stored.versions[0][1])
                prev = split_lines(*stored.versions[n - 1]) if n else []
                if not n and is_table:
                    prev = self.table
                for payload, atts in stored.versions[n:]:
                    now = split_lines(payload, atts)
                    self.shown += now
                    lines += list((Counter(now) - Counter(prev)).elements())
                    prev = now
                    versions += 1
                self.seen[mid] = len(stored.versions)
                if is_table:
                    self.table = prev
        return versions, lines


# -- the privacy guard ----------------------------------------------------------------------


def private_images(h: Harness, users: Iterable[FakeUser]) -> set[bytes]:
    """Every picture these users were shown privately (DMs, ephemeral replies), every
    version of every message."""
    return {a.data for a in private_pictures(h, users)}


def private_pictures(h: Harness, users: Iterable[FakeUser]) -> list[Any]:
    """The image attachments these users were shown privately, every version of every
    message (DMs, ephemeral replies)."""
    return [
        a
        for u in users
        for m in [*h.dm_messages(u), *h.ephemeral_to(u)]
        for _, atts in m.stored.versions
        for a in atts
        if a.is_image
    ]


def private_descriptions(h: Harness, users: Iterable[FakeUser]) -> set[str]:
    """The alt text of every picture these users were shown privately (see
    :func:`private_images`)."""
    return {a.description for a in private_pictures(h, users) if a.description}


def public_descriptions(h: Harness) -> set[str]:
    """The alt text of every picture ever shown in a guild channel (deleted messages too)."""
    backend = h.backend
    return {
        a.description
        for cid, ids in backend.channel_order.items()
        if backend.is_guild_channel(cid)
        for mid in ids
        if not backend.stored_messages[mid].ephemeral
        for _, atts in backend.stored_messages[mid].versions
        for a in atts
        if a.is_image and a.description
    }


def any_of(patterns: Sequence[re.Pattern[str]]) -> re.Pattern[str] | None:
    """One pattern that finds a match in a line exactly when one of ``patterns`` does (their
    alternation); None when they cannot be joined (different flags, groups, no pattern)."""
    if not patterns or len({p.flags for p in patterns}) > 1 or any(p.groups for p in patterns):
        return None
    try:
        return re.compile("|".join(f"(?:{p.pattern})" for p in patterns), patterns[0].flags)
    except re.error:
        return None


def assert_no_secrets_in_channels(
    h: Harness,
    users: Iterable[FakeUser],
    secrets: Sequence[re.Pattern[str]] = (),
    *,
    pictures: bool = False,
) -> None:
    """No secret of any seat reached a channel: no picture shown privately to ``users``
    among the channels' pictures (``pictures``: and some private picture was shown), nor
    a private picture's alt text as a channel picture's, no channel line (alt texts
    included) that matches one of ``secrets``, no message the harness did not expect, no
    error."""
    private = private_images(h, users)
    if pictures:
        assert private, "no private picture was ever shown"
    assert not private & set(h.all_public_images())
    assert not private_descriptions(h, users) & public_descriptions(h)
    lines = h.all_public_text().splitlines()
    either = any_of(secrets)
    if either is not None:  # one search per line instead of one per line and pattern
        assert not any(map(either.search, lines)), next(x for x in lines if either.search(x))
    for line in lines if either is None else ():
        assert not any(p.search(line) for p in secrets), line
    assert not h.unexpected
    assert not h.errors, h.errors


# -- clicks a player should not be able to make ----------------------------------------------


async def forged_click(
    h: Harness, user: FakeUser, message: Message, real_id: str, forged_id: str
) -> Reply:
    """A click as an out-of-date client would send it: a custom_id the message once had."""
    rec = h.build_click(user, message, real_id)
    rec.payload["data"]["custom_id"] = forged_id
    message_payload = json.dumps(rec.payload["message"]).replace(real_id, forged_id)
    rec.payload["message"] = json.loads(message_payload)
    (reply,) = await h._run([rec])
    return reply


def refusal_text(reply: Reply) -> str:
    """The ephemeral sentence the bot answered a click with (there must be one)."""
    texts = [f.content for f in reply.followups if f.ephemeral]
    if reply.type == 4 and reply.ephemeral:
        texts.append(reply.content)
    assert texts, f"no ephemeral answer: {reply.text()}"
    return " ".join(texts)


# -- players who click the game's own heuristic ------------------------------------------------


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
    max_clicks: int = 4000,
    each: Callable[[Message, Any], Awaitable[None]] | None = None,
) -> int:
    """Play the game in the channel to its end (``users`` in seats 0, 1, …), each waiting
    player clicking the game's heuristic's pick at once (or ``think`` seconds after the
    previous click); otherwise the clock moves only when nobody but a timer is awaited.
    ``each(table, snapshot)`` is awaited at every table the game reaches before its end
    (the final one excepted). The clicks made."""
    seats = {u.id: i for i, u in enumerate(users)}
    clicks = 0
    while True:
        table = latest_table(h)
        if is_final(table):
            return clicks
        snap = await snapshot(h)
        if each is not None:
            await each(table, snap)
        waiting = snap.human_to_move()
        if not waiting:
            due = [d for d, _ in snap.running_timers()]
            assert due, "the game waits for nobody and for no timer"
            clock.advance(max(1.0, min(due) - clock.now() + 1))
            await cog_of(h).tick()
            continue
        seat = rng.choice(waiting)
        user = next(u for u in users if seats[u.id] == seat)
        decisions = snap.decisions_for(seat)
        heuristic = getattr(snap.game, "bot_choice", None)
        choice = None
        if heuristic is not None:
            choice = str(heuristic(snap.state, seat, random.Random(rng.random())))
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
        assert clicks < max_clicks, "the game did not end"


@dataclass
class Clicking:
    """The game in the channel played to its end one :func:`play_turn` at a time, each
    player picking with ``chooser`` (which keeps its last pick: user, seat, offer): ``async
    for user, seat, offer in clicking`` sees each pick once it is clicked, and ``clicks``
    counts them. Fails past ``most`` clicks."""

    h: Harness
    seats: Mapping[FakeUser, int]
    rng: random.Random
    chooser: Any
    closed: set[FakeUser]
    most: int
    clicks: int = 0

    async def __aiter__(self) -> AsyncIterator[Any]:
        h, seats, rng, closed = self.h, self.seats, self.rng, self.closed
        while await play_turn(h, seats, rng, closed=closed, choose=self.chooser) is not None:
            self.clicks += 1
            assert self.clicks < self.most, "the game did not end"
            assert self.chooser.last is not None
            yield self.chooser.last


#: The players of :func:`play_whole_game`, by name and locale (seats 0, 1, 2).
TRIO = (("Ana", "en-US"), ("Ben", "es-ES"), ("Cal", "en-GB"))


async def play_whole_game(
    h: Harness,
    clock: FakeClock,
    game: str,
    *,
    pings_clicks: int = 0,
    seed: int = 1,
    think: float = 0.0,
) -> tuple[list[FakeUser], int]:
    """A whole 3-player game of ``game`` by :data:`TRIO` (the lobby's ``pings`` option
    clicked ``pings_clicks`` times: 0, the default ``away``; 1, ``live``), played to its end
    with :func:`play_straight`. The players and the clicks made."""
    users = [h.user(name, locale) for name, locale in TRIO]
    await open_game(h, game, users[0], users[1:], clicks={"h.pings": pings_clicks})
    clicks = await play_straight(h, users, clock, random.Random(seed), think=think)
    return users, clicks


# -- the replay viewer (cogs/replay.py) -------------------------------------------------------


def replay_picture(m: Message | Reply) -> bytes:
    """The picture of a replay viewer (its ``replay.png``), as last shown."""
    found = [a.data for a in m.attachments if a.name == "replay.png" and a.is_image]
    assert found, f"a replay without its picture: {m.text()[:300]}"
    return found[0]


def replay_button(m: Message, act: str) -> Any:
    """The viewer's button for ``act`` (first, prev, next, last; open on the package)."""
    (found,) = [b for b in m.buttons if f":r:{act}." in (b.custom_id or "")]
    return found


def end_package(h: Harness) -> Message:
    """The end-of-game package (the log, the final board, the recap and "▶ Replay")."""
    return next(m for m in h.messages() if any(a.name == "recap.gif" for a in m.attachments))


def tick(h: Harness, seconds: float = 1.0) -> None:
    """Time passes (the viewer draws a few pictures a second per user)."""
    host_of(h).clock.advance(seconds)


async def step_through(h: Harness, user: FakeUser, viewer: Message) -> list[bytes]:
    """Click ▶ until it is greyed out; every picture shown, the first one included."""
    shown = [replay_picture(viewer)]
    for _ in range(5000):
        nxt = replay_button(viewer, "next")
        if nxt.disabled:
            return shown
        tick(h)
        await h.click(user, viewer, nxt.custom_id)
        shown.append(replay_picture(viewer))
    raise AssertionError("the replay never ended")


# -- every picture's description (issue 22.2) ---------------------------------------------------


class Described:
    """Every text the bot made for a picture: text -> {(kind, lang, the view had secrets)}
    (set up before the game is played)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.made: dict[str, set[tuple[str, str, bool]]] = defaultdict(set)
        describe, recap = present.describe, words.describe_recap

        def described(
            game: str, kind: str, view: dict[str, Any], names: list[str], lang: str
        ) -> str:
            text = describe(game, kind, view, names, lang)
            self.made[text].add((kind, lang, "private" in view))
            return text

        def recapped(game: str, view: dict[str, Any], names: Any, lang: str) -> str:
            text = recap(game, view, names, lang)
            self.made[text].add(("recap", lang, "private" in view))
            return text

        monkeypatch.setattr(present, "describe", described)
        monkeypatch.setattr(words, "describe_recap", recapped)


def pictures(h: Harness) -> list[tuple[str, int | None, str, Any]]:
    """(where: "channel" / "private", the user it was shown to, file name, attachment) of
    every image ever posted, every version of every message, deleted ones too."""
    backend = h.backend
    dm_user = {cid: uid for uid, cid in backend.dm_by_user.items()}
    out = []
    for stored in backend.stored_messages.values():
        if stored.ephemeral:
            where, user = "private", stored.interaction_user_id
        elif backend.is_guild_channel(stored.channel_id):
            where, user = "channel", None
        else:
            where, user = "private", dm_user.get(stored.channel_id)
        seen = set()
        for _, atts in stored.versions:
            for a in atts:
                if a.is_image and a.id not in seen:
                    seen.add(a.id)
                    out.append((where, user, a.name, a))
    return out


def numbered_snowflakes(text: str) -> str:
    """``text`` with its snowflakes (each harness makes its own) numbered in their order of
    appearance, so two harnesses' requests compare."""
    seen: dict[str, str] = {}
    return re.sub(r"\d{15,}", lambda m: seen.setdefault(m[0], f"#{len(seen)}"), text)
