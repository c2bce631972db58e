"""Kosmonavts component data and strings: schema and consistency checks."""

from __future__ import annotations

import math
import re

from core import i18n
from core.contract import check_option_id
from rules.kosmonavts import GAME
from rules.kosmonavts.board import (
    BOARD_DATA,
    BODIES,
    CARDS,
    DANGER,
    DIRS,
    EVENT_DATA,
    M1_BODIES,
    M2_ALPHA,
    M2_BETA,
    MARKERS_ADVANCED,
    NON_EARTH,
    ORBITS,
    RADIUS,
    SUN,
    dist,
)
from rules.kosmonavts.engine import ERRORS
from tests.rules.kit import ROOT, check_languages_match, strings

STRINGS = strings("kosmonavts")


def _ring(k: int) -> list[tuple[int, int]]:
    out, q, r = [], k, 0
    for d in (4, 3, 2, 1, 0, 5):
        for _ in range(k):
            out.append((q, r))
            q, r = q + DIRS[d][0], r + DIRS[d][1]
    return out


def _angle(p: tuple[int, int]) -> float:
    return math.atan2(1.5 * p[1], math.sqrt(3) * (p[0] + p[1] / 2)) % (2 * math.pi)


def test_directions_are_the_six_hex_neighbours_with_opposites() -> None:
    assert len(DIRS) == 6 and len(set(DIRS)) == 6
    for i, d in enumerate(DIRS):
        assert dist(d) == 1 and DIRS[(i + 3) % 6] == (-d[0], -d[1])


def test_planet_orbits_are_every_second_hex_of_their_ring() -> None:
    for body in BOARD_DATA["bodies"]:
        if body["kind"] == "planet":
            assert list(ORBITS[body["id"]]) == _ring(body["ring"])[::2], body["id"]
            orbit = ORBITS[body["id"]]
            for i, p in enumerate(orbit):
                assert dist(p, orbit[(i + 1) % len(orbit)]) == 2  # jumps over one hex


def test_comet_path_is_a_clockwise_loop_clear_of_danger() -> None:
    comet = ORBITS["halley"]
    assert len(comet) == 20 and len(set(comet)) == 20
    turns = 0.0
    for i, p in enumerate(comet):
        step = (_angle(comet[(i + 1) % 20]) - _angle(p)) % (2 * math.pi)
        assert 0 < step < math.pi  # always clockwise on screen
        turns += step
    assert abs(turns - 2 * math.pi) < 1e-9  # exactly one lap


def test_orbit_spaces_are_disjoint_on_board_and_safe() -> None:
    seen: set[tuple[int, int]] = set()
    for b in BODIES:
        for p in ORBITS[b]:
            assert p not in seen and p != SUN and dist(p) <= RADIUS and p not in DANGER
            seen.add(p)
    assert BODIES == (
        "mercury", "venus", "earth", "mars", "halley", "jupiter", "saturn", "uranus", "neptune",
    )  # fmt: skip


def test_danger_sectors_are_the_sun_ring_and_the_belt() -> None:
    assert {dist(p) for p in DANGER} == {1, 7, 8}
    assert len(DANGER) == 6 + 42 + 48


def test_marker_tables() -> None:
    assert BOARD_DATA["markers"]["basic"] == {"default": [1, 2, 3, 4], "earth": [2, 2, 2, 2]}
    assert set(MARKERS_ADVANCED) == set(BODIES)
    for b in NON_EARTH:
        low, high = MARKERS_ADVANCED[b]
        assert high == low + 1


def test_event_deck() -> None:
    cards = EVENT_DATA["cards"]
    assert len(cards) == 30 and len(CARDS) == 30
    kinds: dict[str, int] = {}
    for c in cards:
        kinds[c["kind"]] = kinds.get(c["kind"], 0) + 1
        assert check_option_id(f"event.{c['id']}")
    assert kinds == {
        "wind": 12, "refuel": 4, "energy": 3, "gravity": 3, "thrust": 3, "asteroids": 2,
        "flares": 3,
    }  # fmt: skip
    winds = {(c["cubes"], c["dir"]) for c in cards if c["kind"] == "wind"}
    assert len(winds) == 12


def test_missions() -> None:
    assert sorted(M1_BODIES) == sorted(NON_EARTH)
    assert sorted(M2_ALPHA + M2_BETA) == sorted(NON_EARTH) and not set(M2_ALPHA) & set(M2_BETA)


def test_strings_both_languages_same_keys_and_placeholders() -> None:
    check_languages_match(STRINGS, "kosmonavts")


def test_required_strings() -> None:
    en, es = STRINGS["en"], STRINGS["es"]
    keys = ["kosmonavts.name", "kosmonavts.rules_summary"]
    for spec in GAME.options:
        keys.append(spec.label)
        keys += [f"{spec.label}.{c}" for c in spec.choices]
    keys += [f"kosmonavts.phase.{p}" for p in ("setup", "missions", "event", "orders")]
    keys += [f"kosmonavts.phase.{p}" for p in ("flight", "planets", "over")]
    keys += [f"kosmonavts.card.{c}" for c in CARDS]
    keys += [f"kosmonavts.card_text.{k}" for k in {c["kind"] for c in CARDS.values()}]
    keys += [f"kosmonavts.kind.{k}" for k in {c["kind"] for c in CARDS.values()}]
    keys += [f"kosmonavts.mission.m{k}.{b}" for k in (1, 2) for b in NON_EARTH]
    keys += [f"kosmonavts.body.{b}" for b in BODIES]
    # result().breakdown parts, shown by the host as ``kosmonavts.score.<part>``
    keys += [f"kosmonavts.score.{part}" for part in ("markers", "earth", "mission1", "mission2")]
    for key in keys:
        assert key in en and key in es, key
    for lang in (en, es):
        assert 400 < len(lang["kosmonavts.rules_summary"]) <= 1500


def test_every_error_code_has_a_string() -> None:
    src = "".join(p.read_text() for p in sorted((ROOT / "rules" / "kosmonavts").glob("*.py")))
    raised = set(re.findall(r'"error\.([a-z_]+)"', src))
    raised |= set(re.findall(r'(?:why\[[^\]]+\]|cube_why) = "([a-z_]+)"', src))
    assert raised <= set(ERRORS)
    for code in ERRORS:
        assert f"kosmonavts.error.{code}" in STRINGS["en"], code


def test_button_labels_fit_discord() -> None:
    sample = {"n": 45, "hour": 12, "cubes": 4, "arrow": "⇗", "value": 4}
    for lang in ("en", "es"):
        for key, text in STRINGS[lang].items():
            if re.match(r"kosmonavts\.(opt|body|mission|card)\.", key):
                assert len(i18n.fmt(text, lang, **sample)) <= 40, (lang, key)


def test_rules_package_is_pure() -> None:
    for path in (ROOT / "rules" / "kosmonavts").glob("*.py"):
        src = path.read_text()
        assert not re.search(r"^\s*(import|from)\s+(discord|aiosqlite|sqlite3|PIL|asyncio)\b",
                             src, re.M), path  # fmt: skip
        assert not re.search(r"\brandom\.(?!Random\b)[a-z]", src), path
