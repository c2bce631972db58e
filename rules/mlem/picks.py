"""MLEM — what a roll allows: the groups of dice a commander may use (``Spec``), their texts,
the parts of a multi-pick and the re-roll.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from core.contract import Option

from .board import ACCEPTS, AFTERBURNER, EXPEDITION
from .state import BOOSTER_SYMBOL, EXTRA_SYMBOL, FACE_SYMBOL, GROUP_ORDER, KEEP_SYMBOL, PICK_LIMIT


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
    boosters used, extra tile used, keep tile used). Empty when nothing can move the rocket.

    Shared between calls (read-only): it depends only on the space, the usable dice, the
    boosters aboard and the tile's extra dice or keep, and is computed once per such mix."""
    ok, _ab, counts = _usable_roll(s)
    ability = _tile_ability(s)
    extra: tuple[int, ...] = ()
    if ability == "extra":
        extra = tuple(d for d in EXPEDITION[s["exp"]["tile"]]["extra"] if d in ok)
    key = (
        s["space"],
        tuple((f, counts[f]) for f in GROUP_ORDER if f in counts),
        tuple(_booster_owners(s)),
        extra,
        ability == "keep",
    )
    try:
        return _SPECS[key]
    except KeyError:
        if len(_SPECS) >= _SPECS_MAX:
            _SPECS.clear()
        out = _SPECS[key] = _specs_of(*key)
        return out


#: :func:`_explore_specs`' results by their inputs (cleared when it grows past the limit).
_SPECS: dict[tuple[Any, ...], dict[str, Spec]] = {}
_SPECS_MAX = 20_000


def _specs_of(
    space: int,
    usable: tuple[tuple[Any, int], ...],
    owners: tuple[int, ...],
    extra: tuple[int, ...],
    keep: bool,
) -> dict[str, Spec]:
    ab = AFTERBURNER[space] or 0
    counts = dict(usable)
    groups = [f for f, _ in usable]
    booster_sets = [c for r in range(len(owners) + 1) for c in combinations(owners, r)]
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
