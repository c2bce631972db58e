"""The MLEM rules engine: state, decisions, moves, views and scoring.

The state is a plain JSON-compatible ``dict`` (see :func:`new_state` for its keys). Every
public function treats its input as read-only; :func:`apply_move` works on a copy. The rulings
this engine follows are listed in the package docstring (:mod:`rules.mlem`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from itertools import combinations
from typing import Any

from core.contract import Decision, Event, IllegalMove, Option, Result, split_picks
from rules.kit import Events, Options, clone, load_checked, result_of_parts, result_view, rng

from .board import (
    ABILITIES,
    ABILITY_INDEX,
    ACCEPTS,
    AFTERBURNER,
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
    MISSION_BODIES,
    MISSION_DEAL,
    MISSION_KEEP,
    MISSION_OPT,
    MISSION_POINTS,
    MISSIONS,
    MOON_ORDER,
    MOONS,
    NO_LANDING,
    OBJECTIVES,
    OPT_MISSION,
    PLANET_ORDER,
    PLANETS,
    RECON_KINDS,
    RECON_SLOTS,
    SATELLITE,
    UFO_FLOOR,
    UFO_TILES,
    WORMHOLE,
    recon_stack,
)

SCHEMA = 1
VARIANTS = ("ufo", "recon", "missions")
PHASES = ("missions", "launch", "explore", "land", "chute", "over")
#: Order in which dice groups are listed (afterburner first, then numbers).
GROUP_ORDER: tuple[Any, ...] = ("A", 1, 2, 3, 4)
PARTS = ("moons", "planets", "deep_space", "objectives", "ufo", "recon", "missions")
PHASE_KEY = {
    "missions": "mlem.phase.launch",
    "launch": "mlem.phase.launch",
    "explore": "mlem.phase.explore",
    "land": "mlem.phase.land",
    "chute": "mlem.phase.land",
    "over": "mlem.phase.over",
}
FACE_SYMBOL = {"A": "🔥", 1: "1", 2: "2", 3: "3", 4: "4"}
BOOSTER_SYMBOL = "🐱"
EXTRA_SYMBOL = "🛸"
KEEP_SYMBOL = "🔒"
RECON_POINTS = {"p1": 1, "p2": 2, "p3": 3}
#: Above this many movements (keep-dice variants aside), the commander picks the dice in
#: steps instead: a multi-pick of the dice groups, then, if it applies, whether to keep.
PICK_LIMIT = 12


# --------------------------------------------------------------------------- helpers


#: Event and option builders (``mlem.event.<code>``, ``mlem.<label>``).
EV = Events("mlem")
OPT = Options("mlem")


def _dice_text(faces: list[Any]) -> str:
    return ", ".join(FACE_SYMBOL[f] for f in faces)


def _commander(s: dict[str, Any]) -> int | None:
    crew = s["crew"]
    if crew:
        return crew[0][0]
    if s["phase"] == "launch":
        return s["start"]
    return None


def _return_to_board(s: dict[str, Any], seat: int, ability: str) -> None:
    left = s["board"][seat]
    left.append(ability)
    left.sort(key=ABILITY_INDEX.__getitem__)


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


def _reroll_available(s: dict[str, Any]) -> bool:
    exp = s["exp"]
    return bool(
        exp is not None
        and exp["tile"] is not None
        and exp["avail"]
        and EXPEDITION[exp["tile"]]["ability"] == "reroll"
    )


def _tile_ability(s: dict[str, Any]) -> str | None:
    exp = s["exp"]
    if exp is None or exp["tile"] is None or not exp["avail"]:
        return None
    return EXPEDITION[exp["tile"]]["ability"]


Spec = tuple[int, tuple[Any, ...], tuple[int, ...], bool, bool]


def _booster_owners(s: dict[str, Any]) -> list[int]:
    """Seats whose unused booster astronaut is aboard, when the space shows a 1."""
    if 1 not in ACCEPTS[s["space"]]:
        return []
    return sorted(c[0] for c in s["crew"] if c[1] == "booster" and not c[2])


def _usable_roll(s: dict[str, Any]) -> tuple[frozenset[Any], int, dict[Any, int]]:
    """What the rocket's space accepts, its afterburner's steps per ``A`` die (0 without
    one) and how many rolled dice of each accepted face there are."""
    space = s["space"]
    ok = ACCEPTS[space]
    counts: dict[Any, int] = {}
    for f in s["roll"]:
        if f in ok:
            counts[f] = counts.get(f, 0) + 1
    return ok, AFTERBURNER[space] or 0, counts


def _explore_specs(s: dict[str, Any]) -> dict[str, Spec]:
    """Every legal movement of the current roll: option id -> (steps, faces, owners of the
    boosters used, extra tile used, keep tile used). Empty when nothing can move the rocket."""
    ok, ab, counts = _usable_roll(s)
    groups = [f for f in GROUP_ORDER if f in counts]
    owners = _booster_owners(s)
    booster_sets = [c for r in range(len(owners) + 1) for c in combinations(owners, r)]
    ability = _tile_ability(s)
    extra: list[int] = []
    if ability == "extra":
        extra = [d for d in EXPEDITION[s["exp"]["tile"]]["extra"] if d in ok]
    keep = ability == "keep"
    extra_steps = sum(extra)
    out: dict[str, Spec] = {}
    for r in range(len(groups) + 1):
        for sub in combinations(groups, r):
            base = sum(counts[f] * (ab if f == "A" else f) for f in sub)
            numbers = any(f != "A" for f in sub)
            tokens = [str(f) for f in sub]
            for bs in booster_sets:
                for x in (False, True) if extra else (False,):
                    if not sub and not bs and not x:
                        continue
                    for k in (False, True) if keep and numbers else (False,):
                        parts = list(tokens)
                        if bs:
                            parts.append("b" + "".join(str(seat) for seat in bs))
                        if x:
                            parts.append("x")
                        if k:
                            parts.append("k")
                        steps = base + len(bs) + (extra_steps if x else 0)
                        out["go." + "+".join(parts)] = (steps, sub, bs, x, k)
    return out


def _symbols(count: int, symbol: str) -> list[str]:
    """``count`` copies of a die symbol, written ``3×1`` from three on to keep labels short."""
    return [f"{count}×{symbol}"] if count >= 3 else [symbol] * count


def _spec_text(s: dict[str, Any], spec: Spec, boosters: bool = True) -> str:
    """The dice a movement uses, e.g. ``🔥 🔥 3×1 🐱 🛸2`` (🐱 booster, 🛸 tile die, 🔒 keep)."""
    _steps, sub, bs, x, k = spec
    counts: dict[Any, int] = {}
    for f in s["roll"]:
        counts[f] = counts.get(f, 0) + 1
    parts = [p for f in sub for p in _symbols(counts[f], FACE_SYMBOL[f])]
    if boosters:
        parts.extend(_symbols(len(bs), BOOSTER_SYMBOL))
    if x:
        ok = ACCEPTS[s["space"]]
        parts.extend(
            EXTRA_SYMBOL + str(d) for d in EXPEDITION[s["exp"]["tile"]]["extra"] if d in ok
        )
    if k:
        parts.append(KEEP_SYMBOL)
    return " ".join(parts)


def _parts(s: dict[str, Any]) -> list[Option]:
    """The options of a dice-picking decision: each usable group of rolled dice (``A``,
    ``1`` … ``4``), each aboard booster (``b<seat>``) and the tile's extra dice (``x``).
    Every non-empty mix of them is a legal movement."""
    ok, ab, counts = _usable_roll(s)
    out = []
    for f in GROUP_ORDER:
        if f in counts:
            dice = " ".join(_symbols(counts[f], FACE_SYMBOL[f]))
            steps = counts[f] * (ab if f == "A" else f)
            out.append(Option(str(f), "mlem.opt.part", {"dice": dice, "steps": steps}, "primary"))
    for owner in _booster_owners(s):
        out.append(Option(f"b{owner}", "mlem.opt.part_booster", {"owner_seat": owner}, "primary"))
    if _tile_ability(s) == "extra":
        extra = [d for d in EXPEDITION[s["exp"]["tile"]]["extra"] if d in ok]
        if extra:
            dice = " ".join(EXTRA_SYMBOL + str(d) for d in extra)
            out.append(
                Option("x", "mlem.opt.part", {"dice": dice, "steps": sum(extra)}, "primary")
            )
    return out


def _go_of_picks(picks: list[str]) -> str:
    """The movement id (``go.A+1+b02+x``) of a multi-pick answer's part ids."""
    groups = [str(f) for f in GROUP_ORDER if str(f) in picks]
    seats = sorted(p[1:] for p in picks if p.startswith("b"))
    parts = groups + (["b" + "".join(seats)] if seats else []) + (["x"] if "x" in picks else [])
    return "go." + "+".join(parts)


