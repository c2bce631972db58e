"""What players read and see: embeds, sentences, pictures, and the views with buttons.

Everything public here is built from public views (``view(state, None)``) and public events
(``private_to`` unset); private panels are built for one seat and only ever sent by DM or as
an ephemeral reply.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import marshal
import re
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

import discord

from cogs import ui
from core import i18n
from core.contract import Decision, IllegalMove
from core.i18n import t
from host import pacing, registry, renderpool
from host.sessions import Host, Snapshot
from host.storage import ActionRow

log = logging.getLogger(__name__)

COLOUR = discord.Colour.from_rgb(64, 96, 200)
RECENT_LINES = 8


def game_name(game_id: str, lang: str) -> str:
    return t(f"{game_id}.name", lang)


def event_key(game_id: str, code: str) -> str:
    return code if "." in code else f"{game_id}.event.{code}"


def event_line(
    game_id: str, seat: int, event: Mapping[str, Any], lang: str, names: Sequence[str]
) -> str:
    args = dict(event.get("args") or {})
    args.setdefault("seat", event.get("seat") if event.get("seat") is not None else seat)
    return t(event_key(game_id, event["code"]), lang, names, **args)


#: Event lines already written (:func:`logged_line`): the log is written again on every
#: publish (its recent lines, the trail), mostly with the same events. Emptied when full.
_LINES: dict[Any, str] = {}
LINES_KEPT = 20_000


def logged_line(
    game_id: str, seat: int, event: Mapping[str, Any], lang: str, names: Sequence[str]
) -> str:
    """:func:`event_line`, written once per event, language, names and text: a line whose
    writing logged a warning (a missing string, bad arguments) is written again each time,
    so that it warns each time too."""
    try:
        memo = (
            game_id,
            seat,
            # marshal (version 2: no back-references) tells apart values that are equal
            # but read differently (1, 1.0, True; a tuple, a list)
            marshal.dumps(event, 2),  # type: ignore[arg-type]
            lang,
            tuple(names),
            i18n.text_of(event_key(game_id, event["code"]), lang),
        )
        line = _LINES.get(memo)
    except (ValueError, KeyError, TypeError):  # data marshal cannot write, no code
        return event_line(game_id, seat, event, lang, names)
    if line is None:
        warned = i18n.warnings_logged()
        line = event_line(game_id, seat, event, lang, names)
        if i18n.warnings_logged() == warned:
            if len(_LINES) >= LINES_KEPT:
                _LINES.clear()
            _LINES[memo] = line
    return line


def mention(snap: Snapshot, seat: int) -> str:
    s = snap.seats[seat]
    if s.is_bot or s.user_id is None:
        return f"🤖 {s.name}"
    return f"<@{s.user_id}>"


def who(snap: Snapshot, seat: int, lang: str | None = None) -> str:
    """A seat's name; a bot's with 🤖 and, given ``lang``, its level ("🤖 Bot 1 (hard)")."""
    s = snap.seats[seat]
    if not s.is_bot:
        return s.name
    if lang is None or s.autopilot:
        return f"🤖 {s.name}"
    return f"🤖 {s.name} ({bot_level(snap, seat, lang)})"


def bot_level(snap: Snapshot, seat: int, lang: str) -> str:
    """The level a bot plays ``seat`` at, in words ("hard" / "difícil")."""
    return t(f"host.opt.botlevel.{Host.level_of(snap, seat)}", lang)


def refusal(err: IllegalMove, lang: str, snap: Snapshot | None = None) -> str:
    """The one place where a refused request becomes a sentence."""
    args = dict(err.args_)
    if snap is not None and "waiting" in args:
        waiting = [mention(snap, s) for s in args["waiting"]]
        args["waiting"] = ", ".join(waiting) or "—"
        if not waiting:
            return t("host.error.not_your_turn_nobody", lang)
    names = snap.names if snap is not None else None
    return t(err.code, lang, names, **args)


def scores_text(snap: Snapshot, view: Mapping[str, Any], lang: str) -> str:
    scores = view.get("scores") or []
    lines = []
    for seat in range(len(snap.seats)):
        pts = scores[seat] if seat < len(scores) else 0
        lines.append(t("host.table.score_line", lang, name=who(snap, seat, lang), points=pts))
    return "\n".join(lines) or "—"


def round_text(game_id: str, n: Any, lang: str) -> str:
    """ "voyage 8" / "round 8": the game's own word for a round (``<game>.round``, the
    same word its board uses), else the host's."""
    key = f"{game_id}.round" if i18n.has(f"{game_id}.round", lang) else "host.table.round"
    return t(key, lang, n=n)


