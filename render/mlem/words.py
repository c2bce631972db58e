"""MLEM described in words: the alt text of the table and of a seat's private picture, from
the same views (see :mod:`render.words`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.i18n import t
from render import kit, words
from render.mlem.geometry import DEEP, MISSION_POINTS
from render.mlem.private import _body_label

GAME = "mlem"


def _landed(view: dict[str, Any], n: int) -> list[int]:
    """How many astronauts each seat has on moons, planets and in deep space."""
    counts = [0] * n
    for key in ("moon_astronauts", "planet_astronauts", "deep_astronauts"):
        for crew in kit.dict_of(view.get(key)).values():
            for a in kit.list_of(crew):
                seat = kit.dict_of(a).get("seat")
                if kit.is_seat(seat, n):
                    counts[seat] += 1
    return counts


def _rocket(view: dict[str, Any], names: Sequence[str], lang: str) -> str:
    rocket = kit.dict_of(view.get("rocket"))
    crew = [
        f"{words.name(names, c.get('seat'), lang)} "
        f"({t('mlem.render.ability.' + str(c.get('astronaut')), lang)})"
        for c in map(kit.dict_of, kit.list_of(rocket.get("crew")))
        if c.get("astronaut")
    ]
    aboard = words.listing(crew, lang) if crew else t("mlem.render.crew_empty", lang)
    return t("mlem.words.rocket", lang, space=kit.int_of(rocket.get("space")), crew=aboard)


def _dice(view: dict[str, Any], lang: str) -> str:
    dice = kit.dict_of(view.get("dice"))
    roll = [str(d) for d in kit.list_of(dice.get("roll"))]
    pool = t(
        "mlem.render.pool",
        lang,
        pool=kit.int_of(dice.get("pool")),
        discarded=kit.int_of(dice.get("discarded")),
    )
    pool = pool.replace(" · ", ", ")
    if not roll:
        return t("mlem.words.no_roll", lang, pool=pool)
    return t("mlem.words.dice", lang, roll=", ".join(roll), pool=pool)


def describe_table(view: dict[str, Any], names: list[str], lang: str) -> str:
    view = kit.public(view)
    n = words.seats_of(view, names)
    landed = _landed(view, n)
    over = bool(view.get("over"))
    return words.join(
        [
            *words.summary(GAME, view, names, lang),
            "" if over else _rocket(view, names, lang),
            "" if over else _dice(view, lang),
            t(
                "mlem.words.landed",
                lang,
                list=", ".join(f"{words.name(names, s, lang)} {c}" for s, c in enumerate(landed)),
            ),
            t(
                "mlem.words.disasters",
                lang,
                n=kit.int_of(view.get("disasters")),
                limit=kit.int_of(view.get("disaster_limit")),
            ),
            "" if over else _variants(view, lang),
            t("mlem.render.last_voyage", lang) if view.get("last_voyage") and not over else "",
        ]
    )


def _variants(view: dict[str, Any], lang: str) -> str:
    """Where the UFO is and the tiles left, as the table's side panel says."""
    lines = []
    ufo = kit.dict_of(view.get("ufo"))
    if ufo:
        key = "mlem.render.ufo.deep" if ufo.get("space") == DEEP else "mlem.render.ufo.where"
        lines.append(t(key, lang, n=ufo.get("space"), left=kit.int_of(ufo.get("tiles_left"))))
    recon = kit.dict_of(view.get("recon"))
    if recon:
        lines.append(t("mlem.render.recon.left", lang, n=kit.int_of(recon.get("left"))))
    return " ".join(f"{line.replace(' · ', ', ')}." for line in lines)


def _spaces(mission: Any, lang: str) -> str:
    """ "Space 9/10 (9: moons 2·3, 10: moons 2·3·4)": the mission's spaces and what hangs
    off them, as its card on the private picture lists them."""
    spaces = [int(p) for p in str(mission).split("/") if p.isdigit()]
    text = t("mlem.render.private.spaces", lang, spaces="/".join(map(str, spaces)))
    seen: dict[str, str] = {}
    for space in spaces:
        body, label, _ = _body_label(space, lang)
        if label and body not in seen:
            seen[body] = label
    return f"{text} ({', '.join(seen.values())})" if seen else text


def _missions(priv: dict[str, Any], lang: str) -> list[str]:
    """The missions dealt to choose from, else those kept, done or not, and what they earn."""
    dealt = [_spaces(m, lang) for m in kit.list_of(priv.get("dealt"))]
    if dealt:
        return [words.labelled(t("mlem.render.private.choose", lang), dealt, "; ")]
    missions = [kit.dict_of(m) for m in kit.list_of(priv.get("missions"))]
    if not missions:
        return []
    items = [
        _spaces(m.get("id"), lang)
        + f": {t('mlem.render.private.' + ('done' if m.get('done') else 'todo'), lang)}"
        for m in missions
    ]
    done = sum(1 for m in missions if m.get("done"))
    points = MISSION_POINTS[min(done, len(MISSION_POINTS) - 1)]
    progress = t(
        "mlem.render.private.progress", lang, done=done, total=len(missions), points=points
    )
    return [words.labelled(t("mlem.render.private.missions", lang), items, "; "), progress + "."]


def describe_private(view: dict[str, Any], names: list[str], lang: str) -> str:
    priv = kit.dict_of(view.get("private"))
    hp = kit.dict_of(priv.get("hidden_points"))
    ufo, recon = kit.int_of(hp.get("ufo")), kit.int_of(hp.get("recon"))
    hidden = [
        f"{t('mlem.render.private.ufo', lang)} {ufo}",
        f"{t('mlem.render.private.recon', lang)} {recon}",
    ]
    return words.join(
        [
            words.private_heading(GAME, view, names, lang),
            *_missions(priv, lang),
            words.labelled(t("mlem.render.private.hidden", lang), hidden if ufo or recon else []),
        ]
    )