def _picks_of_go(go: str) -> list[str]:
    """The part ids of a movement id (inverse of :func:`_go_of_picks`; ``k`` left out)."""
    out: list[str] = []
    for token in go[3:].split("+"):
        if token.startswith("b"):
            out += [f"b{seat}" for seat in token[1:]]
        elif token != "k":
            out.append(token)
    return out


def _picking(s: dict[str, Any], specs: Mapping[str, Spec]) -> bool:
    """Whether the commander picks the dice in steps (too many movements for a list)."""
    return sum(1 for oid in specs if not oid.endswith("+k")) > PICK_LIMIT


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


# --------------------------------------------------------------------------- decisions


def pending_of(s: dict[str, Any]) -> list[Decision]:
    phase = s["phase"]
    if phase == "over":
        return []
    if phase == "missions":
        out = []
        for seat in range(s["n"]):
            if s["missions"]["kept"][seat] is None:
                dealt = s["missions"]["dealt"][seat]
                opts = tuple(OPT(f"drop.{MISSION_OPT[m]}", "opt.drop", mission=m) for m in dealt)
                out.append(
                    Decision(
                        seat, "mlem.prompt.mission", opts, {"missions": ", ".join(dealt)}, True
                    )
                )
        return out
    if phase == "launch":
        seat = _launch_seat(s)
        opts = tuple(OPT(f"board.{a}", f"ability.{a}", "primary") for a in s["board"][seat])
        return [Decision(seat, "mlem.prompt.launch", opts, {"round": s["voyage"]})]
    if phase == "explore":
        cmd = _commander(s)
        assert cmd is not None
        specs = _explore_specs(s)
        args = {"dice": _dice_text(s["roll"]), "space": s["space"]}
        if s.get("pick") is not None:  # second step: keep the number dice or not
            go = s["pick"]
            steps = specs[go][0]
            kargs = {**args, "steps": steps, "to": min(DEEP, s["space"] + steps)}
            kargs["dice"] = _spec_text(s, specs[go])
            keep = (OPT(go + "+k", "opt.keep_yes", "primary"), OPT(go, "opt.keep_no"))
            return [Decision(cmd, "mlem.prompt.keep", keep, kargs)]
        if _picking(s, specs):
            parts = _parts(s)
            if _reroll_available(s):  # a reroll is its own answer (R32)
                parts.append(replace(OPT("reroll", "opt.reroll"), alone=True))
            return [
                Decision(
                    cmd,
                    "mlem.prompt.explore_pick",
                    tuple(parts),
                    args,
                    min_picks=1,
                    max_picks=len(parts),
                )
            ]
        available = len(_booster_owners(s))
        opt_list = []
        # Nearest first; the same distance with fewer dice first.
        ordered = sorted(specs.items(), key=lambda item: (item[1][0], item[0].count("+")))
        for oid, sp in ordered:
            to = min(DEEP, s["space"] + sp[0])
            oargs: dict[str, Any] = {"steps": sp[0], "to": to, "dice": _spec_text(s, sp)}
            label = "mlem.opt.go_deep" if to >= DEEP else "mlem.opt.go"
            if 0 < len(sp[2]) < available:  # say whose boosters when it is a choice
                label = f"{label}_b{len(sp[2])}"
                rest = _spec_text(s, sp, boosters=False)
                oargs["dice"] = rest + " " if rest else ""
                oargs.update({f"b{i + 1}_seat": seat for i, seat in enumerate(sp[2])})
            opt_list.append(Option(oid, label, oargs, "primary"))
        if _reroll_available(s):
            opt_list.append(OPT("reroll", "opt.reroll"))
        prompt = "mlem.prompt.explore"
        if not any(f in ACCEPTS[s["space"]] for f in s["roll"]):
            opt_list.append(OPT("crash", "opt.crash", "danger"))
            prompt = "mlem.prompt.rescue"
        return [Decision(cmd, prompt, tuple(opt_list), args)]
    # land / chute
    seat, ability = s["queue"][0]
    targets = _land_targets(s)
    opts = tuple(_land_option(oid, t) for oid, t in targets.items())
    prompt, largs = _land_prompt(s, ability, targets)
    return [Decision(seat, prompt, opts, largs)]


