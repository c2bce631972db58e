"""MLEM component data, loaded once from ``data/mlem/board.json`` and indexed for the engine.

Nothing here changes after import; the engine only reads these tables.
"""

from __future__ import annotations

from typing import Any

from rules.kit import data_path, load_json

BOARD_PATH = data_path("mlem", "board.json")
BOARD: dict[str, Any] = load_json("mlem", "board.json")

#: The deep-space position (one past the last numbered space).
DEEP: int = BOARD["deep_space"]["index"]
COMET_POINTS: int = BOARD["deep_space"]["comet"]
GALAXY_POINTS: int = BOARD["deep_space"]["galaxy"]

TRACK: dict[int, dict[str, Any]] = {int(k): v for k, v in BOARD["track"].items()}
#: Faces each space accepts ("A" = afterburner, ints = numbers).
ACCEPTS: dict[int, frozenset[Any]] = {sp: frozenset(v["faces"]) for sp, v in TRACK.items()}
#: Movement of one afterburner die on each space (None = afterburner not accepted).
AFTERBURNER: dict[int, int | None] = {sp: v.get("ab") for sp, v in TRACK.items()}
#: The single moon group / planet reached from a space, if any.
BODY: dict[int, str] = {}
for _sp, _v in TRACK.items():
    _bodies = _v.get("bodies") or []
    if len(_bodies) > 1:  # pragma: no cover - data guard
        raise ValueError(f"space {_sp}: the engine supports one body per space")
    if _bodies:
        BODY[_sp] = _bodies[0]

#: The first space each body is reached from (moon groups have exactly one).
BODY_SPACE: dict[str, int] = {}
for _sp in sorted(BODY):
    BODY_SPACE.setdefault(BODY[_sp], _sp)

MOONS: dict[str, list[int]] = BOARD["moons"]
PLANETS: dict[str, list[int]] = BOARD["planets"]
#: The last numbered space (deep space is one past it).
LAST: int = max(TRACK)
#: Every space linked to each planet, in track order.
PLANET_SPACES: dict[str, list[int]] = {
    p: [sp for sp in sorted(BODY) if BODY[sp] == p] for p in PLANETS
}
#: Planet display names from the board file (fallback when no string exists).
PLANET_NAMES: dict[str, str] = BOARD.get("planet_names", {})
#: Planets from Earth outward (order of their first linked space): the scoring order.
PLANET_ORDER: tuple[str, ...] = tuple(
    sorted(PLANETS, key=lambda p: min(sp for sp, b in BODY.items() if b == p))
)
MOON_ORDER: tuple[str, ...] = tuple(
    sorted(MOONS, key=lambda m: min(sp for sp, b in BODY.items() if b == m))
)

SATELLITE: int = BOARD["satellite_space"]
NO_LANDING: frozenset[int] = frozenset(BOARD["no_landing_spaces"])
DISASTERS: int = BOARD["disaster_track_length"]
DICE_FACES: tuple[Any, ...] = tuple(BOARD["dice_faces"])
DICE: int = BOARD["dice_count"]
ABILITIES: tuple[str, ...] = tuple(BOARD["astronauts"])
ABILITY_INDEX: dict[str, int] = {a: i for i, a in enumerate(ABILITIES)}
OBJECTIVES: dict[str, int] = BOARD["objectives"]
MISSION_POINTS: list[int] = BOARD["missions_points"]
MISSIONS: tuple[str, ...] = tuple(BOARD["missions"])
MISSION_KEEP = 3
MISSION_DEAL = 4
UFO_TILES: tuple[int, ...] = tuple(BOARD["ufo_tiles"])
EXPEDITION: dict[str, dict[str, Any]] = {t["id"]: t for t in BOARD["expedition_tiles"]}
EXPEDITION_ORDER: tuple[str, ...] = tuple(t["id"] for t in BOARD["expedition_tiles"])
RECON_COUNTS: dict[str, int] = BOARD["recon_tiles"]
WORMHOLE: int = BOARD["wormhole_distance"]
RECON_SLOTS: tuple[int, ...] = tuple(sorted(sp for sp, v in TRACK.items() if "recon_slot" in v))
#: The UFO never moves below this space (ruling).
UFO_FLOOR = 1


def mission_bodies(mission: str) -> frozenset[str]:
    """Bodies (moon groups / planets) that complete a mission tile such as ``"7/8"``."""
    return frozenset(BODY[int(x)] for x in mission.split("/") if int(x) in BODY)


MISSION_BODIES: dict[str, frozenset[str]] = {m: mission_bodies(m) for m in MISSIONS}
#: Option-id form of a mission ("/" is not allowed in option ids).
MISSION_OPT: dict[str, str] = {m: m.replace("/", "-") for m in MISSIONS}
OPT_MISSION: dict[str, str] = {v: k for k, v in MISSION_OPT.items()}


def recon_stack() -> list[str]:
    """The 20 reconnaissance tiles in a canonical order (shuffled by the engine)."""
    out: list[str] = []
    for kind, count in RECON_COUNTS.items():
        code = {"points_1": "p1", "points_2": "p2", "points_3": "p3"}.get(kind, kind)
        out.extend([code] * count)
    return out


RECON_KINDS = frozenset(recon_stack())
