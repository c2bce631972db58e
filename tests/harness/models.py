"""The objects tests look at: users, messages as "Discord" stores them, replies, requests."""

from __future__ import annotations

import copy
import datetime
import marshal
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from .backend import FakeDiscord

__all__ = [
    "Attachment",
    "Button",
    "FakeUser",
    "HarnessError",
    "Message",
    "Reply",
    "Request",
    "Select",
    "StoredMessage",
    "UploadedFile",
    "component_text",
    "data_copy",
    "embed_text",
    "flatten_buttons",
    "flatten_selects",
]

DISCORD_EPOCH = 1420070400000

# Component types (https://discord.com/developers/docs/components/reference)
ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT = 5, 6, 7, 8
SELECT_TYPES = (STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT)


T = TypeVar("T")


def data_copy(data: T) -> T:
    """A deep copy of JSON-like ``data`` (dicts, lists, tuples, strings, numbers, bytes,
    None: what Discord's payloads are made of), about ten times cheaper than
    :func:`copy.deepcopy` by a round trip through :mod:`marshal`; anything else (an object
    marshal does not know, a subclass of a builtin) is copied by :func:`copy.deepcopy`."""
    try:
        copied: T = marshal.loads(marshal.dumps(data))  # type: ignore[arg-type]
    except ValueError:
        return copy.deepcopy(data)
    return copied


EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15


class HarnessError(AssertionError):
    """The test asked for something a Discord user could not do, or the bot misbehaved."""


def snowflake_time(snowflake: int) -> datetime.datetime:
    ms = (snowflake >> 22) + DISCORD_EPOCH
    return datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC)


@dataclass(eq=False)
class FakeUser:
    """A Discord user who is a member of the harness guild (unless ``bot``)."""

    id: int
    name: str
    locale: str = "en-US"
    admin: bool = False
    bot: bool = False

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FakeUser):
            return other.id == self.id
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.id)

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.name.lower().replace(" ", "_"),
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }
        if self.bot:
            data["bot"] = True
        return data


Bytes = bytes | memoryview


class _LazyBytes:
    """A dataclass field holding bytes, which may be given a memoryview (a part of a
    request's body): copied into bytes the first time it is read, once. The offline Discord
    itself reads only lengths and headers (:attr:`UploadedFile.raw`), so a picture no test
    looks at is never copied out of the body it came in."""

    def __init__(self, slot: str) -> None:
        self.slot = slot

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.slot]
        if not isinstance(value, bytes):
            value = obj.__dict__[self.slot] = bytes(value)
        return value

    def __set__(self, obj: Any, value: Bytes) -> None:
        obj.__dict__[self.slot] = value


@dataclass
class UploadedFile:
    """A file part of a multipart request, as the bot sent it."""

    field: str
    filename: str
    data: bytes  # (bytes or a memoryview given; read as bytes: see _LazyBytes)
    content_type: str

    @property
    def name(self) -> str:
        return self.filename

    @property
    def size(self) -> int:
        return len(self.raw)

    @property
    def raw(self) -> Bytes:
        """The bytes as they were given (no copy)."""
        value: Bytes = self.__dict__["_data"]
        return value


@dataclass
class Attachment:
    """An attachment of a stored message (the bytes are what the bot uploaded)."""

    id: int
    name: str
    data: bytes  # (bytes or a memoryview given; read as bytes: see _LazyBytes)
    content_type: str
    url: str
    description: str | None = None

    @property
    def filename(self) -> str:
        return self.name

    @property
    def raw(self) -> Bytes:
        """The bytes as they were given (no copy)."""
        value: Bytes = self.__dict__["_data"]
        return value

    @property
    def size(self) -> int:
        return len(self.raw)

    @property
    def is_image(self) -> bool:
        return self.content_type.startswith("image/")


# Installed once the dataclasses are made (their __init__ and __eq__ go through them).
for _cls in (UploadedFile, Attachment):
    setattr(_cls, "data", _LazyBytes("_data"))  # noqa: B010


