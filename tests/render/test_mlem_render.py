"""Board pictures for MLEM: every fixture renders, PNGs stay small, secrets stay secret."""

from __future__ import annotations

import ast
import copy
import io
from typing import Any

import pytest
from PIL import Image

from render import kit, mlem
from tests.kit import png_ok
from tests.render import fixtures_mlem as F
from tests.render.kit import LANGS, ROOT


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(F.PUBLIC))
def test_table_renders_every_fixture(name: str, lang: str) -> None:
    view, names = F.PUBLIC[name]()
    img = png_ok(mlem.render_table(view, names, lang))
    assert 1200 <= img.width <= 1400
    assert img.width > img.height  # landscape


@pytest.mark.parametrize("name", sorted(F.PUBLIC))
def test_languages_differ(name: str) -> None:
    view, names = F.PUBLIC[name]()
    assert mlem.render_table(view, names, "en") != mlem.render_table(view, names, "es")


@pytest.mark.parametrize("name", sorted(F.PRIVATE))
def test_public_image_ignores_private(name: str) -> None:
    with_secret, names = F.private_view(name)
    without = {k: v for k, v in with_secret.items() if k != "private"}
    public, _ = F.PUBLIC[F.PRIVATE[name][0]]()
    for lang in LANGS:
        a = mlem.render_table(with_secret, names, lang)
        assert a == mlem.render_table(without, names, lang)
        assert a == mlem.render_table(public, names, lang)


def test_public_image_ignores_any_private_content() -> None:
    view, names = F.three_midgame()
    a = F.with_private(
        view,
        0,
        {
            "missions": [{"id": "6", "done": True}],
            "dealt": [],
            "hidden_points": {"ufo": 5, "recon": 3},
        },
    )
    b = F.with_private(
        view,
        0,
        {
            "missions": [{"id": "24/25", "done": False}],
            "dealt": ["9"],
            "hidden_points": {"ufo": 0, "recon": 1},
        },
    )
    assert mlem.render_table(a, names, "en") == mlem.render_table(b, names, "en")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(F.PRIVATE))
def test_private_renders(name: str, lang: str) -> None:
    view, names = F.private_view(name)
    img = png_ok(mlem.render_private(view, names, lang))
    assert img.width > img.height


def test_private_shows_the_secret() -> None:
    view, names = F.private_view("missions_progress")
    other = copy.deepcopy(view)
    other["private"]["missions"][1]["done"] = True
    assert mlem.render_private(view, names, "en") != mlem.render_private(other, names, "en")


def test_private_none_when_nothing_private() -> None:
    for make in F.PUBLIC.values():
        view, names = make()
        assert mlem.render_private(view, names, "en") is None
    view, names = F.two_launch()
    empty = F.with_private(
        view, 0, {"missions": [], "dealt": [], "hidden_points": {"ufo": 0, "recon": 0}}
    )
    assert mlem.render_private(empty, names, "es") is None
    assert mlem.render_private(F.with_private(view, 0, {}), names, "en") is None


def test_private_without_seat_key() -> None:
    view, names = F.private_view("missions_progress")
    del view["seat"]
    png_ok(mlem.render_private(view, names, "en"))


def test_odd_views() -> None:
    """Unusual states still render (tests/render/test_render_contract.py tries odd names,
    languages and empty views on every game)."""
    view, _ = F.five_all_variants()
    png_ok(mlem.render_table(view, ["¿¡", "ñ" * 60], "es"))
    v = copy.deepcopy(view)
    v["rocket"] = {"space": 26, "crew": [{"seat": 0, "astronaut": "deep_doubler"}]}
    v["ufo"]["space"] = 26
    v["dice"] = {
        "pool": 1,
        "discarded": 5,
        "roll": ["A", "A", "A", 4, 2, 1],
        "usable": [True, True],
    }
    v["recon"]["slots"] = {"4": None, "8": None, "13": None, "17": None, "21": None}
    v["expedition"] = {"tile": None, "left": 0, "ability_available": False}
    v["missions"] = {"kept": [0, 0, 0, 0, 0], "choosing": [0, 1, 2, 3, 4]}
    v["disasters"] = 11
    png_ok(mlem.render_table(v, ["a", "b", "c", "d", "e"], "en"))
    minimal = {"round": None, "phase": "mlem.phase.launch", "scores": [0, 0], "over": False}
    png_ok(mlem.render_table(minimal, [], "en"))


