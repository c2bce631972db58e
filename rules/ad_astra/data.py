"""Ad Astra component data, read once from ``data/ad_astra/game.json``.

Values the fact sheet marks DERIVED, INFERRED or DESIGNED carry a ``status`` in the file so
printed values can replace them later without touching the engine.
"""

from __future__ import annotations

from typing import Any

from rules.kit import load_json

GAME_ID = "ad_astra"

DATA: dict[str, Any] = load_json(GAME_ID, "game.json")

RES: tuple[str, ...] = tuple(DATA["resources"]["types"])
ORES: tuple[str, ...] = tuple(DATA["resources"]["ores"])
PER_TYPE: int = DATA["resources"]["per_type"]
HAND_LIMIT: int = DATA["resources"]["hand_limit"]
SOL: str = DATA["systems"]["home"]
STARS: tuple[str, ...] = tuple(DATA["systems"]["stars"])
PLANET_COUNTS: dict[str, int] = dict(DATA["planets"]["counts"])
ALIEN = "A"
MIN_SYS: int = DATA["deal"]["min_per_system"]
MAX_SYS: int = DATA["deal"]["max_per_system"]
PIECES: int = DATA["pieces"]["per_type"]
SLOTS: dict[int, int] = {int(k): v for k, v in DATA["slots"].items() if k != "status"}
CARDS_PER_ROUND: dict[int, int] = {
    int(k): v for k, v in DATA["cards_per_round"].items() if k != "status"
}
COSTS: dict[str, dict[str, Any]] = DATA["costs"]
TERRAFORMABLE: tuple[str, ...] = tuple(DATA["terraformable"]["types"])
MOVE_COST: dict[str, int] = {k: v for k, v in DATA["move_cost"].items() if k != "status"}
VP_ALIEN_COLONY: int = DATA["immediate_vp"]["alien_colony"]
VP_ALIEN_FACTORY: int = DATA["immediate_vp"]["alien_factory"]
VP_TERRAFORM: int = DATA["immediate_vp"]["terraform"]
SCORING: dict[str, tuple[str, str]] = {
    k: (v[0], v[1]) for k, v in DATA["scoring"]["cards"].items()
}
BONUS: int = DATA["scoring"]["bonus"]
END_VP: int = DATA["end_vp"]
FACTIONS: tuple[str, ...] = tuple(DATA["factions"]["order"])
ARTIFACTS: dict[str, dict[str, Any]] = {a["id"]: a for a in DATA["artifacts"]["cards"]}

#: Action card ids of every faction: 3 production, 3 movement, build, trade, 3 scoring.
CARD_IDS: tuple[str, ...] = ("p0", "p1", "p2", "m0", "m1", "m2", "b", "t", "s1", "s2", "s3")
SCORING_CARDS: tuple[str, ...] = ("s1", "s2", "s3")


def card_kind(card: str) -> str:
    """``prod``, ``move``, ``build``, ``trade`` or ``score``."""
    return {"p": "prod", "m": "move", "b": "build", "t": "trade", "s": "score"}[card[0]]


def card_pair(faction: str, card: str) -> tuple[str, str]:
    """The two resources (production) or systems (movement) printed on a card."""
    table = DATA["factions"][faction]["production" if card[0] == "p" else "movement"]
    a, b = table[int(card[1])]
    return a, b
