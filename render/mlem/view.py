"""MLEM pictures: reading the view (language, names, phase, counts)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core import i18n
from render import kit
from render.mlem.geometry import PLANET_NAMES

# ----------------------------------------------------------------------------- helpers


_lang = kit.lang_or_default
_name = kit.player_name
_seat_ok = kit.is_seat


def _phase(view: dict) -> str:
    if view.get("over"):
        return "over"
    ph = str(view.get("phase") or "")
    return ph.rsplit(".", 1)[-1] if ph else "launch"


def _counts(seats: Sequence[Any], n: int) -> list[tuple[int, int]]:
    """(seat, count) in first-appearance order."""
    out: dict[int, int] = {}
    for s in seats or []:
        if _seat_ok(s, n):
            out[s] = out.get(s, 0) + 1
    return list(out.items())


def _planet_name(pid: str, lang: str) -> str:
    key = f"mlem.render.planet.{pid}"
    return i18n.t(key, lang) if i18n.has(key, lang) else PLANET_NAMES.get(pid, pid)
