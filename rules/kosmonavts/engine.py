"""Kosmonavts rules engine: set-up, applying a move, the phases' transitions. Split by what
it does: ``common`` (constants and board helpers), ``decisions`` (what each seat is asked),
``scoring`` (missions, end and result), ``persist`` (dump and a checked load); the names
other code imports from here are re-exported (``__all__``).

The state is plain JSON data (dicts, lists, ints, strings, bools, None). ``apply`` never
changes its input: it works on a deep copy, except for order-composition clicks, where only
the seat's order is copied, and for an answer to an event or a landing question while another
seat's is still awaited, where only the answers are copied; the rest is shared with the
input. States are therefore immutable values; ``dump`` returns an independent copy. See the
package docstring for the view schema and the rulings.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from core.contract import Event, IllegalMove
from rules.kit import clone

from .board import (
    ARROWS,
    BODIES,
    CARD_IDS,
    CARDS,
    DIR_INDEX,
    EARTH,
    M1_BODIES,
    M2_ALPHA,
    M2_BETA,
    MARKERS_ADVANCED,
    MARKERS_BASIC,
    MARKERS_EARTH,
    MISSION_POINTS,
    NON_EARTH,
    ORBITS,
    add_units,
    end_hex,
    flight_hazard,
)
from .common import (
    _EV,
    CUBES_PER_ORDER,
    ERRORS,
    MAX_HYPER,
    MAX_SHIELDS,
    MISSION_STEP_CAP,
    ORDER_FINALS,
    ROUND_LIMIT,
    SCHEMA,
    STEP_CAP,
    TANK,
    P,
    _add_hyper,
    _body_at,
    _pos,
    _rng,
    _seat_order,
    body_next_pos,
    body_pos,
    can_get_marker,
    clock_hour,
    compose,
    marker_choices,
    marker_top_values,
    order_arrows,
    place_args,
    return_ready,
    tank,
    zone_key,
)
from .decisions import _order_refusal, _response_options, has_options, pending, seat_options
from .persist import dump, load
from .scoring import _game_over, mission_results, result, running_scores, tiebreak_key

#: The engine's interface, with the names other modules and tests import from here
#: (re-exported from the modules the engine is split into).
__all__ = [
    "CARDS",
    "ERRORS",
    "MAX_HYPER",
    "MAX_SHIELDS",
    "MISSION_POINTS",
    "ORDER_FINALS",
    "ROUND_LIMIT",
    "STEP_CAP",
    "TANK",
    "P",
    "_body_at",
    "_deal_missions",
    "apply",
    "body_next_pos",
    "body_pos",
    "can_get_marker",
    "clock_hour",
    "clone",
    "compose",
    "dump",
    "flight_hazard",
    "has_options",
    "load",
    "marker_choices",
    "marker_top_values",
    "mission_results",
    "new",
    "pending",
    "place_args",
    "result",
    "return_ready",
    "running_scores",
    "seat_options",
    "tiebreak_key",
    "zone_key",
]

# -------------------------------------------------------------------------------- set-up


def new(players: int, options: Mapping[str, str], seed: int) -> dict[str, Any]:
    if not 2 <= players <= 4:
        raise ValueError("kosmonavts is for 2-4 players")
    rules = options.get("rules", "basic")
    placement = options.get("planets", "random")
    if rules not in ("basic", "advanced") or placement not in ("random", "players"):
        raise ValueError(f"bad options {dict(options)!r}")
    n = players
    start_fuel, start_hyper = (9, 1) if rules == "basic" else (8, 2)
    s: dict[str, Any] = {
        "schema": SCHEMA,
        "game": "kosmonavts",
        "n": n,
        "rules": rules,
        "placement": placement,
        "seed": int(seed),
        "rng": 0,
        "round": 0,
        "phase": "setup",
        "over": False,
        "end": None,
        "instructor": 0,
        "bodies": {b: None for b in BODIES},
        "removed": [],
        "stacks": {},
        "earth_stack": list(MARKERS_EARTH),
        "landed_by": {b: [] for b in BODIES},
        "deck": [],
        "face_up": [],
        "discard": [],
        "active": None,
        "limits": [CUBES_PER_ORDER] * n,
        "ships": [
            {
                "pos": [0, 0],
                "landed": EARTH,
                "last": EARTH,
                "rose": [0] * 6,
                "fuel": start_fuel,
                "hyper": start_hyper,
                "shields": MAX_SHIELDS,
                "markers": {},
                "earth": 0,
                "returned": 0,
                "evac": False,
            }
            for _ in range(n)
        ],
        "missions": [[] for _ in range(n)],
        "dealt": None,
        "choice": None,
        "setup": None,
        "respond": None,
        "orders": None,
        "landing": None,
        "staying": [None] * n,
        "pulled": [False] * n,
        "touchdown": None,
    }
    rng = _rng(s)
    s["instructor"] = rng.randrange(n)
    deck = list(CARD_IDS)
    rng.shuffle(deck)
    s["face_up"] = [deck.pop() for _ in range(3)]
    s["deck"] = deck
    if rules == "advanced" and n < 4:
        removed = set(rng.sample(NON_EARTH, 2 if n == 3 else 3))
        s["removed"] = [b for b in NON_EARTH if b in removed]
    for b in NON_EARTH:
        if b in s["removed"]:
            continue
        s["stacks"][b] = list(MARKERS_ADVANCED[b] if rules == "advanced" else MARKERS_BASIC)
    _deal_missions(s, rng)
    if placement == "random":
        for b in BODIES:
            s["bodies"][b] = rng.randrange(len(ORBITS[b]))
        _after_placement(s, [])
    else:
        first = s["instructor"]
        if rules == "basic":
            tokens = list(BODIES)
            rng.shuffle(tokens)
            dealt: list[list[str]] = [[] for _ in range(n)]
            for i, b in enumerate(tokens):
                dealt[(first + i) % n].append(b)
            hands: list[list[str]] | None = [[b for b in BODIES if b in h] for h in dealt]
        else:
            hands = None
        s["setup"] = {"turn": first, "hands": hands, "picked": None}
        if rules == "advanced":
            s["setup"]["picked"] = EARTH  # Earth is always placed first (advanced step 4)
        _auto_pick_single(s)
    return s


def _deal_missions(s: dict[str, Any], rng: random.Random) -> None:
    n = s["n"]
    if s["rules"] == "basic":
        alpha = list(M2_ALPHA)
        beta = list(M2_BETA)
        m1 = list(M1_BODIES)
        rng.shuffle(alpha)
        rng.shuffle(beta)
        rng.shuffle(m1)
        discard: list[str] = []
        for seat in range(n):
            a, b = alpha.pop(), beta.pop()
            while True:
                if not m1:  # R25: the discarded Mission 1 cards are shuffled again
                    m1 = discard
                    discard = []
                    rng.shuffle(m1)
                c = m1.pop()
                if c not in (a, b):
                    break
                discard.append(c)
            s["missions"][seat] = ["m1." + c, "m2." + a, "m2." + b]
        return
    m1 = [b for b in M1_BODIES if b not in s["removed"]]
    m2 = [b for b in (*M2_ALPHA, *M2_BETA) if b not in s["removed"]]
    rng.shuffle(m1)
    rng.shuffle(m2)
    s["dealt"] = []
    for _seat in range(n):
        s["dealt"].append(["m1." + m1.pop(), "m1." + m1.pop(), "m2." + m2.pop(), "m2." + m2.pop()])
    s["choice"] = [{"keep": [], "picks": 0, "done": False} for _ in range(n)]


def _after_placement(s: dict[str, Any], events: list[Event]) -> None:
    s["setup"] = None
    earth = body_pos(s, EARTH)
    assert earth is not None
    for ship in s["ships"]:
        ship["pos"] = list(earth)
    if s["rules"] == "advanced":
        s["phase"] = "missions"
        return
    _start_round(s, events, 1)


def _apply_placement(s: dict[str, Any], seat: int, choice: str, events: list[Event]) -> None:
    st = s["setup"]
    kind, arg = choice.split(".", 1)
    if kind == "body":
        st["picked"] = arg
        return
    body = st["picked"]
    idx = int(arg)
    s["bodies"][body] = idx
    events.append(_EV("placed." + body, seat, n=idx + 1, hour=clock_hour(ORBITS[body][idx])))
    st["picked"] = None
    if st["hands"] is not None:
        st["hands"][seat].remove(body)
    unplaced = [b for b in BODIES if s["bodies"][b] is None]
    if not unplaced:
        _after_placement(s, events)
        return
    n = s["n"]
    nxt = (seat + 1) % n
    if st["hands"] is not None:
        while not st["hands"][nxt]:
            nxt = (nxt + 1) % n
    elif len(unplaced) == 1:
        st["picked"] = unplaced[0]
    st["turn"] = nxt
    _auto_pick_single(s)


def _auto_pick_single(s: dict[str, Any]) -> None:
    """A seat holding a single body token has nothing to choose but its space."""
    st = s["setup"]
    if st is None or st["picked"] is not None or st["hands"] is None:
        return
    own = st["hands"][st["turn"]]
    if len(own) == 1:
        st["picked"] = own[0]


def _apply_mission(s: dict[str, Any], seat: int, choice: str, events: list[Event]) -> None:
    ch = s["choice"][seat]
    if choice == "confirm":
        ch["done"] = True
        s["missions"][seat] = [s["dealt"][seat][i] for i in sorted(ch["keep"])]
        events.append(_EV("missions_chosen", seat))
        if all(c["done"] for c in s["choice"]):
            _start_round(s, events, 1)
        return
    ch["picks"] += 1
    if choice == "undo":
        ch["keep"].pop()
    else:
        ch["keep"].append(int(choice.split(".")[1]))
    if ch["picks"] >= MISSION_STEP_CAP and len(ch["keep"]) < 2:
        # out of picks: keep the first unkept cards so that confirm is possible
        for i in range(4):
            if len(ch["keep"]) < 2 and i not in ch["keep"]:
                ch["keep"].append(i)


# -------------------------------------------------------------------------------- rounds


def _start_round(s: dict[str, Any], events: list[Event], rnd: int) -> None:
    s["round"] = rnd
    s["limits"] = [CUBES_PER_ORDER] * s["n"]
    s["staying"] = [None] * s["n"]
    s["pulled"] = [False] * s["n"]
    for ship in s["ships"]:
        ship["evac"] = False
    events.append(_EV("round", None, round=rnd, instructor_seat=s["instructor"]))
    if rnd == 1:
        _start_orders(s, events)
    else:
        s["phase"] = "event"
        s["active"] = None
        s["respond"] = None


def _choose_event(s: dict[str, Any], seat: int, card: str, events: list[Event]) -> None:
    c = CARDS[card]
    s["face_up"].remove(card)
    s["active"] = card
    if c["kind"] == "wind":
        events.append(_EV("card_wind", seat, n=c["cubes"], arrow=ARROWS[DIR_INDEX[c["dir"]]]))
    else:
        events.append(_EV("card_" + c["kind"], seat))
    asked = [len(_response_options(s, k)) > 1 for k in range(s["n"])]
    s["respond"] = {"asked": asked, "answers": [None] * s["n"]}
    if not any(asked):
        _resolve_event(s, events)


def _apply_response(s: dict[str, Any], seat: int, choice: str, events: list[Event]) -> None:
    s["respond"]["answers"][seat] = choice
    events.append(_EV("answered", seat))
    r = s["respond"]
    if all(a is not None for a, q in zip(r["answers"], r["asked"], strict=True) if q):
        _resolve_event(s, events)


def _resolve_event(s: dict[str, Any], events: list[Event]) -> None:
    card = CARDS[s["active"]]
    kind = card["kind"]
    answers = s["respond"]["answers"]
    pulled: list[tuple[int, str]] = []
    for seat in _seat_order(s):
        ship = s["ships"][seat]
        opts = _response_options(s, seat)
        if not opts:
            continue
        ans = answers[seat] if answers[seat] is not None else opts[0]
        if ans == "shield":
            ship["shields"] -= 1
            events.append(_EV("shield_avoided", seat, shields=ship["shields"]))
            continue
        if kind == "wind":
            d = DIR_INDEX[card["dir"]]
            add_units(ship["rose"], d, card["cubes"])
            events.append(_EV("wind", seat, n=card["cubes"], arrow=ARROWS[d]))
        elif kind == "energy":
            if ans == "pay":
                ship["shields"] -= 1
                gain = min(card["fuel"], TANK - tank(ship))
                ship["fuel"] += gain
                events.append(_EV("energy", seat, fuel=gain, shields=ship["shields"]))
        elif kind == "refuel":
            events.append(_EV("hyper_" + _add_hyper(ship), seat))
        elif kind == "thrust":
            s["limits"][seat] = card["cubes"]
        elif kind == "gravity":
            pulled.append((seat, ans.split(".", 1)[1]))
        elif kind == "asteroids":
            lost = min(card["fuel"], ship["fuel"])
            ship["fuel"] -= lost
            events.append(_EV("asteroids", seat, fuel=lost))
        elif kind == "flares":
            s["limits"][seat] = card["cubes"]
            events.append(_EV("flares", seat))
    if kind == "thrust":
        events.append(_EV("thrust", None, n=card["cubes"]))
    for seat, body in pulled:
        events.append(_EV("pulled." + body, seat))
    for ship in s["ships"]:  # clamp (the operations above never overflow; kept as a guard)
        ship["shields"] = max(0, min(MAX_SHIELDS, ship["shields"]))
        ship["fuel"] = max(0, min(TANK - ship["hyper"], ship["fuel"]))
    s["respond"] = None
    _land(s, events, pulled, 1, "event")


def _after_event(s: dict[str, Any], events: list[Event]) -> None:
    """The end of phase 1, once every Gravity landing is done: the next card, then orders."""
    s["discard"].append(s["active"])
    s["active"] = None
    s["respond"] = None
    if not s["deck"]:
        rng = _rng(s)
        s["deck"] = s["discard"]
        s["discard"] = []
        rng.shuffle(s["deck"])
        events.append(_EV("reshuffled"))
    drawn = s["deck"].pop()
    s["face_up"].append(drawn)
    events.append(_EV("card_drawn", None, reveals=True, card=drawn))
    _start_orders(s, events)


def _start_orders(s: dict[str, Any], events: list[Event]) -> None:
    s["phase"] = "orders"
    s["orders"] = [{"steps": [], "picks": 0, "done": False, "final": None} for _ in range(s["n"])]


def _apply_order(s: dict[str, Any], seat: int, choice: str, events: list[Event]) -> None:
    o = s["orders"][seat]
    if choice in ORDER_FINALS:
        o["final"] = choice
        o["done"] = True
        # R27: a given order is final. ``reveals`` tells the host it may never be taken back
        # (the last one also discloses every secret order at once).
        events.append(_EV("order_confirmed", seat, reveals=True))
        if all(x["done"] for x in s["orders"]):
            _resolve_orders(s, events)
        return
    o["picks"] += 1
    if choice == "undo":
        o["steps"].pop()
    else:
        o["steps"].append(choice)


# -------------------------------------------------------------------------- flight phase


def _resolve_orders(s: dict[str, Any], events: list[Event]) -> None:
    s["phase"] = "flight"
    orders = s["orders"]
    s["orders"] = None
    movers: list[int] = []
    for seat in _seat_order(s):
        o = orders[seat]
        ship = s["ships"][seat]
        c = compose(ship, o["steps"])
        if c["converted"]:
            events.append(_EV("converted", seat, shields=c["shields"]))
        ship["fuel"], ship["hyper"], ship["shields"] = c["fuel"], c["hyper"], c["shields"]
        ship["rose"] = c["rose"]
        final = o["final"]
        if final in ("stay", "stayfull"):
            ship["rose"] = [0] * 6  # staying landed: solar-wind cubes are discarded (R4)
            if s["pulled"][seat]:  # R15: landed only this round (Gravity): no refuel
                events.append(_EV("order_stay_pulled", seat))
            else:
                s["staying"][seat] = final
                events.append(_EV("order_" + final, seat))
        elif final == "evac":
            events.append(_EV("order_evac", seat))
            _evacuate(s, events, seat, "request")
        else:
            if c["cubes"]:
                events.append(
                    _EV("order", seat, cubes=c["cubes"], arrows=order_arrows(o["steps"]))
                )
            else:
                events.append(_EV("order_none", seat))
            if ship["landed"] is not None:
                events.append(_EV("takeoff." + ship["landed"], seat))
                ship["landed"] = None
            movers.append(seat)
    candidates: dict[int, str] = {}
    for seat in movers:
        ship = s["ships"][seat]
        start = _pos(ship)
        hazard = flight_hazard(start, ship["rose"])
        if hazard in ("sun", "off_board"):
            _evacuate(s, events, seat, hazard)
            continue
        end = end_hex(start, ship["rose"])
        ship["pos"] = [end[0], end[1]]
        where = place_args(s, end)
        events.append(_EV("moved" if where["gap"] else "moved_on", seat, **where))
        if hazard == "danger_sector":
            if ship["shields"] > 0:
                ship["shields"] -= 1
                events.append(_EV("danger", seat, shields=ship["shields"]))
            else:
                _evacuate(s, events, seat, "shield")
                continue
        body = _body_at(s, end)
        if body is not None:
            candidates[seat] = body
    _open_landing(s, events, candidates, 3, "flight")


def _evacuate(s: dict[str, Any], events: list[Event], seat: int, reason: str) -> None:
    ship = s["ships"][seat]
    body = ship["last"]
    p = body_pos(s, body)
    assert p is not None
    ship["rose"] = [0] * 6
    ship["landed"] = body
    ship["pos"] = [p[0], p[1]]
    ship["evac"] = True
    events.append(_EV("evac_" + reason, seat))
    events.append(_EV("evacuated." + body, seat))


def _open_landing(
    s: dict[str, Any], events: list[Event], candidates: dict[int, str], phase: int, then: str
) -> None:
    """Ask the ships of ``candidates`` (seat -> the body each ended on) whether to land;
    with none, the phase goes on at once (``then``, see :func:`_land`)."""
    if not candidates:
        _land(s, events, [], phase, then)
        return
    s["landing"] = {
        "phase": phase,
        "body": [candidates.get(k) for k in range(s["n"])],
        "answers": [None] * s["n"],
    }


def _apply_landing(s: dict[str, Any], seat: int, choice: str, events: list[Event]) -> None:
    ld = s["landing"]
    ld["answers"][seat] = choice
    if choice == "noland":
        events.append(_EV("no_landing", seat))
    if any(b is not None and a is None for b, a in zip(ld["body"], ld["answers"], strict=True)):
        return
    landers = [
        (k, b)
        for k, (b, a) in enumerate(zip(ld["body"], ld["answers"], strict=True))
        if b is not None and a == "land"
    ]
    s["landing"] = None
    _land(s, events, landers, ld["phase"], "flight" if ld["phase"] == 3 else "planets")


def _land(
    s: dict[str, Any], events: list[Event], landers: list[tuple[int, str]], phase: int, then: str
) -> None:
    """Land the ships of one phase in landing order (the instructor first, then clockwise),
    then go on with ``then`` (``_AFTER_LANDING``). A lone lander on a body takes its top
    marker; landers sharing a body in the same phase each choose one of the markers left
    (R12): the game waits for that choice (``touchdown``) whenever there is one to make."""
    order = {seat: k for k, seat in enumerate(_seat_order(s))}
    queue = sorted(landers, key=lambda x: order[x[0]])
    takers: dict[str, int] = {}
    for seat, body in queue:
        if can_get_marker(s, seat, body):
            takers[body] = takers.get(body, 0) + 1
    s["touchdown"] = {
        "phase": phase,
        "then": then,
        "queue": [[seat, body] for seat, body in queue],
        "shared": sorted(b for b, k in takers.items() if k > 1),
    }
    _continue_landing(s, events, None)


def _continue_landing(s: dict[str, Any], events: list[Event], picked: int | None) -> None:
    td = s["touchdown"]
    queue = td["queue"]
    while queue:
        seat, body = queue[0]
        if picked is None and marker_choices(s, seat, body):
            return  # the lander at the head of the queue chooses its marker
        queue.pop(0)
        _touch_down(s, events, seat, body, td["phase"], picked)
        picked = None
    s["touchdown"] = None
    _AFTER_LANDING[td["then"]](s, events)


def _touch_down(
    s: dict[str, Any], events: list[Event], seat: int, body: str, phase: int, value: int | None
) -> None:
    ship = s["ships"][seat]
    p = body_pos(s, body)
    assert p is not None
    ship["pos"] = [p[0], p[1]]
    ship["landed"] = body
    ship["last"] = body
    ship["rose"] = [0] * 6
    if phase == 1:
        s["pulled"][seat] = True  # R15: landed this round, so no refuel until the next
    if seat not in s["landed_by"][body]:
        s["landed_by"][body].append(seat)
    if can_get_marker(s, seat, body):
        stack = s["stacks"][body]
        if value is None:
            value = stack.pop()
        else:
            del stack[len(stack) - 1 - stack[::-1].index(value)]
        ship["markers"][body] = value
        events.append(_EV("landed." + body, seat, value=value))
    else:
        events.append(_EV("visited." + body, seat))
    if body == EARTH and not ship["returned"] and return_ready(s, seat):
        ship["returned"] = phase
        events.append(_EV("returned", seat, phase=phase))


def _refuel(s: dict[str, Any], events: list[Event], seat: int, how: str) -> None:
    ship = s["ships"][seat]
    if how == "stay" and s["rules"] == "advanced":
        gain = min(5, TANK - tank(ship))  # quick refuel: 5 yellow at most, no red
        ship["fuel"] += gain
        events.append(_EV("refuel_quick", seat, fuel=ship["fuel"], hyper=ship["hyper"]))
        return
    if how == "stayfull":
        ship["shields"] -= 1
    _add_hyper(ship)
    ship["fuel"] = TANK - ship["hyper"]
    code = "refuel_full" if how == "stayfull" else "refuel"
    events.append(_EV(code, seat, fuel=ship["fuel"], hyper=ship["hyper"], shields=ship["shields"]))


def _after_flight(s: dict[str, Any], events: list[Event]) -> None:
    """The end of phase 3 (landings done): refuels, then phase 4."""
    for seat in _seat_order(s):
        how = s["staying"][seat]
        if how is not None:
            _refuel(s, events, seat, how)
    # phase 4: every body one space clockwise, carrying landed ships
    s["phase"] = "planets"
    for b in BODIES:
        s["bodies"][b] = (s["bodies"][b] + 1) % len(ORBITS[b])
    events.append(_EV("planets_moved"))
    candidates: dict[int, str] = {}
    for seat, ship in enumerate(s["ships"]):
        if ship["landed"] is not None:
            p = body_pos(s, ship["landed"])
            assert p is not None
            ship["pos"] = [p[0], p[1]]
        else:
            body = _body_at(s, _pos(ship))
            if body is not None:
                candidates[seat] = body
    _open_landing(s, events, candidates, 4, "planets")


def _after_planets(s: dict[str, Any], events: list[Event]) -> None:
    """The end of phase 4 (landings done): the end of the game or the next round."""
    returned = any(ship["returned"] for ship in s["ships"])
    if returned or s["round"] >= ROUND_LIMIT:
        _game_over(s, events, "return" if returned else "limit")
        return
    s["instructor"] = (s["instructor"] + 1) % s["n"]
    _start_round(s, events, s["round"] + 1)


#: What follows a touchdown, by ``touchdown["then"]`` (one of ``LANDING_NEXT``).
_AFTER_LANDING = {"event": _after_event, "flight": _after_flight, "planets": _after_planets}


def _one_of_several_answers(s: Mapping[str, Any], seat: int) -> str | None:
    """``"respond"`` or ``"landing"`` when ``seat`` answers an event or a landing question
    while another seat's answer is still awaited (nothing but the answers changes then)."""
    if s["touchdown"] is not None:
        return None
    ph = s["phase"]
    if ph == "event" and s["active"] is not None:
        r = s["respond"]
        waits = zip(r["asked"], r["answers"], strict=True)
        if any(q and a is None for k, (q, a) in enumerate(waits) if k != seat):
            return "respond"
    elif ph in ("flight", "planets") and s["landing"] is not None:
        ld = s["landing"]
        waits = zip(ld["body"], ld["answers"], strict=True)
        if any(b is not None and a is None for k, (b, a) in enumerate(waits) if k != seat):
            return "landing"
    return None


