"""Mission: Red Planet described in words: the alt text of the table and of a seat's private
picture, from the same views (see :mod:`render.words`). The table names no character a seat
has chosen and not yet revealed (the public view does not hold them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.i18n import t
from render import kit, words

GAME = "red_planet"
P = "red_planet."
RES = ("ice", "syl", "cel")


def _who(view: dict[str, Any], names: Sequence[str], c: Any, lang: str) -> str:
    if c is not None and c == view.get("neutral"):
        return t(f"{P}render.neutral", lang)
    return words.name(names, c, lang)


def _zone(z: Any, lang: str) -> str:
    return t(f"{P}render.zone.{z}", lang)


def _counts(
    view: dict[str, Any], names: Sequence[str], per_colour: Sequence[Any], lang: str
) -> str:
    return ", ".join(
        f"{_who(view, names, c, lang)} {n}"
        for c, n in enumerate(per_colour)
        if kit.is_int(n) and n > 0
    )


def _docks(view: dict[str, Any], names: Sequence[str], lang: str) -> str:
    items = []
    for dock in map(kit.dict_of, kit.list_of(view.get("docks"))):
        if not dock.get("dest"):
            items.append(t(f"{P}render.empty_dock", lang))
            continue
        crew = [c for c in kit.list_of(dock.get("crew")) if kit.is_int(c)]
        per = [crew.count(c) for c in range(max(crew, default=-1) + 1)]
        aboard = _counts(view, names, per, lang) or t(f"{P}words.nobody", lang)
        items.append(
            t(
                f"{P}words.dock",
                lang,
                dest=_zone(dock.get("dest"), lang),
                n=len(crew),
                cap=kit.int_of(dock.get("cap")),
                crew=aboard,
            )
        )
    return t(f"{P}words.docks", lang, list="; ".join(items)) if items else ""


def _mars(view: dict[str, Any], names: Sequence[str], lang: str) -> str:
    items = []
    for z, zone in kit.dict_of(view.get("zones")).items():
        here = _counts(view, names, kit.list_of(kit.dict_of(zone).get("astronauts")), lang)
        if here:
            items.append(f"{_zone(z, lang)}: {here}")
    return t(f"{P}words.mars", lang, list="; ".join(items)) if items else ""


def _tokens(view: dict[str, Any], names: Sequence[str], lang: str) -> str:
    items = []
    for c, tok in enumerate(kit.list_of(view.get("tokens"))):
        tok = kit.dict_of(tok)
        have = [f"{kit.int_of(tok.get(r))} {t(f'{P}res.{r}', lang)}" for r in RES if tok.get(r)]
        if have:
            items.append(f"{_who(view, names, c, lang)} {', '.join(have)}")
    return t(f"{P}words.tokens", lang, list="; ".join(items)) if items else ""


def describe_table(view: dict[str, Any], names: list[str], lang: str) -> str:
    view = kit.public(view)
    over = bool(view.get("over"))
    return words.join(
        [
            *words.summary(GAME, view, names, lang),
            "" if over else _docks(view, names, lang),
            _mars(view, names, lang),
            _tokens(view, names, lang),
        ]
    )


def _hand(priv: dict[str, Any], lang: str) -> str:
    """ "Your characters: 9 Recruiter, 2 Soldier (your pick: 1 Pilot)."."""
    hand = [f"{P}char.{h}" for h in kit.list_of(priv.get("hand")) if kit.is_int(h)]
    text = words.labelled(t(f"{P}render.private.hand", lang), [t(k, lang) for k in hand])
    chosen = priv.get("chosen")
    if text and kit.is_int(chosen):
        pick = f"{t(f'{P}render.private.chosen', lang)}: {t(f'{P}char.{chosen}', lang)}"
        text = f"{text[:-1]} ({pick})."
    return text


def describe_private(view: dict[str, Any], names: list[str], lang: str) -> str:
    priv = kit.dict_of(view.get("private"))
    missions = [
        t(f"{P}card.{m.get('id')}", lang)
        + f" ({t(f'{P}words.points', lang, n=kit.int_of(m.get('points')))})"
        for m in map(kit.dict_of, kit.list_of(priv.get("missions")))
    ]
    found = kit.dict_of(priv.get("discoveries"))
    return words.join(
        [
            words.private_heading(GAME, view, names, lang),
            _hand(priv, lang),
            words.labelled(
                t(f"{P}render.private.choose_mission", lang),
                [t(f"{P}mission.{m}", lang) for m in kit.list_of(priv.get("dealt"))],
                "; ",
            ),
            words.labelled(t(f"{P}render.private.missions", lang), missions, "; "),
            words.labelled(
                t(f"{P}render.private.actions", lang),
                [t(f"{P}card.{a}", lang) for a in kit.list_of(priv.get("actions"))],
            ),
            words.labelled(
                t(f"{P}render.private.discoveries", lang),
                [f"{_zone(z, lang)}: {t(f'{P}card.{d}', lang)}" for z, d in found.items()],
                "; ",
            ),
        ]
    )
