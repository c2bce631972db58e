"""The replay viewer through the offline Discord harness (cogs/replay.py): a running game's
replay shows the channel's table and none of a player's secrets; a click from another
channel, for a game that is gone, for a step the game no longer has, or too fast, is
answered in one sentence. A finished game of each of the five games stepped through with ▶
from the end-of-game package's "▶ Replay", its last step the final table's very picture,
and again after a restart, is read on the whole game of each game that
tests/e2e/test_contract_e2e.py plays once for all its checks."""

from __future__ import annotations

import io
import os
import random
import re
import textwrap
import time
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from core.i18n import t
from tests.e2e.driver import is_final, latest_table, play_turn
from tests.e2e.kit import (
    end_package,
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
    step_through,
    table_picture,
    tick,
)
from tests.e2e.kit import replay_button as button
from tests.e2e.kit import replay_picture as picture
from tests.harness import FakeUser, Harness, Message

#: Each game with the fewest seats it takes (one player, the rest bots).
SEATS = {"mlem": 2, "kosmonavts": 2, "red_planet": 2, "galaxy_trucker": 2, "ad_astra": 3}
#: Random clicks into a running game (a few for Galaxy Trucker: a random click may end a
#: flight early).
TURNS = {"galaxy_trucker": 5}


async def finished(h: Harness, game: str, user: FakeUser, seed: int) -> Message:
    """A whole game of ``game`` by ``user`` against bots; its final table."""
    await open_game(h, game, user, bots=SEATS[game] - 1)
    await play_straight(h, [user], host_of(h).clock, random.Random(seed))
    final = latest_table(h)
    assert is_final(final)
    return final


