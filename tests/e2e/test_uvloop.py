"""The bot on uvloop's event loop (``bot.loop_factory``: the loop ``python bot.py`` and
``bench.scale`` run on where uvloop is installed, a dependency on Linux): a whole MLEM game
through the offline Discord, its tables drawn in a render worker process and its bot's
moves searched in a bot worker process, makes the very requests it makes on asyncio's own
loop (the same messages, embeds, buttons and pictures, in the same order).
``COSMODROME_UVLOOP=0`` runs asyncio's loop."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
import uvloop

from bot import UVLOOP_ENV, build_bot, loop_factory, run_loop
from host.clock import FakeClock
from host.settings import Settings
from tests.e2e.driver import is_final, play_to_end
from tests.e2e.kit import numbered_snowflakes, open_game
from tests.harness import Harness


def _game(folder: Path) -> tuple[type[asyncio.AbstractEventLoop], str, list[Any]]:
    """A seeded game of two people and a bot to its end, on :func:`bot.run_loop`'s loop:
    the loop's type, every request the bot made (its snowflakes numbered: each harness makes
    its own) and their files."""
    folder.mkdir()
    settings = Settings(
        token="test-token", db_path=str(folder / "cosmodrome.db"), tick_seconds=0,
        render_workers=1, bot_workers=1,
    )  # fmt: skip
    clock, seeds = FakeClock(), random.Random(2024)

    async def play() -> tuple[type[asyncio.AbstractEventLoop], str, list[Any]]:
        async with Harness(lambda: build_bot(settings, clock=clock, seeds=seeds)) as h:
            ana, ben = h.user("Ana", "es-ES"), h.user("Ben")
            await open_game(h, "mlem", ana, [ben], bots=1)
            assert is_final(await play_to_end(h, {ana: 0, ben: 1}, random.Random(5)))
            said = numbered_snowflakes(
                json.dumps([[r.method, r.path, r.json] for r in h.requests])
            )
            files = [[(f.filename, f.data) for f in r.files] for r in h.requests]
            pictures, searcher = h.bot.render_pool, h.bot.bot_pool  # type: ignore[union-attr]
            assert pictures is not None and searcher is not None
            # Drawn and searched in the workers (no fallback in-process, no worker replaced):
            # the pipes read by loop.add_reader, the fork server, the process pool.
            assert next(pictures._ids) > 20 and searcher.searches > 0
            assert not pictures.broken and not searcher.broken
            assert pictures.replaced == searcher.replaced == 0
            return type(asyncio.get_running_loop()), said, files

    return run_loop(play())


def test_a_game_on_uvloop_makes_the_requests_it_makes_on_asyncio(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(UVLOOP_ENV, raising=False)
    assert loop_factory() is uvloop.new_event_loop
    on_uvloop, said, files = _game(tmp_path / "uvloop")
    assert issubclass(on_uvloop, uvloop.Loop)
    monkeypatch.setenv(UVLOOP_ENV, "0")
    assert loop_factory() is None
    on_asyncio, said_before, files_before = _game(tmp_path / "asyncio")
    assert not issubclass(on_asyncio, uvloop.Loop)
    assert sum(1 for f in files if f) > 20
    assert said == said_before and files == files_before


@pytest.mark.parametrize("value", ["", "1", " 1 ", "yes"])
def test_uvloop_is_the_loop_unless_turned_off(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(UVLOOP_ENV, value)
    assert loop_factory() is uvloop.new_event_loop
    monkeypatch.setenv(UVLOOP_ENV, " 0 ")
    assert loop_factory() is None
