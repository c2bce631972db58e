"""Fixtures of the e2e tests (the kit's functions are in tests/e2e/kit.py)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest

from host import registry
from render import kit as render_kit


@pytest.fixture
def i18n_warnings(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    """Records the i18n layer's warnings ("missing string …") for
    :func:`tests.e2e.kit.assert_translated`; modules that check words use it with
    ``pytestmark = pytest.mark.usefixtures("i18n_warnings")``."""
    caplog.set_level(logging.WARNING, logger="core.i18n")
    return caplog


@pytest.fixture(autouse=True)
def tables_drawn_once(monkeypatch: pytest.MonkeyPatch) -> dict[tuple[Any, ...], bytes]:
    """Within one test, a table picture of the very same view is drawn once: a second
    ``render_table`` of it (the recap's frames and the final board are steps the replay
    viewer draws again) gets the bytes the first drawing made.

    As strong as drawing it again: the key is the exact view (its ``repr``: every value
    with its type, every dict's keys in their order, which a picture may depend on: a final
    table does), the names, the language and the PNG level; so a hit is a picture the same
    pure function drew from the same input, and the checks that compare pictures (a
    replay's last step is the final table) still compare what the views make. That the
    same input gives the same bytes is what the render tests pin (tests/render: cold and
    warm runs identical, the same picture from several threads)."""
    drawn: dict[tuple[Any, ...], bytes] = {}
    for game_id in registry.GAME_MODULES:
        module = registry.renderer(game_id)
        monkeypatch.setattr(module, "render_table", _once(game_id, module.render_table, drawn))
    return drawn


def _once(
    game_id: str, draw: Callable[..., bytes], drawn: dict[tuple[Any, ...], bytes]
) -> Callable[..., bytes]:
    def render_table(view: dict[str, Any], names: list[str], lang: str) -> bytes:
        key = (game_id, repr(view), tuple(names), lang, render_kit.PNG_LEVEL)
        data = drawn.get(key)
        if data is None:
            data = drawn[key] = draw(view, names, lang)
        return data

    return render_table
