"""Kosmonavts described in words: the alt text of the table and of a seat's private picture,
from the same views (see :mod:`render.words`). A ship in flight is placed as the log places
it (zone, clock hour, nearest body), not by hex coordinates."""

from __future__ import annotations

from typing import Any

from core.i18n import t
from render import kit, words
from rules.kosmonavts.board import dist
from rules.kosmonavts.common import clock_hour, zone_key

GAME = "kosmonavts"
P = "kosmonavts."


def _hex(x: Any) -> tuple[int, int] | None:
    if isinstance(x, list | tuple) and len(x) == 2 and all(kit.is_int(v) for v in x):
        return (x[0], x[1])
    return None


def _body(body: Any, lang: str) -> str:
    return t(f"{P}near.{body}", lang)


DIRS = ("e", "ne", "nw", "w", "sw", "se")


def _plain(text: str, lang: str) -> str:
    """A card's name with its arrow written as a word ("Solar wind 1× north-east"): a
    screen reader says "north-east", not "north east arrow"."""
    for d in DIRS:
        arrow, _, word = t(f"{P}dir.{d}", lang).partition(" ")
        if arrow and word:
            text = text.replace(arrow, word)
    return text


def _place(view: dict[str, Any], h: tuple[int, int], lang: str) -> str:
    """ "in the asteroid belt, at 4 o'clock, 2 hexes from Mars"."""
    near, gap = "earth", 10**6
    for b, body in kit.dict_of(view.get("bodies")).items():
        pos = _hex(kit.dict_of(body).get("pos"))
        if pos is not None and not kit.dict_of(body).get("removed") and dist(h, pos) < gap:
            near, gap = b, dist(h, pos)
    return t(
        f"{P}words.place",
        lang,
        zone_key=zone_key(h),
        hour=clock_hour(h),
        gap=gap,
        near_key=f"{P}near.{near}",
    )


def _ship(view: dict[str, Any], ship: dict[str, Any], names: list[str], lang: str) -> str:
    who = words.name(names, ship.get("seat"), lang)
    pos = _hex(ship.get("pos"))
    if ship.get("returned"):
        where = t(f"{P}render.returned", lang)
    elif ship.get("evacuated"):
        where = t(f"{P}render.evacuated", lang, body=_body(ship.get("landed") or "earth", lang))
    elif ship.get("landed"):
        where = t(f"{P}render.landed", lang, body=_body(ship["landed"], lang))
    elif pos is not None:
        speed = dist(_hex(ship.get("velocity")) or (0, 0))
        where = _place(view, pos, lang) + ", " + t(f"{P}render.private.speed", lang, n=speed)
    else:
        where = ""
    return t(
        f"{P}words.ship",
        lang,
        name=who,
        where=where,
        fuel=kit.int_of(ship.get("fuel")),
        tank=kit.int_of(ship.get("tank")),
        shields=kit.int_of(ship.get("shields")),
    )


def describe_table(view: dict[str, Any], names: list[str], lang: str) -> str:
    view = kit.public(view)
    ships = [kit.dict_of(s) for s in kit.list_of(view.get("ships"))]
    events = kit.dict_of(view.get("events"))
    face_up = [_plain(t(f"{P}card.{c}", lang), lang) for c in kit.list_of(events.get("face_up"))]
    instructor = view.get("instructor")
    return words.join(
        [
            *words.summary(GAME, view, names, lang),
            *[_ship(view, s, names, lang) for s in ships],
            t(f"{P}words.events", lang, cards=", ".join(face_up)) if face_up else "",
            t(f"{P}words.instructor", lang, name=words.name(names, instructor, lang))
            if kit.is_int(instructor) and not view.get("over")
            else "",
        ]
    )


def _mission(m: dict[str, Any], lang: str) -> str:
    text = t(str(m.get("name")), lang) if m.get("name") else str(m.get("id", ""))
    return text + (" (" + t(f"{P}render.private.done", lang) + ")" if m.get("done_now") else "")


def _order(view: dict[str, Any], priv: dict[str, Any], lang: str) -> str:
    """The order being composed, as its preview says: where the ship ends, at what speed,
    how safe, the fuel left, confirmed or not."""
    prev = kit.dict_of(priv.get("preview"))
    action = prev.get("action")
    end = _hex(prev.get("end_hex"))
    if action == "fly" and end is not None:
        speed = dist(_hex(prev.get("velocity")) or (0, 0))
        plan = t(f"{P}render.private.fly", lang) + ": " + _place(view, end, lang)
        plan += ", " + t(f"{P}render.private.speed", lang, n=speed)
        danger = prev.get("danger")
        if isinstance(danger, str) and danger:
            plan += ", " + t(f"{P}danger.{danger}", lang)
    elif action == "evac":
        body = _body(prev.get("lands_on") or "earth", lang)
        plan = t(f"{P}render.private.evac", lang, body=body)
    elif action in ("stay", "stayfull"):
        plan = t(f"{P}render.private.{action}", lang)
    else:
        return ""
    status = t(f"{P}render.private." + ("confirmed" if priv.get("final") else "draft"), lang)
    fuel = t(f"{P}words.fuel_after", lang, fuel=kit.int_of(prev.get("fuel_after")))
    return f"{t(f'{P}render.private.order', lang)}: {plan}; {fuel} ({status})."


def describe_private(view: dict[str, Any], names: list[str], lang: str) -> str:
    priv = kit.dict_of(view.get("private"))
    dealt = [_mission(kit.dict_of(m), lang) for m in kit.list_of(priv.get("dealt"))]
    kept = [_mission(kit.dict_of(m), lang) for m in kit.list_of(priv.get("missions"))]
    missions = words.labelled(t(f"{P}render.private.choose", lang), dealt, "; ") or words.labelled(
        t(f"{P}render.private.missions", lang), kept, "; "
    )
    return words.join(
        [words.private_heading(GAME, view, names, lang), missions, _order(view, priv, lang)]
    )
