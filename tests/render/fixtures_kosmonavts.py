"""Kosmonavts views for the renderer tests.

Most fixtures come from real engine games (``rules.kosmonavts.GAME``) played by the bots with
a dash of random choices, stopped at the wanted moment; the rest are hand-made edge cases
(derived from an engine view and then edited, so they keep the documented schema).

Each public fixture returns ``(state_or_None, view, names)``; ``view`` has no ``private`` key.
:func:`private_views` lists ``(name, view with private, names)`` for composing seats and
mission choices.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Callable
from functools import cache
from typing import Any

from rules.kosmonavts import GAME

NAMES = ["Lucía", "Marco", "Kim", "Ana"]
LONG_NAMES = [
    "Valentina Fernández-Castañeda de la Peña",
    "Ñandú Ibáñez",
    "🚀 Xx_GagarinFan_xX 🚀 with a really long display name",
    "Øyvind Ærøskøbing",
]

State = dict[str, Any]


def _view(state: State, seat: int | None = None) -> dict:
    return GAME.view(state, seat)


def play(
    players: int,
    rules: str,
    planets: str,
    seed: int,
    stop: Callable[[State], bool],
    mix: float = 0.25,
    limit: int = 4000,
) -> State:
    """Bots (with a share ``mix`` of random choices) play until ``stop(state)``."""
    state = GAME.new(players, {"rules": rules, "planets": planets}, seed)
    rng = random.Random(seed * 7919 + players)
    for _ in range(limit):
        if stop(state):
            return state
        pending = GAME.pending(state)
        if not pending:
            break
        d = rng.choice(pending)
        if rng.random() < mix:
            choice = rng.choice(d.options).id
        else:
            choice = GAME.bot_choice(state, d.seat, rng)
        state, _ = GAME.apply(state, d.seat, choice)
    if stop(state):
        return state
    raise AssertionError(f"no such moment in game {players}/{rules}/{planets}/{seed}")


def find(
    players: int, rules: str, planets: str, stop: Callable[[State], bool], seeds: int = 40
) -> State:
    for seed in range(1, seeds + 1):
        try:
            return play(players, rules, planets, seed, stop)
        except AssertionError:
            continue
    raise AssertionError("no seed reached the wanted moment")


def _phase(state: State) -> str:
    return _view(state)["phase"].rsplit(".", 1)[-1]


def _v(state: State) -> dict:
    return _view(state)


# --------------------------------------------------------------------------- engine moments


def at_setup(state: State) -> bool:
    v = _v(state)
    placed = sum(1 for b in v["bodies"].values() if b["pos"] is not None)
    return v["phase"].endswith("setup") and placed >= 4


def at_missions(state: State) -> bool:
    v = _v(state)
    return bool(v["missions_chosen"]) and sum(v["missions_chosen"]) == 1


def at_round1_orders(state: State) -> bool:
    v = _v(state)
    return v["round"] == 1 and bool(v["confirmed"]) and sum(v["confirmed"]) == 2


def at_choose_event(state: State) -> bool:
    v = _v(state)
    return (v["round"] or 0) >= 4 and v["step"] == "kosmonavts.step.choose_event"


def at_respond(state: State) -> bool:
    v = _v(state)
    r = v["responses"]
    return (
        (v["round"] or 0) >= 3
        and r is not None
        and any(r["answered"])
        and not all(a or not k for a, k in zip(r["answered"], r["asked"], strict=False))
    )


def at_flight_landing(state: State) -> bool:
    v = _v(state)
    return (v["round"] or 0) >= 3 and v["phase"].endswith("flight") and v["landing"] is not None


def at_planets_landing(state: State) -> bool:
    v = _v(state)
    return v["phase"].endswith("planets") and v["landing"] is not None


def at_midgame_orders(state: State) -> bool:
    v = _v(state)
    if (v["round"] or 0) < 9 or not v["confirmed"] or sum(v["confirmed"]) != 1:
        return False
    flying = [s for s in v["ships"] if not s["landed"]]
    return len(flying) >= 2


def at_over(state: State) -> bool:
    return bool(_v(state)["over"])


@cache
def _engine_states() -> dict[str, State]:
    return {
        "setup_players_basic_3": play(3, "basic", "players", 3, at_setup),
        "setup_players_advanced_2": play(2, "advanced", "players", 4, at_setup),
        "missions_advanced_3": find(3, "advanced", "random", at_missions),
        "orders_round1_basic_4": find(4, "basic", "random", at_round1_orders),
        "event_choose_advanced_3": find(3, "advanced", "random", at_choose_event),
        "event_respond_basic_4": find(4, "basic", "random", at_respond),
        "flight_landing_basic_2": find(2, "basic", "random", at_flight_landing),
        "planets_landing_basic_3": find(3, "basic", "random", at_planets_landing),
        "orders_midgame_basic_3": find(3, "basic", "random", at_midgame_orders),
        "orders_midgame_advanced_4": find(4, "advanced", "players", at_midgame_orders),
        "over_basic_4": find(4, "basic", "random", at_over),
        "over_advanced_3": find(3, "advanced", "random", at_over),
        "over_advanced_2": find(2, "advanced", "players", at_over),
    }


def engine_state(name: str) -> State:
    return copy.deepcopy(_engine_states()[name])


def _engine_fixture(name: str) -> Callable[[], tuple[State | None, dict, list[str]]]:
    def make() -> tuple[State | None, dict, list[str]]:
        st = engine_state(name)
        n = _v(st)["players"]
        return st, _view(st), NAMES[:n]

    make.__name__ = name
    return make


# --------------------------------------------------------------------------- hand-made


def long_names_es() -> tuple[State | None, dict, list[str]]:
    """4 long, accented, emoji names; instructor and ready flags on long-named seats."""
    st = engine_state("orders_midgame_advanced_4")
    return None, _view(st), list(LONG_NAMES)


def crowded_hex() -> tuple[State | None, dict, list[str]]:
    """Every ship flying on one belt hex, big roses, odd tanks, an evacuated ship."""
    v = _view(engine_state("orders_midgame_advanced_4"))
    rose_big = {"e": 7, "ne": 0, "nw": 0, "w": 0, "sw": 3, "se": 0}
    for k, ship in enumerate(v["ships"]):
        ship["pos"] = [7, -3]
        ship["landed"] = None
        ship["rose"] = dict(rose_big) if k == 0 else {d: k for d in ship["rose"]}
        ship["velocity"] = [4, 3] if k == 0 else [0, 0]
    v["ships"][1].update(fuel=0, hyper=4, tank=4, shields=0)
    v["ships"][2].update(fuel=10, hyper=0, tank=10, shields=3)
    v["ships"][3].update(landed="earth", evacuated=True, pos=v["bodies"]["earth"]["pos"])
    v["ships"][3]["rose"] = {d: 0 for d in v["ships"][3]["rose"]}
    v["ships"][3]["velocity"] = [0, 0]
    return None, v, ["Ana", "Bea", "Cai", "Dov"]


def edge_of_board() -> tuple[State | None, dict, list[str]]:
    """Ships at the rim with drift arrows pointing off the board; all bodies landed on."""
    v = _view(engine_state("orders_midgame_basic_3"))
    v["ships"][0].update(pos=[17, -17], landed=None, velocity=[3, 0])
    v["ships"][1].update(pos=[-17, 17], landed=None, velocity=[-2, -1])
    v["ships"][2].update(pos=[0, 17], landed=None, velocity=[0, 5])
    for ship in v["ships"]:
        ship["rose"] = {"e": 2, "ne": 0, "nw": 0, "w": 0, "sw": 0, "se": 1}
    for k, ship in enumerate(v["ships"]):
        ship["markers"] = {b: 4 - (k % 4) for b in v["bodies"] if b != "earth"}
    for b in v["bodies"].values():
        b["markers"] = [1]
    return None, v, ["Zoë", "Íñigo", "Ülle"]


def minimal() -> tuple[State | None, dict, list[str]]:
    """Only a few keys: the renderer must cope with anything missing."""
    v = {"game": "kosmonavts", "players": 2, "round": None, "phase": "kosmonavts.phase.setup"}
    return None, v, []


PUBLIC: dict[str, Callable[[], tuple[State | None, dict, list[str]]]] = {
    **{
        name: _engine_fixture(name)
        for name in (
            "setup_players_basic_3",
            "setup_players_advanced_2",
            "missions_advanced_3",
            "orders_round1_basic_4",
            "event_choose_advanced_3",
            "event_respond_basic_4",
            "flight_landing_basic_2",
            "planets_landing_basic_3",
            "orders_midgame_basic_3",
            "orders_midgame_advanced_4",
            "over_basic_4",
            "over_advanced_3",
            "over_advanced_2",
        )
    },
    "long_names_es": long_names_es,
    "crowded_hex": crowded_hex,
    "edge_of_board": edge_of_board,
    "minimal": minimal,
}


# --------------------------------------------------------------------------- private


def composing_seat(state: State) -> int | None:
    v = _v(state)
    if not v["confirmed"]:
        return None
    for k, done in enumerate(v["confirmed"]):
        if not done:
            return k
    return None


def compose(
    state: State, seat: int, want: Callable[[dict], bool], depth: int = 3, min_cubes: int = 0
) -> State:
    """Apply order options for ``seat`` (at least ``min_cubes`` of them) until its preview
    satisfies ``want``. Cubes already placed are taken back first."""
    state = reset(state, seat)
    picks = [o.id for d in GAME.pending(state) if d.seat == seat for o in d.options]
    adds = [p for p in picks if p.startswith(("add.", "addh."))]
    for n in range(min_cubes, depth + 1):
        for combo in itertools.product(adds, repeat=n):
            st = state
            ok = True
            for c in combo:
                opts = [o.id for d in GAME.pending(st) if d.seat == seat for o in d.options]
                if c not in opts:
                    ok = False
                    break
                st, _ = GAME.apply(st, seat, c)
            if not ok:
                continue
            prev = _view(st, seat)["private"]["preview"]
            if prev and want(prev):
                return st
    raise AssertionError("no order gives that preview")


def _options(state: State, seat: int) -> list[str]:
    return [o.id for d in GAME.pending(state) if d.seat == seat for o in d.options]


def reset(state: State, seat: int) -> State:
    """Undo the cubes ``seat`` has placed in the order it is composing."""
    for _ in range(20):
        order = _view(state, seat)["private"]["order"]
        if not order or "undo" not in _options(state, seat):
            break
        state, _ = GAME.apply(state, seat, "undo")
    return state


def _danger(kind: str) -> Callable[[dict], bool]:
    return lambda p: p["action"] == "fly" and p["danger"] == kind


@cache
def _private_states() -> dict[str, tuple[State, int]]:
    out: dict[str, tuple[State, int]] = {}
    mid = engine_state("orders_midgame_basic_3")
    seat = composing_seat(mid)
    assert seat is not None
    out["order_midgame"] = (
        compose(mid, seat, lambda p: p["action"] == "fly" and len(p["path"]) >= 4),
        seat,
    )
    for kind in ("danger_sector", "sun", "off_board"):
        for name in (
            "orders_midgame_basic_3",
            "orders_midgame_advanced_4",
            "orders_round1_basic_4",
        ):
            st = engine_state(name)
            s = composing_seat(st)
            try:
                out[f"order_{kind}"] = (compose(st, s, _danger(kind)), s)  # type: ignore[arg-type,assignment]
                break
            except AssertionError:
                continue
    r1 = engine_state("orders_round1_basic_4")
    s1 = composing_seat(r1)
    assert s1 is not None
    out["order_stay_round1"] = (r1, s1)

    def lands(p: dict) -> bool:
        return p["lands_on"] is not None or p["phase4_body"] is not None

    for name in ("orders_midgame_basic_3", "orders_midgame_advanced_4", "orders_round1_basic_4"):
        st = engine_state(name)
        s = composing_seat(st)
        if s is not None and _can(st, s, lands):
            out["order_landing"] = (compose(st, s, lands), s)
            break
    adv = engine_state("orders_midgame_advanced_4")
    sa = composing_seat(adv)
    assert sa is not None
    out["order_advanced"] = (adv, sa)
    out["missions_choice"] = (engine_state("missions_advanced_3"), 1)
    out["setup_dealt"] = (engine_state("setup_players_advanced_2"), 0)
    out["over_missions"] = (engine_state("over_basic_4"), 2)
    return out


def _can(state: State, seat: int, want: Callable[[dict], bool]) -> bool:
    try:
        compose(state, seat, want, depth=2)
        return True
    except AssertionError:
        return False


def _hand_private(
    base: str, edit: Callable[[dict], None]
) -> Callable[[], tuple[dict, list[str], str]]:
    def make() -> tuple[dict, list[str], str]:
        st, seat = _private_states()[base]
        v = _view(st, seat)
        edit(v)
        return v, NAMES[: v["players"]], base

    return make


def _no_shield(v: dict) -> None:
    p = v["private"]
    p["preview"].update(danger="danger_no_shield", shields_after=0)


def _evac(v: dict) -> None:
    p = v["private"]
    ship = v["ships"][p["seat"]]
    target = v["bodies"][ship["last_visited"]]["pos"]
    p["order"] = []
    p["final"] = "evac"
    p["preview"].update(
        action="evac",
        end_hex=target,
        path=[ship["pos"]],
        danger="none",
        velocity=[0, 0],
        lands_on=None,
        phase4_body=None,
    )


def _stayfull(v: dict) -> None:
    p = v["private"]
    p["order"] = []
    p["final"] = "stayfull"
    p["converted"] = True
    ship = v["ships"][p["seat"]]
    p["preview"].update(
        action="stay",
        end_hex=ship["pos"],
        path=[ship["pos"]],
        danger="none",
        velocity=[0, 0],
        lands_on=None,
        phase4_body=None,
    )


def _many_cubes(v: dict) -> None:
    p = v["private"]
    p["order"] = [
        {"dir": "e", "hyper": True},
        {"dir": "ne", "hyper": False},
        {"dir": "se", "hyper": True},
        {"dir": "w", "hyper": False},
    ]
    p["converted"] = True
    p["final"] = "confirm"


def private_views() -> list[tuple[str, dict, list[str], str]]:
    """(name, view with ``private``, names, name of the state it comes from)."""
    out = []
    for name, (st, seat) in _private_states().items():
        v = _view(st, seat)
        out.append((name, v, NAMES[: v["players"]], name))
    for name, make in (
        ("hand_no_shield", _hand_private("order_midgame", _no_shield)),
        ("hand_evac", _hand_private("order_midgame", _evac)),
        ("hand_stayfull", _hand_private("order_stay_round1", _stayfull)),
        ("hand_many_cubes", _hand_private("order_midgame", _many_cubes)),
    ):
        v, names, base = make()
        out.append((name, v, names, base))
    return out


def private_state(name: str) -> tuple[State, int]:
    st, seat = _private_states()[name]
    return copy.deepcopy(st), seat


def write_docs() -> None:
    """Write the reference pictures: ``python -m tests.render.fixtures_kosmonavts``."""
    from pathlib import Path

    from render import kosmonavts

    docs = Path(__file__).resolve().parents[2] / "docs"
    _, view, names = PUBLIC["orders_midgame_basic_3"]()
    (docs / "kosmonavts_table.png").write_bytes(kosmonavts.render_table(view, names, "en"))
    state, seat = private_state("order_landing")
    v = _view(state, seat)
    png = kosmonavts.render_private(v, NAMES[: v["players"]], "en")
    assert png is not None
    (docs / "kosmonavts_order.png").write_bytes(png)


if __name__ == "__main__":
    write_docs()
