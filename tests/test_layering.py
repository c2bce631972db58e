"""The import layering of every package, checked from the source with ``ast``.

Dependencies point one way (see DESIGN.md): ``cogs -> host -> rules``, ``cogs -> render ->
rules``, and every layer may use ``core/``, which imports nothing of ours.

* ``core/``   imports nothing of ours, and only the standard library (no sqlite3).
* ``rules/``  imports only ``core/``, ``rules/`` and the standard library (so never discord,
  aiosqlite, sqlite3, PIL).
* ``render/`` imports only ``core/``, ``rules/``, ``render/``, PIL and the standard library
  (never host/, cogs/, discord, sqlite3).
* ``host/``   imports ``core/``, ``host/``, the standard library, the database drivers and
  openskill (host/ratings.py)
  (renderers and games are found by name through importlib in host/registry.py, which is
  not an import); never discord, PIL, cogs/, render/, rules/.
* ``cogs/``   imports ``core/``, ``host/``, ``render/``, ``cogs/``, discord and the standard
  library; never ``rules/`` (a game is reached through host/registry.py), PIL or a database
  driver. ``bot`` only inside ``if TYPE_CHECKING:`` (the ``Cosmodrome`` type of ``self.bot``).
* ``bot.py``  imports ``core/``, ``host/``, ``cogs/``, discord, aiohttp, asyncpg, uvloop
  (its event loop) and the standard library (the cogs are loaded by name with
  ``load_extension``); never ``rules/``, ``render/`` or PIL.

No import circle exists among the project's modules (core, rules, render, host, cogs,
bot.py): module-level, function-level and ``if TYPE_CHECKING:`` imports all count, and
``from package import name`` is an edge to ``package.name`` when that is a module, else to
``package`` (a parent package's ``__init__`` is not counted as imported by its children).

Relative imports are resolved against the file's package, and imports inside functions or
``if TYPE_CHECKING:`` blocks count the same as top-level ones.
"""

from __future__ import annotations

import ast
import sys
from functools import cache
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
    "host": ({"core", "host"}, {"aiosqlite", "asyncpg", "psycopg", "openskill"}),
    "cogs": ({"core", "host", "render", "cogs"}, {"discord"}),
    "bot": ({"core", "host", "cogs"}, {"discord", "aiohttp", "asyncpg", "uvloop"}),
}
#: layer -> our packages it may import only inside ``if TYPE_CHECKING:``, for types.
TYPES_ONLY: dict[str, set[str]] = {"cogs": {"bot"}}
#: Standard-library modules a layer must not use anyway (storage belongs to host/).
BANNED: dict[str, set[str]] = {"core": {"sqlite3"}, "rules": {"sqlite3"}, "render": {"sqlite3"}}
STDLIB = set(sys.stdlib_module_names)


def _package_of(path: Path) -> list[str]:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return parts[:-1]  # a module's package; an __init__'s package is its own folder


@cache
def _tree(source: str) -> ast.Module:
    """``ast.parse(source)``, once per source text: several tests read every project file
    (the trees are only walked, never changed)."""
    return ast.parse(source)


