"""Ad Astra bots (placeholder)."""

from __future__ import annotations

import random
from typing import Any


def choose(s: dict[str, Any], seat: int, rng: random.Random) -> str:
    raise NotImplementedError
