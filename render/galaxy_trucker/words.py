"""Galaxy Trucker described in words: the alt text of the table and of a seat's private
picture, from the same views (see :mod:`render.words`). While ships are being built the
table says only who is building and who is done, as the table picture does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core import i18n
from core.i18n import t
from render import kit, words
from render.galaxy_trucker.flight import _card_lines

GAME = "galaxy_trucker"
P = "galaxy_trucker."


def _ship(view: dict[str, Any], seat: int) -> dict[str, Any]:
    ships = kit.list_of(view.get("ships"))
    return kit.dict_of(ships[seat]) if seat < len(ships) else {}


def _card(card: dict[str, Any], lang: str) -> str:
    lines = []
    for text, cubes in _card_lines(card, lang):
        lines.append(f"{text} {t(f'{P}pic.goods_n', lang, n=len(cubes))}" if cubes else text)
    name = t(f"{P}card.{card.get('type')}", lang)
    return t(f"{P}words.card", lang, card=name, lines="; ".join(lines) or "—")


def _building(view: dict[str, Any], names: Sequence[str], seat: int, lang: str) -> str:
    ship = _ship(view, seat)
    order = kit.list_of(view.get("order"))
    if view.get("step") == "build":
        if ship.get("done") and seat in order:
            status = t(f"{P}pic.done", lang, place=order.index(seat) + 1)
        else:
            status = t(f"{P}pic.building", lang)
    elif ship.get("stage") == "ready":
        status = t(f"{P}pic.ready", lang)
    else:
        status = t(f"{P}pic.checking", lang)
    return f"{words.name(names, seat, lang)}: {status}."


def _flying(view: dict[str, Any], names: Sequence[str], seat: int, lang: str) -> str:
    ship = _ship(view, seat)
    flight = kit.dict_of(view.get("flight"))
    order = [x for x in kit.list_of(flight.get("order")) if kit.is_int(x)]
    crew = sum(kit.int_of(v) for v in kit.dict_of(ship.get("crew")).values())
    crew += sum(1 for v in kit.dict_of(ship.get("aliens")).values() if v)
    batt = sum(kit.int_of(v) for v in kit.dict_of(ship.get("batteries")).values())
    goods = sum(len(v) for v in kit.dict_of(ship.get("goods")).values() if isinstance(v, list))
    if seat in kit.list_of(flight.get("retired")):
        place = t(f"{P}pic.retired", lang)
    elif seat in order:
        place = t(f"{P}pic.race_place", lang, place=order.index(seat) + 1)
    else:
        place = ""
    stats = ", ".join(
        [
            t(f"{P}words.credits", lang, n=kit.int_of(ship.get("credits"))),
            t(f"{P}pic.crew", lang, n=crew),
            t(f"{P}pic.batteries", lang, n=batt),
            t(f"{P}pic.goods_n", lang, n=goods),
            t(f"{P}pic.lost", lang, n=kit.int_of(ship.get("lost"))),
        ]
    )
    who = words.name(names, seat, lang)
    return f"{who} ({place}): {stats}." if place else f"{who}: {stats}."


def describe_table(view: dict[str, Any], names: list[str], lang: str) -> str:
    view = kit.public(view)
    n = words.seats_of(view, names)
    step = view.get("step")
    parts = words.summary(GAME, view, names, lang)
    scores = parts.pop()  # said in flight only (building, nobody has any yet)
    if step in ("build", "prelaunch") and not view.get("over"):
        hg = kit.dict_of(view.get("hourglass"))
        if step == "build" and hg:
            parts.append(
                t(
                    f"{P}pic.hourglass",
                    lang,
                    run=kit.int_of(hg.get("run")),
                    runs=kit.int_of(hg.get("runs")),
                )
                + "; "
                + t(f"{P}pic.facedown", lang, n=kit.int_of(view.get("facedown")))
                + "."
            )
        parts += [_building(view, names, s, lang) for s in range(n)]
    else:
        parts.append(scores)
        card = kit.dict_of(kit.dict_of(view.get("flight")).get("card"))
        if card and not view.get("over"):
            parts.append(_card(card, lang))
        parts += [_flying(view, names, s, lang) for s in range(n)]
    return words.join(parts)


def describe_private(view: dict[str, Any], names: list[str], lang: str) -> str:
    priv = kit.dict_of(view.get("private"))
    seat = kit.int_of(view.get("seat"), kit.int_of(priv.get("seat")))
    ship = _ship(view, seat)
    tiles = kit.list_of(ship.get("tiles"))
    parts = [
        words.private_heading(GAME, view, names, lang),
        t(f"{P}words.ship", lang, n=len(tiles))
        + ", "
        + t(f"{P}pic.exposed", lang, n=kit.int_of(ship.get("exposed")))
        + ".",
    ]
    if view.get("step") == "build":
        hand = kit.dict_of(priv.get("hand"))
        if hand:
            parts.append(f"{t(f'{P}pic.in_hand', lang)}: {_tile(hand, lang)}.")
        reserve = [kit.dict_of(x) for x in kit.list_of(ship.get("reserve"))]
        if reserve:
            parts.append(
                f"{t(f'{P}pic.reserve', lang)}: {', '.join(_tile(x, lang) for x in reserve)}."
            )
        peek = kit.dict_of(priv.get("peek"))
        cards = [kit.dict_of(c) for c in kit.list_of(peek.get("cards"))]
        if cards:
            parts.append(
                t(f"{P}pic.peek", lang, pile=kit.int_of(peek.get("pile")) + 1)
                + ": "
                + ", ".join(t(f"{P}card.{c.get('type')}", lang) for c in cards)
                + "."
            )
    problems = kit.list_of(ship.get("problems"))
    if view.get("step") == "prelaunch":
        parts.append(
            t(f"{P}words.problems", lang, n=len(problems))
            if problems
            else t(f"{P}pic.no_problems", lang) + "."
        )
    return words.join(parts)


def _tile(tile: dict[str, Any], lang: str) -> str:
    kind = tile.get("kind")
    key = f"{P}tile.{kind}"
    name = t(key, lang) if i18n.has(key, lang) else str(kind or "?")
    return f"{name} #{tile['id']}" if kit.is_int(tile.get("id")) else name
