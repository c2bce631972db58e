"""Every picture of every registered game reads on a phone, where Discord shows it about
400 px wide:

* no text is drawn smaller than :data:`MIN_PX` pixels (the font's size, as seen 400 px wide);
* a table is no taller than it is wide (Discord fits a preview into a box: a tall table
  shows smaller);
* every pictograph drawn on a picture (★, ✕, emoji, arrows…) is explained on that same
  picture: it also appears in a drawn label with words (a legend entry such as "★ victory
  points").

The states come from seeded random play-outs of each game at its smallest and largest
table, in English and Spanish. A new game gets this test by being registered.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

from host import registry
from tests.render.kit import SHORT_NAMES, spread_states
from tests.symbols import pictographs

SHOWN_W = 400  # how wide Discord shows a picture on a phone
MIN_PX = 6.0  # the smallest text, seen SHOWN_W px wide
NAMES = SHORT_NAMES
SAMPLES = 6  # pictures per play-out, spread over the game (the last one is the end)


class Drawn:
    """Every string drawn while a picture is made, with its font size and the width of the
    image it was drawn on."""

    def __init__(self) -> None:
        self.items: list[tuple[float, int, str]] = []

    def sizes(self, final_width: int) -> list[tuple[float, str]]:
        """(size as seen SHOWN_W px wide, text). Text drawn on an image wider than the final
        picture was scaled down with it; on a narrower one, pasted as drawn."""
        out = []
        for size, width, s in self.items:
            k = final_width / width if width > final_width else 1.0
            out.append((size * k * SHOWN_W / final_width, s))
        return out


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Drawn:
    rec = Drawn()
    real = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *a: Any, **kw: Any) -> Any:
        font = kw.get("font", a[1] if len(a) > 1 else None)
        s = str(text)
        if s.strip():
            assert isinstance(font, ImageFont.FreeTypeFont), f"{s!r} drawn without a font"
            rec.items.append((float(font.size), self.im.size[0], s))
        return real(self, xy, text, *a, **kw)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    return rec


def check_picture(png: bytes, drawn: Drawn, what: str, table: bool) -> None:
    img = Image.open(io.BytesIO(png))
    w, h = img.size
    if table:
        assert h <= w, f"{what}: {w}×{h} is taller than wide"
    sizes = drawn.sizes(w)
    for px, s in sizes:
        assert px >= MIN_PX, f"{what}: {s!r} is {px:.1f} px seen {SHOWN_W} px wide"
    labelled = "".join(s for _, s in sizes if sum(c.isalpha() for c in s) >= 3)
    for _, s in sizes:
        for sym in pictographs(s):
            assert sym in labelled, f"{what}: {sym!r} (in {s!r}) has no legend on the picture"


CASES = [
    (gid, n)
    for gid, game in sorted(registry.games().items())
    for n in sorted({game.min_players, game.max_players})
]


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize(("gid", "players"), CASES, ids=[f"{g}-{n}p" for g, n in CASES])
def test_pictures_read_at_400_px(drawn: Drawn, gid: str, players: int, lang: str) -> None:
    game = registry.get(gid)
    render = registry.renderer(gid)
    names = NAMES[:players]
    for i, state in enumerate(spread_states(game, players, players, SAMPLES)):
        drawn.items.clear()
        png = render.render_table(game.view(state, None), names, lang)
        check_picture(png, drawn, f"{gid} table #{i} ({lang})", table=True)
        for seat in range(players):
            drawn.items.clear()
            png = render.render_private(game.view(state, seat), names, lang)
            if png:
                check_picture(png, drawn, f"{gid} seat {seat} #{i} ({lang})", table=False)


def test_the_check_sees_small_text_and_unexplained_symbols(drawn: Drawn) -> None:
    from render import kit

    img = Image.new("RGB", (1200, 900))
    d = ImageDraw.Draw(img)
    d.text((10, 10), "★ 3", font=kit.font(30), fill=(255, 255, 255))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    with pytest.raises(AssertionError, match="no legend"):
        check_picture(buf.getvalue(), drawn, "t", table=True)
    d.text((10, 60), "★ victory points", font=kit.font(30), fill=(255, 255, 255))
    check_picture(buf.getvalue(), drawn, "t", table=True)
    d.text((10, 110), "tiny", font=kit.font(12), fill=(255, 255, 255))
    with pytest.raises(AssertionError, match="px seen"):
        check_picture(buf.getvalue(), drawn, "t", table=True)
    tall = io.BytesIO()
    Image.new("RGB", (100, 200)).save(tall, "PNG")
    drawn.items.clear()
    with pytest.raises(AssertionError, match="taller"):
        check_picture(tall.getvalue(), drawn, "t", table=True)
