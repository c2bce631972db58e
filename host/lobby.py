"""A game's seats: the lobby (joining, bots and their levels, the options) and the start,
leaving a lobby or handing one's seat to a bot, and the end of a game by vote or by force."""

from __future__ import annotations

from core.contract import OptionSpec
from host import pacing
from host.play import Play
from host.records import HostError, Outcome, Player, Snapshot, Step
from host.rows import NewGame
from host.storage import ChannelBusy, SeatRow


class Lobby(Play):
    """The lobby and the seats, and abandoning a game."""

    # -- lobby --------------------------------------------------------------------------

    async def new_lobby(
        self, *, guild_id: int | None, channel_id: int, game_id: str, owner: Player, lang: str
    ) -> Snapshot:
        game = self.game(game_id)
        options = {o.id: o.default for o in game.options}
        try:
            new = NewGame(
                game=game_id,
                options=options,
                seed=self.seeds.randrange(1, 2**31),
                owner_id=owner.user_id,
                guild_id=guild_id,
                channel_id=channel_id,
                lang=lang,
                now=self.clock.now(),
            )
            gid = await self.store.create_game(new)
        except ChannelBusy:
            raise HostError("host.error.channel_busy") from None
        await self.store.set_seats(gid, [self._seat_for(gid, owner)])
        reminders = None
        if guild_id is not None:
            _, reminders = await self.store.guild_settings(guild_id)
        await self.store.update_game(
            gid, self.clock.now(), host_options=pacing.defaults(reminders)
        )
        return await self.by_id(gid)

    @staticmethod
    def _seat_for(gid: int, p: Player) -> SeatRow:
        return SeatRow(gid, 0, p.user_id, False, p.name, p.locale, True)

    async def _lobby(
        self, game_id: int, member: Player | None = None, version: int | None = None
    ) -> Snapshot:
        """The lobby, refused once the game has started; with ``version`` (the lobby
        message's), refused when out of date; with ``member``, refused unless they sit in
        it or manage the channel."""
        snap = await self.by_id(game_id)
        if snap.row.status != "lobby":
            raise HostError("host.error.lobby_closed")
        if version is not None and version != snap.row.version:
            raise HostError("host.error.stale")
        if member is not None and snap.seat_of(member.user_id) is None and not member.can_manage:
            raise HostError("host.error.not_in_lobby")
        return snap

    async def join(self, game_id: int, who: Player) -> Snapshot:
        async with self.locks[game_id]:
            snap = await self._lobby(game_id)
            if snap.seat_of(who.user_id) is not None:
                raise HostError("host.error.already_joined")
            if len(snap.seats) >= snap.game.max_players:
                raise HostError("host.error.lobby_full", max=snap.game.max_players)
            await self.store.set_seats(game_id, [*snap.seats, self._seat_for(game_id, who)])
            await self.store.bump_lobby(game_id, snap.row.version, self.clock.now())
            return await self.by_id(game_id)

    async def add_bot(self, game_id: int, who: Player) -> Snapshot:
        async with self.locks[game_id]:
            snap = await self._lobby(game_id, who)
            if len(snap.seats) >= snap.game.max_players:
                raise HostError("host.error.lobby_full", max=snap.game.max_players)
            n = sum(1 for s in snap.seats if s.is_bot) + 1
            bot = SeatRow(
                game_id,
                len(snap.seats),
                None,
                True,
                f"Bot {n}",
                "en",
                False,
                level=pacing.DEFAULT_BOT_LEVEL,
            )
            await self.store.set_seats(game_id, [*snap.seats, bot])
            await self.store.bump_lobby(game_id, snap.row.version, self.clock.now())
            return await self.by_id(game_id)

    async def cycle_bot_level(
        self, game_id: int, seat: int, who: Player, version: int | None = None
    ) -> Snapshot:
        """Switch a lobby's bot seat to the next level (easy → normal → hard → easy). With
        ``version`` (the lobby message's), a click on an out-of-date lobby is refused."""
        async with self.locks[game_id]:
            snap = await self._lobby(game_id, who, version)
            if not (0 <= seat < len(snap.seats)) or not snap.seats[seat].is_bot:
                raise HostError("host.error.stale")
            levels = pacing.BOT_LEVELS
            level = levels[(levels.index(self.level_of(snap, seat)) + 1) % len(levels)]
            await self.store.update_seat(game_id, seat, level=level)
            await self.store.bump_lobby(game_id, snap.row.version, self.clock.now())
            return await self.by_id(game_id)

    async def leave(self, game_id: int, who: Player, *, bots: bool = True) -> tuple[Snapshot, str]:
        """Leave a lobby (seat removed; the lobby closes if no person is left), or hand
        one's seat in a running game to a bot (which moves at once with ``bots``, else is
        owed its moves: :meth:`play_bots`). Returns the snapshot and what happened."""
        async with self.locks[game_id]:
            snap = await self.by_id(game_id)
            seat = self._player_seat(snap, who)
            now = self.clock.now()
            if snap.row.status == "lobby":
                seats = [s for s in snap.seats if s.seat != seat]
                if not any(not s.is_bot for s in seats):
                    await self.store.finish(game_id, "abandoned", now)
                    return await self.by_id(game_id), "closed"
                await self.store.set_seats(game_id, seats)
                await self.store.bump_lobby(game_id, snap.row.version, now)
                return await self.by_id(game_id), "left"
            if snap.row.status != "active":
                raise HostError("host.error.game_over")
            await self.store.update_seat(game_id, seat, is_bot=True, autopilot=True)
            after = await self.by_id(game_id)
            if bots:
                after = await self._run_bots(after, [])
            # The seat's wait ends; a bot owed a move makes the game due (see _wake).
            await self.sync_waits(after)
            return await self.by_id(game_id), "bot"

    @staticmethod
    def lobby_options(snap: Snapshot) -> list[OptionSpec]:
        """The game's lobby options that apply with the values chosen so far: all of them,
        but those its optional ``unused_options(options)`` hook names (e.g. the hourglass
        of a game variant that has none), which the lobby neither lists nor switches."""
        hook = getattr(snap.game, "unused_options", None)
        unused = set(hook(dict(snap.row.options))) if hook is not None else set()
        return [o for o in snap.game.options if o.id not in unused]

    async def cycle_option(
        self, game_id: int, option_id: str, who: Player, version: int | None = None
    ) -> Snapshot:
        """Switch a lobby option to its next value. With ``version`` (the lobby message's),
        a click on an out-of-date lobby is refused: switching twice is not idempotent."""
        async with self.locks[game_id]:
            snap = await self._lobby(game_id, who, version)
            host_level = option_id.startswith("h.")
            specs = pacing.HOST_OPTIONS if host_level else self.lobby_options(snap)
            key = option_id.removeprefix("h.")
            spec = next((o for o in specs if o.id == key), None)
            if spec is None:
                raise HostError("host.error.not_offered")
            options = dict(snap.row.host_options if host_level else snap.row.options)
            current = options.get(spec.id, spec.default)
            i = spec.choices.index(current) if current in spec.choices else -1
            options[spec.id] = spec.choices[(i + 1) % len(spec.choices)]
            now = self.clock.now()
            field_name = "host_options" if host_level else "options"
            await self.store.bump_lobby(game_id, snap.row.version, now, **{field_name: options})
            return await self.by_id(game_id)

    async def start(self, game_id: int, who: Player, *, bots: bool = True) -> Outcome:
        """Deal the game. With ``bots`` the bot seats to move first move at once; without,
        they are owed their moves (see :meth:`play_bots`)."""
        async with self.locks[game_id]:
            snap = await self._lobby(game_id, who)
            n = len(snap.seats)
            if n < snap.game.min_players:
                raise HostError("host.error.too_few", min=snap.game.min_players, n=n)
            state = snap.game.new(n, snap.row.options, snap.row.seed)
            await self.store.start_game(
                game_id, snap.row.version, snap.row.seed, snap.game.dump(state), self.clock.now()
            )
            after = await self.by_id(game_id)
            steps: list[Step] = []
            if bots:
                after = await self._run_bots(after, steps)
            await self.sync_waits(after)
            return Outcome(before=snap, after=after, steps=steps)

    # -- ending -------------------------------------------------------------------------

    async def abandon(self, game_id: int, who: Player) -> tuple[Snapshot, str, int, int]:
        """Force (Manage Channels, or the owner of a lobby) or vote. Returns the snapshot,
        ``"abandoned"`` or ``"voted"``, votes so far and votes needed."""
        async with self.locks[game_id]:
            snap = await self.by_id(game_id)
            if not snap.row.live:
                raise HostError("host.error.game_over")
            humans = {s.user_id for s in snap.seats if not s.is_bot and s.user_id is not None}
            needed = len(humans) // 2 + 1
            now = self.clock.now()
            lobby_owner = snap.row.status == "lobby" and who.user_id == snap.row.owner_id
            if who.can_manage or lobby_owner:
                await self.store.finish(game_id, "abandoned", now)
                return await self.by_id(game_id), "abandoned", needed, needed
            if who.user_id not in humans:
                raise HostError("host.error.not_a_player")
            votes = await self.store.vote(game_id, "abandon", who.user_id, now) & humans
            if len(votes) >= needed:
                await self.store.finish(game_id, "abandoned", now)
                return await self.by_id(game_id), "abandoned", len(votes), needed
            return snap, "voted", len(votes), needed

    async def set_dm_open(self, game_id: int, seat: int, is_open: bool) -> None:
        await self.store.update_seat(game_id, seat, dm_open=is_open)

    async def remember_locale(self, snap: Snapshot, user_id: int, locale: str) -> None:
        seat = snap.seat_of(user_id)
        if seat is not None and snap.seats[seat].locale != locale:
            await self.store.update_seat(snap.id, seat, locale=locale)
