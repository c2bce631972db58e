"""The e2e contract: what every registered game does through the offline Discord harness. A
game gets these tests by being registered (``host.registry.GAME_MODULES``).

* One whole game of each game (:func:`test_a_whole_game`), played once and read for
  everything a finished game must show. At the table: three people, Ana (whose language
  the channel speaks: English for some games, Spanish for others), Ben (the other
  language, DMs closed: he plays through "My hand") and Cal (en-GB), and a bot; the lobby's
  default host options (``pings``: away) and the game options of :data:`OPTIONS` (MLEM's
  variants hold its only secrets). The players click the game's own heuristic wherever the
  bot shows them their moves (table, DMs, "My hand"). Then:

  - the contract: it ends with final scores whose breakdowns add up; each person was pinged
    at most :data:`MOST_PINGS` times (the first turns do ping); every table carried its
    picture and older tables were deleted; the log replays to the stored state; every word
    reached the players translated; no private picture of any seat reached a channel, nor
    any line only one seat may read (``tests.e2e.kit.SECRET_KEYS``); buttons are routed by
    pattern (no view kept in memory);
  - every table said what is decided: each open public decision's prompt with whose it
    is, at every table of the game; no private prompt ever reached the channel;
  - what the channel keeps: after every click one table, the only one with live buttons;
    a trail that tells every public move once, in order; at most :data:`MOST_PER_ROUND`
    messages a round left below the lobby;
  - every picture is described in words (issue 22.2): every image attachment ever posted
    (deleted tables and edited panels too) carries a description within Discord's limit
    (1024 characters; the harness refuses a longer one, as Discord does), in its reader's
    language (the channel's for the tables, the final board and the recap, the player's own
    for their private pictures: the text the game's ``describe_*`` made for that language);
    a channel picture's text is a table's or the recap's, built from a public view, never a
    private picture's; the privacy guard reads alt texts too;
  - the end-of-game package (the log, the recap as an animated GIF, the final board), and
    the game counted by /stats (a game with a bot marked so) and /leaderboard;
  - MLEM's secret missions are revealed at the end: every seat's missions and whether each
    was met (✓/✗) in the final table message and in the log file;
  - the replay viewer (cogs/replay.py): the end-of-game package's "▶ Replay" opens it at
    the start, ▶ steps through every step, the last one the final table's very picture;
    after a restart its buttons still work, and its menu jumps to a stretch's start.
* A stale button (a decision that is no longer open), a forged option and a click by
  someone who is not playing are refused in private and change nothing.

The figures of the whole games are printed (``-s``); the README quotes the channel's.
"""

from __future__ import annotations

import io
import random
import re
from collections import defaultdict
from typing import Any

import pytest
from PIL import Image

from cogs import present
from core.i18n import pick, t
from host import registry
from host.clock import FakeClock
from render import words
from rules.mlem import engine as mlem
from tests.e2e.driver import (
    MOVE_OPTION,
    TO_MOVE,
    Offer,
    field,
    is_table,
    latest_table,
    offers,
    ping_counts,
    tables,
)
from tests.e2e.kit import (
    Described,
    assert_finished,
    assert_no_secrets_in_channels,
    assert_played_in_private,
    assert_tables_have_pictures,
    assert_translated,
    end_package,
    forged_click,
    game_messages,
    host_of,
    is_trail,
    live_tables,
    open_game,
    pictures,
    play_straight,
    public_log,
    refusal_text,
    replay_button,
    replay_picture,
    secret_patterns,
    snapshot,
    step_through,
    table_picture,
    tick,
    trail_lines,
)
from tests.harness import FakeUser, Harness, Message

GAMES = tuple(registry.GAME_MODULES)
#: The most pings a person may get in a whole game with the default host options.
MOST_PINGS = 8

#: Ana's locale by game (the channel's language): each game in one channel language, both
#: languages in every game's private pictures (Ben reads the other one).
OPENER = {
    "mlem": "es-ES",
    "kosmonavts": "en-US",
    "red_planet": "en-US",
    "galaxy_trucker": "es-ES",
    "ad_astra": "es-ES",
}
OTHER = {"es-ES": "en-US", "en-US": "es-ES"}
#: The game options of each whole game: (options clicked, options set by Ben). MLEM's
#: variants hold its only secrets (missions, hidden points); Kosmonavts' advanced rules
#: add the secret missions, and the planets are placed by the players.
OPTIONS: dict[str, tuple[dict[str, int], dict[str, str]]] = {
    "mlem": ({"ufo": 1, "recon": 1, "missions": 1}, {}),
    "kosmonavts": ({}, {"rules": "advanced", "planets": "players"}),
}
#: The bots at each whole game's table (one unless said; Galaxy Trucker's 4-seat final
#: credits once overran their band, so its replay's final picture differed: fixed in
#: render/galaxy_trucker/flight.py, and it plays with its bot now).
BOTS: dict[str, int] = {}
#: The most channel messages a whole game leaves a round (the trail, the final table and
#: the end-of-game package), in a game with rounds.
MOST_PER_ROUND = 3
#: Games whose rounds are too long for that bound (Ad Astra: three rounds a game, whose
#: trail runs over several messages each).
LONG_ROUNDS = ("ad_astra",)
#: The fewest open public decisions the tables of a whole game must have named.
FEWEST_PROMPTS = {"mlem": 20}

