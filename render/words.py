"""Boards described in words: what every game's ``words`` module shares.

Each game's renderer exports ``describe_table(view, names, lang)`` (the public view, what the
table picture shows) and ``describe_private(view, names, lang)`` (one seat's view, what its
private picture shows), each a short text in the reader's language that Discord carries as
the attachment's description (its alt text: read by screen readers, shown before the image
loads). They read the same view dict the picture is drawn from and nothing else, so a table's
text can hold no secret the public view does not; a private text may hold that seat's own.

The pieces here: the heading (game, round, phase), who the game waits for, the scores, the
winner once over, and :func:`join`, which keeps the text within Discord's limit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from core import i18n
from core.i18n import t
from render import kit

#: Discord's limit on an attachment's description.
LIMIT = 1024


def name(names: Sequence[str], seat: Any, lang: str) -> str:
    """A seat's name as players know it (emoji kept: a screen reader reads them)."""
    if kit.is_int(seat) and 0 <= seat < len(names) and str(names[seat]).strip():
        return str(names[seat])
    return t("render.seat", lang, n=kit.int_of(seat) + 1)


def listing(items: Iterable[str], lang: str) -> str:
    """ "Ana, Ben and Cal" / "Ana, Ben y Cal"."""
    items = [i for i in items if i]
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + t("render.words.and", lang) + items[-1]


def seats_of(view: dict[str, Any], names: Sequence[str]) -> int:
    """How many seats the view has."""
    n = view.get("players")
    return n if kit.is_int(n) and n > 0 else len(names)


def heading(game: str, view: dict[str, Any], lang: str, *, round_key: str = "") -> str:
    """ "MLEM: Space Agency, voyage 4: Exploration." — the game, its round in the game's own
    word, the phase (a key of the view) when it has a text."""
    parts = [t(f"{game}.name", lang)]
    n = view.get("round")
    if kit.is_int(n) and n > 0:
        key = round_key or (f"{game}.round" if i18n.has(f"{game}.round", lang) else "")
        parts.append(t(key, lang, n=n) if key else t("render.words.round", lang, n=n))
    text = ", ".join(parts)
    phase = view.get("phase")
    if isinstance(phase, str) and i18n.has(phase, lang) and not view.get("over"):
        text += ": " + t(phase, lang)
    return text + "."


def waiting(view: dict[str, Any], names: Sequence[str], lang: str) -> str:
    """ "Waiting for Ana and Ben." (empty when nobody is to move)."""
    seats = [s for s in kit.list_of(view.get("waiting")) if kit.is_int(s)]
    if not seats or view.get("over"):
        return ""
    return t(
        "render.words.waiting", lang, who=listing([name(names, s, lang) for s in seats], lang)
    )


def your_turn(view: dict[str, Any], seat: int, lang: str) -> str:
    """ "It is your move." when the seat is among those the game waits for."""
    seats = kit.list_of(view.get("waiting"))
    return t("render.words.your_turn", lang) if seat in seats and not view.get("over") else ""


def scores(view: dict[str, Any], names: Sequence[str], lang: str) -> str:
    """ "Scores: Ana 3, Ben 4, Cal 10." (empty when the view has none)."""
    pts = kit.list_of(view.get("scores"))
    items = [
        f"{name(names, s, lang)} {i18n.number(p, lang)}"
        for s, p in enumerate(pts)
        if isinstance(p, int | float) and not isinstance(p, bool)
    ]
    return t("render.words.scores", lang, list=", ".join(items)) if items else ""


def winners(view: dict[str, Any], names: Sequence[str], lang: str) -> str:
    """ "Game over: Ana wins with 12 points." once the view is over (the highest score;
    the game's own ranking when the view holds one)."""
    if not view.get("over"):
        return ""
    pts = [p if isinstance(p, int | float) else 0 for p in kit.list_of(view.get("scores"))]
    if not pts:
        return t("render.words.over", lang)
    ranks = kit.list_of(kit.dict_of(view.get("result")).get("ranks"))
    if len(ranks) == len(pts) and all(kit.is_int(r) for r in ranks):
        best = [s for s, r in enumerate(ranks) if r == min(ranks)]
    else:
        best = [s for s, p in enumerate(pts) if p == max(pts)]
    who = listing([name(names, s, lang) for s in best], lang)
    return t("render.words.winner", lang, who=who, n=len(best), points=pts[best[0]])


def private_heading(game: str, view: dict[str, Any], names: Sequence[str], lang: str) -> str:
    """ "Ana's secrets in MLEM: Space Agency." plus "It is your move." when it is."""
    seat = kit.int_of(view.get("seat"), kit.int_of(kit.dict_of(view.get("private")).get("seat")))
    text = t(
        "render.words.private", lang, name=name(names, seat, lang), game=t(f"{game}.name", lang)
    )
    turn = your_turn(view, seat, lang)
    return f"{text} {turn}" if turn else text


def summary(game: str, view: dict[str, Any], names: Sequence[str], lang: str) -> list[str]:
    """What every table's text opens with: the heading, the winner once over, whom the
    game waits for, the scores."""
    return [
        heading(game, view, lang),
        winners(view, names, lang),
        waiting(view, names, lang),
        scores(view, names, lang),
    ]


def labelled(label: str, items: Iterable[str], sep: str = ", ") -> str:
    """ "Your action cards: Build, Trade." (empty without items)."""
    items = [i for i in items if i]
    return f"{label}: {sep.join(items)}." if items else ""


def join(parts: Iterable[str], limit: int = LIMIT) -> str:
    """The sentences, one after the other, cut at a sentence when past ``limit``."""
    out = ""
    for part in parts:
        part = part.strip()
        if not part:
            continue
        candidate = f"{out} {part}" if out else part
        if len(candidate) > limit:
            if not out:
                return part[: limit - 1] + "…"
            break
        out = candidate
    return out


def describe_recap(game: str, view: dict[str, Any], names: Sequence[str], lang: str) -> str:
    """The recap GIF's text: what it is, who won, the scores."""
    return join(
        [
            t("render.words.recap", lang, game=t(f"{game}.name", lang)),
            winners(view, names, lang),
            scores(view, names, lang),
        ]
    )
