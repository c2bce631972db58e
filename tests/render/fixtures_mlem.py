"""Hand-built MLEM views (what the rules engine's ``view`` produces) for the renderer tests.

Each fixture is ``(view, names)``; views follow the documented view shape exactly. Public
views carry no ``private`` key; :func:`with_private` adds one seat's secrets.
"""

from __future__ import annotations

import copy
from typing import Any

from rules.mlem.board import ABILITIES

MOON_SIZES = {
    "M1": 2,
    "M2": 2,
    "M3": 3,
    "M4": 2,
    "M5": 2,
    "M6": 2,
    "M7": 2,
    "M8": 2,
    "M9": 3,
    "M10": 2,
}


def base_view(players: int) -> dict[str, Any]:
    return {
        "game": "mlem",
        "round": 1,
        "phase": "mlem.phase.launch",
        "over": False,
        "players": players,
        "scores": [0] * players,
        "start_seat": 0,
        "commander": 0,
        "rocket": {"space": 0, "crew": []},
        "dice": {"pool": 6, "discarded": 0, "roll": [], "usable": []},
        "moons": {m: [None] * k for m, k in MOON_SIZES.items()},
        "planets": {p: [] for p in ("P1", "P2", "P3", "P4", "P5")},
        "deep_space": {"comet": [], "galaxy": []},
        "disasters": 0,
        "boards": [
            {"left": list(ABILITIES), "placed": 0, "boosters_used": 0} for _ in range(players)
        ],
        "objectives": {
            "four_planets": None,
            "three_on_planet": None,
            "four_moons": None,
            "two_deep": None,
        },
        "ufo": None,
        "expedition": None,
        "recon": None,
        "missions": None,
    }


def _remove(view: dict, seat: int, *abilities: str) -> None:
    b = view["boards"][seat]
    for a in abilities:
        if a in b["left"]:
            b["left"].remove(a)
            b["placed"] += 1


def two_launch() -> tuple[dict, list[str]]:
    """2 players, take-off of the first voyage, no variants, nothing rolled."""
    v = base_view(2)
    v["rocket"] = {"space": 3, "crew": [{"seat": 0, "astronaut": "satellite"}]}
    _remove(v, 0, "satellite")
    return v, ["Ana", "Bob"]


def three_midgame() -> tuple[dict, list[str]]:
    """3 players, voyage 9, exploring, UFO + reconnaissance on (the docs/ picture)."""
    v = base_view(3)
    v.update(round=9, phase="mlem.phase.explore", start_seat=2, commander=2, disasters=4)
    v["scores"] = [17, 12, 21]
    v["rocket"] = {
        "space": 12,
        "crew": [
            {"seat": 2, "astronaut": "planet_doubler"},
            {"seat": 0, "astronaut": "deep_doubler"},
            {"seat": 1, "astronaut": "booster"},
        ],
    }
    v["dice"] = {
        "pool": 5,
        "discarded": 1,
        "roll": ["A", 2, 4, 3, 2],
        "usable": [True, True, True, False, True],
    }
    v["moons"]["M1"] = [1, 0]
    v["moons"]["M2"] = [None, 2]
    v["moons"]["M3"] = [None, 0, 1]
    v["moons"]["M5"] = [None, 2]
    v["planets"]["P1"] = [[0, 1], [2, 2]]
    v["planets"]["P2"] = [[1, 2], [0, 1]]
    v["planets"]["P3"] = [[2, 1]]
    v["deep_space"] = {"comet": [], "galaxy": []}
    _remove(v, 0, "moon_doubler", "shifter", "deep_doubler", "parachute")
    _remove(v, 1, "satellite", "parachute", "booster", "moon_doubler")
    _remove(v, 2, "shifter", "saboteur", "planet_doubler", "moon_doubler")
    v["boards"][1]["boosters_used"] = 1
    v["ufo"] = {"space": 17, "tiles_left": 4, "taken": [1, 0, 0]}
    v["expedition"] = {
        "tile": {"id": "E7", "ufo": 2, "dice": 5, "ability": "extra", "extra": [1, 1]},
        "left": 5,
        "ability_available": True,
    }
    v["recon"] = {
        "slots": {
            "4": {"kind": "points", "value": 2},
            "8": {"kind": "wormhole"},
            "13": {"kind": "recover"},
            "17": {"kind": "points", "value": 3},
            "21": {"kind": "points", "value": 1},
        },
        "left": 11,
        "taken": [1, 2, 1],
    }
    return v, ["Lucía", "Marco", "Kim"]