pytestmark = pytest.mark.usefixtures("i18n_warnings")


class EveryTable:
    """At every table: the channel holds it alone, and its buttons are the only live ones;
    each open public decision of a person is named on it, with its prompt and whose it is
    (a bot's move is searched at once: the table says the bot is thinking); the private
    prompts are kept, to check that none reached the channel."""

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.checked = 0
        self.secret: set[str] = set()

    async def __call__(self, table: Message, snap: Any) -> None:
        assert tables(self.h) == [table], [m.id for m in tables(self.h)]
        assert len(live_tables(self.h)) <= 1
        lang = snap.row.lang
        to_move = field(table, TO_MOVE) or ""
        for d in snap.decisions:
            prompt = present.prompt_text(snap, d, lang)
            if d.private:
                self.secret.add(prompt)
            elif not snap.seats[d.seat].is_bot:
                line = f"<@{snap.seats[d.seat].user_id}>"
                assert any(line in row and prompt in row for row in to_move.splitlines()), (
                    prompt,
                    to_move,
                )
                self.checked += 1

    def none_in(self, public: str) -> None:
        assert not [p for p in self.secret if p in public]


@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_game(
    harness: Harness,
    clock: FakeClock,
    caplog: Any,
    monkeypatch: pytest.MonkeyPatch,
    game: str,
) -> None:
    h = harness
    described = Described(monkeypatch)
    opener = OPENER[game]
    users = [h.user("Ana", opener), h.user("Ben", OTHER[opener]), h.user("Cal", "en-GB")]
    ana, ben, _ = users
    h.fail_dms(ben)  # Ben's private pictures come as "My hand" replies
    clicks, options = OPTIONS.get(game, ({}, {}))
    lobby = await open_game(
        h, game, ana, users[1:], bots=BOTS.get(game, 1), clicks=clicks, options=options, by=ben
    )
    every = EveryTable(h)
    made = await play_straight(h, users, clock, random.Random(1), each=every)
    snap = await assert_finished(h, users)
    assert_played_in_private(h, users, ben)
    # Pings: the lobby's default (away), at most MOST_PINGS each, and the first turns ping.
    assert snap.row.host_options["pings"] == "away"
    counts = ping_counts(h, users)
    print(f"\n{game}, 3 people and {BOTS.get(game, 1)} bot(s): pings {counts} in {made} clicks")
    assert all(n <= MOST_PINGS for n in counts.values()), counts
    assert any(counts.values())  # the first turns do ping: nobody has acted yet
    # Every table carried its picture; the older ones were deleted; a short trail is left.
    await check_channel(h, game, lobby, snap, ben)
    assert_translated(h, game, users, caplog)
    # Every table said what is decided; no private prompt reached the channel.
    print(f"{game}: {every.checked} public prompts named on the tables")
    assert every.checked > FEWEST_PROMPTS.get(game, 5)
    every.none_in(h.all_public_text())
    # No seat's secret reached a channel: no private picture, no private panel, no line
    # that only one seat may read; the alt texts neither (the guard reads them too).
    for m in h.messages():
        assert "private.png" not in [a.name for a in m.attachments], m.text()[:200]
    assert_no_secrets_in_channels(h, users, secret_patterns(game))
    check_described(h, described, game, users)
    if game == "mlem":
        check_missions_revealed(h, snap)
    await check_package_and_stats(h, game, users, snap)
    # Buttons are routed by pattern: discord.py keeps no view per message in memory.
    assert not h.bot._connection._view_store._views  # type: ignore[union-attr]
    await check_replay(h, ana)
    assert not h.unexpected and not h.errors, h.errors


