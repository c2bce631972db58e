"""The replay viewer: ``/game replay [game]`` and the "▶ Replay" button of the end-of-game
package open, privately, the public table of a game at any step, rebuilt from the stored log
(:meth:`host.history.History.replay_steps`), with the step's move in words, ⏮ ◀ ▶ ⏭ and a
menu to jump to a round (or to a stretch of moves, for a game without rounds).

* Only the public table is ever drawn (``view(None)``): a running game's replay shows what
  its channel saw. A finished game's last step also carries its final word (the ranking and
  what the game reveals), as its final table does.
* Every button is a :class:`cogs.ui.ReplayButton` / :class:`cogs.ui.ReplaySelect`: the game
  and the step travel in the custom_id, so a viewer keeps working after a restart. A click
  from another channel than the game's, on another user's viewer, for a game that is gone,
  or for a step the game no longer has (moves taken back since) is answered in one
  sentence, and shows nothing.
* Each user draws at most :data:`RATE` pictures a second (a burst of :data:`BURST`); a
  faster click is told to slow down.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs import present, ui
from cogs.common import CogBase, guarded
from core.i18n import t
from host.history import Replay
from host.sessions import HostError, Snapshot

#: Pictures a user may draw per second, and how many at once after a pause.
RATE = 2.0
BURST = 4.0
#: Users whose pace is remembered at most (the oldest forgotten first).
PACED_USERS = 1000
#: Entries of the jump menu (Discord's most).
MENU = ui.SELECT_MAX
#: The longest caption (an embed's description holds 4096 characters).
CAPTION = 3500


def step_groups(replay: Replay) -> list[tuple[int, int, Any]]:
    """The stretches the jump menu offers, as (first step, last step, round): each round's
    unbroken run of steps (the start joins the first round), or, for a game without rounds,
    even stretches of moves; at most :data:`MENU`, neighbours merged when there are more."""
    rounds = replay.rounds()
    runs: list[tuple[int, int, Any]] = []
    if any(r is not None for r in rounds):
        for i, r in enumerate(rounds):
            if runs and (r == runs[-1][2] or (i == 1 and runs[-1][2] is None)):
                runs[-1] = (runs[-1][0], i, r if r is not None else runs[-1][2])
            else:
                runs.append((i, i, r))
    else:
        size = max(1, -(-(replay.last + 1) // MENU))
        runs = [(i, min(i + size - 1, replay.last), None) for i in range(0, replay.last + 1, size)]
    while len(runs) > MENU:
        size = -(-len(runs) // MENU)
        runs = [
            (runs[i][0], runs[min(i + size, len(runs)) - 1][1], runs[i][2])
            for i in range(0, len(runs), size)
        ]
    return runs


class ReplayMixin(CogBase):
    """Part of :class:`cogs.game.GameCog`."""

    #: user id -> (pictures left, when last counted), the longest unseen first (set in
    #: :meth:`cogs.game.GameCog.__init__`)
    replay_pace: dict[int, tuple[float, float]]

    def paced(self, user_id: int) -> bool:
        """Whether ``user_id`` may draw a picture now (and count it)."""
        pace = self.replay_pace
        now = self.host.clock.now()
        left, then = pace.pop(user_id, (BURST, now))
        left = min(BURST, left + max(0.0, now - then) * RATE)
        ok = left >= 1.0
        pace[user_id] = (left - 1.0 if ok else left, now)
        if len(pace) > PACED_USERS:
            del pace[next(iter(pace))]
        return ok

    async def open_replay(self, interaction: discord.Interaction, number: int | None) -> None:
        """``/game replay``: game ``number`` of this channel, else its latest game."""
        if interaction.channel_id is None:
            raise HostError("host.error.no_game")
        if number is None:
            row = await self.host.store.latest_game(interaction.channel_id)
            if row is None:
                raise HostError("host.error.no_game")
            number = row.id
        await self.show_replay(interaction, number, None, new=True)

    @guarded
    async def on_replay(
        self, interaction: discord.Interaction, gid: int, ver: int, act: str, step: int
    ) -> None:
        """A click of the viewer (``first``/``prev``/``next``/``last``/``jump`` to ``step``)
        or of the package's "▶ Replay" (``open``: a new viewer at the start)."""
        if act == "open":
            await self.show_replay(interaction, gid, 0, new=True)
        else:
            await self.show_replay(interaction, gid, step, new=False)

    async def show_replay(
        self, interaction: discord.Interaction, gid: int, step: int | None, *, new: bool
    ) -> None:
        """Game ``gid`` at ``step`` (None: a finished game's start, a running game's
        latest), in a new private message (``new``) or in the clicked one."""
        lang = self.lang(interaction)
        if not self.paced(interaction.user.id):
            raise HostError("host.replay.slow_down")
        try:
            snap = await self.host.by_id(gid)
        except HostError:
            raise HostError("host.replay.gone") from None
        if snap.row.channel_id != interaction.channel_id:
            raise HostError("host.replay.elsewhere")
        if snap.row.state is None:
            raise HostError("host.replay.not_started")
        meta = getattr(interaction.message, "interaction_metadata", None)
        owner = getattr(getattr(meta, "user", None), "id", None)
        if not new and owner is not None and owner != interaction.user.id:
            raise HostError("host.replay.not_yours")  # (Discord shows it to its owner only)
        if new:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
        snap, replay = await self.host.replay_steps(gid)
        if step is None:
            step = 0 if snap.row.status != "active" else replay.last
        if step > replay.last:
            raise HostError("host.replay.stale")
        embed, view = replay_page(snap, replay, step, lang)
        file = await present.table_file_of(snap, replay.views[step], lang, "replay.png")
        if new:
            await interaction.followup.send(embed=embed, file=file, view=view, ephemeral=True)
        else:
            await interaction.edit_original_response(embed=embed, attachments=[file], view=view)


