"""The trail of moves: the public lines of the moves since the table was last posted, in a
message above the table (edited while it has room and the round lasts, then a new one)."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord

from cogs import present
from cogs.common import CogBase
from core import i18n
from core.i18n import t
from host.sessions import Snapshot

log = logging.getLogger(__name__)

#: The longest trail message (Discord allows 2000 characters).
TRAIL_CHARS = 1900


class TrailMixin(CogBase):
    """Part of :class:`cogs.game.GameCog`."""

    async def close_trail(self, snap: Snapshot) -> None:
        """End the trail message where it is (a notice was posted below it): the next moves
        open a new one."""
        await self.host.store.update_game(
            snap.id,
            self.host.clock.now(),
            trail_message_id=None,
            trail_seq=sum(snap.moves_by_seat.values()),
        )

    async def write_trail(self, snap: Snapshot, public: list[Any]) -> bool:
        """Write the public moves since the trail's start into the trail message: edited
        while it has room and the round lasts, else a new message (with the moves that did
        not fit). Returns whether a message was posted (it is then below the table)."""
        row = snap.row
        lang = row.lang
        view = snap.view(None)
        # a game whose moves may span rounds gives ``trail_round`` (None: no headers)
        key = str(view.get("trail_round", view.get("round")) or "")
        mid, start, tkey = row.trail_message_id, row.trail_seq, row.trail_key
        if mid is None:
            tkey = key
        todo = [a for a in public if a.seq > start]
        posted = False
        made_ids: list[int] = []  # the messages this call posted
        chunk: list[str] = []
        for i, action in enumerate(todo):
            added = present.log_lines(snap, [action], None, lang)
            header = self.trail_header(row.game, tkey, lang)
            if chunk and len(self.trail_text(header, chunk + added)) > TRAIL_CHARS:
                # This message is full: it keeps what it has; the rest opens a new one.
                made = await self.put_trail(row.channel_id, mid, self.trail_text(header, chunk))
                made_ids += [made] if made != mid else []
                posted = posted or made != mid
                mid, start, tkey, chunk = None, todo[i - 1].seq, key, []
            if not chunk and len(self.trail_text(header, added)) > TRAIL_CHARS:
                # One move wrote more than a message holds (a game's final scoring): its
                # lines go out in as many messages as they need; the next move opens a new one.
                header = self.trail_header(row.game, tkey, lang)
                for piece in self.trail_pieces(header, added):
                    made = await self.put_trail(row.channel_id, mid, piece)
                    made_ids += [made] if made != mid else []
                    posted = posted or made != mid
                    mid = None
                mid, start, tkey = None, action.seq, key
                continue
            chunk.extend(added)
        if chunk:
            made = await self.put_trail(
                row.channel_id,
                mid,
                self.trail_text(self.trail_header(row.game, tkey, lang), chunk),
            )
            made_ids += [made] if made != mid else []
            posted = posted or made != mid
            mid = made
        if tkey != key:
            # A new round: this message is done; the round's first move opens the next one.
            mid, start, tkey = None, todo[-1].seq if todo else start, key
        if (mid, start, tkey) != (row.trail_message_id, row.trail_seq, row.trail_key):
            try:
                await self.host.store.update_game(
                    snap.id,
                    self.host.clock.now(),
                    trail_message_id=mid,
                    trail_seq=start,
                    trail_key=tkey,
                )
            except Exception:
                # Not recorded (the database failed): the next publish writes these moves
                # again, so the messages posted here would say them twice. Take them back.
                for made in made_ids:
                    with contextlib.suppress(discord.HTTPException):
                        await self.channel(row.channel_id).get_partial_message(made).delete()  # type: ignore[attr-defined]
                raise
        return posted

    @staticmethod
    def trail_header(game: str, key: str, lang: str) -> str:
        """ "**Voyage 3**": the round in the game's own word (``<game>.round`` when the
        game has one, as on the table), else nothing."""
        if not key:
            return ""
        word = f"{game}.round" if i18n.has(f"{game}.round", lang) else "host.table.round"
        text = t(word, lang, n=int(key) if key.isdigit() else key)
        return f"**{text[:1].upper()}{text[1:]}**"

    @staticmethod
    def trail_text(header: str, lines: list[str]) -> str:
        body = "\n".join(f"• {line}" for line in lines)
        return f"{header}\n{body}" if header else body

    @classmethod
    def trail_pieces(cls, header: str, lines: list[str]) -> list[str]:
        """``lines`` as trail messages of at most :data:`TRAIL_CHARS` characters each."""
        pieces: list[str] = []
        part: list[str] = []
        for line in lines:
            if part and len(cls.trail_text(header, [*part, line])) > TRAIL_CHARS:
                pieces.append(cls.trail_text(header, part))
                part = []
            part.append(line)
        if part:
            pieces.append(cls.trail_text(header, part))
        return pieces

    async def put_trail(self, channel_id: int, message_id: int | None, text: str) -> int:
        """Edit the trail message, or post it (also when it was deleted meanwhile)."""
        none = discord.AllowedMentions.none()
        if message_id is not None:
            try:
                await self.edit(channel_id, message_id, content=text[:2000], allowed_mentions=none)
                return message_id
            except discord.HTTPException:
                log.warning("could not edit the trail message %s", message_id)
        return await self.post(channel_id, content=text[:2000], allowed_mentions=none)
