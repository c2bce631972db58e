"""MLEM data files: board.json is coherent and strings.json covers every key the engine uses."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from core.i18n import fmt, seat_args
from rules.mlem import GAME, engine
from rules.mlem.board import (
    ABILITIES,
    BOARD,
    BODY,
    DEEP,
    EXPEDITION,
    MISSION_BODIES,
    MISSIONS,
    MOONS,
    PLANETS,
    RECON_SLOTS,
    TRACK,
    recon_stack,
)
from tests.rules.kit import ROOT, check_languages_match, strings

STRINGS = strings("mlem")
NAMES = ["Ana", "Bruno", "Carmen", "Dmitri", "Eve"]


# --------------------------------------------------------------------------- board.json


def test_track_is_complete_and_consistent():
    assert sorted(TRACK) == list(range(DEEP))
    for sp, data in TRACK.items():
        faces = data["faces"]
        assert 2 <= len(faces) <= 3 and set(faces) <= {"A", 1, 2, 3, 4}
        assert (data["ab"] is not None) == ("A" in faces), sp
        if data["ab"] is not None:
            assert data["ab"] in (1, 2, 3)
    assert set(BODY.values()) == set(MOONS) | set(PLANETS)
    assert all(sp not in BODY for sp in BOARD["no_landing_spaces"])
    assert all(sp in BODY for sp in range(6, DEEP))
    assert TRACK[BOARD["satellite_space"]].get("satellite") is True
    assert TRACK[0]["faces"] == ["A", 1, 2] and TRACK[5]["faces"] == [1, 4]


def test_bodies_and_tiles():
    for values in MOONS.values():
        assert values == sorted(values)
    for values in PLANETS.values():
        assert len(values) == 3 and values == sorted(values, reverse=True)
    assert PLANETS["P2"] == [5, 3, 2]  # the rulebook example planet
    assert len(BOARD["expedition_tiles"]) == 14 and len(EXPEDITION) == 14
    for tile in EXPEDITION.values():
        assert tile["dice"] in (4, 5, 6) and 0 <= tile["ufo"] <= 3
        assert tile["ability"] in ("reroll", "keep", "extra")
        assert ("extra" in tile) == (tile["ability"] == "extra")
    assert len(recon_stack()) == 20 and len(RECON_SLOTS) == 5
    assert len(MISSIONS) == len(set(MISSIONS)) == 20
    assert all(MISSION_BODIES[m] for m in MISSIONS)
    assert {"15", "7/8", "11/12"} <= set(MISSIONS)  # the rulebook's examples
    assert BOARD["ufo_tiles"][0] == 5 and len(BOARD["ufo_tiles"]) == 5
    assert BOARD["missions_points"] == [0, 2, 5, 10]
    assert set(ABILITIES) == {
        "satellite",
        "shifter",
        "parachute",
        "moon_doubler",
        "planet_doubler",
        "deep_doubler",
        "saboteur",
        "booster",
    }


# --------------------------------------------------------------------------- strings.json


def test_both_languages_have_the_same_keys_and_placeholders():
    check_languages_match(STRINGS, "mlem")
    for key, text in STRINGS["en"].items():
        assert "\n" not in text or key == "mlem.rules_summary", key


def test_static_keys_exist():
    en = STRINGS["en"]
    needed = ["mlem.name", "mlem.rules_summary"]
    for spec in GAME.options:
        needed += [spec.label] + [f"{spec.label}.{c}" for c in spec.choices]
    needed += [f"mlem.phase.{p}" for p in ("launch", "explore", "land", "over")]
    needed += [f"mlem.ability.{a}" for a in ABILITIES]
    needed += [f"mlem.objective.{o}" for o in BOARD["objectives"]]
    needed += [f"mlem.{p}" for p in engine.PARTS]
    needed += [f"mlem.error.{e}" for e in ("not_your_turn", "not_offered", "game_over")]
    assert [k for k in needed if k not in en] == []


def test_rules_summary_is_short_and_in_both_languages():
    for lang in ("en", "es"):
        text = STRINGS[lang]["mlem.rules_summary"]
        assert 400 < len(text) <= 1500
    assert "cometa" in STRINGS["es"]["mlem.rules_summary"]


def test_error_codes_in_the_engine_have_strings():
    src = (ROOT / "rules" / "mlem" / "engine.py").read_text(encoding="utf-8")
    src += (ROOT / "rules" / "mlem" / "__init__.py").read_text(encoding="utf-8")
    for code in set(re.findall(r'"(mlem\.error\.[a-z_]+)"', src)):
        assert code in STRINGS["en"], code


def _render(key: str, args: dict, lang: str) -> str:
    text = STRINGS[lang][key]
    return fmt(text, lang, **seat_args(args, NAMES))


def _remembering(render: Callable[[str, dict, str], str]) -> Callable[[str, dict, str], str]:
    """``render`` that keeps each text by (key, language, arguments) when every argument is
    a string or an int (exactly: ``True`` and ``1`` are equal keys but format apart): the
    same prompts, labels and events come back thousands of times along the play-outs."""
    memo: dict[tuple[Any, ...], str] = {}

    def remembered(key: str, args: dict, lang: str) -> str:
        if not all(type(v) is str or type(v) is int for v in args.values()):
            return render(key, args, lang)
        mk = (key, lang, *args.items())
        text = memo.get(mk)
        if text is None:
            text = memo[mk] = render(key, args, lang)
        return text

    return remembered


def test_every_key_produced_in_play_exists_and_formats():
    render = _remembering(_render)
    seen: set[str] = set()
    longest = 0
    for g in range(120):
        rng = random.Random(g)
        variants = {
            k: "on" if g % 3 else rng.choice(("on", "off")) for k in ("ufo", "recon", "missions")
        }
        s = GAME.new(2 + g % 4, variants, g)
        while True:
            decisions = GAME.pending(s)
            if not decisions:
                break
            for d in decisions:
                for lang in ("en", "es"):
                    render(d.prompt, dict(d.args), lang)
                    for o in d.options:
                        label = render(o.label, dict(o.args), lang)
                        longest = max(longest, len(label))
                        assert len(label) <= 40, label
                seen.add(d.prompt)
                seen.update(o.label for o in d.options)
            d = rng.choice(decisions)
            s, events = GAME.apply(s, d.seat, rng.choice(d.options).id)
            for e in events:
                seen.add(e.code)
                for lang in ("en", "es"):
                    line = render(e.code, dict(e.args), lang)
                    assert "\n" not in line and "{" not in line
        v = GAME.view(s, None)
        seen.add(v["phase"])
    missing = sorted(k for k in seen if k not in STRINGS["en"])
    assert missing == []
    assert longest <= 40
    # the common event kinds all showed up
    for code in ("roll", "move", "crash", "land_moon", "stay", "commander"):
        assert f"mlem.event.{code}" in seen
