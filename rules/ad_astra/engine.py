"""Ad Astra — the pure rules engine, in parts: :mod:`.state` (constants, set-up, helpers,
result, persistence), :mod:`.decisions` (``pending_of``), :mod:`.moves` (``apply_move``) and
:mod:`.flow` (the next slot, the end of a card and of a round).

This module is the engine the game object forwards to; it re-exports the names other code
reads from it. The package docstring lists the rulings.
"""

from __future__ import annotations

from .data import CARD_IDS
from .decisions import _landings, pending_of
from .flow import _advance
from .moves import apply_move
from .state import (
    MAX_OFFERS,
    PHASE_KEYS,
    RULES,
    SCHEMA,
    P,
    breakdown_of,
    dump_state,
    fmt_cards,
    hand_total,
    load_state,
    new_state,
    pieces,
    public_scores,
    result_of,
    systems_of,
    vp_total,
    yield_of,
)

__all__ = [
    "CARD_IDS",
    "MAX_OFFERS",
    "PHASE_KEYS",
    "RULES",
    "SCHEMA",
    "P",
    "_advance",
    "_landings",
    "apply_move",
    "breakdown_of",
    "dump_state",
    "fmt_cards",
    "hand_total",
    "load_state",
    "new_state",
    "pending_of",
    "pieces",
    "public_scores",
    "result_of",
    "systems_of",
    "vp_total",
    "yield_of",
]
