"""Buttons and menus: one custom_id scheme, one DynamicItem per verb.

``cd:{game_id}:{version}:{verb}[:{args}]`` — the game id and the version the message was
built at travel in every custom_id, so a click is routed by pattern (it works after a
restart, on any message, in a channel or a DM) and everything else is loaded from storage.

Verbs:
* ``m`` — a move: ``m:{seat}:{token}:{option}``. ``token`` fingerprints the decision the
  button answers (see :meth:`core.contract.Decision.token`): the click is accepted while that
  decision is still open for that seat, and refused as stale once anyone's move changed it.
* ``s`` — a move from a select menu: ``s:{seat}:{token}``; the option id is the value.
* ``l`` — lobby: ``l:{action}`` with join / leave / bot / start / o.{option id}.
* ``t`` — table helpers that need no version: ``t:hand`` (My hand), ``t:log``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from core.contract import Decision
from core.i18n import t

if TYPE_CHECKING:
    from cogs.game import GameCog

PREFIX = "cd"
MAX_BUTTONS = 20  # moves as buttons up to this many options, select menus beyond
SELECT_MAX = 25
MORE = "~more."  # a select value that opens the next page of options (never an option id)

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def move_id(gid: int, ver: int, seat: int, token: str, option: str) -> str:
    return f"{PREFIX}:{gid}:{ver}:m:{seat}:{token}:{option}"


def cog_of(interaction: discord.Interaction) -> GameCog:
    cog = interaction.client.get_cog("GameCog")  # type: ignore[attr-defined]
    if cog is None:
        raise RuntimeError("GameCog is not loaded")
    return cog  # type: ignore[return-value]


def clip(text: str, n: int = 80) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"cd:(?P<gid>\d+):(?P<ver>\d+):m:(?P<seat>\d+):(?P<tok>[0-9a-f]{8}):"
    r"(?P<opt>[A-Za-z0-9_.+-]{1,40})",
):
    def __init__(
        self,
        gid: int,
        ver: int,
        seat: int,
        tok: str,
        opt: str,
        *,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(label),
                style=style,
                disabled=disabled,
                custom_id=move_id(gid, ver, seat, tok, opt),
            ),
            row=row,
        )
        self.gid, self.ver, self.seat, self.tok, self.opt = gid, ver, seat, tok, opt

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> MoveButton:
        return cls(
            int(match["gid"]),
            int(match["ver"]),
            int(match["seat"]),
            match["tok"],
            match["opt"],
            label=item.label or "?",
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await cog_of(interaction).on_move(interaction, self.gid, self.seat, self.tok, self.opt)


class MoveSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"cd:(?P<gid>\d+):(?P<ver>\d+):s:(?P<seat>\d+):(?P<tok>[0-9a-f]{8}):(?P<part>\d+)",
):
    def __init__(
        self,
        gid: int,
        ver: int,
        seat: int,
        tok: str,
        part: int = 0,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"{PREFIX}:{gid}:{ver}:s:{seat}:{tok}:{part}",
                options=list(options) or [discord.SelectOption(label="?", value="?")],
                placeholder=placeholder,
            ),
            row=row,
        )
        self.gid, self.ver, self.seat, self.tok = gid, ver, seat, tok

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> MoveSelect:
        return cls(
            int(match["gid"]),
            int(match["ver"]),
            int(match["seat"]),
            match["tok"],
            int(match["part"]),
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []  # type: ignore[union-attr]
        opt = str(values[0]) if values else ""
        cog = cog_of(interaction)
        page = opt.removeprefix(MORE)
        if opt.startswith(MORE) and page.isdigit():
            await cog.on_more(interaction, self.gid, self.seat, self.tok, int(page))
        else:
            await cog.on_move(interaction, self.gid, self.seat, self.tok, opt)


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"cd:(?P<gid>\d+):(?P<ver>\d+):l:(?P<act>join|leave|bot|start|o\.[A-Za-z0-9_.]+)",
):
    def __init__(
        self,
        gid: int,
        ver: int,
        act: str,
        *,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(label),
                style=style,
                disabled=disabled,
                custom_id=f"{PREFIX}:{gid}:{ver}:l:{act}",
            ),
            row=row,
        )
        self.gid, self.ver, self.act = gid, ver, act

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> LobbyButton:
        return cls(int(match["gid"]), int(match["ver"]), match["act"], label=item.label or "?")

    async def callback(self, interaction: discord.Interaction) -> None:
        await cog_of(interaction).on_lobby(interaction, self.gid, self.act, self.ver)


TABLE_EMOJI = {"hand": "🂠", "log": "📜", "undo": "↩️", "back": "🙋"}


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"cd:(?P<gid>\d+):(?P<ver>\d+):t:(?P<act>hand|log|undo|back)(?:\.(?P<page>\d+))?",
):
    """Helpers on the table: My hand, Log (``log.<page>`` pages it), Undo, Take seat back."""

    def __init__(
        self,
        gid: int,
        ver: int,
        act: str,
        *,
        label: str = "?",
        page: int | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        suffix = "" if page is None else f".{page}"
        super().__init__(
            discord.ui.Button(
                label=clip(label),
                style=discord.ButtonStyle.secondary,
                emoji=TABLE_EMOJI.get(act) if page is None else None,
                disabled=disabled,
                custom_id=f"{PREFIX}:{gid}:{ver}:t:{act}{suffix}",
            ),
            row=row,
        )
        self.gid, self.act, self.page = gid, act, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> TableButton:
        page = int(match["page"]) if match["page"] is not None else None
        return cls(
            int(match["gid"]),
            int(match["ver"]),
            match["act"],
            label=item.label or "?",
            page=page,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = cog_of(interaction)
        if self.act == "hand":
            await cog.on_hand(interaction, self.gid)
        elif self.act == "log":
            await cog.on_log(interaction, self.gid, self.page)
        elif self.act == "undo":
            await cog.on_undo(interaction, self.gid)
        else:
            await cog.on_take_back(interaction, self.gid)


class DeadlineButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"cd:(?P<gid>\d+):(?P<ver>\d+):d:(?P<seat>\d+):(?P<tok>[0-9a-f]{8}):(?P<kind>skip|bot)",
):
    """After a missed deadline: the other players skip the move or let a bot play it."""

    def __init__(
        self, gid: int, ver: int, seat: int, tok: str, kind: str, *, label: str = "?"
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(label),
                style=discord.ButtonStyle.primary
                if kind == "bot"
                else discord.ButtonStyle.secondary,
                emoji="🤖" if kind == "bot" else "⏭️",
                custom_id=f"{PREFIX}:{gid}:{ver}:d:{seat}:{tok}:{kind}",
            )
        )
        self.gid, self.seat, self.tok, self.kind = gid, seat, tok, kind

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> DeadlineButton:
        return cls(
            int(match["gid"]),
            int(match["ver"]),
            int(match["seat"]),
            match["tok"],
            match["kind"],
            label=item.label or "?",
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await cog_of(interaction).on_cover(interaction, self.gid, self.seat, self.tok, self.kind)


DYNAMIC_ITEMS = (MoveButton, MoveSelect, LobbyButton, TableButton, DeadlineButton)


def option_label(game_id: str, opt: Any, lang: str, names: Sequence[str]) -> str:
    return t(opt.label, lang, names, **dict(opt.args))


def add_decisions(
    view: discord.ui.View,
    decisions: Sequence[Decision],
    *,
    gid: int,
    ver: int,
    tokens: Sequence[str],
    lang: str,
    names: Sequence[str],
    game_id: str,
    prefix_names: bool = False,
    first_row: int = 0,
) -> int:
    """Add the buttons (or select menus, when buttons would not fit) for ``decisions``;
    returns the next free row. Rows 0-3 are used; a decision that finds no row left is
    still playable from the player's "My hand" panel, which lists all their decisions."""
    row = first_row
    for decision, tok in zip(decisions, tokens, strict=True):
        if row > 3:
            break
        who = f"{names[decision.seat]}: " if prefix_names else ""
        rows_needed = (len(decision.options) + 4) // 5
        if len(decision.options) <= MAX_BUTTONS and row + rows_needed - 1 <= 3:
            for i, opt in enumerate(decision.options):
                r = row + i // 5
                if r > 3:
                    break
                view.add_item(
                    MoveButton(
                        gid,
                        ver,
                        decision.seat,
                        tok,
                        opt.id,
                        label=who + option_label(game_id, opt, lang, names),
                        style=STYLES.get(opt.style, discord.ButtonStyle.secondary),
                        row=r,
                    )
                )
            row += (len(decision.options) + 4) // 5
        else:
            row = add_selects(
                view,
                decision,
                tok,
                gid=gid,
                ver=ver,
                lang=lang,
                names=names,
                first_row=row,
                last_row=3,
                label_prefix=who,
            )
    return row


