"""Kosmonavts pictures: reading the view (hexes, phase, ships, ranks, scores, statuses)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core import i18n
from render import kit
from render.kit import FAINT, GOLD, GREEN, INK, MUTED, RED, RGB
from render.kosmonavts.geometry import BODY_RGB, Hex, dist

# ----------------------------------------------------------------------------- helpers

t = i18n.t


_lang = kit.lang_or_default
_name = kit.player_name


_is_int = kit.is_int


_seat_ok = kit.is_seat


def _hex(p: Any) -> Hex | None:
    if isinstance(p, list | tuple) and len(p) == 2 and all(_is_int(v) for v in p):
        return (p[0], p[1])
    return None


def _phase(view: dict) -> str:
    if view.get("over"):
        return "over"
    ph = str(view.get("phase") or "")
    return ph.rsplit(".", 1)[-1] if ph else "setup"


def _body_name(body: str, lang: str) -> str:
    return t(f"kosmonavts.body.{body}", lang)


def _speed(v: Any) -> int:
    h = _hex(v)
    return dist(h) if h else 0


def _players(view: dict, names: Sequence[str]) -> int:
    n = view.get("players")
    if not _is_int(n):
        n = len(view.get("ships") or []) or len(names) or 2
    return max(1, min(int(n), 4))


def _ships(view: dict, n: int) -> list[dict]:
    out: list[dict] = [{} for _ in range(n)]
    for k, sh in enumerate(view.get("ships") or []):
        if not isinstance(sh, dict):
            continue
        seat = sh.get("seat", k)
        if _seat_ok(seat, n):
            out[seat] = sh
    return out


def _ranks(view: dict, ships: list[dict], scores: list[int]) -> list[int]:
    """Final places with the rulebook tie-breaks (R20): VP, (advanced: shields), return
    phase, value-4 markers."""

    def key(k: int) -> tuple[int, ...]:
        sh = ships[k]
        ret = {0: 0, 4: 1, 1: 2, 3: 2}.get(sh.get("returned") or 0, 0)
        marks = kit.dict_of(sh.get("markers"))
        fours = sum(1 for v in marks.values() if v == 4)
        if view.get("rules") == "advanced":
            return (scores[k], int(sh.get("shields") or 0), ret, fours)
        return (scores[k], ret, fours)

    keys = [key(k) for k in range(len(ships))]
    return [1 + sum(1 for o in keys if o > keys[k]) for k in range(len(ships))]


class Boxes:
    """Rectangles already taken on the board, for label placement."""

    def __init__(self) -> None:
        self.items: list[tuple[float, float, float, float]] = []

    def add(self, box: tuple[float, float, float, float]) -> None:
        self.items.append(box)

    def overlap(self, box: tuple[float, float, float, float]) -> float:
        # the sum of min/max below, written out: called for every candidate label spot
        x0, y0, x1, y1 = box
        tot = 0.0
        for b0, b1, b2, b3 in self.items:
            w = (x1 if x1 <= b2 else b2) - (x0 if x0 >= b0 else b0)
            if w > 0:
                h = (y1 if y1 <= b3 else b3) - (y0 if y0 >= b1 else b1)
                if h > 0:
                    tot += w * h
        return tot


def _scores(view: dict, n: int) -> list[int]:
    raw = view.get("scores") or []
    return [int(raw[k]) if k < len(raw) and _is_int(raw[k]) else 0 for k in range(n)]


def _status_chip(view: dict, seat: int, lang: str) -> tuple[str, RGB] | None:
    """What a seat is doing in the current step (never what it decided in secret)."""
    if view.get("over"):
        return None
    waiting = set(s for s in view.get("waiting") or [] if _is_int(s))
    conf = view.get("confirmed")
    if isinstance(conf, list) and seat < len(conf):
        if conf[seat]:
            return t("kosmonavts.render.ready", lang), GREEN
        return t("kosmonavts.render.deciding", lang), GOLD
    chosen = view.get("missions_chosen")
    if isinstance(chosen, list) and seat < len(chosen):
        if chosen[seat]:
            return t("kosmonavts.render.chosen", lang), GREEN
        return t("kosmonavts.render.deciding", lang), GOLD
    landing = view.get("landing")
    if isinstance(landing, dict):
        bodies = landing.get("bodies") or []
        answered = landing.get("answered") or []
        b = bodies[seat] if seat < len(bodies) else None
        if b in BODY_RGB:
            if seat < len(answered) and answered[seat]:
                return t("kosmonavts.render.answered", lang), GREEN
            name = _body_name(b, lang)
            long = t("kosmonavts.render.land_q", lang, body=name)
            return f"{long}\n{t('kosmonavts.render.land_short', lang, body=name)}", GOLD
        return None
    resp = view.get("responses")
    if isinstance(resp, dict):
        asked = resp.get("asked") or []
        answered = resp.get("answered") or []
        if seat < len(asked) and asked[seat]:
            if seat < len(answered) and answered[seat]:
                return t("kosmonavts.render.answered", lang), GREEN
            return t("kosmonavts.render.deciding", lang), GOLD
        return None
    setup = view.get("setup")
    if isinstance(setup, dict) and setup.get("turn") == seat:
        return t("kosmonavts.render.placing", lang), GOLD
    if seat in waiting:
        return t("kosmonavts.render.deciding", lang), GOLD
    return None


def _ship_status(view: dict, ship: dict, lang: str, short: bool = False) -> tuple[str, RGB]:
    if not ship or _hex(ship.get("pos")) is None:
        return t("kosmonavts.render.not_placed", lang), FAINT
    landed = ship.get("landed")
    if ship.get("evacuated") and landed in BODY_RGB:
        body = t("kosmonavts.render.halley_short", lang) if landed == "halley" else None
        key = "kosmonavts.render.evacuated" + ("_short" if short else "")
        return t(key, lang, body=body or _body_name(landed, lang)), RED
    if ship.get("returned") and landed == "earth":
        return t("kosmonavts.render.returned", lang), GOLD
    if landed in BODY_RGB:
        body = t("kosmonavts.render.halley_short", lang) if landed == "halley" else None
        key = "kosmonavts.render.landed" + ("_short" if short else "")
        return t(key, lang, body=body or _body_name(landed, lang)), INK
    return t("kosmonavts.render.flying", lang, n=_speed(ship.get("velocity"))), MUTED
