"""Shared fixtures: a bot factory on a real SQLite file, the offline Discord harness, and
``db``: a fresh database of each backend in turn (an SQLite file, then a PostgreSQL database
on a server the tests start themselves; see tests/host/pgserver.py)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot import Cosmodrome, build_bot
from cogs import present
from core import i18n
from host.clock import FakeClock
from host.sessions import Host
from host.settings import Settings
from render import kit as render_kit
from rules.search import LEVELS, Budget
from tests.harness.fixtures import make_harness, no_network  # noqa: F401
from tests.host.pgserver import PgTestServer

#: The tests deflate pictures at zlib level 1 (production: render.kit.PNG_LEVEL, 3): the same
#: pixels for a slightly cheaper encode, which is most of a picture's time now that the static
#: layers are drawn once. Tests that promise sizes or compare bytes with a render worker (which
#: draws at the production level) use the ``production_png`` fixture.
PRODUCTION_PNG_LEVEL = render_kit.PNG_LEVEL
render_kit.PNG_LEVEL = 1


@pytest.fixture
def production_png(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render_kit, "PNG_LEVEL", PRODUCTION_PNG_LEVEL)


BACKENDS = ("sqlite", "postgresql")

#: The slow tests: thousand-game property tests, whole games played through the harness, the
#: render runs that draw the same pictures cold and warm over and over, and those that draw
#: every picture along whole seeded games to read them (text sizes, marks and their legends,
#: the recap's colours) (module paths under tests/, or single tests by node id, every
#: parameter of it).
#: ``bash scripts/check --quick`` leaves them out (``-m "not slow"``); the full run (CI) runs
#: them, on every core.
SLOW = (
    "rules/test_kosmonavts_property.py",
    "rules/test_mlem_property.py",
    "rules/test_ad_astra_property.py",
    "rules/test_red_planet_property.py",
    "rules/test_engine_digest_aa_rp_gt.py",
    "rules/test_kosmonavts_mlem_digest.py",
    "rules/test_galaxy_trucker_property.py",
    "rules/test_galaxy_trucker_bot.py",
    "rules/test_galaxy_trucker_trek.py",
    "test_contract_property.py",
    "e2e/test_bot_levels.py",
    "e2e/test_red_planet_e2e.py",
    "e2e/test_kosmonavts_e2e.py",
    "e2e/test_ad_astra_e2e.py",
    "e2e/test_mlem_e2e.py",
    "e2e/test_play_over_days.py",
    "e2e/test_galaxy_trucker_e2e.py",
    "e2e/test_galaxy_trucker_trek_e2e.py",
    "e2e/test_pings.py",
    "e2e/test_contract_e2e.py",
    "e2e/test_panel_faults.py",
    "e2e/test_replay_e2e.py",
    "host/test_pg_shards.py",
    "host/test_pg_bot.py",
    "host/test_pg_faults.py::test_slow_discord_never_holds_the_connections_clicks_need",
    "host/test_pg_faults.py::test_backend_killed_after_the_last_move_of_the_game",
    "render/test_layers_b.py::test_warm_run_is_the_cold_run",
    "render/test_layers.py::test_cold_and_warm_pictures_are_identical",
    "render/test_readable.py::test_pictures_read_at_400_px",
    "render/test_kosmonavts_marks.py::test_every_mark_on_a_picture_has_its_legend_there",
    "render/test_mlem_marks.py::test_every_mark_on_a_picture_has_its_legend_there",
    "render/test_recap.py::test_recap_keeps_every_seat_colour_exact",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = Path(__file__).parent
    for item in items:
        where = item.path.relative_to(root).as_posix() if item.path.is_relative_to(root) else ""
        if where in SLOW or item.nodeid.split("tests/", 1)[-1].split("[")[0] in SLOW:
            item.add_marker(pytest.mark.slow)
    # The slow tests first (the order among them and among the others kept): run on every
    # core (pytest-xdist), the run then ends with short tests, not with a core idle while
    # the other plays a whole game.
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


#: The bots' levels in tests: the real levels' shape with tiny budgets (normal: the game's
#: own heuristic, as the bots played before the search), so whole games through the harness
#: stay quick. tests/e2e/test_bot_levels.py sets its own; bench/ and the league use the real
#: ones.
QUICK_BOTS = {
    "easy": LEVELS["easy"],
    "normal": Budget(playouts=0),
    "hard": Budget(playouts=4, depth=3),
}


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every Host a test makes starts with :data:`QUICK_BOTS` as its bot budgets."""
    init = Host.__init__

    def quick_init(self: Host, *args: object, **kwargs: object) -> None:
        init(self, *args, **kwargs)  # type: ignore[arg-type]
        self.bot_budgets = dict(QUICK_BOTS)

    monkeypatch.setattr(Host, "__init__", quick_init)