def apply(s: Mapping[str, Any], seat: int, choice: str) -> tuple[dict[str, Any], list[Event]]:
    if s["over"]:
        raise IllegalMove(P + "error.game_over")
    if not isinstance(seat, int) or not 0 <= seat < s["n"]:
        raise IllegalMove(P + "error.not_your_turn")
    opts = seat_options(s, seat)
    if not opts:
        raise IllegalMove(P + "error.not_your_turn")
    if not any(o.id == choice for o in opts):
        code = "not_offered"
        if s["phase"] == "orders":
            code = _order_refusal(s, seat, choice)
        raise IllegalMove(P + "error." + code, choice=str(choice)[:40])
    events: list[Event] = []
    if s["phase"] == "orders" and not (
        choice in ORDER_FINALS and all(o["done"] for k, o in enumerate(s["orders"]) if k != seat)
    ):
        # composing (or confirming before the last seat): only this seat's order changes
        s2 = dict(s)
        s2["orders"] = list(s["orders"])
        o = s2["orders"][seat] = dict(s["orders"][seat])
        o["steps"] = list(o["steps"])
        _apply_order(s2, seat, choice, events)
        return s2, events
    answer = _one_of_several_answers(s, seat)
    if answer is not None:
        # one answer among others still awaited: only the answers are copied
        s2 = dict(s)
        asked = s2[answer] = dict(s[answer])
        asked["answers"] = list(asked["answers"])
        if answer == "respond":
            _apply_response(s2, seat, choice, events)
        else:
            _apply_landing(s2, seat, choice, events)
        return s2, events
    s2 = clone(dict(s))
    ph = s2["phase"]
    if s2["touchdown"] is not None:
        _continue_landing(s2, events, int(choice.split(".", 1)[1]))
    elif ph == "setup":
        _apply_placement(s2, seat, choice, events)
    elif ph == "missions":
        _apply_mission(s2, seat, choice, events)
    elif ph == "event":
        if s2["active"] is None:
            _choose_event(s2, seat, choice.split(".", 1)[1], events)
        else:
            _apply_response(s2, seat, choice, events)
    elif ph == "orders":
        _apply_order(s2, seat, choice, events)
    else:
        _apply_landing(s2, seat, choice, events)
    return s2, events
