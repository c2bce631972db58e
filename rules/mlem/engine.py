"""The MLEM rules engine, in parts: :mod:`.state` (constants, helpers, score, persistence),
:mod:`.picks` (what a roll allows), :mod:`.voyage` (set-up and everything a voyage does),
:mod:`.turn` (``pending_of``, ``apply_move``) and :mod:`.view` (views and the end reveal).

This module is the engine the game object forwards to; it re-exports the names other code
reads from it. Every public function treats its input as read-only; :func:`apply_move` works
on a copy. The rulings are listed in the package docstring (:mod:`rules.mlem`).
"""

from __future__ import annotations

from rules.kit import clone

from .board import ABILITIES, ACCEPTS
from .picks import _explore_specs, _picking, _picks_of_go, _reroll_available
from .state import (
    PARTS,
    SCHEMA,
    breakdown_of,
    dump_state,
    load_state,
    missions_done,
    planet_awards,
    public_scores,
    result_of,
)
from .turn import _waiting, apply_move, pending_of
from .view import reveal_of, view_of
from .voyage import _check_objectives, _land_targets, draw_faces, new_state

__all__ = [
    "ABILITIES",
    "ACCEPTS",
    "PARTS",
    "SCHEMA",
    "_check_objectives",
    "_explore_specs",
    "_land_targets",
    "_picking",
    "_picks_of_go",
    "_reroll_available",
    "_waiting",
    "apply_move",
    "breakdown_of",
    "clone",
    "draw_faces",
    "dump_state",
    "load_state",
    "missions_done",
    "new_state",
    "pending_of",
    "planet_awards",
    "public_scores",
    "result_of",
    "reveal_of",
    "view_of",
]
