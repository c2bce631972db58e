"""Every game's lobby shows every option whole, in English and Spanish: each option's name,
its value and its one-line help (the Spanish pacing field used to be cut: "normal**…"),
split over several fields rather than cut, each within Discord's limits."""

from __future__ import annotations

import pytest

from cogs import present
from core.i18n import t
from host import pacing, registry
from tests.harness import Harness


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_every_lobby_shows_every_option_uncut(harness: Harness, lang: str) -> None:
    h = harness
    owner = h.user("Ana", "en-US" if lang == "en" else "es-ES")
    for game in sorted(registry.GAME_MODULES):
        channel = h.new_channel(f"lobby-{game}")
        lobby = (await h.slash(owner, "game new", game=game, channel=channel)).posted
        (embed,) = lobby.embeds
        fields = embed.get("fields", [])
        assert all(len(f["value"]) <= 1024 for f in fields)
        size = len(embed.get("title") or "") + len(embed.get("description") or "")
        assert size + sum(len(f["name"]) + len(f["value"]) for f in fields) <= 6000
        text = "\n".join(f["value"] for f in fields)
        assert "…" not in text, (game, lang)
        g = registry.get(game)
        for owner_id, specs in ((game, g.options), ("host", pacing.HOST_OPTIONS)):
            for spec in specs:
                value = t(f"{spec.label}.{spec.default}", lang)
                assert f"{t(spec.label, lang)}: **{value}**" in text, (game, spec.id)
                about = present.option_help(spec, owner_id, lang)
                if about:
                    assert about in text, (game, spec.id)
        pacing_names = [
            f["name"] for f in fields if f["name"].startswith(t("host.lobby.pacing", lang))
        ]
        assert pacing_names, fields
