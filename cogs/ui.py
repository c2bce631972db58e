"""Buttons and menus: one custom_id scheme, one DynamicItem per verb.

``cd:{game_id}:{version}:{verb}[:{args}]`` — the game id and the version the message was
built at travel in every custom_id, so a click is routed by pattern (it works after a
restart, on any message, in a channel or a DM) and everything else is loaded from storage.

Verbs:
* ``m`` — a move: ``m:{seat}:{token}:{option}``. ``token`` fingerprints the decision the
  button answers (see :meth:`core.contract.Decision.token`): the click is accepted while that
  decision is still open for that seat, and refused as stale once anyone's move changed it.
* ``s`` — a move from a select menu: ``s:{seat}:{token}:{part}``; the option id is the value
  (a multi-pick decision's menu takes ``min_picks``..``max_picks`` values, sent joined by
  :data:`core.contract.MULTI_SEP` as one move).
* ``g`` — another block of a large grid: ``g:{seat}:{token}:{row}.{col}`` (the block's top
  left cell); answered privately (see GameCog.on_grid).
* ``x`` — an empty grid cell (a disabled button; never answers).
* ``l`` — lobby: ``l:{action}`` with join / leave / bot / start / o.{option id}.
* ``t`` — table helpers that need no version: ``t:hand`` (My hand), ``t:log``, ``t:undo``,
  ``t:back``, and ``t:move.{seat}``: "Your move" for one seat, when several seats have
  public decisions at once and their buttons would not all fit on the table (up to six
  seats); it opens that seat's choice ephemerally.

Layout of a decision (see :func:`add_decisions`): the game's own rows when it has a
``panel(state, decision)`` hook (a UI-neutral list of rows of option ids, None for a gap,
documented on :class:`core.contract.Game`); else a grid of buttons when the decision has a
``grid`` hint (5 x 5 at most per message, larger grids paged with arrow buttons); else a
select menu for a multi-pick decision or for many options; else a row of buttons.

Layout components (discord.py 2.6+ containers and sections) were considered and not used:
a message with them cannot carry embeds or content, and the table is an embed with the
board picture; classic rows of buttons keep one layout everywhere.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Protocol, Self, TypedDict, TypeVar, Unpack, cast

import discord

from core.contract import MULTI_SEP, Decision, Option
from core.i18n import t

log = logging.getLogger(__name__)

PREFIX = "cd"
MAX_BUTTONS = 20  # moves as buttons up to this many options, select menus beyond
SELECT_MAX = 25
MORE = "~more."  # a select value that opens the next page of options (never an option id)
GRID_COLS = 5  # buttons in a row

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def move_id(gid: int, ver: int, seat: int, token: str, option: str) -> str:
    return f"{PREFIX}:{gid}:{ver}:m:{seat}:{token}:{option}"


def label_of(item: discord.ui.Item[Any] | discord.Component) -> str:
    """The label of the clicked button (a select has none)."""
    return getattr(item, "label", None) or "?"


class Clicks(Protocol):
    """What a click needs of the cog (:class:`cogs.game.GameCog` provides it; found by name
    through ``interaction.client.get_cog``, so this module imports no cog)."""

    async def on_move(
        self, interaction: discord.Interaction, gid: int, seat: int, tok: str, opt: str
    ) -> None: ...
    async def on_more(
        self, interaction: discord.Interaction, gid: int, seat: int, tok: str, start: int
    ) -> None: ...
    async def on_grid(
        self, interaction: discord.Interaction, gid: int, seat: int, tok: str, r: int, c: int
    ) -> None: ...
    async def on_lobby(
        self, interaction: discord.Interaction, gid: int, act: str, ver: int | None = None
    ) -> None: ...
    async def on_cover(
        self, interaction: discord.Interaction, gid: int, seat: int, tok: str, kind: str
    ) -> None: ...
    async def on_hand(self, interaction: discord.Interaction, gid: int) -> None: ...
    async def on_log(
        self, interaction: discord.Interaction, gid: int, page: int | None = None
    ) -> None: ...
    async def on_undo(self, interaction: discord.Interaction, gid: int) -> None: ...
    async def on_take_back(self, interaction: discord.Interaction, gid: int) -> None: ...
    async def on_your_move(
        self, interaction: discord.Interaction, gid: int, seat: int
    ) -> None: ...
    async def on_replay(
        self, interaction: discord.Interaction, gid: int, ver: int, act: str, step: int
    ) -> None: ...


def cog_of(interaction: discord.Interaction) -> Clicks:
    cog = interaction.client.get_cog("GameCog")  # type: ignore[attr-defined]
    if cog is None:
        raise RuntimeError("GameCog is not loaded")
    return cast(Clicks, cog)


#: The largest number a custom_id's field may carry: what a 64-bit database integer holds.
#: A forged custom_id with a bigger number (say a game id of 30 digits) is read as this
#: one, which names no game, seat or version, so it is refused like any unknown id.
BIGGEST = 2**63 - 1


def num(text: str) -> int:
    """A custom_id's number (digits only, from the templates), at most :data:`BIGGEST`."""
    return min(int(text), BIGGEST)