def imports_in(source: str, package: list[str]) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``source``, a file of ``package``."""
    return list(_imports_in(source, tuple(package)))


@cache
def _imports_in(source: str, package: tuple[str, ...]) -> tuple[tuple[int, str], ...]:
    out: list[tuple[int, str]] = []
    for node in ast.walk(_tree(source)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                mod = ".".join([*base, *([mod] if mod else [])])
            out.append((node.lineno, mod))
    return tuple(out)


def imports_of(path: Path) -> list[tuple[int, str]]:
    return imports_in(path.read_text(encoding="utf-8"), _package_of(path))


def typing_lines(source: str) -> set[int]:
    """The lines of the imports inside ``if TYPE_CHECKING:`` blocks of ``source``."""
    lines: set[int] = set()
    for node in ast.walk(_tree(source)):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for stmt in node.body:
                lines |= {
                    n.lineno for n in ast.walk(stmt) if isinstance(n, ast.Import | ast.ImportFrom)
                }
    return lines


def _files(layer: str) -> list[Path]:
    if (ROOT / f"{layer}.py").is_file():
        return [ROOT / f"{layer}.py"]
    return sorted((ROOT / layer).rglob("*.py"))


def _violations(layer: str) -> list[str]:
    ours, third_party = RULES[layer]
    bad = []
    for path in _files(layer):
        for_types = typing_lines(path.read_text(encoding="utf-8"))
        for line, mod in imports_of(path):
            root = mod.split(".")[0]
            if root in OURS:
                ok = root in ours or (root in TYPES_ONLY.get(layer, set()) and line in for_types)
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
        for layer in ("core", "host", "cogs", "bot"):
            for path in _files(layer):
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
    assert all(
        k.startswith(("render.color.", "render.seat", "render.words.")) for k in shared["en"]
    )


def test_the_checker_would_catch_a_violation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(RULES, "render", ({"core", "render"}, set()))
    bad = _violations("render")
    assert any("imports PIL" in b for b in bad)
    assert any("imports rules." in b for b in bad)


def test_cogs_name_bot_only_for_types(monkeypatch: pytest.MonkeyPatch) -> None:
    """cogs/ name bot.py only inside ``if TYPE_CHECKING:``; without that allowance the
    checker would flag each of those imports."""
    src = (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot import A\nimport bot\n"
    )
    assert typing_lines(src) == {3}
    monkeypatch.setitem(TYPES_ONLY, "cogs", set())
    assert any(b.endswith("imports bot") for b in _violations("cogs"))


#: The packages (and bot.py) whose modules form the import graph checked for circles.
PROJECT = ("core", "rules", "render", "host", "cogs", "bot")

#: Circles that existed when this check was written, each being cut by its own branch of
#: issue 21 (both are cut: storage's, Galaxy Trucker's). A circle found must
#: lie inside one of these; remove an entry once its branch is merged, and never add one.
KNOWN_CIRCLES: tuple[frozenset[str], ...] = ()


def project_modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module of :data:`PROJECT`."""
    out: dict[str, Path] = {}
    for layer in PROJECT:
        for path in _files(layer):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """module -> the project modules it imports, from ``{module: (source, is_package)}``."""
    graph: dict[str, set[str]] = {}
    for name, (source, is_package) in sources.items():
        package = name.split(".") if is_package else name.split(".")[:-1]
        targets: set[str] = set()
        for node in ast.walk(_tree(source)):
            if isinstance(node, ast.Import):
                targets |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                mod = node.module or ""
                if node.level:
                    base = package[: len(package) - (node.level - 1)]
                    mod = ".".join([*base, *([mod] if mod else [])])
                targets |= {
                    f"{mod}.{a.name}" if f"{mod}.{a.name}" in sources else mod for a in node.names
                }
        graph[name] = {m for m in targets if m in sources and m != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle() -> None:
    sources = {
        name: (path.read_text(encoding="utf-8"), path.name == "__init__.py")
        for name, path in project_modules().items()
    }
    graph = import_graph(sources)
    assert {"bot", "cogs.ui", "cogs.game", "host.sessions", "rules.mlem"} <= set(graph)
    assert "cogs.ui" in graph["cogs.present"]  # the edges are read
    new = [sorted(c) for c in circles(graph) if not any(c <= k for k in KNOWN_CIRCLES)]
    assert new == []


def test_the_circle_check_sees_type_checking_and_function_imports() -> None:
    sources = {
        "cogs": ("", True),
        "cogs.ui": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
            "    from cogs.game import GameCog\n",
            False,
        ),
        "cogs.game": ("from cogs import ui\n", False),
        "cogs.a": ("def f():\n    from . import b\n", False),
        "cogs.b": ("import cogs.a\n", False),
        "cogs.c": ("from cogs.a import f\n", False),
    }
    graph = import_graph(sources)
    assert graph["cogs.game"] == {"cogs.ui"} and graph["cogs.c"] == {"cogs.a"}
    assert sorted(sorted(c) for c in circles(graph)) == [
        ["cogs.a", "cogs.b"],
        ["cogs.game", "cogs.ui"],
    ]
