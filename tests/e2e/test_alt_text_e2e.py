"""Every picture the bot posts is described in words (issue 22.2).

Read over whole games of every registered game: the whole game of each game that
tests/e2e/test_contract_e2e.py plays once for all its checks (``check_described``) has two
people of different languages (the one who opens it sets the channel's language; the other
has closed DMs and plays through "My hand"), and every image attachment ever posted
(deleted tables and edited panels too) is read there:

* it carries a description, within Discord's limit (1024 characters; the harness refuses a
  longer one, as Discord does: checked here);
* in its reader's language: the channel's for the tables, the final board and the recap,
  the player's own for their private pictures (the description is the text the game's
  ``describe_*`` made for that language);
* a channel picture's text is a table's or the recap's, built from a public view, never a
  private picture's; and the shared privacy guard, which reads alt texts too, passes.
"""

from __future__ import annotations

from typing import Any

import pytest

from render import words
from tests.harness.backend import ApiError, validate_message


def test_the_harness_refuses_a_description_longer_than_discord_allows() -> None:
    """As Discord does (50035): an attachment's description is 1024 characters at most."""

    def body(n: int) -> dict[str, Any]:
        return {"content": "x", "attachments": [{"id": 0, "description": "d" * n}]}

    validate_message(body(words.LIMIT), [], creating=True)
    with pytest.raises(ApiError) as refused:
        validate_message(body(words.LIMIT + 1), [], creating=True)
    assert refused.value.body["code"] == 50035
    assert "description" in refused.value.body["errors"]["attachments"]["0"]