def _land_prompt(
    s: dict[str, Any], ability: str, targets: Mapping[str, tuple[Any, ...] | None]
) -> tuple[str, dict[str, Any]]:
    """The landing question, naming the astronaut and where plain landing puts it:
    ``mlem.prompt.land_moon`` / ``land_planet`` / ``land`` (only the shifter's ±1 lands),
    and ``mlem.prompt.parachute_moon`` / ``parachute_planet`` after a crash."""
    args: dict[str, Any] = {
        "space": s["space"],
        "astronaut": ability,
        "astronaut_key": f"mlem.ability.{ability}",
    }
    here = targets.get("chute.land" if s["phase"] == "chute" else "land")
    prompt = "mlem.prompt.parachute" if s["phase"] == "chute" else "mlem.prompt.land"
    if here is not None:
        kind, body, _idx, points = here
        prompt += "_" + kind
        if kind == "moon":
            args["points"] = points
        else:
            args["planet_key"] = f"mlem.planet.{body}"
            args["values"] = "/".join(str(v) for v in PLANETS[body])
    return prompt, args


def _waiting(s: dict[str, Any]) -> list[int]:
    """Seats with an open decision (the seats of :func:`pending_of`, computed cheaply)."""
    phase = s["phase"]
    if phase == "missions":
        return [i for i, k in enumerate(s["missions"]["kept"]) if k is None]
    if phase == "launch":
        return [_launch_seat(s)]
    if phase == "explore":
        return [s["crew"][0][0]]
    if phase in ("land", "chute"):
        return [s["queue"][0][0]]
    return []


