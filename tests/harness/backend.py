"""An in-memory "Discord": the guild, its channels and members, the messages, the interactions,
and the REST API answering the bot's HTTP requests.

It outlives bot instances (``Harness.restart`` builds a new bot against the same backend), so
it is "Discord's memory": messages posted by an old bot can be clicked in the new one.

A stored message's payload is never changed in place: an edit or a thread makes a new one
(the top-level keys replaced), so the payload and its parts are shared, uncopied, by the
message, its versions, the recorded requests and the answers (HTTP answers leave as JSON
text). What the bot receives as objects is copied: gateway events, interactions.
"""

from __future__ import annotations

import datetime
import email.parser
import email.policy
import functools
import json
import mimetypes
import re
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import parse_qsl, urlsplit

import discord

from .models import (
    ACTION_ROW,
    BUTTON,
    COMPONENTS_V2,
    DISCORD_EPOCH,
    EPHEMERAL,
    LOADING,
    SELECT_TYPES,
    Attachment,
    Bytes,
    FakeUser,
    HarnessError,
    Request,
    StoredMessage,
    UploadedFile,
    _walk_components,
    data_copy,
)

__all__ = ["ApiError", "FakeDiscord", "InteractionRecord"]

CDN_BASE = "https://cdn.discordapp.com"
MEDIA_BASE = "https://media.discordapp.net"
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

GUILD_TEXT, DM, GUILD_CATEGORY = 0, 1, 4
PUBLIC_THREAD, PRIVATE_THREAD, ANNOUNCEMENT_THREAD = 11, 12, 10
THREAD_TYPES = (ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD)

EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    read_message_history=True,
    use_application_commands=True,
    use_external_emojis=True,
    use_external_stickers=True,
    create_instant_invite=True,
    change_nickname=True,
    connect=True,
    speak=True,
    stream=True,
    use_voice_activation=True,
)
ADMIN_PERMISSIONS = discord.Permissions(
    manage_channels=True, manage_guild=True, manage_messages=True, manage_threads=True
)
BOT_PERMISSIONS = discord.Permissions(
    manage_channels=True,
    manage_messages=True,
    manage_threads=True,
    create_private_threads=True,
    mention_everyone=True,
)