#: Discord's longest button label, and select menu option label.
BUTTON_LABEL = 80
SELECT_LABEL = 100


def clip(text: str, n: int = BUTTON_LABEL) -> str:
    """``text`` cut to ``n`` characters ("…" last) when longer: Discord refuses a longer
    label (tests/test_option_labels.py checks the games' labels never need it)."""
    return text if len(text) <= n else text[: n - 1] + "…"


def primary_if(flag: bool) -> discord.ButtonStyle:
    return discord.ButtonStyle.primary if flag else discord.ButtonStyle.secondary


class Look(TypedDict, total=False):
    """How a button looks and which row it sits on: the keywords a move or lobby button
    takes besides its custom_id's fields."""

    label: str
    style: discord.ButtonStyle
    disabled: bool
    row: int | None


def button(
    custom_id: str,
    *,
    label: str = "?",
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
    row: int | None = None,
    emoji: str | None = None,
) -> discord.ui.Button[Any]:
    """A button of one of the items below (its label clipped to what Discord takes)."""
    return discord.ui.Button(
        label=clip(label),
        style=style,
        disabled=disabled,
        emoji=emoji,
        custom_id=custom_id,
        row=row,
    )


_EMOJI: dict[str, dict[str, Any]] = {}


class ButtonLook(Look, total=False):
    """:class:`Look` and an emoji: what :func:`button_dict` takes besides the custom_id."""

    emoji: str | None


def button_dict(custom_id: str, **look: Unpack[ButtonLook]) -> dict[str, Any]:
    """What :func:`button` with these arguments sends (its ``to_component_dict``, key for
    key), without the objects (issue 23)."""
    style = look.get("style", discord.ButtonStyle.secondary)
    disabled = look.get("disabled", False)
    label = look.get("label", "?")
    emoji = look.get("emoji")
    out: dict[str, Any] = {"type": 2, "style": style.value, "disabled": disabled}
    label = clip(label)
    if label:
        out["label"] = label
    out["custom_id"] = custom_id
    if emoji:
        if emoji not in _EMOJI:
            _EMOJI[emoji] = discord.PartialEmoji.from_str(emoji).to_dict()  # type: ignore[assignment]
        out["emoji"] = dict(_EMOJI[emoji])
    return out


class Panel:
    """A message's components as plain dicts (issue 23: a table's ~20 buttons a move
    without discord.py's item objects): what a ``discord.ui.View(timeout=None)`` holding
    the same items, each at its given row, sends (``to_components``), and refused where
    the view would refuse them (more than 25, a row over full). Handed to
    ``CogBase.post``/``edit`` like a view and never stored: every item on it is one of our
    dynamic items, which discord.py routes by their custom_id alone."""

    def __init__(self) -> None:
        self.children: list[dict[str, Any]] = []
        self._rows: dict[int, list[dict[str, Any]]] = {}
        self._weights: dict[int, int] = {}

    def add(self, row: int | None, component: dict[str, Any], width: int = 1) -> None:
        if row is None:  # the first row with room, as discord.py's view places it
            row = next((r for r in range(5) if self._weights.get(r, 0) + width <= 5), 5)
        if len(self.children) >= 25:
            raise ValueError("maximum number of children exceeded")
        if self._weights.get(row, 0) + width > 5:
            raise ValueError(f"item would not fit at row {row} ({width} > 5 width)")
        self._weights[row] = self._weights.get(row, 0) + width
        self.children.append(component)
        self._rows.setdefault(row, []).append(component)

    def to_components(self) -> list[dict[str, Any]]:
        return [{"type": 1, "components": self._rows[r]} for r in sorted(self._rows)]

    def has_components_v2(self) -> bool:
        return False