def _land_option(oid: str, target: tuple[Any, ...] | None) -> Option:
    if target is None:
        if oid == "stay":
            return OPT(oid, "opt.stay")
        return OPT(oid, "opt.chute_back")
    kind, body, _idx, points = target
    shift = {"land.up": "+1", "land.down": "-1"}.get(oid)
    label = ("mlem.opt.shift_" if shift else "mlem.opt.land_") + kind
    args: dict[str, Any] = {"body": body, "points": points}
    if kind == "planet":
        args["values"] = "/".join(str(v) for v in PLANETS[body])
        label += "." + body
    elif kind == "moon":
        args["space"] = BODY_SPACE[body]
    if shift:
        args["shift"] = shift
    return Option(oid, label, args, "success")


def apply_move(
    state: dict[str, Any], seat: int, choice: str
) -> tuple[dict[str, Any], list[Event]]:
    phase = state["phase"]
    if phase == "over":
        raise IllegalMove("mlem.error.game_over")
    if not isinstance(choice, str):
        raise IllegalMove("mlem.error.not_offered", choice=str(choice))
    s = clone(state)
    ev: list[Event] = []
    if phase == "missions":
        kept = s["missions"]["kept"]
        if not isinstance(seat, int) or not 0 <= seat < s["n"] or kept[seat] is not None:
            raise IllegalMove("mlem.error.not_your_turn")
        dealt = s["missions"]["dealt"][seat]
        mission = OPT_MISSION.get(choice[5:]) if choice.startswith("drop.") else None
        if mission is None or mission not in dealt:
            raise IllegalMove("mlem.error.not_offered", choice=choice)
        kept[seat] = [m for m in dealt if m != mission]
        ev.append(EV("mission_kept", seat))
        ev.append(EV("mission_private", seat, private_to=seat, missions=", ".join(kept[seat])))
        if all(k is not None for k in kept):
            ev.append(EV("missions_ready"))
            _start_voyage(s, ev)
        return s, ev
    if phase == "launch":
        if seat != _launch_seat(s):
            raise IllegalMove("mlem.error.not_your_turn")
        ability = choice[6:] if choice.startswith("board.") else None
        if ability not in s["board"][seat]:
            raise IllegalMove("mlem.error.not_offered", choice=choice)
        s["board"][seat].remove(ability)
        s["crew"].append([seat, ability, 0])
        ev.append(EV(f"board.{ability}", seat))
        if len(s["crew"]) == s["n"]:
            if any(c[1] == "satellite" for c in s["crew"]):
                s["space"] = SATELLITE
                ev.append(EV("satellite", space=SATELLITE))
            _begin_explore(s, ev)
        return s, ev
    if phase == "explore":
        if seat != _commander(s):
            raise IllegalMove("mlem.error.not_your_turn")
        if s.get("pick") is not None:
            if choice not in (s["pick"], s["pick"] + "+k"):
                raise IllegalMove("mlem.error.not_offered", choice=choice)
            s["pick"] = None
            _do_move(s, ev, choice)
        elif choice == "reroll":
            if not _reroll_available(s):
                raise IllegalMove("mlem.error.not_offered", choice=choice)
            s["exp"]["avail"] = False
            ev.append(EV("reroll", seat))
            _roll(s, ev)
        elif choice == "crash":
            if any(f in ACCEPTS[s["space"]] for f in s["roll"]):
                raise IllegalMove("mlem.error.not_offered", choice=choice)
            _crash(s, ev)
        elif not choice.startswith("go.") and _picking(s, _explore_specs(s)):
            _do_pick(s, ev, choice)
        else:
            _do_move(s, ev, choice)
        return s, ev
    # land / chute
    if not s["queue"] or seat != s["queue"][0][0]:
        raise IllegalMove("mlem.error.not_your_turn")
    _do_land(s, ev, seat, choice)
    return s, ev


