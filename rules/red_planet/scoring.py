"""Mission: Red Planet: production, discoveries, missions, final scoring and the result
(R20, R21, R23-R25)."""

from __future__ import annotations

from collections.abc import Mapping

from core.contract import Event, Result
from rules.kit import ranks_of, shown_scores

from .common import PREFIX, S, _ev, _token_value, _who
from .data import (
    ACTIONS,
    BLOCKS_OF_ICE,
    DISCOVERIES,
    GROUPS,
    ICE_MONOPOLY,
    MARS,
    MISSIONS,
    OUTER,
    RES_TYPES,
    RES_VALUE,
    ZONE_NAMES,
    ZONES,
)


def _production(s: S, k: int, ev: list[Event], final: bool = False) -> None:
    s["prod"] += 1
    ev.append(_ev("production", n=s["prod"], tokens=k, round=s["round"]))
    for seat in range(s["n"]):
        if BLOCKS_OF_ICE in s["actions"][seat]:
            s["actions"][seat].remove(BLOCKS_OF_ICE)
            s["tokens"][seat]["ice"] += ACTIONS[BLOCKS_OF_ICE]["ice"]
            ev.append(_ev(f"action.{BLOCKS_OF_ICE}", seat, reveals=True))
    for z in ZONES:
        mods = _p3_mods(s, z) if final else set()
        rtype, up = s["res"][z]
        pile = s["pile"][z]
        if up and "exhausted" not in mods:
            pile[rtype] += k + (2 if "extra" in mods else 0)
        if "lake" in mods:
            pile["ice"] += 2
        if not any(pile.values()):
            continue
        zone = ZONE_NAMES[z]
        if "storm" in mods:
            ev.append(_ev("prod.storm", zone=zone, what=_pile_code(pile)))
            continue
        before = [dict(t) for t in s["tokens"]]
        counts = s["astros"][z]
        distribute(counts, pile, s["tokens"])
        gains = [{r: s["tokens"][c][r] - before[c][r] for r in RES_TYPES} for c in range(s["nc"])]
        takers = [c for c in range(s["nc"]) if any(gains[c].values())]
        code = "prod.take" if len(takers) == 1 and not any(pile.values()) else "prod.share"
        for c in takers:
            ev.append(
                _who(
                    code,
                    c,
                    s,
                    zone=zone,
                    astronauts=counts[c],
                    what=_pile_code(gains[c]),
                    pts=sum(RES_VALUE[r] * v for r, v in gains[c].items()),
                )
            )
        if any(pile.values()):
            left = "prod.lost" if final else "prod.left"
            if not takers:
                why = "_tie" if max(counts) > 0 else "_empty"
                left += why
            ev.append(_ev(left, zone=zone, what=_pile_code(pile), n=sum(pile.values())))


def _pile_code(pile: Mapping[str, int]) -> str:
    """Point tokens as a code the strings spell out ("3ice+2syl", see core.i18n)."""
    return "+".join(f"{pile[r]}{r}" for r in RES_TYPES if pile.get(r))


def distribute(counts: list[int], pile: dict[str, int], tokens: list[dict[str, int]]) -> None:
    """Pay a zone's point tokens by majority (R16): a sole leader takes everything, tied
    leaders take an even share of each type, the rest stays; nobody there, all stays."""
    top = max(counts)
    if top <= 0:
        return
    leaders = [c for c, k in enumerate(counts) if k == top]
    for r in RES_TYPES:
        share = pile[r] // len(leaders)
        if share:
            for c in leaders:
                tokens[c][r] += share
            pile[r] -= share * len(leaders)


def _p3_mods(s: S, z: str) -> set[str]:
    d = s["disc"].get(z)
    if d is None or not d["up"]:
        return set()
    card = DISCOVERIES[d["id"]]
    return {card["kind"]} if card["icon"] == "P3" else set()


def _reveal_discoveries(s: S, ev: list[Event]) -> None:
    for z in OUTER:
        d = s["disc"].get(z)
        if d is None:
            continue
        d["up"] = True
        card = DISCOVERIES[d["id"]]
        ev.append(_ev(f"discovery.{d['id']}", zone=ZONE_NAMES[z], reveals=True))
        if card["icon"] != "R":
            continue
        kind = card["kind"]
        if kind == "kill":
            killed = 0
            for c in range(s["nc"]):
                k = min(card["n"], s["astros"][z][c])
                s["astros"][z][c] -= k
                s["memorial"][c] += k
                killed += k
            ev.append(_ev("disc_kill", zone=ZONE_NAMES[z], killed=killed))
            continue
        if kind == "become":
            s["res"][z] = [card["res"], True]
        elif kind == "deposit":
            if not s["res"][z][1]:
                s["res"][z][1] = True
            else:
                s["res"][z][0], s["spare"] = s["spare"], s["res"][z][0]
        ev.append(_ev(f"resource.{s['res'][z][0]}", zone=ZONE_NAMES[z]))


def _sole_max(values: list[int]) -> int | None:
    top = max(values)
    if top <= 0 or values.count(top) > 1:
        return None
    return values.index(top)


