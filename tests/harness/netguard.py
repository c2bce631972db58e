"""Make every real network access fail while the harness is active.

``socket.socket.connect``/``connect_ex``, ``socket.create_connection``, the DNS functions of
:mod:`socket` and the event loop's ``create_connection``/``getaddrinfo``/``sock_connect``/
``create_datagram_endpoint`` are replaced by functions raising :class:`NetworkBlockedError`.
Unix-domain sockets are left alone (they never leave the machine).

The guard is reference counted, so nested activations (two harnesses, a fixture plus a
harness) are fine; the originals come back when the last one is released.
"""

from __future__ import annotations

import asyncio
import asyncio.base_events
import asyncio.selector_events
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["NetworkBlockedError", "activate", "attempts", "blocked", "deactivate", "is_active"]


class NetworkBlockedError(RuntimeError):
    """Raised by every socket or DNS call while the harness guard is active."""


_lock = threading.Lock()
_depth = 0
_saved: list[tuple[Any, str, Any]] = []
_ABSENT = object()
#: Every blocked attempt, as a short description ("connect ('example.com', 80)").
attempts: list[str] = []


def _blocked(what: str, target: Any = None) -> NetworkBlockedError:
    text = f"{what} {target!r}" if target is not None else what
    attempts.append(text)
    return NetworkBlockedError(f"network access is blocked by the test harness: {text}")


def _is_unix(sock: Any) -> bool:
    family = getattr(socket, "AF_UNIX", None)
    return family is not None and getattr(sock, "family", None) == family


def _socket_connect(self: socket.socket, address: Any) -> None:
    if _is_unix(self):
        return _original(socket.socket, "connect")(self, address)
    raise _blocked("socket.connect", address)


def _socket_connect_ex(self: socket.socket, address: Any) -> int:
    if _is_unix(self):
        return _original(socket.socket, "connect_ex")(self, address)
    raise _blocked("socket.connect_ex", address)


def _create_connection(address: Any, *args: Any, **kwargs: Any) -> socket.socket:
    raise _blocked("socket.create_connection", address)


def _getaddrinfo(host: Any, port: Any = None, *args: Any, **kwargs: Any) -> Any:
    raise _blocked("socket.getaddrinfo", (host, port))


def _gethostbyname(host: Any, *args: Any) -> Any:
    raise _blocked("socket.gethostbyname", host)


async def _loop_create_connection(
    self: Any, protocol_factory: Any, host: Any = None, port: Any = None, *a: Any, **kw: Any
) -> Any:
    raise _blocked("loop.create_connection", (host, port))


async def _loop_getaddrinfo(self: Any, host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
    raise _blocked("loop.getaddrinfo", (host, port))


async def _loop_sock_connect(self: Any, sock: Any, address: Any) -> Any:
    if _is_unix(sock):
        return await _original(asyncio.selector_events.BaseSelectorEventLoop, "sock_connect")(
            self, sock, address
        )
    raise _blocked("loop.sock_connect", address)


async def _loop_create_datagram_endpoint(
    self: Any, protocol_factory: Any, local_addr: Any = None, remote_addr: Any = None, **kw: Any
) -> Any:
    raise _blocked("loop.create_datagram_endpoint", remote_addr or local_addr)


def _targets() -> list[tuple[Any, str, Callable[..., Any]]]:
    base = asyncio.base_events.BaseEventLoop
    selector = asyncio.selector_events.BaseSelectorEventLoop
    targets: list[tuple[Any, str, Callable[..., Any]]] = [
        (socket.socket, "connect", _socket_connect),
        (socket.socket, "connect_ex", _socket_connect_ex),
        (socket, "create_connection", _create_connection),
        (socket, "getaddrinfo", _getaddrinfo),
        (socket, "gethostbyname", _gethostbyname),
        (socket, "gethostbyname_ex", _gethostbyname),
        (base, "create_connection", _loop_create_connection),
        (base, "getaddrinfo", _loop_getaddrinfo),
        (base, "create_datagram_endpoint", _loop_create_datagram_endpoint),
        (selector, "sock_connect", _loop_sock_connect),
    ]
    return targets


def _original(owner: Any, name: str) -> Any:
    for saved_owner, saved_name, value in _saved:
        if saved_owner is owner and saved_name == name and value is not _ABSENT:
            return value
    for klass in getattr(owner, "__mro__", ())[1:]:
        if name in klass.__dict__:
            return klass.__dict__[name]
    return getattr(owner, name)


def activate() -> None:
    """Install the guard (reference counted)."""
    global _depth
    with _lock:
        _depth += 1
        if _depth > 1:
            return
        for owner, name, replacement in _targets():
            _saved.append((owner, name, vars(owner).get(name, _ABSENT)))
            setattr(owner, name, replacement)


def deactivate() -> None:
    """Release one activation; the last release restores the originals."""
    global _depth
    with _lock:
        if _depth == 0:
            return
        _depth -= 1
        if _depth:
            return
        while _saved:
            owner, name, value = _saved.pop()
            if value is _ABSENT:
                delattr(owner, name)
            else:
                setattr(owner, name, value)


def is_active() -> bool:
    return _depth > 0


@contextmanager
def blocked() -> Iterator[None]:
    """``with blocked(): ...`` - the guard for the duration of the block."""
    activate()
    try:
        yield
    finally:
        deactivate()