def turn_of(snap: Snapshot, seats: Sequence[int], lang: str) -> str:
    """ "Your move: @Ana" / "Os toca: @Ana @Bea" — the line that mentions whom the game
    waits for, in the singular or the plural; empty when nobody is to move."""
    if not seats:
        return ""
    who_ = " ".join(mention(snap, s) for s in seats)
    return t("host.table.turn_of", lang, n=len(seats), who=who_)


def prompt_text(snap: Snapshot, decision: Decision, lang: str) -> str:
    return t(decision.prompt, lang, snap.names, **dict(decision.args))


def to_move_text(snap: Snapshot, lang: str) -> str:
    """Who is to move and what they decide: one line per public question with whose it is
    ("@Bea: land your astronaut…?", one line for several seats asked the same), and for a
    secret choice only that the seat is choosing (its prompt goes to the seat alone)."""
    parts: list[str] = []
    asked: dict[str, list[int]] = {}  # public prompt text -> seats, in seat order
    for seat in snap.to_move():
        decisions = snap.decisions_for(seat)
        if snap.seats[seat].is_bot:  # a bot searches for its move, in the background
            parts.append(t("host.table.thinking", lang, name=who(snap, seat, lang)))
            continue
        if any(d.private for d in decisions):
            key = "host.table.to_move_private"
            if not snap.seats[seat].dm_open:
                key = "host.table.to_move_hand"
            parts.append(t(key, lang, name=mention(snap, seat)))
        for d in decisions:
            if not d.private:
                asked.setdefault(prompt_text(snap, d, lang), []).append(seat)
    lines = [
        t(
            "host.table.decide_line",
            lang,
            name=", ".join(mention(snap, s) for s in dict.fromkeys(seats)),
            prompt=prompt,
        )
        for prompt, seats in asked.items()
    ]
    return "\n".join(lines + parts) or "—"


def legend_text(snap: Snapshot, decisions: Sequence[Decision], lang: str) -> str:
    """The meaning of every symbol (declared in the game's ``symbols``) that the prompts and
    option labels of ``decisions`` use, e.g. "🐱 booster · 🔒 keep the dice"; symbols that
    share a meaning share its entry ("→ ↗ a fuel cube"); "" if none."""
    symbols: Mapping[str, str] = getattr(snap.game, "symbols", None) or {}
    if not symbols or not decisions:
        return ""
    texts = []
    for d in decisions:
        texts.append(prompt_text(snap, d, lang))
        texts += [t(o.label, lang, snap.names, **dict(o.args)) for o in d.options]
    shown = "\n".join(texts)
    used: dict[str, list[str]] = {}  # meaning -> its symbols, in the game's order
    for sym, key in symbols.items():
        if sym in shown:
            used.setdefault(key, []).append(sym)
    return " · ".join(f"{' '.join(syms)} {t(key, lang)}" for key, syms in used.items())


def reveal_lines(snap: Snapshot, view: Mapping[str, Any], lang: str) -> list[str]:
    """The hidden information a finished game reveals (the public view's ``reveal``)."""
    out = []
    for item in view.get("reveal") or []:
        key, args = item[0], item[1] if len(item) > 1 else {}
        out.append(t(key, lang, snap.names, **dict(args or {})))
    return out


def fingerprint(embed: discord.Embed, view: ui.Items | None, public: Any) -> str:
    """A hash of everything a table message shows: embed, buttons and the public view
    the picture is drawn from."""
    payload = json.dumps(
        [embed.to_dict(), view.to_components() if view else None, public],
        sort_keys=True,
        default=str,
    )
    # The version in custom_ids shows nothing (clicks are checked by decision token): a
    # secret move bumps it, and must not edit the table.
    payload = re.sub(r'"cd:(\d+):\d+:', r'"cd:\1:', payload)
    return hashlib.blake2s(payload.encode(), digest_size=12).hexdigest()


