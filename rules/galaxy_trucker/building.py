"""The building phase: simultaneous and private, from a shared pool of tiles.

Per seat the state holds ``ship`` (``{"r.c": [tile, rot]}``), ``hand`` (the tile being
decided on, or None) with ``rot`` and ``src`` (``down`` drawn face down, ``pool`` taken
face up, ``reserve``, ``ship`` when the last placed tile was lifted again), ``reserve``
(at most 2), ``last`` (the cell of the last placed tile while it may still move) and
``last_src``, ``peek`` (the card pile being looked at), ``placed`` (a tile was attached),
``done``. Shared: ``facedown`` (drawn from the end), ``faceup`` (the open pool),
``taken`` (``{tile: seat}`` who last took a tile from the open pool), ``hg`` (hourglass)
and ``order`` (seats in the order they finished).
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from core.contract import Decision, Event, IllegalMove, Option, Timer
from rules.kit import Events, Options

from . import ship as sh
from .tiles import GAME, board_cells, level, sides_now, tile

ev = Events(GAME)
opt = Options(GAME)

#: The option the hourglass timer applies when the sand runs out. It is offered (the contract
#: wants a timer's option among the decision's options) but meant for the host's timer only.
HG_OUT = "hg.out"


def err(code: str, **args: Any) -> IllegalMove:
    return IllegalMove(f"{GAME}.error.{code}", **args)


def cell_arg(text: str) -> sh.Cell:
    """The cell an option id names (``<row>.<col>``); refused as a bad cell otherwise."""
    try:
        return sh.unkey(text)
    except ValueError:
        raise err("bad_cell") from None


def board_of(s: dict[str, Any]) -> str:
    out: str = level(s["level"])["board"]
    return out


def new_player(start_tile: int, start: tuple[int, int]) -> dict[str, Any]:
    return {
        "ship": {sh.key(start): [start_tile, 0]},
        "hand": None,
        "rot": 0,
        "src": None,
        "reserve": [],
        "last": None,
        "last_src": None,
        "peek": None,
        "placed": False,
        "done": False,
        "step": 0,
        "lost": [],
        "stage": "build",
        "aliens": {},
        "crew": {},
        "batteries": {},
        "credits": 0,
    }


# --------------------------------------------------------------------------- hourglass


def hg_running(s: dict[str, Any]) -> bool:
    hg = s["hg"]
    return bool(hg["runs"]) and not hg["out"]


def can_flip(s: dict[str, Any], seat: int) -> bool:
    """The sand is out, a space is left, and only a finished player flips onto the last."""
    hg = s["hg"]
    if not hg["runs"] or not hg["out"] or hg["run"] >= hg["runs"]:
        return False
    return hg["run"] + 1 < hg["runs"] or bool(s["players"][seat]["done"])


def timer_of(s: dict[str, Any]) -> Timer | None:
    if not hg_running(s):
        return None
    return Timer(f"hourglass.{s['hg']['run']}", float(s["hg_seconds"]), HG_OUT)


# --------------------------------------------------------------------------- decisions


#: Words for a connector character (front, right, rear, left as the view's ``sides``).
CONNECTOR_WORD = {"0": "smooth", "1": "single", "2": "double", "U": "universal"}


def tile_args(tid: int, rot: int = 0) -> dict[str, Any]:
    """A tile's number and, in words, what each side carries (``front_key`` …): a player
    reads "front: universal connector", never a code such as ``U100``."""
    sides = sides_now(tid, rot)
    out: dict[str, Any] = {"tile": tid, "sides": sides}
    for name, c in zip(("front", "right", "rear", "left"), sides, strict=True):
        out[f"{name}_key"] = f"{GAME}.conn.{CONNECTOR_WORD.get(c, 'smooth')}"
    return out


def grid_options(
    cells: list[sh.Cell],
    prefix: str,
    label: str,
    style: str,
    danger: set[sh.Cell] | frozenset[sh.Cell] = frozenset(),
) -> tuple[tuple[int, int] | None, list[Option]]:
    """Options ``<prefix>.<row>.<col>`` laid out as a grid of the ship board, cropped to the
    rows and columns the cells span (fewer buttons and less paging on a phone; each label
    names its row and column)."""
    if not cells:
        return None, []
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    rows = max(r for r, _ in cells) - r0 + 1
    cols = max(c for _, c in cells) - c0 + 1
    out = [
        _grid_option(prefix, label, "danger" if (r, c) in danger else style, r, c, r0, c0)
        for r, c in cells
    ]
    return (rows, cols), out


@lru_cache(maxsize=4096)
def _grid_option(prefix: str, label: str, style: str, r: int, c: int, r0: int, c0: int) -> Option:
    """The option of cell (``r``, ``c``) in a grid whose corner is (``r0``, ``c0``): the same
    (shared) option every time it comes again."""
    o = opt(f"{prefix}.{r}.{c}", label, style, row=r, col=c)
    return Option(o.id, o.label, o.args, o.style, (r - r0, c - c0))


@cache
def _tile_option(verb: str, tid: int) -> Option:
    """The option to ``verb`` ("take" from the open pool, "use" from the reserve) tile
    ``tid``: the same (shared) option every time, worked out once."""
    return opt(f"{verb}.{tid}", f"opt.{verb}.{tile(tid).kind}", **tile_args(tid))


def build_decision(s: dict[str, Any], seat: int) -> Decision:
    p = s["players"][seat]
    options: list[Option] = []
    grid = None
    prompt = "prompt.build"
    args: dict[str, Any] = {}
    if p["peek"] is not None:
        prompt = "prompt.peek"
        args = {"pile": p["peek"] + 1}
        options.append(opt("unpeek", "opt.unpeek", "primary"))
    elif p["hand"] is not None:
        tid = p["hand"]
        prompt = "prompt.hand." + tile(tid).kind
        args = tile_args(tid, p["rot"])
        free = sh.free_cells(sh.load(p["ship"]), board_cells(board_of(s)))
        grid, options = grid_options(free, "place", "opt.place", "success")
        options.append(opt("rot", "opt.rot", "primary"))
        if p["src"] == "reserve":
            options.append(opt("back", "opt.back"))
        else:
            if len(p["reserve"]) < 2:
                options.append(opt("reserve", "opt.reserve"))
            options.append(opt("return", "opt.return", "danger"))
    else:
        if s["facedown"]:
            options.append(opt("draw", "opt.draw", "primary", left=len(s["facedown"])))
        for tid in p["reserve"]:
            options.append(_tile_option("use", tid))
        if p["last"] is not None:
            options.append(opt("lrot", "opt.lrot"))
            options.append(opt("lift", "opt.lift"))
        if p["placed"]:
            for i in range(3):
                options.append(opt(f"peek.{i}", "opt.peek", pile=i + 1))
        # done: which start space it takes, and plainly when nothing was built yet
        space = level(s["level"])["start_spaces"][len(s["order"])] + 1
        label = "opt.done" if p["placed"] else "opt.done_empty"
        options.append(opt("done", label, "success", space=space))
        for tid in s["faceup"]:
            options.append(_tile_option("take", tid))
    if can_flip(s, seat):
        options.append(opt("flip", "opt.flip", run=s["hg"]["run"] + 1))
    timer = timer_of(s)  # its option (HG_OUT) is the clock's alone: never a button
    key = f"build.{seat}.{p['step']}"
    return ship_decision(
        seat, f"{GAME}.{prompt}", options, args=args, key=key, grid=grid, timer=timer
    )


def ship_decision(seat: int, prompt: str, options: list[Option], **more: Any) -> Decision:
    """A seat's private decision about its own ship (building, pre-launch); ``more``: the
    decision's other fields (args, key, grid, timer)."""
    return Decision(seat=seat, prompt=prompt, options=tuple(options), private=True, **more)


