"""The e2e contract: what every registered game does through the offline Discord harness. A
game gets these tests by being registered (``host.registry.GAME_MODULES``).

* A whole 3-player game with the lobby's default options, the players clicking the game's
  own heuristic wherever the bot shows them their moves (table, DMs, "My hand"), is played
  once per game, and read for everything at once: it ends with final scores whose
  breakdowns add up; each player was pinged at most :data:`MOST_PINGS` times (the first
  turns do ping); every table carried its picture and older tables were deleted; the log
  replays to the stored state; every word reached the players translated; no private
  picture of any seat reached a channel, nor any line only one seat may read
  (``tests.e2e.kit.SECRET_KEYS``); buttons are routed by pattern (no view kept in
  memory).
* A stale button (a decision that is no longer open), a forged option and a click by
  someone who is not playing are refused in private and change nothing.

The figures of the first test are printed (``-s``); the README quotes them.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from host import registry
from host.clock import FakeClock
from tests.e2e.driver import MOVE_OPTION, Offer, latest_table, offers, ping_counts, tables
from tests.e2e.kit import (
    assert_finished,
    assert_no_secrets_in_channels,
    assert_tables_have_pictures,
    assert_translated,
    forged_click,
    open_game,
    play_whole_game,
    refusal_text,
    secret_patterns,
    snapshot,
)
from tests.harness import FakeUser, Harness

GAMES = tuple(registry.GAME_MODULES)
#: The most pings a player may get in a whole 3-player game with the default options.
MOST_PINGS = 8

pytestmark = pytest.mark.usefixtures("i18n_warnings")


@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_game_with_default_options(
    harness: Harness, clock: FakeClock, caplog: Any, game: str
) -> None:
    h = harness
    users, clicks = await play_whole_game(h, clock, game)
    snap = await assert_finished(h, users)
    # Pings: the lobby's default (away), at most MOST_PINGS each, and the first turns ping.
    assert snap.row.host_options["pings"] == "away"
    counts = ping_counts(h, users)
    print(f"\npings {game} 3p default (away): {counts} in {clicks} clicks")
    assert all(n <= MOST_PINGS for n in counts.values()), counts
    assert any(counts.values())  # the first turns do ping: nobody has acted yet
    # Every table carried its picture; the older ones were deleted.
    posted = assert_tables_have_pictures(h)
    assert len(posted) > 3 and len(tables(h)) == 1
    assert_translated(h, game, users, caplog)
    # No seat's secret reached a channel: no private picture, no private panel, no line
    # that only one seat may read.
    for m in h.messages():
        assert "private.png" not in [a.name for a in m.attachments], m.text()[:200]
    assert_no_secrets_in_channels(h, users, secret_patterns(game))
    # Buttons are routed by pattern: discord.py keeps no view per message in memory.
    assert not h.bot._connection._view_store._views  # type: ignore[union-attr]


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
