"""The README's configuration section names every environment variable the code reads, and
no variable the code no longer reads."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAME = re.compile(r"\b(?:COSMODROME|DISCORD|RENDER)_[A-Z][A-Z_]*[A-Z]\b")
#: Names of that shape that are constants, not settings.
NOT_SETTINGS = {"DISCORD_EPOCH"}


def names_in_code() -> set[str]:
    found: set[str] = set()
    for folder in ("cogs", "core", "host", "render", "rules", "tests", "bench", "scripts"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name != Path(__file__).name:
                found |= set(NAME.findall(path.read_text(encoding="utf-8")))
    found |= set(NAME.findall((ROOT / "bot.py").read_text(encoding="utf-8")))
    return found - NOT_SETTINGS


def configuration_section() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("### Configuration")
    return readme[start : readme.index("\n### ", start + 1)]


def test_every_variable_the_code_reads_is_in_the_configuration_section() -> None:
    missing = names_in_code() - set(NAME.findall(configuration_section()))
    assert not missing, missing


def test_the_configuration_section_names_no_variable_gone_from_the_code() -> None:
    gone = set(NAME.findall(configuration_section())) - names_in_code()
    assert not gone, gone
