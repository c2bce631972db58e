"""The mark check of the renderers that list their marks (``MARKS``: drawing helper -> the
i18n keys of the words that explain it): each helper is watched while pictures are drawn,
and each mark drawn must have one of its legend strings drawn on the same picture.
tests/render/test_mlem_marks.py and test_kosmonavts_marks.py run it."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from collections.abc import Iterator
from functools import cache
from types import ModuleType
from typing import Any

import pytest
from PIL import ImageDraw

from core.contract import Game
from core.i18n import catalog
from host import registry
from tests.render.kit import SHORT_NAMES, random_states

NAMES = SHORT_NAMES[:5]


def package_modules(module: ModuleType) -> list[ModuleType]:
    """``module`` and, for a renderer split into a package, every module of it."""
    if not hasattr(module, "__path__"):
        return [module]
    found = [module]
    for info in pkgutil.iter_modules(module.__path__, module.__name__ + "."):
        found.append(importlib.import_module(info.name))
    return found


def defined(module: ModuleType, name: str) -> Any:
    """The object ``name`` of ``module`` (or of the package's module that defines it)."""
    for part in package_modules(module):
        if name not in vars(part):
            continue
        obj = vars(part)[name]
        if getattr(obj, "__module__", part.__name__) == part.__name__:
            return obj
    return getattr(module, name)


def patch_everywhere(mp: pytest.MonkeyPatch, module: ModuleType, name: str, value: Any) -> None:
    """Set ``name`` to ``value`` in every module of ``module`` (a renderer split into a
    package) that holds the same object, so the drawing code sees it wherever it lives."""
    real = defined(module, name)
    for part in package_modules(module):
        if name in vars(part) and vars(part)[name] is real:
            mp.setattr(part, name, value)


class Watch:
    """The marks drawn (helper, arguments) and the texts drawn, for one picture."""

    def __init__(self) -> None:
        self.marks: list[tuple[str, dict[str, Any]]] = []
        self.texts: list[str] = []
        self.depth = 0

    def clear(self) -> None:
        self.marks.clear()
        self.texts.clear()


def watch(module: ModuleType, mp: pytest.MonkeyPatch) -> Watch:
    w = Watch()
    for name in module.MARKS:
        real = defined(module, name)
        sig = inspect.signature(real)

        def wrapper(*a: Any, _real: Any = real, _name: str = name, _sig: Any = sig, **kw: Any):
            if w.depth == 0:  # a mark drawn inside another is part of it
                try:
                    args = dict(_sig.bind(*a, **kw).arguments)
                except TypeError:
                    args = {}
                w.marks.append((_name, args))
            w.depth += 1
            try:
                return _real(*a, **kw)
            finally:
                w.depth -= 1

        patch_everywhere(mp, module, name, wrapper)
    real_text = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *a: Any, **kw: Any) -> Any:
        w.texts.append(str(text))
        return real_text(self, xy, text, *a, **kw)

    mp.setattr(ImageDraw.ImageDraw, "text", spy)
    return w


def words(key: str, lang: str) -> str:
    """The longest fixed run of words of ``key``'s text (placeholders left out)."""
    s = catalog()[lang].get(key)
    assert s, f"{key} has no {lang} text"
    return max((c.strip(" :·,()") for c in re.split(r"\{[^}]*\}", s)), key=len)


def unexplained(marks: dict[str, tuple[str, ...]], w: Watch, lang: str) -> list[str]:
    drawn = " ".join(w.texts)  # a label wrapped on two lines reads on as one
    out = []
    for name, args in w.marks:
        keys = []
        for pattern in marks[name]:
            try:
                keys.append(pattern.format(**args))
            except (KeyError, IndexError, TypeError, AttributeError):
                continue
        if not any(words(k, lang) in drawn for k in keys):
            out.append(f"{name}({args.get('ability') or args.get('obj') or ''}) needs {keys}")
    return sorted(set(out))


def cut(text: str, lang: str) -> bool:
    """Text ellipsized to fit (a string that itself ends with "…", like "deciding…", is
    whole)."""
    return text.endswith("…") and text not in _whole(lang, id(catalog()))


@cache
def _whole(lang: str, _catalog: int) -> frozenset[str]:
    """The strings of ``lang`` that end with "…" themselves (worked out once per catalog,
    not once per text drawn: a picture draws about forty texts)."""
    return frozenset(v for v in catalog()[lang].values() if v.endswith("…"))


def states(game: Game, players: int, options: dict[str, str], seed: int) -> Iterator[Any]:
    """Eight states of one seeded random play-out (at most 4,999 moves), the last included."""
    seen = random_states(game, players, seed, options, limit=4999)
    yield from seen[:: max(1, len(seen) // 7)]
    yield seen[-1]


def check_game(module: ModuleType, w: Watch, gid: str, cases: list[tuple[int, dict]]) -> None:
    game, marks = registry.get(gid), module.MARKS
    static: dict[str, Watch] = {}
    for lang in ("en", "es"):  # the layer drawn once per language is on every table
        w.clear()
        module._build_base(lang)
        static[lang] = Watch()
        static[lang].marks, static[lang].texts = list(w.marks), list(w.texts)
    problems: set[str] = set()
    kinds: set[str] = set()
    for players, options in cases:
        for lang in ("en", "es"):
            for state in states(game, players, options, seed=players):
                for seat in [None, *range(players)]:
                    w.clear()
                    view = game.view(state, seat)
                    if seat is None:
                        module.render_table(view, NAMES[:players], lang)
                        w.marks += static[lang].marks
                        w.texts += static[lang].texts
                    elif not module.render_private(view, NAMES[:players], lang):
                        continue
                    kinds.update(name for name, _ in w.marks)
                    problems.update(f"{lang} {p}" for p in unexplained(marks, w, lang))
                    problems.update(f"{lang} cut: {x!r}" for x in w.texts if cut(x, lang))
    assert not problems, sorted(problems)
    assert len(kinds) >= len(marks) - 3, sorted(set(marks) - kinds)  # the play-outs see most


def check_listed(module: ModuleType, parts: set[str]) -> None:
    """Every helper that draws (its first parameter is a drawer) is a mark or a part."""
    checked = 0
    for part in package_modules(module):
        for name, fn in vars(part).items():
            if not inspect.isfunction(fn) or fn.__module__ != part.__name__:
                continue
            params = list(inspect.signature(fn).parameters.values())
            if params and "ImageDraw" in str(params[0].annotation):
                checked += 1
                assert name in module.MARKS or name in parts, f"{name} draws: a mark or a part?"
    assert checked, f"{module.__name__}: no drawing helper found"
