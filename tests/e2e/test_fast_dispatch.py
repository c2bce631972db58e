"""A click on one of our items is routed without ``View.from_message`` (issue 23:
:func:`cogs.ui.install_fast_dispatch`): discord.py would rebuild every button of the clicked
message as an item before calling the clicked one. The move is played, the helpers answer,
the clicked button's label reaches the item, and a click whose component is not on its
message does nothing, as in discord.py."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from cogs import ui
from tests.e2e.driver import latest_table, move_buttons
from tests.e2e.kit import cog_of, forged_click, open_game, snapshot
from tests.harness import Harness


@pytest.fixture
def no_from_message(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """``View.from_message`` counted (the fast route never calls it)."""
    calls: list[Any] = []
    original = discord.ui.View.from_message

    def counted(message: Any, **kwargs: Any) -> Any:
        calls.append(message)
        return original(message, **kwargs)

    monkeypatch.setattr(discord.ui.View, "from_message", counted)
    return calls


async def test_clicks_are_played_without_rebuilding_the_message(
    harness: Harness, no_from_message: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    await open_game(h, "mlem", ana, [ben])
    labels: list[str] = []
    made = ui.MoveButton.from_custom_id.__func__  # type: ignore[attr-defined]

    async def spy(cls: Any, interaction: Any, item: Any, match: Any) -> Any:
        made_item = await made(cls, interaction, item, match)
        labels.append(ui.label_of(item))
        return made_item

    monkeypatch.setattr(ui.MoveButton, "from_custom_id", classmethod(spy))
    for _ in range(4):
        table = latest_table(h)
        snap = await snapshot(h)
        seat = 0 if move_buttons(table, 0) else 1
        move = move_buttons(table, seat)[0]
        shown = next(b.label for b in table.buttons if b.custom_id == move)
        await h.click((ana, ben)[seat], table, move)
        assert (await snapshot(h)).row.version > snap.row.version
        assert labels[-1] == shown
    table = latest_table(h)
    hand = next(b.custom_id for b in table.buttons if (b.custom_id or "").endswith(":t:hand"))
    assert hand is not None
    reply = await h.click(ana, table, hand)
    assert reply.posted is not None  # "My hand" answered privately
    assert no_from_message == []


async def test_a_click_whose_component_is_not_on_its_message_does_nothing(
    harness: Harness,
) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "en-US")
    await open_game(h, "mlem", ana, [ben])
    table = latest_table(h)
    snap = await snapshot(h)
    seat = 0 if move_buttons(table, 0) else 1
    move = move_buttons(table, seat)[0]
    rec = h.build_click((ana, ben)[seat], table, move)
    rec.payload["message"]["components"] = []
    (reply,) = await h._run([rec])
    assert reply.type is None and not reply.followups  # not even acknowledged
    assert (await snapshot(h)).row.version == snap.row.version
    # A forged id present on the message is still routed (and refused by the host).
    other = re.sub(r":m:(\d+):", ":m:9:", move)
    await forged_click(h, (ana, ben)[seat], table, move, other)
    assert (await snapshot(h)).row.version == snap.row.version


async def test_unloading_the_cog_gives_discord_py_its_dispatch_back(harness: Harness) -> None:
    store = harness.bot._connection._view_store  # type: ignore[union-attr]
    assert "schedule_dynamic_item_call" in vars(store)
    await cog_of(harness).cog_unload()
    assert "schedule_dynamic_item_call" not in vars(store)
    ui.install_fast_dispatch(store)  # (as it was, for the fixture's teardown)