async def check_channel(h: Harness, game: str, lobby: Message, snap: Any, ben: FakeUser) -> None:
    """What the channel keeps of a whole game: every table ever posted carried its picture,
    each was deleted when the next came (one live table after every click: see
    :class:`EveryTable`); the trail tells every public move once, in order; what is left
    below the lobby is the trail, the final table, the end-of-game package and one notice
    to ``ben``, whose DMs are closed: at most
    :data:`MOST_PER_ROUND` messages a round (a voyage, in MLEM), in a game with rounds."""
    final = latest_table(h)
    posted = assert_tables_have_pictures(h)
    assert_tables_have_pictures(h, ever=False)
    assert len(posted) > 10 and tables(h) == [final]
    assert trail_lines(h) == await public_log(h)
    shown = game_messages(h, lobby)
    # (and the one notice that tells Ben, whose DMs are closed, to use "My hand")
    closed = t("host.dm.closed", snap.row.lang, who=f"<@{ben.id}>")
    notices = [m for m in shown if m.content == closed]
    assert len(notices) == 1, [m.content[:60] for m in shown if not is_trail(m)]
    left = [m for m in shown if m not in notices]
    assert all(is_trail(m) or is_table(m) or m.attachments for m in left)
    rounds = snap.view(None).get("round")
    per_round = f"{len(shown) / rounds:.1f} a round" if isinstance(rounds, int) else ""
    print(
        f"{game}: {rounds} rounds, {len(shown)} channel messages left ({per_round}), "
        f"{len(posted)} tables posted in turn"
    )
    if isinstance(rounds, int) and game not in LONG_ROUNDS:
        assert len(shown) / rounds <= MOST_PER_ROUND, [m.content[:60] for m in shown]


def check_described(h: Harness, described: Described, game: str, users: list[FakeUser]) -> None:
    """Every picture ever posted is described, in its reader's language, from a view that
    reader may see (see the module's docstring)."""
    channel_lang = pick(users[0].locale)
    lang_of = {u.id: pick(u.locale) for u in users}
    name_of = {u.id: u.name for u in users}
    shown = pictures(h)
    names = {name for _, _, name, _ in shown}
    assert {"table.png", "private.png", "final.png", "recap.gif"} <= names, names
    counts: dict[str, int] = defaultdict(int)
    for where, user, name, a in shown:
        text = a.description
        assert text, f"{where} {name} has no description"
        assert len(text) <= words.LIMIT, (name, len(text))
        made = described.made.get(text)
        assert made, f"{name}: a description the game did not make: {text[:200]}"
        kinds = {kind for kind, _, _ in made}
        langs = {lang for _, lang, _ in made}
        if where == "channel":
            assert channel_lang in langs, (name, text[:200])
            assert kinds <= {"table", "recap"}, (name, kinds)
            assert not any(secret for _, _, secret in made), (name, text[:200])
            if name == "recap.gif":
                assert kinds == {"recap"}
                assert text.startswith(
                    t("render.words.recap", channel_lang, game=t(f"{game}.name", channel_lang))
                )
        else:
            assert user in lang_of, (name, user)
            lang = lang_of[user]
            assert lang in langs, (name, lang, text[:200])
            if name == "private.png":
                assert "private" in kinds, (name, kinds)
                heading = t(
                    "render.words.private", lang, name=name_of[user], game=t(f"{game}.name", lang)
                )
                assert text.startswith(heading), text[:200]
        counts[f"{where} {name}"] += 1
    print(f"{game}: described pictures {dict(counts)}")


async def check_package_and_stats(h: Harness, game: str, users: list[FakeUser], snap: Any) -> None:
    """The end-of-game package: the log (every player named, the winner's 🏆), the recap as
    an animated GIF and the final board; /stats and /leaderboard count the game (Cal reads
    English), with the bot marked."""
    files = {a.name: a for a in end_package(h).attachments}
    log = next(a for name, a in files.items() if name.endswith("-log.txt"))
    text = log.data.decode("utf-8")
    assert all(u.name in text for u in users) and "🏆" in text
    gif = Image.open(io.BytesIO(files["recap.gif"].data))
    assert gif.format == "GIF" and gif.n_frames > 5  # type: ignore[attr-defined]
    assert files["final.png"].is_image
    cal = users[2]
    reply = await h.slash(cal, "stats")
    assert reply.ephemeral and "1 game ·" in reply.text()
    bots = sum(s.is_bot for s in snap.seats)
    assert f"· {bots} with bots" in reply.text(), reply.text()
    text = (await h.slash(cal, "leaderboard", game=game)).text()
    assert all(f"<@{u.id}>" in text for u in users), text
    assert "· 1 game" in text  # (ordered by rating: see tests/e2e/test_ratings_e2e.py)


