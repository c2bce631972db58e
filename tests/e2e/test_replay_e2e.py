"""The replay viewer through the offline Discord harness (cogs/replay.py): a finished game
of each of the five games stepped through with ▶ from the end-of-game package's "▶ Replay",
its last step the final table's very picture, and again after a restart; a running game's
replay shows the channel's table and none of a player's secrets; a click from another
channel, for a game that is gone, for a step the game no longer has, or too fast, is
answered in one sentence."""

from __future__ import annotations

import random
from typing import Any

import pytest

from core.i18n import t
from tests.e2e.driver import is_final, latest_table, play_turn
from tests.e2e.kit import (
    forged_click,
    host_of,
    open_and_play,
    open_game,
    play_straight,
    private_images,
    refusal_text,
    secret_patterns,
    snapshot,
    split_lines,
    table_picture,
)
from tests.harness import FakeUser, Harness, Message, Reply

#: Each game with the fewest seats it takes (one player, the rest bots).
SEATS = {"mlem": 2, "kosmonavts": 2, "red_planet": 2, "galaxy_trucker": 2, "ad_astra": 3}


def picture(m: Message | Reply) -> bytes:
    found = [a.data for a in m.attachments if a.name == "replay.png" and a.is_image]
    assert found, f"a replay without its picture: {m.text()[:300]}"
    return found[0]


def button(m: Message, act: str) -> Any:
    (found,) = [b for b in m.buttons if f":r:{act}." in (b.custom_id or "")]
    return found


def package(h: Harness) -> Message:
    return next(m for m in h.messages() if any(a.name == "recap.gif" for a in m.attachments))


def tick(h: Harness, seconds: float = 1.0) -> None:
    """Time passes (the viewer draws a few pictures a second per user)."""
    host_of(h).clock.advance(seconds)


async def finished(h: Harness, game: str, user: FakeUser, seed: int) -> Message:
    """A whole game of ``game`` by ``user`` against bots; its final table."""
    await open_game(h, game, user, bots=SEATS[game] - 1)
    await play_straight(h, [user], host_of(h).clock, random.Random(seed))
    final = latest_table(h)
    assert is_final(final)
    return final


async def step_through(h: Harness, user: FakeUser, viewer: Message) -> list[bytes]:
    """Click ▶ until it is greyed out; every picture shown, the first one included."""
    shown = [picture(viewer)]
    for _ in range(5000):
        nxt = button(viewer, "next")
        if nxt.disabled:
            return shown
        tick(h)
        await h.click(user, viewer, nxt.custom_id)
        shown.append(picture(viewer))
    raise AssertionError("the replay never ended")


@pytest.mark.parametrize("game", list(SEATS))
async def test_a_finished_game_replays_to_its_final_table(harness: Harness, game: str) -> None:
    h = harness
    ana = h.user("Ana", "en-US")
    final = await finished(h, game, ana, seed=3)
    final_png = table_picture(final)
    snap = await snapshot(h)
    _, replay = await host_of(h).replay_steps(snap.id)
    # The package's "▶ Replay" opens a private viewer at the start.
    reply = await h.click(ana, package(h), button(package(h), "open").custom_id)
    viewer = reply.posted
    assert viewer.ephemeral
    assert t("host.replay.start", "en") in viewer.text()
    assert button(viewer, "first").disabled and button(viewer, "prev").disabled
    shown = await step_through(h, ana, viewer)
    assert len(shown) == replay.last + 1
    assert shown[-1] == final_png  # the last step is the final table, picture for picture
    assert shown[0] != final_png
    text = viewer.text()
    assert "🏆" in text and t("host.replay.step", "en", n=replay.last, total=replay.last) in text
    # After a restart the same buttons still work: back to the start, then to the end.
    await h.restart()
    tick(h)
    await h.click(ana, viewer, button(viewer, "first").custom_id)
    assert picture(viewer) == shown[0]
    tick(h)
    await h.click(ana, viewer, button(viewer, "last").custom_id)
    assert picture(viewer) == final_png
    # The menu jumps to the start of a stretch (a round, or some moves).
    (menu,) = viewer.selects
    value = menu.options[1]["value"]
    tick(h)
    await h.click(ana, viewer, menu.custom_id, values=[value])
    assert picture(viewer) == shown[int(value)]
    assert not h.unexpected


