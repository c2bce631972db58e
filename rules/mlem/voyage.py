"""MLEM — set-up and the voyage: launch, rolls, moves, recon, landings, crashes, the end of a
voyage and of the game. Every function here works in place on the copy ``apply_move`` made.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from core.contract import Event, IllegalMove, split_picks
from rules.kit import rng

from .board import (
    ABILITIES,
    BODY,
    BODY_SPACE,
    COMET_POINTS,
    DEEP,
    DICE,
    DICE_FACES,
    DISASTERS,
    EXPEDITION,
    EXPEDITION_ORDER,
    GALAXY_POINTS,
    MISSION_DEAL,
    MISSIONS,
    MOON_ORDER,
    MOONS,
    NO_LANDING,
    OBJECTIVES,
    PLANET_ORDER,
    RECON_SLOTS,
    UFO_FLOOR,
    UFO_TILES,
    WORMHOLE,
    recon_stack,
)
from .picks import _explore_specs, _go_of_picks, _parts, _reroll_available, _spec_text
from .state import (
    EV,
    RECON_POINTS,
    SCHEMA,
    VARIANTS,
    _commander,
    _dice_text,
    _return_to_board,
    result_of,
)

# --------------------------------------------------------------------------- set-up


def new_state(players: int, options: Mapping[str, str], seed: int) -> dict[str, Any]:
    if not isinstance(players, int) or not 2 <= players <= 5:
        raise ValueError("mlem needs 2 to 5 players")
    variants: dict[str, bool] = {}
    for key in VARIANTS:
        value = (options or {}).get(key, "off")
        if value not in ("off", "on"):
            raise ValueError(f"option {key} must be 'off' or 'on', not {value!r}")
        variants[key] = value == "on"
    seed = int(seed)
    rng = random.Random(f"mlem:{seed}:setup")
    n = players
    s: dict[str, Any] = {
        "schema": SCHEMA,
        "n": n,
        "variants": variants,
        "seed": seed,
        "rc": 0,
        "phase": "launch",
        "voyage": 0,
        "start": rng.randrange(n),
        "space": 0,
        "crew": [],
        "pool": DICE,
        "disc": 0,
        "roll": [],
        "queue": [],
        "board": [list(ABILITIES) for _ in range(n)],
        "placed": [0] * n,
        "moons": {m: [None] * len(MOONS[m]) for m in MOON_ORDER},
        "planets": {p: [] for p in PLANET_ORDER},
        "deep": {"comet": [], "galaxy": []},
        "mpts": [0] * n,
        "dpts": [0] * n,
        "obj": {o: None for o in OBJECTIVES},
        "disasters": 0,
        "final": False,
        "end": None,
        "ufo": None,
        "exp": None,
        "recon": None,
        "missions": None,
        "pick": None,
    }
    if variants["ufo"]:
        deck = list(EXPEDITION_ORDER)
        rng.shuffle(deck)
        s["exp"] = {"deck": deck, "tile": None, "avail": False}
        s["ufo"] = {"space": DEEP, "tiles": list(UFO_TILES), "taken": [[] for _ in range(n)]}
    if variants["recon"]:
        stack = recon_stack()
        rng.shuffle(stack)
        slots = {str(sp): stack.pop(0) for sp in RECON_SLOTS}
        s["recon"] = {"slots": slots, "stack": stack, "taken": [[] for _ in range(n)]}
    if variants["missions"]:
        tiles = list(MISSIONS)
        rng.shuffle(tiles)
        dealt = [tiles[i * MISSION_DEAL : (i + 1) * MISSION_DEAL] for i in range(n)]
        s["missions"] = {"dealt": dealt, "kept": [None] * n}
        s["phase"] = "missions"
    else:
        _start_voyage(s, [])
    return s


# --------------------------------------------------------------------------- voyage flow


def _start_voyage(s: dict[str, Any], ev: list[Event]) -> None:
    s["voyage"] += 1
    s["phase"] = "launch"
    s["space"] = 0
    s["crew"] = []
    s["queue"] = []
    s["roll"] = []
    s["pool"] = DICE
    s["disc"] = 0
    ev.append(EV("voyage", s["start"], round=s["voyage"]))
    exp = s["exp"]
    if exp is not None:
        if exp["deck"]:
            tid = exp["deck"].pop(0)
            tile = EXPEDITION[tid]
            exp["tile"] = tid
            exp["avail"] = True
            s["pool"] = tile["dice"]
            s["disc"] = DICE - tile["dice"]
            ev.append(
                EV(
                    f"expedition.{tile['ability']}",
                    s["start"],
                    reveals=True,
                    tile=tid,
                    ufo=tile["ufo"],
                    dice=tile["dice"],
                    extra=" ".join(str(d) for d in tile.get("extra", [])),
                )
            )
            ufo = s["ufo"]
            before = ufo["space"]
            ufo["space"] = max(UFO_FLOOR, before - tile["ufo"])
            if ufo["space"] != before:
                ev.append(EV("ufo_move", space=ufo["space"], steps=before - ufo["space"]))
        else:
            exp["tile"] = None
            exp["avail"] = False
            ev.append(EV("expedition_none"))


def _launch_seat(s: dict[str, Any]) -> int:
    return (s["start"] + len(s["crew"])) % s["n"]


def _begin_explore(s: dict[str, Any], ev: list[Event]) -> None:
    s["phase"] = "explore"
    s["queue"] = []
    _roll(s, ev)


def draw_faces(s: dict[str, Any], count: int) -> list[Any]:
    """Roll ``count`` dice with the state's generator (tests replace this to script rolls)."""
    gen = rng(s, "mlem")
    return [gen.choice(DICE_FACES) for _ in range(count)]


