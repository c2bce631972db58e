"""Kosmonavts names places, never coordinates: a clock hour over the board, the zone and
the nearest body ("in the asteroid belt, at 4 o'clock, 2 hexes from Mars")."""

from __future__ import annotations

import random
import re

from core.i18n import t
from rules.kosmonavts import GAME, engine

NAMES = ["Ana", "Bea", "Cal", "Dan"]
COORDS = re.compile(r"\(\s*-?\d+\s*,\s*-?\d+\s*\)")


def test_clock_hours_around_the_sun() -> None:
    assert engine.clock_hour((2, 0)) == 3  # east
    assert engine.clock_hour((-2, 0)) == 9  # west
    assert engine.clock_hour((1, -2)) == 12  # straight up (y grows downward)
    assert engine.clock_hour((-1, 2)) == 6
    assert engine.clock_hour((0, 2)) == 5
    assert engine.clock_hour((0, 0)) == 12


def test_zones() -> None:
    assert engine.zone_key((1, 0)) == "kosmonavts.zone.sun"
    assert engine.zone_key((4, 0)) == "kosmonavts.zone.inner"
    assert engine.zone_key((7, 0)) == "kosmonavts.zone.belt"
    assert engine.zone_key((12, 0)) == "kosmonavts.zone.outer"


def test_place_names_the_nearest_body() -> None:
    s = GAME.new(2, {}, 3)
    mars = engine.body_pos(s, "mars")
    assert mars is not None
    where = engine.place_args(s, (mars[0] + 1, mars[1]))
    assert where["near_key"] == "kosmonavts.near.mars" and where["gap"] == 1
    text = t("kosmonavts.event.moved", "en", NAMES, seat=0, **where)
    assert "1 hex from Mars" in text and "o'clock" in text


def test_no_coordinates_in_the_log_prompts_or_labels() -> None:
    moved = 0
    for g in range(6):
        rng = random.Random(g)
        opts = {"rules": ("basic", "advanced")[g % 2], "planets": ("random", "players")[g % 2]}
        s = GAME.new(2 + g % 3, opts, g)
        for _ in range(400):
            pending = GAME.pending(s)
            if not pending:
                break
            for d in pending:
                for lang in ("en", "es"):
                    assert not COORDS.search(t(d.prompt, lang, NAMES, **dict(d.args)))
                    for o in d.options:
                        assert not COORDS.search(t(o.label, lang, NAMES, **dict(o.args)))
            d = rng.choice(pending)
            s, events = GAME.apply(s, d.seat, GAME.bot_choice(s, d.seat, rng))
            for e in events:
                moved += e.code.endswith((".moved", ".moved_on"))
                for lang in ("en", "es"):
                    args = {"seat": e.seat, **dict(e.args)}
                    line = t(e.code, lang, NAMES, **args)
                    assert not COORDS.search(line), line
                    assert "{" not in line, line
    assert moved > 0
