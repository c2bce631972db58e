"""MLEM's board tokens drawn in groups (issue 23): each objective's claim, recon slot, the
UFO, each moon, each planet's rows and each deep-space region is a part of the table of its
own (render/mlem/table.py's ``_token_groups``), groups whose boxes meet drawn together, the
rocket drawn over the groups under it. The table must stay, pixel for pixel and byte for
byte, the whole table drawn at once and mapped."""

from __future__ import annotations

import copy
import random

import pytest
from PIL import ImageChops

from render import kit, layers
from render.mlem import table
from render.mlem.geometry import DEEP, HEADER_H, OUT_HEADER_H, TRACK
from rules.mlem import GAME
from tests.render.kit import NAMES, mlem_table_whole, random_states

OPTIONS = {"ufo": "on", "recon": "on", "missions": "on"}


def _drawer(img):  # type: ignore[no-untyped-def]
    return kit.ScaledDraw(img, table.BOARD_K, (0, HEADER_H - OUT_HEADER_H / table.BOARD_K))


def _crowded(view: dict, rng: random.Random, n: int) -> dict:
    """``view`` with the board as full as it gets: every moon and objective held, five rows
    on each planet with two-digit counts, eight of each deep-space region, a tile on every
    recon slot, and the UFO and the rocket somewhere along the track."""
    v = copy.deepcopy(view)
    v["moons"] = {mid: [rng.randrange(n) for _ in occ] for mid, occ in v["moons"].items()}
    v["objectives"] = {obj: rng.randrange(n) for obj in v["objectives"]}
    v["planets"] = {
        pid: [[rng.randrange(n), rng.choice((1, 9, 12, 19))] for _ in range(rng.choice((4, 5)))]
        for pid in v["planets"]
    }
    v["deep_space"] = {
        key: [rng.randrange(n) for _ in range(rng.randrange(1, 30))] for key in ("comet", "galaxy")
    }
    kinds = ("points", "wormhole", "recover")
    v["recon"] = {
        "slots": {
            str(s): {"kind": rng.choice(kinds), "value": 3}
            for s in TRACK
            if TRACK[s].get("recon_slot")
        }
    }
    v["ufo"] = {"space": rng.randrange(DEEP + 1)}
    v["rocket"] = {
        **(v.get("rocket") or {}),
        "space": rng.choice((v["ufo"]["space"], rng.randrange(DEEP + 1))),
    }
    return v


def _views() -> list[tuple[dict, int]]:
    out = []
    for players, seed in ((2, 11), (3, 12), (4, 13), (5, 14)):
        states = random_states(GAME, players, seed, OPTIONS)
        rng = random.Random(seed)
        picked = [s for s in states if rng.random() < 12 / len(states)] + [states[-1]]
        for state in picked:
            view = kit.public(GAME.view(state, None))
            out.append((view, players))
            out.append((_crowded(view, rng, players), players))
    return out


def test_each_group_draws_only_inside_its_box() -> None:
    """A group drawn alone on the static board changes no pixel outside its box (else a
    group kept would miss pixels, or one next to it keep pixels not in its key)."""
    seen = 0
    for k, (view, n) in enumerate(_views()):
        lang = ("es", "en")[k % 2]
        base = table._out_base(lang)
        av = {**view, "rocket": view.get("rocket") if isinstance(view.get("ufo"), dict) else {}}
        for name, gv, box in table._group_boxes(_drawer(base), av, n):
            img = base.copy()
            table._draw_group(_drawer(img), gv, n)
            diff = ImageChops.difference(base, img)
            assert diff.getbbox() is not None, name  # a group draws something
            diff.paste((0, 0, 0), box)
            assert diff.getbbox() is None, (name, gv, box, diff.getbbox())
            seen += 1
    assert seen > 500


