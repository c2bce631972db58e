"""The offline Discord's own shortcuts keep what it records: multipart bodies split by the
writer's declared sizes as by searching the boundary, stored payloads shared (never copied,
never changed in place) between the message, its versions and the answers."""

from __future__ import annotations

import asyncio
import io
import json
import random
from typing import Any

import aiohttp

from tests.harness.backend import (
    FakeDiscord,
    _iso,
    _parse_multipart,
    _split_multipart,
    decode_body,
)
from tests.harness.models import Request, UploadedFile, data_copy, snowflake_time
from tests.harness.session import FakeResponse


async def _form(rng: random.Random, files: int) -> tuple[str, bytes, list[int | None]]:
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps({"content": "x" * rng.randrange(300)}))
    for i in range(files):
        size = rng.choice([0, 1, 2, 4, rng.randrange(200_000)])
        # CRLFs and boundary-like bytes inside the data
        data = bytes(rng.choice(b"\r\n-ab") for _ in range(size))
        form.add_field(
            f"files[{i}]", io.BytesIO(data), filename=f"t{i}.png", content_type="image/png"
        )
    writer: Any = form()
    body = await writer.as_bytes()
    return writer.content_type, body, [part.size for part, _enc, _te in writer]


def test_multipart_split_by_sizes_as_by_search() -> None:
    rng = random.Random(23)

    async def run() -> None:
        for n in range(60):
            content_type, body, sizes = await _form(rng, 1 + n % 3)
            searched = _split_multipart(content_type, body)
            assert searched is not None and len(searched) == len(sizes)
            assert _split_multipart(content_type, body, sizes) == searched
            # sizes that do not fit the body: the boundary is searched for
            wrong: list[int | None] = [(s or 0) + 1 for s in sizes]
            assert _split_multipart(content_type, body, wrong) == searched
            assert _split_multipart(content_type, body, [0]) == searched
            assert [len(data) for _h, data in searched] == sizes

    asyncio.run(run())


def test_multipart_decoded_as_the_email_parser_reads_it() -> None:
    rng = random.Random(5)

    async def run() -> None:
        form = aiohttp.FormData(quote_fields=False)
        form.add_field("payload_json", json.dumps({"content": "hola", "attachments": []}))
        picture = bytes(rng.randrange(256) for _ in range(5000))
        form.add_field("files[0]", io.BytesIO(picture), filename="table.png")
        payload, files = await decode_body(form, None)
        # the picture stays a view of the body until read, then is bytes, once
        assert isinstance(files[0].raw, memoryview) and files[0].size == len(picture)
        assert payload == {"content": "hola", "attachments": []}
        assert [(f.field, f.filename, f.content_type, f.data) for f in files] == [
            ("files[0]", "table.png", "image/png", picture)
        ]
        assert type(files[0].data) is bytes and files[0].raw is files[0].data

    asyncio.run(run())
    head = b'--b\r\nContent-Disposition: form-data; name="payload_json"\r\n\r\n{"a": 1}\r\n'
    body = head + b"--b--\r\n"
    assert _parse_multipart("multipart/form-data; boundary=b", body) == ({"a": 1}, [])
    for broken in (b"", b"--b", b"--b--\r\n", b"--b\r\nA: b\r\n\r\n--b--\r\n"):
        assert _split_multipart("multipart/form-data; boundary=b", broken) is None