def test_every_player_count_and_phase() -> None:
    for players in (2, 3, 4, 5):
        for phase in ("launch", "explore", "land", "over"):
            v = F.base_view(players)
            v["phase"] = f"mlem.phase.{phase}"
            v["over"] = phase == "over"
            v["rocket"]["crew"] = [
                {"seat": s, "astronaut": F.ABILITIES[s]} for s in range(players)
            ]
            png_ok(mlem.render_table(v, [f"P{s}" for s in range(players)], "es"))


def test_spanish_accents_render() -> None:
    for style in ("bold", "cond", "book"):
        f = kit.font(24, style)
        assert "DejaVu" in (f.getname()[0] or "")
        for accented, plain in zip("ñáéíóúü", "naeiouu", strict=True):
            assert f.getmask(accented).getbbox() is not None
            assert bytes(f.getmask(accented)) != bytes(f.getmask(plain))
        for ch in "¿¡":
            assert f.getmask(ch).getbbox() is not None


def test_palette_and_kit_helpers() -> None:
    assert len(kit.PALETTE) == 6
    assert len({p.rgb for p in kit.PALETTE}) == 6
    assert len({p.shape for p in kit.PALETTE}) == 6
    f = kit.font(20)
    assert f.getlength(kit.ellipsize("x" * 300, f, 100)) <= 100
    img = Image.new("RGB", (200, 100), kit.BG)
    from PIL import ImageDraw

    d = ImageDraw.Draw(img)
    faces: list[int | str] = [1, 2, 3, 4, 5, 6, "A"]
    for k, face in enumerate(faces):
        kit.die(d, (k * 28, 4), 26, face, value=2, dim=k % 2 == 1, crossed=k == 3)
    kit.seat_token(d, (20, 60), 12, 3, label="2")
    png_ok(kit.to_png(img))


def test_render_package_does_not_import_discord() -> None:
    for path in (ROOT / "render").rglob("*.py"):  # the split renderers too
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert not any(a.name.split(".")[0] == "discord" for a in node.names), path
            elif isinstance(node, ast.ImportFrom):
                assert (node.module or "").split(".")[0] != "discord", path


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(F.PUBLIC))
def test_the_legend_fits_under_the_board(name: str, lang: str) -> None:
    """Below the board, right of the variants panel (when there is one), left of the side
    column and above the picture's bottom edge."""
    from PIL import ImageDraw

    view, _ = F.PUBLIC[name]()
    d = ImageDraw.Draw(Image.new("RGB", (mlem.OUT_W, mlem.OUT_H)))
    below = mlem.OUT_HEADER_H + mlem.BOARD_H + 6
    x0 = 14 + (mlem.PX1 - mlem.PX0) * mlem.PANEL_K + 8
    bottom, right = mlem._draw_legend(d, (x0, below + 4, mlem.PANEL_X0 - 12, 0), view, lang)
    assert bottom <= mlem.OUT_H - 4 and right <= mlem.PANEL_X0 - 8


def test_tables_share_one_fixed_palette_with_exact_seat_colours() -> None:
    """Every table is mapped onto one palette made once (fast, and seat colours exact)."""
    palette = mlem._PALETTE.getpalette() or []
    entries = {tuple(palette[i : i + 3]) for i in range(0, len(palette) - 2, 3)}
    for pc in kit.PALETTE:
        assert pc.rgb in entries
    for name in sorted(F.PUBLIC):
        view, names = F.PUBLIC[name]()
        im = Image.open(io.BytesIO(mlem.render_table(view, names, "en")))
        got = im.getpalette() or []
        assert im.mode == "P" and got == palette[: len(got)], name


@pytest.mark.parametrize("lang", LANGS)
def test_the_static_board_reads_at_400_px(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The board drawn once per language (numbers, moons, planets, objectives) is shrunk
    to BOARD_K into the picture: its text too must show at least 6 px at 400 px wide (the
    check over whole pictures only sees what is drawn per table)."""
    from PIL import ImageDraw

    seen: list[tuple[float, str]] = []
    real = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *a: Any, **kw: Any) -> Any:
        f = kw.get("font", a[1] if len(a) > 1 else None)
        if str(text).strip():
            seen.append((float(getattr(f, "size", 0)), str(text)))
        return real(self, xy, text, *a, **kw)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    mlem._build_base(lang)
    board = [(size * mlem.BOARD_K * 400 / mlem.OUT_W, s) for size, s in seen]
    assert len(board) > 80
    small = min(board)
    assert small[0] >= 6.0, small
    assert not [s for _, s in board if s.endswith("…")]  # and nothing is cut
