"""Boxes drawn once and pasted afterwards (render.regions, issue 23) in Ad Astra and Galaxy
Trucker: a run of consecutive pictures drawn warm (each box pasted when its state comes
again) is pixel for pixel the same run drawn cold (every cache emptied before each picture),
and no box draws outside itself (``regions.CHECK``). Galaxy Trucker's flight tables come
from bot-built ships (random builders leave them nearly empty)."""

from __future__ import annotations

from typing import Any

import pytest

from host import registry
from render import layers, regions
from tests.render.kit import assert_same_pictures, gt_flight, played


def run(
    game_id: str, views: list[tuple[dict, dict, list[str]]], lang: str, cold: bool
) -> list[bytes | None]:
    """The PNGs of ``views`` (table, private, table, ...), compared by
    :func:`tests.render.kit.assert_same_pictures` (their pixels, in RGB)."""
    render = registry.renderer(game_id)
    out: list[bytes | None] = []
    for pub, me, names in views:
        if cold:
            layers.clear_all()
        out.append(render.render_table(pub, names, lang))
        out.append(render.render_private(me, names, lang))
    return out


CASES = [
    ("galaxy_trucker", lambda: gt_flight(3, "I", 43)),
    ("galaxy_trucker", lambda: gt_flight(4, "II", 47)),
    ("galaxy_trucker", lambda: gt_flight(2, "III", 45)),
    ("galaxy_trucker", lambda: played("galaxy_trucker", 4, 3, 1)),
    ("ad_astra", lambda: played("ad_astra", 3, 1, 3)),
    ("ad_astra", lambda: played("ad_astra", 5, 2, 3)),
]


@pytest.mark.parametrize(("game_id", "views"), CASES)
def test_warm_run_is_the_cold_run(
    game_id: str, views: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(regions, "CHECK", True)  # a box drawing outside itself fails
    sample = views()
    assert len(sample) >= 8
    for lang in ("es", "en"):
        cold = run(game_id, sample, lang, cold=True)
        layers.clear_all()
        warm = run(game_id, sample, lang, cold=False)
        again = run(game_id, sample, lang, cold=False)  # every box pasted
        assert_same_pictures(warm, cold, "RGB")
        assert_same_pictures(again, cold, "RGB")


def test_boxes_are_pasted_when_their_state_comes_again() -> None:
    """The flight table's ships come from the cache when nothing aboard changed."""
    from render.galaxy_trucker import flight

    sample = gt_flight(4, "II", 47)
    layers.clear_all()
    run("galaxy_trucker", sample, "en", cold=False)
    assert flight._SHIPS.hits > 0 and flight._TRACKS.hits > 0
    assert 0 < layers.memory_bytes() < 80 * 2**20
