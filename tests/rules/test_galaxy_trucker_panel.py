"""Galaxy Trucker's squeezed placement panel (engine.panel_of): every free cell one tap away
when the cells fit in one message, even when a board row holds more than 5 of them."""

from __future__ import annotations

from core.contract import Decision, Option
from rules.galaxy_trucker import engine


def placing(cells: list[tuple[int, int]], grid: tuple[int, int]) -> Decision:
    opts = [Option(f"place.{r}.{c}", "galaxy_trucker.opt.place", cell=(r, c)) for r, c in cells]
    opts += [Option(x, f"galaxy_trucker.opt.{x}") for x in ("rot", "reserve", "return")]
    return Decision(0, "galaxy_trucker.prompt.place", tuple(opts), grid=grid)


def test_a_board_row_of_six_free_cells_goes_on_in_the_next_row_of_buttons() -> None:
    # seen in a Trek flight: row 8 had 6 free cells, and the panel fell back to paging
    cells = [(6, 5), (6, 6), (6, 7), (6, 8), (6, 9), (7, 3), (7, 10)]
    cells += [(8, 4), (8, 5), (8, 6), (8, 7), (8, 8), (8, 10)]
    d = placing(cells, (3, 8))
    rows = engine.panel_of({}, d)
    assert rows is not None
    shown = [oid for row in rows for oid in row if oid is not None]
    assert sorted(shown) == sorted(o.id for o in d.options)
    assert len(rows) <= engine.PANEL_ROWS
    assert all(len(row) <= engine.PANEL_COLS for row in rows)
    assert rows[-1] == ["rot", "reserve", "return"]


def test_cells_that_cannot_fit_one_message_are_left_to_paging() -> None:
    cells = [(r, c) for r in range(5) for c in range(6)]  # 30 cells, 20 places at most
    assert engine.panel_of({}, placing(cells, (5, 6))) is None
