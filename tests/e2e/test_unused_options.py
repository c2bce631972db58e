"""The optional ``unused_options(options)`` hook of a game: a lobby option that does not
apply with the values chosen so far (say, a timer in a variant that has none) is neither
listed nor switchable in the lobby; it comes back when it applies again."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from cogs import present
from core import i18n
from core.contract import OptionSpec
from host import registry
from host.sessions import Player
from tests import toygame
from tests.e2e.kit import forged_click, refusal_text
from tests.harness import Harness


class Timed(toygame.Toy):
    id = "timedtoy"
    options = (  # type: ignore[assignment]
        OptionSpec("fast", "toy.opt.fast", ("off", "on"), "off"),
        OptionSpec("clock", "toy.opt.clock", ("short", "long"), "short"),
    )

    @staticmethod
    def unused_options(options: Mapping[str, str]) -> set[str]:
        return {"clock"} if options.get("fast", "off") == "on" else set()


STRINGS = {
    "toy.opt.fast": "Fast game",
    "toy.opt.fast.off": "off",
    "toy.opt.fast.on": "on",
    "toy.opt.clock": "Sand timer",
    "toy.opt.clock.short": "short",
    "toy.opt.clock.long": "long",
    "timedtoy.name": "Timed toy",
}


@pytest.fixture(autouse=True)
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.games(), "timedtoy", Timed())
    for lang in ("en", "es"):
        for key, text in STRINGS.items():
            monkeypatch.setitem(i18n.catalog()[lang], key, text)


async def test_an_option_that_does_not_apply_is_not_listed_nor_switched(
    harness: Harness,
) -> None:
    h = harness
    ana = h.user("Ana", "en-US")
    host = h.bot.host  # type: ignore[union-attr]
    snap = await host.new_lobby(
        guild_id=h.guild_id,
        channel_id=h.channel_id,
        game_id="timedtoy",
        owner=Player(ana.id, "Ana", "en"),
        lang="en",
    )
    msg = await h.bot.get_channel(h.channel_id).send(**present.lobby_message(snap))  # type: ignore[union-attr]
    await host.store.update_game(snap.id, host.clock.now(), lobby_message_id=msg.id)
    lobby = h.messages()[-1]
    assert "Sand timer" in lobby.text()
    clock_button = next(
        b.custom_id or "" for b in lobby.buttons if (b.custom_id or "").endswith(":o.clock")
    )
    fast = next(b.custom_id for b in lobby.buttons if (b.custom_id or "").endswith(":o.fast"))
    await h.click(ana, lobby, fast)  # fast: on -> no sand timer
    assert "Sand timer" not in lobby.text()
    assert not any((b.custom_id or "").endswith(":o.clock") for b in lobby.buttons)
    # An old button for it is refused, and changes nothing.
    now = await host.by_id(snap.id)
    stale = clock_button.replace(f":{snap.row.version}:", f":{now.row.version}:")
    first = lobby.buttons[0].custom_id or ""
    text = refusal_text(await forged_click(h, ana, lobby, first, stale))
    assert text
    assert (await host.by_id(snap.id)).row.options.get("clock", "short") == "short"
    fast = next(b.custom_id for b in lobby.buttons if (b.custom_id or "").endswith(":o.fast"))
    await h.click(ana, lobby, fast)  # back off: the sand timer applies again
    assert "Sand timer" in lobby.text()
    assert any((b.custom_id or "").endswith(":o.clock") for b in lobby.buttons)