def mission_done(s: S, c: int, mid: str) -> int:
    """Points colour ``c`` earns from mission ``mid`` now (0 when not completed)."""
    m = MISSIONS[mid]
    kind = m["kind"]
    astros = s["astros"]
    if kind == "group":
        cnt = sum(1 for z in GROUPS[m["group"]] if astros[z][c] > 0)
        return int(m["points"][cnt - 1]) if cnt else 0
    ok = False
    if kind == "most_zone":
        ok = _sole_max(astros[m["zone"]]) == c
    elif kind == "most_tokens":
        ok = _sole_max([t[m["res"]] for t in s["tokens"]]) == c
    elif kind == "spread":
        ok = sum(1 for z in MARS if astros[z][c] > 0) >= m["min"]
    elif kind == "dominion":
        ok = sum(1 for z in ZONES if _sole_max(astros[z]) == c) >= m["min"]
    elif kind == "memorial":
        ok = _sole_max(s["memorial"]) == c
    elif kind == "full_spectrum":
        held = {s["res"][z][0] for z in ZONES if s["res"][z][1] and _sole_max(astros[z]) == c}
        ok = set(RES_TYPES) <= held
    elif kind == "colony":
        ok = any(astros[z][c] >= m["min"] for z in MARS)
    return int(m["points"]) if ok else 0


def _discovery_points(s: S, c: int) -> int:
    return sum(pts for _, _, pts in _discovery_parts(s, c))


def breakdown_of(s: S) -> list[dict[str, int]]:
    n = s["n"]
    ice = [s["tokens"][seat]["ice"] for seat in range(n)]
    top = max(ice)
    mono = [0] * n
    if top > 0:
        leaders = [seat for seat in range(n) if ice[seat] == top]
        for seat in leaders:
            mono[seat] = ICE_MONOPOLY // len(leaders)
    return [
        {
            "tokens": _token_value(s, seat),
            "missions": sum(mission_done(s, seat, m) for m in s["missions"][seat]),
            "ice_monopoly": mono[seat],
            "discoveries": _discovery_points(s, seat),
        }
        for seat in range(n)
    ]


def _discovery_parts(s: S, c: int) -> list[tuple[str, str, int]]:
    """(zone, discovery id, points) for each face-up discovery that scores colour ``c``."""
    out: list[tuple[str, str, int]] = []
    for z in OUTER:
        d = s["disc"].get(z)
        if d is None or not d["up"]:
            continue
        card = DISCOVERIES[d["id"]]
        here = s["astros"][z]
        pts = 0
        ruins = card["kind"] == "ruins" and _sole_max(here) == c
        if ruins or (card["kind"] == "fossils" and here[c] > 0):
            pts = card["points"]
        elif card["kind"] == "toxic":
            pts = -min(card["max"], here[c])
        if pts:
            out.append((z, d["id"], int(pts)))
    return out


def _final_scoring(s: S, res: Result, ev: list[Event]) -> None:
    """One event per final scoring step and player (what each part of the score is), then
    each player's sum: the jump from the token values to the final scores, explained."""
    n = s["n"]
    ev.append(_ev("final.head"))
    for seat in range(n):
        for m in s["missions"][seat]:
            pts = mission_done(s, seat, m)
            code = "final.mission_met" if pts else "final.mission_missed"
            ev.append(_ev(code, seat, mission_key=f"{PREFIX}card.{m}", pts=pts, reveals=True))
    ice = [s["tokens"][seat]["ice"] for seat in range(n)]
    if max(ice) <= 0:
        ev.append(_ev("final.ice_none"))
    else:
        for seat in range(n):
            pts = res.breakdown[seat]["ice_monopoly"]
            if ice[seat] == max(ice):
                shared = ice.count(max(ice)) > 1
                code = "final.ice_shared" if shared else "final.ice"
                ev.append(_ev(code, seat, ice=ice[seat], pts=pts))
    for seat in range(n):
        for z, cid, pts in _discovery_parts(s, seat):
            ev.append(
                _ev(
                    "final.discovery",
                    seat,
                    card_key=f"{PREFIX}card.{cid}",
                    zone=ZONE_NAMES[z],
                    pts=pts,
                )
            )
    for seat in range(n):
        b = res.breakdown[seat]
        ev.append(
            _ev(
                "final.total",
                seat,
                tokens=b["tokens"],
                missions=b["missions"],
                ice=b["ice_monopoly"],
                discoveries=b["discoveries"],
                total=res.scores[seat],
            )
        )


def result_of(s: S) -> Result | None:
    if s["step"] != "over":
        return None
    parts = breakdown_of(s)
    scores = tuple(sum(p.values()) for p in parts)
    counts = [sum(s["tokens"][seat].values()) for seat in range(s["n"])]
    keys = [(scores[i], counts[i]) for i in range(s["n"])]
    ranks = ranks_of(keys)
    # R25: the tie-break named when players equal on points were split by their tokens.
    split = any(
        scores[i] == scores[j] and counts[i] != counts[j]
        for i in range(s["n"])
        for j in range(i + 1, s["n"])
    )
    tiebreak = PREFIX + "tiebreak.tokens" if split else ""
    return Result(scores=scores, ranks=ranks, breakdown=tuple(parts), tiebreak=tiebreak)


def public_scores(s: S) -> list[int]:
    return shown_scores(s, result_of, _token_value)