async def test_a_running_game_replays_only_what_the_channel_saw(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "es-ES")
    await open_and_play(h, "kosmonavts", [ana, ben], turns=12, seed=4)
    snap = await snapshot(h)
    assert snap.row.status == "active"
    secrets = private_images(h, [ana, ben])
    assert secrets, "nobody was shown a private picture"
    table_png = table_picture(latest_table(h))
    # Without a number: the channel's game, at its latest step, as the table shows it now.
    viewer = (await h.slash(ana, "game replay")).posted
    assert viewer.ephemeral
    assert picture(viewer) == table_png
    tick(h)
    await h.click(ana, viewer, button(viewer, "first").custom_id)
    shown = await step_through(h, ana, viewer)
    assert shown[-1] == table_png
    assert not secrets & set(shown)  # no private picture, at any step
    patterns = secret_patterns("kosmonavts")
    for payload, atts in viewer.stored.versions:
        for line in split_lines(payload, atts):
            assert not any(p.search(line) for p in patterns), line
    assert not h.unexpected


async def test_wrong_clicks_are_answered_and_change_nothing(harness: Harness) -> None:
    h = harness
    ana = h.user("Ana", "en-US")
    # No game in the channel yet; then a lobby: nothing to replay.
    assert t("host.error.no_game", "en") in refusal_text(await h.slash(ana, "game replay"))
    await open_game(h, "mlem", ana, bots=1, start=False)
    gid = (await snapshot(h)).id
    reply = await h.slash(ana, "game replay", number=gid)
    assert t("host.replay.not_started", "en") in refusal_text(reply)
    await h.click(ana, h.last_message(), label=t("host.lobby.start", "en"))
    rng = random.Random(2)
    for _ in range(4):
        await play_turn(h, {ana: 0}, rng)
    viewer = (await h.slash(ana, "game replay")).posted
    before = viewer.text(), picture(viewer)
    real = button(viewer, "first").custom_id
    ver = real.split(":")[2]
    # A game of this channel asked for from another channel.
    other = h.new_channel("elsewhere")
    reply = await h.slash(ana, "game replay", number=gid, channel=other)
    assert t("host.replay.elsewhere", "en") in refusal_text(reply)
    # A forged game id, a step the game does not have, a menu value that is no step.
    cases = [
        (f"cd:{gid + 1000}:{ver}:r:next.1", "host.replay.gone"),
        (f"cd:{'9' * 30}:{ver}:r:next.1", "host.replay.gone"),
        (f"cd:{gid}:{ver}:r:next.9999", "host.replay.stale"),
    ]
    for forged, key in cases:
        tick(h, 5)
        reply = await forged_click(h, ana, viewer, real, forged)
        assert t(key, "en") in refusal_text(reply), forged
    for menu in viewer.selects:
        tick(h, 5)
        reply = await h.click(ana, viewer, menu.custom_id, values=["x"])
        assert t("host.replay.stale", "en") in refusal_text(reply)
    assert (viewer.text(), picture(viewer)) == before
    # Too fast: a burst of pictures, then "slow down" until time passes.
    tick(h, 10)
    answers = []
    for _ in range(6):
        there = button(viewer, "first")
        there = button(viewer, "last") if there.disabled else there
        answers.append(await h.click(ana, viewer, there.custom_id))
    slow = t("host.replay.slow_down", "en")
    assert [slow in r.text() for r in answers] == [False] * 4 + [True] * 2
    tick(h, 1)
    assert slow not in (await h.click(ana, viewer, button(viewer, "prev").custom_id)).text()
    assert not h.unexpected
