"""Translations: every user-facing string, in English and Spanish.

Strings live in JSON files ``data/i18n/host.json`` and ``data/<game>/strings.json``, each
``{"en": {key: text}, "es": {key: text}}`` with fully qualified keys (``mlem.event.crash``).
Texts use ``str.format`` placeholders. Arguments named ``seat`` or ``*_seat`` are seat
indices; :func:`t` shows them as player names when ``names`` is given. Arguments named
``*_key`` hold an i18n key and are shown as that key's text in the same language (e.g.
``astronaut_key="mlem.ability.booster"`` in "Land your {astronaut_key} astronaut").

Language choice: the interaction's locale, then the guild's, then English (see :func:`pick`).

Numbers and plurals, one mechanism for every string:

* ``{n:#|partida|partidas}`` — the number and the word that agrees with it ("1 partida",
  "3 partidas"); ``{n:|cubo|cubos}`` — the word alone.
* ``{res:@ad_astra.res.}`` — a code the game passes ("W", or several with counts "2W+1X")
  written with the words of the keys ``ad_astra.res.W`` … ("2 water + 1 xanthium").
* A float argument is written for the language: no ``.0`` on whole numbers ("46 puntos"),
  a decimal comma in Spanish ("4,5"), one decimal at most unless a format spec says more.

A name that differs by language (a place on a board: "Phobos" / "Fobos") is passed as a
mapping ``{"en": ..., "es": ...}`` and shown in the reader's language (English if missing).
"""

from __future__ import annotations

import json
import logging
import string
import threading
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

#: How many warnings :func:`t` has logged so far (see :func:`warnings_logged`), counted
#: under a lock: pictures are drawn in threads, and a lost count would let a caller cache a
#: line formatted with a warning.
_warned = 0
_warned_lock = threading.Lock()


def _warn(message: str, *args: Any) -> None:
    global _warned
    with _warned_lock:
        _warned += 1
    log.warning(message, *args)


DATA = Path(__file__).resolve().parent.parent / "data"
LANGS = ("en", "es")
DEFAULT = "en"


@cache
def catalog() -> dict[str, dict[str, str]]:
    """All strings of every language, loaded once."""
    merged: dict[str, dict[str, str]] = {lang: {} for lang in LANGS}
    files = [DATA / "i18n" / "host.json", *sorted(DATA.glob("*/strings.json"))]
    for path in files:
        if not path.exists():
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        for lang in LANGS:
            merged[lang].update(data.get(lang, {}))
    return merged


def pick(*locales: str | None) -> str:
    """First supported language among ``locales`` (e.g. ``"es-ES"``, ``"en-US"``)."""
    for loc in locales:
        if not loc:
            continue
        base = str(loc).split("-")[0].lower()
        if base in LANGS:
            return base
    return DEFAULT


def warnings_logged() -> int:
    """How many warnings (a missing string, bad arguments) :func:`t` has logged so far: a
    caller that keeps what it formatted keeps only what was formatted without one."""
    return _warned


def text_of(key: str, lang: str = DEFAULT) -> str | None:
    """The unformatted text of ``key`` in ``lang`` (English if missing), None if none."""
    cat = catalog()
    text = cat.get(lang, {}).get(key)
    return cat[DEFAULT].get(key) if text is None else text


def has(key: str, lang: str = DEFAULT) -> bool:
    return key in catalog().get(lang, {}) or key in catalog()[DEFAULT]


def seat_args(args: Mapping[str, Any], names: Sequence[str] | None) -> dict[str, Any]:
    out = dict(args)
    if names is None:
        return out
    for k, v in args.items():
        if (k == "seat" or k.endswith("_seat")) and isinstance(v, int) and 0 <= v < len(names):
            out[k] = names[v]
    return out


def plural_form(n: float, lang: str) -> int:
    """0 for the singular, 1 for the plural. English and Spanish agree: only 1 is singular."""
    return 0 if abs(n) == 1 else 1


def number(value: float, lang: str = DEFAULT, decimals: int = 1) -> str:
    """A number as a reader of ``lang`` writes it: ``46``, ``4.5`` / ``4,5``."""
    if isinstance(value, int):  # bools too
        return str(value)
    text = f"{value:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    return text.replace(".", ",") if lang == "es" else text


class _Formatter(string.Formatter):
    def __init__(self, lang: str) -> None:
        self.lang = lang

    def names(self, value: Any, prefix: str) -> str:
        """``{res:@game.res.}``: a code (or codes joined by ``+``, each with an optional
        count, "2W+1X") written as the words of the keys ``prefix + code``."""
        parts = []
        for part in str(value).split("+"):
            count = part[: len(part) - len(part.lstrip("0123456789"))]
            code = part[len(count) :]
            key = prefix + code
            word = t(key, self.lang) if code and has(key, self.lang) else code
            parts.append(f"{count} {word}" if count else word)
        return " + ".join(p for p in parts if p)

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("@"):
            return self.names(value, format_spec[1:])
        if "|" in format_spec:
            head, *forms = format_spec.split("|")
            count = value if isinstance(value, int | float) else 0
            word = forms[min(plural_form(count, self.lang), len(forms) - 1)] if forms else ""
            if head == "#":
                return f"{number(count, self.lang)} {word}"
            return word
        if isinstance(value, float) and not format_spec:
            return number(value, self.lang)
        return super().format_field(value, format_spec)


_FORMATTERS = {lang: _Formatter(lang) for lang in LANGS}