#: Where a message's items go: discord.py's view, or a :class:`Panel` of plain dicts.
Items = discord.ui.View | Panel


def put(view: Items, cls: type[CdItem[Any]], *args: Any, **kwargs: Any) -> None:
    """``view.add_item(cls(*args, **kwargs))``; on a :class:`Panel`, the same item's
    component as a plain dict (:meth:`CdItem.component`)."""
    if isinstance(view, Panel):
        view.add(kwargs.get("row"), *cls.component(*args, **kwargs))
    else:
        view.add_item(cls(*args, **kwargs))


#: The template groups that carry numbers (read with :func:`num`); every other group is text.
NUMBERS = frozenset({"gid", "ver", "seat", "part", "page", "r", "c", "n"})

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])


class CdItem(discord.ui.DynamicItem[ItemT], template=r"(?!)"):
    """What the seven items share: a subclass declares its ``template`` (whose groups are
    named like its ``__init__``'s parameters), builds its component in ``__init__`` and says
    in :meth:`click` which handler of the cog a click calls. This base matches nothing and
    is never registered."""

    #: Whether ``__init__`` takes the clicked button's ``label`` (a select, a gap: no).
    labelled: ClassVar[bool] = True

    def __init_subclass__(cls, *, template: str) -> None:
        super().__init_subclass__(template=template)

    @classmethod
    def args(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """The :func:`button` arguments of the item ``cls(*args, **kwargs)``."""
        raise NotImplementedError

    @classmethod
    def component(cls, *args: Any, **kwargs: Any) -> tuple[dict[str, Any], int]:
        """The item ``cls(*args, **kwargs)`` as it is sent, and its width in its row."""
        return button_dict(**cls.args(*args, **kwargs)), 1

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any] | discord.Component,
        match: re.Match[str],
    ) -> Self:
        fields: dict[str, Any] = {
            k: num(v) if v is not None and k in NUMBERS else v
            for k, v in match.groupdict().items()
        }
        if cls.labelled:
            fields["label"] = label_of(item)
        return cls(**fields)

    async def callback(self, interaction: discord.Interaction) -> None:
        await self.click(cog_of(interaction), interaction)

    async def click(self, cog: Clicks, interaction: discord.Interaction) -> None:
        raise NotImplementedError


class MoveButton(
    CdItem[discord.ui.Button],
    template=r"cd:(?P<gid>\d+):(?P<ver>\d+):m:(?P<seat>\d+):(?P<tok>[0-9a-f]{8}):"
    r"(?P<opt>[A-Za-z0-9_.+-]{1,40})",
):
    def __init__(
        self, gid: int, ver: int, seat: int, tok: str, opt: str, **look: Unpack[Look]
    ) -> None:
        super().__init__(button(**self.args(gid, ver, seat, tok, opt, **look)))
        self.gid, self.ver, self.seat, self.tok, self.opt = gid, ver, seat, tok, opt

    @classmethod
    def args(  # type: ignore[override]
        cls, gid: int, ver: int, seat: int, tok: str, opt: str, **look: Unpack[Look]
    ) -> dict[str, Any]:
        return {"custom_id": move_id(gid, ver, seat, tok, opt), **look}

    async def click(self, cog: Clicks, interaction: discord.Interaction) -> None:
        await cog.on_move(interaction, self.gid, self.seat, self.tok, self.opt)


def select(
    custom_id: str,
    options: Sequence[discord.SelectOption],
    placeholder: str | None,
    empty: str,
    min_values: int = 1,
    max_values: int = 1,
) -> discord.ui.Select:
    """A menu of ``options`` (Discord refuses an empty one: a lone "?" of value ``empty``
    stands in while it is being built)."""
    return discord.ui.Select(
        custom_id=custom_id,
        options=list(options) or [discord.SelectOption(label="?", value=empty)],
        placeholder=placeholder,
        min_values=min_values,
        max_values=max_values,
    )


