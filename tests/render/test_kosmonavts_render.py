"""Board pictures for Kosmonavts: every fixture renders, PNGs stay small, secrets stay secret."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from core import i18n
from render import kit, kosmonavts
from render.kosmonavts import table
from tests.kit import png_ok
from tests.render import fixtures_kosmonavts as F
from tests.render.kit import LANGS, ROOT, render_keys, renderer_source


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(F.PUBLIC))
def test_table_renders_every_fixture(name: str, lang: str) -> None:
    _, view, names = F.PUBLIC[name]()
    img = png_ok(kosmonavts.render_table(view, names, lang))
    assert 1300 <= img.width <= 1400
    assert img.width > img.height  # landscape


@pytest.mark.parametrize("name", sorted(F.PUBLIC))
def test_languages_differ(name: str) -> None:
    _, view, names = F.PUBLIC[name]()
    assert kosmonavts.render_table(view, names, "en") != kosmonavts.render_table(view, names, "es")


@pytest.mark.parametrize("name", sorted(F.PUBLIC))
def test_public_image_identical_with_and_without_private(name: str) -> None:
    state, view, names = F.PUBLIC[name]()
    assert "private" not in view
    n = view["players"]
    if state is not None:
        seated = [F.GAME.view(state, seat) for seat in range(n)]
    else:  # hand-made: graft every seat's real secrets (from a live game) onto the view
        donor = F.engine_state("orders_midgame_advanced_4")
        seated = []
        for seat in range(n):
            v = copy.deepcopy(view)
            v["private"] = F.GAME.view(donor, seat)["private"]
            seated.append(v)
    for lang in LANGS:
        public = kosmonavts.render_table(view, names, lang)
        for v in seated:
            assert "private" in v
            assert kosmonavts.render_table(v, names, lang) == public


@pytest.mark.parametrize("name", ["orders_midgame_basic_3", "orders_round1_basic_4"])
def test_composed_orders_never_reach_the_table(name: str) -> None:
    """Different secret orders (same public state) give byte-identical table pictures."""
    state = F.engine_state(name)
    seat = F.composing_seat(state)
    assert seat is not None
    names = F.NAMES[: F.GAME.view(state, None)["players"]]
    base = kosmonavts.render_table(F.GAME.view(state, seat), names, "en")
    a = F.compose(state, seat, lambda p: p["action"] == "fly", min_cubes=1)
    b = F.compose(state, seat, lambda p: p["danger"] != "none", min_cubes=2)
    for st in (a, b):
        v = F.GAME.view(st, seat)
        assert v["private"]["order"]
        assert kosmonavts.render_table(v, names, "en") == base


def test_private_content_cannot_leak() -> None:
    _, view, names = F.PUBLIC["orders_midgame_basic_3"]()
    a = copy.deepcopy(view)
    b = copy.deepcopy(view)
    a["private"] = {"seat": 0, "missions": [{"id": "m1.mars", "body": "mars"}], "preview": {}}
    b["private"] = {"seat": 1, "missions": [], "order": [{"dir": "e", "hyper": True}] * 3}
    assert kosmonavts.render_table(a, names, "es") == kosmonavts.render_table(b, names, "es")


PRIVATE = F.private_views()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("idx", range(len(PRIVATE)), ids=[p[0] for p in PRIVATE])
def test_private_renders(idx: int, lang: str) -> None:
    _, view, names, _ = PRIVATE[idx]
    img = png_ok(kosmonavts.render_private(view, names, lang))
    assert img.width > img.height


def test_private_for_every_composing_seat() -> None:
    for name in ("orders_round1_basic_4", "orders_midgame_basic_3", "orders_midgame_advanced_4"):
        state = F.engine_state(name)
        v = F.GAME.view(state, None)
        names = F.NAMES[: v["players"]]
        for seat in range(v["players"]):
            pv = F.GAME.view(state, seat)
            assert pv["private"]["preview"] is not None
            img = png_ok(kosmonavts.render_private(pv, names, "es"))
            assert img.height > 600  # with the close-up of the flight


def test_every_danger_kind_is_covered() -> None:
    kinds = {
        p[1]["private"]["preview"]["danger"]
        for p in PRIVATE
        if p[1]["private"].get("preview") and p[1]["private"]["preview"]["action"] == "fly"
    }
    assert {"none", "danger_sector", "danger_no_shield", "sun"} <= kinds
    actions = {p[1]["private"]["preview"]["action"] for p in PRIVATE if p[1]["private"]["preview"]}
    assert actions == {"fly", "stay", "evac"}


def test_off_board_preview() -> None:
    state, seat = F.private_state("order_midgame")
    v = F.GAME.view(state, seat)
    prev = v["private"]["preview"]
    prev.update(danger="off_board", end_hex=[19, -3], path=[prev["path"][0], [19, -3]])
    png_ok(kosmonavts.render_private(v, F.NAMES[:3], "en"))
    prev.update(end_hex=[40, -40], path=[prev["path"][0], [40, -40]])  # far off the board
    png_ok(kosmonavts.render_private(v, F.NAMES[:3], "es"))


def test_private_shows_the_secret() -> None:
    state, seat = F.private_state("order_midgame")
    v = F.GAME.view(state, seat)
    names = F.NAMES[:3]
    other = copy.deepcopy(v)
    other["private"]["preview"]["danger"] = "danger_no_shield"
    assert kosmonavts.render_private(v, names, "en") != kosmonavts.render_private(
        other, names, "en"
    )
    other = copy.deepcopy(v)
    other["private"]["missions"][0]["done_now"] = not other["private"]["missions"][0]["done_now"]
    assert kosmonavts.render_private(v, names, "en") != kosmonavts.render_private(
        other, names, "en"
    )


def test_private_none_when_nothing_private() -> None:
    for make in F.PUBLIC.values():
        _, view, names = make()
        assert kosmonavts.render_private(view, names, "en") is None
    _, view, names = F.PUBLIC["orders_midgame_basic_3"]()
    empty = dict(view, private={"seat": 0, "missions": [], "dealt": None, "preview": None})
    assert kosmonavts.render_private(empty, names, "es") is None
    assert kosmonavts.render_private(dict(view, private={}), names, "en") is None
    assert kosmonavts.render_private(dict(view, private=None), names, "en") is None


def test_private_missions_only_outside_orders() -> None:
    state, seat = F.private_state("over_missions")
    v = F.GAME.view(state, seat)
    assert v["private"]["preview"] is None and v["private"]["missions"]
    img = png_ok(kosmonavts.render_private(v, F.NAMES[:4], "en"))
    assert img.height < 400  # no close-up, just the missions


def test_odd_views() -> None:
    """Missing keys (tests/render/test_render_contract.py tries odd names, languages and
    empty views on every game)."""
    _, view, _ = F.PUBLIC["orders_midgame_advanced_4"]()
    v = copy.deepcopy(view)
    v["ships"][0]["pos"] = None
    v["ships"][1]["velocity"] = None
    v["ships"][2]["rose"] = None
    v["bodies"]["mars"]["pos"] = None
    v["events"] = {"face_up": [], "active": "gravity-1", "deck": 0, "discard": 29}
    v["scores"] = [0]
    v["waiting"] = None
    png_ok(kosmonavts.render_table(v, ["a", "b", "c", "d"], "en"))
    minimal = {"players": 2, "round": 3, "phase": "kosmonavts.phase.orders", "over": False}
    png_ok(kosmonavts.render_table(minimal, [], "en"))
    priv = dict(view, private={"seat": 7, "missions": [{"id": "m9.pluto"}], "preview": {}})
    png_ok(kosmonavts.render_private(priv, [], "es"))


def test_emoji_names_are_cleaned() -> None:
    assert kit.displayable("🚀 Yuri 👨‍🚀 Gagarin ❤️") == "Yuri Gagarin ❤"
    assert kit.displayable("🚀🚀") == ""
    assert kit.displayable("Ñandú ¿¡") == "Ñandú ¿¡"
    assert kosmonavts._name(["🚀🚀"], 0, "es") == i18n.t("render.seat", "es", n=1)


def test_every_render_string_the_renderer_uses_exists() -> None:
    en = render_keys("kosmonavts")
    assert en
    src = renderer_source("kosmonavts")
    import re

    used = set(re.findall(r'"(kosmonavts\.render\.[a-z_.0-9]+)"', src))
    used |= {
        f"kosmonavts.render.{p}{x}"
        for p, xs in (
            ("dir.", ("e", "ne", "nw", "w", "sw", "se")),
            ("rules.", ("basic", "advanced")),
            ("end.", ("return", "limit")),
            ("legend.", ("fuel", "hyper", "shield")),
            ("private.", ("done", "todo", "stay", "stayfull")),
        )
        for x in xs
    }
    assert used <= en, used - en


def test_every_game_string_the_renderer_needs_exists() -> None:
    for lang in LANGS:
        for key in [
            *(f"kosmonavts.body.{b}" for b in kosmonavts.BODIES),
            *(f"kosmonavts.phase.{p}" for p in kosmonavts.PHASE_RGB if p != "over"),
            *(f"kosmonavts.danger.{d}" for d in kosmonavts.DANGER_RGB),
            *(f"kosmonavts.card.{c['id']}" for c in _cards()),
        ]:
            assert i18n.has(key, lang), key


def _cards() -> list[dict]:
    path = ROOT / "data" / "kosmonavts" / "events.json"
    return json.loads(path.read_text(encoding="utf-8"))["cards"]


def test_every_event_card_has_an_icon_colour() -> None:
    for c in _cards():
        kind = c["id"].split("-")[0].rstrip("12")
        assert kind == c["kind"]
        assert kind in kosmonavts.KIND_RGB


def test_geometry_matches_the_board_data() -> None:
    g = kosmonavts.TABLE_GEO
    x0, y0, x1, y1 = kosmonavts.BOARD_X0, kosmonavts.BOARD_Y0, kosmonavts.PX0, kosmonavts.H
    for h in kosmonavts.ALL_HEXES:  # every hex inside the board area, left of the panel
        for cx, cy in g.corners(h):
            assert x0 - 1 <= cx <= x1 and y0 - 1 <= cy <= y1
    assert len(kosmonavts.ALL_HEXES) == 3 * 17 * 18 + 1
    for b in kosmonavts.BODIES:
        for h in kosmonavts.ORBITS[b]:
            assert kosmonavts.dist(h) <= kosmonavts.RADIUS
    # directions: east is to the right, north-west is up and to the left
    import math

    assert kosmonavts._dir_angle("e") == 0
    a = kosmonavts._dir_angle("nw")
    assert math.cos(a) < 0 and math.sin(a) < 0


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_static_table_reads_at_400_px(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The legend and the compass are drawn once per language into the static table: their
    words too show at least 6 px once the table is seen 400 px wide, and none is cut."""
    from PIL import ImageDraw

    seen: list[tuple[float, str]] = []
    real = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *a: Any, **kw: Any) -> Any:
        f = kw.get("font", a[1] if len(a) > 1 else None)
        if str(text).strip():
            seen.append((float(getattr(f, "size", 0)) * 400 / kosmonavts.W, str(text)))
        return real(self, xy, text, *a, **kw)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    kosmonavts._build_base(lang)
    assert len(seen) >= 15
    assert min(seen)[0] >= 6.0, min(seen)
    assert not [s for _, s in seen if s.endswith("…")]


@pytest.mark.parametrize("lang", LANGS)
def test_a_shared_win_names_its_winners(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The header's string once passed the winners as ``names=``, which i18n.t takes for the
    # seats' names: the picture showed the raw template and a warning was logged.
    _, view, names = F.PUBLIC["over_advanced_2"]()
    view = copy.deepcopy(view)
    ships = view["ships"]
    ships[1] = {**copy.deepcopy(ships[0]), "seat": ships[1].get("seat", 1)}
    view["scores"] = [view["scores"][0]] * len(view["scores"])
    headers: list[str] = []

    def spy(key: str, *args: Any, **kwargs: Any) -> str:
        out = i18n.t(key, *args, **kwargs)
        if key == "kosmonavts.render.shared":
            headers.append(out)
        return out

    monkeypatch.setattr(table, "t", spy)
    before = i18n.warnings_logged()
    png_ok(kosmonavts.render_table(view, names, lang))
    assert i18n.warnings_logged() == before
    (header,) = headers
    assert "{" not in header and ", " in header