def table_embed(snap: Snapshot, lines: Sequence[str], lang: str) -> discord.Embed:
    view = snap.view(None)
    title = game_name(snap.row.game, lang)
    if view.get("round"):
        title += " — " + round_text(snap.row.game, view["round"], lang)
    embed = discord.Embed(title=title, colour=COLOUR)
    recent = "\n".join(f"• {line}" for line in lines[-RECENT_LINES:])
    embed.description = recent[-4000:] if recent else t("host.table.started", lang)
    if view.get("phase"):
        embed.add_field(name=t("host.table.phase", lang), value=t(view["phase"], lang))
    result = snap.result()
    if result is None and snap.row.status == "active":
        embed.add_field(
            name=t("host.table.to_move", lang), value=to_move_text(snap, lang)[:1024], inline=False
        )
        shown = [d for d in snap.decisions if not d.private]
        legend = legend_text(snap, shown + standing_shown(snap), lang)
        if legend:
            embed.add_field(name=t("host.table.legend", lang), value=legend[:1024], inline=False)
        timers = [  # a Discord timestamp: each reader sees the time left ("in 2 minutes")
            t(
                "host.table.timer_line",
                lang,
                who=", ".join(mention(snap, s) for s in seats),
                when=f"<t:{int(due)}:R>",
            )
            for due, seats in snap.running_timers()
        ]
        if timers:
            embed.add_field(name=t("host.table.timer", lang), value="\n".join(timers)[:1024])
        embed.add_field(
            name=t("host.table.scores", lang), value=scores_text(snap, view, lang), inline=False
        )
    elif result is not None:
        # As much of the final word as one message holds; the rest follows the table
        # (see final_overflow).
        for name, value in final_fields(snap, result, lang):
            cost = len(name) + len(value)
            if len(embed.fields) >= FIELDS_MAX or len(embed) + cost > EMBED_ROOM:
                break
            embed.add_field(name=name, value=value, inline=False)
    else:
        embed.add_field(name=t("host.table.status", lang), value=t("host.status.abandoned", lang))
    embed.set_image(url="attachment://table.png")
    embed.set_footer(text=t("host.table.footer", lang, id=snap.id))
    return embed


#: Discord's most fields in one embed.
FIELDS_MAX = 25
#: What a table's embed may hold in all, leaving room for its image and footer (Discord
#: allows 6000 characters over every embed of a message).
EMBED_ROOM = 5800


def final_fields(snap: Snapshot, result: Any, lang: str) -> list[tuple[str, str]]:
    """The final word as embed fields, each within Discord's limits: the ranking (each
    player's score and its breakdown, the winner, the tie-break when one decided), then
    what the game reveals, each split over several fields when long, never cut."""
    out = split_field(t("host.table.final", lang), ranking_lines(snap, result, lang))
    revealed = reveal_lines(snap, snap.view(None), lang)
    if revealed:
        out += split_field(t("host.table.reveal", lang), revealed)
    return out


def final_overflow(snap: Snapshot, shown: discord.Embed, lang: str) -> list[discord.Embed]:
    """The fields of the final word the table's embed ``shown`` had no room for, as embeds
    to post after it (each in a message of its own), or none."""
    result = snap.result()
    if result is None:
        return []
    have = {(f.name, f.value) for f in shown.fields}
    rest = [f for f in final_fields(snap, result, lang) if f not in have]
    embeds: list[discord.Embed] = []
    for name, value in rest:
        full = bool(embeds) and (
            len(embeds[-1].fields) >= FIELDS_MAX
            or len(embeds[-1]) + len(name) + len(value) > EMBED_ROOM
        )
        if not embeds or full:
            embeds.append(discord.Embed(colour=COLOUR))
        embeds[-1].add_field(name=name, value=value, inline=False)
    return embeds


def ranking_text(snap: Snapshot, result: Any, lang: str) -> str:
    """The final ranking as text, whole (the end-of-game log file)."""
    return "\n".join(ranking_lines(snap, result, lang))


def ranking_lines(snap: Snapshot, result: Any, lang: str) -> list[str]:
    order = sorted(range(len(result.scores)), key=lambda s: (result.ranks[s], s))
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    lines = []
    for seat in order:
        rank = result.ranks[seat]
        parts = ""
        if result.breakdown:
            bits = [
                f"{t(f'{snap.row.game}.score.{k}', lang)} {v}"
                for k, v in result.breakdown[seat].items()
                if v
            ]
            parts = " (" + ", ".join(bits) + ")" if bits else ""
        lines.append(
            t(
                "host.table.rank_line",
                lang,
                medal=medals.get(rank, f"{rank}."),
                name=who(snap, seat, lang),
                points=result.scores[seat],
            )
            + parts
        )
    winners = [who(snap, s) for s in result.winners]
    key = "host.table.winner" if len(winners) == 1 else "host.table.winners"
    lines.append(t(key, lang, who=", ".join(winners)))
    if getattr(result, "tiebreak", ""):
        lines.append(t("host.table.tiebreak", lang, what=t(result.tiebreak, lang)))
    return lines


# -- /game rules --------------------------------------------------------------------------

#: The sections a game's rules may have, in reading order. A game provides each as the
#: string ``<game>.rules.<section>``; a game with none of them falls back to its one-block
#: ``<game>.rules_summary``. Each lobby option adds ``<owner>.rules.help.<id>`` (one line,
#: also shown in the lobby; see :func:`help_key`) and a game's option may add
#: ``<game>.rules.option.<id>`` (what each value changes, naming each value).
RULE_SECTIONS = ("goal", "turn", "scoring", "end")
#: Values of the ``topic`` option of ``/game rules`` (none: everything).
RULE_TOPICS = (*RULE_SECTIONS, "options")


