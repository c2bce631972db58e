"""Kosmonavts: storing a state and loading it back, checked (``dump``, ``load``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.kit import check, clone

from .board import BODIES, CARD_IDS, DIR_IDS, MARKERS_ADVANCED, MARKERS_BASIC, NON_EARTH, ORBITS
from .common import (
    LANDING_NEXT,
    MAX_HYPER,
    MAX_SHIELDS,
    PHASES,
    ROUND_LIMIT,
    SCHEMA,
    TANK,
    marker_choices,
    tank,
)

# ------------------------------------------------------------------------- dump / load


def dump(s: Mapping[str, Any]) -> dict[str, Any]:
    return clone(dict(s))


def load(data: Mapping[str, Any]) -> dict[str, Any]:
    try:
        s = clone(dict(data))
        # states saved before the marker choice and the Gravity refuel ruling (R12, R15)
        s.setdefault("touchdown", None)
        s.setdefault("pulled", [False] * s["n"])
        _validate(s)
    except ValueError:
        raise
    except (KeyError, TypeError, AttributeError, IndexError) as exc:
        raise ValueError(f"bad kosmonavts state: {exc!r}") from exc
    return s


def _validate(s: dict[str, Any]) -> None:
    check(s.get("schema") == SCHEMA, "schema")
    check(s.get("game") == "kosmonavts", "game")
    n = s["n"]
    check(isinstance(n, int) and 2 <= n <= 4, "players")
    check(s["rules"] in ("basic", "advanced"), "rules")
    check(s["placement"] in ("random", "players"), "placement")
    check(s["phase"] in PHASES, "phase")
    check(isinstance(s["seed"], int) and isinstance(s["rng"], int), "rng")
    check(0 <= s["instructor"] < n, "instructor")
    check(isinstance(s["round"], int) and 0 <= s["round"] <= ROUND_LIMIT, "round")
    check(set(s["bodies"]) == set(BODIES), "bodies")
    for b, idx in s["bodies"].items():
        check(idx is None or (isinstance(idx, int) and 0 <= idx < len(ORBITS[b])), "orbit")
    cards = [*s["deck"], *s["face_up"], *s["discard"]]
    if s["active"] is not None:
        cards.append(s["active"])
    check(sorted(cards) == sorted(CARD_IDS), "event cards")
    check(len(s["ships"]) == n and len(s["missions"]) == n, "seats")
    for ship in s["ships"]:
        check(ship["fuel"] >= 0 and 0 <= ship["hyper"] <= MAX_HYPER, "fuel")
        check(tank(ship) <= TANK, "tank")
        check(0 <= ship["shields"] <= MAX_SHIELDS, "shields")
        check(len(ship["rose"]) == 6 and all(u >= 0 for u in ship["rose"]), "rose")
        check(ship["landed"] is None or ship["landed"] in BODIES, "landed")
        check(ship["last"] in BODIES, "last visited")
        check(all(b in NON_EARTH for b in ship["markers"]), "markers")
        check(ship["returned"] in (0, 1, 3, 4), "returned")
        check(len(ship["pos"]) == 2, "position")
    for mids in s["missions"]:
        for mid in mids:
            kind, body = mid.split(".")
            check(kind in ("m1", "m2") and body in NON_EARTH, "mission")
    if s["phase"] == "orders":
        check(s["orders"] is not None and len(s["orders"]) == n, "orders")
        for o in s["orders"]:
            for st in o["steps"]:
                check(st == "convert" or st.split(".")[1] in DIR_IDS, "order step")
    check(s["phase"] != "setup" or s["setup"] is not None, "setup")
    check(s["phase"] != "missions" or s["choice"] is not None, "mission choice")
    # the markers of every body add up to its full stack
    for b in NON_EARTH:
        held = sorted(
            [sh["markers"][b] for sh in s["ships"] if b in sh["markers"]] + s["stacks"].get(b, [])
        )
        if b in s["removed"]:
            check(not held, "removed body markers")
        else:
            full = MARKERS_ADVANCED[b] if s["rules"] == "advanced" else MARKERS_BASIC
            check(held == sorted(full), f"markers of {b}")
    check(s["over"] == (s["phase"] == "over"), "over flag")
    check(len(s["pulled"]) == n and all(isinstance(x, bool) for x in s["pulled"]), "pulled")
    td = s["touchdown"]
    if td is not None:
        check(td["phase"] in (1, 3, 4) and td["then"] in LANDING_NEXT, "touchdown")
        check(bool(td["queue"]), "touchdown queue")
        for seat, body in td["queue"]:
            check(0 <= seat < n and body in BODIES, "touchdown lander")
        seat, body = td["queue"][0]
        check(bool(marker_choices(s, seat, body)), "touchdown choice")
