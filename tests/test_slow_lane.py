"""The quick lane (``bash scripts/check --quick``) leaves out only what tests/conftest.py
names slow: every name there must be a test module that exists, or a renamed file would
silently join the quick lane (or drop out of nothing)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SLOW


def test_every_slow_entry_names_a_test_module() -> None:
    root = Path(__file__).parent
    for entry in SLOW:
        module = entry.split("::", 1)[0]
        assert (root / module).is_file(), entry