class ApiError(Exception):
    """A Discord error answer (``{"code": ..., "message": ...}``) with an HTTP status."""

    def __init__(self, status: int, code: int, message: str, errors: Any = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.body: dict[str, Any] = {"code": code, "message": message}
        if errors:
            self.body["errors"] = errors


def _form_error(problems: list[tuple[str, str, str]]) -> ApiError:
    """50035 Invalid Form Body with Discord's nested ``errors`` object."""
    errors: dict[str, Any] = {}
    for path, code, message in problems:
        node = errors
        for part in path.split("."):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return ApiError(400, 50035, "Invalid Form Body", errors)


def _unknown(what: str, code: int) -> ApiError:
    return ApiError(404, code, f"Unknown {what}")


@dataclass
class InteractionRecord:
    """One interaction the harness fed, and everything the bot answered to it."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    guild_id: int | None
    payload: dict[str, Any]
    command: str | None = None
    custom_id: str | None = None
    message_id: int | None = None
    response_type: int | None = None
    original_message_id: int | None = None
    original_filled: bool = False
    #: The original message was edited as part of this interaction (type 7 / PATCH).
    original_edited: bool = False
    followup_ids: list[int] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    requests: list[Request] = field(default_factory=list)


@dataclass
class Fault:
    method: str
    pattern: re.Pattern[str]
    status: int
    body: Any
    headers: dict[str, str]
    times: int


class Snowflakes:
    """Snowflakes from the wall clock, strictly increasing."""

    def __init__(self) -> None:
        self.last = 0

    def __call__(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH
        value = max(ms << 22, self.last + 1)
        self.last = value
        return value


def _iso(snowflake: int) -> str:
    """``snowflake_time(snowflake).isoformat()``, the second's part made once."""
    seconds, ms = divmod((snowflake >> 22) + DISCORD_EPOCH, 1000)
    whole = _iso_second(seconds)
    return f"{whole[:19]}.{ms:03d}000{whole[19:]}" if ms else whole


@functools.lru_cache(maxsize=256)
def _guess_type(filename: str) -> str | None:
    """``mimetypes.guess_type(filename)[0]``, once a name (a bot sends a few names)."""
    return mimetypes.guess_type(filename)[0]


@functools.lru_cache(maxsize=256)
def _iso_second(seconds: int) -> str:
    return datetime.datetime.fromtimestamp(seconds, tz=datetime.UTC).isoformat()


def _png_size(data: Bytes) -> tuple[int, int] | None:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    return None


# -- request bodies -------------------------------------------------------------------------


async def decode_body(data: Any, json_kw: Any) -> tuple[Any, list[UploadedFile]]:
    """The JSON payload and the files of a request as aiohttp would have sent it."""
    if json_kw is not None:
        return data_copy(json_kw), []  # (the caller's object: stored parts are shared)
    if data is None:
        return None, []
    if isinstance(data, str | bytes | bytearray):
        text = data.decode() if isinstance(data, bytes | bytearray) else data
        try:
            return json.loads(text), []
        except ValueError:
            return text, []
    if hasattr(data, "add_field"):  # aiohttp.FormData: serialise it for real, then parse
        writer = data()
        body = await writer.as_bytes()
        if not writer.content_type.startswith("multipart/"):
            return dict(parse_qsl(body.decode())), []
        sizes = [None if enc or te else part.size for part, enc, te in writer]
        return _parse_multipart(writer.content_type, body, sizes)
    raise HarnessError(f"the harness cannot decode a request body of type {type(data)!r}")


_PARAM = re.compile(r';\s*(name|filename)="([^"\\]*)"')


def _split_multipart(
    content_type: str, body: bytes, sizes: list[int | None] | None = None
) -> list[tuple[dict[str, str], Bytes]] | None:
    """The parts of a multipart body as aiohttp writes it (ASCII names, no transfer
    encoding): (headers in lower case, bytes). None for anything else (the email parser
    reads it then). The email parser reads a PNG line by line: tens of ms a picture.

    ``sizes``: each part's length as the writer declared it (its Content-Length): a part's
    end is then read off it, checked to be followed by the next boundary, instead of
    searched for through a picture's bytes. Each part's bytes are a view of ``body`` (a
    picture is copied out of it only if a test reads it: :class:`models.UploadedFile`)."""
    m = re.search(r'boundary="?([^";]+)"?', content_type)
    if m is None:
        return None
    sep = b"--" + m.group(1).encode()
    start = body.find(sep)
    if start < 0:
        return None
    parts: list[tuple[dict[str, str], Bytes]] = []
    view = memoryview(body)
    while True:
        begin = start + len(sep)
        if body.startswith(b"--", begin):  # the closing boundary
            break
        head_end = body.find(b"\r\n\r\n", begin)
        if head_end < 0:
            return None
        size = sizes[len(parts)] if sizes is not None and len(parts) < len(sizes) else None
        if size is not None and body.startswith(sep, head_end + size + 6):
            end = head_end + size + 6
        else:
            end = body.find(sep, begin)
        if end < 0 or end - 2 < head_end + 4 or body[end - 2 : end] != b"\r\n":
            return None
        headers = {}
        for line in body[begin:head_end].decode("ascii", "replace").strip().split("\r\n"):
            key, _, value = line.partition(":")
            headers[key.strip().lower()] = value.strip()
        if "content-transfer-encoding" in headers or "*=" in headers.get(
            "content-disposition", ""
        ):
            return None
        parts.append((headers, view[head_end + 4 : end - 2]))
        start = end
    if not parts:
        return None
    return parts


def _parse_multipart(
    content_type: str, body: bytes, sizes: list[int | None] | None = None
) -> tuple[Any, list[UploadedFile]]:
    fast = _split_multipart(content_type, body, sizes)
    if fast is not None:
        payload: Any = None
        files: list[UploadedFile] = []
        for headers, piece in fast:
            data = cast(bytes, piece)  # (a view: UploadedFile reads it as bytes when asked)
            params = dict(_PARAM.findall(headers.get("content-disposition", "")))
            field, fname = params.get("name", ""), params.get("filename")
            kind = headers.get("content-type", "text/plain").split(";")[0].strip()
            if field == "payload_json":
                payload = json.loads(str(data, "utf-8"))
            elif fname is not None:
                files.append(UploadedFile(field, fname, data, _guess_type(fname) or kind))
            else:
                files.append(UploadedFile(field, field, data, kind))
        return payload, files
    head = f"Content-Type: {content_type}\r\n\r\n".encode()
    msg = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
    payload = None
    files = []
    for part in msg.iter_parts():
        name = str(part.get_param("name", header="content-disposition") or "")
        raw = part.get_payload(decode=True) or b""
        assert isinstance(raw, bytes)
        filename = part.get_filename()
        if name == "payload_json":
            payload = json.loads(raw.decode())
        elif filename is not None:
            guessed = _guess_type(filename)
            files.append(
                UploadedFile(
                    field=name,
                    filename=filename,
                    data=raw,
                    content_type=guessed or part.get_content_type(),
                )
            )
        else:
            files.append(UploadedFile(name, name, raw, part.get_content_type()))
    return payload, files


# -- validation ---------------------------------------------------------------------------


def _check_len(problems: list, path: str, value: Any, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        problems.append((path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."))


def validate_message(body: dict[str, Any], files: list[UploadedFile], *, creating: bool) -> None:
    """Discord's own checks on a message body (the ones a bot realistically trips on)."""
    problems: list[tuple[str, str, str]] = []
    _check_len(problems, "content", body.get("content"), 2000)
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        problems.append(("embeds", "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length."))
    total = 0
    for i, embed in enumerate(embeds):
        # (each path is written only for a problem: most bodies have none)
        title, description = embed.get("title"), embed.get("description")
        footer = (embed.get("footer") or {}).get("text")
        author = (embed.get("author") or {}).get("name")
        for key, value, limit in (
            ("title", title, 256),
            ("description", description, 4096),
            ("footer.text", footer, 2048),
            ("author.name", author, 256),
        ):
            if isinstance(value, str) and len(value) > limit:
                _check_len(problems, f"embeds.{i}.{key}", value, limit)
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems.append((f"embeds.{i}.fields", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer."))
        total += len(title or "") + len(description or "") + len(footer or "") + len(author or "")
        for j, f in enumerate(fields):
            name, value = f.get("name"), f.get("value")
            if not name or not value:
                problems.append(
                    (f"embeds.{i}.fields.{j}", "BASE_TYPE_REQUIRED", "This field is required")
                )
            if isinstance(name, str) and len(name) > 256:
                _check_len(problems, f"embeds.{i}.fields.{j}.name", name, 256)
            if isinstance(value, str) and len(value) > 1024:
                _check_len(problems, f"embeds.{i}.fields.{j}.value", value, 1024)
            total += len(name or "") + len(value or "")
    if total > 6000:
        problems.append(("embeds", "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size"))
    for i, entry in enumerate(body.get("attachments") or []):
        _check_len(
            problems, f"attachments.{i}.description", (entry or {}).get("description"), 1024
        )
    flags = int(body.get("flags") or 0)
    components = body.get("components") or []
    seen: set[str] = set()
    if not flags & COMPONENTS_V2:
        if len(components) > 5:
            problems.append(("components", "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer."))
        for i, row in enumerate(components):
            if row.get("type") != ACTION_ROW:
                problems.append(
                    (f"components.{i}", "UNION_TYPE_CHOICES", "Value of field must be a row")
                )
                continue
            children = row.get("components") or []
            if not 1 <= len(children) <= 5:
                problems.append(
                    (f"components.{i}.components", "BASE_TYPE_BAD_LENGTH", "Must be 1-5.")
                )
            selects = [c for c in children if c.get("type") in SELECT_TYPES]
            if selects and len(children) > 1:
                problems.append(
                    (f"components.{i}", "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "Row is full.")
                )
    for comp in _walk_components(components):
        cid = comp.get("custom_id")
        kind = comp.get("type")
        if cid is not None:
            _check_len(problems, "components.custom_id", cid, 100)
            if cid in seen:
                problems.append(
                    (
                        "components",
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        f"Component custom id cannot be duplicated: {cid}",
                    )
                )
            seen.add(cid)
        if kind == BUTTON:
            _check_len(problems, "components.label", comp.get("label"), 80)
            style = comp.get("style")
            if style == 5:
                if not comp.get("url"):
                    problems.append(("components.url", "BASE_TYPE_REQUIRED", "Link needs url"))
            elif style != 6 and not cid:
                problems.append(("components.custom_id", "BASE_TYPE_REQUIRED", "Required"))
        elif kind in SELECT_TYPES:
            _check_len(problems, "components.placeholder", comp.get("placeholder"), 150)
            options = comp.get("options")
            if kind == 3 and not 1 <= len(options or []) <= 25:
                problems.append(("components.options", "BASE_TYPE_BAD_LENGTH", "Must be 1-25."))
            for opt in options or []:
                _check_len(problems, "components.options.label", opt.get("label"), 100)
                _check_len(problems, "components.options.value", opt.get("value"), 100)
    for f in files:
        if f.size > ATTACHMENT_SIZE_LIMIT:
            raise ApiError(413, 40005, "Request entity too large")
    if problems:
        raise _form_error(problems)
    if creating and not (
        body.get("content")
        or embeds
        or files
        or body.get("sticker_ids")
        or body.get("poll")
        or (flags & COMPONENTS_V2 and components)
    ):
        raise ApiError(400, 50006, "Cannot send an empty message")


# -- the backend ----------------------------------------------------------------------------


RouteHandler = Callable[..., Any]


class FakeDiscord:
    """Discord's side: state and REST API."""

    def __init__(
        self,
        *,
        guild_name: str = "Harness Guild",
        guild_locale: str = "en-US",
        bot_name: str = "Cosmodrome",
        bot_permissions: discord.Permissions | None = None,
        channels: tuple[str, ...] = ("general",),
        guild_id: int | None = None,
    ) -> None:
        self.snowflake = Snowflakes()
        self.app_id = self.snowflake()
        self.bot_user = FakeUser(self.app_id, bot_name, bot=True)
        self.owner = FakeUser(self.snowflake(), "Owner")
        self.guild_id = guild_id if guild_id is not None else self.snowflake()
        self.guild_name = guild_name
        self.guild_locale = guild_locale
        self.admin_role_id = self.snowflake()
        self.bot_role_id = self.snowflake()
        self.bot_permissions = EVERYONE_PERMISSIONS | (bot_permissions or BOT_PERMISSIONS)
        self.users: dict[int, FakeUser] = {self.app_id: self.bot_user, self.owner.id: self.owner}
        self.member_roles: dict[int, list[int]] = {
            self.app_id: [self.bot_role_id],
            self.owner.id: [],
        }
        self.joined_at: dict[int, str] = {uid: _iso(self.guild_id) for uid in self.users}
        self.channels: dict[int, dict[str, Any]] = {}
        self.channel_order: dict[int, list[int]] = {}
        self.dm_by_user: dict[int, int] = {}
        self.stored_messages: dict[int, StoredMessage] = {}
        self.ephemeral_ids: list[int] = []
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.requests: list[Request] = []
        self.unexpected: list[Request] = []
        #: url -> (the bytes, or the attachment holding them, content type)
        self.cdn: dict[str, tuple[bytes | Attachment, str]] = {}
        self.failing_dm_users: set[int] = set()
        self.faults: list[Fault] = []
        #: Channels the bot cannot reach: every request under /channels/{id} gets this error.
        self.lost_channels: dict[int, ApiError] = {}
        self.synced_commands: dict[int | None, list[dict[str, Any]]] = {}
        self.command_ids: dict[tuple[str, int, int | None], int] = {}
        self.created_channel_names: list[str] = []
        #: Where gateway events go (set by the harness); called synchronously.
        self.gateway_sink: Callable[[str, dict[str, Any]], None] | None = None
        #: Whether the sink would deliver an event of this kind, in a guild (True) or not,
        #: to any bot (set by the harness: the bots' intents); an event nobody would get is
        #: not built. None: every event is built and handed to the sink.
        self.gateway_wants: Callable[[str, bool], bool] | None = None
        for name in channels:
            self.add_channel(name)

    # -- ids, users, channels ----------------------------------------------------------

    def add_user(self, name: str, *, locale: str = "en-US", admin: bool = False) -> FakeUser:
        user = FakeUser(self.snowflake(), name, locale=locale, admin=admin)
        self.users[user.id] = user
        self.member_roles[user.id] = [self.admin_role_id] if admin else []
        self.joined_at[user.id] = _iso(user.id)
        return user

    def set_admin(self, user: FakeUser, admin: bool) -> None:
        user.admin = admin
        roles = self.member_roles.setdefault(user.id, [])
        if admin and self.admin_role_id not in roles:
            roles.append(self.admin_role_id)
        elif not admin and self.admin_role_id in roles:
            roles.remove(self.admin_role_id)

    def user_named(self, name: str) -> FakeUser | None:
        for user in self.users.values():
            if user.name == name:
                return user
        return None

    def add_channel(
        self, name: str, *, type: int = GUILD_TEXT, parent_id: int | None = None, **extra: Any
    ) -> dict[str, Any]:
        cid = self.snowflake()
        channel: dict[str, Any] = {
            "id": str(cid),
            "type": type,
            "guild_id": str(self.guild_id),
            "name": name,
            "position": len(self.channels),
            "permission_overwrites": [],
            "parent_id": str(parent_id) if parent_id else None,
            "topic": None,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        channel.update(extra)
        self.channels[cid] = channel
        self.channel_order[cid] = []
        return channel

    def add_thread(
        self, parent_id: int, name: str, *, private: bool = False, thread_id: int | None = None
    ) -> dict[str, Any]:
        if parent_id not in self.channels:
            raise _unknown("Channel", 10003)
        tid = thread_id or self.snowflake()
        thread: dict[str, Any] = {
            "id": str(tid),
            "type": PRIVATE_THREAD if private else PUBLIC_THREAD,
            "guild_id": str(self.guild_id),
            "parent_id": str(parent_id),
            "owner_id": str(self.app_id),
            "name": name,
            "last_message_id": None,
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "rate_limit_per_user": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 10080,
                "archive_timestamp": _iso(tid),
                "locked": False,
                "create_timestamp": _iso(tid),
                "invitable": True,
            },
        }
        self.channels[tid] = thread
        self.channel_order[tid] = []
        return thread

    def dm_channel_id(self, user_id: int) -> int:
        cid = self.dm_by_user.get(user_id)
        if cid is None:
            cid = self.snowflake()
            self.channels[cid] = {
                "id": str(cid),
                "type": DM,
                "last_message_id": None,
                "flags": 0,
                "recipients": [self.users[user_id].payload()],
            }
            self.channel_order[cid] = []
            self.dm_by_user[user_id] = cid
        return cid

    def dm_recipient(self, channel_id: int) -> FakeUser | None:
        for uid, cid in self.dm_by_user.items():
            if cid == channel_id:
                return self.users[uid]
        return None

    def is_guild_channel(self, channel_id: int) -> bool:
        return self.channels.get(channel_id, {}).get("guild_id") is not None

    def command_id(self, name: str, type: int = 1, guild_id: int | None = None) -> int:
        key = (name, type, guild_id)
        if key not in self.command_ids:
            self.command_ids[key] = self.snowflake()
        return self.command_ids[key]

    # -- permissions, members, roles, guild --------------------------------------------------

    def permissions_of(self, user: FakeUser) -> discord.Permissions:
        if user.id == self.owner.id:
            return discord.Permissions.all()
        if user.id == self.app_id:
            return self.bot_permissions
        perms = discord.Permissions(EVERYONE_PERMISSIONS.value)
        if self.admin_role_id in self.member_roles.get(user.id, []):
            perms |= ADMIN_PERMISSIONS
        return perms

    def roles_payload(self) -> list[dict[str, Any]]:
        def role(rid: int, name: str, perms: discord.Permissions, pos: int, **extra: Any) -> dict:
            data = {
                "id": str(rid),
                "name": name,
                "color": 0,
                "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                "hoist": False,
                "icon": None,
                "unicode_emoji": None,
                "position": pos,
                "permissions": str(perms.value),
                "managed": False,
                "mentionable": False,
                "flags": 0,
            }
            data.update(extra)
            return data

        return [
            role(self.guild_id, "@everyone", EVERYONE_PERMISSIONS, 0),
            role(self.admin_role_id, "Admin", ADMIN_PERMISSIONS | EVERYONE_PERMISSIONS, 1),
            role(
                self.bot_role_id,
                self.bot_user.name,
                self.bot_permissions,
                2,
                managed=True,
                tags={"bot_id": str(self.app_id)},
            ),
        ]

    def member_payload(self, user: FakeUser, *, with_user: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r) for r in self.member_roles.get(user.id, [])],
            "joined_at": self.joined_at.get(user.id, _iso(self.guild_id)),
            "deaf": False,
            "mute": False,
            "nick": None,
            "avatar": None,
            "banner": None,
            "flags": 0,
            "pending": False,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = user.payload()
        return data

    def guild_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.guild_id),
            "name": self.guild_name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner.id),
            "preferred_locale": self.guild_locale,
            "features": [],
            "roles": self.roles_payload(),
            "emojis": [],
            "stickers": [],
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "application_id": None,
        }

    def guild_create_payload(self) -> dict[str, Any]:
        data = self.guild_payload()
        members = [self.member_payload(u) for u in self.users.values()]
        channels = []
        threads = []
        for ch in self.channels.values():
            if ch.get("guild_id") is None or ch.get("deleted"):
                continue
            if ch["type"] in THREAD_TYPES:
                if not ch["thread_metadata"]["archived"]:
                    threads.append(data_copy(ch))
            else:
                item = data_copy(ch)
                item.pop("guild_id", None)
                channels.append(item)
        data.update(
            {
                "unavailable": False,
                "joined_at": _iso(self.guild_id),
                "large": False,
                "member_count": len(members),
                "members": members,
                "channels": channels,
                "threads": threads,
                "voice_states": [],
                "presences": [],
                "stage_instances": [],
                "guild_scheduled_events": [],
                "soundboard_sounds": [],
                "embedded_activities": [],
                "lazy": True,
            }
        )
        return data

    def ready_payload(self, shard: tuple[int, int] = (0, 1)) -> dict[str, Any]:
        me = self.bot_user.payload()
        me.update({"verified": True, "mfa_enabled": False, "email": None, "flags": 0})
        return {
            "v": 10,
            "user": me,
            "user_settings": {},
            "guilds": [{"id": str(self.guild_id), "unavailable": True}],
            "session_id": f"harness-session-{self.snowflake()}",
            "session_type": "normal",
            "resume_gateway_url": "wss://gateway.invalid",
            "shard": list(shard),
            "application": {"id": str(self.app_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["harness"],
            "auth": {},
        }

    def application_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.app_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": self.owner.payload(),
            "team": None,
            "flags": 0,
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "approximate_guild_count": 1,
            "bot": self.bot_user.payload(),
            "integration_types_config": {"0": {}},
        }

    def channel_payload(self, channel_id: int) -> dict[str, Any]:
        ch = self.channels.get(channel_id)
        if ch is None or ch.get("deleted"):
            raise _unknown("Channel", 10003)
        return {k: v for k, v in ch.items() if k != "deleted"}

    # -- gateway -------------------------------------------------------------------------

    def emit(self, event: str, data: dict[str, Any], *, fresh: bool = False) -> None:
        """Send a gateway event: a copy of ``data``, or ``data`` itself when it is ``fresh``
        (built for this event alone, e.g. by :meth:`_gateway_message`)."""
        if self.gateway_sink is not None and self.delivered(event, bool(data.get("guild_id"))):
            self.gateway_sink(event, data if fresh else data_copy(data))

    def delivered(self, event: str, in_guild: bool) -> bool:
        """Whether a gateway event of this kind would reach a bot (see ``gateway_wants``)."""
        if self.gateway_sink is None:
            return False
        wants = self.gateway_wants
        return wants is None or wants(event, in_guild)

    def _gateway_message(self, stored: StoredMessage) -> dict[str, Any]:
        data = data_copy(stored.payload)
        if stored.guild_id is not None:
            data["guild_id"] = str(stored.guild_id)
            author = self.users.get(int(data["author"]["id"]))
            if author is not None and not data.get("webhook_id"):
                data["member"] = self.member_payload(author, with_user=False)
        return data

    # -- messages --------------------------------------------------------------------------

    def _build_attachments(
        self,
        channel_id: int,
        body: dict[str, Any],
        files: list[UploadedFile],
        existing: list[Attachment],
    ) -> list[Attachment]:
        by_field = {f.field: f for f in files}
        used: set[str] = set()
        result: list[Attachment] = []

        def upload(upload: UploadedFile, entry: dict[str, Any]) -> Attachment:
            aid = self.snowflake()
            name = entry.get("filename") or upload.filename
            url = f"{CDN_BASE}/attachments/{channel_id}/{aid}/{name}"
            content_type = _guess_type(name) or upload.content_type
            att = Attachment(
                id=aid,
                name=name,
                data=cast(bytes, upload.raw),  # (copied out of the request's body if read)
                content_type=content_type,
                url=url,
                description=entry.get("description"),
            )
            self.cdn[url] = (att, content_type)
            return att

        entries = body.get("attachments")
        if entries is None:
            result.extend(existing)
        else:
            keep = {a.id: a for a in existing}
            for entry in entries:
                raw_id = str(entry.get("id"))
                key = f"files[{raw_id}]"
                if key in by_field:
                    result.append(upload(by_field[key], entry))
                    used.add(key)
                elif raw_id.isdigit() and int(raw_id) in keep:
                    result.append(keep[int(raw_id)])
                else:
                    raise _form_error(
                        [("attachments", "ATTACHMENT_NOT_FOUND", f"Unknown attachment {raw_id}")]
                    )
        for f in files:
            if f.field not in used and f.field.startswith("file"):
                result.append(upload(f, {}))
        if len(result) > 10:
            raise _form_error([("attachments", "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer.")])
        return result

    @staticmethod
    def _attachment_payload(a: Attachment) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(a.id),
            "filename": a.name,
            "size": a.size,
            "url": a.url,
            "proxy_url": a.url.replace(CDN_BASE, MEDIA_BASE),
            "content_type": a.content_type,
        }
        if a.description:
            data["description"] = a.description
        size = _png_size(a.raw)
        if size:
            data["width"], data["height"] = size
        return data

    @staticmethod
    def _resolve_embeds(embeds: list[dict[str, Any]], atts: list[Attachment]) -> list[dict]:
        by_name = {a.name: a for a in atts}
        out = []
        for embed in embeds:
            # A stored payload is never changed in place (its parts are shared with the
            # request's record and older versions): the dicts filled in here are new ones.
            embed = dict(embed)
            embed.setdefault("type", "rich")
            for key, sub in (("image", "url"), ("thumbnail", "url"), ("footer", "icon_url")):
                part = embed.get(key)
                if isinstance(part, dict) and str(part.get(sub, "")).startswith("attachment://"):
                    att = by_name.get(part[sub][len("attachment://") :])
                    if att is not None:
                        part = embed[key] = dict(part)
                        part[sub] = att.url
                        part["proxy_url" if sub == "url" else "proxy_icon_url"] = att.url.replace(
                            CDN_BASE, MEDIA_BASE
                        )
                        size = _png_size(att.raw)
                        if size and sub == "url":
                            part["width"], part["height"] = size
            out.append(embed)
        return out

    def _mentions(self, content: str) -> list[dict[str, Any]]:
        out = []
        for raw in dict.fromkeys(re.findall(r"<@!?(\d+)>", content or "")):
            user = self.users.get(int(raw))
            if user is not None:
                out.append(user.payload())
        return out

    def create_message(
        self,
        channel_id: int,
        body: dict[str, Any],
        files: list[UploadedFile] | None = None,
        *,
        author: FakeUser | None = None,
        ephemeral: bool = False,
        interaction: InteractionRecord | None = None,
        msg_type: int = 0,
        extra_flags: int = 0,
        validate: bool = True,
    ) -> StoredMessage:
        files = files or []
        if channel_id not in self.channels or self.channels[channel_id].get("deleted"):
            raise _unknown("Channel", 10003)
        if validate:
            validate_message(body, files, creating=True)
        author = author or self.bot_user
        mid = self.snowflake()
        attachments = self._build_attachments(channel_id, body, files, [])
        flags = (int(body.get("flags") or 0) | extra_flags) & ~EPHEMERAL
        if ephemeral:
            flags |= EPHEMERAL
        payload: dict[str, Any] = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "author": author.payload(),
            "content": body.get("content") or "",
            "timestamp": _iso(mid),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": self._mentions(body.get("content") or ""),
            "mention_roles": [],
            "mention_channels": [],
            "attachments": [self._attachment_payload(a) for a in attachments],
            "embeds": self._resolve_embeds(body.get("embeds") or [], attachments),
            "reactions": [],
            "pinned": False,
            "type": msg_type,
            "flags": flags,
            "components": body.get("components") or [],
        }
        if body.get("poll"):
            payload["poll"] = body["poll"]
        ref = body.get("message_reference")
        if ref and ref.get("message_id"):
            target = self.stored_messages.get(int(ref["message_id"]))
            if target is None and ref.get("fail_if_not_exists", True):
                raise _form_error([("message_reference", "REPLIES_UNKNOWN_MESSAGE", "Unknown")])
            payload["message_reference"] = {
                "type": 0,
                "message_id": str(ref["message_id"]),
                "channel_id": str(ref.get("channel_id") or channel_id),
            }
            if target is not None:
                payload["referenced_message"] = target.payload
            if msg_type == 0:
                payload["type"] = 19
        if interaction is not None:
            payload.update(self._interaction_fields(interaction))
        stored = StoredMessage(
            id=mid,
            channel_id=channel_id,
            guild_id=self.guild_id if self.is_guild_channel(channel_id) else None,
            payload=payload,
            attachments=attachments,
            ephemeral=ephemeral,
            interaction_id=interaction.id if interaction else None,
            interaction_user_id=interaction.user.id if interaction else None,
        )
        stored.versions.append((payload, list(attachments)))
        self.stored_messages[mid] = stored
        if ephemeral:
            self.ephemeral_ids.append(mid)
        else:
            self.channel_order[channel_id].append(mid)
            self.channels[channel_id]["last_message_id"] = str(mid)
            if self.delivered("MESSAGE_CREATE", stored.guild_id is not None):
                self.emit("MESSAGE_CREATE", self._gateway_message(stored), fresh=True)
        return stored

    def edit_message(
        self,
        stored: StoredMessage,
        body: dict[str, Any],
        files: list[UploadedFile] | None = None,
    ) -> StoredMessage:
        files = files or []
        if stored.deleted:
            raise _unknown("Message", 10008)
        validate_message(body, files, creating=False)
        payload = dict(stored.payload)  # (only its top-level keys are replaced below)
        if "content" in body:
            payload["content"] = body["content"] or ""
            payload["mentions"] = self._mentions(payload["content"])
        if "components" in body:
            payload["components"] = body["components"] or []
        attachments = stored.attachments
        if "attachments" in body or files:
            attachments = self._build_attachments(stored.channel_id, body, files, attachments)
            payload["attachments"] = [self._attachment_payload(a) for a in attachments]
        if "embeds" in body:
            payload["embeds"] = self._resolve_embeds(body["embeds"] or [], attachments)
        flags = int(payload.get("flags") or 0) & ~LOADING
        if body.get("flags") is not None:
            keep = EPHEMERAL | COMPONENTS_V2
            flags = (flags & keep) | (int(body["flags"]) & ~(EPHEMERAL | LOADING))
        payload["flags"] = flags
        if not (
            payload["content"]
            or payload["embeds"]
            or attachments
            or payload.get("poll")
            or (flags & COMPONENTS_V2 and payload["components"])
        ):
            raise ApiError(400, 50006, "Cannot send an empty message")
        payload["edited_timestamp"] = _iso(self.snowflake())
        stored.payload = payload
        stored.attachments = attachments
        stored.versions.append((payload, list(attachments)))
        if not stored.ephemeral and self.delivered("MESSAGE_UPDATE", stored.guild_id is not None):
            self.emit("MESSAGE_UPDATE", self._gateway_message(stored), fresh=True)
        return stored

    def delete_message(self, stored: StoredMessage) -> None:
        if stored.deleted:
            raise _unknown("Message", 10008)
        stored.deleted = True
        if not stored.ephemeral:
            data: dict[str, Any] = {"id": str(stored.id), "channel_id": str(stored.channel_id)}
            if stored.guild_id is not None:
                data["guild_id"] = str(stored.guild_id)
            self.emit("MESSAGE_DELETE", data, fresh=True)

    def public_message(self, channel_id: int, message_id: int) -> StoredMessage:
        stored = self.stored_messages.get(message_id)
        if stored is None or stored.deleted or stored.ephemeral or stored.channel_id != channel_id:
            raise _unknown("Message", 10008)
        return stored

    # -- interactions ---------------------------------------------------------------------

    def _interaction_fields(self, rec: InteractionRecord) -> dict[str, Any]:
        owners = {"0": str(rec.guild_id) if rec.guild_id else "0"}
        meta: dict[str, Any] = {
            "id": str(rec.id),
            "type": rec.type,
            "user": rec.user.payload(),
            "authorizing_integration_owners": owners,
        }
        fields: dict[str, Any] = {
            "webhook_id": str(self.app_id),
            "application_id": str(self.app_id),
            "interaction_metadata": meta,
        }
        if rec.type == 2:
            meta["name"] = rec.command
            meta["command_type"] = rec.payload["data"].get("type", 1)
            fields["interaction"] = {
                "id": str(rec.id),
                "type": rec.type,
                "name": rec.command,
                "user": rec.user.payload(),
            }
        if rec.message_id is not None:
            meta["interacted_message_id"] = str(rec.message_id)
        return fields

    def new_interaction(
        self,
        *,
        type: int,
        user: FakeUser,
        channel_id: int,
        data: dict[str, Any],
        locale: str | None = None,
        message: StoredMessage | None = None,
        command: str | None = None,
    ) -> InteractionRecord:
        if channel_id not in self.channels:
            raise HarnessError(f"unknown channel {channel_id}")
        iid = self.snowflake()
        token = f"harness-interaction-token-{iid}"
        channel = self.channel_payload(channel_id)
        in_guild = channel.get("guild_id") is not None
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.app_id),
            "type": type,
            "data": data,
            "token": token,
            "version": 1,
            "locale": locale or user.locale,
            "app_permissions": str(self.bot_permissions.value),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(self.guild_id) if in_guild else "0"},
            "context": 0 if in_guild else 1,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "channel_id": str(channel_id),
        }
        if in_guild:
            perms = str(self.permissions_of(user).value)
            channel["permissions"] = perms
            member = self.member_payload(user)
            member["permissions"] = perms
            payload.update(
                {
                    "guild_id": str(self.guild_id),
                    "guild": {
                        "id": str(self.guild_id),
                        "locale": self.guild_locale,
                        "features": [],
                    },
                    "guild_locale": self.guild_locale,
                    "member": member,
                }
            )
        else:
            payload["user"] = user.payload()
        payload["channel"] = channel
        if message is not None:
            payload["message"] = data_copy(message.payload)
        rec = InteractionRecord(
            id=iid,
            token=token,
            type=type,
            user=user,
            channel_id=channel_id,
            guild_id=self.guild_id if in_guild else None,
            payload=payload,
            command=command,
            custom_id=data.get("custom_id"),
            message_id=message.id if message is not None else None,
        )
        self.interactions[iid] = rec
        self.interactions_by_token[token] = rec
        return rec

    @staticmethod
    def _response_message_type(rec: InteractionRecord) -> int:
        if rec.type != 2:
            return 0
        return 23 if rec.payload["data"].get("type", 1) in (2, 3) else 20

    def _callback_response(self, rec: InteractionRecord, t: int) -> dict[str, Any]:
        inner: dict[str, Any] = {"id": str(rec.id), "type": rec.type}
        out: dict[str, Any] = {"interaction": inner}
        if t in (4, 5, 7) and rec.original_message_id is not None:
            stored = self.stored_messages[rec.original_message_id]
            inner["response_message_id"] = str(stored.id)
            inner["response_message_loading"] = t == 5
            inner["response_message_ephemeral"] = stored.ephemeral
            out["resource"] = {"type": t, "message": stored.payload}
        return out

    def interaction_callback(
        self,
        rec: InteractionRecord,
        body: dict[str, Any],
        files: list[UploadedFile],
    ) -> None:
        if rec.response_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        t = int(body.get("type", 0))
        data = body.get("data") or {}
        component_like = rec.type in (3, 5) and rec.message_id is not None
        if t == 4 and rec.type in (2, 3, 5):
            stored = self.create_message(
                rec.channel_id,
                data,
                files,
                ephemeral=bool(int(data.get("flags") or 0) & EPHEMERAL),
                interaction=rec,
                msg_type=self._response_message_type(rec),
            )
            rec.original_message_id = stored.id
            rec.original_filled = True
        elif t == 5 and rec.type in (2, 3, 5):
            stored = self.create_message(
                rec.channel_id,
                {"content": ""},
                ephemeral=bool(int(data.get("flags") or 0) & EPHEMERAL),
                interaction=rec,
                msg_type=self._response_message_type(rec),
                extra_flags=LOADING,
                validate=False,
            )
            rec.original_message_id = stored.id
        elif t == 6 and component_like:
            rec.original_message_id = rec.message_id
            rec.original_filled = True
        elif t == 7 and component_like:
            assert rec.message_id is not None
            self.edit_message(self.stored_messages[rec.message_id], data, files)
            rec.original_message_id = rec.message_id
            rec.original_filled = True
            rec.original_edited = True
        elif t == 8 and rec.type == 4:
            rec.choices = list(data.get("choices") or [])
        elif t == 9 and rec.type in (2, 3):
            rec.modal = data_copy(data)
        else:
            raise _form_error(
                [("type", "INTERACTION_RESPONSE_TYPE_INVALID", f"Invalid response type {t}")]
            )
        rec.response_type = t

    def _interaction_for_webhook(self, app_id: int, token: str) -> InteractionRecord:
        rec = self.interactions_by_token.get(token)
        if rec is None or app_id != self.app_id or rec.response_type in (None, 8, 9):
            raise _unknown("Webhook", 10015)
        return rec

    def followup(
        self, rec: InteractionRecord, body: dict[str, Any], files: list[UploadedFile]
    ) -> StoredMessage:
        original = (
            self.stored_messages.get(rec.original_message_id)
            if rec.original_message_id is not None
            else None
        )
        if rec.response_type == 5 and not rec.original_filled and original is not None:
            # The first followup after a "thinking" defer replaces the loading message.
            body = {k: v for k, v in body.items() if k != "flags"}
            self.edit_message(original, body, files)
            rec.original_filled = True
            return original
        stored = self.create_message(
            rec.channel_id,
            body,
            files,
            ephemeral=bool(int(body.get("flags") or 0) & EPHEMERAL),
            interaction=rec,
        )
        rec.followup_ids.append(stored.id)
        return stored

    def webhook_message(self, rec: InteractionRecord, which: str) -> StoredMessage:
        if which == "@original":
            mid = rec.original_message_id
        else:
            mid = int(which)
            if mid != rec.original_message_id and mid not in rec.followup_ids:
                mid = None
        stored = self.stored_messages.get(mid) if mid is not None else None
        if stored is None or stored.deleted:
            raise _unknown("Message", 10008)
        return stored

    # -- commands -------------------------------------------------------------------------

    def sync_commands(self, guild_id: int | None, payload: list[dict[str, Any]]) -> list[dict]:
        out = []
        for cmd in payload:
            cmd = data_copy(cmd)
            ctype = int(cmd.get("type", 1))
            cmd["id"] = str(self.command_id(cmd["name"], ctype, guild_id))
            cmd["application_id"] = str(self.app_id)
            cmd["version"] = str(self.snowflake())
            cmd.setdefault("default_member_permissions", None)
            cmd.setdefault("type", ctype)
            cmd.setdefault("description", "")
            if guild_id is not None:
                cmd["guild_id"] = str(guild_id)
            out.append(cmd)
        self.synced_commands[guild_id] = out
        return data_copy(out)

    # -- faults ----------------------------------------------------------------------------

    def add_fault(
        self,
        method: str,
        pattern: str,
        *,
        status: int,
        body: Any,
        headers: dict[str, str] | None = None,
        times: int = 1,
    ) -> None:
        self.faults.append(
            Fault(method.upper(), re.compile(pattern), status, body, headers or {}, times)
        )

    def _take_fault(self, method: str, path: str) -> Fault | None:
        for fault in self.faults:
            if fault.times > 0 and fault.method in (method, "*") and fault.pattern.search(path):
                fault.times -= 1
                return fault
        return None

    # -- HTTP ------------------------------------------------------------------------------

    async def http(
        self,
        method: str,
        url: str,
        *,
        data: Any = None,
        json_body: Any = None,
        params: Any = None,
        headers: Any = None,
    ) -> tuple[int, Any, dict[str, str], Request]:
        """Answer one request: (status, body (JSON value, bytes or None), headers, record)."""
        method = method.upper()
        parts = urlsplit(str(url))
        query = dict(parse_qsl(parts.query)) if parts.query else {}  # (mostly none: cheaper)
        if params:
            query.update({str(k): str(v) for k, v in dict(params).items()})
        if parts.netloc and not parts.netloc.endswith("discord.com"):
            return self._cdn(method, str(url), query)
        path = _API_PREFIX.sub("", parts.path)
        payload, files = await decode_body(data, json_body)
        reason = (headers or {}).get("X-Audit-Log-Reason")
        req = Request(method, path, "unknown", payload, files, query, reason=reason)
        self.requests.append(req)
        handler, kind, match = self._route(method, path)
        if (
            kind == "channel_message"
            and self.channels.get(int(match["channel"]), {}).get("type") == DM
        ):
            kind = "dm_message"
        req.kind = kind
        fault = self._take_fault(method, path)
        if fault is not None:
            req.status, req.response = fault.status, fault.body
            return fault.status, fault.body, dict(fault.headers), req
        lost = _CHANNEL_PATH.match(path) if self.lost_channels else None
        if lost is not None and int(lost[1]) in self.lost_channels:
            err = self.lost_channels[int(lost[1])]
            req.status, req.response = err.status, err.body
            return err.status, data_copy(err.body), {}, req
        if handler is None:
            self.unexpected.append(req)
            req.status = 404
            req.response = {"message": "404: Not Found", "code": 0}
            return 404, req.response, {}, req
        try:
            result = handler(req, **match)
            status, body = result if isinstance(result, tuple) else (200, result)
        except ApiError as exc:
            status, body = exc.status, exc.body
        req.status, req.response = status, body
        return status, body, {}, req

    def _cdn(self, method: str, url: str, query: dict[str, str]) -> tuple:
        req = Request(method, url, "cdn", None, [], query)
        self.requests.append(req)
        base = url.split("?", 1)[0].replace(MEDIA_BASE, CDN_BASE)
        if method == "GET" and base in self.cdn:
            content, content_type = self.cdn[base]
            if isinstance(content, Attachment):
                content = content.data
            req.status = 200
            return 200, content, {"Content-Type": content_type}, req
        req.status = 404
        self.unexpected.append(req)
        return 404, b"not found", {"Content-Type": "text/plain"}, req

    def _route(self, method: str, path: str) -> tuple[RouteHandler | None, str, dict[str, str]]:
        for pattern, kind, name in _ROUTES_BY_METHOD.get(method, ()):
            found = pattern.fullmatch(path)
            if found:
                return getattr(self, name), kind, found.groupdict()
        return None, "unknown", {}

    # Route handlers: (req, **path params) -> body | (status, body). Raise ApiError.

    def r_me(self, req: Request) -> Any:
        me = self.bot_user.payload()
        me.update({"verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"})
        return me

    def r_application(self, req: Request) -> Any:
        return self.application_payload()

    def r_gateway(self, req: Request) -> Any:
        return {
            "url": "wss://gateway.invalid",
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 1000,
                "reset_after": 0,
                "max_concurrency": 1,
            },
        }

    def _check_app(self, app: str) -> None:
        if int(app) != self.app_id:
            raise _unknown("Application", 10002)

    def r_commands_put(self, req: Request, app: str, guild: str | None = None) -> Any:
        self._check_app(app)
        gid = int(guild) if guild else None
        if gid is not None and gid != self.guild_id:
            raise ApiError(403, 50001, "Missing Access")
        return self.sync_commands(gid, list(req.json or []))

    def r_commands_get(self, req: Request, app: str, guild: str | None = None) -> Any:
        self._check_app(app)
        return data_copy(self.synced_commands.get(int(guild) if guild else None, []))

    def r_command_post(self, req: Request, app: str, guild: str | None = None) -> Any:
        self._check_app(app)
        gid = int(guild) if guild else None
        current = [c for c in self.synced_commands.get(gid, []) if c["name"] != req.json["name"]]
        return self.sync_commands(gid, [*current, req.json])[-1]

    def r_dm_open(self, req: Request) -> Any:
        uid = int((req.json or {}).get("recipient_id", 0))
        if uid not in self.users or uid == self.app_id:
            raise _unknown("User", 10013)
        return self.channel_payload(self.dm_channel_id(uid))

    def r_user_get(self, req: Request, user: str) -> Any:
        found = self.users.get(int(user))
        if found is None:
            raise _unknown("User", 10013)
        return found.payload()

    def r_channel_get(self, req: Request, channel: str) -> Any:
        return self.channel_payload(int(channel))

    def r_channel_patch(self, req: Request, channel: str) -> Any:
        cid = int(channel)
        ch = self.channels.get(cid)
        if ch is None or ch.get("deleted") or ch["type"] == DM:
            raise _unknown("Channel", 10003)
        body = req.json or {}
        for key in ("name", "topic", "nsfw", "rate_limit_per_user", "position", "flags"):
            if key in body:
                ch[key] = body[key]
        if "parent_id" in body:
            ch["parent_id"] = str(body["parent_id"]) if body["parent_id"] else None
        if "permission_overwrites" in body:
            ch["permission_overwrites"] = data_copy(body["permission_overwrites"])
        meta = ch.get("thread_metadata")
        if meta is not None:
            for key in ("archived", "locked", "auto_archive_duration", "invitable"):
                if key in body:
                    meta[key] = body[key]
            if "archived" in body:
                meta["archive_timestamp"] = _iso(self.snowflake())
        if "name" in body:
            self.created_channel_names.append(str(body["name"]))
        event = "THREAD_UPDATE" if ch["type"] in THREAD_TYPES else "CHANNEL_UPDATE"
        self.emit(event, self.channel_payload(cid))
        return self.channel_payload(cid)

    def r_channel_delete(self, req: Request, channel: str) -> Any:
        cid = int(channel)
        data = self.channel_payload(cid)
        if data["type"] == DM:
            return data
        self.channels[cid]["deleted"] = True
        event = "THREAD_DELETE" if data["type"] in THREAD_TYPES else "CHANNEL_DELETE"
        self.emit(event, data)
        return data

    def r_message_post(self, req: Request, channel: str) -> Any:
        cid = int(channel)
        req.channel_id = cid
        ch = self.channels.get(cid)
        if ch is None or ch.get("deleted"):
            raise _unknown("Channel", 10003)
        if ch["type"] == DM:
            recipient = self.dm_recipient(cid)
            if recipient is not None and recipient.id in self.failing_dm_users:
                raise ApiError(403, 50007, "Cannot send messages to this user")
        meta = ch.get("thread_metadata")
        if meta is not None and (meta.get("locked") or meta.get("archived")):
            if meta.get("locked"):
                raise ApiError(403, 50083, "Thread is locked")
            meta["archived"] = False  # sending to an archived thread unarchives it
        stored = self.create_message(cid, req.json or {}, req.files)
        req.message_id = stored.id
        return stored.payload

    def r_history(self, req: Request, channel: str) -> Any:
        cid = int(channel)
        self.channel_payload(cid)
        limit = int(req.params.get("limit", 50))
        ids = [m for m in self.channel_order.get(cid, []) if not self.stored_messages[m].deleted]
        if "before" in req.params:
            ids = [m for m in ids if m < int(req.params["before"])]
        if "after" in req.params:
            ids = [m for m in ids if m > int(req.params["after"])]
            ids = ids[:limit]
        ids = sorted(ids, reverse=True)[:limit]
        return [self.stored_messages[m].payload for m in ids]

    def r_message_get(self, req: Request, channel: str, message: str) -> Any:
        req.channel_id, req.message_id = int(channel), int(message)
        self.channel_payload(int(channel))
        return self.public_message(int(channel), int(message)).payload

    def r_message_patch(self, req: Request, channel: str, message: str) -> Any:
        req.channel_id, req.message_id = int(channel), int(message)
        stored = self.public_message(int(channel), int(message))
        if int(stored.payload["author"]["id"]) != self.app_id:
            body = req.json or {}
            if set(body) - {"flags"}:
                raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        self.edit_message(stored, req.json or {}, req.files)
        return stored.payload

    def r_message_delete(self, req: Request, channel: str, message: str) -> Any:
        req.channel_id, req.message_id = int(channel), int(message)
        self.delete_message(self.public_message(int(channel), int(message)))
        return 204, None

    def r_bulk_delete(self, req: Request, channel: str) -> Any:
        cid = int(channel)
        for mid in (req.json or {}).get("messages", []):
            self.delete_message(self.public_message(cid, int(mid)))
        return 204, None

    def r_no_content(self, req: Request, **ids: str) -> Any:
        if "channel" in ids:
            req.channel_id = int(ids["channel"])
            self.channel_payload(int(ids["channel"]))
        if "message" in ids:
            req.message_id = int(ids["message"])
            self.public_message(int(ids["channel"]), int(ids["message"]))
        return 204, None

    def r_thread_create(self, req: Request, channel: str, message: str | None = None) -> Any:
        parent = int(channel)
        parent_data = self.channel_payload(parent)
        if parent_data["type"] not in (GUILD_TEXT, 5, 15, 16):
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        body = req.json or {}
        if message is not None:
            self.public_message(parent, int(message))
        private = message is None and int(body.get("type", PRIVATE_THREAD)) == PRIVATE_THREAD
        thread = self.add_thread(
            parent,
            str(body.get("name", "thread")),
            private=private,
            thread_id=int(message) if message else None,
        )
        if "auto_archive_duration" in body:
            thread["thread_metadata"]["auto_archive_duration"] = body["auto_archive_duration"]
        if "invitable" in body:
            thread["thread_metadata"]["invitable"] = body["invitable"]
        self.created_channel_names.append(thread["name"])
        if message is not None:
            stored = self.stored_messages[int(message)]
            stored.payload = {**stored.payload, "thread": data_copy(thread)}
        data = self.channel_payload(int(thread["id"]))
        self.emit("THREAD_CREATE", {**data, "newly_created": True})
        return data

    def r_guild_get(self, req: Request, guild: str) -> Any:
        self._check_guild(guild)
        data = self.guild_payload()
        data["approximate_member_count"] = len(self.users)
        return data

    def _check_guild(self, guild: str) -> None:
        if int(guild) != self.guild_id:
            raise _unknown("Guild", 10004)

    def r_guild_channels(self, req: Request, guild: str) -> Any:
        self._check_guild(guild)
        return [
            self.channel_payload(cid)
            for cid, ch in self.channels.items()
            if ch.get("guild_id") and ch["type"] not in THREAD_TYPES and not ch.get("deleted")
        ]

    def r_channel_create(self, req: Request, guild: str) -> Any:
        self._check_guild(guild)
        body = req.json or {}
        extra = {
            k: data_copy(body[k])
            for k in ("topic", "nsfw", "rate_limit_per_user", "permission_overwrites")
            if k in body
        }
        parent = body.get("parent_id")
        ch = self.add_channel(
            str(body.get("name", "channel")),
            type=int(body.get("type", GUILD_TEXT)),
            parent_id=int(parent) if parent else None,
            **extra,
        )
        self.created_channel_names.append(ch["name"])
        data = self.channel_payload(int(ch["id"]))
        self.emit("CHANNEL_CREATE", data)
        return data

    def r_member_get(self, req: Request, guild: str, user: str) -> Any:
        self._check_guild(guild)
        found = self.users.get(int(user))
        if found is None:
            raise _unknown("Member", 10007)
        return self.member_payload(found)

    def r_members(self, req: Request, guild: str) -> Any:
        self._check_guild(guild)
        return [self.member_payload(u) for u in self.users.values()]

    def r_roles(self, req: Request, guild: str) -> Any:
        self._check_guild(guild)
        return self.roles_payload()

    def r_member_role(self, req: Request, guild: str, user: str, role: str) -> Any:
        self._check_guild(guild)
        uid, rid = int(user), int(role)
        if uid not in self.users:
            raise _unknown("Member", 10007)
        roles = self.member_roles.setdefault(uid, [])
        if req.method == "PUT" and rid not in roles:
            roles.append(rid)
        elif req.method == "DELETE" and rid in roles:
            roles.remove(rid)
        return 204, None

    def r_interaction_callback(self, req: Request, interaction: str, token: str) -> Any:
        rec = self.interactions.get(int(interaction))
        req.interaction_id = int(interaction)
        if rec is None or rec.token != token:
            raise ApiError(404, 10062, "Unknown interaction")
        rec.requests.append(req)
        req.channel_id = rec.channel_id
        self.interaction_callback(rec, req.json or {}, req.files)
        req.message_id = rec.original_message_id
        if req.params.get("with_response") in ("1", "true", "True"):
            return 200, self._callback_response(rec, rec.response_type or 0)
        return 204, None

    def r_followup(self, req: Request, app: str, token: str) -> Any:
        rec = self._interaction_for_webhook(int(app), token)
        rec.requests.append(req)
        req.interaction_id, req.channel_id = rec.id, rec.channel_id
        stored = self.followup(rec, req.json or {}, req.files)
        req.message_id = stored.id
        if req.params.get("wait") in ("0", "false", "False"):
            return 204, None
        return stored.payload

    def r_webhook_get(self, req: Request, app: str, token: str, message: str) -> Any:
        rec = self._interaction_for_webhook(int(app), token)
        rec.requests.append(req)
        req.interaction_id = rec.id
        return self.webhook_message(rec, message).payload

    def r_webhook_edit(self, req: Request, app: str, token: str, message: str) -> Any:
        rec = self._interaction_for_webhook(int(app), token)
        rec.requests.append(req)
        stored = self.webhook_message(rec, message)
        req.interaction_id, req.channel_id, req.message_id = rec.id, rec.channel_id, stored.id
        self.edit_message(stored, req.json or {}, req.files)
        if stored.id == rec.original_message_id:
            rec.original_filled = True
            rec.original_edited = True
        return stored.payload

    def r_webhook_delete(self, req: Request, app: str, token: str, message: str) -> Any:
        rec = self._interaction_for_webhook(int(app), token)
        rec.requests.append(req)
        stored = self.webhook_message(rec, message)
        req.interaction_id, req.message_id = rec.id, stored.id
        self.delete_message(stored)
        return 204, None


