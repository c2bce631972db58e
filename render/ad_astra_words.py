"""Ad Astra described in words: the alt text of the table and of a seat's private picture,
from the same views (see :mod:`render.words`). The table shows the planning board's cards
only as far as the public view does (face up once revealed)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.i18n import t
from render import kit, words

GAME = "ad_astra"
P = "ad_astra."


def _turn(view: dict[str, Any]) -> int | None:
    """Whose move it is: the planner, else the player of the card being carried out."""
    if kit.is_int(view.get("planner")):
        return int(view["planner"])
    task = kit.dict_of(view.get("task"))
    for key in ("turn", "owner"):
        if kit.is_int(task.get(key)):
            return int(task[key])
    return None


def _where(view: dict[str, Any], planet: Any, lang: str) -> str:
    planets = kit.list_of(view.get("planets"))
    if kit.is_int(planet) and 0 <= planet < len(planets):
        sys_ = kit.dict_of(planets[planet]).get("sys")
        return t(f"{P}render.system.{sys_}", lang)
    return t(f"{P}render.deep_space", lang)


def _player(view: dict[str, Any], names: Sequence[str], seat: int, lang: str) -> str:
    pieces = (
        kit.dict_of(kit.list_of(view.get("pieces"))[seat])
        if seat < len(kit.list_of(view.get("pieces")))
        else {}
    )
    ships = (
        kit.list_of(kit.list_of(view.get("ships"))[seat])
        if seat < len(kit.list_of(view.get("ships")))
        else []
    )
    where = sorted({_where(view, p, lang) for p in ships})
    cards = kit.list_of(view.get("action_cards"))
    arts = kit.list_of(view.get("artifact_count"))
    res = kit.list_of(view.get("hand_count"))
    return t(
        f"{P}words.player",
        lang,
        name=words.name(names, seat, lang),
        c=kit.int_of(pieces.get("c")),
        f=kit.int_of(pieces.get("f")),
        tf=kit.int_of(pieces.get("tf")),
        ships=len(ships),
        where=", ".join(where) or "—",
        res=kit.int_of(res[seat]) if seat < len(res) else 0,
        act=kit.int_of(cards[seat]) if seat < len(cards) else 0,
        art=kit.int_of(arts[seat]) if seat < len(arts) else 0,
    )


def describe_table(view: dict[str, Any], names: list[str], lang: str) -> str:
    view = kit.public(view)
    over = bool(view.get("over"))
    n = words.seats_of(view, names)
    turn = _turn(view)
    task = kit.dict_of(view.get("task"))
    now = ""
    if not over and turn is not None:
        card = task.get("card")
        now = t(
            f"{P}words.now_card" if isinstance(card, str) else f"{P}words.now",
            lang,
            name=words.name(names, turn, lang),
            card=t(f"{P}render.card.{card}", lang) if isinstance(card, str) else "",
        )
    lead = words.summary(GAME, view, names, lang)
    if now:  # whose move it is, for the waiting line (the view names nobody waiting)
        lead[2] = now
    return words.join([*lead, *[_player(view, names, s, lang) for s in range(n)]])


def _slot(slot: Any) -> int:
    return int(slot) if str(slot).isdigit() else 0


def describe_private(view: dict[str, Any], names: list[str], lang: str) -> str:
    priv = kit.dict_of(view.get("private"))
    seat = kit.int_of(view.get("seat"), kit.int_of(priv.get("seat")))
    head = words.private_heading(GAME, view, names, lang)
    if _turn(view) == seat and not view.get("over") and "waiting" not in view:
        head += " " + t("render.words.your_turn", lang)
    hand = [t(f"{P}render.card.{c}", lang) for c in kit.list_of(priv.get("action_hand"))]
    planned = sorted(kit.dict_of(priv.get("planned")).items(), key=lambda kv: _slot(kv[0]))
    counts = {
        k: v for k, v in kit.dict_of(priv.get("resources")).items() if kit.is_int(v) and v > 0
    }
    res = [f"{v} {t(f'{P}render.res.{k}', lang)}" for k, v in counts.items()]
    by_sys: dict[str, list[str]] = {}
    for pid, typ in kit.dict_of(priv.get("known_planets")).items():
        where = _where(view, int(pid) if str(pid).isdigit() else -1, lang)
        by_sys.setdefault(where, []).append(t(f"{P}render.res.{typ}", lang))
    arts = [t(f"{P}artname.{a}", lang) for a in kit.list_of(priv.get("artifacts"))]
    known = [f"{s}: {', '.join(v)}" for s, v in by_sys.items()]
    return words.join(
        [
            head,
            words.labelled(t(f"{P}render.private.hand", lang, n=len(hand)), hand),
            words.labelled(
                t(f"{P}render.private.planned", lang),
                [
                    t(f"{P}render.private.slot", lang, n=k) + ": " + t(f"{P}render.card.{v}", lang)
                    for k, v in planned
                ],
                "; ",
            ),
            words.labelled(
                t(f"{P}render.private.resources", lang, n=sum(counts.values())),
                res or [t(f"{P}render.private.none", lang)],
            ),
            words.labelled(t(f"{P}render.private.artifacts", lang), arts),
            words.labelled(t(f"{P}render.private.known", lang), known, "; "),
        ]
    )
