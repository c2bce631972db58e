"""``CogBase.post`` and ``CogBase.edit`` (issue 23: a table and a trail message posted
without the :class:`discord.Message` discord.py builds from each answer) lean on
discord.py's internals (``bot._connection``, ``discord.http.handle_message_parameters``,
the view store): these tests hold them to ``channel.send`` and ``PartialMessage.edit`` of
the installed discord.py, so that an upgrade that changes either fails here, not in a
channel. The same request (body, files, alt texts), the view registered for its message
(its buttons dispatch), the files left as discord.py leaves them, Discord's errors raised
and its rate limits retried as discord.py does."""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest
from PIL import Image

from tests.e2e.kit import cog_of
from tests.harness import Harness
from tests.harness.models import Request


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("P", (8, 8), 3).save(out, "PNG")
    return out.getvalue()


PNG = _png()


def _view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Go", custom_id="review:go"))
    return view


def _embed() -> discord.Embed:
    embed = discord.Embed(title="Table", description="Ana to move")
    return embed.set_image(url="attachment://table.png")


def _file() -> discord.File:
    return discord.File(io.BytesIO(PNG), filename="table.png", description="the table")


def _said(requests: list[Request]) -> list[Any]:
    """The requests as Discord reads them (the nonce, random in each, left out)."""
    out = []
    for r in requests:
        body = dict(r.json or {})
        body.pop("nonce", None)
        out.append((r.method, r.path, body, [(f.filename, f.data) for f in r.files]))
    return out


def _tracked(h: Harness, message_id: int) -> bool:
    return bool(h.bot._connection._view_store.is_message_tracked(message_id))  # type: ignore[union-attr]


async def test_post_and_edit_make_the_requests_discord_py_makes(harness: Harness) -> None:
    h = harness
    cog = cog_of(h)
    channel = h.channel_id
    ana = h.user("Ana", "en-US")
    mentions = discord.AllowedMentions(
        users=[discord.Object(ana.id)], roles=False, everyone=False, replied_user=False
    )
    sent: list[list[Any]] = []
    ids: list[int] = []
    for ours in (True, False):
        start = len(h.requests)
        file, view = _file(), _view()
        kwargs: dict[str, Any] = dict(
            content="<@1> to move", embed=_embed(), file=file, allowed_mentions=mentions
        )
        if ours:
            mid = await cog.post(channel, view=view, **kwargs)
            await cog.post(
                channel, content="trail", allowed_mentions=discord.AllowedMentions.none()
            )
        else:
            mid = (await cog.channel(channel).send(view=view, **kwargs)).id
            await cog.channel(channel).send(
                content="trail", allowed_mentions=discord.AllowedMentions.none()
            )
        closed = [file.fp.closed]
        assert _tracked(h, mid)  # its buttons dispatch to the view
        edited, view = _file(), _view()
        again: dict[str, Any] = dict(
            content=None,
            embed=_embed(),
            view=view,
            attachments=[edited],
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if ours:
            await cog.edit(channel, mid, **again)
            await cog.edit(channel, mid, content="trail, longer", allowed_mentions=None)
        else:
            message = cog.channel(channel).get_partial_message(mid)
            await message.edit(**again)
            await message.edit(content="trail, longer", allowed_mentions=None)
        closed.append(edited.fp.closed)
        assert _tracked(h, mid)
        sent.append([*_said(h.requests[start:]), closed])
        ids.append(mid)
    ours_said, theirs_said = (
        [[(m, p.replace(str(ids[i]), "#"), b, f) for m, p, b, f in said[:-1]], said[-1]]
        for i, said in enumerate(sent)
    )
    assert ours_said == theirs_said
    assert [len(s) for s in sent] == [5, 5]


async def test_discords_answers_as_discord_py_gives_them(harness: Harness) -> None:
    """A rate limit is waited out and retried, a 5xx retried, by discord.py's HTTP client;
    a refusal raised as discord.py raises it."""
    h = harness
    cog = cog_of(h)
    channel = h.channel_id
    route = r"/channels/\d+/messages$"
    h.rate_limit("POST", route)
    h.fail_route("POST", route, status=502)
    start = len(h.requests)
    mid = await cog.post(channel, content="after a wait", file=_file())
    assert [r.status for r in h.requests[start:]] == [429, 502, 200]
    assert h.message(mid).content == "after a wait"
    h.lose_channel(channel, status=50013)
    with pytest.raises(discord.Forbidden):
        await cog.post(channel, content="no")
    with pytest.raises(discord.Forbidden):
        await cog.edit(channel, mid, content="no")
    h.lose_channel(channel, status=404)
    with pytest.raises(discord.NotFound):
        await cog.post(channel, content="no")
    h.restore_channel(channel)
    with pytest.raises(discord.NotFound):
        await cog.edit(channel, mid + 1, content="no such message")
