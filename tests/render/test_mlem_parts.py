"""MLEM's table drawn by parts (issue 23): the header, the board's tokens, each panel and the
legend are drawn and mapped onto the palette alone and kept by what they show
(render/layers.py's ``PaletteCanvas``); the picture must be, pixel for pixel and byte for
byte, the whole table drawn at once and mapped (``_draw_table``, what the tests watching
the encodes still see), whatever the caches hold."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest
from PIL import Image, ImageChops, ImageDraw

from render import kit, layers
from render.mlem import panels, table
from rules.mlem import GAME
from tests.render.kit import NAMES, mlem_table_whole, random_states

#: (players, options, seed): every variant, alone and together, and two to five players.
PLAYS = [
    (2, {}, 1),
    (3, {"ufo": "on"}, 2),
    (4, {"recon": "on"}, 3),
    (5, {"missions": "on"}, 4),
    (3, {"ufo": "on", "recon": "on", "missions": "on"}, 5),
]


@pytest.mark.parametrize(("players", "options", "seed"), PLAYS)
def test_the_table_by_parts_is_the_whole_table(players: int, options: dict, seed: int) -> None:
    layers.clear_all()
    states = random_states(GAME, players, seed, options)
    rng = random.Random(seed)
    # along the game, as a worker sees it (parts kept from earlier tables), and the end
    picked = [s for s in states if rng.random() < 30 / len(states)] + [states[-1]]
    names = NAMES[:players]
    for k, state in enumerate(picked):
        view = GAME.view(state, None)
        lang = ("es", "en")[k % 2]
        by_parts = table._mapped_table(kit.public(view), names, lang).out
        at_once = layers.mapped(table._draw_table(kit.public(view), names, lang), table._PALETTE)
        diff = ImageChops.difference(by_parts.convert("RGB"), at_once.convert("RGB"))
        assert diff.getbbox() is None, (k, diff.getbbox())
        assert table.render_table(view, names, lang) == mlem_table_whole(view, names, lang)
    hits = sum(cache.hits for cache in (table._HEADERS, table._PANELS, table._UNDERS))
    assert hits  # the parts kept were used


def test_a_test_watching_the_encodes_sees_the_whole_table() -> None:
    view = GAME.view(GAME.new(3, {}, 1), None)
    seen = []
    fixed = kit.to_png_palette

    def watching(img, palette, *args, **kw):  # type: ignore[no-untyped-def]
        seen.append(img.mode)
        return fixed(img, palette, *args, **kw)

    kit.to_png_palette = watching  # type: ignore[assignment]
    try:
        png = table.render_table(view, NAMES[:3], "en")
    finally:
        kit.to_png_palette = fixed  # type: ignore[assignment]
    assert seen == ["RGB"]
    assert png == table.render_table(view, NAMES[:3], "en")


def test_a_canvas_of_kept_parts_is_the_picture_drawn_whole() -> None:
    """Parts kept and reused, each drawn inside its box: each picture's pixels are the
    whole picture drawn and mapped at once, and its PNG (bands found by their parts, rows
    made only for the others) is the one written from the whole picture."""
    from PIL import ImageDraw

    from render import pngbands

    base = kit.star_field((300, 160), seed=3)
    palette = kit.palette_for(base, [p.rgb for p in kit.PALETTE])
    base_mapped = layers.mapped(base, palette)
    parts: layers.LayerCache[[], object] = layers.LayerCache(lambda: None, 6)
    bands, plain = pngbands.BandCache(), pngbands.BandCache()
    rng = random.Random(9)
    boxes = [(0, 0, 300, 40), (0, 40, 150, 160), (150, 40, 300, 100), (150, 100, 300, 160)]
    for _ in range(60):
        c = layers.PaletteCanvas(base, base_mapped, palette)
        whole = base.copy()
        for k, box in enumerate(boxes):
            seat = rng.randrange(2)  # (a few states of each part: parts reused)
            x, y = box[0] + 2 + 9 * rng.randrange(2), box[1] + 2 + 7 * rng.randrange(2)
            if rng.random() < 0.3:
                continue  # nothing drawn there this time

            def draw(
                img: object, seat: int = seat, x: int = x, y: int = y, box: tuple = box
            ) -> tuple:
                d = ImageDraw.Draw(img)  # type: ignore[arg-type]
                edge = (box[0], box[1], box[2] - 1, box[3] - 1)  # (Pillow's is inclusive)
                d.rectangle(edge, outline=kit.PALETTE[seat].rgb)
                kit.text(d, (x, y), str(seat), kit.font(14), fill=kit.PALETTE[seat].rgb)
                return box, None

            c.tile(parts, (k, seat, x, y), draw)
            draw(whole)
        whole = whole.crop((0, 0, 300, 160))
        at_once = layers.mapped(whole, palette)
        assert (
            ImageChops.difference(c.out.convert("RGB"), at_once.convert("RGB")).getbbox() is None
        )
        png = pngbands.encode(c.base_mapped, 3, bands, 8, parts=c.parts, rows=c.rows)
        assert png == pngbands.encode(at_once, 3, plain, 8)
    assert parts.hits and bands.hits


def _interleaved_views() -> list[tuple[dict, list[str], str]]:
    """Tables of several games as one render worker sees them, shuffled together: both
    languages, a player renamed mid-game, a seat's name turned into a bot's label, the same
    view at once in both languages (parts kept from the other game's tables meanwhile)."""
    rng = random.Random(23)
    out: list[tuple[dict, list[str], str]] = []
    for players, options, seed in PLAYS:
        states = random_states(GAME, players, seed, options)
        picked = [s for s in states if rng.random() < 8 / len(states)] + [states[-1]]
        for k, state in enumerate(picked):
            view = GAME.view(state, None)
            names = list(NAMES[:players])
            if k % 3 == 1:
                names[0] = "Zoë Renamed"
            if k % 3 == 2:
                names[-1] = "🤖 Bot (autopilot)"
            for lang in ("es", "en"):
                out.append((view, names, lang))
    rng.shuffle(out)
    return out


def test_interleaved_games_renames_and_languages_stay_exact() -> None:
    layers.clear_all()
    for k, (view, names, lang) in enumerate(_interleaved_views()):
        assert table.render_table(view, names, lang) == mlem_table_whole(view, names, lang), k


def test_parts_evicted_and_drawn_again_stay_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiny caches: parts are evicted and drawn again under new serial numbers, bands found
    by their parts point at bands the band cache dropped."""
    from render import pngbands

    layers.clear_all()
    for cache in (table._HEADERS, table._BOARDS, table._ROCKETS, table._PANELS, table._UNDERS):
        monkeypatch.setattr(cache, "maxsize", 2)
    monkeypatch.setattr(table._ROWS, "maxsize", 3)
    monkeypatch.setattr(table._FRAMES, "maxsize", 1)
    monkeypatch.setattr(pngbands, "CACHE", pngbands.BandCache(200_000))
    monkeypatch.setattr(pngbands, "SIGNED", 40)
    for k, (view, names, lang) in enumerate(_interleaved_views()[::3]):
        assert table.render_table(view, names, lang) == mlem_table_whole(view, names, lang), k


def test_each_part_draws_only_inside_its_box(monkeypatch: pytest.MonkeyPatch) -> None:
    """What makes keeping parts sound: a part drawn changes no pixel outside the box it
    reports (else a part kept would miss, or a neighbour would keep, pixels that are not in
    its key). Every cache is emptied before each table, so that every part is drawn, each
    over the parts drawn before it (frames before their rows, the board before the rocket)."""
    boxes_seen = 0
    tile = layers.PaletteCanvas.tile

    def checked(self, cache, key, draw):  # type: ignore[no-untyped-def]
        def draw_checked(rgb):  # type: ignore[no-untyped-def]
            nonlocal boxes_seen
            before = rgb.copy()
            box, value = draw(rgb)
            diff = ImageChops.difference(before, rgb)
            if box is not None:
                diff.paste((0, 0, 0), box)
                boxes_seen += 1
            assert diff.getbbox() is None, (key, box, diff.getbbox())
            return box, value

        return tile(self, cache, key, draw_checked)

    monkeypatch.setattr(layers.PaletteCanvas, "tile", checked)
    for view, names, lang in _interleaved_views()[::6]:
        layers.clear_all()
        table._mapped_table(kit.public(view), names, lang)
    assert boxes_seen > 100


def _row_box(top: float, first: float, k: int, row_h: float, lead: float) -> layers.Box:
    """Row ``k``'s box of a side panel (as ``table._framed_part`` reports it)."""
    ry = first + k * row_h
    y0 = math.floor(top + (ry - lead - top) * table.PANEL_K)
    y1 = math.floor(top + (ry + row_h - lead - top) * table.PANEL_K)
    box = (table.PANEL_X0, y0, table.PANEL_X0 + (table.PX1 - table.PX0) * table.PANEL_K, y1 - 1)
    return layers.box_within(box, 0, table._SIDE_AREA)


def _frame(frame: Callable[..., float], y: float, lang: str, size: int) -> tuple:
    """A side panel's frame alone on the board's base, and its first row."""
    img = table._out_base(lang).copy()
    first = frame(table._panels(img, table.PANEL_X0, table.OUT_HEADER_H + 8), y, lang, size)
    return img, first


def test_a_row_kept_without_its_frames_key_sees_the_same_frame() -> None:
    """A row but the last is kept whatever its panel's height, and a crew member's row
    whatever the language: the frame under such a row's box must be the same for every
    height and language (the panel's title and bottom corners stay out of it)."""
    top = table.OUT_HEADER_H + 8
    for lang in ("es", "en"):
        for n in range(2, 6):
            y = panels._players_after(top, n)
            ref, ref_first = _frame(panels._crew_frame, y, "es", 8)
            for rows in range(0, 9):
                img, first = _frame(panels._crew_frame, y, lang, rows)
                assert first == ref_first
                for k in range(max(0, rows - 1)):
                    box = _row_box(top, first, k, panels.CREW_ROW_H, 3)
                    assert ImageChops.difference(img.crop(box), ref.crop(box)).getbbox() is None
        for n in range(1, 6):
            img, first = _frame(panels._players_frame, top, lang, n)
            ref, _ = _frame(panels._players_frame, top, lang, 5)
            for k in range(n - 1):
                box = _row_box(top, first, k, panels.PLAYER_ROW_H, 2)
                assert ImageChops.difference(img.crop(box), ref.crop(box)).getbbox() is None


@pytest.mark.parametrize("shown", [False, True])
@pytest.mark.parametrize("band_rows", [1, 5, 13, 64, 500])
def test_bands_found_by_parts_are_the_plain_writers_on_odd_sizes(
    band_rows: int, shown: bool
) -> None:
    """Two canvases of odd sizes sharing one band cache (and the parts' serial counter),
    parts kept, parts mapped at each picture (``map``), boxes on and across band edges: the
    PNG is byte for byte the one written from the whole picture by its digest, bands found
    by which parts they are made of or (``shown``: the canvas's ``pixels``) by what their
    parts show in them."""
    from PIL import ImageDraw

    from render import pngbands

    bands, plain = pngbands.BandCache(), pngbands.BandCache()
    rng = random.Random(band_rows)
    kept: layers.LayerCache[[], object] = layers.LayerCache(lambda: None, 5)
    canvases = []
    for size in ((301, 157), (77, 203)):
        base = kit.star_field(size, seed=size[0])
        palette = kit.palette_for(base, [p.rgb for p in kit.PALETTE])
        canvases.append((base, palette, layers.mapped(base, palette)))
    boxes: dict[int, list[tuple[int, int, int, int]]] = {}
    for base, _, _ in canvases:  # (a few boxes each, some overlapping: parts reused)
        w, h = base.size
        boxes[w] = []
        for _k in range(4):
            x0, y0 = rng.randrange(w - 2), rng.randrange(h - 2)
            boxes[w].append((x0, y0, rng.randrange(x0 + 1, w + 1), rng.randrange(y0 + 1, h + 1)))
    for _ in range(60):
        base, palette, base_mapped = canvases[rng.randrange(2)]
        w = base.width
        c = layers.PaletteCanvas(base, base_mapped, palette)
        for k, box in enumerate(boxes[w]):
            if rng.random() < 0.4:
                continue
            seat = rng.randrange(2)

            def draw(img: object, seat: int = seat, box: tuple = box) -> tuple:
                edge = (box[0], box[1], box[2] - 1, box[3] - 1)
                ImageDraw.Draw(img).rectangle(edge, fill=kit.PALETTE[seat].rgb)  # type: ignore[arg-type]
                return box, None

            if rng.random() < 0.3:
                draw(c.rgb)
                c.map(box)
            else:
                c.tile(kept, (w, k, box, seat), draw)
        pixels = c.pixels if shown else None
        got = pngbands.encode(
            c.base_mapped, 4, bands, band_rows, parts=c.parts, rows=c.rows, pixels=pixels
        )
        assert got == pngbands.encode(c.out, 4, plain, band_rows)
    assert bands.hits


def test_a_part_drawn_again_leaves_the_bands_it_shows_the_same_in_found() -> None:
    """A tall part drawn again (a new serial number) that changed only near its bottom:
    with the canvas's ``pixels``, the bands above are found by what the part shows there
    (their rows are not made, nothing deflated for them); the PNG is the plain writer's."""
    from PIL import ImageDraw

    from render import pngbands

    base = kit.star_field((100, 96), seed=4)
    palette = kit.palette_for(base, [p.rgb for p in kit.PALETTE])
    base_mapped = layers.mapped(base, palette)
    kept: layers.LayerCache[[], object] = layers.LayerCache(lambda: None, 4)
    bands = pngbands.BandCache()
    made: list[tuple[int, int]] = []
    pngs = []
    for seat in (0, 1):

        def draw(img: object, seat: int = seat) -> tuple:
            d = ImageDraw.Draw(img)  # type: ignore[arg-type]
            d.rectangle((4, 2, 60, 20), fill=kit.PALETTE[3].rgb)  # the same each time
            d.rectangle((10, 66, 30, 69), fill=kit.PALETTE[seat].rgb)  # rows 66 to 69
            return (0, 0, 100, 70), None

        c = layers.PaletteCanvas(base, base_mapped, palette)
        c.tile(kept, seat, draw)

        def rows(top: int, bottom: int, c: layers.PaletteCanvas = c) -> Image.Image:
            made.append((top, bottom))
            return c.rows(top, bottom)

        png = pngbands.encode(
            c.base_mapped, 3, bands, 32, parts=c.parts, rows=rows, pixels=c.pixels
        )
        pngs.append(png)
        assert pngs[-1] == pngbands.encode(c.out, 3, pngbands.BandCache(), 32)
    assert made == [(0, 96), (63, 96)]  # the second picture: only the band of rows 64 to 95
    assert pngs[0] != pngs[1]


def test_static_layers_numbered_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A canvas made on a new static layer each picture keeps at most ``BASES`` layers alive
    for their numbers; a layer dropped and met again gets a new number, never another's."""
    monkeypatch.setattr(layers, "_BASES", type(layers._BASES)())
    palette = kit.palette_for(kit.star_field((40, 30), seed=1), [p.rgb for p in kit.PALETTE])
    kept = kit.star_field((40, 30), seed=2)
    kept_mapped = layers.mapped(kept, palette)
    first = layers.PaletteCanvas(kept, kept_mapped, palette).parts[0][0]
    assert layers.PaletteCanvas(kept, kept_mapped, palette).parts[0][0] == first
    serials = {first}
    for seed in range(3 * layers.BASES):
        base = kit.star_field((40, 30), seed=seed + 10)
        serials.add(layers.PaletteCanvas(base, layers.mapped(base, palette), palette).parts[0][0])
    assert len(layers._BASES) == layers.BASES
    again = layers.PaletteCanvas(kept, kept_mapped, palette).parts[0][0]
    assert again not in serials


def _one_change(view: dict) -> list[tuple[str, dict]]:
    """Views that each differ from ``view`` in one thing a part is drawn from."""
    import copy

    def changed(edit) -> dict:  # type: ignore[no-untyped-def]
        v = copy.deepcopy(view)
        edit(v)
        return v

    crew = view["rocket"]["crew"]
    out = [
        ("round", changed(lambda v: v.update(round=v["round"] + 1))),
        ("disasters", changed(lambda v: v.update(disasters=v["disasters"] + 1))),
        ("limit", changed(lambda v: v.update(disaster_limit=9))),
        ("last voyage", changed(lambda v: v.update(last_voyage=True))),
        ("phase", changed(lambda v: v.update(phase="mlem.phase.launch"))),
        ("score", changed(lambda v: v["scores"].__setitem__(1, 99))),
        ("commander", changed(lambda v: v.update(commander=2))),
        ("start", changed(lambda v: v.update(start_seat=3))),
        ("left", changed(lambda v: v["boards"][2]["left"].pop())),
        ("booster used", changed(lambda v: v["boards"][0].update(boosters_used=1))),
        ("crew used", changed(lambda v: v["rocket"]["crew"][1].update(used=True))),
        ("crew one more", changed(lambda v: v["rocket"]["crew"].append(dict(crew[0])))),
        ("crew one less", changed(lambda v: v["rocket"]["crew"].pop())),
        ("crew none", changed(lambda v: v["rocket"].update(crew=[]))),
        ("rocket", changed(lambda v: v["rocket"].update(space=v["rocket"]["space"] + 1))),
        ("deep", changed(lambda v: v["rocket"].update(space=table.DEEP))),
        ("ufo deep", changed(lambda v: v["ufo"].update(space=table.DEEP))),
        ("ufo here", changed(lambda v: v["ufo"].update(space=v["rocket"]["space"]))),
        ("ufo taken", changed(lambda v: v["ufo"]["taken"].__setitem__(0, 2))),
        ("no ufo", changed(lambda v: v.pop("ufo"))),
        ("dice", changed(lambda v: v["dice"]["usable"].__setitem__(0, False))),
        ("no roll", changed(lambda v: v["dice"].update(roll=[], usable=[]))),
        ("pool", changed(lambda v: v["dice"].update(pool=2, discarded=4))),
        ("moon", changed(lambda v: v["moons"]["M1"].__setitem__(0, 3))),
        ("planet", changed(lambda v: v["planets"]["P3"].append([1, 2]))),
        ("comet", changed(lambda v: v["deep_space"]["comet"].extend([2, 2]))),
        ("objective", changed(lambda v: v["objectives"].update(four_moons=1))),
        ("over", changed(lambda v: v.update(over=True))),
    ]
    for name in ("expedition", "recon", "missions"):
        if name in view:
            out.append((f"no {name}", changed(lambda v, name=name: v.pop(name))))
    return out


def test_a_table_differing_in_one_thing_after_a_warm_cache() -> None:
    """Each view differs from the one drawn just before in one thing (caches warm with the
    first): each table is exactly the whole table, in both languages, with names changed."""
    options = {"ufo": "on", "recon": "on", "missions": "on"}
    states = random_states(GAME, 4, 3, options)
    view = kit.public(GAME.view(states[len(states) // 2], None))
    names = list(NAMES[:4])
    layers.clear_all()
    for lang in ("es", "en"):
        for what, other in _one_change(view):
            assert table.render_table(view, names, lang) == mlem_table_whole(view, names, lang), (
                what
            )
            assert table.render_table(other, names, lang) == mlem_table_whole(
                other, names, lang
            ), what
        for seat, name in ((0, "Zoë"), (3, "🤖 Bot")):
            renamed = [*names[:seat], name, *names[seat + 1 :]]
            assert table.render_table(view, renamed, lang) == mlem_table_whole(
                view, renamed, lang
            ), name


class _Reads(dict):  # type: ignore[type-arg]
    """A view that writes down every field read through it (``a.b``: field b of field a)."""

    def __init__(self, data: dict, seen: set[str], path: str = "") -> None:
        super().__init__(data)
        self.seen, self.path = seen, path

    def _read(self, key: object, value: object) -> object:
        path = f"{self.path}{key}"
        self.seen.add(path)
        return _Reads(value, self.seen, path + ".") if isinstance(value, dict) else value

    def get(self, key: object, default: object = None) -> object:  # type: ignore[override]
        return self._read(key, super().get(key, default))

    def __getitem__(self, key: object) -> object:
        return self._read(key, super().__getitem__(key))


#: Each part of the table drawn from the view itself, and what of the view its key holds
#: (``table._mapped_table``): a field read but not held there would be missing from the
#: table drawn by parts, or kept stale.
_HELD = {
    "header": {"round", "phase", "over", "last_voyage", "disasters", "disaster_limit"},
    "board": {"objectives", "moons", "planets", "deep_space", "over"}
    | {"recon", "recon.slots", "ufo", "ufo.space", "rocket", "rocket.space"},
    "dice": {"dice", "rocket", "rocket.space"},
    "final": {"result"},
    "variants": {"expedition", "ufo", "recon"},
    "legend": {"over", "ufo", "missions", "recon", "recon.slots"},
}


class _Unread(list):  # type: ignore[type-arg]
    """Players' names the variants panel is given but must not read (not in its key)."""

    def _no(self, *args: object) -> None:
        raise AssertionError("the variants panel read the players' names: not in its key")

    __getitem__ = __iter__ = __len__ = __bool__ = _no  # type: ignore[assignment]


def _allowed(path: str, held: set[str]) -> bool:
    parts = path.split(".")
    return any(".".join(parts[:k]) in held for k in range(1, len(parts) + 1))


def test_each_part_reads_only_what_its_key_holds() -> None:
    """Whatever the seeded games show or not: a field a part's drawing reads is in its key
    (a new field drawn by the header, say, must be added to the header's key)."""
    from PIL import Image, ImageDraw

    options = {"ufo": "on", "recon": "on", "missions": "on"}
    states = random_states(GAME, 3, 5, options)
    img = Image.new("RGB", (table.OUT_W, table.OUT_H))
    d = ImageDraw.Draw(img)

    def board(v: dict) -> None:
        table._objective_claims(d, v, 3)
        table._draw_board_tokens(d, v, 3)
        table._draw_rocket(img, d, v)

    for state in (states[len(states) // 2], states[-1]):
        view = kit.public(GAME.view(state, None))
        draws = {
            "header": lambda v: table._draw_header(d, v, "en"),
            "board": board,
            "dice": lambda v: panels._draw_dice(d, 0, v, "en"),
            "final": lambda v: panels._draw_final(d, 0, v, "en", 3),
            "variants": lambda v: panels._draw_variants(d, 0, v, _Unread(), "en"),
            "legend": lambda v: table._draw_legend(d, (0, 0, 600, 300), v, "en"),
        }
        for part, draw in draws.items():
            seen: set[str] = set()
            draw(_Reads(view, seen))
            assert seen, part
            extra = {path for path in seen if not _allowed(path, _HELD[part])}
            assert not extra, (part, extra)


def _scratch_is_the_base(lang: str) -> bool:
    kept = layers._SCRATCH.get(id(table._out_base(lang)))
    return kept is None or (kept[2] is None and kept[1].tobytes() == kept[0].tobytes())


@pytest.mark.parametrize("tiny", [False, True])
def test_the_scratch_copy_is_the_static_layer_again_after_each_table(
    tiny: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Parts are drawn on one RGB copy of the board kept between tables (issue 23): after
    each table it is the board again, pixel for pixel, whatever was drawn (frames pasted
    under rows, the tokens drawn under the rocket; with tiny caches, frames drawn again),
    so no table sees what another drew."""
    if tiny:
        for cache in (table._HEADERS, table._BOARDS, table._ROCKETS, table._PANELS):
            monkeypatch.setattr(cache, "maxsize", 1)
        monkeypatch.setattr(table._ROWS, "maxsize", 2)
        monkeypatch.setattr(table._FRAMES, "maxsize", 1)
    layers.clear_all()
    for k, (view, names, lang) in enumerate(_interleaved_views()[:: 4 if tiny else 2]):
        assert table.render_table(view, names, lang) == mlem_table_whole(view, names, lang), k
        assert _scratch_is_the_base(lang), k
    assert layers._SCRATCH


def test_a_canvas_while_another_holds_the_scratch_copy_draws_on_its_own() -> None:
    """A canvas drawn while another holds the board's scratch copy (two threads without
    the lock) draws on a copy of its own, and leaves the scratch copy alone."""
    view = GAME.view(random_states(GAME, 3, 2, {})[-1], None)
    layers.clear_all()
    table.render_table(view, NAMES[:3], "en")
    base = table._out_base("en")
    other = layers.PaletteCanvas(base, table._out_base_mapped("en"), table._PALETTE, True)
    held = other.rgb  # the scratch copy, held
    ImageDraw.Draw(held).rectangle((900, 200, 1000, 300), fill=(255, 0, 0))
    layers.clear_all()
    c = table._mapped_table(kit.public(view), NAMES[:3], "en")
    drawn = table._draw_table(kit.public(view), NAMES[:3], "en")
    at_once = layers.mapped(drawn, table._PALETTE).convert("RGB")
    assert ImageChops.difference(c.out.convert("RGB"), at_once).getbbox() is None
    assert layers._SCRATCH[id(base)][2] is other
    other.map((900, 200, 1001, 301))
    other.done()
    assert _scratch_is_the_base("en")


def test_a_part_failing_to_draw_leaves_the_scratch_copy_aside(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A part whose drawing raises may have drawn anywhere: its scratch copy is dropped (a
    fresh one is made for the next table), never restored from boxes it did not report."""
    view = GAME.view(random_states(GAME, 3, 4, {})[10], None)
    layers.clear_all()
    table.render_table(view, NAMES[:3], "es")
    held = layers._SCRATCH[id(table._out_base("es"))][1]

    def broken(*args: object) -> None:
        ImageDraw.Draw(held).rectangle((0, 0, 50, 50), fill=(255, 0, 0))
        raise RuntimeError("boom")

    monkeypatch.setattr(table, "_draw_rocket", broken)
    layers.clear_all()
    with pytest.raises(RuntimeError):
        table.render_table(view, NAMES[:3], "es")
    monkeypatch.undo()
    assert id(table._out_base("es")) not in layers._SCRATCH
    assert table.render_table(view, NAMES[:3], "es") == mlem_table_whole(view, NAMES[:3], "es")
    assert layers._SCRATCH[id(table._out_base("es"))][1] is not held
    assert _scratch_is_the_base("es")


def test_the_boxes_kept_to_restore_the_scratch_copy_are_bounded_in_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(layers, "_BASE_CROPS", type(layers._BASE_CROPS)())
    monkeypatch.setattr(layers, "_base_crop_bytes", 0)
    monkeypatch.setattr(layers, "SCRATCH_CROP_BYTES", 100_000)
    base = table._out_base("en")
    for k in range(60):
        box = (k, k, k + 40 + k % 7, k + 90)
        crop = layers._base_crop(base, box)
        assert crop.tobytes() == base.crop(box).tobytes()
        assert layers._base_crop(base, box) is crop  # kept
        kept = sum(layers._image_bytes(c) for _, c in layers._BASE_CROPS.values())
        assert layers._base_crop_bytes == kept <= 100_000
    assert len(layers._BASE_CROPS) > 3