def test_groups_whose_boxes_meet_are_joined_until_none_do() -> None:
    boxes = [(0, 0, 10, 10), (8, 8, 20, 20), (30, 0, 40, 10), (19, 0, 31, 2), (50, 50, 60, 60)]
    groups: list[tuple[str, dict, layers.Box]] = [(str(k), {}, box) for k, box in enumerate(boxes)]
    merged = table._merged_groups(groups)
    assert merged == [([0, 1, 2, 3], (0, 0, 40, 20)), ([4], (50, 50, 60, 60))]
    # the union of two can meet a third neither met
    boxes = [(20, 0, 25, 5), (0, 0, 10, 10), (8, 8, 30, 12)]
    merged = table._merged_groups([(str(k), {}, box) for k, box in enumerate(boxes)])
    assert merged == [([0, 1, 2], (0, 0, 30, 12))]
    for _ in range(200):
        rng = random.Random(_)
        boxes = []
        for _k in range(8):
            x, y = rng.randrange(100), rng.randrange(100)
            boxes.append((x, y, x + rng.randrange(1, 30), y + rng.randrange(1, 30)))
        merged = table._merged_groups([(str(k), {}, box) for k, box in enumerate(boxes)])
        assert sorted(m for members, _ in merged for m in members) == list(range(8))
        for i, (_m, a) in enumerate(merged):
            assert all(not table._meets(a, b) for _n, b in merged[i + 1 :])


def test_crowded_boards_by_parts_are_the_whole_table() -> None:
    """Boards where groups meet (the UFO on a recon slot, the rocket over a moon's tokens,
    two-digit counts): by parts, with the parts of the tables before kept, each table is
    the whole table drawn at once, byte for byte."""
    layers.clear_all()
    joined = 0
    for k, (view, n) in enumerate(_views()[::2]):
        names = NAMES[:n]
        lang = ("es", "en")[k % 2]
        av = {**view, "rocket": view.get("rocket") if isinstance(view.get("ufo"), dict) else {}}
        groups = table._group_boxes(_drawer(table._out_base(lang)), av, n)
        joined += len(table._merged_groups(groups)) < len(groups)
        assert table.render_table(view, names, lang) == mlem_table_whole(view, names, lang), k
    assert joined  # some groups met


@pytest.mark.parametrize(("seed", "lang"), [(21, "es"), (22, "en")])
def test_one_group_changed_after_a_warm_cache(seed: int, lang: str) -> None:
    """One token moved at a time (a moon taken, a planet row added, the UFO or the rocket
    moved): the table is the whole table; the rocket moving away from the UFO draws no
    group again, a moon taken one."""
    rng = random.Random(seed)
    states = random_states(GAME, 4, seed, OPTIONS)
    view = _crowded(kit.public(GAME.view(states[len(states) // 2], None)), rng, 4)
    names = NAMES[:4]
    layers.clear_all()
    table.render_table(view, names, lang)
    checked = 0
    for step in range(40):
        v = copy.deepcopy(view)
        what = rng.randrange(4)
        if what == 0:
            mid = rng.choice(sorted(v["moons"]))
            v["moons"][mid][0] = (v["moons"][mid][0] + 1) % 4
        elif what == 1:
            pid = rng.choice(sorted(v["planets"]))
            v["planets"][pid] = [*v["planets"][pid][:4], [rng.randrange(4), 2]]
        elif what == 2:
            v["ufo"] = {"space": rng.randrange(DEEP + 1)}
        else:
            v["rocket"] = {**v["rocket"], "space": rng.randrange(DEEP + 1)}
        before = table._BOARDS.misses
        assert table.render_table(v, names, lang) == mlem_table_whole(v, names, lang), step
        spaces = {view["rocket"]["space"], v["rocket"]["space"], DEEP}
        if what == 3 and v["ufo"]["space"] not in spaces:
            assert table._BOARDS.misses == before, step  # the rocket moving draws no group
            checked += 1
        if what == 0:
            assert table._BOARDS.misses == before + 1, step
            checked += 1
        view = v
    assert checked > 5
