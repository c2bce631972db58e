"""Forged custom_ids whose numbers do not fit a 64-bit integer (a game id of 30 digits):
every route that parses an id refuses them as an unknown game, changes nothing and logs no
internal error (they used to reach SQLite and fail there)."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest

from cogs import ui
from host.sessions import HostError
from tests.e2e.driver import latest_table, move_buttons
from tests.e2e.kit import forged_click, open_game, refusal_text, snapshot
from tests.harness import Harness

HUGE = "9" * 30


def forged(custom_id: str, *, field: int = 1) -> str:
    """``custom_id`` with its ``field``-th ``:``-separated part (1: the game id, 2: the
    version, 4: the seat) replaced by a number no 64-bit integer holds."""
    parts = custom_id.split(":")
    parts[field] = HUGE
    return ":".join(parts)


def internal_errors(caplog: Any) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_every_route_refuses_a_game_id_too_big_for_64_bits(
    harness: Harness, caplog: Any
) -> None:
    h = harness
    caplog.set_level(logging.INFO)
    ana, ben = h.user("Ana", "es-ES"), h.user("Ben", "en-US")  # (the lobby speaks Spanish)
    lobby = await open_game(h, "mlem", ana, [ben])
    table = latest_table(h)
    snap = await snapshot(h)
    mover = ana if move_buttons(table, 0) else ben
    move = move_buttons(table, 0 if mover is ana else 1)[0]
    gid, ver = snap.id, snap.row.version
    hand = next(b.custom_id for b in table.buttons if (b.custom_id or "").endswith(":t:hand"))
    assert hand is not None
    real_ids = {
        "move": move,
        "hand": hand,
        "log": f"cd:{gid}:{ver}:t:log",
        "log page": f"cd:{gid}:{ver}:t:log.2",
        "your move": f"cd:{gid}:{ver}:t:move.0",
        "undo": f"cd:{gid}:{ver}:t:undo",
        "take back": f"cd:{gid}:{ver}:t:back",
        "grid": re.sub(r":m:(\d+):([0-9a-f]{8}):.*$", r":g:\1:\2:0.0", move),
        "deadline": re.sub(r":m:(\d+):([0-9a-f]{8}):.*$", r":d:\1:\2:bot", move),
        "gap": f"cd:{gid}:{ver}:x:3",
        "lobby join": f"cd:{gid}:{ver}:l:join",
        "lobby option": f"cd:{gid}:{ver}:l:o.h.pings",
        "lobby bot level": f"cd:{gid}:{ver}:l:b.1",
    }
    for what, real in real_ids.items():
        fake = forged(real)
        reply = await forged_click(h, mover, table, move, fake)
        if what == "gap":  # a gap never answers anything
            continue
        text = refusal_text(reply)
        assert "no game" in text.lower() or "ninguna partida" in text.lower(), (what, text)
    # A real game id with a seat too big: refused, nothing changed.
    reply = await forged_click(h, mover, table, move, forged(move, field=4))
    assert refusal_text(reply)
    assert (await snapshot(h)).row.version == ver
    assert lobby.id  # (the lobby is still there; nothing was changed)
    assert internal_errors(caplog) == []


async def test_the_host_and_the_parser_bound_ids() -> None:
    assert ui.num(HUGE) == ui.BIGGEST and ui.num("12") == 12
    assert ui.MoveButton.__discord_ui_compiled_template__.fullmatch(  # type: ignore[attr-defined]
        ui.move_id(ui.BIGGEST, ui.BIGGEST, ui.BIGGEST, "deadbeef", "x")
    )


async def test_by_id_with_an_id_no_database_integer_holds(harness: Harness) -> None:
    host = harness.bot.host  # type: ignore[union-attr]
    for bad in (2**63, 10**30, -(2**63) - 1):
        with pytest.raises(HostError) as err:
            await host.by_id(bad)
        assert err.value.code == "host.error.no_game"