def _roll(s: dict[str, Any], ev: list[Event]) -> None:
    roll = draw_faces(s, s["pool"])
    s["roll"] = roll
    ev.append(
        EV(
            "roll",
            _commander(s),
            reveals=True,
            dice=_dice_text(roll),
            faces=list(roll),
            space=s["space"],
        )
    )
    if not _explore_specs(s) and not _reroll_available(s):
        _crash(s, ev)


def _do_pick(s: dict[str, Any], ev: list[Event], choice: str) -> None:
    """A multi-pick answer: the movement, or the keep question when it applies (R32)."""
    picks = split_picks(choice)
    if "reroll" in picks:
        raise IllegalMove("mlem.error.reroll_alone")
    offered = {o.id for o in _parts(s)}
    if not picks or len(set(picks)) != len(picks) or not set(picks) <= offered:
        raise IllegalMove("mlem.error.not_offered", choice=choice)
    go = _go_of_picks(picks)
    specs = _explore_specs(s)
    if go not in specs:  # pragma: no cover - every mix of parts is a movement
        raise IllegalMove("mlem.error.not_offered", choice=choice)
    if go + "+k" in specs:
        s["pick"] = go
    else:
        _do_move(s, ev, go)


def _do_move(s: dict[str, Any], ev: list[Event], choice: str) -> None:
    spec = _explore_specs(s).get(choice)
    if spec is None:
        raise IllegalMove("mlem.error.not_offered", choice=choice)
    steps, sub, owners, extra, keep = spec
    cmd = _commander(s)
    text = _spec_text(s, spec)
    used_numbers = sum(1 for f in s["roll"] if f in sub and f != "A")
    start = s["space"]
    s["space"] = min(DEEP, start + steps)
    s["roll"] = []
    ev.append(EV("move", cmd, steps=steps, dice=text, space=s["space"], start=start))
    for c in s["crew"]:
        if c[1] == "booster" and c[0] in owners:
            c[2] = 1
            ev.append(EV("booster", cmd, owner_seat=c[0]))
    if extra or keep:
        s["exp"]["avail"] = False
        ev.append(EV("tile_used." + ("extra" if extra else "keep"), cmd))
    if used_numbers and not keep:
        s["pool"] -= used_numbers
        s["disc"] += used_numbers
        ev.append(EV("discard", cmd, count=used_numbers, pool=s["pool"]))
    _min_one_die(s, ev)
    _after_move(s, ev)


def _min_one_die(s: dict[str, Any], ev: list[Event]) -> None:
    if s["pool"] < 1:
        s["pool"] = 1
        s["disc"] -= 1
        ev.append(EV("take_back", _commander(s)))


def _after_move(s: dict[str, Any], ev: list[Event]) -> None:
    if s["recon"] is not None:
        _resolve_recon(s, ev)
    ufo = s["ufo"]
    if ufo is not None and s["space"] == ufo["space"] and s["crew"]:
        cmd = _commander(s)
        if ufo["tiles"]:
            value = ufo["tiles"].pop(0)
            ufo["taken"][cmd].append(value)
            ev.append(EV("ufo_encounter", cmd, reveals=True, left=len(ufo["tiles"])))
            ev.append(EV("ufo_tile", cmd, private_to=cmd, reveals=True, points=value))
        else:
            ev.append(EV("ufo_empty", cmd))
    space = s["space"]
    if space >= DEEP:
        _deep_space(s, ev)
        _end_voyage(s, ev)
    elif space in NO_LANDING:
        _begin_explore(s, ev)
    else:
        s["phase"] = "land"
        s["queue"] = [[c[0], c[1]] for c in s["crew"]]
        _advance_queue(s, ev)