def chosen(interaction: discord.Interaction) -> list[str]:
    """The values a menu's click picked."""
    data: dict[str, Any] = dict(interaction.data or {})
    return [str(v) for v in data.get("values") or []]


class MoveSelect(
    CdItem[discord.ui.Select],
    template=r"cd:(?P<gid>\d+):(?P<ver>\d+):s:(?P<seat>\d+):(?P<tok>[0-9a-f]{8}):(?P<part>\d+)",
):
    labelled = False

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
        min_values: int = 1,
        max_values: int = 1,
    ) -> None:
        custom_id = f"{PREFIX}:{gid}:{ver}:s:{seat}:{tok}:{part}"
        super().__init__(
            select(custom_id, options, placeholder, "?", min_values, max_values), row=row
        )
        self.gid, self.ver, self.seat, self.tok = gid, ver, seat, tok

    @classmethod
    def component(cls, *args: Any, **kwargs: Any) -> tuple[dict[str, Any], int]:
        return cls(*args, **kwargs).to_component_dict(), 5  # (a menu fills its row)

    async def click(self, cog: Clicks, interaction: discord.Interaction) -> None:
        values = chosen(interaction)
        more = [v.removeprefix(MORE) for v in values if v.startswith(MORE)]
        if more and more[0].isdigit():
            await cog.on_more(interaction, self.gid, self.seat, self.tok, num(more[0]))
        else:
            # One value, or several distinct ones for a multi-pick decision: one move.
            await cog.on_move(interaction, self.gid, self.seat, self.tok, MULTI_SEP.join(values))


class LobbyButton(
    CdItem[discord.ui.Button],
    # act: join / leave / bot (add one) / start / b.<seat> (a bot's level) / o.<option>
    template=(
        r"cd:(?P<gid>\d+):(?P<ver>\d+):l:"
        r"(?P<act>join|leave|bot|start|b\.\d+|o\.[A-Za-z0-9_.]+)"
    ),
):
    def __init__(self, gid: int, ver: int, act: str, **look: Unpack[Look]) -> None:
        super().__init__(button(f"{PREFIX}:{gid}:{ver}:l:{act}", **look))
        self.gid, self.ver, self.act = gid, ver, act

    async def click(self, cog: Clicks, interaction: discord.Interaction) -> None:
        await cog.on_lobby(interaction, self.gid, self.act, self.ver)


class TableLook(TypedDict, total=False):
    """A table button's label, page (of the log; the seat of "Your move"), and place."""

    label: str
    page: int | None
    disabled: bool
    row: int | None


TABLE_EMOJI = {"hand": "🂠", "log": "📜", "undo": "↩️", "back": "🙋", "move": "▶️"}


class TableButton(
    CdItem[discord.ui.Button],
    template=r"cd:(?P<gid>\d+):(?P<ver>\d+):t:(?P<act>hand|log|undo|back|move)(?:\.(?P<page>\d+))?",
):
    """Helpers on the table: My hand, Log (``log.<page>`` pages it), Undo, Take seat back,
    and "Your move" for one seat (``move.<seat>``)."""

    def __init__(self, gid: int, ver: int, act: str, **look: Unpack[TableLook]) -> None:
        super().__init__(button(**self.args(gid, ver, act, **look)))
        self.gid, self.act, self.page = gid, act, look.get("page")

    @classmethod
    def args(  # type: ignore[override]
        cls, gid: int, ver: int, act: str, **look: Unpack[TableLook]
    ) -> dict[str, Any]:
        page = look.get("page")
        suffix = "" if page is None else f".{page}"
        return {
            "custom_id": f"{PREFIX}:{gid}:{ver}:t:{act}{suffix}",
            "label": look.get("label", "?"),
            "style": primary_if(act == "move"),
            "emoji": TABLE_EMOJI.get(act) if page is None or act == "move" else None,
            "disabled": look.get("disabled", False),
            "row": look.get("row"),
        }

    async def click(self, cog: Clicks, interaction: discord.Interaction) -> None:
        if self.act == "hand":
            await cog.on_hand(interaction, self.gid)
        elif self.act == "log":
            await cog.on_log(interaction, self.gid, self.page)
        elif self.act == "undo":
            await cog.on_undo(interaction, self.gid)
        elif self.act == "move":
            await cog.on_your_move(interaction, self.gid, self.page or 0)
        else:
            await cog.on_take_back(interaction, self.gid)


