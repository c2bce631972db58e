"""The final message explains the score whole: a six-seat toy game whose every player has a
long breakdown and eight revealed missions, and a tie-break, is shown to the last word (on
the final table, then in as many follow-up messages as it takes), each field and each
message within Discord's limits, in English and in Spanish."""

from __future__ import annotations

from typing import Any

import pytest

from core import i18n
from core.i18n import t
from host.sessions import Player
from tests import scoretoy
from tests.e2e.driver import is_final, latest_table, move_buttons
from tests.e2e.kit import register_toys
from tests.harness import Harness, Message


@pytest.fixture(autouse=True)
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    register_toys(monkeypatch, {"scoretoy": scoretoy.GAME}, [scoretoy.STRINGS])


def embed_size(embed: dict[str, Any]) -> int:
    size = len(embed.get("title") or "") + len(embed.get("description") or "")
    size += len((embed.get("footer") or {}).get("text") or "")
    return size + sum(len(f["name"]) + len(f["value"]) for f in embed.get("fields", []))


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_a_six_player_final_word_is_shown_whole(harness: Harness, lang: str) -> None:
    h = harness
    users = [h.user(f"Player{i}", "en-US" if lang == "en" else "es-ES") for i in range(6)]
    host = h.bot.host  # type: ignore[union-attr]
    players = [Player(u.id, u.name, lang) for u in users]
    snap = await host.new_lobby(
        guild_id=h.guild_id,
        channel_id=h.channel_id,
        game_id="scoretoy",
        owner=players[0],
        lang=lang,
    )
    for p in players[1:]:
        await host.join(snap.id, p)
    await h.bot.get_cog("GameCog").do_start(snap.id, players[0])  # type: ignore[union-attr]
    await h.idle()
    table = latest_table(h)
    start = table.id
    await h.click(users[0], table, move_buttons(table)[0])
    final = latest_table(h)
    assert is_final(final)
    shown: list[Message] = [m for m in h.messages() if m.id >= final.id and m.embeds]
    assert len(shown) >= 2, "the final word should need a follow-up message here"
    fields = [f for m in shown for e in m.embeds for f in e.get("fields", [])]
    text = "\n".join(f["value"] for f in fields)
    for m in shown:
        assert sum(embed_size(e) for e in m.embeds) <= 6000
    assert all(len(f["value"]) <= 1024 and len(f["name"]) <= 256 for f in fields)
    assert "…" not in text  # nothing was cut
    # Every player's every score part, every revealed mission and the tie-break.
    snap = await host.by_id(snap.id)
    result = snap.result()
    for seat in range(6):
        for key, points in scoretoy.GAME.parts(seat).items():
            assert f"{t(f'scoretoy.score.{key}', lang)} {points}" in text
        assert f"**{result.scores[seat]}**" in text
    for key, args in snap.view(None)["reveal"]:
        assert t(key, lang, **args) in text
    assert t("host.table.tiebreak", lang, what=t("scoretoy.tiebreak", lang)) in text
    # The follow-ups come right after the final table, before the end-of-game package.
    assert shown[0].id == final.id and start < final.id
    assert i18n.pick(users[0].locale) == lang
