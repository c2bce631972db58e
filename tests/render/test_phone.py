"""Tables stay readable where Discord shows them: ~400 px wide (a phone, or an embed on a
desktop, in a box of about 400 × 300). The header and the side panels are drawn bigger
through ``kit.ScaledDraw``; these tests keep their type from shrinking again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image, ImageDraw

from core import i18n
from render import kit, kosmonavts, mlem
from tests.kit import png_ok
from tests.render import fixtures_kosmonavts as FK
from tests.render import fixtures_mlem as FM

SHOWN_W = 400  # how wide Discord shows a table on a phone
KEY_PX = 9.0  # player names, round and phase: at least this size, seen 400 px wide
TEXT_PX = 6.0  # any word in the header and the side panels (was ~3.7, then 4.5; 6 since issue 19)
SHORT = ["Ana", "Bea", "Cal", "Dan", "Eva", "Fil"]


def _fixture(F: Any, name: str) -> tuple[dict, list[str]]:
    made = F.PUBLIC[name]()
    return made[-2], made[-1]


def _key_labels(game: str, view: dict, lang: str) -> list[str]:
    if game == "mlem":
        out = [i18n.t(f"mlem.render.phase.{mlem._phase(view)}", lang)]
        if view.get("round") is not None:
            out.append(i18n.t("mlem.render.voyage", lang, n=view["round"]))
        return out
    ph = kosmonavts._phase(view)
    key = "kosmonavts.render.over" if ph == "over" else f"kosmonavts.phase.{ph}"
    out = [i18n.t(key, lang)]
    rnd, lim = view.get("round"), view.get("round_limit")
    if kit.is_int(rnd):
        out.append(
            i18n.t("kosmonavts.render.round", lang, n=rnd, limit=lim if kit.is_int(lim) else "?")
        )
    return out


CASES: list[tuple[str, Any, Any, str]] = [
    *(("mlem", mlem, FM, n) for n in sorted(FM.PUBLIC)),
    *(("kosmonavts", kosmonavts, FK, n) for n in sorted(FK.PUBLIC)),
]


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float, str]]:
    """(font size on the picture, text) of every text drawn bigger than laid out."""
    seen: list[tuple[float, str]] = []
    real: Callable[..., None] = kit.ScaledDraw.text

    def spy(
        self: kit.ScaledDraw,
        xy: Any,
        text: Any,
        fill: Any = None,
        font: Any = None,
        *a: Any,
        **kw: Any,
    ) -> None:
        if not self._depth and self.k > 1 and isinstance(font, kit.Font):
            seen.append((kit.scaled_font(font, self.k).size, str(text)))
        real(self, xy, text, fill, font, *a, **kw)

    monkeypatch.setattr(kit.ScaledDraw, "text", spy)
    return seen


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize(
    ("game", "mod", "F", "name"), CASES, ids=[f"{c[0]}-{c[3]}" for c in CASES]
)
def test_table_reads_at_400_px(
    drawn: list[tuple[float, str]], game: str, mod: Any, F: Any, name: str, lang: str
) -> None:
    view, names = _fixture(F, name)
    names = SHORT[: len(names)]
    img = png_ok(mod.render_table(view, names, lang))
    # fills Discord's ~4:3 box: neither a thin strip nor a tall portrait
    assert 1.25 <= img.width / img.height <= 1.45
    scale = SHOWN_W / img.width
    sizes: dict[str, float] = {}
    for size, s in drawn:
        sizes[s] = max(sizes.get(s, 0), size * scale)
    for label in [*names, *_key_labels(game, view, lang)]:
        assert label in sizes, f"{label!r} is not drawn in the header or a panel"
        assert sizes[label] >= KEY_PX, f"{label!r} is {sizes[label]:.1f} px at {SHOWN_W} px wide"
    words = [(size * scale, s) for size, s in drawn if sum(ch.isalpha() for ch in s) >= 3]
    assert words
    small = min(words)
    assert small[0] >= TEXT_PX, f"{small[1]!r} is {small[0]:.1f} px at {SHOWN_W} px wide"


def test_scaled_draw_scales_shapes_text_and_width_once() -> None:
    img = Image.new("RGB", (200, 200), (0, 0, 0))
    d = kit.ScaledDraw(img, 2.0, origin=(10, 10))
    d.rounded_rectangle((10, 10, 40, 30), radius=4, fill=(255, 0, 0))
    assert img.getbbox() == (0, 0, 61, 41)  # (0,0)-(60,40): scaled once, corners included
    d.line((10, 60, 60, 60), fill=(0, 255, 0), width=2)
    band = [y for y in range(200) if img.getpixel((50, y)) == (0, 255, 0)]
    assert len(band) == 4  # a 2-unit line is 4 pixels thick
    f = kit.font(20)
    ref = Image.new("RGB", (200, 200))
    ImageDraw.Draw(ref).text((0, 0), "Ab", font=kit.font(40), fill=(255, 255, 255))
    big = Image.new("RGB", (200, 200))
    kit.ScaledDraw(big, 2.0).text((0, 0), "Ab", font=f, fill=(255, 255, 255))
    assert big.tobytes() == ref.tobytes()
    # measurements stay in the caller's units
    assert d.textbbox((0, 0), "Ab", font=f) == ImageDraw.Draw(ref).textbbox((0, 0), "Ab", font=f)