class DeadlineButton(
    CdItem[discord.ui.Button],
    template=r"cd:(?P<gid>\d+):(?P<ver>\d+):d:(?P<seat>\d+):(?P<tok>[0-9a-f]{8}):(?P<kind>skip|bot)",
):
    """After a missed deadline: the other players skip the move or let a bot play it."""

    def __init__(
        self, gid: int, ver: int, seat: int, tok: str, kind: str, *, label: str = "?"
    ) -> None:
        super().__init__(
            button(
                f"{PREFIX}:{gid}:{ver}:d:{seat}:{tok}:{kind}",
                label=label,
                style=primary_if(kind == "bot"),
                emoji="🤖" if kind == "bot" else "⏭️",
            )
        )
        self.gid, self.seat, self.tok, self.kind = gid, seat, tok, kind

    async def click(self, cog: Clicks, interaction: discord.Interaction) -> None:
        await cog.on_cover(interaction, self.gid, self.seat, self.tok, self.kind)


class GridButton(
    CdItem[discord.ui.Button],
    template=r"cd:(?P<gid>\d+):(?P<ver>\d+):g:(?P<seat>\d+):(?P<tok>[0-9a-f]{8}):"
    r"(?P<r>\d+)\.(?P<c>\d+)",
):
    """An arrow to another block of a grid too large for one message."""

    def __init__(
        self, gid: int, ver: int, seat: int, tok: str, r: int, c: int, **look: Unpack[Look]
    ) -> None:
        super().__init__(button(**self.args(gid, ver, seat, tok, r, c, **look)))
        self.gid, self.seat, self.tok, self.r, self.c = gid, seat, tok, r, c

    @classmethod
    def args(  # type: ignore[override]
        cls, gid: int, ver: int, seat: int, tok: str, r: int, c: int, **look: Unpack[Look]
    ) -> dict[str, Any]:
        look.setdefault("style", discord.ButtonStyle.primary)
        return {"custom_id": f"{PREFIX}:{gid}:{ver}:g:{seat}:{tok}:{r}.{c}", **look}

    async def click(self, cog: Clicks, interaction: discord.Interaction) -> None:
        await cog.on_grid(interaction, self.gid, self.seat, self.tok, self.r, self.c)


class GapButton(
    CdItem[discord.ui.Button],
    template=r"cd:(?P<gid>\d+):(?P<ver>\d+):x:(?P<n>\d+)",
):
    """An empty cell of a grid: a disabled button that keeps the grid's shape."""

    labelled = False

    def __init__(self, gid: int, ver: int, n: int, *, row: int | None = None) -> None:
        super().__init__(button(**self.args(gid, ver, n, row=row)))

    @classmethod
    def args(  # type: ignore[override]
        cls, gid: int, ver: int, n: int, *, row: int | None = None
    ) -> dict[str, Any]:
        return {
            "custom_id": f"{PREFIX}:{gid}:{ver}:x:{n}",
            "label": "·",
            "disabled": True,
            "row": row,
        }

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()  # disabled: Discord never sends this


REPLAY_EMOJI = {"open": "▶️", "first": "⏮️", "prev": "◀️", "next": "▶️", "last": "⏭️"}


