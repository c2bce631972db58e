"""The table's buttons sent as plain dicts (issue 23: :class:`cogs.ui.Panel`, built by
:func:`cogs.present.table_panel` without discord.py's item objects) are the components
discord.py's view of the same items sends: at every table of seeded games of the five
games, and in every request of seeded 3-player MLEM and Kosmonavts games (the same bytes
as with the view)."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import build_bot
from cogs import present, ui
from host.clock import FakeClock
from host.settings import Settings
from tests.e2e.driver import play_turn
from tests.e2e.kit import numbered_snowflakes, open_game
from tests.harness import Harness

GAMES = ["mlem", "kosmonavts", "red_planet", "ad_astra", "galaxy_trucker"]


def _compared(monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], list[int]]:
    """``table_panel`` checked against ``table_view`` at each call: the differences, and
    the versions checked."""
    wrong: list[Any] = []
    seen: list[int] = []
    made = present.table_panel

    def checked(snap: Any, lang: str, **kw: Any) -> ui.Panel:
        panel = made(snap, lang, **kw)
        view = present.table_view(snap, lang, **kw)
        ours, theirs = json.dumps(panel.to_components()), json.dumps(view.to_components())
        if ours != theirs:  # (the same keys in the same order)
            wrong.append((snap.row.version, ours, theirs))
        seen.append(snap.row.version)
        return panel

    monkeypatch.setattr(present, "table_panel", checked)
    return wrong, seen


@pytest.mark.parametrize("game", GAMES)
async def test_every_table_sends_the_views_components(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    h = harness
    wrong, seen = _compared(monkeypatch)
    users = [h.user("Ana", "en-US"), h.user("Ben", "es-ES"), h.user("Cai", "en-US")]
    await open_game(h, game, users[0], users[1:])
    seats = {u: seat for seat, u in enumerate(users)}
    rng = random.Random(5)
    for _ in range(30):
        if not await play_turn(h, seats, rng):
            break
    await h.idle()
    assert len(seen) >= 10
    assert wrong == []


async def test_a_panel_places_items_as_the_view_does() -> None:
    """A grid with gaps, arrows, a menu, helpers with emoji, an item without a row: the
    same components either way; and refused where the view refuses."""
    for fill in (ui.Panel(), discord.ui.View(timeout=None)):
        ui.put(fill, ui.TableButton, 7, 3, "log", label="Log")  # no row: the first with room
        ui.put(fill, ui.GapButton, 7, 3, 1, row=1)
        ui.put(fill, ui.GridButton, 7, 3, 0, "deadbeef", 2, 1, label="▼", row=1)
        entries = [discord.SelectOption(label="A", value="a")]
        ui.put(fill, ui.MoveSelect, 7, 3, 0, "deadbeef", 0, entries, "Pick", row=2)
        ui.put(fill, ui.TableButton, 7, 3, "move", label="x" * 90, page=1, row=0)
        ui.put(fill, ui.TableButton, 7, 3, "hand", label="Hand", row=4)
        if isinstance(fill, ui.Panel):
            panel = fill
        else:
            assert json.dumps(panel.to_components()) == json.dumps(fill.to_components())
            assert len(panel.children) == len(fill.children)
    with pytest.raises(ValueError):
        ui.put(panel, ui.GapButton, 7, 3, 2, row=2)  # the menu fills row 2
    for _ in range(4):
        ui.put(panel, ui.GapButton, 7, 3, 2, row=4)
    with pytest.raises(ValueError):
        ui.put(panel, ui.GapButton, 7, 3, 2, row=4)


@pytest.mark.parametrize("game", ["mlem", "kosmonavts"])
async def test_the_same_requests_as_with_the_view(
    make_harness: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    """Every request of a seeded 3-player game (messages, embeds, buttons, pictures) is the
    same whether the table is sent with the panel or with discord.py's view."""
    shown = []
    for as_view in (False, True):
        with monkeypatch.context() as m:
            if as_view:
                m.setattr(present, "table_panel", present.table_view)
            settings = Settings(token="t", db_path=str(tmp_path / f"{as_view}.db"), tick_seconds=0)
            seeds, clock = random.Random(2024), FakeClock()
            h = await make_harness(
                functools.partial(build_bot, settings, clock=clock, seeds=seeds)
            )
            try:
                users = [h.user("Ana", "en-US"), h.user("Ben", "es-ES"), h.user("Cai", "en-US")]
                await open_game(h, game, users[0], users[1:])
                seats = {u: seat for seat, u in enumerate(users)}
                rng = random.Random(8)
                for _ in range(24):
                    await play_turn(h, seats, rng)
                await h.idle()
                shown.append(
                    [
                        (numbered_snowflakes(json.dumps([r.method, r.path, r.json])), r.files)
                        for r in h.backend.requests
                    ]
                )
            finally:
                await h.stop()
    assert shown[0] == shown[1]
    assert sum('"components"' in said for said, _ in shown[0]) >= 20
