"""Simulated players for end-to-end tests: they read the table message, and click only
buttons the bot showed them (on the table, in their DMs, or in a "My hand" reply)."""

from __future__ import annotations

import random
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from tests.harness import FakeUser, Harness, Message, Reply
from tests.harness.models import payload_text

MOVE = re.compile(r"^cd:\d+:\d+:[ms]:(\d+):")
MOVE_OPTION = re.compile(r"^cd:\d+:\d+:m:\d+:[0-9a-f]+:(?P<opt>.+)$")
MORE = "~more."
MENTION = re.compile(r"<@(\d+)>")
TO_MOVE = ("To move", "Turno de", "Le toca a")
FINAL = ("Final scores", "Puntuación final")
HAND = ("My hand", "Mi mano")


def is_table(m: Message) -> bool:
    return any(a.name == "table.png" for a in m.attachments)


def tables(h: Harness, channel: int | None = None) -> list[Message]:
    return [m for m in h.messages(channel) if is_table(m)]


def tables_ever(h: Harness, channel: int | None = None) -> list[Message]:
    """Every table message ever posted in the channel, deleted ones too (a table is
    replaced by a new one at the bottom and deleted), oldest first."""
    cid = h.channel_id if channel is None else channel
    found = [Message(h.backend, mid) for mid in h.backend.channel_order[cid]]
    return [m for m in found if is_table(m)]


def pinged_by(payload: Mapping[str, object] | None) -> set[int]:
    """Users a message payload notifies: those mentioned in its content that its
    ``allowed_mentions`` lets ping (no ``allowed_mentions``: the bot's default, users)."""
    if not payload:
        return set()
    ids = {int(x) for x in MENTION.findall(str(payload.get("content") or ""))}
    allowed = payload.get("allowed_mentions")
    if not isinstance(allowed, dict) or "users" in allowed.get("parse", []):
        return ids
    return ids & {int(u) for u in allowed.get("users", [])}


def pings(h: Harness, channel: int | None = None) -> list[tuple[int, set[int]]]:
    """(message id, users pinged) for every message the bot posted in a guild channel (the
    default one, or ``channel``), interaction replies included (not ephemeral ones: those
    notify nobody), in order. Edits never notify, so they do not count."""
    cid = h.channel_id if channel is None else channel
    out: list[tuple[int, set[int]]] = []
    for r in h.requests:
        body = r.json if isinstance(r.json, dict) else None
        if body is None or r.status >= 400:
            continue
        if r.kind == "interaction_callback" and r.channel_id == cid:
            body, mid = (body.get("data") if body.get("type") == 4 else None), r.message_id
        elif r.kind == "channel_message" and r.path.startswith(f"/channels/{cid}/"):
            mid = int(r.response["id"]) if isinstance(r.response, dict) else None
        else:
            continue
        if not body or int(body.get("flags") or 0) & 64:
            continue
        out.append((mid or 0, pinged_by(body)))
    return out


def ping_counts(h: Harness, users: Sequence[FakeUser]) -> dict[str, int]:
    """How many messages pinged each of ``users`` (by name) in the game's channel."""
    counts = {u.name: 0 for u in users}
    for _, who in pings(h):
        for u in users:
            counts[u.name] += u.id in who
    return counts


def latest_table(h: Harness, channel: int | None = None) -> Message:
    found = tables(h, channel)
    assert found, "no table message in the channel"
    return found[-1]


def field(m: Message, names: Iterable[str]) -> str | None:
    for embed in m.embeds:
        for f in embed.get("fields", []):
            if f.get("name") in names:
                return str(f.get("value", ""))
    return None


def is_final(m: Message) -> bool:
    return field(m, FINAL) is not None


def waiting_ids(m: Message) -> list[int]:
    value = field(m, TO_MOVE) or ""
    return [int(x) for x in MENTION.findall(value)]


def move_buttons(m: Message, seat: int | None = None) -> list[str]:
    out = []
    for b in m.buttons:
        match = MOVE.match(b.custom_id or "")
        if match and not b.disabled and (seat is None or int(match[1]) == seat):
            out.append(match.string)
    for s in m.selects:
        match = MOVE.match(s.custom_id or "")
        if match and (seat is None or int(match[1]) == seat):
            out.append(match.string)
    return out


def hand_button(m: Message) -> str:
    for b in m.buttons:
        if b.label in HAND and b.custom_id:
            return b.custom_id
    raise AssertionError(f"no My hand button on {m.text()[:200]}")


async def press(
    h: Harness, user: FakeUser, m: Message, custom_id: str, rng: random.Random
) -> Reply:
    """Click a button, or pick a random option of a select menu."""
    for s in m.selects:
        if s.custom_id == custom_id:
            values = [o["value"] for o in s.options if not o["value"].startswith("~more.")]
            value = rng.choice(values)
            return await h.click(user, m, custom_id, values=[value])
    return await h.click(user, m, custom_id)