def five_all_variants() -> tuple[dict, list[str]]:
    """5 players, every variant on, full crew of 5, long and accented names, landing."""
    v = base_view(5)
    v.update(round=14, phase="mlem.phase.land", start_seat=3, commander=3, disasters=7)
    v["scores"] = [31, 24, 40, 18, 27]
    v["rocket"] = {
        "space": 21,
        "crew": [
            {"seat": 3, "astronaut": "saboteur"},
            {"seat": 4, "astronaut": "shifter"},
            {"seat": 0, "astronaut": "planet_doubler"},
            {"seat": 1, "astronaut": "parachute"},
            {"seat": 2, "astronaut": "deep_doubler"},
        ],
    }
    v["dice"] = {
        "pool": 2,
        "discarded": 4,
        "roll": [2, 1, 3, "A", 4, 2],
        "usable": [True, False, False, True, False, True],
    }
    v["moons"].update(
        {
            "M1": [4, 1],
            "M2": [3, 0],
            "M3": [2, 4, 1],
            "M4": [None, 0],
            "M5": [3, 2],
            "M6": [None, 1],
            "M7": [None, 4],
            "M8": [2, None],
            "M9": [None, None, 3],
            "M10": [None, None],
        }
    )
    v["planets"].update(
        {
            "P1": [[1, 1], [3, 2], [0, 1]],
            "P2": [[4, 3], [2, 1], [0, 2], [1, 1], [3, 1]],
            "P3": [[0, 1], [2, 2]],
            "P4": [[3, 1]],
            "P5": [],
        }
    )
    v["deep_space"] = {"comet": [2], "galaxy": [0, 1, 0]}
    for s in range(5):
        _remove(v, s, *ABILITIES[s : s + 4])
    v["objectives"].update({"four_moons": 1, "three_on_planet": 4})
    v["ufo"] = {"space": 9, "tiles_left": 2, "taken": [1, 0, 1, 1, 0]}
    v["expedition"] = {
        "tile": {"id": "E13", "ufo": 2, "dice": 4, "ability": "reroll"},
        "left": 1,
        "ability_available": False,
    }
    v["recon"] = {
        "slots": {
            "4": {"kind": "recover"},
            "8": None,
            "13": {"kind": "points", "value": 1},
            "17": {"kind": "wormhole"},
            "21": None,
        },
        "left": 0,
        "taken": [2, 1, 3, 0, 2],
    }
    v["missions"] = {"kept": [3, 3, 3, 3, 3], "choosing": []}
    names = [
        "Ñandú Peñalosa",
        "José María Fernández de Córdoba",
        "Íñigo",
        "¡Ágata! ¿Sí?",
        "Üwe the Extremely Long Display Name",
    ]
    return v, names


def five_deep_space() -> tuple[dict, list[str]]:
    """5 players, the rocket reached deep space; comet and galaxy crowded."""
    v = base_view(5)
    v.update(round=20, phase="mlem.phase.land", start_seat=1, commander=1, disasters=10)
    v["last_voyage"] = True  # an extra key some engines add: rendered when present
    v["scores"] = [44, 51, 38, 47, 29]
    v["rocket"] = {
        "space": 26,
        "crew": [{"seat": 1, "astronaut": "deep_doubler"}, {"seat": 2, "astronaut": "booster"}],
    }
    v["dice"] = {"pool": 3, "discarded": 3, "roll": [], "usable": []}
    v["deep_space"] = {"comet": [0, 3, 1, 1], "galaxy": [2, 4, 0, 3, 3, 4, 2, 1, 0]}
    v["objectives"].update({"two_deep": 3, "four_planets": 0, "four_moons": 2})
    for s in range(5):
        _remove(v, s, *ABILITIES[:6])
    return v, ["A", "B", "C", "D", "E"]


