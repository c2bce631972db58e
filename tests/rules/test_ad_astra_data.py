"""Ad Astra component data: the file's shape, the sourced counts and the designed pairs."""

from __future__ import annotations

import json
from itertools import combinations

from rules.ad_astra.data import (
    ARTIFACTS,
    CARD_IDS,
    COSTS,
    DATA,
    FACTIONS,
    ORES,
    PLANET_COUNTS,
    RES,
    SCORING,
    STARS,
    card_kind,
    card_pair,
)
from rules.kit import data_path


def test_counts_from_the_rulebook() -> None:
    assert sum(PLANET_COUNTS.values()) == 43 and PLANET_COUNTS["A"] == 5
    assert len(STARS) == 8 and len(RES) == 6 and set(ORES) <= set(RES)
    assert DATA["resources"]["per_type"] * len(RES) == 150
    assert len(CARD_IDS) == 11 and len(FACTIONS) == 5
    assert [card_kind(c) for c in CARD_IDS].count("score") == 3
    assert len(ARTIFACTS) == 11 and sum(a["optional"] for a in ARTIFACTS.values()) == 2


def test_every_designed_value_says_so() -> None:
    for item in COSTS.values():
        assert item["status"]
    for section in ("planets", "deal", "terraformable", "scoring", "factions", "artifacts"):
        assert DATA[section]["status"]
    assert "DESIGNED" in COSTS["factory"]["status"]
    for a in ARTIFACTS.values():
        assert a["name_status"] in ("SOURCED", "DESIGNED") and isinstance(a["implemented"], bool)


def test_production_pairs_cover_every_resource_and_every_pair_once() -> None:
    seen = []
    for fac in FACTIONS:
        pairs = [card_pair(fac, c) for c in ("p0", "p1", "p2")]
        assert sorted(r for p in pairs for r in p) == sorted(RES)
        seen += [frozenset(p) for p in pairs]
    assert len(set(seen)) == 15 == len(list(combinations(RES, 2)))


def test_movement_pairs_six_systems_each_and_the_derived_ones() -> None:
    seen = []
    for fac in FACTIONS:
        pairs = [card_pair(fac, c) for c in ("m0", "m1", "m2")]
        systems = [x for p in pairs for x in p]
        assert len(set(systems)) == 6 and set(systems) <= set(STARS)
        seen += [frozenset(p) for p in pairs]
    assert len(set(seen)) == len(seen)
    assert set(card_pair("red", "m0")) == {"TY", "LY"}
    assert set(card_pair("yellow", "m0")) == {"SR", "LY"}


def test_scoring_cards_and_strings() -> None:
    assert SCORING["s1"] == ("colfac", "ships")
    strings = json.loads(data_path("ad_astra", "strings.json").read_text(encoding="utf-8"))
    assert strings["en"].keys() == strings["es"].keys()
    for key in ("ad_astra.name", "ad_astra.rules_summary"):
        assert strings["en"][key] and strings["es"][key]
    for elem in {e for pair in SCORING.values() for e in pair}:
        assert f"ad_astra.score.{elem}" in strings["es"]