#: A template's pieces as ``string.Formatter.parse`` gives them: (literal text, field name,
#: format spec, conversion) tuples.
Pieces = tuple[tuple[str, str | None, str | None, str | None], ...]


@lru_cache(maxsize=8192)
def _pieces(text: str) -> Pieces | None:
    """``text`` parsed once: its pieces when every field is a plain name (``{seat}``,
    ``{n:#|cube|cubes}``) with a spec holding no field of its own; None for any other
    template (an index, an attribute, a nested field, a malformed one), which
    ``string.Formatter`` reads every time as before."""
    try:
        pieces = tuple(_FORMATTERS[DEFAULT].parse(text))
    except ValueError:
        return None
    for _, name, spec, _ in pieces:
        if name is not None and (not name.isidentifier() or "{" in (spec or "")):
            return None
    return pieces


def _format(formatter: _Formatter, text: str, args: Mapping[str, Any]) -> str:
    """``formatter.vformat(text, (), args)``, the same string and the same errors, with the
    template parsed once (:func:`_pieces`) instead of on every call."""
    pieces = _pieces(text)
    if pieces is None:
        return formatter.vformat(text, (), args)
    out = []
    for literal, name, spec, conversion in pieces:
        if literal:
            out.append(literal)
        if name is not None:
            value = formatter.convert_field(args[name], conversion)
            out.append(formatter.format_field(value, spec or ""))
    return "".join(out)


def localized(value: Any, lang: str = DEFAULT) -> Any:
    """A ``{"en": ..., "es": ...}`` argument in ``lang``; any other value as it is."""
    if isinstance(value, Mapping) and DEFAULT in value:
        return value.get(lang, value[DEFAULT])
    return value


def fmt(text: str, lang: str = DEFAULT, **args: Any) -> str:
    """``text`` formatted with ``args`` for ``lang`` (plurals and numbers as above)."""
    args = {k: localized(v, lang) for k, v in args.items()}
    return _format(_FORMATTERS.get(lang, _FORMATTERS[DEFAULT]), text, args)


#: The suffix of a string's earlier form (see :func:`t`): when a game changed an event's
#: arguments, events already stored keep the old ones, and ``<key>@1`` still reads them.
LEGACY = "@1"


#: Texts :func:`t` wrote, by what they were written from (see :func:`_memo`): most of a
#: click's texts (the table's lines, buttons, headers) are the previous click's again.
#: Emptied when full.
_TEXTS: dict[tuple[Any, ...], str] = {}
TEXTS_KEPT = 20_000
#: Argument types whose value alone (with its type) decides how it is written.
_PLAIN = frozenset({str, int, float, bool, type(None)})


def _memo(text: str, lang: str, names: Sequence[str] | None, args: Mapping[str, Any]) -> Any:
    """What :func:`t`'s text depends on, when that is all: the template, the language, the
    names (not read without arguments: there is no seat to name; plain strings, as typed:
    a str subclass that prints otherwise is not told apart) and each argument with its
    type (``1``, ``1.0`` and ``True`` are written apart), and the text of a ``*_key``
    argument's key; None (not kept) for anything else: a ``{x:@prefix}`` field (it reads
    other keys), an argument of another type (a mapping by language, a list, a str
    subclass, an enum), a key argument whose text has fields or is missing (it warns)."""
    if "@" in text:
        return None
    if not args:  # (a button's label, a heading: most of a table's texts; no seat to name)
        return text, lang
    memo: list[Any] = [text, lang, None if names is None else tuple(names)]
    for k, v in args.items():
        cls = v.__class__
        if cls not in _PLAIN or (cls is float and not v):  # (0.0 and -0.0 are equal)
            return None
        memo += (k, cls, v)
        if cls is str and k.endswith("_key"):
            sub = text_of(v, lang)
            if sub is None or "{" in sub or "}" in sub:
                return None
            memo.append((sub,))  # (a tuple: never taken for a name, a type or a value)
    return tuple(memo)


def t(key: str, lang: str = DEFAULT, names: Sequence[str] | None = None, **args: Any) -> str:
    """The text for ``key`` in ``lang`` (English if missing), formatted with ``args``."""
    cat = catalog()
    text = cat.get(lang, {}).get(key)
    if text is None:
        text = cat[DEFAULT].get(key)
    if text is None:
        _warn("missing string %s", key)
        return key
    memo = _memo(text, lang, names, args)
    if memo is not None:
        try:
            line = _TEXTS.get(memo)
        except TypeError:  # names that are not strings
            memo = line = None
        if line is not None:
            return line
    try:
        shown = seat_args(args, names)
        for k, v in args.items():  # a key given as an argument: its text, same language
            if k.endswith("_key") and isinstance(v, str) and v != key:
                shown[k] = t(v, lang, names)
        line = fmt(text, lang, **shown)
    except (KeyError, IndexError, ValueError):
        # An event stored by an older version carries the arguments of its day: the
        # string as it read then, kept as ``<key>@1``, reads it.
        legacy = key + LEGACY
        if not key.endswith(LEGACY) and legacy in cat.get(lang, cat[DEFAULT]):
            return t(legacy, lang, names, **args)
        # Argument names only: values can be a player's secrets.
        _warn("bad arguments for string %s: %s", key, sorted(args))
        return text
    if memo is not None:
        if len(_TEXTS) >= TEXTS_KEPT:
            _TEXTS.clear()
        _TEXTS[memo] = line
    return line
