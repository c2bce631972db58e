"""The import layering of every package, checked from the source with ``ast``.

Dependencies point one way (see DESIGN.md): ``cogs -> host -> rules``, ``cogs -> render ->
rules``, and every layer may use ``core/``, which imports nothing of ours.

* ``core/``   imports nothing of ours, and only the standard library (no sqlite3).
* ``rules/``  imports only ``core/``, ``rules/`` and the standard library (so never discord,
  aiosqlite, sqlite3, PIL).
* ``render/`` imports only ``core/``, ``rules/``, ``render/``, PIL and the standard library
  (never host/, cogs/, discord, sqlite3).
* ``host/``   imports ``core/``, ``host/``, the standard library and the database drivers
  (renderers and games are found by name through importlib in host/registry.py, which is
  not an import); never discord, PIL, cogs/, render/, rules/.

Relative imports are resolved against the file's package, and imports inside functions or
``if TYPE_CHECKING:`` blocks count the same as top-level ones.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Our own top-level packages and modules.
OURS = {"core", "rules", "render", "host", "cogs", "bot", "tests", "bench", "data"}

#: layer -> (our packages it may import, third-party packages it may import). The standard
#: library is always allowed, except the modules in BANNED.
RULES: dict[str, tuple[set[str], set[str]]] = {
    "core": (set(), set()),
    "rules": ({"core", "rules"}, set()),
    "render": ({"core", "rules", "render"}, {"PIL"}),
    "host": ({"core", "host"}, {"aiosqlite", "asyncpg", "psycopg"}),
}
#: Standard-library modules a layer must not use anyway (storage belongs to host/).
BANNED: dict[str, set[str]] = {"core": {"sqlite3"}, "rules": {"sqlite3"}, "render": {"sqlite3"}}
STDLIB = set(sys.stdlib_module_names)


def _package_of(path: Path) -> list[str]:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return parts[:-1]  # a module's package; an __init__'s package is its own folder


def imports_in(source: str, package: list[str]) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``source``, a file of ``package``."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                mod = ".".join([*base, *([mod] if mod else [])])
            out.append((node.lineno, mod))
    return out


def imports_of(path: Path) -> list[tuple[int, str]]:
    return imports_in(path.read_text(encoding="utf-8"), _package_of(path))


def _files(layer: str) -> list[Path]:
    return sorted((ROOT / layer).rglob("*.py"))


def _violations(layer: str) -> list[str]:
    ours, third_party = RULES[layer]
    bad = []
    for path in _files(layer):
        for line, mod in imports_of(path):
            root = mod.split(".")[0]
            if root in OURS:
                ok = root in ours
            elif root in STDLIB or root == "__future__":
                ok = root not in BANNED.get(layer, set())
            else:
                ok = root in third_party
            if not ok:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {mod}")
    return bad


@pytest.mark.parametrize("layer", sorted(RULES))
def test_layer_imports_only_what_it_may(layer: str) -> None:
    assert _files(layer), f"no files under {layer}/"
    assert _violations(layer) == []


def test_the_checker_sees_relative_and_nested_imports() -> None:
    src = (
        "from .board import X\n"
        "from .. import kit\n"
        "from . import engine\n"
        "def f():\n"
        "    import discord\n"
        "if False:\n"
        "    from PIL import Image\n"
    )
    mods = [m for _, m in imports_in(src, ["rules", "mlem"])]
    assert mods == ["rules.mlem.board", "rules", "rules.mlem", "discord", "PIL"]


def test_a_game_lives_in_its_own_places() -> None:
    """Outside rules/<g>/, render/<g>.py, data/<g>/ and tests/, a game's id appears in code
    only in the registry line (host/registry.py)."""
    from host.registry import GAME_MODULES

    for gid in GAME_MODULES:
        for layer in ("core", "host", "cogs"):
            for path in sorted((ROOT / layer).rglob("*.py")):
                if path == ROOT / "host" / "registry.py":
                    continue
                for _, mod in imports_of(path):
                    assert gid not in mod.split("."), f"{path.relative_to(ROOT)} imports {mod}"


def test_each_catalogue_holds_only_its_own_strings() -> None:
    """``data/<g>/strings.json`` holds ``<g>.*`` keys only (the picture's as ``<g>.render.*``),
    in both languages; ``data/render/strings.json`` only the few strings every renderer
    shares."""
    import json

    for path in sorted((ROOT / "data").glob("*/strings.json")):
        owner = path.parent.name
        data = json.loads(path.read_text(encoding="utf-8"))
        assert set(data) == {"en", "es"}, path
        assert set(data["en"]) == set(data["es"]), path
        foreign = [k for k in data["en"] if k.split(".")[0] != owner]
        assert foreign == [], f"{path.relative_to(ROOT)}: {foreign[:5]}"
    shared = json.loads((ROOT / "data" / "render" / "strings.json").read_text(encoding="utf-8"))
    assert all(k.startswith(("render.color.", "render.seat")) for k in shared["en"])


def test_the_checker_would_catch_a_violation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(RULES, "render", ({"core", "render"}, set()))
    bad = _violations("render")
    assert any("imports PIL" in b for b in bad)
    assert any("imports rules." in b for b in bad)
