"""The table says what is decided, through the offline Discord harness: MLEM's dice picked
in steps through one menu.

On the whole game of each game that tests/e2e/test_contract_e2e.py plays once for all its
checks: every table names each open public decision's prompt with whose it is (private
prompts never reach the channel), and the MLEM game, with secret missions, ends with every
player's missions and whether each was met (✓/✗) in the final table message and in the log
file."""

from __future__ import annotations

from core.i18n import t
from tests.e2e.driver import TO_MOVE, field, latest_table
from tests.e2e.kit import open_game, snapshot
from tests.harness import Harness
from tests.rules.mlem_kit import ScriptedDice


async def test_mlem_dice_picked_in_steps_through_a_menu(harness: Harness, monkeypatch) -> None:
    """With many movements the commander gets one menu of dice groups and boosters (several
    values at once), the table says so, and the rocket moves by the picked dice."""
    h = harness
    ScriptedDice(monkeypatch, ["A", 1, 2, "A", 1, 2])
    ana, ben = h.user("Ana", "es-ES"), h.user("Ben", "es-ES")
    await open_game(h, "mlem", ana, [ben])
    snap = await snapshot(h)
    first = snap.row.state["start"]
    users = [ana, ben]
    for k in range(2):  # the first to board brings the booster; the other the shifter
        seat = (first + k) % 2
        ability = "booster" if k == 0 else "shifter"
        table = latest_table(h)
        await h.click(users[seat], table, label=t(f"mlem.ability.{ability}", "es"))
    snap = await snapshot(h)
    assert snap.row.state["phase"] == "explore" and snap.row.state["pick"] is None
    d = snap.decisions[0]
    assert d.multi and d.seat == first
    table = latest_table(h)
    assert "Elige los dados que usas" in (field(table, TO_MOVE) or "")
    menu = next(s for s in table.selects if s.max_values > 1)
    assert [o["value"] for o in menu.options] == ["A", "1", "2", f"b{first}"]
    await h.click(users[first], table, menu.custom_id, values=["A", "2"])
    snap = await snapshot(h)
    assert snap.row.state["space"] == 6  # two afterburners (1 each) and two 2s
    assert any("🔥 🔥 2 2: casilla 0 → 6" in line for line in h.all_public_text().splitlines())
    assert not h.unexpected
