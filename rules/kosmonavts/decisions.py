"""Kosmonavts: the decisions due, phase by phase (``pending``): each seat's options, its
prompt, and why an order click is refused."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.contract import Decision, Option

from .board import ARROWS, BODIES, CARDS, DIR_IDS, HYPER_ARROWS, ORBITS, dist
from .common import (
    _OPT,
    GRAVITY_RANGE,
    MISSION_STEP_CAP,
    STEP_CAP,
    P,
    _pos,
    body_pos,
    clock_hour,
    compose,
    marker_choices,
    order_arrows,
)


def _placement_options(s: Mapping[str, Any], seat: int) -> list[Option]:
    st = s["setup"]
    if st is None or st["turn"] != seat:
        return []
    if st["picked"] is not None:
        body = st["picked"]
        orbit = ORBITS[body]
        return [
            _OPT(f"space.{i}", "opt.space", n=i + 1, hour=clock_hour(h))
            for i, h in enumerate(orbit)
        ]
    if st["hands"] is not None:
        choices = st["hands"][seat]
    else:
        choices = [b for b in BODIES if s["bodies"][b] is None]
    return [_OPT(f"body.{b}", "body." + b) for b in choices]


# ------------------------------------------------------------------------ mission choice


def _mission_options(s: Mapping[str, Any], seat: int) -> list[Option]:
    ch = s["choice"][seat]
    if ch["done"]:
        return []
    dealt = s["dealt"][seat]
    opts: list[Option] = []
    if len(ch["keep"]) < 2 and ch["picks"] < MISSION_STEP_CAP:
        for i, mid in enumerate(dealt):
            if i not in ch["keep"]:
                opts.append(_OPT(f"keep.{i}", "mission." + mid))
    if ch["keep"] and ch["picks"] < MISSION_STEP_CAP:
        opts.append(_OPT("undo", "opt.undo"))
    if len(ch["keep"]) == 2:
        opts.append(_OPT("confirm", "opt.confirm_missions", "success"))
    return opts


# ---------------------------------------------------------------------------------- events


def _event_choice_options(s: Mapping[str, Any]) -> list[Option]:
    return [_OPT(f"event.{c}", "card." + c, "primary") for c in s["face_up"]]


def _gravity_targets(s: Mapping[str, Any], seat: int) -> list[str]:
    ship = s["ships"][seat]
    if ship["landed"] is not None:
        return []
    here = _pos(ship)
    best = GRAVITY_RANGE + 1
    out: list[str] = []
    for b in BODIES:
        p = body_pos(s, b)
        assert p is not None
        d = dist(here, p)
        if d > GRAVITY_RANGE:
            continue
        if d < best:
            best, out = d, [b]
        elif d == best:
            out.append(b)
    return out


def _response_options(s: Mapping[str, Any], seat: int) -> list[str]:
    """What a seat may answer to the active event card ([] = not concerned)."""
    kind = CARDS[s["active"]]["kind"]
    ship = s["ships"][seat]
    shield = ship["shields"] > 0
    if kind == "wind":
        return ["accept", "shield"] if shield else ["accept"]
    if kind == "energy":
        return ["pay", "skip"] if shield else ["skip"]
    if kind == "gravity":
        targets = _gravity_targets(s, seat)
        if not targets:
            return []
        return [f"pull.{b}" for b in targets] + (["shield"] if shield else [])
    if kind == "asteroids":
        return ["accept", "shield"] if shield and ship["fuel"] > 0 else ["accept"]
    if kind == "flares":
        return ["accept", "shield"] if shield else ["accept"]
    return ["accept"]


def _response_label(kind: str, opt: str) -> str:
    if opt.startswith("pull."):
        return "opt.pull." + opt[5:]
    return f"opt.{kind}.{opt}"


# ---------------------------------------------------------------------------------- orders

_ADD = [_OPT(f"add.{d}", f"opt.add.{d}", arrow=ARROWS[i]) for i, d in enumerate(DIR_IDS)]
_ADDH = [_OPT(f"addh.{d}", f"opt.addh.{d}", arrow=HYPER_ARROWS[i]) for i, d in enumerate(DIR_IDS)]


_CONVERT = _OPT("convert", "opt.convert")
_UNDO = _OPT("undo", "opt.undo", "danger")
_STAY = _OPT("stay", "opt.stay", "success")
_STAY_PULLED = _OPT("stay", "opt.stay_pulled", "success")
_STAYFULL = _OPT("stayfull", "opt.stayfull", "success")
_EVAC = _OPT("evac", "opt.evac", "danger")
#: The closing option of an order, by (landed, cubes placed).
_CONFIRM: dict[tuple[bool, int], Option] = {}


def _confirm(landed: bool, cubes: int) -> Option:
    try:
        return _CONFIRM[landed, cubes]
    except KeyError:
        label = "opt.takeoff" if landed else "opt.confirm"
        opt = _CONFIRM[landed, cubes] = _OPT("confirm", label, "success", cubes=cubes)
        return opt


def _order_options(
    s: Mapping[str, Any], seat: int, c: Mapping[str, Any] | None = None
) -> list[Option]:
    """The options of ``seat``'s order being composed (``c``: its :func:`compose`, when the
    caller has it already)."""
    o = s["orders"][seat]
    if o["done"]:
        return []
    ship = s["ships"][seat]
    if c is None:
        c = compose(ship, o["steps"])
    landed = ship["landed"] is not None
    more = o["picks"] < STEP_CAP
    opts: list[Option] = []
    if more and c["cubes"] < s["limits"][seat]:
        if c["fuel"] > 0:
            opts += _ADD
        if c["hyper"] > 0:
            opts += _ADDH
    if more and not c["converted"] and c["shields"] > 0:
        opts.append(_CONVERT)
    if more and o["steps"]:
        opts.append(_UNDO)
    if landed and c["cubes"] == 0:
        pulled = s["pulled"][seat]  # landed by Gravity this round: stays, no refuel (R15)
        opts.append(_STAY_PULLED if pulled else _STAY)
        if s["rules"] == "advanced" and c["shields"] > 0 and not pulled:
            opts.append(_STAYFULL)
    else:
        opts.append(_confirm(landed, c["cubes"]))
    if not landed and c["cubes"] == 0:
        opts.append(_EVAC)
    return opts


def _order_refusal(s: Mapping[str, Any], seat: int, choice: str) -> str:
    """Why an order option is not offered (an ``error`` code)."""
    ship = s["ships"][seat]
    o = s["orders"][seat]
    c = compose(ship, o["steps"])
    landed = ship["landed"] is not None
    more = o["picks"] < STEP_CAP
    kind = choice.split(".")[0]
    if kind in ("add", "addh", "convert", "undo") and not more:
        return "step_limit"
    if kind in ("add", "addh"):
        if c["cubes"] >= s["limits"][seat]:
            return "flares" if s["limits"][seat] == 0 else "cube_limit"
        return "no_fuel" if kind == "add" else "no_hyper"
    if choice == "convert":
        return "already_converted" if c["converted"] else "no_shield"
    if choice == "undo":
        return "nothing_to_undo"
    if choice == "confirm":
        return "must_stay"
    if choice in ("stay", "stayfull"):
        if not landed:
            return "not_landed"
        if c["cubes"]:
            return "cubes_placed"
        if s["rules"] == "basic":
            return "basic_refuel"
        return "pulled_no_refuel" if s["pulled"][seat] else "no_shield"
    if choice == "evac":
        return "evac_landed" if landed else "cubes_placed"
    return "not_offered"


def _landing_options(s: Mapping[str, Any], seat: int) -> list[Option]:
    body = s["landing"]["body"][seat]
    if body is None or s["landing"]["answers"][seat] is not None:
        return []
    return [
        _OPT("land", "opt.land." + body, "success"),
        _OPT("noland", "opt.noland"),
    ]


# ---------------------------------------------------------------------------- pending


def seat_options(s: Mapping[str, Any], seat: int) -> list[Option]:
    """Options open to ``seat`` right now ([] if it has nothing to decide)."""
    ph = s["phase"]
    if s["over"]:
        return []
    if s["touchdown"] is not None:
        return _marker_options(s, seat)
    if ph == "setup":
        return _placement_options(s, seat)
    if ph == "missions":
        return _mission_options(s, seat)
    if ph == "event":
        if s["active"] is None:
            return _event_choice_options(s) if seat == s["instructor"] else []
        r = s["respond"]
        if not r["asked"][seat] or r["answers"][seat] is not None:
            return []
        kind = CARDS[s["active"]]["kind"]
        return [
            _OPT(o, _response_label(kind, o), "danger" if o == "shield" else "secondary")
            for o in _response_options(s, seat)
        ]
    if ph == "orders":
        return _order_options(s, seat)
    if s["landing"] is not None:
        return _landing_options(s, seat)
    return []


def has_options(s: Mapping[str, Any], seat: int) -> bool:
    """Whether ``seat`` has a decision open (``bool(seat_options(s, seat))``, quicker while
    orders are composed: an order not yet given always offers at least its closing option)."""
    if s["phase"] == "orders" and s["touchdown"] is None and not s["over"]:
        return not s["orders"][seat]["done"]
    return bool(seat_options(s, seat))


def _marker_options(s: Mapping[str, Any], seat: int) -> list[Option]:
    head, body = s["touchdown"]["queue"][0]
    if seat != head:
        return []
    values = marker_choices(s, seat, body)
    return [
        _OPT(f"marker.{v}", "opt.marker", "primary" if i == 0 else "secondary", value=v)
        for i, v in enumerate(values)
    ]


def _prompt(
    s: Mapping[str, Any], seat: int, c: Mapping[str, Any] | None = None
) -> tuple[str, dict[str, Any], bool]:
    ph = s["phase"]
    if s["touchdown"] is not None:
        return P + "prompt.marker." + s["touchdown"]["queue"][0][1], {}, False
    if ph == "setup":
        st = s["setup"]
        if st["picked"] is not None:
            return P + "prompt.place." + st["picked"], {}, False
        return P + "prompt.place_body", {}, False
    if ph == "missions":
        return P + "prompt.missions", {"kept": len(s["choice"][seat]["keep"])}, True
    if ph == "event":
        if s["active"] is None:
            return P + "prompt.event", {}, False
        return P + "prompt.respond." + CARDS[s["active"]]["kind"], {}, False
    if ph == "orders":
        ship = s["ships"][seat]
        if c is None:
            c = compose(ship, s["orders"][seat]["steps"])
        args = {
            "cubes": c["cubes"],
            "limit": s["limits"][seat],
            "fuel": c["fuel"],
            "hyper": c["hyper"],
            "arrows": order_arrows(s["orders"][seat]["steps"]) or "-",
        }
        key = "prompt.order"
        if ship["landed"] is not None:
            key = "prompt.order_pulled" if s["pulled"][seat] else "prompt.order_landed"
        return P + key, args, True
    ld = s["landing"]
    return P + f"prompt.land{ld['phase']}." + ld["body"][seat], {}, False


def pending(s: Mapping[str, Any]) -> list[Decision]:
    if s["over"]:
        return []
    out = []
    if s["phase"] == "orders" and s["touchdown"] is None:
        # the orders being composed: each composed once for its options and its prompt
        for seat, o in enumerate(s["orders"]):
            if not o["done"]:
                c = compose(s["ships"][seat], o["steps"])
                opts = _order_options(s, seat, c)
                prompt, args, private = _prompt(s, seat, c)
                out.append(Decision(seat, prompt, tuple(opts), args, private))
        return out
    for seat in range(s["n"]):
        opts = seat_options(s, seat)
        if opts:
            prompt, args, private = _prompt(s, seat)
            out.append(Decision(seat, prompt, tuple(opts), args, private))
    return out