def four_over() -> tuple[dict, list[str]]:
    """4 players, game over (a tie for first), missions variant only."""
    v = base_view(4)
    v.update(
        round=23, phase="mlem.phase.over", over=True, start_seat=None, commander=None, disasters=11
    )
    v["scores"] = [52, 61, 61, 47]
    v["rocket"] = {"space": 0, "crew": []}
    v["dice"] = {"pool": 6, "discarded": 0, "roll": [], "usable": []}
    v["moons"].update({"M6": [1, 3], "M9": [0, 2, 1], "M10": [3, None]})
    v["planets"].update({"P4": [[2, 3], [1, 1]], "P5": [[0, 1], [3, 2], [1, 1]]})
    v["deep_space"] = {"comet": [1, 2], "galaxy": [0, 3]}
    v["objectives"] = {"four_planets": 1, "three_on_planet": 2, "four_moons": 0, "two_deep": 3}
    v["missions"] = {"kept": [3, 3, 3, 3], "choosing": []}
    for s in range(4):
        _remove(v, s, *ABILITIES[: 5 + s % 3])
    return v, ["Alba", "Bruno", "Carmen", "Diego"]


def three_choosing() -> tuple[dict, list[str]]:
    """3 players at the start, missions being chosen, expedition pile empty."""
    v = base_view(3)
    v.update(round=1, phase="mlem.phase.launch")
    v["missions"] = {"kept": [3, 0, 0], "choosing": [1, 2]}
    v["ufo"] = {"space": 26, "tiles_left": 5, "taken": [0, 0, 0]}
    v["expedition"] = {"tile": None, "left": 0, "ability_available": False}
    return v, ["Sam", "Noor", "Émile"]


def two_crash_explore() -> tuple[dict, list[str]]:
    """2 players exploring with a roll where nothing fits (a crash is coming)."""
    v = base_view(2)
    v.update(round=5, phase="mlem.phase.explore", start_seat=1, commander=1, disasters=2)
    v["scores"] = [6, 9]
    v["rocket"] = {
        "space": 18,
        "crew": [{"seat": 1, "astronaut": "parachute"}, {"seat": 0, "astronaut": "moon_doubler"}],
    }
    v["dice"] = {"pool": 1, "discarded": 5, "roll": [1], "usable": [False]}
    v["moons"]["M3"] = [1, None, 0]
    v["planets"]["P2"] = [[0, 1], [1, 1]]
    return v, ["Ana", "Bob"]


PUBLIC = {
    "two_launch": two_launch,
    "three_midgame": three_midgame,
    "five_all_variants": five_all_variants,
    "five_deep_space": five_deep_space,
    "four_over": four_over,
    "three_choosing": three_choosing,
    "two_crash_explore": two_crash_explore,
}


def with_private(view: dict, seat: int, private: dict) -> dict:
    v = copy.deepcopy(view)
    v["seat"] = seat
    v["private"] = private
    return v


PRIVATE: dict[str, tuple[Any, int, dict]] = {
    "missions_progress": (
        "five_all_variants",
        0,
        {
            "missions": [
                {"id": "7/8", "done": True},
                {"id": "15", "done": False},
                {"id": "22/23", "done": True},
            ],
            "dealt": [],
            "hidden_points": {"ufo": 5, "recon": 4},
        },
    ),
    "missions_choosing": (
        "three_choosing",
        1,
        {
            "missions": [],
            "dealt": ["6", "11/12", "18/19", "24/25"],
            "hidden_points": {"ufo": 0, "recon": 0},
        },
    ),
    "hidden_only": (
        "three_midgame",
        0,
        {"missions": [], "dealt": [], "hidden_points": {"ufo": 5, "recon": 2}},
    ),
}


def private_view(name: str) -> tuple[dict, list[str]]:
    base, seat, priv = PRIVATE[name]
    view, names = PUBLIC[base]()
    return with_private(view, seat, priv), names


if __name__ == "__main__":  # python -m tests.render.fixtures_mlem [docs/mlem_table.png]
    import sys
    from pathlib import Path

    from render.mlem import render_table

    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/mlem_table.png")
    view, names = three_midgame()
    out.write_bytes(render_table(view, names, "en"))
    print(f"wrote {out} ({out.stat().st_size // 1024} KB)")
