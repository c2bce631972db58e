"""The end of a game reveals what was hidden: a MLEM game with secret missions, played
through the offline Discord harness, ends with every player's missions and whether each was
met (✓/✗) in the final table message and in the log file."""

from __future__ import annotations

import random

from rules.mlem import engine
from tests.e2e.driver import is_final, play_to_end
from tests.e2e.test_mlem_e2e import open_game, snapshot
from tests.harness import Harness


def mission_marks(state: dict, seat: int) -> str:
    return ", ".join(f"{m} {'✓' if ok else '✗'}" for m, ok in engine.missions_done(state, seat))


async def test_mlem_secret_missions_are_revealed_at_the_end(harness: Harness) -> None:
    h = harness
    ana, ben, cal = h.user("Ana", "es-ES"), h.user("Ben", "en-US"), h.user("Cal", "en-GB")
    await open_game(h, ana, ben, cal, variants=("missions",))
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