def check_missions_revealed(h: Harness, snap: Any) -> None:
    """MLEM with secret missions: the final table and the log file give every seat's
    missions and whether each was met, in the channel's language (Spanish here)."""
    assert snap.row.lang == "es"
    state = snap.row.state
    text = latest_table(h).text()
    assert "Lo que estaba oculto" in text
    logs = [
        a.data.decode("utf-8")
        for m in h.messages()
        for a in m.attachments
        if a.name.endswith("-log.txt")
    ]
    assert len(logs) == 1
    log = logs[0]
    assert "Lo que estaba oculto" in log
    for seat, name in enumerate(snap.names):
        done = mlem.missions_done(state, seat)
        assert len(done) == 3
        marks = ", ".join(f"{m} {'✓' if ok else '✗'}" for m, ok in done)
        line = f"{name}: misiones secretas {marks}"
        assert line in text, (line, text)
        assert line in log, (line, log)


async def check_replay(h: Harness, user: FakeUser) -> None:
    """The package's "▶ Replay" steps ``user`` (who reads the channel's language) through
    the finished game to its final table, picture for picture, and again after a restart."""
    lang = pick(user.locale)
    final_png = table_picture(latest_table(h))
    snap = await snapshot(h)
    _, replay = await host_of(h).replay_steps(snap.id)
    # The package's "▶ Replay" opens a private viewer at the start.
    package = end_package(h)
    reply = await h.click(user, package, replay_button(package, "open").custom_id)
    viewer = reply.posted
    assert viewer.ephemeral
    assert t("host.replay.start", lang) in viewer.text()
    assert replay_button(viewer, "first").disabled and replay_button(viewer, "prev").disabled
    shown = await step_through(h, user, viewer)
    assert len(shown) == replay.last + 1
    assert shown[-1] == final_png  # the last step is the final table, picture for picture
    assert shown[0] != final_png
    text = viewer.text()
    assert "🏆" in text and t("host.replay.step", lang, n=replay.last, total=replay.last) in text
    # After a restart the same buttons still work: back to the start, then to the end.
    await h.restart()
    tick(h)
    await h.click(user, viewer, replay_button(viewer, "first").custom_id)
    assert replay_picture(viewer) == shown[0]
    tick(h)
    await h.click(user, viewer, replay_button(viewer, "last").custom_id)
    assert replay_picture(viewer) == final_png
    # The menu jumps to the start of a stretch (a round, or some moves).
    (menu,) = viewer.selects
    value = menu.options[1]["value"]
    tick(h)
    await h.click(user, viewer, menu.custom_id, values=[value])
    assert replay_picture(viewer) == shown[int(value)]


async def first_button(h: Harness, seats: dict[FakeUser, int]) -> tuple[FakeUser, Offer]:
    """A person to move and one of their move buttons (not a menu): on the table, else in
    their DM panel."""
    table = latest_table(h)
    for user, seat in seats.items():
        dms = [m for m in h.dm_messages(user) if offers(m, seat)]
        for m in [table, *dms[-1:]]:
            buttons = [o for o in offers(m, seat) if o.value is None]
            if buttons:
                return user, buttons[0]
    raise AssertionError(f"nobody has a move button: {table.text()[:300]}")


@pytest.mark.parametrize("game", GAMES)
async def test_a_stale_or_forged_button_is_refused_and_changes_nothing(
    harness: Harness, game: str
) -> None:
    h = harness
    ana, ben, eve = h.user("Ana", "es-ES"), h.user("Ben", "en-US"), h.user("Eve", "en-US")
    bots = max(0, registry.get(game).min_players - 2)
    await open_game(h, game, ana, [ben], bots=bots)
    user, offer = await first_button(h, {ana: 0, ben: 1})
    button, where = offer.custom_id, offer.message
    snap = await snapshot(h)

    async def unchanged() -> None:
        now = await snapshot(h)
        assert now.row.version == snap.row.version and now.row.state == snap.row.state

    # Stale: a decision token that is no longer open.
    stale = re.sub(r":[0-9a-f]{8}:", ":deadbeef:", button)
    text = refusal_text(await forged_click(h, user, where, button, stale))
    assert "out of date" in text or "desfasado" in text, text
    await unchanged()
    # Forged: an option that is not offered.
    match = MOVE_OPTION.match(button)
    assert match is not None
    forged = button[: match.start("opt")] + "zz.forged"
    assert refusal_text(await forged_click(h, user, where, button, forged))
    await unchanged()
    # Someone not in the game (on the table: a DM panel is only its owner's to see).
    table = latest_table(h)
    seen = [o for o in offers(table) if o.value is None]
    if seen:
        assert refusal_text(await h.click(eve, table, seen[0].custom_id))
        await unchanged()
    assert not h.unexpected and not h.errors, h.errors