def caption(snap: Snapshot, replay: Replay, step: int, lang: str) -> str:
    """The move that led to ``step``, in words (its public lines, as the log gives them)."""
    action = replay.actions[step]
    if action is None:
        return t("host.replay.start", lang)
    lines = present.log_lines(snap, [action], None, lang)
    if not lines:
        return t("host.replay.quiet", lang)
    text = "\n".join(f"• {line}" for line in lines)
    return text if len(text) <= CAPTION else text[: CAPTION - 1] + "…"


def replay_page(
    snap: Snapshot, replay: Replay, step: int, lang: str
) -> tuple[discord.Embed, discord.ui.View]:
    """The viewer at ``step``: the caption, where it is in the game, the final word on a
    finished game's last step, and the buttons."""
    game = snap.row.game
    embed = discord.Embed(
        title=t("host.replay.title", lang, game=present.game_name(game, lang), id=snap.id),
        description=caption(snap, replay, step, lang),
        colour=present.COLOUR,
    )
    where = t("host.replay.step", lang, n=step, total=replay.last)
    rnd = replay.views[step].get("round")
    if rnd:
        where += " · " + present.round_text(game, rnd, lang)
    embed.add_field(name=t("host.replay.where", lang), value=where, inline=False)
    result = snap.result()
    if step == replay.last and snap.row.status != "active" and result is not None:
        for name, value in present.final_fields(snap, result, lang):
            if (
                len(embed.fields) >= present.FIELDS_MAX
                or len(embed) + len(name) + len(value) > present.EMBED_ROOM - 200
            ):
                break
            embed.add_field(name=name, value=value, inline=False)
    embed.set_image(url="attachment://replay.png")
    embed.set_footer(text=t("host.replay.footer", lang))
    return embed, replay_view(snap, replay, step, lang)


def replay_view(snap: Snapshot, replay: Replay, step: int, lang: str) -> discord.ui.View:
    gid, ver, last = snap.id, snap.row.version, replay.last
    v = discord.ui.View(timeout=None)
    for act, label, to, off in (
        ("first", "⏮", 0, step == 0),
        ("prev", "◀", max(step - 1, 0), step == 0),
        ("next", "▶", min(step + 1, last), step >= last),
        ("last", "⏭", last, step >= last),
    ):
        v.add_item(ui.ReplayButton(gid, ver, act, to, label=label, disabled=off, row=0))
    groups = step_groups(replay)
    if len(groups) > 1:
        entries = []
        for first, end, rnd in groups:
            span = (
                t("host.replay.span", lang, first=first, last=end)
                if end > first
                else t("host.replay.span_one", lang, n=first)
            )
            label = (
                span if rnd is None else f"{present.round_text(snap.row.game, rnd, lang)} · {span}"
            )
            entries.append(
                discord.SelectOption(
                    label=ui.clip(label[:1].upper() + label[1:], ui.SELECT_LABEL),
                    value=str(first),
                    default=first <= step <= end,
                )
            )
        v.add_item(ui.ReplaySelect(gid, ver, entries, t("host.replay.jump", lang), row=1))
    return v


def open_button(snap: Snapshot, lang: str) -> discord.ui.View:
    """The end-of-game package's "▶ Replay" button."""
    v = discord.ui.View(timeout=None)
    v.add_item(
        ui.ReplayButton(snap.id, snap.row.version, "open", 0, label=t("host.replay.open", lang))
    )
    return v