# --------------------------------------------------------------------------- scoring


def planet_awards(s: dict[str, Any], planet: str) -> list[tuple[int, int]]:
    """(seat, points) for one planet, best first, arrival order breaking ties; the planet
    doubler is included."""
    rows: list[list[int]] = []
    index: dict[int, int] = {}
    doubled: set[int] = set()
    for seat, ability in s["planets"][planet]:
        if seat not in index:
            index[seat] = len(rows)
            rows.append([seat, 0])
        rows[index[seat]][1] += 1
        if ability == "planet_doubler":
            doubled.add(seat)
    ranked = sorted(rows, key=lambda r: -r[1])  # stable: arrival order breaks ties
    values = PLANETS[planet]
    out = []
    for place, (seat, _count) in enumerate(ranked):
        pts = values[min(place, 2)]
        out.append((seat, pts * 2 if seat in doubled else pts))
    return out


def planet_rows(s: dict[str, Any], planet: str) -> list[list[int]]:
    rows: list[list[int]] = []
    index: dict[int, int] = {}
    for seat, _ability in s["planets"][planet]:
        if seat not in index:
            index[seat] = len(rows)
            rows.append([seat, 0])
        rows[index[seat]][1] += 1
    return rows


def missions_done(s: dict[str, Any], seat: int) -> list[tuple[str, bool]]:
    ms = s["missions"]
    if ms is None or ms["kept"][seat] is None:
        return []
    bodies = {m for m in MOON_ORDER for a in s["moons"][m] if a and a[0] == seat}
    bodies.update(p for p in PLANET_ORDER if any(a[0] == seat for a in s["planets"][p]))
    return [(m, bool(MISSION_BODIES[m] & bodies)) for m in ms["kept"][seat]]


