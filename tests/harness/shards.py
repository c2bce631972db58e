"""Several bot instances on one offline Discord, each running its own range of shards, as
several bot processes do in production.

    h = ShardedHarness(lambda ids: build_bot(Settings(..., shard_ids=ids, shard_count=2)),
                       shard_count=2, instances={"a": [0], "b": [1]}, guild_shard=1)
    await h.start()
    h.instance("b")              # the Harness of one instance: its bot, its own requests
    await h.click(ana, table)    # routed as Discord does: a guild's interactions go to the
                                 # instance running the guild's shard, DM ones to shard 0's
    await h.kill("b")            # that process dies; h.revive("b") starts a new one there

A ``ShardedHarness`` is a :class:`Harness` over the shared "Discord": everything that reads
the world (messages, DMs, ``requests``) sees every instance's doing, and ``h.bot`` is a
live instance's bot (any one: payloads are built from the same command tree). Each instance
is a :class:`Harness` of its own sharing the backend, with its HTTP calls in
``own_requests``. Gateway events go to the instance that runs the shard they belong to.
All instances share one event loop, so :meth:`idle` waits for all of them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .backend import DM, InteractionRecord
from .core import AnyBot, Harness
from .models import HarnessError, Reply

__all__ = ["ShardedHarness"]

#: Builds one instance's bot for the shard ids it runs.
BotMaker = Callable[[list[int]], Any]

#: Guild ids are snowflakes: (id >> 22) % shard_count is the guild's shard.
_GUILD_BASE = 175928847299117063


class ShardedHarness(Harness):
    def __init__(
        self,
        make_bot: BotMaker,
        *,
        shard_count: int,
        instances: dict[str, Sequence[int]],
        guild_shard: int = 0,
        **kwargs: Any,
    ) -> None:
        taken = sorted(s for ids in instances.values() for s in ids)
        if taken != list(range(shard_count)):
            raise ValueError(f"instances must run each of the {shard_count} shards once")
        base = _GUILD_BASE >> 22
        guild_id = ((base - base % shard_count + guild_shard) << 22) | (_GUILD_BASE & 0x3FFFFF)
        super().__init__(self._no_bot, guild_id=guild_id, **kwargs)
        self.make_bot = make_bot
        self.shard_count = shard_count
        self.ranges = {name: list(ids) for name, ids in instances.items()}
        self.live: dict[str, Harness] = {}
        #: Every instance ever started, in order (a revived one comes again).
        self.history: list[tuple[str, Harness]] = []

    @staticmethod
    def _no_bot() -> AnyBot:
        raise HarnessError("a ShardedHarness starts its instances' bots, not one of its own")

    # -- instances -------------------------------------------------------------------------

    def instance(self, name: str) -> Harness:
        if name not in self.live:
            raise HarnessError(f"instance {name!r} is not running ({sorted(self.live)} are)")
        return self.live[name]

    def owner_of(self, shard: int) -> Harness:
        for name, ids in self.ranges.items():
            if shard in ids and name in self.live:
                return self.live[name]
        raise HarnessError(f"no instance runs shard {shard}: Discord would deliver nothing")

    def owner(self, channel_id: int) -> Harness:
        """The instance that receives the interactions of ``channel_id``: the guild's shard
        for a guild channel, shard 0 for a DM (as Discord does)."""
        if self.backend.channels.get(channel_id, {}).get("type") == DM:
            return self.owner_of(0)
        return self.owner_of(self.guild_shard(self.shard_count))

    async def revive(self, name: str) -> Harness:
        """Start (again) the instance ``name``: a new bot for its shard range."""
        if name in self.live:
            raise HarnessError(f"instance {name!r} is already running")
        ids = self.ranges[name]
        inst = Harness(
            lambda: self.make_bot(ids),
            backend=self.backend,
            errors=self._errors,
            token=self.token,
            strict=self.strict,
            echo_gateway=self.echo_gateway,
            max_idle_rounds=self.max_idle_rounds,
        )
        await inst.start()
        self.live[name] = inst
        self.history.append((name, inst))
        self._front()
        return inst

    async def kill(self, name: str) -> None:
        """The instance's process goes away (its bot closes; its database pool with it)."""
        inst = self.instance(name)
        del self.live[name]
        self._front()
        await inst.stop()

    def _front(self) -> None:
        self.bot = next((h.bot for h in self.live.values()), None)

    # -- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        if self.live:
            raise HarnessError("the harness is already started")
        self._guard(asyncio.get_running_loop())
        self.backend.gateway_sink = self._route_gateway
        self.backend.gateway_wants = self.wants_kind
        try:
            for name in self.ranges:
                await self.revive(name)
        except BaseException:
            await self.stop()
            raise
        self.starts += 1

    async def stop(self) -> None:
        try:
            for name in list(self.live):
                await self.kill(name)
        finally:
            self.bot = None
            self.backend.gateway_sink = None
            self.backend.gateway_wants = None
            await self._cancel_leftovers()
            self._unguard()

    async def restart(self) -> None:
        raise HarnessError("restart one instance: kill(name), then revive(name)")

    # -- routing ---------------------------------------------------------------------------

    def wants_kind(self, event: str, in_guild: bool) -> bool:
        """Whether any live instance would get such an event (each decides for its own)."""
        return any(inst.wants_kind(event, in_guild) for inst in self.live.values())

    def _route_gateway(self, event: str, data: dict[str, Any]) -> None:
        guild_id = data.get("guild_id")
        if guild_id is None and event.startswith(("CHANNEL_", "THREAD_", "GUILD_")):
            guild_id = data.get("id") if event.startswith("GUILD_") else None
        try:
            inst = self.owner_of(
                (int(guild_id) >> 22) % self.shard_count if guild_id is not None else 0
            )
        except HarnessError:
            return  # nobody runs that shard: the event is lost, as it would be
        inst._on_gateway(event, data)

    def feed(self, event: str, data: dict[str, Any], *, fresh: bool = False) -> None:
        """Hand a gateway event to the instance whose shard it belongs to."""
        guild_id = data.get("guild_id")
        shard = (int(guild_id) >> 22) % self.shard_count if guild_id is not None else 0
        self.owner_of(shard).feed(event, data, fresh=fresh)

    async def _run(self, records: list[InteractionRecord]) -> list[Reply]:
        return await self.run_on([(self.owner(rec.channel_id), rec) for rec in records])

    async def run_on(
        self, routed: Iterable[tuple[Harness | str, InteractionRecord]]
    ) -> list[Reply]:
        """Feed each interaction to the given instance (a name or a Harness), all before
        waiting: e.g. one button's clicks split between instances, as when Discord moves a
        shard from one process to another while the clicks are in flight."""
        records = []
        for where, rec in routed:
            inst = self.instance(where) if isinstance(where, str) else where
            inst.feed("INTERACTION_CREATE", rec.payload)
            records.append(rec)
        await self.idle()
        return [Reply(self.backend, rec.id) for rec in records]

    def bot_of(self, name: str) -> AnyBot:
        bot = self.instance(name).bot
        assert bot is not None
        return bot
