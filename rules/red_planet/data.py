"""Mission: Red Planet component data, read once from ``data/red_planet/*.json``.

Nothing here changes after import; the engine only reads these tables. Designed values
(map, ship deck, most event cards) carry a ``status`` in the files so printed values can
replace them later.
"""

from __future__ import annotations

from typing import Any

from rules.kit import load_json

GAME_ID = "red_planet"

BOARD: dict[str, Any] = load_json(GAME_ID, "board.json")
SHIPS_DATA: dict[str, Any] = load_json(GAME_ID, "ships.json")
EVENTS: dict[str, Any] = load_json(GAME_ID, "events.json")

#: Zone ids in board order (Valles Marineris first, Phobos last).
ZONES: tuple[str, ...] = tuple(z["id"] for z in BOARD["zones"])
_STRINGS: dict[str, dict[str, str]] = load_json(GAME_ID, "strings.json")
#: Each zone's name in every language, from the same strings the picture draws
#: (``red_planet.render.zone.<id>``): event and option arguments carry this mapping, which
#: core.i18n shows in the reader's language ("Phobos" / "Fobos").
ZONE_NAMES: dict[str, dict[str, str]] = {
    z["id"]: {lang: texts[f"red_planet.render.zone.{z['id']}"] for lang, texts in _STRINGS.items()}
    for z in BOARD["zones"]
}
PHOBOS = "PH"
#: Mars zones (Phobos excluded).
MARS: tuple[str, ...] = tuple(z for z in ZONES if z != PHOBOS)
#: Zones that may hold a discovery card.
OUTER: tuple[str, ...] = tuple(z["id"] for z in BOARD["zones"] if z["outer"])
ADJ: dict[str, tuple[str, ...]] = {z: () for z in ZONES}
for _a, _b in BOARD["adjacency"]["edges"]:
    ADJ[_a] = (*ADJ[_a], _b)
    ADJ[_b] = (*ADJ[_b], _a)
GROUPS: dict[str, tuple[str, ...]] = {
    g: tuple(v) for g, v in BOARD["groups"].items() if g != "status"
}

RES_TYPES: tuple[str, ...] = tuple(BOARD["resources"]["types"])
RES_VALUE: dict[str, int] = {k: v["value"] for k, v in BOARD["resources"]["types"].items()}
RES_COUNT: dict[str, int] = {k: v["count"] for k, v in BOARD["resources"]["types"].items()}

ROUNDS: int = BOARD["rounds"]["count"]
#: Round number -> tokens each face-up zone produces after it.
PRODUCTION: dict[int, int] = {int(k): v for k, v in BOARD["rounds"]["production_after"].items()}
ASTRONAUTS: int = BOARD["astronauts_per_colour"]
DEST_TOKENS: int = BOARD["destination_tokens_per_zone"]
MIN_DOCKS: int = BOARD["min_docks"]
ICE_MONOPOLY: int = EVENTS["ice_monopoly"]["points"]

CHARACTERS: dict[int, dict[str, Any]] = {c["num"]: c for c in BOARD["characters"]["cards"]}
CHAR_NUMS: tuple[int, ...] = tuple(sorted(CHARACTERS, reverse=True))
RECRUITER = 9
EXPLORER = 8
SCIENTIST = 7
SECRET_AGENT = 6
SABOTEUR = 5
FEMME_FATALE = 4
TRAVEL_AGENT = 3
SOLDIER = 2
PILOT = 1

SHIPS: dict[str, dict[str, Any]] = {s["id"]: s for s in SHIPS_DATA["ships"]}
SHIP_IDS: tuple[str, ...] = tuple(SHIPS)

MISSIONS: dict[str, dict[str, Any]] = {m["id"]: m for m in EVENTS["missions"]}
DISCOVERIES: dict[str, dict[str, Any]] = {d["id"]: d for d in EVENTS["discoveries"]}
ACTIONS: dict[str, dict[str, Any]] = {a["id"]: a for a in EVENTS["actions"]}
EVENT_IDS: tuple[str, ...] = (*MISSIONS, *DISCOVERIES, *ACTIONS)
BLOCKS_OF_ICE = "A01"
EMERGENCY_LAUNCH = "A02"
COURSE_CORRECTION = "A03"
REINFORCEMENTS = "A04"


def event_kind(event_id: str) -> str:
    """``mission``, ``discovery`` or ``action``."""
    if event_id in MISSIONS:
        return "mission"
    if event_id in DISCOVERIES:
        return "discovery"
    return "action"
