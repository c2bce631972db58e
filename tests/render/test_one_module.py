"""A renderer split into a package reads as one module (render.kit.one_module): a name set
on the package (a test watching a mark, swapping the legend) reaches every module of the
package that holds it, and setting it back restores them all."""

from __future__ import annotations

import sys
from types import ModuleType

import pytest

from render import galaxy_trucker, kosmonavts, mlem


def _holders(package: ModuleType, name: str, value: object) -> list[str]:
    prefix = package.__name__ + "."
    return sorted(
        n for n, m in sys.modules.items() if n.startswith(prefix) and vars(m).get(name) is value
    )


@pytest.mark.parametrize("package", [mlem, kosmonavts])
def test_a_mark_set_on_the_package_reaches_every_module_using_it(
    package: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    marks = package.MARKS
    assert marks
    for name in marks:
        real = getattr(package, name)
        before = _holders(package, name, real)
        assert before, name  # defined in one of the package's modules

        def spy() -> None: ...

        monkeypatch.setattr(package, name, spy)
        assert _holders(package, name, spy) == before
        assert _holders(package, name, real) == []
        monkeypatch.undo()
        assert _holders(package, name, real) == before


def test_a_table_set_on_the_package_reaches_the_code_reading_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    record: list[galaxy_trucker.Marks] = []
    monkeypatch.setattr(galaxy_trucker, "RECORD", record)
    assert sys.modules["render.galaxy_trucker.marks"].RECORD is record
    monkeypatch.undo()
    assert sys.modules["render.galaxy_trucker.marks"].RECORD is None


def test_a_new_name_stays_on_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mlem, "not_a_mark", 1, raising=False)
    assert mlem.not_a_mark == 1  # type: ignore[attr-defined]
    assert not _holders(mlem, "not_a_mark", 1)