class ReplayButton(
    CdItem[discord.ui.Button],
    template=r"cd:(?P<gid>\d+):(?P<ver>\d+):r:(?P<act>open|first|prev|next|last)\.(?P<n>\d+)",
):
    """The replay viewer (see cogs/replay.py): ``open`` (on the end-of-game package) opens
    one privately; the others show step ``n`` of it. ``ver``: the game's version the
    viewer was built at."""

    def __init__(
        self,
        gid: int,
        ver: int,
        act: str,
        n: int,
        *,
        label: str = "?",
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        opens = act == "open"
        custom_id = f"{PREFIX}:{gid}:{ver}:r:{act}.{n}"
        emoji = REPLAY_EMOJI[act] if opens else None
        item = button(custom_id, label=label, style=primary_if(opens), emoji=emoji, row=row)
        item.disabled = disabled
        super().__init__(item)
        self.gid, self.ver, self.act, self.n = gid, ver, act, n

    async def click(self, cog: Clicks, interaction: discord.Interaction) -> None:
        await cog.on_replay(interaction, self.gid, self.ver, self.act, self.n)


class ReplaySelect(CdItem[discord.ui.Select], template=r"cd:(?P<gid>\d+):(?P<ver>\d+):rj"):
    """The replay viewer's menu: jump to the step that is its value (a round's first)."""

    labelled = False

    def __init__(
        self,
        gid: int,
        ver: int,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(select(f"{PREFIX}:{gid}:{ver}:rj", options, placeholder, "0"), row=row)
        self.gid, self.ver = gid, ver

    async def click(self, cog: Clicks, interaction: discord.Interaction) -> None:
        values = chosen(interaction)
        # A value that is no step number (forged) is read as one past any game's end.
        ok = bool(values) and values[0].isascii() and values[0].isdigit()
        step = num(values[0]) if ok else BIGGEST
        await cog.on_replay(interaction, self.gid, self.ver, "jump", step)


def clicked_component(
    message: discord.Message, component_type: int, custom_id: str
) -> discord.Component | None:
    """The component of ``message`` (its rows' buttons and menus) that was clicked."""
    for top in message.components:
        for c in getattr(top, "children", (top,)):
            if c.type.value == component_type and getattr(c, "custom_id", None) == custom_id:
                return cast(discord.Component, c)
    return None


def install_fast_dispatch(store: Any) -> None:
    """Route a click on one of our items (:class:`CdItem`) without
    ``View.from_message`` (issue 23: discord.py rebuilds every button of the clicked
    message as an item before calling the one clicked; ours need only the clicked
    component's label). ``store`` is discord.py's view store; every other dynamic item, and
    a message of components v2, go the way discord.py sends them. Same steps otherwise:
    the item made from its custom_id, its state refreshed from the click, its
    ``interaction_check``, its callback, each failure logged as discord.py logs it."""
    original = store.schedule_dynamic_item_call

    async def schedule(
        component_type: int,
        factory: type[Any],
        interaction: discord.Interaction,
        custom_id: str,
        match: re.Match[str],
    ) -> None:
        message = interaction.message
        if not issubclass(factory, CdItem) or message is None or message.flags.components_v2:
            await original(component_type, factory, interaction, custom_id, match)
            return
        base = clicked_component(message, component_type, custom_id)
        if base is None:
            return
        try:
            item = await factory.from_custom_id(interaction, base, match)
        except Exception:
            log.exception("Ignoring exception in dynamic item creation for %r", factory)
            return
        item._refresh_state(interaction, interaction.data)  # type: ignore[arg-type]
        try:
            allow = await item.interaction_check(interaction)
        except Exception:
            allow = False
        if not allow:
            return
        try:
            await item.callback(interaction)
        except Exception:
            log.exception("Ignoring exception in dynamic item callback for %r", item)

    store.schedule_dynamic_item_call = schedule


def uninstall_fast_dispatch(store: Any) -> None:
    """Undo :func:`install_fast_dispatch` (discord.py's own method again)."""
    store.__dict__.pop("schedule_dynamic_item_call", None)


DYNAMIC_ITEMS = (
    MoveButton,
    MoveSelect,
    GridButton,
    GapButton,
    LobbyButton,
    TableButton,
    DeadlineButton,
    ReplayButton,
    ReplaySelect,
)

#: A game's own layout for a decision: rows of option ids, None for an empty cell.
PanelRows = Sequence[Sequence[str | None]]


def game_panel(game: Any, state: Any, decision: Decision) -> PanelRows | None:
    """The game's ``panel(state, decision)`` rows, if it has the hook and gives some."""
    hook = getattr(game, "panel", None)
    return None if hook is None else hook(state, decision)


def option_label(game_id: str, opt: Any, lang: str, names: Sequence[str]) -> str:
    return t(opt.label, lang, names, **dict(opt.args))


def layout_fits(layout: PanelRows | None, rows: int) -> bool:
    return (
        layout is not None
        and 0 < len(layout) <= rows
        and all(0 < len(r) <= GRID_COLS for r in layout)
    )


def grid_shape(decision: Decision, rows: int) -> tuple[int, int, bool]:
    """(block height, block width, paged) of ``decision``'s grid in ``rows`` rows."""
    assert decision.grid is not None
    height, width = decision.grid
    extras = any(o.cell is None for o in decision.options)
    if width <= GRID_COLS and height + (1 if extras else 0) <= rows:
        return height, width, False
    return max(1, min(height, rows - 1)), min(width, GRID_COLS), True


def rows_needed(
    decisions: Sequence[Decision], layouts: Sequence[PanelRows | None] | None, rows: int = 4
) -> int:
    """How many rows ``add_decisions`` would use for every one of ``decisions``."""
    total = 0
    for i, d in enumerate(decisions):
        layout = layouts[i] if layouts else None
        if layout_fits(layout, rows):
            total += len(layout or ())
        elif d.grid is not None:
            h, _, paged = grid_shape(d, rows)
            total += rows if paged else h + (1 if any(o.cell is None for o in d.options) else 0)
        elif d.multi:
            total += 1
        elif len(d.options) > MAX_BUTTONS:
            total += (len(d.options) + SELECT_MAX - 1) // SELECT_MAX
        else:
            total += (len(d.options) + GRID_COLS - 1) // GRID_COLS
    return total


def add_decisions(
    view: Items,
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
    last_row: int = 3,
    layouts: Sequence[PanelRows | None] | None = None,
) -> int:
    """Add the buttons (or select menus, when buttons would not fit) for ``decisions``;
    returns the next free row. Rows ``first_row``..``last_row`` are used; a decision that
    finds no row left is still playable from the player's "My hand" panel, which lists all
    their decisions. ``layouts`` holds the game's own rows per decision (see
    :func:`game_panel`), used when they fit."""
    row = first_row
    for i, (decision, tok) in enumerate(zip(decisions, tokens, strict=True)):
        if row > last_row:
            break
        who = f"{names[decision.seat]}: " if prefix_names else ""
        left = last_row - row + 1

        def add(
            opt: Option, r: int, decision: Decision = decision, tok: str = tok, who: str = who
        ) -> None:
            label = who + option_label(game_id, opt, lang, names)
            put_move(view, gid, ver, decision, tok, opt, label=label, row=r)

        layout = layouts[i] if layouts else None
        as_grid = decision.grid is not None and left >= 2
        if layout is not None and layout_fits(layout, left):
            for line in layout:
                for cell in line:
                    opt = decision.option(cell) if cell is not None else None
                    if opt is None:
                        put(view, GapButton, gid, ver, len(view.children), row=row)
                    else:
                        add(opt, row)
                row += 1
        elif (
            not as_grid
            and not decision.multi
            and len(decision.options) <= MAX_BUTTONS
            and (len(decision.options) + GRID_COLS - 1) // GRID_COLS <= left
        ):
            for k, opt in enumerate(decision.options):
                add(opt, row + k // GRID_COLS)
            row += (len(decision.options) + GRID_COLS - 1) // GRID_COLS
        else:
            add_many: Callable[..., int] = add_grid if as_grid else add_selects
            row = add_many(
                view,
                decision,
                tok,
                gid=gid,
                ver=ver,
                lang=lang,
                names=names,
                first_row=row,
                last_row=last_row,
                label_prefix=who,
            )
    return row


def put_move(
    view: Items,
    gid: int,
    ver: int,
    decision: Decision,
    tok: str,
    opt: Option,
    *,
    label: str,
    row: int,
) -> None:
    """The button that answers ``decision`` with ``opt``, in the option's style, put on
    ``view`` (see :func:`put`)."""
    style = STYLES.get(opt.style, discord.ButtonStyle.secondary)
    put(view, MoveButton, gid, ver, decision.seat, tok, opt.id, label=label, style=style, row=row)


def select_option(opt: Option, lang: str, names: Sequence[str]) -> discord.SelectOption:
    """A select menu's entry for ``opt``."""
    return discord.SelectOption(
        label=clip(option_label("", opt, lang, names), SELECT_LABEL), value=opt.id
    )


class Rows(TypedDict):
    """Where :func:`add_grid` and :func:`add_selects` put a decision's components: the game
    and version their custom_ids carry, the reader's language, the players' names, and the
    rows they may fill."""

    gid: int
    ver: int
    lang: str
    names: Sequence[str]
    first_row: int
    last_row: int


def add_grid(
    view: Items,
    decision: Decision,
    tok: str,
    *,
    origin: tuple[int, int] = (0, 0),
    label_prefix: str = "",
    **at: Unpack[Rows],
) -> int:
    """``decision``'s grid as rows of buttons, each option at its ``cell`` and a disabled
    "·" where no option is. A grid larger than the rows (or than 5 columns) shows the block
    whose top left cell is ``origin``, with arrow buttons to the neighbouring blocks; options
    without a cell share the last row with the arrows. Returns the next free row."""
    gid, ver, lang, names = at["gid"], at["ver"], at["lang"], at["names"]
    first_row, last_row = at["first_row"], at["last_row"]
    assert decision.grid is not None
    height, width = decision.grid
    h, w, paged = grid_shape(decision, last_row - first_row + 1)
    r0 = max(0, min(origin[0], height - h))
    c0 = max(0, min(origin[1], width - w))
    by_cell = {o.cell: o for o in decision.options if o.cell is not None}
    extras = [o for o in decision.options if o.cell is None]
    for r in range(r0, r0 + h):
        for c in range(c0, c0 + w):
            opt = by_cell.get((r, c))
            row = first_row + r - r0
            if opt is None:
                put(view, GapButton, gid, ver, len(view.children), row=row)
            else:
                label = label_prefix + option_label("", opt, lang, names)
                put_move(view, gid, ver, decision, tok, opt, label=label, row=row)
    row = first_row + h
    nav: list[tuple[str, int, int]] = []
    if paged:
        if r0 > 0:
            nav.append(("▲", max(r0 - h, 0), c0))
        if r0 + h < height:
            nav.append(("▼", min(r0 + h, height - h), c0))
        if c0 > 0:
            nav.append(("◀", r0, max(c0 - w, 0)))
        if c0 + w < width:
            nav.append(("▶", r0, min(c0 + w, width - w)))
    for label, r, c in nav:
        put(view, GridButton, gid, ver, decision.seat, tok, r, c, label=label, row=row)
    for opt in extras[: GRID_COLS - len(nav)]:
        label = label_prefix + option_label("", opt, lang, names)
        put_move(view, gid, ver, decision, tok, opt, label=label, row=row)
    return row + 1 if nav or extras else row


def add_selects(
    view: Items,
    decision: Decision,
    tok: str,
    *,
    start: int = 0,
    label_prefix: str = "",
    **at: Unpack[Rows],
) -> int:
    """Options ``start:`` of ``decision`` as select menus, 25 to a menu, one menu a row.
    When they do not all fit, the last entry of the last menu opens the next page
    (answered privately, see GameCog.on_more). A multi-pick decision is one menu taking
    ``min_picks``..``max_picks`` values (its first 25 options). Returns the next free
    row."""
    gid, ver, lang, names = at["gid"], at["ver"], at["lang"], at["names"]
    first_row, last_row = at["first_row"], at["last_row"]
    prompt = t(decision.prompt, lang, names, **dict(decision.args))

    def menu(part: int, entries: list[discord.SelectOption], text: str, **more: int) -> None:
        """A menu (``part`` numbers it) with ``entries``, placeholder ``text``; ``more``:
        its row, and the fewest and most values it takes."""
        placeholder = clip(f"{label_prefix}{text}", 150)
        put(view, MoveSelect, gid, ver, decision.seat, tok, part, entries, placeholder, **more)

    if decision.multi:
        chunk = list(decision.options)[:SELECT_MAX]
        top = min(decision.max_picks, len(chunk))
        entries = [select_option(o, lang, names) for o in chunk]
        menu(
            0,
            entries,
            prompt,
            row=first_row,
            min_values=min(decision.min_picks, top),
            max_values=top,
        )
        return first_row + 1
    options = list(decision.options)[start:]
    rows = max(1, last_row - first_row + 1)
    capacity = rows * SELECT_MAX
    more = len(options) > capacity
    shown = options[: capacity - 1] if more else options
    row = first_row
    for part, i in enumerate(range(0, max(len(shown), 1), SELECT_MAX)):
        chunk = shown[i : i + SELECT_MAX]
        entries = [select_option(o, lang, names) for o in chunk]
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
        menu(start // SELECT_MAX + part, entries, f"{prompt} ({first}–{final})", row=row)
        row += 1
    return row