@dataclass
class Button:
    label: str | None
    custom_id: str | None
    style: int
    disabled: bool
    emoji: str | None
    url: str | None
    raw: dict[str, Any] = field(repr=False)


@dataclass
class Select:
    type: int
    custom_id: str
    placeholder: str | None
    options: list[dict[str, Any]]
    min_values: int
    max_values: int
    disabled: bool
    raw: dict[str, Any] = field(repr=False)

    @property
    def labels(self) -> list[str]:
        return [o.get("label", "") for o in self.options]


@dataclass
class Request:
    """One HTTP request the bot made, with the answer "Discord" gave."""

    method: str
    path: str
    kind: str
    json: Any
    files: list[UploadedFile]
    params: dict[str, str]
    status: int = 0
    response: Any = None
    reason: str | None = None
    channel_id: int | None = None
    message_id: int | None = None
    interaction_id: int | None = None

    def __repr__(self) -> str:
        return f"<Request {self.method} {self.path} kind={self.kind} status={self.status}>"


@dataclass
class StoredMessage:
    """A message as "Discord" keeps it. ``payload`` is the current Discord message object."""

    id: int
    channel_id: int
    guild_id: int | None
    payload: dict[str, Any]
    attachments: list[Attachment]
    ephemeral: bool = False
    interaction_id: int | None = None
    interaction_user_id: int | None = None
    deleted: bool = False
    #: Every version shown so far (the first is the creation), attachments included.
    versions: list[tuple[dict[str, Any], list[Attachment]]] = field(default_factory=list)


# -- reading payloads -----------------------------------------------------------------------