def _resolve_recon(s: dict[str, Any], ev: list[Event]) -> None:
    recon = s["recon"]
    slots = recon["slots"]
    while True:
        key = str(s["space"])
        tile = slots.get(key)
        if tile is None:
            return
        cmd = _commander(s)
        slots[key] = None
        wormhole = False
        if tile in RECON_POINTS:
            value = RECON_POINTS[tile]
            recon["taken"][cmd].append(value)
            ev.append(EV("recon_points", cmd, space=s["space"]))
            ev.append(EV("recon_points_value", cmd, private_to=cmd, points=value))
        elif tile == "recover":
            if s["disc"] > 0:
                s["disc"] -= 1
                s["pool"] += 1
                ev.append(EV("recon_recover", cmd, pool=s["pool"]))
            else:
                ev.append(EV("recon_recover_none", cmd))
        else:
            wormhole = True
        if recon["stack"]:
            new = recon["stack"].pop(0)
            slots[key] = new
            kind = "points" if new in RECON_POINTS else new
            ev.append(
                EV(
                    f"recon_reveal.{kind}",
                    reveals=True,
                    space=int(key),
                    points=RECON_POINTS.get(new, 0),
                )
            )
        if not wormhole:
            return
        start = s["space"]
        s["space"] = min(DEEP, start + WORMHOLE)
        ev.append(EV("wormhole", cmd, start=start, space=s["space"]))


def _deep_space(s: dict[str, Any], ev: list[Event]) -> None:
    crew = s["crew"]
    s["crew"] = []
    for i, (seat, ability, _used) in enumerate(crew):
        where = "comet" if i == 0 else "galaxy"
        _place(s, ev, seat, ability, ("deep", where, None, _deep_points(where, ability)))


def _deep_points(where: str, ability: str) -> int:
    base = COMET_POINTS if where == "comet" else GALAXY_POINTS
    return base * 2 if ability == "deep_doubler" else base


def _target_at(s: dict[str, Any], space: int, ability: str) -> tuple[Any, ...] | None:
    """Where an astronaut would go when landing from ``space`` (None: nowhere)."""
    body = BODY.get(space)
    if body is None or space in NO_LANDING:
        return None
    if body in MOONS:
        values = MOONS[body]
        occ = s["moons"][body]
        best = -1
        for i, v in enumerate(values):
            if occ[i] is None and (best < 0 or v >= values[best]):
                best = i
        if best < 0:
            return None
        points = values[best] * (2 if ability == "moon_doubler" else 1)
        return ("moon", body, best, points)
    return ("planet", body, None, 0)


def _land_targets(s: dict[str, Any]) -> dict[str, tuple[Any, ...] | None]:
    """Options of the astronaut at the head of the landing queue (empty: nothing to decide)."""
    if not s["queue"]:
        return {}
    _seat, ability = s["queue"][0]
    space = s["space"]
    here = _target_at(s, space, ability)
    if s["phase"] == "chute":
        return {"chute.land": here, "chute.back": None} if here else {}
    out: dict[str, tuple[Any, ...] | None] = {}
    if here:
        out["land"] = here
    if ability == "shifter":
        for oid, sp in (("land.down", space - 1), ("land.up", space + 1)):
            if sp >= DEEP:
                target: tuple[Any, ...] | None = (
                    "deep",
                    "galaxy",
                    None,
                    _deep_points("galaxy", ability),
                )
            else:
                target = _target_at(s, sp, ability)
            if target and target not in out.values():
                out[oid] = target
    if not out:
        return {}
    out["stay"] = None
    return out


def _advance_queue(s: dict[str, Any], ev: list[Event]) -> None:
    """Skip astronauts with nothing to decide; when the queue is done, move the game on."""
    while s["queue"] and not _land_targets(s):
        seat, ability = s["queue"].pop(0)
        if s["phase"] == "chute":
            _leave_crew(s, seat, ability)
            _return_to_board(s, seat, ability)
            ev.append(EV("chute_none", seat))
    if s["queue"]:
        return
    if s["phase"] == "chute" or not s["crew"]:
        _end_voyage(s, ev)
    else:
        _begin_explore(s, ev)


def _leave_crew(s: dict[str, Any], seat: int, ability: str) -> int:
    for i, c in enumerate(s["crew"]):
        if c[0] == seat and c[1] == ability:
            del s["crew"][i]
            return i
    raise ValueError("astronaut not in the rocket")  # pragma: no cover - internal guard