def breakdown_of(s: dict[str, Any]) -> list[dict[str, int]]:
    n = s["n"]
    out = [dict.fromkeys(PARTS, 0) for _ in range(n)]
    for seat in range(n):
        out[seat]["moons"] = s["mpts"][seat]
        out[seat]["deep_space"] = s["dpts"][seat]
    for obj, holder in s["obj"].items():
        if holder is not None:
            out[holder]["objectives"] += OBJECTIVES[obj]
    for p in PLANET_ORDER:
        for seat, pts in planet_awards(s, p):
            out[seat]["planets"] += pts
    if s["ufo"] is not None:
        for seat in range(n):
            out[seat]["ufo"] = sum(s["ufo"]["taken"][seat])
    if s["recon"] is not None:
        for seat in range(n):
            out[seat]["recon"] = sum(s["recon"]["taken"][seat])
    if s["missions"] is not None:
        for seat in range(n):
            done = sum(1 for _m, ok in missions_done(s, seat) if ok)
            out[seat]["missions"] = MISSION_POINTS[done]
    return out


def public_scores(s: dict[str, Any]) -> list[int]:
    if s["phase"] == "over":
        return [sum(b.values()) for b in breakdown_of(s)]
    scores = [s["mpts"][i] + s["dpts"][i] for i in range(s["n"])]
    for obj, holder in s["obj"].items():
        if holder is not None:
            scores[holder] += OBJECTIVES[obj]
    return scores


def result_of(s: dict[str, Any]) -> Result | None:
    if s["phase"] != "over":
        return None
    return result_of_parts(breakdown_of(s))


# --------------------------------------------------------------------------- views


def view_of(s: dict[str, Any], seat: int | None) -> dict[str, Any]:
    n = s["n"]
    phase = s["phase"]
    over = phase == "over"
    space = s["space"]
    ok = ACCEPTS.get(space, frozenset())
    pool = s["pool"]
    booster_used = [0] * n
    for c in s["crew"]:
        if c[1] == "booster" and c[2]:
            booster_used[c[0]] += 1
    v: dict[str, Any] = {
        "game": "mlem",
        "round": s["voyage"],
        "phase": PHASE_KEY[phase],
        "step": phase,
        "over": over,
        "end": s["end"],
        "players": n,
        "scores": public_scores(s),
        "start_seat": s["start"],
        "commander": None if phase == "chute" else _commander(s),
        "rocket": {
            "space": space,
            "crew": [{"seat": c[0], "astronaut": c[1], "used": bool(c[2])} for c in s["crew"]],
        },
        "dice": {
            "pool": pool,
            "discarded": s["disc"],
            "roll": list(s["roll"]),
            "usable": [f in ok for f in s["roll"]],
        },
        "space_info": {"faces": sorted(ok, key=str), "afterburner": AFTERBURNER.get(space)},
        "moons": {m: [a[0] if a else None for a in s["moons"][m]] for m in MOON_ORDER},
        "moon_astronauts": {
            m: [{"seat": a[0], "astronaut": a[1]} if a else None for a in s["moons"][m]]
            for m in MOON_ORDER
        },
        "planets": {p: planet_rows(s, p) for p in PLANET_ORDER},
        "planet_astronauts": {
            p: [{"seat": a[0], "astronaut": a[1]} for a in s["planets"][p]] for p in PLANET_ORDER
        },
        "deep_space": {w: [a[0] for a in s["deep"][w]] for w in ("comet", "galaxy")},
        "deep_astronauts": {
            w: [{"seat": a[0], "astronaut": a[1]} for a in s["deep"][w]]
            for w in ("comet", "galaxy")
        },
        "disasters": s["disasters"],
        "disaster_limit": DISASTERS,
        "boards": [
            {
                "left": list(s["board"][i]),
                "placed": s["placed"][i],
                "boosters_used": booster_used[i],
            }
            for i in range(n)
        ],
        "objectives": dict(s["obj"]),
        "last_voyage": s["final"],
        "waiting": _waiting(s),
        "ufo": None,
        "expedition": None,
        "recon": None,
        "missions": None,
    }
    ufo = s["ufo"]
    if ufo is not None:
        v["ufo"] = {
            "space": ufo["space"],
            "tiles_left": len(ufo["tiles"]),
            "taken": [len(t) for t in ufo["taken"]],
        }
        exp = s["exp"]
        tile = None
        if exp["tile"] is not None:
            tile = dict(EXPEDITION[exp["tile"]])
            if "extra" in tile:
                tile["extra"] = list(tile["extra"])
        v["expedition"] = {
            "tile": tile,
            "left": len(exp["deck"]),
            "ability_available": bool(exp["avail"] and exp["tile"] is not None),
        }
    recon = s["recon"]
    if recon is not None:
        slots: dict[str, Any] = {}
        for key, tile in recon["slots"].items():
            if tile is None:
                slots[key] = None
            elif tile in RECON_POINTS:
                slots[key] = {"kind": "points", "value": RECON_POINTS[tile]}
            else:
                slots[key] = {"kind": tile}
        v["recon"] = {
            "slots": slots,
            "left": len(recon["stack"]),
            "taken": [len(t) for t in recon["taken"]],
        }
    ms = s["missions"]
    if ms is not None:
        v["missions"] = {
            "kept": [len(k) if k is not None else 0 for k in ms["kept"]],
            "choosing": [i for i in range(n) if ms["kept"][i] is None],
        }
        if over:
            v["missions"]["revealed"] = [
                [{"id": m, "done": d} for m, d in missions_done(s, i)] for i in range(n)
            ]
    if over:
        v["reveal"] = reveal_of(s)
        res = result_of(s)
        assert res is not None
        v["result"] = result_view(res)
    if seat is not None:
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"no seat {seat!r}")
        priv: dict[str, Any] = {
            "missions": [{"id": m, "done": d} for m, d in missions_done(s, seat)],
            "dealt": [],
            "hidden_points": {
                "ufo": sum(ufo["taken"][seat]) if ufo is not None else 0,
                "recon": sum(recon["taken"][seat]) if recon is not None else 0,
            },
            "ufo_tiles": list(ufo["taken"][seat]) if ufo is not None else [],
            "recon_tiles": list(recon["taken"][seat]) if recon is not None else [],
        }
        if ms is not None and ms["kept"][seat] is None:
            priv["dealt"] = list(ms["dealt"][seat])
        v["private"] = priv
    return v