@dataclass(frozen=True)
class Offer:
    """One move a player can make on a message: a button, or one entry of a select menu."""

    message: Message
    custom_id: str
    seat: int
    option: str  # the option id the click sends
    label: str
    value: str | None = None  # select menus: the value to pick

    @property
    def private(self) -> bool:
        """Shown in a DM or an ephemeral reply, not on the channel's table."""
        return self.message.guild_id is None or self.message.ephemeral


def offers(m: Message, seat: int | None = None) -> list[Offer]:
    """Every move ``m`` shows (for ``seat`` only, if given): enabled move buttons and each
    entry of the move select menus ("more options" entries left out)."""
    out = []
    for b in m.buttons:
        match = MOVE.match(b.custom_id or "")
        opt = MOVE_OPTION.match(b.custom_id or "")
        if match and opt and not b.disabled and (seat is None or int(match[1]) == seat):
            out.append(Offer(m, match.string, int(match[1]), opt["opt"], b.label or ""))
    for sel in m.selects:
        match = MOVE.match(sel.custom_id or "")
        if not match or sel.disabled or (seat is not None and int(match[1]) != seat):
            continue
        for o in sel.options:
            value, label = str(o["value"]), str(o.get("label", ""))
            if not value.startswith(MORE):
                out.append(Offer(m, sel.custom_id, int(match[1]), value, label, value))
    return out


async def press_offer(h: Harness, user: FakeUser, offer: Offer) -> Reply:
    values = None if offer.value is None else [offer.value]
    return await h.click(user, offer.message, offer.custom_id, values=values)


#: Picks one of the offers a waiting player sees (``choose(user, seat, offers, rng)``).
Chooser = Callable[[FakeUser, int, Sequence[Offer], random.Random], Awaitable[Offer]]


async def panel_of(
    h: Harness, user: FakeUser, table: Message, closed: set[FakeUser] | frozenset[FakeUser]
) -> Message:
    """Where ``user`` finds their private buttons: a fresh "My hand" reply when their DMs
    are closed, else the last DM that has move buttons."""
    if user in closed:
        opened = await h.click(user, table, hand_button(table))
        assert opened.ephemeral
        return opened.posted
    panels = [m for m in h.dm_messages(user) if move_buttons(m)]
    assert panels, f"{user.name} is waited for but has no buttons anywhere"
    return panels[-1]


def refused(reply: Reply) -> bool:
    """Did the bot answer this click with an ephemeral sentence (a refusal)?"""
    return any(f.ephemeral for f in reply.followups) or (reply.type == 4 and reply.ephemeral)


async def play_turn(
    h: Harness,
    seats: Mapping[FakeUser, int],
    rng: random.Random,
    *,
    closed: set[FakeUser] = frozenset(),  # type: ignore[assignment]
    channel: int | None = None,
    choose: Chooser | None = None,
) -> Reply | None:
    """One click by one waiting player. Returns None when the game is over.

    Without ``choose`` the player clicks a random move button (a random entry of a select
    menu); with it, ``choose`` picks among the :class:`Offer` the player sees: the table's
    moves for their seat, else the moves of their private panel (DM or "My hand")."""
    table = latest_table(h, channel)
    if is_final(table):
        return None
    ids = waiting_ids(table)
    waiting = [u for u in seats if u.id in ids]
    assert waiting, f"the table waits for nobody we know: {table.text()[:300]}"
    user = rng.choice(waiting)
    seat = seats[user]
    if choose is not None:
        pool = offers(table, seat) or offers(await panel_of(h, user, table, closed), seat)
        assert pool, f"{user.name} is waited for but has no moves to click"
        reply = await press_offer(h, user, await choose(user, seat, pool, rng))
        assert not refused(reply), f"a legal-looking click was refused: {reply.text()}"
        return reply
    public = move_buttons(table, seat)
    if public:
        reply = await press(h, user, table, rng.choice(public), rng)
    else:
        panel = await panel_of(h, user, table, closed)
        reply = await press(h, user, panel, rng.choice(move_buttons(panel)), rng)
    assert not refused(reply), f"a legal-looking click was refused: {reply.text()}"
    return reply


async def play_to_end(
    h: Harness,
    seats: Mapping[FakeUser, int],
    rng: random.Random,
    *,
    closed: set[FakeUser] = frozenset(),  # type: ignore[assignment]
    channel: int | None = None,
    max_clicks: int = 5000,
    choose: Chooser | None = None,
) -> Message:
    for _ in range(max_clicks):
        turn = await play_turn(h, seats, rng, closed=closed, channel=channel, choose=choose)
        if turn is None:
            return latest_table(h, channel)
    raise AssertionError("the game did not end")


def private_texts(h: Harness, users: Iterable[FakeUser]) -> list[str]:
    """Every line shown privately (DMs and ephemeral replies) to these users."""
    lines: list[str] = []
    for u in users:
        for m in [*h.dm_messages(u), *h.ephemeral_to(u)]:
            for version in m.versions:  # panels are edited: read every version
                lines.extend(line.strip("*• ") for line in payload_text(version, []))
    return [line for line in lines if line]