def _do_land(s: dict[str, Any], ev: list[Event], seat: int, choice: str) -> None:
    targets = _land_targets(s)
    if choice not in targets:
        raise IllegalMove("mlem.error.not_offered", choice=choice)
    _seat, ability = s["queue"].pop(0)
    target = targets[choice]
    if s["phase"] == "chute":
        _leave_crew(s, seat, ability)
        if target is None:
            _return_to_board(s, seat, ability)
            ev.append(EV("chute_back", seat))
        else:
            ev.append(EV("parachute", seat))
            _place(s, ev, seat, ability, target)
    elif target is None:
        ev.append(EV("stay", seat))
    else:
        was_commander = _commander(s) == seat
        _leave_crew(s, seat, ability)
        if choice != "land":
            ev.append(EV("shift." + choice.split(".")[1], seat))
        _place(s, ev, seat, ability, target)
        if ability == "saboteur" and s["crew"]:
            victim = seat if was_commander else _commander(s)
            if s["pool"] > 1:
                s["pool"] -= 1
                s["disc"] += 1
                ev.append(EV("saboteur", seat, commander_seat=victim, pool=s["pool"]))
            else:
                ev.append(EV("saboteur_none", seat, commander_seat=victim))
        if was_commander and s["crew"]:
            ev.append(EV("commander", _commander(s), pool=s["pool"]))
    _advance_queue(s, ev)


def _place(
    s: dict[str, Any], ev: list[Event], seat: int, ability: str, target: tuple[Any, ...]
) -> None:
    kind, body, idx, points = target
    if kind == "moon":
        s["moons"][body][idx] = [seat, ability]
        s["mpts"][seat] += points
        ev.append(
            EV(
                "land_moon",
                seat,
                body=body,
                space=BODY_SPACE[body],
                points=points,
                astronaut=ability,
            )
        )
    elif kind == "planet":
        s["planets"][body].append([seat, ability])
        ev.append(EV(f"land_planet.{body}", seat, body=body, astronaut=ability))
    else:
        s["deep"][body].append([seat, ability])
        s["dpts"][seat] += points
        ev.append(EV(f"land_{body}", seat, points=points, astronaut=ability))
    s["placed"][seat] += 1
    _check_objectives(s, ev, seat)
    if s["placed"][seat] >= len(ABILITIES) and not s["final"]:
        s["final"] = True
        ev.append(EV("last_voyage", seat))


def _counts(s: dict[str, Any], seat: int) -> dict[str, int]:
    per_planet = [sum(1 for a in s["planets"][p] if a[0] == seat) for p in PLANET_ORDER]
    return {
        "four_planets": sum(1 for c in per_planet if c),
        "three_on_planet": max(per_planet, default=0),
        "four_moons": sum(1 for m in MOON_ORDER for a in s["moons"][m] if a and a[0] == seat),
        "two_deep": sum(1 for w in ("comet", "galaxy") for a in s["deep"][w] if a[0] == seat),
    }


OBJECTIVE_NEED = {"four_planets": 4, "three_on_planet": 3, "four_moons": 4, "two_deep": 2}


def _check_objectives(s: dict[str, Any], ev: list[Event], seat: int) -> None:
    if all(v is not None for v in s["obj"].values()):
        return
    counts = _counts(s, seat)
    for obj, need in OBJECTIVE_NEED.items():
        if s["obj"][obj] is None and counts[obj] >= need:
            s["obj"][obj] = seat
            ev.append(EV(f"objective.{obj}", seat, points=OBJECTIVES[obj]))


def _crash(s: dict[str, Any], ev: list[Event]) -> None:
    cmd = _commander(s)
    s["disasters"] += 1
    s["roll"] = []
    ev.append(EV("crash", cmd, disasters=s["disasters"], space=s["space"]))
    if s["disasters"] >= DISASTERS:
        for seat, ability, _used in s["crew"]:
            _return_to_board(s, seat, ability)
        s["crew"] = []
        _game_over(s, ev, "disasters")
        return
    keep = []
    for c in s["crew"]:
        if c[1] == "parachute":
            keep.append(c)
        else:
            _return_to_board(s, c[0], c[1])
    s["crew"] = keep
    s["phase"] = "chute"
    s["queue"] = [[c[0], c[1]] for c in keep]
    _advance_queue(s, ev)


def _end_voyage(s: dict[str, Any], ev: list[Event]) -> None:
    for seat, ability, _used in s["crew"]:
        _return_to_board(s, seat, ability)
    s["crew"] = []
    s["queue"] = []
    s["roll"] = []
    if s["exp"] is not None:
        s["exp"]["tile"] = None
        s["exp"]["avail"] = False
    if s["final"]:
        _game_over(s, ev, "placed")
        return
    s["start"] = (s["start"] + 1) % s["n"]
    _start_voyage(s, ev)


def _game_over(s: dict[str, Any], ev: list[Event], reason: str) -> None:
    s["phase"] = "over"
    s["end"] = reason
    s["queue"] = []
    s["roll"] = []
    res = result_of(s)
    assert res is not None
    ev.append(EV(f"game_over.{reason}", scores=list(res.scores), winners=list(res.winners)))
    for w in res.winners:
        ev.append(EV("winner", w, points=res.scores[w]))
