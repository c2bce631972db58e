"""Components built from decisions: buttons, select menus, paging, custom_id limits."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from cogs import ui
from core.contract import MULTI_SEP, Decision, Option


def decision(n: int) -> Decision:
    return Decision(
        0, "host.error.stale", tuple(Option(f"o{i}", "host.btn.log") for i in range(n))
    )


def components(view: discord.ui.View) -> list[dict]:
    return [c for row in view.to_components() for c in row["components"]]


def added(options: int, lang: str) -> tuple[int, list[dict]]:
    """The next free row and the components of a decision of ``options`` options."""
    view = discord.ui.View(timeout=None)
    row = ui.add_decisions(
        view,
        [decision(options)],
        gid=1,
        ver=2,
        tokens=["abcdef01"],
        lang=lang,
        names=["A"],
        game_id="x",
    )
    return row, components(view)


def test_few_options_are_buttons() -> None:
    row, comps = added(7, "en")
    assert row == 2 and len(comps) == 7 and all(c["type"] == 2 for c in comps)
    assert all(len(c["custom_id"]) <= 100 for c in comps)


def test_many_options_are_paged_selects() -> None:
    _, selects = added(130, "es")
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


#: Every item's template, byte for byte: buttons posted before a change must keep routing
#: after a restart, so a template may only ever grow new alternatives, never change.
TEMPLATES: dict[type[ui.CdItem[Any]], str] = {
    ui.MoveButton: r"cd:(?P<gid>\d+):(?P<ver>\d+):m:(?P<seat>\d+):(?P<tok>[0-9a-f]{8}):"
    r"(?P<opt>[A-Za-z0-9_.+-]{1,40})",
    ui.MoveSelect: r"cd:(?P<gid>\d+):(?P<ver>\d+):s:(?P<seat>\d+):(?P<tok>[0-9a-f]{8}):"
    r"(?P<part>\d+)",
    ui.LobbyButton: r"cd:(?P<gid>\d+):(?P<ver>\d+):l:"
    r"(?P<act>join|leave|bot|start|b\.\d+|o\.[A-Za-z0-9_.]+)",
    ui.TableButton: r"cd:(?P<gid>\d+):(?P<ver>\d+):t:(?P<act>hand|log|undo|back|move)"
    r"(?:\.(?P<page>\d+))?",
    ui.DeadlineButton: r"cd:(?P<gid>\d+):(?P<ver>\d+):d:(?P<seat>\d+):(?P<tok>[0-9a-f]{8}):"
    r"(?P<kind>skip|bot)",
    ui.GridButton: r"cd:(?P<gid>\d+):(?P<ver>\d+):g:(?P<seat>\d+):(?P<tok>[0-9a-f]{8}):"
    r"(?P<r>\d+)\.(?P<c>\d+)",
    ui.GapButton: r"cd:(?P<gid>\d+):(?P<ver>\d+):x:(?P<n>\d+)",
    ui.ReplayButton: r"cd:(?P<gid>\d+):(?P<ver>\d+):r:(?P<act>open|first|prev|next|last)"
    r"\.(?P<n>\d+)",
    ui.ReplaySelect: r"cd:(?P<gid>\d+):(?P<ver>\d+):rj",
}

#: (item, a custom_id as posted, its fields, the cog handler a click calls with its args).
ROUND_TRIPS: list[
    tuple[type[ui.CdItem[Any]], str, dict[str, Any], tuple[str, tuple[Any, ...]] | None]
] = [
    (
        ui.MoveButton,
        "cd:7:3:m:1:12345678:o.2+x",
        {"gid": 7, "ver": 3, "seat": 1, "tok": "12345678", "opt": "o.2+x"},
        ("on_move", (7, 1, "12345678", "o.2+x")),
    ),
    (
        ui.MoveSelect,
        "cd:7:3:s:2:abcdef01:1",
        {"gid": 7, "ver": 3, "seat": 2, "tok": "abcdef01"},
        ("on_move", (7, 2, "abcdef01", "a" + MULTI_SEP + "b")),
    ),
    (ui.LobbyButton, "cd:9:0:l:o.h.x", {"gid": 9, "ver": 0, "act": "o.h.x"}, None),
    (ui.LobbyButton, "cd:9:4:l:b.2", {"gid": 9, "ver": 4, "act": "b.2"}, None),
    (
        ui.LobbyButton,
        "cd:9:4:l:join",
        {"gid": 9, "ver": 4, "act": "join"},
        ("on_lobby", (9, "join", 4)),
    ),
    (ui.TableButton, "cd:5:2:t:hand", {"gid": 5, "act": "hand", "page": None}, ("on_hand", (5,))),
    (
        ui.TableButton,
        "cd:5:0:t:log.3",
        {"gid": 5, "act": "log", "page": 3},
        ("on_log", (5, 3)),
    ),
    (ui.TableButton, "cd:5:2:t:undo", {"gid": 5, "act": "undo"}, ("on_undo", (5,))),
    (ui.TableButton, "cd:5:2:t:back", {"gid": 5, "act": "back"}, ("on_take_back", (5,))),
    (ui.TableButton, "cd:5:2:t:move.4", {"act": "move", "page": 4}, ("on_your_move", (5, 4))),
    (
        ui.DeadlineButton,
        "cd:8:6:d:3:0badf00d:skip",
        {"gid": 8, "seat": 3, "tok": "0badf00d", "kind": "skip"},
        ("on_cover", (8, 3, "0badf00d", "skip")),
    ),
    (
        ui.GridButton,
        "cd:8:6:g:0:0badf00d:5.10",
        {"gid": 8, "seat": 0, "tok": "0badf00d", "r": 5, "c": 10},
        ("on_grid", (8, 0, "0badf00d", 5, 10)),
    ),
    (ui.GapButton, "cd:8:6:x:12", {}, None),
    (
        ui.ReplayButton,
        "cd:4:9:r:prev.12",
        {"gid": 4, "ver": 9, "act": "prev", "n": 12},
        ("on_replay", (4, 9, "prev", 12)),
    ),
    # a value that names no step (here "a") is read as one past any game's end
    (
        ui.ReplaySelect,
        "cd:4:9:rj",
        {"gid": 4, "ver": 9},
        ("on_replay", (4, 9, "jump", ui.BIGGEST)),
    ),
]


def test_templates_are_pinned() -> None:
    assert set(TEMPLATES) == set(ui.DYNAMIC_ITEMS)
    for item, template in TEMPLATES.items():
        assert item.__discord_ui_compiled_template__.pattern == template, item.__name__


class Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def __getattr__(self, name: str) -> Any:
        async def handler(interaction: Any, *args: Any) -> None:
            self.calls.append((name, args))

        return handler


async def test_each_item_round_trips_its_custom_id_and_routes_the_click() -> None:
    assert {r[0] for r in ROUND_TRIPS} == set(ui.DYNAMIC_ITEMS)
    for item_cls, cid, fields, routed in ROUND_TRIPS:
        posted: discord.ui.Button[discord.ui.View] = discord.ui.Button(label="Hi", custom_id=cid)
        match = item_cls.__discord_ui_compiled_template__.fullmatch(cid)
        assert match, cid
        item = await item_cls.from_custom_id(None, posted, match)  # type: ignore[arg-type]
        assert type(item) is item_cls
        assert item.item.custom_id == cid  # rebuilt exactly as it was posted
        assert {k: getattr(item, k) for k in fields} == fields, cid
        if item_cls not in (ui.MoveSelect, ui.GapButton, ui.ReplaySelect):
            assert item.item.label == "Hi"  # the clicked button's label is kept
        if routed is None:
            continue
        cog = Recorder()
        interaction = SimpleNamespace(
            client=SimpleNamespace(get_cog=lambda name, c=cog: c if name == "GameCog" else None),
            data={"values": ["a", "b"]},
        )
        await item.callback(interaction)  # type: ignore[arg-type]
        assert cog.calls == [(routed[0], routed[1])], cid


async def test_a_forged_number_is_read_as_the_biggest() -> None:
    cid = "cd:" + "9" * 30 + ":1:x:2"
    match = ui.GapButton.__discord_ui_compiled_template__.fullmatch(cid)
    assert match
    item = await ui.GapButton.from_custom_id(None, None, match)  # type: ignore[arg-type]
    assert item.item.custom_id == f"cd:{ui.BIGGEST}:1:x:2"
