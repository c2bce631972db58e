"""The games this host knows. Adding a game is one line here (its renderer is found by
name: ``render/<id>.py``)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from types import ModuleType
from typing import Any

from core.contract import Game

#: The bots' search engine (``rules/search.py``), found by name like the games: the host
#: never imports ``rules`` itself.
SEARCH_MODULE = "rules.search"

#: ``choose(game, state, seat, rng, level_or_budget) -> answer``: a bot's move.
Chooser = Callable[..., str]

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


@cache
def bot_chooser() -> Chooser:
    """The search engine's ``choose``: picks a bot's answer at a level (easy / normal / hard,
    or a budget object of the engine), deterministic in the rng it is given."""
    choose: Chooser = importlib.import_module(SEARCH_MODULE).choose
    return choose


def bot_levels() -> dict[str, Any]:
    """The engine's levels by name (what a lobby offers), for checks and tests."""
    return dict(importlib.import_module(SEARCH_MODULE).LEVELS)