@pytest.mark.skipif(
    not (os.environ.get("COSMODROME_FIGURES") or os.environ.get("COSMODROME_DOCS")),
    reason="the README's figures (COSMODROME_FIGURES=1) and picture (COSMODROME_DOCS=1)",
)
@pytest.mark.parametrize("game", list(SEATS))
async def test_figures(harness: Harness, game: str) -> None:
    """The README's figures: a player against bots, the steps rebuilt and a ▶ click timed;
    and its picture of the viewer (MLEM, a step in the middle of the game). That a finished
    game replays to its final table, picture for picture, is checked on the whole game of
    each game in tests/e2e/test_contract_e2e.py."""
    h = harness
    ana = h.user("Ana", "en-US")
    final = await finished(h, game, ana, seed=3)
    snap = await snapshot(h)
    host_of(h).forget_replays()
    began = time.perf_counter()
    _, replay = await host_of(h).replay_steps(snap.id)
    took = time.perf_counter() - began
    print(f"\nFIGURES {game}: {replay.last} steps, rebuilt in {took * 1000:.0f} ms")
    reply = await h.click(ana, end_package(h), button(end_package(h), "open").custom_id)
    viewer = reply.posted
    began = time.perf_counter()
    shown = await step_through(h, ana, viewer)
    took = (time.perf_counter() - began) / max(replay.last, 1)
    print(f"FIGURES {game}: {took * 1000:.0f} ms a ▶ click (drawn and sent)")
    assert shown[-1] == table_picture(final)
    if game == "mlem" and os.environ.get("COSMODROME_DOCS"):
        # The README's picture of the viewer: a step in the middle of the game.
        (menu,) = viewer.selects
        tick(h)
        await h.click(
            ana, viewer, menu.custom_id, values=[menu.options[len(menu.options) // 2]["value"]]
        )
        for _ in range(2):
            tick(h)
            await h.click(ana, viewer, button(viewer, "next").custom_id)
        (DOCS / "replay_viewer.png").write_bytes(mockup(viewer))


@pytest.mark.parametrize("game", ["kosmonavts", "red_planet", "galaxy_trucker", "ad_astra"])
async def test_a_running_game_replays_only_what_the_channel_saw(
    harness: Harness, game: str
) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "es-ES")
    await open_and_play(
        h, game, [ana, ben], turns=TURNS.get(game, 12), seed=4, bots=SEATS[game] - 2
    )
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
    # Ben reads it in his language.
    seen = (await h.slash(ben, "game replay")).posted
    assert t("host.replay.step", "es", n=len(shown) - 1, total=len(shown) - 1) in seen.text()
    patterns = secret_patterns(game)
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
    # Someone else's viewer (Discord shows it to its owner only; a forged click).
    ben = h.user("Ben", "en-US")
    tick(h, 5)
    owner, viewer.stored.interaction_user_id = viewer.stored.interaction_user_id, ben.id
    reply = await h.click(ben, viewer, button(viewer, "first").custom_id)
    viewer.stored.interaction_user_id = owner
    assert t("host.replay.not_yours", "en") in refusal_text(reply)
    assert (viewer.text(), picture(viewer)) == before
    # The steps are kept a while, then rebuilt the same; a move rebuilds them at once.
    host = host_of(h)
    _, kept = await host.replay_steps(gid)
    assert (await host.replay_steps(gid))[1] is kept
    tick(h, 301)
    again = (await host.replay_steps(gid))[1]
    assert again is not kept and again == kept
    host.forget_replays()
    rebuilt = (await host.replay_steps(gid))[1]
    assert rebuilt is not again and rebuilt == again
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


# -- the README's picture of the viewer ----------------------------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs"
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(
        str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size
    )


def plain(text: str) -> str:
    """Markdown and emoji (which the picture's font lacks) out of a line."""
    text = re.sub(r"<t:\d+:R>", "", text.replace("**", "").replace("~~", ""))
    return "".join(c for c in text if ord(c) < 0x2600).strip()


def mockup(viewer: Message, width: int = 600) -> bytes:
    """The viewer as a Discord client shows it (dark theme): the embed with its caption,
    where it is and the table, then the buttons and the menu. A drawing for the README,
    from the message the bot really sent."""
    embed = viewer.embeds[0]
    table = Image.open(io.BytesIO(picture(viewer))).convert("RGB")
    inner = width - 56
    table = table.resize(
        (inner, round(table.height * inner / table.width)), Image.Resampling.LANCZOS
    )
    lines: list[tuple[str, ImageFont.FreeTypeFont, tuple[int, int, int]]] = []
    white, grey, light = (242, 243, 245), (148, 155, 164), (219, 222, 225)

    def add(text: str, f: ImageFont.FreeTypeFont, colour: tuple[int, int, int]) -> None:
        for line in textwrap.wrap(plain(text), width=int(inner / (f.size * 0.55))) or [""]:
            lines.append((line, f, colour))

    add(embed.get("title", ""), font(17, True), white)
    for line in (embed.get("description") or "").splitlines():
        add(line, font(14), light)
    for f in embed.get("fields", []):
        add(f["name"], font(14, True), white)
        add(f["value"], font(14), light)
    heights = [int(f.size) + 8 for _, f, _ in lines]
    buttons_h, menu_h, footer_h = 40, 44, 26
    card_h = 16 + sum(heights) + 10 + table.height + 10 + footer_h
    total = 12 + card_h + 12 + buttons_h + 8 + menu_h + 26
    img = Image.new("RGB", (width, total), (49, 51, 56))
    d = ImageDraw.Draw(img)
    d.text((16, total - 22), "Only you can see this", font=font(12), fill=grey)
    top = 12
    d.rounded_rectangle((16, top, width - 16, top + card_h), 6, fill=(43, 45, 49))
    d.rectangle((16, top, 19, top + card_h), fill=(64, 96, 200))
    y = top + 14
    for (text, f, colour), h in zip(lines, heights, strict=True):
        d.text((28, y), text, font=f, fill=colour)
        y += h
    y += 6
    img.paste(table, (28, y))
    y += table.height + 10
    d.text((28, y), plain((embed.get("footer") or {}).get("text", "")), font=font(11), fill=grey)
    y = top + card_h + 12
    x = 16
    for b in viewer.buttons:
        colour = (78, 80, 88) if not b.disabled else (58, 60, 66)
        ink = white if not b.disabled else (110, 114, 120)
        d.rounded_rectangle((x, y, x + 56, y + buttons_h - 6), 4, fill=colour)
        icon(d, b.label or "", x + 28, y + (buttons_h - 6) // 2, ink)
        x += 64
    y += buttons_h + 8
    d.rounded_rectangle((16, y, width - 16, y + menu_h - 8), 4, fill=(30, 31, 34))
    (menu,) = viewer.selects
    shown = next((o["label"] for o in menu.options if o.get("default")), menu.placeholder or "")
    d.text((28, y + 10), plain(shown), font=font(14), fill=light)
    d.polygon([(width - 40, y + 14), (width - 28, y + 14), (width - 34, y + 22)], fill=light)
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()


def icon(d: ImageDraw.ImageDraw, label: str, cx: int, cy: int, ink: tuple[int, int, int]) -> None:
    """⏮ ◀ ▶ ⏭ drawn (the font has no such glyphs)."""
    flip = label in ("⏮", "◀")

    def tri(x0: int) -> list[tuple[int, int]]:
        tip = x0 - 7 if flip else x0 + 7
        return [(x0, cy - 7), (x0, cy + 7), (tip, cy)]

    if label in ("◀", "▶"):
        d.polygon(tri(cx + 3 if flip else cx - 3), fill=ink)
    else:
        d.polygon(tri(cx + 5 if flip else cx - 5), fill=ink)
        bar = cx - 6 if flip else cx + 3
        d.rectangle((bar, cy - 7, bar + 2, cy + 7), fill=ink)
