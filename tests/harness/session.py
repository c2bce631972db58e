"""A stand-in for the aiohttp ``ClientSession`` that discord.py's HTTPClient and the
interaction webhook adapter share: every request is answered by the :class:`FakeDiscord`
backend, in memory. discord.py's own request code (JSON/multipart encoding, 429 retries,
403 -> Forbidden, ...) runs unchanged on top of it."""

from __future__ import annotations

import functools
import http
import json
from typing import Any

from multidict import CIMultiDict, CIMultiDictProxy
from yarl import URL

from .backend import FakeDiscord
from .models import Request
from .netguard import NetworkBlockedError

__all__ = ["FakeResponse", "FakeSession"]


@functools.cache
def _reason(status: int) -> str:
    try:
        return http.HTTPStatus(status).phrase
    except ValueError:
        return "Unknown"


class FakeResponse:
    """Enough of ``aiohttp.ClientResponse`` for discord.py."""

    def __init__(self, method: str, url: str, status: int, body: Any, headers: dict[str, str]):
        self.method = method
        self._url = url
        self.status = status
        self.reason = _reason(status)
        hdrs: CIMultiDict[str] = CIMultiDict(headers) if headers else CIMultiDict()
        #: A JSON answer as text (ASCII: json.dumps escapes the rest), bytes made if read.
        self._text: str | None = None
        if isinstance(body, bytes):
            self._body: bytes | None = body
            hdrs.setdefault("Content-Type", "application/octet-stream")
        elif body is None:
            self._body = b""
        else:
            self._text = json.dumps(body)
            self._body = None
            hdrs.setdefault("Content-Type", "application/json")
        size = len(self._text) if self._text is not None else len(self._body or b"")
        hdrs.setdefault("Content-Length", str(size))
        self.headers = CIMultiDictProxy(hdrs)
        self.content_type = hdrs.get("Content-Type", "")

    @property
    def url(self) -> URL:
        return URL(self._url)  # (parsed only when read: discord.py does not)

    def _bytes(self) -> bytes:
        if self._body is None:
            self._body = (self._text or "").encode()
        return self._body

    async def read(self) -> bytes:
        return self._bytes()

    async def text(self, encoding: str | None = None, errors: str = "strict") -> str:
        if self._text is not None:  # (ASCII: the same in any encoding discord.py asks)
            return self._text
        return self._bytes().decode(encoding or "utf-8", errors)

    async def json(self, **_: Any) -> Any:
        if self._text is not None:
            return json.loads(self._text)
        return json.loads(self._bytes()) if self._body else None

    def release(self) -> None:
        pass

    def close(self) -> None:
        pass

    def raise_for_status(self) -> None:
        if self.status >= 400:
            raise RuntimeError(f"{self.status} {self.reason}")

    def __repr__(self) -> str:
        return f"<FakeResponse {self.method} {self.url} {self.status}>"


class _RequestContext:
    def __init__(self, session: FakeSession, method: str, url: Any, kwargs: dict[str, Any]):
        self._session = session
        self._method = method
        self._url = str(url)
        self._kwargs = kwargs
        self._response: FakeResponse | None = None

    async def _do(self) -> FakeResponse:
        if self._session.closed:
            raise RuntimeError("Session is closed")
        kw = self._kwargs
        status, body, headers, req = await self._session.backend.http(
            self._method,
            self._url,
            data=kw.get("data"),
            json_body=kw.get("json"),
            params=kw.get("params"),
            headers=kw.get("headers"),
        )
        if self._session.record is not None:
            self._session.record.append(req)
        self._response = FakeResponse(self._method, self._url, status, body, headers)
        return self._response

    def __await__(self) -> Any:
        return self._do().__await__()

    async def __aenter__(self) -> FakeResponse:
        return await self._do()

    async def __aexit__(self, *exc: Any) -> None:
        if self._response is not None:
            self._response.release()


class FakeSession:
    """Replaces ``HTTPClient._HTTPClient__session``; also used by interaction webhooks."""

    def __init__(self, backend: FakeDiscord, record: list[Request] | None = None) -> None:
        self.backend = backend
        self.closed = False
        #: Where this session's requests are also recorded (one bot instance's own list).
        self.record = record

    def request(self, method: str, url: Any, **kwargs: Any) -> _RequestContext:
        return _RequestContext(self, method, url, kwargs)

    def get(self, url: Any, **kwargs: Any) -> _RequestContext:
        return self.request("GET", url, **kwargs)

    def post(self, url: Any, **kwargs: Any) -> _RequestContext:
        return self.request("POST", url, **kwargs)

    def patch(self, url: Any, **kwargs: Any) -> _RequestContext:
        return self.request("PATCH", url, **kwargs)

    def put(self, url: Any, **kwargs: Any) -> _RequestContext:
        return self.request("PUT", url, **kwargs)

    def delete(self, url: Any, **kwargs: Any) -> _RequestContext:
        return self.request("DELETE", url, **kwargs)

    async def ws_connect(self, url: Any, **kwargs: Any) -> Any:
        raise NetworkBlockedError(
            f"the harness has no gateway websocket ({url}); feed events with Harness.feed()"
        )

    async def close(self) -> None:
        self.closed = True

    async def __aenter__(self) -> FakeSession:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()
