"""A unix-socket proxy in front of a test PostgreSQL server that can stop forwarding: the
database "freezes" (it neither answers nor refuses, as a paused server or a dead network
link), then "thaws". It runs its own event loop in a thread, so it keeps working whatever
the test's loop waits for.

``proxy = FreezableProxy(server.socket_dir); proxy.start()`` ... ``proxy.url(url)`` turns
a URL of the server into one that goes through the proxy ... ``proxy.freeze()`` /
``proxy.thaw()`` ... ``proxy.stop()``.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import tempfile
import threading
from pathlib import Path

SOCKET = ".s.PGSQL.5432"


class FreezableProxy:
    def __init__(self, server_dir: Path) -> None:
        self.server_dir = server_dir
        self.dir = Path(tempfile.mkdtemp(prefix="pgfz"))  # short: unix socket paths are
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="pg-proxy", daemon=True)
        self._ready = threading.Event()
        self._flowing: asyncio.Event | None = None
        self._server: asyncio.AbstractServer | None = None

    def url(self, server_url: str) -> str:
        return server_url.replace(f"host={self.server_dir}", f"host={self.dir}")

    def start(self) -> None:
        self._thread.start()
        self._ready.wait(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self._flowing = asyncio.Event()
        self._flowing.set()
        self._server = self.loop.run_until_complete(
            asyncio.start_unix_server(self._client, path=str(self.dir / SOCKET))
        )
        self._ready.set()
        self.loop.run_forever()

    def freeze(self) -> None:
        """From now on nothing goes through (new connections are taken, never answered)."""
        assert self._flowing is not None
        self.loop.call_soon_threadsafe(self._flowing.clear)

    def thaw(self) -> None:
        assert self._flowing is not None
        self.loop.call_soon_threadsafe(self._flowing.set)

    def stop(self) -> None:
        async def close() -> None:
            if self._server is not None:
                self._server.close()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        if self._thread.is_alive():
            asyncio.run_coroutine_threadsafe(close(), self.loop).result(10)
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(10)
        shutil.rmtree(self.dir, ignore_errors=True)

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_unix_connection(
                str(self.server_dir / SOCKET)
            )
        except OSError:
            writer.close()
            return
        await asyncio.gather(
            self._pump(reader, up_writer), self._pump(up_reader, writer), return_exceptions=True
        )

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        assert self._flowing is not None
        try:
            while data := await reader.read(65536):
                await self._flowing.wait()
                writer.write(data)
                await writer.drain()
        finally:
            with contextlib.suppress(Exception):
                writer.close()