def add_selects(
    view: discord.ui.View,
    decision: Decision,
    tok: str,
    *,
    gid: int,
    ver: int,
    lang: str,
    names: Sequence[str],
    first_row: int,
    last_row: int,
    start: int = 0,
    label_prefix: str = "",
) -> int:
    """Options ``start:`` of ``decision`` as select menus, 25 to a menu, one menu a row.
    When they do not all fit, the last entry of the last menu opens the next page
    (answered privately, see GameCog.on_more). Returns the next free row."""
    options = list(decision.options)[start:]
    rows = max(1, last_row - first_row + 1)
    capacity = rows * SELECT_MAX
    more = len(options) > capacity
    shown = options[: capacity - 1] if more else options
    prompt = t(decision.prompt, lang, names, **dict(decision.args))
    row = first_row
    for part, i in enumerate(range(0, max(len(shown), 1), SELECT_MAX)):
        chunk = shown[i : i + SELECT_MAX]
        entries = [
            discord.SelectOption(label=clip(option_label("", o, lang, names), 100), value=o.id)
            for o in chunk
        ]
        last = i + SELECT_MAX >= len(shown)
        if last and more:
            entries.append(
                discord.SelectOption(
                    label=t("host.btn.more", lang, n=len(options) - len(shown)),
                    value=f"{MORE}{start + len(shown)}",
                    emoji="➡️",
                )
            )
        first, final = start + i + 1, start + i + len(chunk)
        placeholder = clip(f"{label_prefix}{prompt} ({first}–{final})", 150)
        view.add_item(
            MoveSelect(
                gid,
                ver,
                decision.seat,
                tok,
                start // SELECT_MAX + part,
                entries,
                placeholder,
                row=row,
            )
        )
        row += 1
    return row
