"""An event stored before its string changed arguments still reads as a sentence: the
log, the trail and /game history of a game played across the update show no raw
``{placeholder}``."""

from __future__ import annotations

import pytest

from core.i18n import t


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize(
    ("key", "old_args"),
    [
        # Galaxy Trucker: card reveals before "Card k of n"; tiles before connectors in words
        ("galaxy_trucker.event.card_planets", {"card": 3}),
        ("galaxy_trucker.event.card_meteor_swarm", {"card": 7}),
        ("galaxy_trucker.event.drawn", {"tile": 40, "sides": "U100"}),
        # Mission: Red Planet: productions before the round was named
        ("red_planet.event.production", {"n": 2, "tokens": 3}),
        # Ad Astra: ships by index, builds without the system
        ("ad_astra.event.move", {"seat": 0, "ship": 1, "sys": "SY", "cost": 1}),
        ("ad_astra.event.to_deep", {"seat": 0, "ship": 1}),
        (
            "ad_astra.event.built",
            {"seat": 0, "item": "colony", "planet": 4, "cards": "1W", "vp": 0},
        ),
    ],
)
def test_an_event_stored_by_the_version_before_still_reads(
    key: str, old_args: dict[str, object], lang: str
) -> None:
    text = t(key, lang, ["Ana", "Ben"], **old_args)
    assert "{" not in text and "}" not in text, text