def rules_sections(game_id: str, lang: str) -> list[tuple[str, str]]:
    """(title, text) of each rules section the game has, or of its summary."""
    out = [
        (t(f"host.rules.section.{s}", lang), t(f"{game_id}.rules.{s}", lang))
        for s in RULE_SECTIONS
        if i18n.has(f"{game_id}.rules.{s}", lang)
    ]
    return out or [(t("host.rules.section.summary", lang), t(f"{game_id}.rules_summary", lang))]


def explained_options(game_id: str) -> tuple[Any, ...]:
    """The game's lobby options that ``/game rules`` explains: all but one the game never
    offers (a single value its ``unused_options`` always names, such as a hidden rulings
    version), which is no choice to explain."""
    g = registry.get(game_id)
    hook = getattr(g, "unused_options", None)
    never = set(hook({o.id: o.default for o in g.options})) if hook is not None else set()
    return tuple(o for o in g.options if o.id not in never or len(o.choices) > 1)


def option_rules(game_id: str, lang: str) -> list[tuple[str, str]]:
    """(title, text) for every lobby option of the game, then the host's pacing options:
    its values (the default marked), its one-line help and the game's longer text."""
    out = []
    for host_level, specs in ((False, explained_options(game_id)), (True, pacing.HOST_OPTIONS)):
        for spec in specs:
            values = " · ".join(
                t(f"{spec.label}.{v}", lang)
                + (" " + t("host.rules.default", lang) if v == spec.default else "")
                for v in spec.choices
            )
            parts = [values]
            about = option_help(spec, "host" if host_level else game_id, lang)
            if about:
                parts.append(about)
            key = f"{game_id}.rules.option.{spec.id}"
            if not host_level and i18n.has(key, lang):
                parts.append(t(key, lang))
            out.append((t(spec.label, lang), "\n".join(parts)))
    return out


#: Discord's limit on the text of all embeds of one message.
EMBEDS_TOTAL = 6000


def rules_embeds(game_id: str, topic: str | None, lang: str) -> list[discord.Embed]:
    """``/game rules``: the game's sections (or only ``topic``'s), as one or more embeds
    that each keep within Discord's limits (send each in its own message)."""
    g = registry.get(game_id)
    name = game_name(game_id, lang)
    sections = rules_sections(game_id, lang)
    options = option_rules(game_id, lang)
    if topic == "options":
        fields = [(t("host.rules.section.options", lang), t("host.rules.options_intro", lang))]
        fields += options
    elif topic in RULE_SECTIONS:
        key = f"{game_id}.rules.{topic}"
        fields = [
            (t(f"host.rules.section.{topic}", lang), t(key, lang))
            if i18n.has(key, lang)
            else sections[0]
        ]
    else:
        fields = [*sections, (t("host.rules.section.options", lang), ""), *options]
    embeds: list[discord.Embed] = []
    size = EMBEDS_TOTAL
    for title, text in fields:
        value = fit(text) if text else t("host.rules.options_intro", lang)
        cost = len(title) + len(value)
        if size + cost > EMBEDS_TOTAL - 400 or len(embeds[-1].fields) >= 25:
            embeds.append(
                discord.Embed(title=t("host.rules.title", lang, game=name), colour=COLOUR)
            )
            size = len(embeds[-1].title or "")
        embeds[-1].add_field(name=title[:256], value=value, inline=False)
        size += cost
    footer = t("host.rules.players", lang, min=g.min_players, max=g.max_players)
    if topic is None:
        footer += " · " + t("host.rules.topics", lang)
    embeds[-1].set_footer(text=footer)
    return embeds


def lobby_embed(snap: Snapshot, lang: str) -> discord.Embed:
    g = snap.game
    embed = discord.Embed(
        title=t("host.lobby.title", lang, game=game_name(g.id, lang)), colour=COLOUR
    )
    players = (
        "\n".join(f"{i + 1}. {who(snap, s.seat, lang)}" for i, s in enumerate(snap.seats)) or "—"
    )
    counts: dict[str, Any] = {"n": len(snap.seats), "min": g.min_players, "max": g.max_players}
    embed.add_field(
        name=t("host.lobby.players", lang, **counts),
        value=players,
        inline=False,
    )
    game_lines = [
        option_line(o, g.id, option_value(snap, o, lang), lang) for o in Host.lobby_options(snap)
    ]
    host_lines = [
        option_line(o, "host", host_option_value(snap, o, lang), lang) for o in pacing.HOST_OPTIONS
    ]
    for title, lines in (("host.lobby.options", game_lines), ("host.lobby.pacing", host_lines)):
        for name, value in split_field(t(title, lang), lines):
            embed.add_field(name=name, value=value, inline=False)
    status = snap.row.status
    if status == "lobby":
        embed.description = t("host.lobby.help", lang)
    elif status == "active" or status == "over":
        embed.description = t("host.lobby.started", lang)
    else:
        embed.description = t("host.lobby.closed", lang)
    return embed


