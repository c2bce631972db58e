"""Components built from decisions: buttons, select menus, paging, custom_id limits."""

from __future__ import annotations

import discord

from cogs import ui
from core.contract import Decision, Option


def decision(n: int) -> Decision:
    return Decision(
        0, "host.error.stale", tuple(Option(f"o{i}", "host.btn.log") for i in range(n))
    )


def components(view: discord.ui.View) -> list[dict]:
    return [c for row in view.to_components() for c in row["components"]]


def test_few_options_are_buttons() -> None:
    view = discord.ui.View(timeout=None)
    row = ui.add_decisions(
        view,
        [decision(7)],
        gid=1,
        ver=2,
        tokens=["abcdef01"],
        lang="en",
        names=["A"],
        game_id="x",
    )
    comps = components(view)
    assert row == 2 and len(comps) == 7 and all(c["type"] == 2 for c in comps)
    assert all(len(c["custom_id"]) <= 100 for c in comps)


def test_many_options_are_paged_selects() -> None:
    view = discord.ui.View(timeout=None)
    ui.add_decisions(
        view,
        [decision(130)],
        gid=1,
        ver=2,
        tokens=["abcdef01"],
        lang="es",
        names=["A"],
        game_id="x",
    )
    selects = components(view)
    assert len(selects) == 4 and all(s["type"] == 3 for s in selects)
    values = [o["value"] for s in selects for o in s["options"]]
    assert len(values) == 100 and values[-1] == f"{ui.MORE}99"
    assert values[:99] == [f"o{i}" for i in range(99)]
    assert len({s["custom_id"] for s in selects}) == 4
    assert "Más opciones (31)" in selects[-1]["options"][-1]["label"]
    # The next page starts where the first stopped, and ends the list.
    page = discord.ui.View(timeout=None)
    ui.add_selects(
        page,
        decision(130),
        "abcdef01",
        gid=1,
        ver=2,
        lang="en",
        names=["A"],
        first_row=0,
        last_row=4,
        start=99,
    )
    rest = [o["value"] for s in components(page) for o in s["options"]]
    assert rest == [f"o{i}" for i in range(99, 130)]


def test_custom_ids_fit_and_route() -> None:
    cid = ui.move_id(2**40, 10**6, 4, "abcdef01", "x" * 40)
    assert len(cid) <= 100
    assert ui.MoveButton.__discord_ui_compiled_template__.fullmatch(cid)


def test_buttons_that_would_not_fit_become_a_select() -> None:
    view = discord.ui.View(timeout=None)
    decisions = [decision(5), decision(5), decision(5), decision(8)]
    ui.add_decisions(
        view,
        decisions,
        gid=1,
        ver=2,
        tokens=["abcdef01"] * 4,
        lang="en",
        names=["A"],
        game_id="x",
    )
    rows = view.to_components()
    assert len(rows) == 4  # row 4 stays free for My hand / Log
    assert [c["type"] for c in rows[3]["components"]] == [3]
    assert len(rows[3]["components"][0]["options"]) == 8
