"""Mission: Red Planet data files: the JSON is coherent, and strings.json covers every key
the engine can produce, in English and Spanish with the same placeholders."""

from __future__ import annotations

import random

from core.contract import Decision
from rules.red_planet import GAME
from rules.red_planet.data import (
    ACTIONS,
    ADJ,
    BOARD,
    CHARACTERS,
    DISCOVERIES,
    EVENTS,
    GROUPS,
    MISSIONS,
    OUTER,
    PHOBOS,
    RES_COUNT,
    SHIPS,
    SHIPS_DATA,
    ZONES,
)
from tests.rules.kit import check_key, check_languages_match, strings, walk_keys

STRINGS = strings("red_planet")
STATUS = ("CONFIRMED", "INFERRED", "DESIGNED")


def has_status(item: dict) -> bool:
    return any(word in str(item.get("status", "")) for word in STATUS)


def test_board_map_and_counts() -> None:
    assert len(ZONES) == 10 and len(set(ZONES)) == 10 and PHOBOS in ZONES
    assert len(OUTER) == 8 and PHOBOS not in OUTER and "VM" not in OUTER
    assert ADJ[PHOBOS] == ()
    for a, nbrs in ADJ.items():
        assert a not in nbrs
        assert all(a in ADJ[b] for b in nbrs)
    assert len(ADJ["VM"]) == 4
    for group in GROUPS.values():
        assert len(group) == 4 and set(group) <= set(OUTER)
    assert RES_COUNT == {"ice": 5, "syl": 3, "cel": 3}
    assert sorted(CHARACTERS) == list(range(1, 10))
    assert [CHARACTERS[n]["place"] for n in (9, 7, 6, 3)] == [1, 2, 2, 3]
    for part in ("adjacency", "groups", "resources", "rounds", "characters"):
        assert has_status(BOARD[part]), part
    assert all(has_status(z) for z in BOARD["zones"])


def test_ship_deck() -> None:
    ships = SHIPS_DATA["ships"]
    assert len(ships) == 36 and len(SHIPS) == 36 and has_status(SHIPS_DATA)
    assert sum(1 for s in ships if s["dest"] is None) == 6
    for z in ZONES:
        assert sum(1 for s in ships if s["dest"] == z) == 3
    assert all(2 <= s["cap"] <= 5 for s in ships)


def test_event_cards() -> None:
    assert (len(MISSIONS), len(DISCOVERIES), len(ACTIONS)) == (13, 13, 4)
    assert has_status(EVENTS)
    for card in [*MISSIONS.values(), *DISCOVERIES.values(), *ACTIONS.values()]:
        assert has_status(card), card["id"]
    assert {d["icon"] for d in DISCOVERIES.values()} == {"R", "P3", "F"}
    kinds = {"group", "most_zone", "most_tokens", "spread", "dominion", "memorial"}
    assert {m["kind"] for m in MISSIONS.values()} >= kinds
    for m in MISSIONS.values():
        if m["kind"] == "group":
            assert m["group"] in GROUPS and len(m["points"]) == 4


def test_strings_in_both_languages_with_the_same_placeholders() -> None:
    check_languages_match(STRINGS, "red_planet")
    en = STRINGS["en"]
    assert "red_planet.name" in en and "red_planet.rules_summary" in en
    for part in ("tokens", "missions", "ice_monopoly", "discoveries"):
        assert f"red_planet.score.{part}" in en


def _bot(s: dict, d: Decision, rng: random.Random) -> str:
    return GAME.bot_choice(s, d.seat, rng)


def _random(s: dict, d: Decision, rng: random.Random) -> str:
    return rng.choice(d.options).id


def test_every_key_the_engine_produces_exists() -> None:
    """Random and bot games: every prompt, option label, event and phase has a string, and
    the arguments fill its placeholders."""
    seen: set[str] = set()

    def need(key: str, args: dict | None) -> None:
        check_key(STRINGS, key, args or {})
        seen.add(key)

    for i in range(60):
        choose = _bot if i % 2 else _random
        walk_keys(GAME, GAME.new(2 + i % 5, {}, i), random.Random(i), choose, need)
    assert "red_planet.prompt.ff" in seen and "red_planet.event.n_place" in seen


def test_zone_names_follow_the_reader_language_like_the_picture() -> None:
    """One glossary: buttons and log lines name a zone exactly as the picture does."""
    from core.i18n import t
    from rules.red_planet.data import ZONE_NAMES

    for z, names in ZONE_NAMES.items():
        for lang in ("en", "es"):
            assert names[lang] == STRINGS[lang][f"red_planet.render.zone.{z}"]
    text = t("red_planet.event.land", "es", zone=ZONE_NAMES["PH"], crew=2)
    assert "Fobos" in text and "Phobos" not in text and "2 astronautas" in text
    assert t("red_planet.opt.zone", "en", zone=ZONE_NAMES["PH"]) == "Phobos"
    assert t("red_planet.opt.zone", "es", zone=ZONE_NAMES["PH"]) == "Fobos"