def split_field(name: str, blocks: Sequence[str], limit: int = 1024) -> list[tuple[str, str]]:
    """``blocks`` (each a line or a few) under the title ``name`` as one embed field, or
    as several when they pass a field's ``limit`` (the later ones titled "name (2)", …):
    a block is never split, so nothing is cut but a single block longer than a field."""
    chunks: list[list[str]] = []
    size = limit + 1
    for block in blocks:
        block = fit(block, limit)
        if size + 1 + len(block) > limit:
            chunks.append([])
            size = -1
        chunks[-1].append(block)
        size += 1 + len(block)
    return [
        (name if i == 0 else f"{name} ({i + 1})", "\n".join(chunk))
        for i, chunk in enumerate(chunks)
    ]


def fit(text: str, limit: int = 1024) -> str:
    """``text`` cut to an embed field's limit, on a line boundary where possible."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    return (cut.rsplit("\n", 1)[0] if "\n" in cut else cut) + "…"


def option_value(snap: Snapshot, spec: Any, lang: str) -> str:
    return t(f"{spec.label}.{snap.row.options.get(spec.id, spec.default)}", lang)


def host_option_value(snap: Snapshot, spec: Any, lang: str) -> str:
    return t(f"{spec.label}.{snap.row.host_options.get(spec.id, spec.default)}", lang)


def help_key(spec: Any, owner: str) -> str:
    """The key of a lobby option's one-line explanation: ``<game>.rules.help.<id>`` for a
    game's option, ``host.rules.help.<id>`` for the host's pacing options."""
    return f"{owner}.rules.help.{spec.id}"


def option_help(spec: Any, owner: str, lang: str) -> str | None:
    """The one-line explanation of a lobby option (see :func:`help_key`), if it has one."""
    key = help_key(spec, owner)
    return t(key, lang) if i18n.has(key, lang) else None


def option_line(spec: Any, owner: str, value: str, lang: str) -> str:
    """A lobby option as the lobby shows it: its name, its value, and what it means."""
    line = f"{t(spec.label, lang)}: **{value}**"
    about = option_help(spec, owner, lang)
    return f"{line}\n> {about}" if about else line


#: How many "who changed which option" lines the lobby message keeps.
LOBBY_NOTES = 6


def option_change_notes(
    snap: Snapshot, option_id: str, name: str, previous: str | None, lang: str
) -> str | None:
    """The lobby message's text after ``name`` switched ``option_id`` (``h.`` prefix: a
    host option): one line per option, naming who set it last, newest last. ``previous``
    is the message's text before (the earlier lines), returned as it was if the option is
    unknown."""
    host_level = option_id.startswith("h.")
    specs = pacing.HOST_OPTIONS if host_level else snap.game.options
    spec = next((o for o in specs if o.id == option_id.removeprefix("h.")), None)
    if spec is None:
        return previous
    value = host_option_value(snap, spec, lang) if host_level else option_value(snap, spec, lang)
    head = f"⚙️ **{t(spec.label, lang)}**:"
    line = f"{head} {value} " + t("host.lobby.changed_by", lang, name=name)
    kept = [ln for ln in (previous or "").splitlines() if ln and not ln.startswith(head)]
    return "\n".join([*kept, line][-LOBBY_NOTES:])[:2000]


def lobby_message(snap: Snapshot) -> dict[str, Any]:
    """Embed and buttons of the lobby, in the game's language."""
    return {
        "embed": lobby_embed(snap, snap.row.lang),
        "view": lobby_view(snap, snap.row.lang),
    }