def _r(method: str, pattern: str, kind: str, handler: str) -> tuple:
    return method, re.compile(pattern), kind, handler


_ID = r"\d+"
_CH = rf"/channels/(?P<channel>{_ID})"
_MSG = rf"{_CH}/messages/(?P<message>{_ID})"
_APP = rf"/applications/(?P<app>{_ID})"
_G = rf"/guilds/(?P<guild>{_ID})"
_WH = rf"/webhooks/(?P<app>{_ID})/(?P<token>[^/]+)"

_ROUTES = [
    _r("GET", r"/users/@me", "login", "r_me"),
    _r("GET", r"/(?:oauth2/)?applications/@me", "application_info", "r_application"),
    _r("GET", r"/gateway(?:/bot)?", "gateway", "r_gateway"),
    _r("PUT", rf"{_APP}(?:/guilds/(?P<guild>{_ID}))?/commands", "commands_sync", "r_commands_put"),
    _r("GET", rf"{_APP}(?:/guilds/(?P<guild>{_ID}))?/commands", "commands_get", "r_commands_get"),
    _r(
        "POST",
        rf"{_APP}(?:/guilds/(?P<guild>{_ID}))?/commands",
        "command_upsert",
        "r_command_post",
    ),
    _r("POST", r"/users/@me/channels", "dm_open", "r_dm_open"),
    _r("GET", rf"/users/(?P<user>{_ID})", "user_get", "r_user_get"),
    _r("GET", _CH, "channel_get", "r_channel_get"),
    _r("PATCH", _CH, "channel_edit", "r_channel_patch"),
    _r("DELETE", _CH, "channel_delete", "r_channel_delete"),
    _r("POST", rf"{_CH}/messages", "channel_message", "r_message_post"),
    _r("GET", rf"{_CH}/messages", "history", "r_history"),
    _r("POST", rf"{_CH}/messages/bulk[-_]delete", "message_bulk_delete", "r_bulk_delete"),
    _r("GET", _MSG, "message_get", "r_message_get"),
    _r("PATCH", _MSG, "message_edit", "r_message_patch"),
    _r("DELETE", _MSG, "message_delete", "r_message_delete"),
    _r("POST", rf"{_MSG}/threads", "thread_create", "r_thread_create"),
    _r("POST", rf"{_CH}/threads", "thread_create", "r_thread_create"),
    _r("POST", rf"{_CH}/typing", "typing", "r_no_content"),
    _r("PUT", rf"{_MSG}/reactions/[^/]+/[^/]+", "reaction", "r_no_content"),
    _r("DELETE", rf"{_MSG}/reactions(?:/.*)?", "reaction", "r_no_content"),
    _r("PUT", rf"{_CH}/(?:messages/)?pins/(?P<message>{_ID})", "pin", "r_no_content"),
    _r("DELETE", rf"{_CH}/(?:messages/)?pins/(?P<message>{_ID})", "pin", "r_no_content"),
    _r("PUT", rf"{_CH}/thread-members/(?:@me|{_ID})", "thread_member", "r_no_content"),
    _r("DELETE", rf"{_CH}/thread-members/(?:@me|{_ID})", "thread_member", "r_no_content"),
    _r("GET", _G, "guild_get", "r_guild_get"),
    _r("GET", rf"{_G}/channels", "guild_channels", "r_guild_channels"),
    _r("POST", rf"{_G}/channels", "channel_create", "r_channel_create"),
    _r("GET", rf"{_G}/members/(?P<user>{_ID})", "member_get", "r_member_get"),
    _r("GET", rf"{_G}/members", "members_list", "r_members"),
    _r("GET", rf"{_G}/roles", "roles_get", "r_roles"),
    _r(
        "PUT",
        rf"{_G}/members/(?P<user>{_ID})/roles/(?P<role>{_ID})",
        "member_role",
        "r_member_role",
    ),
    _r(
        "DELETE",
        rf"{_G}/members/(?P<user>{_ID})/roles/(?P<role>{_ID})",
        "member_role",
        "r_member_role",
    ),
    _r(
        "POST",
        rf"/interactions/(?P<interaction>{_ID})/(?P<token>[^/]+)/callback",
        "interaction_callback",
        "r_interaction_callback",
    ),
    _r("POST", _WH, "followup", "r_followup"),
    _r("GET", rf"{_WH}/messages/(?P<message>@original|{_ID})", "webhook_get", "r_webhook_get"),
    _r("PATCH", rf"{_WH}/messages/(?P<message>@original|{_ID})", "webhook_edit", "r_webhook_edit"),
    _r(
        "DELETE",
        rf"{_WH}/messages/(?P<message>@original|{_ID})",
        "webhook_delete",
        "r_webhook_delete",
    ),
]

#: The routes of each method, in order.
_ROUTES_BY_METHOD: dict[str, list[tuple[re.Pattern[str], str, str]]] = {}
for _method, _pattern, _kind, _name in _ROUTES:
    _ROUTES_BY_METHOD.setdefault(_method, []).append((_pattern, _kind, _name))

_API_PREFIX = re.compile(r"^/api(/v\d+)?")
_CHANNEL_PATH = re.compile(r"/channels/(\d+)(/|$)")