def reveal_of(s: dict[str, Any]) -> list[list[Any]]:
    """What was hidden, as ``[i18n key, args]`` lines for the end of the game: each seat's
    secret missions (kept, and met ✓ or not ✗), its face-down UFO tiles and its taken
    reconnaissance points tiles."""
    out: list[list[Any]] = []
    ms, ufo, recon = s["missions"], s["ufo"], s["recon"]
    for seat in range(s["n"]):
        if ms is not None and ms["kept"][seat] is not None:
            done = missions_done(s, seat)
            met = sum(1 for _m, ok in done if ok)
            marks = ", ".join(f"{m} {'✓' if ok else '✗'}" for m, ok in done)
            out.append(
                [
                    "mlem.reveal.missions",
                    {"seat": seat, "missions": marks, "met": met, "points": MISSION_POINTS[met]},
                ]
            )
        for kind, variant in (("ufo", ufo), ("recon", recon)):
            if variant is not None and variant["taken"][seat]:
                tiles = variant["taken"][seat]
                shown = ", ".join(str(v) for v in tiles)
                args = {"seat": seat, "n": len(tiles), "tiles": shown, "points": sum(tiles)}
                out.append([f"mlem.reveal.{kind}", args])
    return out


# --------------------------------------------------------------------------- persistence


_KEYS = {
    "schema": int,
    "n": int,
    "variants": dict,
    "seed": int,
    "rc": int,
    "phase": str,
    "voyage": int,
    "start": int,
    "space": int,
    "crew": list,
    "pool": int,
    "disc": int,
    "roll": list,
    "queue": list,
    "board": list,
    "placed": list,
    "moons": dict,
    "planets": dict,
    "deep": dict,
    "mpts": list,
    "dpts": list,
    "obj": dict,
    "disasters": int,
    "final": bool,
}


def dump_state(s: dict[str, Any]) -> dict[str, Any]:
    return clone(s)


def load_state(data: Mapping[str, Any]) -> dict[str, Any]:
    return load_checked(data, "mlem", _validate)


def _check(cond: bool, what: str) -> None:
    if not cond:
        raise ValueError(f"impossible mlem state: {what}")