def lobby_view(snap: Snapshot, lang: str) -> discord.ui.View | None:
    if snap.row.status != "lobby":
        return None
    gid, ver = snap.id, snap.row.version
    v = discord.ui.View(timeout=None)
    full = len(snap.seats) >= snap.game.max_players
    few = len(snap.seats) < snap.game.min_players
    style = discord.ButtonStyle
    for act, key, look, disabled in (
        ("join", "host.lobby.join", style.success, full),
        ("leave", "host.lobby.leave", style.secondary, False),
        ("bot", "host.lobby.add_bot", style.secondary, full),
        ("start", "host.lobby.start", style.primary, few),
    ):
        label = t(key, lang)
        v.add_item(
            ui.LobbyButton(gid, ver, act, label=label, style=look, disabled=disabled, row=0)
        )
    for o in Host.lobby_options(snap)[:5]:
        label = f"{t(o.label, lang)}: {option_value(snap, o, lang)}"
        v.add_item(ui.LobbyButton(gid, ver, f"o.{o.id}", label=label, row=1))
    for o in pacing.HOST_OPTIONS:
        label = f"{t(o.label, lang)}: {host_option_value(snap, o, lang)}"
        v.add_item(ui.LobbyButton(gid, ver, f"o.h.{o.id}", label=label, row=2))
    # One button per bot seat: a click switches its level (easy → normal → hard).
    for s in [s for s in snap.seats if s.is_bot][:5]:
        label = f"🤖 {s.name}: {bot_level(snap, s.seat, lang)}"
        v.add_item(ui.LobbyButton(gid, ver, f"b.{s.seat}", label=label, row=3))
    return v


def table_view(
    snap: Snapshot, lang: str, *, undo: bool = False, back: bool = False
) -> discord.ui.View:
    """The table message's buttons as discord.py's view (see :func:`table_panel`)."""
    return fill_table(discord.ui.View(timeout=None), snap, lang, undo=undo, back=back)


def table_panel(snap: Snapshot, lang: str, *, undo: bool = False, back: bool = False) -> ui.Panel:
    """The table message's buttons as plain dicts (what the table is sent with, issue 23):
    the same components as :func:`table_view`."""
    return fill_table(ui.Panel(), snap, lang, undo=undo, back=back)


V = TypeVar("V", discord.ui.View, ui.Panel)


def fill_table(v: V, snap: Snapshot, lang: str, *, undo: bool, back: bool) -> V:
    """Put the table's buttons on ``v``: the public decisions' moves, the standing ones, My
    hand, Log, Undo, Take back; a finished game's table keeps Log alone."""
    gid, ver = snap.id, snap.row.version
    if snap.row.status != "active":
        ui.put(v, ui.TableButton, gid, ver, "log", label=t("host.btn.log", lang))
        return v
    public = [d for d in snap.decisions if not d.private and snap.human(d.seat)]
    layouts = [ui.game_panel(snap.game, snap.state, d) for d in public]
    seats = sorted({d.seat for d in public})
    if len(seats) > 1 and ui.rows_needed(public, layouts) > 4:
        # Several seats to move and not room for all their buttons (up to six seats):
        # one "Your move" button each, which opens that seat's choice privately.
        for i, seat in enumerate(seats):
            label = t("host.btn.your_move", lang, name=snap.names[seat])
            ui.put(
                v, ui.TableButton, gid, ver, "move", label=label, page=seat, row=i // ui.GRID_COLS
            )
        row = (len(seats) + ui.GRID_COLS - 1) // ui.GRID_COLS
    else:
        row = add_decisions(v, snap, public, lang, prefix_names=len(seats) > 1, layouts=layouts)
    row = min(row, 4)
    helpers = 2 + undo + back
    standing = standing_shown(snap)
    if standing and row < 4:  # a row of their own ("Ana: give up after this card")
        add_standing(v, snap, standing, lang, row, ui.GRID_COLS)
        row += 1
    elif standing:  # no row left: beside the helpers, as many as fit
        add_standing(v, snap, standing, lang, row, ui.GRID_COLS - helpers)
    shown = [("hand", "host.btn.hand"), ("log", "host.btn.log")]
    shown += [("undo", "host.btn.undo")] * undo + [("back", "host.btn.take_back")] * back
    for act, key in shown:
        ui.put(v, ui.TableButton, gid, ver, act, label=t(key, lang), row=row)
    return v


def standing_shown(snap: Snapshot) -> list[Decision]:
    """The standing decisions the table shows: human seats' public ones (see
    :func:`core.contract.standing_of`); a bot's are never shown."""
    if snap.row.status != "active":
        return []
    return [d for d in snap.standing if not d.private and snap.human(d.seat)]


def add_standing(
    v: ui.Items,
    snap: Snapshot,
    standing: Sequence[Decision],
    lang: str,
    row: int,
    room: int,
) -> None:
    """One button per option of ``standing`` in ``row``, at most ``room``, each named for
    its seat ("Ana: give up after this card")."""
    options = [(d, o) for d in standing for o in d.options][: max(0, room)]
    for d, o in options:
        label = f"{snap.names[d.seat]}: {ui.option_label(snap.row.game, o, lang, snap.names)}"
        ui.put_move(v, snap.id, snap.row.version, d, snap.token(d), o, label=label, row=row)


