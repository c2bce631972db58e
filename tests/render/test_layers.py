"""Static layers drawn once (issue 23): a picture drawn cold (every layer cache emptied) is
pixel for pixel the picture drawn warm (after other states filled the caches), for every
game's table and private picture, in both languages; and the caches stay bounded."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from host import registry
from render import layers
from tests.render.kit import assert_same_pictures, sampled

GAMES = list(registry.GAME_MODULES)


def draw_all(
    game_id: str, views: list[tuple[dict, dict, list[str]]], lang: str
) -> list[tuple[bytes | None, bytes | None]]:
    """(table PNG, private PNG) of each of ``views``."""
    render = registry.renderer(game_id)
    return [
        (render.render_table(pub, names, lang), render.render_private(me, names, lang))
        for pub, me, names in views
    ]


def flat(pairs: list[tuple[bytes | None, bytes | None]]) -> list[bytes | None]:
    return [png for pair in pairs for png in pair]


@pytest.mark.parametrize("game_id", GAMES)
def test_cold_and_warm_pictures_are_identical(game_id: str) -> None:
    views = sampled(game_id)
    for lang in ("es", "en"):
        cold = []
        for view in views:
            layers.clear_all()
            cold.extend(draw_all(game_id, [view], lang))
        # warm: the other language and every other state drawn first, then in reverse order
        draw_all(game_id, views, "en" if lang == "es" else "es")
        warm = list(reversed(draw_all(game_id, list(reversed(views)), lang)))
        assert_same_pictures(flat(warm), flat(cold))


def test_caches_are_bounded_and_clearable() -> None:
    for game_id in GAMES:
        pub, _me, names = sampled(game_id)[1]
        registry.renderer(game_id).render_table(pub, names, "en")
    assert layers.memory_bytes() > 0
    for cache in layers.caches():
        assert 0 < cache.maxsize <= 8192
    layers.clear_all()
    assert layers.memory_bytes() == 0
    assert all(len(c) == 0 for c in layers.caches())


def test_layer_cache_is_lru_and_counts() -> None:
    calls: list[int] = []

    @layers.layer_cache(maxsize=2)
    def layer(n: int) -> Image.Image:
        calls.append(n)
        return Image.new("RGB", (n, 1))

    try:
        a = layer(1)
        assert layer(1) is a
        layer(2)
        layer(1)  # 1 is now the most recent
        layer(3)  # drops 2
        assert len(layer) == 2
        layer(2)
        assert calls == [1, 2, 3, 2]
        assert layers.memory_bytes() >= 5 * 3
        layer.cache_clear()
        assert len(layer) == 0
    finally:
        layers._CACHES.remove(layer)


def test_layers_are_drawn_afresh_while_a_test_watches_the_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int] = []

    @layers.layer_cache(maxsize=2)
    def layer(n: int) -> int:
        calls.append(n)
        return n

    try:
        layer(1)
        layer(1)
        assert calls == [1]
        real = ImageDraw.ImageDraw.text
        monkeypatch.setattr(ImageDraw.ImageDraw, "text", lambda self, *a, **k: real(self, *a, **k))
        layer(1)
        assert calls == [1, 1]
    finally:
        layers._CACHES.remove(layer)