def _validate(s: dict[str, Any]) -> None:
    for key, typ in _KEYS.items():
        _check(key in s, f"missing {key}")
        _check(isinstance(s[key], typ) and not (typ is int and isinstance(s[key], bool)), key)
    _check(s["schema"] == SCHEMA, "unknown schema")
    n = s["n"]
    _check(2 <= n <= 5, "players")
    _check(s["phase"] in PHASES, "phase")
    pick = s.get("pick")
    _check(pick is None or (s["phase"] == "explore" and isinstance(pick, str)), "pick")
    _check(set(s["variants"]) == set(VARIANTS), "variants")
    _check(0 <= s["start"] < n, "start seat")
    _check(0 <= s["space"] <= DEEP, "space")
    _check(0 <= s["disasters"] <= DISASTERS, "disasters")
    _check(s["pool"] >= 0 and s["disc"] >= 0 and s["pool"] + s["disc"] == DICE, "dice")
    _check(all(f in DICE_FACES for f in s["roll"]), "roll")
    for name in ("board", "placed", "mpts", "dpts"):
        _check(len(s[name]) == n, name)
    _check(s["end"] in (None, "disasters", "placed"), "end")
    seen: list[set[str]] = [set() for _ in range(n)]

    def mark(seat: Any, ability: Any) -> None:
        _check(isinstance(seat, int) and 0 <= seat < n, "seat")
        _check(ability in ABILITY_INDEX and ability not in seen[seat], "astronaut")
        seen[seat].add(ability)

    for seat in range(n):
        for a in s["board"][seat]:
            mark(seat, a)
    for c in s["crew"]:
        _check(len(c) == 3, "crew entry")
        mark(c[0], c[1])
    _check(set(s["moons"]) == set(MOONS), "moons")
    for m, occ in s["moons"].items():
        _check(len(occ) == len(MOONS[m]), "moon count")
        for a in occ:
            if a is not None:
                mark(a[0], a[1])
    _check(set(s["planets"]) == set(PLANETS), "planets")
    for p in PLANET_ORDER:
        for a in s["planets"][p]:
            mark(a[0], a[1])
    _check(set(s["deep"]) == {"comet", "galaxy"}, "deep space")
    for w in ("comet", "galaxy"):
        for a in s["deep"][w]:
            mark(a[0], a[1])
    _check(all(len(x) == len(ABILITIES) for x in seen), "every astronaut exactly once")
    crew_ids = {(c[0], c[1]) for c in s["crew"]}
    _check(all((q[0], q[1]) in crew_ids for q in s["queue"]), "queue")
    _check(set(s["obj"]) == set(OBJECTIVES), "objectives")
    _check(all(v is None or 0 <= v < n for v in s["obj"].values()), "objective holder")
    if s["variants"]["ufo"]:
        ufo, exp = s["ufo"], s["exp"]
        _check(1 <= ufo["space"] <= DEEP and len(ufo["taken"]) == n, "ufo")
        _check(all(t in EXPEDITION for t in exp["deck"]), "expedition deck")
        _check(exp["tile"] is None or exp["tile"] in EXPEDITION, "expedition tile")
    else:
        _check(s["ufo"] is None and s["exp"] is None, "ufo off")
    if s["variants"]["recon"]:
        recon = s["recon"]
        _check(set(recon["slots"]) == {str(sp) for sp in RECON_SLOTS}, "recon slots")
        tiles = [t for t in recon["slots"].values() if t is not None] + recon["stack"]
        _check(all(t in RECON_KINDS for t in tiles) and len(recon["taken"]) == n, "recon")
    else:
        _check(s["recon"] is None, "recon off")
    if s["variants"]["missions"]:
        ms = s["missions"]
        _check(len(ms["dealt"]) == n and len(ms["kept"]) == n, "missions")
        for dealt, kept in zip(ms["dealt"], ms["kept"], strict=True):
            _check(all(m in MISSION_BODIES for m in dealt), "mission ids")
            _check(kept is None or (len(kept) == MISSION_KEEP and set(kept) <= set(dealt)), "kept")
    else:
        _check(s["missions"] is None, "missions off")
    if s["phase"] in ("land", "chute"):
        _check(bool(s["queue"]), "landing queue")
    if s["phase"] == "explore":
        _check(bool(s["crew"]) and len(s["roll"]) == s["pool"], "exploration")
