"""The games this host knows. Adding a game is one line here (its renderer is found by
name: ``render/<id>.py``)."""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType

from core.contract import Game

GAME_MODULES: dict[str, str] = {
    "mlem": "rules.mlem",
    "kosmonavts": "rules.kosmonavts",
    "red_planet": "rules.red_planet",
    "galaxy_trucker": "rules.galaxy_trucker",
    "ad_astra": "rules.ad_astra",
}


@cache
def games() -> dict[str, Game]:
    return {gid: importlib.import_module(mod).GAME for gid, mod in GAME_MODULES.items()}


def get(game_id: str) -> Game:
    try:
        return games()[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}") from None


@cache
def renderer(game_id: str) -> ModuleType:
    """``render.<game_id>``: provides ``render_table`` and ``render_private``."""
    return importlib.import_module(f"render.{game_id}")
