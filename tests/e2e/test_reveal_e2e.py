"""The table says what is decided, and the end reveals what was hidden, through the offline
Discord harness: every table names each open public decision's prompt with whose it is
(private prompts never reach the channel), and a MLEM game with secret missions ends with
every player's missions and whether each was met (✓/✗) in the final table message and in
the log file."""

from __future__ import annotations

import random

from cogs import present
from core.i18n import t
from rules.mlem import engine
from tests.e2e.driver import TO_MOVE, field, is_final, latest_table, play_to_end, play_turn
from tests.e2e.kit import open_game, snapshot
from tests.harness import Harness
from tests.rules.mlem_kit import ScriptedDice


def mission_marks(state: dict, seat: int) -> str:
    return ", ".join(f"{m} {'✓' if ok else '✗'}" for m, ok in engine.missions_done(state, seat))


async def test_mlem_secret_missions_are_revealed_at_the_end(harness: Harness) -> None:
    h = harness
    ana, ben, cal = h.user("Ana", "es-ES"), h.user("Ben", "en-US"), h.user("Cal", "en-GB")
    await open_game(h, "mlem", ana, [ben, cal], clicks={"missions": 1})
    final = await play_to_end(h, {ana: 0, ben: 1, cal: 2}, random.Random(5))
    assert is_final(final)
    snap = await snapshot(h)
    assert snap.row.status == "over"
    state = snap.row.state
    text = final.text()
    assert "Lo que estaba oculto" in text  # the game speaks Ana's language
    logs = [
        a.data.decode("utf-8")
        for m in h.messages()
        for a in m.attachments
        if a.name.endswith("-log.txt")
    ]
    assert len(logs) == 1
    log = logs[0]
    assert "Lo que estaba oculto" in log
    for seat, name in enumerate(("Ana", "Ben", "Cal")):
        marks = mission_marks(state, seat)
        assert len(engine.missions_done(state, seat)) == 3
        line = f"{name}: misiones secretas {marks}"
        assert line in text, (line, text)
        assert line in log, (line, log)
    assert not h.unexpected


async def check_prompts_on_table(h: Harness, rng: random.Random, seats: dict, game: str) -> int:
    """Play to the end; after every click the table names each open public decision's
    prompt with whose it is, and no private prompt reaches the channel."""
    checked = 0
    secret: set[str] = set()
    while True:
        snap = await snapshot(h)
        table = latest_table(h)
        if snap.row.status != "active":
            public = h.all_public_text()
            assert not [p for p in secret if p in public]
            return checked
        lang = snap.row.lang
        to_move = field(table, TO_MOVE) or ""
        for d in snap.decisions:
            prompt = present.prompt_text(snap, d, lang)
            if d.private:
                secret.add(prompt)
            else:
                line = f"<@{snap.seats[d.seat].user_id}>"
                assert any(line in row and prompt in row for row in to_move.splitlines()), (
                    prompt,
                    to_move,
                )
                checked += 1
        if await play_turn(h, seats, rng) is None:
            return checked


async def test_every_mlem_table_says_what_is_decided(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana", "es-ES"), h.user("Ben", "en-US")
    await open_game(h, "mlem", ana, [ben], clicks={"missions": 1, "ufo": 1})
    assert await check_prompts_on_table(h, random.Random(8), {ana: 0, ben: 1}, "mlem") > 20
    assert not h.unexpected


async def test_every_kosmonavts_table_says_what_is_decided(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana", "en-US"), h.user("Ben", "es-ES")
    options = {"rules": "advanced", "planets": "players"}
    await open_game(h, "kosmonavts", ana, [ben], options=options, by=ben)
    assert await check_prompts_on_table(h, random.Random(9), {ana: 0, ben: 1}, "kosmonavts") > 5
    assert not h.unexpected


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