def flip_decision(s: dict[str, Any], seat: int) -> Decision:
    return Decision(
        seat=seat,
        prompt=f"{GAME}.prompt.flip",
        options=(opt("flip", "opt.flip", "primary", run=s["hg"]["run"] + 1),),
        args={"run": s["hg"]["run"] + 1, "runs": s["hg"]["runs"]},
        key=f"flip.{s['hg']['run']}",
    )


def waits(s: dict[str, Any], seat: int) -> bool:
    """``seat`` has a building decision in :func:`decisions` (told without building any)."""
    return not s["players"][seat]["done"] or can_flip(s, seat)


def decisions(s: dict[str, Any]) -> list[Decision]:
    out = []
    for seat, p in enumerate(s["players"]):
        if not p["done"]:
            out.append(build_decision(s, seat))
        elif can_flip(s, seat):
            out.append(flip_decision(s, seat))
    return out


# --------------------------------------------------------------------------- moves


def _forget_last(p: dict[str, Any]) -> None:
    p["last"] = None
    p["last_src"] = None


def apply_build(s: dict[str, Any], seat: int, choice: str) -> list[Event]:
    """One building move of ``seat`` (``s`` is a private copy, mutated)."""
    p = s["players"][seat]
    if choice == HG_OUT:
        return hourglass_out(s)
    if choice == "flip":
        if not can_flip(s, seat):
            raise err("no_flip")
        s["hg"]["run"] += 1
        s["hg"]["out"] = False
        p["step"] += 1
        return [ev("flip", seat, run=s["hg"]["run"], runs=s["hg"]["runs"])]
    if p["done"]:
        raise err("finished")
    head, _, rest = choice.partition(".")
    events: list[Event]
    if p["peek"] is not None:
        if choice != "unpeek":
            raise err("peeking")
        p["peek"] = None
        events = [ev("unpeek", seat, private_to=seat)]
    elif p["hand"] is not None:
        events = _with_hand(s, seat, p, head, rest)
    else:
        events = _empty_hand(s, seat, p, head, rest)
    p["step"] += 1
    return events


