"""Galaxy Trucker pictures: the marks a picture draws and the legend entries that explain them
(a test reads ``RECORD``: every mark drawn is explained on the same picture)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager


class Marks:
    """What one picture draws (tile kinds, what is aboard, frames, rockets…) and what its
    legend explains: a picture explains every mark it draws (a test checks it)."""

    def __init__(self) -> None:
        self.drawn: set[str] = set()
        self.explained: set[str] = set()


#: Set while a picture is drawn: the marks drawn so far (a test reads it; see ``RECORD``).
_MARKS: Marks = Marks()
#: A test may set this to a list: each picture's :class:`Marks` are appended to it.
RECORD: list[Marks] | None = None


def _mark(*names: str) -> None:
    _MARKS.drawn.update(names)


def _explained(names: Iterable[str]) -> None:
    _MARKS.explained.update(names)


@contextmanager
def _picture() -> Iterator[None]:
    """Count the marks of one picture drawn inside (handed to ``RECORD`` when it is set)."""
    global _MARKS
    _MARKS = Marks()
    yield
    if RECORD is not None:
        RECORD.append(_MARKS)


@contextmanager
def _apart() -> Iterator[set[str]]:
    """Count the marks drawn inside apart, in the set given, not as the picture's."""
    saved = set(_MARKS.drawn)
    _MARKS.drawn.clear()
    out: set[str] = set()
    yield out
    out |= _MARKS.drawn
    _MARKS.drawn.clear()
    _MARKS.drawn.update(saved)


#: Legend entries, in the order drawn: (entry, the marks it explains). The entry's words
#: are ``galaxy_trucker.pic.lg.<entry>``; its icon is drawn by
#: :func:`render.galaxy_trucker.legend._legend_icon`.
LEGEND: tuple[tuple[str, frozenset[str]], ...] = (
    ("rocket", frozenset({"rocket"})),
    ("cabin", frozenset({"cabin", "human"})),
    ("starting_cabin", frozenset({"starting_cabin"})),
    ("alien", frozenset({"alien"})),
    ("life", frozenset({"life_brown", "life_purple"})),
    ("engine", frozenset({"engine", "engine2"})),
    ("cannon", frozenset({"cannon", "cannon2"})),
    ("battery", frozenset({"battery", "charge"})),
    ("shield", frozenset({"shield"})),
    ("hold", frozenset({"hold", "goods"})),
    ("red_hold", frozenset({"red_hold"})),
    ("structural", frozenset({"structural"})),
    ("connector", frozenset({"connector"})),
    ("cell", frozenset({"cell"})),
    ("free", frozenset({"free"})),
    ("bad", frozenset({"bad"})),
    ("last", frozenset({"last"})),
)
