"""The contract glue of Galaxy Trucker: set-up, pending decisions, moves, pre-launch, views,
the Intergalactic Trek (three flights in a row), voluntary retirement, dump and load. See the
package docstring for the rulings (R23-R29: the Trek and retirement)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from typing import Any

from core.contract import Decision, Event, Option, Result
from rules.kit import check, clone, load_checked, result_of_parts, result_view, rng

from . import adventure as adv
from . import building as bd
from . import ship as sh
from .building import GAME, cell_arg, err, ev, opt
from .tiles import (
    START_CABINS,
    board_cells,
    board_frame,
    cards,
    data,
    level,
    regular_tile_ids,
    sides_now,
    start_cell,
    tile,
)

SCHEMA = 1
#: The rulings a state was created under: 1 = the first rulings (R11, R26 and pre-launch as
#: first built: stored games keep them, so they replay bit for bit), 2 = R11b, R26b, R10b.
#: A state without the key is a rules-1 state. The version comes from the lobby's hidden
#: ``rules`` option (new lobbies store it): the host rebuilds a game from ``new_state`` and
#: its log (undo, rollback, audits), so a lobby stored without it must give rules 1.
RULES = 2
LEVELS = ("learning", "I", "II", "III")
#: The Intergalactic Trek: three flights in a row, one per level (R23).
TREK = ("I", "II", "III")
#: The lobby's values of the ``level`` option: a single flight, or the Trek.
MODES = (*LEVELS, "trek")
#: The flight questions that also offer ``retire`` (R26; rules 1).
RETIRE_KINDS = ("engines", "cannons", "take", "reward", "planet")
#: ... and since R26b (rules 2), from the first card on, hazards too.
RETIRE_KINDS_2 = (*RETIRE_KINDS, "hazard")
#: Lobby hourglass lengths (seconds per run of the sand).
HOURGLASS = {"90s": 90, "3m": 180, "10m": 600, "1h": 3600, "4h": 14400, "12h": 43200}
ALIENS = ("brown", "purple")


# --------------------------------------------------------------------------- set-up


def new_state(players: int, options: Mapping[str, str], seed: int) -> dict[str, Any]:
    if not 2 <= players <= 4:
        raise ValueError("galaxy_trucker needs 2 to 4 players")
    mode = options.get("level", "I")
    if mode not in MODES:
        raise ValueError(f"unknown level {mode!r}")
    hg = options.get("hourglass", "3m")
    if hg not in HOURGLASS:
        raise ValueError(f"unknown hourglass {hg!r}")
    rules = int(options.get("rules", "1"))
    if rules not in (1, RULES):
        raise ValueError(f"unknown rules {rules!r}")
    lv = TREK[0] if mode == "trek" else mode
    s: dict[str, Any] = {
        "schema": SCHEMA,
        "rules": rules,
        "game": GAME,
        "seed": seed,
        "rc": 0,
        "n": players,
        "level": lv,
        "hg_seconds": HOURGLASS[hg],
        "phase": "build",
        "facedown": [],
        "faceup": [],
        "taken": {},
        "piles": [],
        "hg": {},
        "order": [],
        "players": [],
    }
    if rules == 1:
        del s["rules"]  # as a state stored before the key existed: it replays to the same dump
    if mode == "trek":
        # flight: 1-3; banked: credits held before this flight; flights: each flight's
        # credits per seat (what it added to the running total)
        s["trek"] = {"flight": 1, "banked": [0] * players, "flights": []}
    _setup_flight(s)
    return s


def _setup_flight(s: dict[str, Any]) -> None:
    """A fresh flight at ``s["level"]``: new ships (a starting cabin each), every tile face
    down and shuffled, the card piles dealt, the hourglass on its first run."""
    info = level(s["level"])
    board = info["board"]
    s["phase"] = "build"
    s["faceup"], s["taken"], s["order"] = [], {}, []
    s["hg"] = {"run": 1, "runs": info["hourglass_runs"], "out": False}
    s["players"] = [bd.new_player(START_CABINS[i], start_cell(board)) for i in range(s["n"])]
    r = rng(s, GAME)
    pool = regular_tile_ids()
    r.shuffle(pool)
    s["facedown"] = pool
    s["piles"] = _deal_piles(info["piles"], r)


def _deal_piles(spec: Mapping[str, int], r: Any) -> list[list[str]]:
    by_level: dict[str, list[str]] = {}
    for cid, c in sorted(cards().items()):
        if c["level"] == 1 and c["learning_flight"]:
            by_level.setdefault("learning", []).append(cid)
        by_level.setdefault(str(c["level"]), []).append(cid)
    for deck in by_level.values():
        r.shuffle(deck)
    piles: list[list[str]] = [[] for _ in range(4)]
    for lv, count in spec.items():
        deck = by_level[lv]
        for pile in piles:
            for _ in range(count):
                pile.append(deck.pop())
    return piles


# --------------------------------------------------------------------------- pending


def pending_of(s: dict[str, Any]) -> list[Decision]:
    phase = s["phase"]
    out: list[Decision]
    if phase == "build":
        out = bd.decisions(s)
    elif phase == "flight":
        out = [_with_retire(s, d) for d in adv.decisions(s)]
    elif phase == "prelaunch":
        out = [
            _prelaunch_decision(s, seat)
            for seat, p in enumerate(s["players"])
            if p["stage"] != "ready"
        ]
    else:
        return []
    tr = s.get("trek")
    if tr is None:
        return out
    return [_in_trek(d, tr["flight"]) for d in out]


def waits_for(s: dict[str, Any], seat: int) -> bool:
    """``seat`` has a decision in :func:`pending_of` (while building, told without building
    every seat's decision)."""
    if s["phase"] == "build":
        return bd.waits(s, seat)
    return any(d.seat == seat for d in pending_of(s))


def _waiting(s: dict[str, Any]) -> list[int]:
    """The seats with a decision in :func:`pending_of`, in order (while building, told
    without building their decisions)."""
    if s["phase"] == "build":
        return [seat for seat in range(s["n"]) if bd.waits(s, seat)]
    return sorted({d.seat for d in pending_of(s)})


def _in_trek(d: Decision, flight: int) -> Decision:
    """Each flight of the Trek asks its own questions and runs its own hourglass: keys and
    timer keys carry the flight (the host starts a timer key once, R25)."""
    timer = d.timer
    if timer is not None:
        timer = replace(timer, key=f"t{flight}.{timer.key}")
    return replace(d, key=f"t{flight}.{d.key}", timer=timer)


def can_retire(s: dict[str, Any], seat: int) -> bool:
    """``seat`` is being asked a flight question that offers giving up the flight: from the
    second card on (R26)."""
    f = s.get("flight")
    if s["phase"] != "flight" or f is None or f["ask"] is None:
        return False
    a = f["ask"]
    if rules_of(s) >= 2:  # R26b: from the first card on, beside every single choice
        return a["seat"] == seat and a["kind"] in RETIRE_KINDS_2 and seat not in f.get("quit", [])
    return (
        f["cards_done"] >= 1
        and a["seat"] == seat
        and a["kind"] in RETIRE_KINDS
        and seat not in f.get("quit", [])
    )


def can_give_up(s: dict[str, Any], seat: int) -> bool:
    """R26c: ``seat``'s ship may give up the flight now, unasked (a standing decision): it is
    flying, not the ship being asked (that one gives up beside its own question, R26b), not
    already leaving, in a game under rules 2."""
    f = s.get("flight")
    if rules_of(s) < 2 or s["phase"] != "flight" or f is None or f["ask"] is None:
        return False
    return (
        f["pos"][seat] is not None
        and f["ask"]["seat"] != seat
        and seat not in f.get("quit", [])
        and seat not in f["doomed"]
    )


def standing_of(s: dict[str, Any]) -> list[Decision]:
    """R26c: every flying ship not being asked may give up the flight at any time (public,
    ``key = give_up.<seat>``, option ``retire``): after the card being resolved, or at once
    between two cards (while ships the last card hurt are asked, R26b)."""
    if s["phase"] != "flight":
        return []
    now = "window" in s["flight"]  # between two cards: the last one is over
    label = "opt.give_up_now" if now else "opt.give_up"
    prompt = f"{GAME}.prompt.give_up_now" if now else f"{GAME}.prompt.give_up"
    out = [
        Decision(seat, prompt, (opt("retire", label, "danger"),), key=f"give_up.{seat}")
        for seat in range(s["n"])
        if can_give_up(s, seat)
    ]
    tr = s.get("trek")
    return out if tr is None else [_in_trek(d, tr["flight"]) for d in out]


def _give_up(s: dict[str, Any], seat: int) -> list[Event]:
    """R26c: ``seat`` gives up unasked. Between two cards it leaves at once; during a card it
    leaves once the card is resolved (with the retirements the rules force), before the next
    card is revealed. The question open for another seat stays the same question."""
    f = s["flight"]
    if "window" in f:
        f["pos"][seat] = None
        f["retired"].append(seat)
        f["window"] = [x for x in f["window"] if x != seat]
        return [ev("gave_up", seat)]
    f.setdefault("quit", []).append(seat)
    f["doomed"].append(seat)
    return [ev("will_retire", seat)]


def asked(s: dict[str, Any], seat: int) -> str | None:
    """The kind of flight question ``seat`` is asked now (``"next"``: the window between
    cards, R26b), else None."""
    f = s.get("flight")
    if s["phase"] != "flight" or not f or not f["ask"] or f["ask"]["seat"] != seat:
        return None
    return str(f["ask"]["kind"])


def rules_of(s: Mapping[str, Any]) -> int:
    """Which rulings the state follows (see :data:`RULES`)."""
    return int(s.get("rules", 1))


def _with_retire(s: dict[str, Any], d: Decision) -> Decision:
    if not can_retire(s, d.seat):
        return d
    return replace(d, options=(*d.options, opt("retire", "opt.retire", "danger")))


def _retire(s: dict[str, Any], seat: int) -> list[Event]:
    """``seat`` gives up the flight: it answers the open question as usual and leaves the
    flight once the card is resolved, before the next card is revealed (R26-R27)."""
    if not can_retire(s, seat):
        raise err("no_retire")
    f = s["flight"]
    f.setdefault("quit", []).append(seat)
    f["doomed"].append(seat)
    f["seq"] += 1  # a new question: the same one, without "retire"
    return [ev("will_retire", seat)]


def _prelaunch_decision(s: dict[str, Any], seat: int) -> Decision:
    p = s["players"][seat]
    ship = sh.load(p["ship"])
    stage = p["stage"]
    options: list[Option]
    args: dict[str, Any] = {}
    if stage == "split":
        grid, options = bd.grid_options(sorted(ship), "keep", "opt.keep", "primary")
        options.append(opt("fix", "opt.fix", "success"))
        args = {"parts": len(sh.parts(ship))}
    elif stage == "fix":
        probs = sh.problems(ship)
        bad = {c for _, cells in probs for c in cells}
        # R10b: only a tile that breaks a rule may be removed (rules 1: any tile)
        cells = sorted(bad) if rules_of(s) >= 2 else sorted(ship)
        grid, options = bd.grid_options(cells, "rm", "opt.rm", "secondary", bad)
        options.append(opt("fix", "opt.fix", "success"))
        args = {"problems": len(probs)}
    else:  # alien.<colour>
        colour = stage.split(".")[1]
        cabins = _alien_cabins(s, seat, colour)
        grid, options = bd.grid_options(
            cabins, f"alien.{colour}", f"opt.alien_{colour}", "primary"
        )
        options.append(opt("noalien", f"opt.noalien_{colour}"))
    prompt = f"{GAME}.prompt.{stage.replace('.', '_')}"
    key = f"pre.{seat}.{p['step']}"
    return bd.ship_decision(seat, prompt, options, args=args, key=key, grid=grid)


# --------------------------------------------------------------------------- pre-launch


def start_prelaunch(s: dict[str, Any]) -> list[Event]:
    """Building is over: reserves are lost, every ship is checked."""
    s["phase"] = "prelaunch"
    events = [ev("build_over")]
    for seat, p in enumerate(s["players"]):
        if p["reserve"]:
            p["lost"] += p["reserve"]
            events.append(ev("reserve_lost", seat, count=len(p["reserve"])))
            p["reserve"] = []
        events += _advance(s, seat)
    events += _maybe_launch(s)
    return events


def _advance(s: dict[str, Any], seat: int) -> list[Event]:
    """Move ``seat`` to its next pre-launch stage."""
    p = s["players"][seat]
    ship = sh.load(p["ship"])
    if len(sh.parts(ship)) > 1:
        p["stage"] = "split"
        return [ev("split", seat, private_to=seat, parts=len(sh.parts(ship)))]
    probs = sh.problems(ship)
    if probs:
        p["stage"] = "fix"
        return [ev("problems", seat, private_to=seat, count=len(probs))]
    if level(s["level"])["aliens"]:
        for colour in ALIENS:
            if colour not in p["aliens"] and _alien_cabins(s, seat, colour):
                p["stage"] = f"alien.{colour}"
                return []
    return _board_crew(s, seat)


def _alien_cabins(s: dict[str, Any], seat: int, colour: str) -> list[sh.Cell]:
    """Cabins (not the starting one) joined to a life support of ``colour`` and free."""
    p = s["players"][seat]
    if p["aliens"].get(colour):
        return []
    taken = {sh.unkey(k) for k in p["aliens"].values() if k}
    ship = sh.load(p["ship"])
    return [
        cell
        for cell, (tid, _rot) in sorted(ship.items())
        if tile(tid).type == "cabin"
        and cell not in taken
        and adv.life_supported(ship, cell, colour)
    ]


def _board_crew(s: dict[str, Any], seat: int) -> list[Event]:
    """Crew in every cabin (2 humans, or the chosen alien), batteries full."""
    p = s["players"][seat]
    alien_at = {k: colour for colour, k in p["aliens"].items() if k}
    crew: dict[str, int] = {}
    batteries: dict[str, int] = {}
    for k, (tid, _) in sorted(p["ship"].items()):
        t = tile(tid)
        if t.type in ("cabin", "starting_cabin") and k not in alien_at:
            crew[k] = 2
        elif t.type == "battery":
            batteries[k] = t.capacity
    p["crew"], p["batteries"] = crew, batteries
    p["stage"] = "ready"
    return [
        ev(
            "ready",
            seat,
            humans=sum(crew.values()),
            aliens=len(alien_at),
            batteries=sum(batteries.values()),
            lost=len(p["lost"]),
        )
    ]


def _apply_prelaunch(s: dict[str, Any], seat: int, choice: str) -> list[Event]:
    p = s["players"][seat]
    stage = p["stage"]
    if stage == "ready":
        raise err("ready")
    ship = sh.load(p["ship"])
    head, _, rest = choice.partition(".")
    events: list[Event]
    if choice == "fix" and stage in ("fix", "split"):
        keep = sh.fix_plan(ship, start_cell(bd.board_of(s)), cabin_first=rules_of(s) >= 2)
        lost = [v[0] for c, v in sorted(ship.items()) if c not in keep]
        p["ship"] = sh.dump({c: v for c, v in ship.items() if c in keep})
        p["lost"] += lost
        events = [ev("fixed", seat, count=len(lost))]
    elif head == "rm" and stage == "fix":
        cell = cell_arg(rest)
        if cell not in ship:
            raise err("bad_cell")
        if rules_of(s) >= 2 and not any(cell in cells for _, cells in sh.problems(ship)):
            raise err("legal_tile", row=cell[0], col=cell[1])  # R10b
        tid = ship.pop(cell)[0]
        p["ship"] = sh.dump(ship)
        p["lost"].append(tid)
        events = [ev("removed", seat, row=cell[0], col=cell[1], tile=tid)]
    elif head == "keep" and stage == "split":
        cell = cell_arg(rest)
        if cell not in ship:
            raise err("bad_cell")
        kept, lost = sh.keep_part(ship, cell)
        p["ship"] = sh.dump(kept)
        p["lost"] += lost
        events = [ev("kept", seat, row=cell[0], col=cell[1], count=len(lost))]
    elif head == "alien" and stage.startswith("alien."):
        colour = stage.split(".")[1]
        c, _, cellkey = rest.partition(".")
        cell = cell_arg(cellkey)
        if c != colour or cell not in _alien_cabins(s, seat, colour):
            raise err("no_alien_here")
        p["aliens"][colour] = sh.key(cell)
        events = [ev(f"alien_{colour}", seat, row=cell[0], col=cell[1])]
    elif choice == "noalien" and stage.startswith("alien."):
        p["aliens"][stage.split(".")[1]] = None
        events = []
    else:
        raise err("not_offered")
    p["step"] += 1
    events += _advance(s, seat)
    events += _maybe_launch(s)
    return events


def _maybe_launch(s: dict[str, Any]) -> list[Event]:
    if s["phase"] != "prelaunch" or any(p["stage"] != "ready" for p in s["players"]):
        return []
    return adv.start_flight(s)


def result_of(s: dict[str, Any]) -> Result | None:
    if s["phase"] != "over":
        return None
    tr = s.get("trek")
    parts: list[dict[str, int]]
    if tr is None:
        parts = adv.breakdown_of(s)
    else:  # each flight's credits (R24)
        parts = [
            {f"flight_{k + 1}": flight[seat] for k, flight in enumerate(tr["flights"])}
            for seat in range(s["n"])
        ]
    return result_of_parts(parts)


# --------------------------------------------------------------------------- apply


def apply_move(s: dict[str, Any], seat: int, choice: str) -> tuple[dict[str, Any], list[Event]]:
    if not isinstance(seat, int) or not 0 <= seat < s["n"]:
        raise err("bad_seat")
    if not isinstance(choice, str):
        raise err("not_offered")
    phase = s["phase"]
    if phase == "over":
        raise err("over")
    new = clone(s)
    if phase == "build":
        if choice != bd.HG_OUT and not bd.waits(s, seat):
            raise err("finished")
        events = bd.apply_build(new, seat, choice)
        if bd.building_over(new):
            events += start_prelaunch(new)
    elif phase == "flight":
        ask = new["flight"]["ask"]
        window = ask and ask["kind"] == "next"
        if choice == "retire" and not (window and ask["seat"] == seat):
            if can_give_up(new, seat):  # R26c: unasked
                return new, _give_up(new, seat)
            if not window:
                return new, _retire(new, seat)  # beside the seat's own question (R26)
        events = adv.apply_flight(new, seat, choice)
    else:
        events = _apply_prelaunch(new, seat, choice)
    f = new.get("flight")
    if f is not None and f.get("quit"):
        f["quit"] = [x for x in f["quit"] if f["pos"][x] is not None]
    if new["phase"] == "over" and new.get("trek") is not None:
        events = _end_of_trek_flight(new, events)
    return new, events


# --------------------------------------------------------------------------- the Trek


def flight_table(s: dict[str, Any]) -> list[dict[str, int]]:
    """The end-of-flight table of the flight just over. In the Trek, lost tiles are paid
    out of the credits held from earlier flights too: only the running total never goes
    below 0 (R24)."""
    parts = adv.breakdown_of(s)
    tr = s.get("trek")
    if tr is None:
        return parts
    penalty = int(data()["lost_tile_penalty"])
    for seat, (b, p) in enumerate(zip(parts, s["players"], strict=True)):
        b["lost"] = -len(p["lost"]) * penalty
        total = tr["banked"][seat] + sum(b.values())
        if total < 0:
            b["lost"] -= total
    return parts


def _end_of_trek_flight(s: dict[str, Any], events: list[Event]) -> list[Event]:
    """A flight of the Trek is over: its table goes into the running totals, and the next
    flight starts at the next level with new ships, pool and cards (R23)."""
    tr = s["trek"]
    k = tr["flight"]
    parts = flight_table(s)
    gained = [sum(b.values()) for b in parts]
    tr["flights"].append(gained)
    tr["banked"] = [a + b for a, b in zip(tr["banked"], gained, strict=True)]
    # the flight's own "ends with n credits" lines become the Trek's (flight and total)
    out = [e for e in events if e.code != f"{GAME}.event.credits"]
    out.append(ev("trek_flight_over", flight=k, flights=len(TREK)))
    for seat, (got, total) in enumerate(zip(gained, tr["banked"], strict=True)):
        out.append(ev("trek_credits", seat, flight=k, credits=got, total=total))
        s["players"][seat]["credits"] = total
    if k >= len(TREK):
        return [*out, ev("trek_over")]
    tr["flight"] = k + 1
    s["level"] = TREK[k]
    s.pop("flight", None)
    _setup_flight(s)  # (steps count from 0 again: the keys carry the flight, R25)
    for seat, p in enumerate(s["players"]):
        p["credits"] = tr["banked"][seat]
    return [*out, ev("trek_next", flight=k + 1, flights=len(TREK), level=s["level"])]


def gone_reason(s: dict[str, Any], seat: int, option_id: str) -> tuple[str, dict[str, Any]] | None:
    """Why an option a seat clicked is no longer offered, when another player caused it."""
    if option_id.startswith("take."):
        tid = option_id[5:]
        if s["phase"] == "build" and tid.isdigit() and int(tid) not in s["faceup"]:
            by = s["taken"].get(tid)
            if by is not None and by != seat:
                return f"{GAME}.gone.taken", {"by_seat": by, "tile": int(tid)}
            return f"{GAME}.gone.tile", {"tile": int(tid)}
    if option_id == "flip" and s["phase"] == "build" and not s["hg"]["out"]:
        return f"{GAME}.gone.flipped", {"run": s["hg"]["run"]}
    return None


# --------------------------------------------------------------------------- layout

#: A message holds 5 rows of 5 buttons.
PANEL_ROWS, PANEL_COLS = 5, 5


def panel_of(s: dict[str, Any], d: Decision) -> list[list[str | None]] | None:
    """Rows of buttons for a grid decision that the generic grid would page (wider than 5
    columns, or too tall to leave a row for the other buttons): the rows and columns
    holding no cell are squeezed out, so that a phone player taps the cell at once instead
    of paging. The cells keep their places when the squeezed grid fits; otherwise each
    board row becomes a row of buttons, left to right (a board row of more than 5 cells
    going on in the next row of buttons), neighbouring rows sharing a row of buttons when
    there are too many (labels name row and column). None when the generic grid fits as
    it is, or the cells do not fit in one message."""
    if d.grid is None:
        return None
    cells = [(o.cell, o.id) for o in d.options if o.cell is not None]
    extras = [o.id for o in d.options if o.cell is None]
    room = PANEL_ROWS - (1 if extras else 0)
    height, width = d.grid
    if not cells or len(extras) > PANEL_COLS or (width <= PANEL_COLS and height <= room):
        return None
    rows = sorted({c[0] for c, _ in cells})
    cols = sorted({c[1] for c, _ in cells})
    at = {c: oid for c, oid in cells}
    out: list[list[str | None]]
    if len(rows) <= room and len(cols) <= PANEL_COLS:
        out = [[at.get((r, c)) for c in cols] for r in rows]
    else:
        # each board row a row of buttons, a long one carried on to the next row
        lines: list[list[str]] = []
        for r in rows:
            line = [oid for c, oid in sorted(cells) if c[0] == r]
            lines += [line[i : i + PANEL_COLS] for i in range(0, len(line), PANEL_COLS)]
        # too many rows: join the neighbouring pair that makes the shortest row that fits
        while len(lines) > room:
            pairs = [
                i for i in range(len(lines) - 1) if len(lines[i]) + len(lines[i + 1]) <= PANEL_COLS
            ]
            if not pairs:
                return None
            k = min(pairs, key=lambda i: len(lines[i]) + len(lines[i + 1]))
            lines[k : k + 2] = [lines[k] + lines[k + 1]]
        out = [list(line) for line in lines]
    if extras:
        out.append(list(extras))
    return out


# --------------------------------------------------------------------------- views


@cache
def _tile_face(tid: int, rot: int) -> tuple[str, str]:
    """A tile's kind and its connectors once rotated (fixed data: worked out once)."""
    return tile(tid).kind, sides_now(tid, rot)


def _tile_view(tid: int, rot: int = 0) -> dict[str, Any]:
    kind, sides = _tile_face(tid, rot)
    return {"id": tid, "kind": kind, "rot": rot, "sides": sides}


def _ship_view(s: dict[str, Any], p: dict[str, Any]) -> dict[str, Any]:
    ship = sh.load(p["ship"])
    out: dict[str, Any] = {
        "tiles": [
            {"cell": [r, c], **_tile_view(t, rot)} for (r, c), (t, rot) in sorted(ship.items())
        ],
        "reserve": [_tile_view(t) for t in p["reserve"]],
        "done": p["done"],
        "stage": p["stage"],
        "lost": len(p["lost"]),
        "exposed": sh.exposed(ship),
        "aliens": {k: sh.unkey(v) if v else None for k, v in p["aliens"].items()},
        "crew": p["crew"],
        "batteries": p["batteries"],
        "credits": p["credits"],
        "goods": p.get("goods", {}),
    }
    if s["phase"] == "prelaunch":
        out["problems"] = [[code, [list(c) for c in cells]] for code, cells in sh.problems(ship)]
        out["parts"] = len(sh.parts(ship))
    if p["last"] is not None:
        out["last"] = list(sh.unkey(p["last"]))
    return out


def view_of(s: dict[str, Any], seat: int | None) -> dict[str, Any]:
    board = bd.board_of(s)
    r0, c0, rows, cols = board_frame(board)
    info = level(s["level"])
    v: dict[str, Any] = {
        "game": GAME,
        "round": None,
        "phase": f"{GAME}.phase.{s['phase']}",
        "step": s["phase"],
        "over": s["phase"] == "over",
        "scores": [p["credits"] for p in s["players"]],
        "players": s["n"],
        "level": s["level"],
        "board": {
            "name": board,
            "frame": [r0, c0, rows, cols],
            "cells": [list(c) for c in sorted(board_cells(board))],
            "start": list(start_cell(board)),
        },
        "hourglass": {**s["hg"], "seconds": s["hg_seconds"]},
        "facedown": len(s["facedown"]),
        "faceup": [_tile_view(t) for t in s["faceup"]],
        "order": list(s["order"]),
        "start_spaces": info["start_spaces"],
        "track": info["track"],
        "piles": [len(p) for p in s["piles"]],
        "ships": [_ship_view(s, p) for p in s["players"]],
        "waiting": _waiting(s),
    }
    tr = s.get("trek")
    if tr is not None:
        k = tr["flight"]
        v["phase"] = f"{GAME}.phase.trek{k}.{s['phase']}"
        v["trek"] = {
            "flight": k,
            "flights": len(TREK),
            "levels": list(TREK),
            "banked": list(tr["banked"]),
            "history": [list(x) for x in tr["flights"]],
        }
    f = s.get("flight")
    if f is not None:
        v["flight"] = {
            "positions": list(f["pos"]),
            "spaces": [None if q is None else q % f["track"] for q in f["pos"]],
            "order": adv.flying(s),
            "retired": list(f["retired"]),
            "card": cards()[f["card"]] if f["card"] else None,
            # a card already done whose losses (crew, a split ship, goods) are still asked
            "card_over": cards()[f["last"]] if not f["card"] and f.get("last") else None,
            "cards_left": len(f["deck"]),
            "cards_done": f["cards_done"],
            "bank": dict(f["bank"]),
            "asking": f["ask"]["seat"] if f["ask"] else None,
            "retiring": list(f.get("quit", [])),
        }
        v["round"] = f["cards_done"] + (1 if f["card"] else 0)
        # One move may resolve several cards (those that ask nothing): a trail message
        # headed by one card number would hold other cards' lines. Each card's first line
        # names it ("Card 3 of 10: Meteor swarm"), so the trail needs no card headers.
        v["trail_round"] = None
    if s["phase"] == "over":
        res = result_of(s)
        assert res is not None
        v["result"] = result_view(res, winners=False)
    if seat is not None and 0 <= seat < s["n"]:
        p = s["players"][seat]
        priv: dict[str, Any] = {"seat": seat}
        if p["hand"] is not None:
            priv["hand"] = {**_tile_view(p["hand"], p["rot"]), "src": p["src"]}
            priv["free"] = [list(c) for c in sh.free_cells(sh.load(p["ship"]), board_cells(board))]
        if p["peek"] is not None:
            allc = cards()
            priv["peek"] = {
                "pile": p["peek"] + 1,
                "cards": [allc[c] for c in s["piles"][p["peek"]]],
            }
        v["private"] = priv
    return v


# --------------------------------------------------------------------------- dump / load


_KEYS = {
    "schema": int,
    "game": str,
    "seed": int,
    "rc": int,
    "n": int,
    "level": str,
    "hg_seconds": int,
    "phase": str,
    "facedown": list,
    "faceup": list,
    "taken": dict,
    "piles": list,
    "hg": dict,
    "order": list,
    "players": list,
}


def dump_state(s: dict[str, Any]) -> dict[str, Any]:
    return clone(s)


def load_state(data: Mapping[str, Any]) -> dict[str, Any]:
    return load_checked(data, "galaxy_trucker", _validate)


def _validate(s: dict[str, Any]) -> None:
    for k, typ in _KEYS.items():
        check(isinstance(s[k], typ), f"{k} is not {typ.__name__}")
    check(s["schema"] == SCHEMA, "schema version")
    check(s.get("rules", 1) in (1, RULES), "rules version")
    check(s["game"] == GAME, "game id")
    check(s["level"] in LEVELS, "level")
    check(s["phase"] in ("build", "prelaunch", "flight", "over"), "phase")
    check(2 <= s["n"] <= 4 and len(s["players"]) == s["n"], "players")
    if "trek" in s:
        _check_trek(s)
    _check_tiles(s)


def _check_trek(s: dict[str, Any]) -> None:
    tr = s["trek"]
    check(isinstance(tr, dict), "trek is not dict")
    check(isinstance(tr["flight"], int) and 1 <= tr["flight"] <= len(TREK), "trek flight")
    check(s["level"] == TREK[tr["flight"] - 1], "trek level")
    check(len(tr["banked"]) == s["n"], "trek credits")
    check(len(tr["flights"]) in (tr["flight"] - 1, tr["flight"]), "trek flights")
    for flight in tr["flights"]:
        check(len(flight) == s["n"], "trek flight credits")


def all_tiles(s: dict[str, Any]) -> list[int]:
    """Every tile wherever it is: pool, ships, hands, reserves, losses."""
    out = list(s["facedown"]) + list(s["faceup"])
    for p in s["players"]:
        out += [v[0] for v in p["ship"].values()]
        out += list(p["reserve"]) + list(p["lost"])
        if p["hand"] is not None:
            out.append(p["hand"])
    return out


def _check_tiles(s: dict[str, Any]) -> None:
    expected = sorted(regular_tile_ids() + list(START_CABINS[: s["n"]]))
    check(sorted(all_tiles(s)) == expected, "tiles are not conserved")
    for p in s["players"]:
        check(len(p["reserve"]) <= 2, "reserve over 2")
        for k in p["ship"]:
            check(sh.unkey(k) in board_cells(bd.board_of(s)), "tile outside the board")