def deadline_view(snap: Snapshot, seat: int, lang: str, can_skip: bool) -> discord.ui.View:
    decision = snap.decisions_for(seat)[0]
    tok = snap.token(decision)
    v = discord.ui.View(timeout=None)
    v.add_item(
        ui.DeadlineButton(
            snap.id, snap.row.version, seat, tok, "bot", label=t("host.btn.let_bot", lang)
        )
    )
    if can_skip:
        v.add_item(
            ui.DeadlineButton(
                snap.id, snap.row.version, seat, tok, "skip", label=t("host.btn.skip", lang)
            )
        )
    return v


def log_lines(
    snap: Snapshot, actions: Sequence[ActionRow], seat: int | None, lang: str
) -> list[str]:
    """The log as one line per event; undone moves are struck through and marked."""
    lines: list[str] = []
    game, names = snap.row.game, tuple(snap.names)  # (once, not once a line)
    for a in actions:
        for e in a.events:
            if e.get("private_to") not in (None, seat):
                continue
            line = logged_line(game, a.seat, e, lang, names)
            if a.undone:
                line = f"~~{line}~~ ({t(f'host.log.{a.undone}', lang)})"
            lines.append(line)
    return lines


LOG_PAGE = 15


def log_page(
    snap: Snapshot, lines: Sequence[str], page: int | None, lang: str
) -> tuple[discord.Embed, discord.ui.View | None, int]:
    """One page of the log (the last page when ``page`` is None), with ◀ ▶ buttons."""
    pages = max(1, (len(lines) + LOG_PAGE - 1) // LOG_PAGE)
    page = pages - 1 if page is None else max(0, min(page, pages - 1))
    chunk = lines[page * LOG_PAGE : (page + 1) * LOG_PAGE]
    text = "\n".join(f"• {line}" for line in chunk) or t("host.log.empty", lang)
    embed = discord.Embed(
        title=t("host.log.title", lang, game=game_name(snap.row.game, lang)),
        description=text[-4000:],
        colour=COLOUR,
    )
    embed.set_footer(text=t("host.log.page", lang, page=page + 1, pages=pages))
    if pages == 1:
        return embed, None, page
    v = discord.ui.View(timeout=None)
    v.add_item(
        ui.TableButton(snap.id, 0, "log", label="◀", page=max(page - 1, 0), disabled=page == 0)
    )
    v.add_item(
        ui.TableButton(
            snap.id, 1, "log", label="▶", page=min(page + 1, pages - 1), disabled=page >= pages - 1
        )
    )
    return embed, v, page


def log_file_text(snap: Snapshot, actions: Sequence[ActionRow], lang: str) -> str:
    """The whole public log, for the file posted at the end of a game."""
    import datetime as dt

    out = [
        f"{game_name(snap.row.game, lang)} — {t('host.table.footer', lang, id=snap.id)}",
        ", ".join(f"{i + 1}. {who(snap, i)}" for i in range(len(snap.seats))),
        "",
    ]
    for a in actions:
        stamp = dt.datetime.fromtimestamp(a.at, dt.UTC).strftime("%Y-%m-%d %H:%M")
        for e in a.events:
            if e.get("private_to") is not None:
                continue
            line = event_line(snap.row.game, a.seat, e, lang, snap.names)
            mark = f" [{t(f'host.log.{a.undone}', lang)}]" if a.undone else ""
            out.append(f"{stamp}  {line}{mark}")
    result = snap.result()
    if result is not None:
        out += ["", t("host.table.final", lang)]
        out += ranking_text(snap, result, lang).replace("**", "").splitlines()
        revealed = reveal_lines(snap, snap.view(None), lang)
        if revealed:
            out += ["", t("host.table.reveal", lang)]
            out += [line.replace("**", "") for line in revealed]
    return "\n".join(out) + "\n"


def private_panel(
    snap: Snapshot, seat: int, lang: str, *, include_public: bool = False
) -> tuple[discord.Embed, discord.ui.View | None]:
    """The panel for one seat: its private decisions with their buttons."""
    decisions = (
        [d for d in snap.decisions_for(seat) if d.private or include_public]
        if snap.row.status == "active"
        else []
    )
    if any(d.private for d in decisions):  # a private standing option rides along, never alone
        decisions += [d for d in snap.standing_for(seat) if d.private]
    embed = discord.Embed(
        title=t("host.private.title", lang, game=game_name(snap.row.game, lang)),
        colour=COLOUR,
    )
    embed.description = t("host.private.where", lang, channel=f"<#{snap.row.channel_id}>")
    if decisions:
        prompts = ["**" + t(d.prompt, lang, snap.names, **dict(d.args)) + "**" for d in decisions]
        embed.add_field(name=t("host.private.decide", lang), value="\n".join(prompts)[:1024])
        legend = legend_text(snap, decisions, lang)
        if legend:
            embed.add_field(name=t("host.table.legend", lang), value=legend[:1024], inline=False)
    elif snap.row.status == "active":
        embed.add_field(name=t("host.private.decide", lang), value=t("host.private.nothing", lang))
    else:
        embed.add_field(name=t("host.table.status", lang), value=t("host.error.game_over", lang))
    embed.set_image(url="attachment://private.png")
    if not decisions:
        return embed, None
    v = discord.ui.View(timeout=None)
    layouts = [ui.game_panel(snap.game, snap.state, d) for d in decisions]
    add_decisions(v, snap, decisions, lang, last_row=4, layouts=layouts)
    return embed, v


def add_decisions(
    v: ui.Items, snap: Snapshot, decisions: list[Decision], lang: str, **rows: Any
) -> int:
    """:func:`cogs.ui.add_decisions` for ``decisions`` of the game ``snap`` (its id, version,
    tokens, names); ``rows`` says where they go. Returns the next free row."""
    return ui.add_decisions(
        v,
        decisions,
        gid=snap.id,
        ver=snap.row.version,
        tokens=[snap.token(d) for d in decisions],
        lang=lang,
        names=snap.names,
        game_id=snap.row.game,
        **rows,
    )


def panel_mark(snap: Snapshot, seat: int) -> str:
    """What a seat's private panel shows, as a short string: the first private decision's
    token (which question) and a fingerprint of every private decision's options. Same
    token, other options: the panel is edited in place; another token: a new panel."""
    private = [d for d in snap.decisions_for(seat) if d.private]
    if not private:
        return ""
    private += [d for d in snap.standing_for(seat) if d.private]  # shown beside, not alone
    return snap.token(private[0]) + "/" + "".join(d.options_mark() for d in private)


# -- pictures, off the event loop: in the render pool's workers, or in a thread ----------


def _render_table(game_id: str, view: dict[str, Any], names: list[str], lang: str) -> bytes:
    return registry.renderer(game_id).render_table(view, names, lang)


def _render_private(
    game_id: str, view: dict[str, Any], names: list[str], lang: str
) -> bytes | None:
    return registry.renderer(game_id).render_private(view, names, lang)


def describe(game_id: str, kind: str, view: dict[str, Any], names: list[str], lang: str) -> str:
    """The picture's alt text (``kind``: "table" or "private"), built from the view it is
    drawn from (render/words.py); never fails a post: a faulty text is logged and left out.
    (A table's or private picture's text is made with the picture, where it is drawn:
    :func:`host.renderpool.render_described`.)"""
    try:
        return renderpool.describe(kind, game_id, view, names, lang)
    except Exception:
        log.exception("describing the %s picture of %s", kind, game_id)
        return ""


def _words(kind: str, game_id: str, view: dict[str, Any], names: list[str], lang: str) -> str:
    """:func:`describe` (looked up when called) for a picture drawn in-process."""
    return describe(game_id, kind, view, names, lang)


async def table_file(snap: Snapshot, lang: str) -> discord.File:
    return await table_file_of(snap, snap.view(None), lang)


async def table_file_of(
    snap: Snapshot, view: dict[str, Any], lang: str, filename: str = "table.png"
) -> discord.File:
    """The table drawn from a public ``view`` of the game (now, or a step of its replay),
    with its description."""
    return picture_file(await table_picture(snap.row.game, view, snap.names, lang), filename)


async def table_picture(
    game_id: str, view: dict[str, Any], names: list[str], lang: str
) -> tuple[bytes, str]:
    """A table's PNG drawn from a public ``view``, and its alt text ("" for none)."""
    data, text = await renderpool.render_described(
        _render_table, "table", game_id, view, names, lang, _words
    )
    assert data is not None  # every game draws a table
    return data, text


def picture_file(picture: tuple[bytes, str], filename: str = "table.png") -> discord.File:
    """A drawn picture and its alt text as a file to attach (each send consumes its own)."""
    data, text = picture
    return discord.File(io.BytesIO(data), filename=filename, description=text or None)


async def private_file(snap: Snapshot, seat: int, lang: str) -> discord.File | None:
    view = {**snap.view(seat), "seat": seat}
    data, text = await renderpool.render_described(
        _render_private, "private", snap.row.game, view, snap.names, lang, _words
    )
    if data is None:
        return None
    return discord.File(io.BytesIO(data), filename="private.png", description=text or None)