@pytest.fixture(autouse=True)
def fresh_log_lines() -> None:
    """Each test starts without the event lines earlier tests wrote (``present._LINES``):
    some register toy games or strings of their own."""
    present._LINES.clear()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgTestServer]:
    """One PostgreSQL server for the whole run. No server: the tests that need one fail
    (loudly, with the reason), they are never skipped."""
    server = PgTestServer.start()
    yield server
    server.stop()


def new_pg_database(server: PgTestServer) -> str:
    """A new empty place on ``server``: a schema of its own, named in the URL's search_path
    (much quicker to make than a database); its URL."""
    import asyncpg

    name = server.fresh_db_name()

    async def create() -> None:
        con = await asyncpg.connect(server.url())
        try:
            await con.execute(f'CREATE SCHEMA "{name}"')
        finally:
            await con.close()

    asyncio.run(create())
    return server.url() + f"&search_path={name}"


@pytest.fixture
def pg_url(pg_server: PgTestServer) -> str:
    """A fresh, empty PostgreSQL database's URL (PostgreSQL-only tests)."""
    return new_pg_database(pg_server)


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's store lives: an SQLite file, or a fresh PostgreSQL database's URL
    (open it with ``host.storage.open_store``). Tests that use it run once per backend."""
    if request.param == "sqlite":
        return str(tmp_path / "cosmodrome.db")
    return new_pg_database(request.getfixturevalue("pg_server"))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "cosmodrome.db"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def bot_factory(db_path: Path, clock: FakeClock) -> Callable[[], Cosmodrome]:
    """Each call builds a fresh bot on the same database (a restart builds another).

    Seeds for new games come from a counter, so every run deals the same games."""
    settings = Settings(token="test-token", db_path=str(db_path), tick_seconds=0)
    seeds = random.Random(2024)
    return lambda: build_bot(settings, clock=clock, seeds=seeds)


@pytest_asyncio.fixture
async def harness(make_harness, bot_factory):  # noqa: F811 - wraps the harness's fixture
    """A started harness around ``bot_factory``. At the end of the test: no refusal
    sentence (refusals are always private) ever appeared in a channel, in either language."""
    h = await make_harness(bot_factory)
    yield h
    public = h.all_public_text()
    for lang in ("en", "es"):
        for key, text in i18n.catalog()[lang].items():
            if key.startswith("host.error.") and "{" not in text:
                assert text not in public, f"refusal {key} was shown in a channel"


#: The views of the pictures the ``renders`` fixture saw drawn, in order.
render_views: list[dict[str, Any]] = []


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int | None]]:
    """Every picture drawn: ("table", None) or ("private", seat); their views in
    ``render_views``."""
    drawn: list[tuple[str, int | None]] = []
    render_views.clear()
    table, private = present._render_table, present._render_private

    def counted_table(game_id: str, view: dict[str, Any], *args: Any) -> bytes:
        drawn.append(("table", None))
        render_views.append(view)
        return table(game_id, view, *args)

    def counted_private(game_id: str, view: dict[str, Any], *args: Any) -> bytes | None:
        drawn.append(("private", view["seat"]))
        render_views.append(view)
        return private(game_id, view, *args)

    monkeypatch.setattr(present, "_render_table", counted_table)
    monkeypatch.setattr(present, "_render_private", counted_private)
    return drawn