def test_stored_payloads_never_change_in_place() -> None:
    backend = FakeDiscord()
    cid = next(iter(backend.channels))
    events: list[tuple[str, dict[str, Any]]] = []
    backend.gateway_sink = lambda event, data: events.append((event, data))
    body = {
        "content": "one",
        "embeds": [{"title": "t", "image": {"url": "attachment://a.png"}}],
        "components": [{"type": 1, "components": [{"type": 2, "custom_id": "x", "label": "X"}]}],
    }
    picture = UploadedFile("files[0]", "a.png", b"\x89PNG\r\n\x1a\n" + bytes(16), "image/png")
    stored = backend.create_message(cid, body, [picture])
    assert stored.payload["embeds"][0]["image"]["url"].startswith("https://")
    first = data_copy(stored.payload)
    # the gateway's copy is the bot's own: changing it changes nothing stored
    events[-1][1]["components"][0]["components"][0]["label"] = "changed"
    events[-1][1]["embeds"][0]["title"] = "changed"
    backend.edit_message(stored, {"content": "two", "embeds": [{"title": "u"}]})
    backend.edit_message(stored, {"components": []})
    assert [v["content"] for v, _a in stored.versions] == ["one", "two", "two"]
    assert stored.versions[0][0] == first
    assert stored.versions[-1][0] is stored.payload
    assert stored.payload["components"] == [] and stored.payload["embeds"][0]["title"] == "u"
    assert body["embeds"] == [{"title": "t", "image": {"url": "attachment://a.png"}}]
    # a thread started on the message: a new current payload, the versions as they were
    request = Request("POST", "/", "thread_create", {"name": "talk"}, [], {})
    backend.r_thread_create(request, channel=str(cid), message=str(stored.id))
    assert stored.payload["thread"]["name"] == "talk"
    assert all("thread" not in v for v, _a in stored.versions)


def test_gateway_events_nobody_wants_are_not_built() -> None:
    backend = FakeDiscord()
    cid = next(iter(backend.channels))
    events: list[str] = []
    backend.gateway_sink = lambda event, data: events.append(event)
    asked: list[tuple[str, bool]] = []

    def wants(event: str, in_guild: bool) -> bool:
        asked.append((event, in_guild))
        return not event.startswith("MESSAGE_")

    for filtered in (False, True):
        backend.gateway_wants = wants if filtered else None
        stored = backend.create_message(cid, {"content": "one"})
        backend.edit_message(stored, {"content": "two"})
        backend.delete_message(stored)
        backend.emit("CHANNEL_UPDATE", backend.channel_payload(cid))
    unfiltered = ["MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE", "CHANNEL_UPDATE"]
    assert events == [*unfiltered, "CHANNEL_UPDATE"]
    assert asked == [
        ("MESSAGE_CREATE", True),
        ("MESSAGE_UPDATE", True),
        ("MESSAGE_DELETE", True),
        ("CHANNEL_UPDATE", True),
    ]


def test_iso_timestamps_as_datetime_writes_them() -> None:
    rng = random.Random(7)
    epoch = 1420070400000
    moments = [0, 1, 999, 1000, 1001, 59_999, 60_000, 86_399_999, 1_700_000_000_000 - epoch]
    moments += [rng.randrange(2_000_000_000_000) for _ in range(2000)]
    for ms in moments:
        snowflake = (ms << 22) | rng.randrange(1 << 22)
        assert _iso(snowflake) == snowflake_time(snowflake).isoformat()


def test_json_answers_read_as_text_bytes_or_json() -> None:
    answer = {"content": "¿Quién mueve? 🚀", "n": [1, 2]}

    async def run() -> None:
        response = FakeResponse("GET", "https://discord.com/api/v10/x", 200, answer, {})
        text = await response.text(encoding="utf-8")
        assert json.loads(text) == answer and text.isascii()
        assert response.headers["content-type"] == "application/json"
        assert response.headers["Content-Length"] == str(len(await response.read()))
        assert await response.read() == text.encode() and await response.json() == answer
        picture = FakeResponse("GET", "https://cdn.discordapp.com/p.png", 200, b"\x89PNG", {})
        assert await picture.read() == b"\x89PNG"
        assert picture.headers["Content-Type"] == "application/octet-stream"
        empty = FakeResponse("DELETE", "https://discord.com/api/v10/x", 204, None, {"X-A": "1"})
        assert await empty.text() == "" and await empty.json() is None
        assert "Content-Type" not in empty.headers and empty.headers["x-a"] == "1"

    asyncio.run(run())
