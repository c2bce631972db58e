"""No test module imports another test module: what tests share lives in a kit
(tests/kit.py, tests/searchkit.py, tests/symbols.py, tests/toybase.py, tests/render/kit.py,
tests/rules/kit.py, tests/rules/<game>_kit.py, tests/host/kit.py, tests/e2e/kit.py and its
neighbours …), so a test module can change without breaking another."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent

#: Imports between test modules not moved to a kit yet: (importer, imported), paths under
#: tests/. Shrink this; do not grow it.
KNOWN: set[tuple[str, str]] = set()


def _imported_test_modules(source: str, package: str) -> set[str]:
    """The test modules (paths under tests/) that ``source``, a module of ``package``
    ("tests.rules"), imports."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level and node.module:
            names = [f"{package}.{node.module}"]
        for name in names:
            parts = name.split(".")
            if parts[0] == "tests" and parts[-1].startswith("test_"):
                out.add("/".join(parts[1:]) + ".py")
    return out


def test_no_test_module_imports_another() -> None:
    found = set()
    for path in sorted(TESTS.rglob("test_*.py")):
        where = path.relative_to(TESTS).as_posix()
        if where.startswith("harness/"):
            continue
        package = ".".join(path.relative_to(TESTS.parent).parent.parts)
        source = path.read_text(encoding="utf-8")
        imported = _imported_test_modules(source, package)
        found |= {(where, other) for other in imported}
    assert found <= KNOWN, sorted(found - KNOWN)


def test_the_check_sees_an_import_of_a_test_module() -> None:
    source = "from tests.rules.test_mlem_engine import x\nfrom .test_mlem_rulings import y\n"
    assert _imported_test_modules(source, "tests.rules") == {
        "rules/test_mlem_engine.py",
        "rules/test_mlem_rulings.py",
    }
    assert not _imported_test_modules("from tests.rules.mlem_kit import act\n", "tests.rules")