def _walk_components(components: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component, nested ones after their parent (depth first, in order): into a
    list, several times cheaper than nested generators (the harness reads every message's
    components a few times over)."""
    out: list[dict[str, Any]] = []
    _walk_into(components, out)
    return out


def _walk_into(components: Iterable[dict[str, Any]], out: list[dict[str, Any]]) -> None:
    for comp in components or ():
        if not isinstance(comp, dict):
            continue
        out.append(comp)
        for key in ("components", "items"):
            inner = comp.get(key)
            if isinstance(inner, list):
                _walk_into(inner, out)
        for key in ("accessory", "component"):
            inner = comp.get(key)
            if isinstance(inner, dict):
                _walk_into([inner], out)


def _emoji_text(emoji: Any) -> str | None:
    if not emoji:
        return None
    if isinstance(emoji, str):
        return emoji
    if emoji.get("id"):
        prefix = "a" if emoji.get("animated") else ""
        return f"<{prefix}:{emoji.get('name')}:{emoji['id']}>"
    return emoji.get("name")


def flatten_buttons(components: Iterable[dict[str, Any]]) -> list[Button]:
    return [
        Button(
            label=c.get("label"),
            custom_id=c.get("custom_id"),
            style=int(c.get("style", 1)),
            disabled=bool(c.get("disabled", False)),
            emoji=_emoji_text(c.get("emoji")),
            url=c.get("url"),
            raw=c,
        )
        for c in _walk_components(components)
        if c.get("type") == BUTTON
    ]


def flatten_selects(components: Iterable[dict[str, Any]]) -> list[Select]:
    return [
        Select(
            type=int(c["type"]),
            custom_id=c.get("custom_id", ""),
            placeholder=c.get("placeholder"),
            options=list(c.get("options") or []),
            min_values=int(c.get("min_values", 1)),
            max_values=int(c.get("max_values", 1)),
            disabled=bool(c.get("disabled", False)),
            raw=c,
        )
        for c in _walk_components(components)
        if c.get("type") in SELECT_TYPES
    ]


def component_text(components: Iterable[dict[str, Any]]) -> list[str]:
    """Every piece of text a user sees in these components (labels, placeholders, text
    displays, option labels and descriptions, media descriptions)."""
    out: list[str] = []
    for comp in _walk_components(components):
        for key in ("label", "placeholder", "content", "description", "title"):
            value = comp.get(key)
            if isinstance(value, str) and value:
                out.append(value)
        for option in comp.get("options") or ():
            for key in ("label", "description"):
                value = option.get(key)
                if isinstance(value, str) and value:
                    out.append(value)
        for item in comp.get("items") or ():
            if isinstance(item, dict) and isinstance(item.get("description"), str):
                out.append(item["description"])
    return out


def embed_text(embed: dict[str, Any]) -> list[str]:
    """Every piece of text a user sees in an embed."""
    out: list[str] = []
    for key in ("title", "description"):
        if embed.get(key):
            out.append(str(embed[key]))
    for f in embed.get("fields") or ():
        out.extend(str(f[k]) for k in ("name", "value") if f.get(k))
    for key, sub in (("footer", "text"), ("author", "name"), ("provider", "name")):
        part = embed.get(key) or {}
        if part.get(sub):
            out.append(str(part[sub]))
    return out


def payload_text(payload: dict[str, Any], attachments: Iterable[Attachment] = ()) -> list[str]:
    out: list[str] = []
    if payload.get("content"):
        out.append(payload["content"])
    for embed in payload.get("embeds") or ():
        out.extend(embed_text(embed))
    out.extend(component_text(payload.get("components") or ()))
    out.extend(a.name for a in attachments)
    out.extend(a.description for a in attachments if a.description)  # alt text is read too
    return out


class Message:
    """A live view of a stored message: attributes always show the current version."""

    def __init__(self, backend: FakeDiscord, message_id: int) -> None:
        self._backend = backend
        self.id = message_id

    @property
    def stored(self) -> StoredMessage:
        return self._backend.stored_messages[self.id]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Message):
            return other.id == self.id
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.id)

    def __repr__(self) -> str:
        s = self.stored
        flags = " ephemeral" if s.ephemeral else ""
        flags += " deleted" if s.deleted else ""
        return f"<Message id={self.id} channel={s.channel_id}{flags} content={self.content!r}>"

    @property
    def raw(self) -> dict[str, Any]:
        """The Discord message object as it now stands."""
        return self.stored.payload

    @property
    def channel_id(self) -> int:
        return self.stored.channel_id

    @property
    def guild_id(self) -> int | None:
        return self.stored.guild_id

    @property
    def author_id(self) -> int:
        return int(self.raw["author"]["id"])

    @property
    def author(self) -> FakeUser | None:
        return self._backend.users.get(self.author_id)

    @property
    def author_bot(self) -> bool:
        return bool(self.raw["author"].get("bot", False))

    @property
    def content(self) -> str:
        return self.raw.get("content") or ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.raw.get("embeds") or [])

    @property
    def components(self) -> list[dict[str, Any]]:
        return list(self.raw.get("components") or [])

    @property
    def buttons(self) -> list[Button]:
        return flatten_buttons(self.components)

    @property
    def selects(self) -> list[Select]:
        return flatten_selects(self.components)

    @property
    def attachments(self) -> list[Attachment]:
        return list(self.stored.attachments)

    files = attachments

    @property
    def flags(self) -> int:
        return int(self.raw.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return self.stored.ephemeral

    @property
    def loading(self) -> bool:
        """Still the "Bot is thinking..." placeholder of a deferred interaction."""
        return bool(self.flags & LOADING)

    @property
    def deleted(self) -> bool:
        return self.stored.deleted

    @property
    def edited(self) -> bool:
        return self.raw.get("edited_timestamp") is not None

    @property
    def interaction_id(self) -> int | None:
        return self.stored.interaction_id

    @property
    def interaction_user(self) -> FakeUser | None:
        uid = self.stored.interaction_user_id
        return None if uid is None else self._backend.users.get(uid)

    @property
    def created_at(self) -> datetime.datetime:
        return snowflake_time(self.id)

    @property
    def versions(self) -> list[dict[str, Any]]:
        """Every payload this message has had, oldest first (the last is the current one)."""
        return [v for v, _ in self.stored.versions]

    def text(self) -> str:
        """Content, embed text, component labels and attachment names, one per line."""
        return "\n".join(payload_text(self.raw, self.stored.attachments))

    def button(self, label: str | None = None, *, custom_id: str | None = None) -> Button:
        for b in self.buttons:
            if (label is None or b.label == label) and (
                custom_id is None or b.custom_id == custom_id
            ):
                return b
        raise HarnessError(
            f"no button label={label!r} custom_id={custom_id!r} on {self!r}; "
            f"buttons: {[(b.label, b.custom_id) for b in self.buttons]}"
        )


class Reply:
    """What the bot answered to one interaction.

    ``message`` is the interaction's original message: the response message (type 4/5,
    filled in by a later edit or by the first followup after a thinking defer) or, for
    component updates (type 6/7), the clicked message as it now stands. ``content``,
    ``embeds``, ``buttons``, ``attachments`` and ``ephemeral`` describe that message, except
    after a type 6 that did not edit it but sent followups (then: the first followup) or when
    there is no original (then: the first followup). ``messages`` is original + followups;
    ``files`` gathers every attachment of all of them and ``text()`` all their text.
    """

    def __init__(self, backend: FakeDiscord, interaction_id: int) -> None:
        self._backend = backend
        self.interaction_id = interaction_id

    @property
    def record(self) -> Any:
        return self._backend.interactions[self.interaction_id]

    def __repr__(self) -> str:
        return (
            f"<Reply interaction={self.interaction_id} type={self.type} "
            f"ephemeral={self.ephemeral} content={self.content!r} "
            f"followups={len(self.followups)}>"
        )

    @property
    def type(self) -> int | None:
        """The interaction callback type (4 message, 5 deferred message, 6 deferred update,
        7 update message, 8 autocomplete, 9 modal) or None when the bot never answered."""
        return self.record.response_type

    @property
    def answered(self) -> bool:
        return self.record.response_type is not None

    @property
    def deferred(self) -> bool:
        return self.record.response_type in (5, 6)

    @property
    def message(self) -> Message | None:
        mid = self.record.original_message_id
        return None if mid is None else Message(self._backend, mid)

    @property
    def posted(self) -> Message:
        """:attr:`message`, for a reply that must have one (a typed shortcut)."""
        found = self.message
        if found is None:
            raise HarnessError(f"{self!r} has no message")
        return found

    @property
    def followups(self) -> list[Message]:
        return [Message(self._backend, mid) for mid in self.record.followup_ids]

    @property
    def messages(self) -> list[Message]:
        main = self.message
        return ([main] if main is not None else []) + self.followups

    def _main(self) -> Message | None:
        rec = self.record
        if rec.response_type == 6 and not rec.original_edited and rec.followup_ids:
            # a silent "deferred update" followed by a followup: the followup is the answer
            return Message(self._backend, rec.followup_ids[0])
        msgs = self.messages
        return msgs[0] if msgs else None

    @property
    def content(self) -> str:
        main = self._main()
        return main.content if main else ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        main = self._main()
        return main.embeds if main else []

    @property
    def buttons(self) -> list[Button]:
        main = self._main()
        return main.buttons if main else []

    @property
    def selects(self) -> list[Select]:
        main = self._main()
        return main.selects if main else []

    @property
    def components(self) -> list[dict[str, Any]]:
        main = self._main()
        return main.components if main else []

    @property
    def attachments(self) -> list[Attachment]:
        main = self._main()
        return main.attachments if main else []

    @property
    def files(self) -> list[Attachment]:
        return [a for m in self.messages for a in m.attachments]

    @property
    def ephemeral(self) -> bool:
        main = self._main()
        return bool(main and main.ephemeral)

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        """Autocomplete choices (type 8)."""
        return self.record.choices

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal the bot opened (type 9)."""
        return self.record.modal

    @property
    def requests(self) -> list[Request]:
        return list(self.record.requests)

    def text(self) -> str:
        return "\n".join(m.text() for m in self.messages)
