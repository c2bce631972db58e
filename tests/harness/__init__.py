"""Offline Discord test harness for the Cosmodrome bot.

Builds the real bot, logs it in against an in-memory "Discord" (no socket, no DNS: both are
blocked while the harness runs), feeds raw gateway payloads to discord.py's own parsers,
answers every HTTP request the bot makes with plausible payloads and records it.

    h = Harness(lambda: build_bot(settings), guild_locale="es-ES")
    await h.start()                      # login + setup_hook, READY, GUILD_CREATE, idle
    alice = h.user("Alice", locale="es-ES")
    lobby = await h.slash(alice, "game new", game="mlem")
    reply = await h.click(alice, lobby.message, label="Join")
    assert "secret" not in h.all_public_text()
    await h.restart()                    # new bot, same "Discord" (messages survive)
    await h.stop()

Several bot instances, each with its own shard range, on one offline Discord:
:class:`~tests.harness.shards.ShardedHarness` (tests/host/test_pg_shards.py).

In tests prefer the fixtures of :mod:`tests.harness.fixtures` (``make_harness``,
``harness``, ``no_network``), which always stop the harness.

How it hooks into discord.py: ``HTTPClient.static_login`` is replaced on the bot's
``http`` instance so that ``HTTPClient._HTTPClient__session`` becomes a
:class:`~tests.harness.session.FakeSession` (interactions and followups reach it too, through
``Interaction._session``); ``ConnectionState.guild_ready_timeout`` is set to 0 and the guild
queued for ``on_ready`` is handed over directly; events go through
``bot._connection.parsers[EVENT](payload)``. Everything else is discord.py's own code.
"""

from . import netguard
from .backend import ApiError, FakeDiscord, InteractionRecord
from .core import Harness
from .idle import CapturedError
from .models import (
    Attachment,
    Button,
    FakeUser,
    HarnessError,
    Message,
    Reply,
    Request,
    Select,
    UploadedFile,
)
from .netguard import NetworkBlockedError
from .shards import ShardedHarness

__all__ = [
    "ApiError",
    "Attachment",
    "Button",
    "CapturedError",
    "FakeDiscord",
    "FakeUser",
    "Harness",
    "HarnessError",
    "InteractionRecord",
    "Message",
    "NetworkBlockedError",
    "Reply",
    "Request",
    "Select",
    "ShardedHarness",
    "UploadedFile",
    "netguard",
]