def _with_hand(
    s: dict[str, Any], seat: int, p: dict[str, Any], head: str, rest: str
) -> list[Event]:
    tid = p["hand"]
    if head == "rot" and not rest:
        p["rot"] = (p["rot"] + 1) % 4
        return [ev("rot", seat, private_to=seat, **tile_args(tid, p["rot"]))]
    if head == "place":
        cell = cell_arg(rest)
        if cell not in sh.free_cells(sh.load(p["ship"]), board_cells(board_of(s))):
            raise err("bad_cell")
        p["ship"][sh.key(cell)] = [tid, p["rot"]]
        p["last"], p["last_src"] = sh.key(cell), p["src"]
        p["hand"], p["src"], p["rot"] = None, None, 0
        p["placed"] = True
        return [ev("place", seat, private_to=seat, row=cell[0], col=cell[1], **tile_args(tid))]
    if head == "reserve" and not rest:
        if p["src"] == "reserve" or len(p["reserve"]) >= 2:
            raise err("reserve_full")
        p["reserve"].append(tid)
        p["hand"], p["src"], p["rot"] = None, None, 0
        return [ev("reserve", seat, tile=tid)]
    if head == "back" and not rest:
        if p["src"] != "reserve":
            raise err("not_offered")
        p["reserve"].append(tid)
        p["hand"], p["src"], p["rot"] = None, None, 0
        return [ev("back", seat, private_to=seat, tile=tid)]
    if head == "return" and not rest:
        if p["src"] == "reserve":
            raise err("no_return")
        s["faceup"].append(tid)
        s["taken"].pop(str(tid), None)
        p["hand"], p["src"], p["rot"] = None, None, 0
        return [ev("return", seat, **tile_args(tid))]
    raise err("hand_full")


def _empty_hand(
    s: dict[str, Any], seat: int, p: dict[str, Any], head: str, rest: str
) -> list[Event]:
    if head == "draw" and not rest:
        if not s["facedown"]:
            raise err("no_tiles")
        tid = s["facedown"].pop()
        _forget_last(p)
        p["hand"], p["src"], p["rot"] = tid, "down", 0
        return [
            ev("draw", seat, left=len(s["facedown"])),
            ev("drawn", seat, private_to=seat, reveals=True, **tile_args(tid)),
        ]
    if head in ("take", "use"):
        try:
            tid = int(rest)
        except ValueError:
            raise err("not_offered") from None
        if head == "take":
            if tid not in s["faceup"]:
                raise err("gone")
            s["faceup"].remove(tid)
            s["taken"][str(tid)] = seat
        else:
            if tid not in p["reserve"]:
                raise err("not_offered")
            p["reserve"].remove(tid)
        _forget_last(p)
        p["hand"], p["src"], p["rot"] = tid, ("pool" if head == "take" else "reserve"), 0
        if head == "take":
            return [ev("take", seat, **tile_args(tid))]
        return [ev("use", seat, private_to=seat, **tile_args(tid))]
    if head in ("lrot", "lift") and not rest:
        if p["last"] is None:
            raise err("no_last")
        tid, rot = p["ship"][p["last"]]
        if head == "lrot":
            p["ship"][p["last"]] = [tid, (rot + 1) % 4]
            return [ev("rot", seat, private_to=seat, **tile_args(tid, (rot + 1) % 4))]
        del p["ship"][p["last"]]
        p["hand"], p["src"], p["rot"] = tid, p["last_src"], rot
        _forget_last(p)
        p["placed"] = len(p["ship"]) > 1
        return [ev("lift", seat, private_to=seat, **tile_args(tid, rot))]
    if head == "peek":
        if not p["placed"]:
            raise err("peek_first")
        if rest not in ("0", "1", "2"):
            raise err("hidden_pile")
        _forget_last(p)
        p["peek"] = int(rest)
        return [ev("peek", seat, pile=int(rest) + 1)]
    if head == "done" and not rest:
        return finish(s, seat)
    raise err("hand_empty")


def finish(s: dict[str, Any], seat: int) -> list[Event]:
    """``seat`` stops building and takes the best free start space."""
    p = s["players"][seat]
    if p["hand"] is not None:  # only when the sand runs out: the tile goes back
        if p["src"] == "reserve":
            p["reserve"].append(p["hand"])
        else:
            s["faceup"].append(p["hand"])
            s["taken"].pop(str(p["hand"]), None)
        p["hand"], p["src"], p["rot"] = None, None, 0
    p["peek"] = None
    _forget_last(p)
    p["done"] = True
    s["order"].append(seat)
    place = len(s["order"])
    space = level(s["level"])["start_spaces"][place - 1]
    return [ev("done", seat, place=place, space=space + 1)]


def hourglass_out(s: dict[str, Any]) -> list[Event]:
    hg = s["hg"]
    if not hg_running(s):
        raise err("no_hourglass")
    hg["out"] = True
    events = [ev("hg_out", run=hg["run"], runs=hg["runs"])]
    if hg["run"] >= hg["runs"]:
        for seat, p in enumerate(s["players"]):
            if not p["done"]:
                events += finish(s, seat)
    return events


def building_over(s: dict[str, Any]) -> bool:
    """Every seat has finished: the caller (the engine) starts the next phase, pre-launch,
    right after the move that ended building (so building imports nothing of the engine)."""
    return all(q["done"] for q in s["players"])
