"""Self-tests of the offline Discord harness, against a tiny bot defined here."""

from __future__ import annotations

import asyncio
import io
import socket
import struct
import time
import zlib
from typing import Any, Literal

import aiosqlite
import discord
import pytest
from discord import app_commands
from discord.ext import commands, tasks

from tests.harness import Harness, HarnessError, NetworkBlockedError, netguard
from tests.harness.fixtures import harness, make_harness, no_network  # noqa: F401 - fixtures


def tiny_png(width: int = 3, height: int = 2) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


PNG = tiny_png()


# -- the tiny bot ----------------------------------------------------------------------------


class Pick(discord.ui.DynamicItem[discord.ui.Button], template=r"pick:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Pick {n}", custom_id=f"pick:{n}", style=discord.ButtonStyle.primary
            )
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> Pick:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: TinyBot = interaction.client  # type: ignore[assignment]
        bot.log.append(("pick", self.n, interaction.user.id, bot.instance))
        await interaction.response.send_message(
            f"picked {self.n} on instance {bot.instance}", ephemeral=True
        )


def pick_view(*numbers: int, timeout: float | None = None) -> discord.ui.View:
    view = discord.ui.View(timeout=timeout)
    for n in numbers:
        view.add_item(Pick(n))
    return view


class ColourSelect(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="colour",
        placeholder="Pick colours",
        min_values=1,
        max_values=2,
        options=[
            discord.SelectOption(label="Red", value="r"),
            discord.SelectOption(label="Blue", value="b"),
            discord.SelectOption(label="Green", value="g"),
        ],
    )
    async def colour(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        interaction.client.log.append(("colours", list(select.values)))  # type: ignore[attr-defined]
        await interaction.response.edit_message(content=f"colours: {','.join(select.values)}")

    @discord.ui.button(label="Reset", custom_id="colour-reset")
    async def reset(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="reset")


class NameModal(discord.ui.Modal, title="Name your ship"):
    ship: discord.ui.TextInput[NameModal] = discord.ui.TextInput(
        label="Ship name", custom_id="ship"
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Ship {self.ship.value} launched")


class SpanishTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        table = {"game": "juego", "new": "nueva"}
        if locale is discord.Locale.spain_spanish:
            return table.get(string.message)
        return None


game = app_commands.Group(name=app_commands.locale_str("game"), description="Board games")


@game.command(name=app_commands.locale_str("new"), description="Start a game")
@app_commands.describe(name="Game name", players="Seats", rival="Who to play")
async def game_new(
    interaction: discord.Interaction,
    name: str,
    players: app_commands.Range[int, 2, 5],
    mode: Literal["classic", "quick"] = "classic",
    public: bool = False,
    rival: discord.Member | None = None,
) -> None:
    bot: TinyBot = interaction.client  # type: ignore[assignment]
    bot.log.append(
        (
            "new",
            name,
            players,
            mode,
            public,
            rival.id if rival else None,
            type(rival).__name__,
            str(interaction.locale),
            str(interaction.guild_locale),
        )
    )
    embed = discord.Embed(title=f"Game {name}", description=f"{players} seats, {mode}")
    embed.add_field(name="Host", value=interaction.user.display_name)
    await interaction.response.send_message(
        f"Lobby for {name}", embed=embed, view=pick_view(1, 2, timeout=180), ephemeral=not public
    )


@game.command(name="secret", description="Whisper")
async def game_secret(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("the secret is 42", ephemeral=True)


@game.command(name="slow", description="Deferred answer")
async def game_slow(interaction: discord.Interaction) -> None:
    await interaction.response.defer(thinking=True)
    await asyncio.sleep(0)
    await interaction.followup.send("done thinking")
    await interaction.followup.send("and a followup", ephemeral=True)
    original = await interaction.original_response()
    interaction.client.log.append(("original", original.content))  # type: ignore[attr-defined]


@game.command(name="board", description="Post the board")
async def game_board(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(
        "board:", file=discord.File(io.BytesIO(PNG), filename="board.png")
    )
    await interaction.channel.send(  # type: ignore[union-attr]
        embed=discord.Embed(title="Big board").set_image(url="attachment://big.png"),
        file=discord.File(io.BytesIO(PNG), filename="big.png"),
    )


@game.command(name="dm", description="Whisper to someone")
async def game_dm(interaction: discord.Interaction, target: discord.User) -> None:
    bot: TinyBot = interaction.client  # type: ignore[assignment]
    try:
        msg = await target.send("psst, your hand", view=pick_view(7))
    except discord.Forbidden as exc:
        bot.log.append(("forbidden", exc.status, exc.code))
        await interaction.response.send_message("could not DM", ephemeral=True)
    else:
        bot.log.append(("dm", msg.channel.id))
        await interaction.response.send_message("sent", ephemeral=True)


@game.command(name="edit", description="Post then edit")
async def game_edit(interaction: discord.Interaction) -> None:
    await interaction.response.defer(ephemeral=True)
    msg = await interaction.channel.send("version one")  # type: ignore[union-attr]
    await msg.edit(content="version two", view=ColourSelect())
    await interaction.edit_original_response(content="edited")


def slow_render() -> bytes:
    time.sleep(0.02)  # real work in a worker thread: the harness waits for it, not a clock
    return PNG


@game.command(name="render", description="Render in a thread, count in sqlite")
async def game_render(interaction: discord.Interaction) -> None:
    await interaction.response.defer()
    data = await asyncio.to_thread(slow_render)
    async with aiosqlite.connect(":memory:") as db:
        await db.execute("create table t (x)")
        await db.executemany("insert into t values (?)", [(1,), (2,)])
        async with db.execute("select count(*) from t") as cursor:
            row = await cursor.fetchone()
    await interaction.edit_original_response(
        content=f"rendered, {row[0]} rows",  # type: ignore[index]
        attachments=[discord.File(io.BytesIO(data), filename="render.png")],
    )


@game.command(name="crash", description="Raise")
async def game_crash(interaction: discord.Interaction) -> None:
    raise RuntimeError("kaboom")


@game.command(name="modal", description="Open a modal")
async def game_modal(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(NameModal())


@game.command(name="thread", description="Open a thread")
async def game_thread(interaction: discord.Interaction) -> None:
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    thread = await channel.create_thread(name="Game #1", type=discord.ChannelType.public_thread)
    await thread.send("welcome to the thread")
    await interaction.response.send_message(f"thread {thread.id}", ephemeral=True)


async def planet_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    planets = ["Mercury", "Mars", "Jupiter"]
    return [app_commands.Choice(name=p, value=p) for p in planets if p.startswith(current)]


@app_commands.command(name="visit", description="Visit a planet")
@app_commands.autocomplete(planet=planet_autocomplete)
async def visit(interaction: discord.Interaction, planet: str) -> None:
    await interaction.response.send_message(f"visiting {planet}")


@app_commands.command(name="setup", description="Admins only")
@app_commands.default_permissions(manage_guild=True)
async def setup_cmd(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("configured", ephemeral=True)


@app_commands.context_menu(name="Inspect")
async def inspect_message(interaction: discord.Interaction, message: discord.Message) -> None:
    await interaction.response.send_message(f"inspected {message.content}", ephemeral=True)


@app_commands.context_menu(name="Greet")
async def greet_member(interaction: discord.Interaction, member: discord.Member) -> None:
    await interaction.response.send_message(f"hello {member.display_name}")


class TinyBot(commands.Bot):
    def __init__(self, instance: int, log: list[Any]) -> None:
        intents = discord.Intents.default()
        intents.message_content = True
        super().__init__(command_prefix="!", intents=intents)
        self.instance = instance
        self.log = log

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Pick)
        self.add_view(ColourSelect())
        await self.tree.set_translator(SpanishTranslator())
        self.tree.add_command(game)
        self.tree.add_command(visit)
        self.tree.add_command(setup_cmd)
        self.tree.add_command(inspect_message)
        self.tree.add_command(greet_member)
        await self.tree.sync()
        self.heartbeat.start()
        self.log.append(("setup_hook", self.instance))

    @tasks.loop(minutes=10)
    async def heartbeat(self) -> None:
        self.log.append(("heartbeat", self.instance))

    async def on_ready(self) -> None:
        self.log.append(("ready", self.instance, [g.id for g in self.guilds]))

    async def on_message(self, message: discord.Message) -> None:
        if message.author != self.user:
            self.log.append(("message", message.author.id, message.content))


class Factory:
    def __init__(self) -> None:
        self.log: list[Any] = []
        self.built = 0

    def __call__(self) -> TinyBot:
        self.built += 1
        return TinyBot(self.built, self.log)


@pytest.fixture
def factory() -> Factory:
    return Factory()


@pytest.fixture
def bot_factory(factory: Factory) -> Factory:
    return factory


@pytest.fixture
async def h(make_harness: Any, factory: Factory) -> Harness:  # noqa: F811
    return await make_harness(factory)


def entries(factory: Factory, kind: str) -> list[tuple[Any, ...]]:
    return [e for e in factory.log if e[0] == kind]


# -- tests -----------------------------------------------------------------------------------


async def test_start_logs_in_and_becomes_ready(h: Harness, factory: Factory) -> None:
    bot = h.bot
    assert bot is not None and bot.is_ready()
    assert entries(factory, "setup_hook") == [("setup_hook", 1)]
    assert entries(factory, "heartbeat") == [("heartbeat", 1)]  # and its 10 min sleep is ignored
    assert entries(factory, "ready") == [("ready", 1, [h.guild_id])]
    guild = bot.get_guild(h.guild_id)
    assert guild is not None and guild.me is not None
    assert isinstance(bot.get_channel(h.channel_id), discord.TextChannel)
    kinds = [r.kind for r in h.requests]
    assert kinds[:3] == ["login", "application_info", "commands_sync"]
    assert h.unexpected == []
    synced = h.synced_commands[None]
    assert {c["name"] for c in synced} == {"game", "visit", "setup", "Inspect", "Greet"}


async def test_slash_with_options_reaches_callback(h: Harness, factory: Factory) -> None:
    alice, bob = h.user("Alice", locale="fr"), h.user("Bob")
    reply = await h.slash(alice, "game new", name="Moons", players=3, mode="quick", public=True,
                          rival=bob)  # fmt: skip
    assert entries(factory, "new") == [
        ("new", "Moons", 3, "quick", True, bob.id, "Member", "fr", "en-US")
    ]
    assert reply.type == 4 and not reply.deferred and not reply.ephemeral
    assert reply.content == "Lobby for Moons"
    assert reply.embeds[0]["title"] == "Game Moons"
    assert [b.label for b in reply.buttons] == ["Pick 1", "Pick 2"]
    assert reply.message is not None and reply.message.interaction_user == alice
    assert h.messages(h.channel_id) == [reply.message]
    assert "Game Moons" in h.all_public_text() and "Pick 2" in h.all_public_text()
    payload = h.backend.interactions[reply.interaction_id].payload
    assert payload["version"] == 1 and payload["type"] == 2
    assert payload["member"]["user"]["id"] == str(alice.id)
    assert payload["channel"]["type"] == 0 and payload["guild_locale"] == "en-US"
    assert payload["data"]["options"][0]["name"] == "new"


async def test_slash_rejects_what_discord_would_refuse(h: Harness) -> None:
    alice = h.user("Alice")
    with pytest.raises(HarnessError, match="needs options"):
        await h.slash(alice, "game new", name="x")
    with pytest.raises(HarnessError, match="within"):
        await h.slash(alice, "game new", name="x", players=9)
    with pytest.raises(HarnessError, match="not a choice"):
        await h.slash(alice, "game new", name="x", players=2, mode="slow")
    with pytest.raises(HarnessError, match="no subcommand"):
        await h.slash(alice, "game nope")
    with pytest.raises(HarnessError, match="cannot see /setup"):
        await h.slash(alice, "setup")
    admin = h.user("Admin", admin=True)
    assert (await h.slash(admin, "setup")).content == "configured"


async def test_ephemeral_reply_is_recorded_as_ephemeral(h: Harness) -> None:
    alice, bob = h.user("Alice"), h.user("Bob")
    reply = await h.slash(alice, "game secret")
    assert reply.ephemeral and reply.content == "the secret is 42"
    assert h.messages() == []
    assert [m.content for m in h.ephemeral_to(alice)] == ["the secret is 42"]
    assert h.ephemeral_to(bob) == []
    assert "42" not in h.all_public_text()
    assert reply.message is not None and reply.message.flags & 64


async def test_dynamic_item_button_is_routed(h: Harness, factory: Factory) -> None:
    alice = h.user("Alice")
    lobby = await h.slash(alice, "game new", name="x", players=2, public=True)
    reply = await h.click(alice, lobby, label="Pick 2")
    assert entries(factory, "pick") == [("pick", 2, alice.id, 1)]
    assert reply.ephemeral and reply.content == "picked 2 on instance 1"
    payload = h.backend.interactions[reply.interaction_id].payload
    assert payload["type"] == 3 and payload["data"] == {"custom_id": "pick:2", "component_type": 2}
    assert payload["message"]["id"] == str(lobby.message.id)  # type: ignore[union-attr]
    assert payload["message"]["components"]


async def test_click_on_ephemeral_message(h: Harness, factory: Factory) -> None:
    alice, bob = h.user("Alice"), h.user("Bob")
    lobby = await h.slash(alice, "game new", name="x", players=2)  # ephemeral lobby
    assert lobby.ephemeral
    with pytest.raises(HarnessError, match="cannot see"):
        await h.click(bob, lobby, "pick:1")
    reply = await h.click(alice, lobby, "pick:1")
    assert reply.content == "picked 1 on instance 1"


async def test_restart_routes_old_messages_to_new_instance(h: Harness, factory: Factory) -> None:
    alice = h.user("Alice")
    lobby = await h.slash(alice, "game new", name="x", players=2, public=True)
    old_bot = h.bot
    await h.restart()
    assert old_bot is not None and old_bot.is_closed()
    assert h.bot is not old_bot and h.bot.is_ready()  # type: ignore[union-attr]
    assert h.messages() == [lobby.message]
    reply = await h.click(alice, lobby.message, label="Pick 1")  # type: ignore[arg-type]
    assert reply.content == "picked 1 on instance 2"
    assert entries(factory, "pick") == [("pick", 1, alice.id, 2)]
    assert entries(factory, "setup_hook") == [("setup_hook", 1), ("setup_hook", 2)]


async def test_deferred_reply_with_followups(h: Harness, factory: Factory) -> None:
    alice = h.user("Alice")
    reply = await h.slash(alice, "game slow")
    assert reply.type == 5 and reply.deferred
    assert reply.content == "done thinking" and not reply.ephemeral
    assert reply.message is not None and not reply.message.loading
    assert [m.content for m in reply.followups] == ["and a followup"]
    assert reply.followups[0].ephemeral
    assert "done thinking" in reply.text() and "and a followup" in reply.text()
    kinds = [r.kind for r in reply.requests]
    assert kinds == ["interaction_callback", "followup", "followup", "webhook_get"]
    assert ("original", "done thinking") in factory.log


async def test_files_are_captured_as_bytes(h: Harness) -> None:
    alice = h.user("Alice")
    reply = await h.slash(alice, "game board")
    assert [(a.name, a.data, a.content_type) for a in reply.files] == [
        ("board.png", PNG, "image/png")
    ]
    board = h.last_message()
    assert board.attachments[0].data == PNG
    assert board.embeds[0]["image"]["url"] == board.attachments[0].url
    assert h.all_public_images() == [PNG, PNG]
    posted = h.requests_of("channel_message")[-1]
    assert posted.files[0].filename == "big.png" and posted.files[0].data == PNG
    assert posted.json["attachments"][0]["filename"] == "big.png"
    # discord.py can read the attachment back through the fake CDN
    bot_msg = await h.bot.get_channel(h.channel_id).fetch_message(board.id)  # type: ignore[union-attr]
    assert await bot_msg.attachments[0].read() == PNG


async def test_dm_and_forbidden_dm(h: Harness, factory: Factory) -> None:
    alice, bob = h.user("Alice"), h.user("Bob")
    reply = await h.slash(alice, "game dm", target=bob)
    assert reply.content == "sent"
    assert [m.content for m in h.dm_messages(bob)] == ["psst, your hand"]
    assert entries(factory, "dm") == [("dm", h.dm_channel_id(bob))]

    h.fail_dms(alice)
    reply = await h.slash(bob, "game dm", target=alice)
    assert reply.content == "could not DM"
    assert entries(factory, "forbidden") == [("forbidden", 403, 50007)]
    assert h.dm_messages(alice) == []
    assert [r.status for r in h.requests_of("dm_open")] == [200, 200]
    assert h.requests_of("dm_message")[-1].status == 403


async def test_click_in_dm(h: Harness, factory: Factory) -> None:
    alice, bob = h.user("Alice"), h.user("Bob")
    await h.slash(alice, "game dm", target=bob)
    (dm,) = h.dm_messages(bob)
    with pytest.raises(HarnessError, match="cannot see the DM"):
        await h.click(alice, dm, label="Pick 7")
    reply = await h.click(bob, dm, label="Pick 7")
    assert reply.content == "picked 7 on instance 1"
    payload = h.backend.interactions[reply.interaction_id].payload
    assert "guild_id" not in payload and payload["user"]["id"] == str(bob.id)
    assert payload["channel"]["type"] == 1 and payload["context"] == 1


async def test_message_edit_and_select(h: Harness, factory: Factory) -> None:
    alice = h.user("Alice")
    reply = await h.slash(alice, "game edit")
    assert reply.content == "edited" and reply.ephemeral
    (msg,) = h.messages()
    assert msg.content == "version two" and msg.edited
    assert [v["content"] for v in msg.versions] == ["version one", "version two"]
    assert "version one" in h.all_public_text()
    assert "version one" not in h.all_public_text(history=False)
    assert h.requests_of("message_edit")[0].json["content"] == "version two"
    assert msg.selects[0].labels == ["Red", "Blue", "Green"]

    picked = await h.click(alice, msg, "colour", values=["r", "Blue"])
    assert entries(factory, "colours") == [("colours", ["r", "b"])]
    assert picked.type == 7 and picked.message == msg
    assert msg.content == "colours: r,b"
    with pytest.raises(HarnessError, match=r"takes 1\.\.2 values"):
        await h.click(alice, msg, "colour", values=["r", "b", "g"])

    reset = await h.click(alice, msg, label="Reset")
    assert reset.type == 6 and reset.deferred and reset.message == msg
    assert msg.content == "reset" and reset.content == "reset"


async def test_socket_guard_blocks_network(h: Harness) -> None:
    assert netguard.is_active()
    with pytest.raises(NetworkBlockedError):
        socket.create_connection(("example.com", 80))
    with pytest.raises(NetworkBlockedError):
        socket.getaddrinfo("example.com", 443)
    with pytest.raises(NetworkBlockedError):
        await asyncio.open_connection("example.com", 443)
    with (
        socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock,
        pytest.raises(NetworkBlockedError),
    ):
        sock.connect(("127.0.0.1", 9))
    await h.stop()
    assert not netguard.is_active()
    assert "create_connection" not in vars(socket.socket)


async def test_racing_clicks_are_all_delivered(h: Harness, factory: Factory) -> None:
    alice, bob = h.user("Alice"), h.user("Bob")
    lobby = await h.slash(alice, "game new", name="x", players=2, public=True)
    replies = await h.click_many([(alice, lobby, "pick:1"), (bob, lobby, "pick:2")])
    assert sorted(e[1:3] for e in entries(factory, "pick")) == sorted([(1, alice.id), (2, bob.id)])
    assert [r.content for r in replies] == ["picked 1 on instance 1", "picked 2 on instance 1"]


async def test_app_commands_payload_and_localizations(make_harness: Any, factory: Factory) -> None:  # noqa: F811
    h = await make_harness(factory, guild_locale="es-ES")
    payload = await h.app_commands_payload()
    (game_cmd,) = [c for c in payload if c["name"] == "game"]
    assert game_cmd["name_localizations"] == {"es-ES": "juego"}
    subs = {o["name"]: o for o in game_cmd["options"] if o["type"] == 1}
    assert len(subs) == 10
    assert subs["new"]["name_localizations"] == {"es-ES": "nueva"}
    assert h.bot.get_guild(h.guild_id).preferred_locale is discord.Locale.spain_spanish
    alice = h.user("Alice", locale="es-ES")
    await h.slash(alice, "game new", name="x", players=2)
    assert entries(factory, "new")[0][-2:] == ("es-ES", "es-ES")


async def test_strict_mode_surfaces_bot_errors(h: Harness) -> None:
    alice = h.user("Alice")
    with pytest.raises(HarnessError, match="kaboom"):
        await h.slash(alice, "game crash")
    h.strict = False
    reply = await h.slash(alice, "game crash")
    assert not reply.answered
    assert any("kaboom" in e.traceback for e in h.take_errors())


async def test_unknown_routes_answer_404(h: Harness) -> None:
    with pytest.raises(discord.NotFound):
        await h.bot.http.request(discord.http.Route("GET", "/voice/regions"))  # type: ignore[union-attr]
    assert [r.path for r in h.unexpected] == ["/voice/regions"]


async def test_rate_limit_is_retried_by_discord_py(h: Harness) -> None:
    alice = h.user("Alice")
    h.rate_limit("POST", r"/channels/\d+/messages$")
    await h.slash(alice, "game board")
    posts = h.requests_of("channel_message")
    assert [r.status for r in posts] == [429, 200]
    assert len(h.messages()) == 2


async def test_modal_autocomplete_thread_and_user_message(h: Harness, factory: Factory) -> None:
    alice = h.user("Alice")
    opened = await h.slash(alice, "game modal")
    assert opened.type == 9 and opened.modal["title"] == "Name your ship"  # type: ignore[index]
    submitted = await h.submit_modal(alice, opened, {"ship": "Rocinante"})
    assert submitted.content == "Ship Rocinante launched"

    choices = await h.autocomplete(alice, "visit", "planet", planet="M")
    assert [c["value"] for c in choices] == ["Mercury", "Mars"]

    reply = await h.slash(alice, "game thread")
    thread_id = int(reply.content.split()[1])
    assert isinstance(h.bot.get_channel(thread_id), discord.Thread)  # type: ignore[union-attr]
    assert [m.content for m in h.messages(thread_id)] == ["welcome to the thread"]
    assert "Game #1" in h.all_public_text()

    own = h.new_thread(h.channel_id, "side")
    assert isinstance(h.bot.get_channel(own), discord.Thread)  # type: ignore[union-attr]
    other = h.new_channel("lounge")
    assert (await h.slash(alice, "game secret", channel=other)).ephemeral

    await h.say(alice, "hello bot")
    assert ("message", alice.id, "hello bot") in factory.log


async def test_context_menus(h: Harness) -> None:
    alice, bob = h.user("Alice"), h.user("Bob")
    lobby = await h.slash(alice, "game new", name="x", players=2, public=True)
    inspected = await h.context_menu(bob, "Inspect", lobby)
    assert inspected.ephemeral and inspected.content == "inspected Lobby for x"
    greeted = await h.context_menu(alice, "Greet", bob)
    assert greeted.content == "hello Bob" and greeted.message.raw["type"] == 23  # type: ignore[union-attr]


async def test_idle_waits_for_threads_and_sqlite_but_not_timers(h: Harness) -> None:
    alice = h.user("Alice")
    reply = await h.slash(alice, "game render")
    assert reply.content == "rendered, 2 rows"
    assert [a.data for a in reply.attachments] == [PNG]
    assert reply.requests[-1].kind == "webhook_edit"


class DevGuildBot(TinyBot):
    def __init__(self, dev_guild: int) -> None:
        super().__init__(1, [])
        self.dev_guild = discord.Object(dev_guild)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Pick)
        self.tree.add_command(game)
        self.tree.copy_global_to(guild=self.dev_guild)
        await self.tree.sync(guild=self.dev_guild)


async def test_guild_synced_commands(make_harness: Any) -> None:  # noqa: F811
    h = await make_harness(lambda: DevGuildBot(4242), guild_id=4242)
    assert h.guild_id == 4242 and [c["name"] for c in h.synced_commands[4242]] == ["game"]
    assert [c["name"] for c in await h.app_commands_payload(guild=True)] == ["game"]
    reply = await h.slash(h.user("Alice"), "game secret")
    assert reply.content == "the secret is 42"
    payload = h.backend.interactions[reply.interaction_id].payload
    assert payload["data"]["guild_id"] == "4242"
    assert payload["data"]["id"] == h.synced_commands[4242][0]["id"]


async def test_fixtures(harness: Harness, factory: Factory) -> None:  # noqa: F811
    assert harness.bot is not None and harness.bot.is_ready()
    assert entries(factory, "setup_hook") == [("setup_hook", 1)]


def test_no_network_fixture(no_network: None) -> None:  # noqa: F811
    with pytest.raises(NetworkBlockedError):
        socket.getaddrinfo("discord.com", 443)
