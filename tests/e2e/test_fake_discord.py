"""The fake Discord works with the real discord.py: a throwaway bot is driven through every kind of exchange
the gamemaster bot will use, and what each user can see is checked against Discord's permission rules."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from harness.fakediscord import (
    ChannelType,
    FakeDiscord,
    Permission,
    UserActionError,
    overwrite,
    payloads,
    running_bot,
)
from tests.helpers.fake_server import Server, make_server

pytestmark = pytest.mark.waits  # processes or real time: spread through the run (tests/conftest.py)

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def tiny_png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (32, 24), (20, 90, 160)).save(buffer, format="PNG")
    return buffer.getvalue()


class SettingsModal(discord.ui.Modal, title="Game settings"):
    press: discord.ui.TextInput[SettingsModal] = discord.ui.TextInput(
        label="Press", custom_id="press", default="full"
    )
    deadline: discord.ui.TextInput[SettingsModal] = discord.ui.TextInput(
        label="Deadline (hours)", custom_id="deadline", max_length=3
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"Saved: press={self.press.value} deadline={self.deadline.value}h", ephemeral=True
        )


class JoinView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)  # persistent: registered in TinyBot.setup_hook
        self.joined: list[int] = []

    @discord.ui.button(label="Join", custom_id="join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.joined.append(interaction.user.id)
        await interaction.response.edit_message(content=f"Joined: {interaction.user.name}", view=None)


class ReadyView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)  # persistent: registered in TinyBot.setup_hook

    @discord.ui.button(label="Ready", custom_id="ready")
    async def ready(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()  # on a component: "deferred update", nothing shown yet
        await interaction.edit_original_response(content=f"{interaction.user.name} is ready", view=None)


class TinyBot(commands.Bot):
    """A throwaway bot using each Discord feature the gamemaster will use."""

    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.tree.add_command(self.build_game_group())
        self.tree.add_command(self.build_mod_group())

    async def setup_hook(self) -> None:
        # Registered up front, as the gamemaster's DynamicItems are: discord.py stores a view sent with a
        # message only after the HTTP answer is read, and a click the fake delivers before that moment
        # would find no view and go unanswered (a race the loaded CI machine lost once).
        self.add_view(JoinView())
        self.add_view(ReadyView())
        await self.tree.sync()

    async def on_message(self, message: discord.Message) -> None:
        assert self.user is not None  # logged in before any message arrives
        if message.author.id == self.user.id or message.guild is not None:
            return
        await message.channel.send(f"got: {message.content}")

    def build_game_group(self) -> app_commands.Group:
        game = app_commands.Group(name="game", description="Play Diplomacy")

        @game.command(name="create", description="Create a game")
        async def create(interaction: discord.Interaction, name: str, players: int = 7) -> None:
            await interaction.response.send_message(f"Created {name} for {players} players", ephemeral=True)

        @game.command(name="map", description="Show the map")
        async def show_map(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send(
                "Spring 1901", file=discord.File(io.BytesIO(tiny_png()), "map.png")
            )

        @game.command(name="settings", description="Edit settings")
        async def settings(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(SettingsModal())

        @game.command(name="join", description="Join with a button")
        async def join(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Press to join", view=JoinView())

        @game.command(name="ready", description="Ready button")
        async def ready(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(
                "Orders in? Press when ready.", view=ReadyView(), ephemeral=True
            )

        @game.command(name="pick", description="Pick a power")
        async def pick(interaction: discord.Interaction, power: str) -> None:
            await interaction.response.send_message(f"You picked {power}", ephemeral=True)

        @pick.autocomplete("power")
        async def pick_power(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return [
                app_commands.Choice(name=p.title(), value=p) for p in POWERS if p.startswith(current.upper())
            ]

        @game.command(name="remind", description="DM a player")
        async def remind(interaction: discord.Interaction, player: discord.User) -> None:
            try:
                await player.send("Your orders are due")
            except discord.Forbidden as error:
                await interaction.response.send_message(
                    f"cannot DM {player.name} (code {error.code})", ephemeral=True
                )
                return
            await interaction.response.send_message(f"reminded {player.name}", ephemeral=True)

        @game.command(name="announce", description="Post in this channel")
        async def announce(interaction: discord.Interaction, text: str) -> None:
            assert isinstance(interaction.channel, discord.TextChannel)  # the tests announce in #general
            await interaction.channel.send(text)
            await interaction.response.send_message("posted", ephemeral=True)

        @game.command(name="start", description="Make the private spaces")
        async def start(
            interaction: discord.Interaction, player: discord.Member, ally: discord.Member
        ) -> None:
            await interaction.response.defer(ephemeral=True)
            guild, channel = interaction.guild, interaction.channel
            assert guild is not None and isinstance(channel, discord.TextChannel)  # run in #general
            hidden = discord.PermissionOverwrite(view_channel=False)
            visible = discord.PermissionOverwrite(view_channel=True, send_messages=True)
            category = await guild.create_category(
                "Game 1", overwrites={guild.default_role: hidden, guild.me: visible}
            )
            private = await guild.create_text_channel(
                "France Orders",
                category=category,
                overwrites={guild.default_role: hidden, guild.me: visible, player: visible},
            )
            await private.send("Only France reads this")
            press = await channel.create_thread(
                name="france-germany", type=discord.ChannelType.private_thread, invitable=False
            )
            await press.add_user(player)
            await press.add_user(ally)
            await press.send("Secret press between France and Germany")
            await interaction.followup.send(f"started: {private.mention} {press.mention}", ephemeral=True)

        return game

    def build_mod_group(self) -> app_commands.Group:
        # Discord applies default_member_permissions to top-level commands only, so /mod carries it.
        mod = app_commands.Group(
            name="mod", description="Moderation", default_permissions=discord.Permissions(manage_guild=True)
        )
        deadline = app_commands.Group(name="deadline", description="Deadlines", parent=mod)

        @deadline.command(name="extend", description="Extend the deadline")
        async def extend(interaction: discord.Interaction, hours: app_commands.Range[int, 1, 72]) -> None:
            await interaction.response.send_message(f"Extended by {hours}h", ephemeral=True)

        return mod


@pytest.fixture
async def server(fake: FakeDiscord) -> Server:
    return await make_server(fake)


@pytest.fixture
async def bot(fake: FakeDiscord, server: Server) -> AsyncIterator[TinyBot]:
    async with running_bot(TinyBot(), fake) as client:
        yield client
    assert fake.unknown_calls == [], f"the bot called routes the fake does not model: {fake.unknown_calls}"


async def test_login_sees_ready_guild_and_synced_commands(
    fake: FakeDiscord, server: Server, bot: TinyBot
) -> None:
    assert bot.user is not None and bot.user.id == fake.world.bot.id
    guild = bot.get_guild(server.guild.id)
    assert guild is not None and guild.name == "Diplomacy Club"
    assert {c.name for c in guild.text_channels} == {"general"}
    assert "Moderator" in {r.name for r in guild.roles}
    assert guild.me.guild_permissions.manage_channels
    assert sorted(c.name for c in fake.commands) == ["game", "mod"]
    assert fake.gateway.identify_count == 1


async def test_slash_command_answered_ephemerally(fake: FakeDiscord, server: Server, bot: TinyBot) -> None:
    reply = await (
        await fake.slash(server.alice, "game", "create", options={"name": "Spring"}, channel=server.general)
    ).message()
    assert reply.content == "Created Spring for 7 players"
    assert reply.ephemeral
    assert reply in fake.visible_messages(server.alice)
    assert reply not in fake.visible_messages(server.bob)
    assert not any("Spring" in text for text in fake.seen_texts(server.bob))
    assert fake.channel_messages(server.general) == []


async def test_options_are_checked_like_the_discord_client(
    fake: FakeDiscord, server: Server, bot: TinyBot
) -> None:
    with pytest.raises(UserActionError, match="required option"):
        await fake.slash(server.alice, "game", "create", channel=server.general)
    with pytest.raises(UserActionError, match="takes a string"):
        await fake.slash(server.alice, "game", "create", options={"name": 5}, channel=server.general)
    with pytest.raises(UserActionError, match="needs a subcommand"):
        await fake.slash(server.alice, "game", channel=server.general)


async def test_subcommand_group_is_hidden_without_its_permission(
    fake: FakeDiscord, server: Server, bot: TinyBot
) -> None:
    extend = ("mod", "deadline", "extend")
    reply = await (
        await fake.slash(server.mod, *extend, options={"hours": 24}, channel=server.general)
    ).message()
    assert reply.content == "Extended by 24h"
    with pytest.raises(UserActionError, match="cannot see /mod"):
        await fake.slash(server.alice, *extend, options={"hours": 24}, channel=server.general)
    with pytest.raises(UserActionError, match=r"outside 1\.\.72"):
        await fake.slash(server.mod, *extend, options={"hours": 99}, channel=server.general)


async def test_autocomplete_offers_matching_choices(fake: FakeDiscord, server: Server, bot: TinyBot) -> None:
    handle = await fake.autocomplete(
        server.alice, "game", "pick", focused="power", options={"power": "gE"}, channel=server.general
    )
    assert await handle.choices() == [{"name": "Germany", "value": "GERMANY"}]


async def test_deferred_response_then_followup_with_png(
    fake: FakeDiscord, server: Server, bot: TinyBot
) -> None:
    handle = await fake.slash(server.alice, "game", "map", channel=server.general)
    message = await handle.message()
    assert message.content == "Spring 1901"
    assert message.ephemeral and not message.loading
    [attachment] = message.attachments
    assert attachment.filename == "map.png" and attachment.content_type == "image/png"
    assert (attachment.width, attachment.height) == (32, 24)
    assert Image.open(io.BytesIO(attachment.data)).size == (32, 24)
    assert handle.messages() == [message]  # the followup replaced the "thinking" message
    upload = fake.calls("POST /webhooks/*/*")[0]
    assert upload.files == [("map.png", len(attachment.data))]


async def test_modal_round_trip(fake: FakeDiscord, server: Server, bot: TinyBot) -> None:
    opened = await fake.slash(server.alice, "game", "settings", channel=server.general)
    modal = await opened.modal()
    assert modal.title == "Game settings"
    assert modal.input("press")["value"] == "full"
    with pytest.raises(UserActionError, match="required"):
        await fake.submit_modal(server.alice, opened, {})
    submitted = await fake.submit_modal(server.alice, opened, {"deadline": "48"})
    reply = await submitted.message()
    assert reply.content == "Saved: press=full deadline=48h"
    assert reply.ephemeral


async def test_button_click_updates_the_message(fake: FakeDiscord, server: Server, bot: TinyBot) -> None:
    prompt = await (await fake.slash(server.alice, "game", "join", channel=server.general)).message()
    assert prompt.custom_ids() == ["join"] and not prompt.ephemeral
    assert prompt in fake.visible_messages(server.bob)
    clicked = await fake.click(server.bob, prompt, "join")
    updated = await clicked.message()
    assert updated.id == prompt.id
    assert updated.content == "Joined: bob"
    assert updated.components == []
    with pytest.raises(UserActionError, match="no component"):
        await fake.click(server.alice, updated, "join")


async def test_deferred_update_then_edit_of_the_component_message(
    fake: FakeDiscord, server: Server, bot: TinyBot
) -> None:
    prompt = await (await fake.slash(server.alice, "game", "ready", channel=server.general)).message()
    assert prompt.ephemeral
    with pytest.raises(UserActionError, match="cannot see"):
        await fake.click(server.bob, prompt, "ready")
    edited = await (await fake.click(server.alice, prompt, "ready")).message()
    assert edited.id == prompt.id and edited.content == "alice is ready" and edited.components == []
    assert [r.text for r in edited.revisions] == ["Orders in? Press when ready.\nReady", "alice is ready"]


async def test_dm_in_and_dm_out(fake: FakeDiscord, server: Server, bot: TinyBot) -> None:
    handle = await fake.dm_bot(server.alice, "A Par-Bur")
    reply = await handle
    assert reply.content == "got: A Par-Bur"
    assert [m.content for m in fake.dm_messages(server.alice)] == ["A Par-Bur", "got: A Par-Bur"]
    assert not any("Par-Bur" in text for text in fake.seen_texts(server.bob))
    reminded = await (
        await fake.slash(server.mod, "game", "remind", options={"player": server.bob}, channel=server.general)
    ).message()
    assert reminded.content == "reminded bob"
    assert [m.content for m in fake.dm_messages(server.bob)] == ["Your orders are due"]


async def test_closed_dms_surface_as_forbidden(fake: FakeDiscord, server: Server, bot: TinyBot) -> None:
    await fake.set_dms_open(server.bob, False)
    reply = await (
        await fake.slash(server.mod, "game", "remind", options={"player": server.bob}, channel=server.general)
    ).message()
    assert reply.content == "cannot DM bob (code 50007)"
    assert fake.dm_messages(server.bob) == []
    [refused] = fake.failed_calls
    assert refused.status == 403 and refused.error == {
        "message": "Cannot send messages to this user",
        "code": 50007,
    }


async def test_rate_limit_is_retried_transparently(fake: FakeDiscord, server: Server, bot: TinyBot) -> None:
    fake.inject_fault("POST /channels/*/messages", 429, retry_after=0.05)
    reply = await (
        await fake.slash(
            server.alice, "game", "announce", options={"text": "Phase closed"}, channel=server.general
        )
    ).message()
    assert reply.content == "posted"
    assert [m.content for m in fake.channel_messages(server.general)] == ["Phase closed"]
    assert [c.status for c in fake.calls("POST /channels/{channel_id}/messages")] == [429, 200]


async def test_injected_server_error_is_retried(fake: FakeDiscord, server: Server, bot: TinyBot) -> None:
    fake.inject_fault("POST /channels/*/messages", 500)
    reply = await (
        await fake.slash(server.alice, "game", "announce", options={"text": "x"}, channel=server.general)
    ).message()
    assert reply.content == "posted"  # discord.py waits 1 s and retries a 500
    assert [c.status for c in fake.calls("POST /channels/*/messages")] == [500, 200]


async def test_bot_built_private_spaces_are_visible_only_to_their_members(
    fake: FakeDiscord, server: Server, bot: TinyBot
) -> None:
    handle = await fake.slash(
        server.mod,
        "game",
        "start",
        options={"player": server.alice, "ally": server.bob},
        channel=server.general,
    )
    assert (await handle.message(timeout=5)).content.startswith("started:")
    orders = fake.channel_named(server.guild, "france-orders")
    press = fake.channel_named(server.guild, "france-germany")
    assert press.type == ChannelType.PRIVATE_THREAD and not press.invitable
    carol = await fake.create_user("carol")
    await fake.add_member(server.guild, carol)

    assert fake.can_view(server.alice, orders)
    assert not fake.can_view(server.bob, orders)
    assert not fake.can_view(carol, orders)
    assert not fake.can_view(server.mod, orders)  # Manage Server is not Administrator
    assert server.guild.owner_id and fake.can_view(fake.world.users[server.guild.owner_id], orders)

    assert fake.can_view(server.alice, press) and fake.can_view(server.bob, press)
    assert not fake.can_view(carol, press)
    assert fake.can_view(server.mod, press)  # Manage Threads sees private threads, as on Discord
    assert "Only France reads this" in fake.seen_texts(server.alice)
    assert "Only France reads this" not in fake.seen_texts(server.bob)
    assert "Secret press between France and Germany" in fake.seen_texts(server.bob)
    assert "Secret press between France and Germany" not in fake.seen_texts(carol)
    assert fake.failed_calls == []


async def test_overwrite_arithmetic_follows_discord(fake: FakeDiscord, server: Server) -> None:
    guild, alice, bob = server.guild, server.alice, server.bob
    players = await fake.create_role(guild, "Players")
    muted = await fake.create_role(guild, "Muted")
    admins = await fake.create_role(guild, "Admins", Permission.ADMINISTRATOR)
    carol = await fake.create_user("carol")
    await fake.add_member(guild, carol, admins)
    await fake.set_roles(guild, alice, players)
    await fake.set_roles(guild, bob, players, muted)
    view = Permission.VIEW_CHANNEL
    channel = await fake.create_channel(
        guild,
        "Lobby",
        overwrites=[
            overwrite(guild.everyone_role, deny=view),
            overwrite(players, allow=view | Permission.SEND_MESSAGES),
            overwrite(muted, deny=view),
        ],
    )
    assert channel.name == "lobby"
    # Role overwrites are combined before applying: the allow of one role beats the deny of another.
    assert fake.can_view(alice, channel) and fake.can_view(bob, channel)
    assert not fake.can_view(server.mod, channel)
    assert fake.can_view(carol, channel)  # ADMINISTRATOR ignores overwrites
    # A member overwrite beats every role overwrite.
    await fake.set_overwrite(channel, bob, deny=view)
    assert not fake.can_view(bob, channel)
    await fake.set_overwrite(channel, server.mod, allow=view)
    assert fake.can_view(server.mod, channel)
    # Without VIEW_CHANNEL nothing else counts; without SEND_MESSAGES, attaching files is gone too.
    assert fake.permissions(bob, channel) == 0
    await fake.set_overwrite(channel, players, allow=view, deny=Permission.SEND_MESSAGES)
    assert not fake.permissions(alice, channel) & Permission.ATTACH_FILES
    # A channel created in a category without overwrites syncs with the category.
    category = await fake.create_category(
        guild, "Secret", overwrites=[overwrite(guild.everyone_role, deny=view)]
    )
    child = await fake.create_channel(guild, "inside", category=category)
    assert not fake.can_view(alice, child) and fake.can_view(carol, child)


async def test_a_member_overwrite_hides_what_a_role_shows_but_not_from_an_administrator(
    fake: FakeDiscord, server: Server
) -> None:
    """A moderator role that shows a private channel and every private thread (View Channel in its
    overwrite, Manage Threads on the server) is beaten by a member overwrite; the owner and an
    Administrator pass every overwrite."""
    guild, mod = server.guild, server.mod
    view = Permission.VIEW_CHANNEL
    admins = await fake.create_role(guild, "Admins", Permission.ADMINISTRATOR)
    carol = await fake.create_user("carol")
    await fake.add_member(guild, carol, admins)
    owner = fake.world.users[guild.owner_id]
    private = await fake.create_channel(
        guild,
        "france",
        overwrites=[overwrite(guild.everyone_role, deny=view), overwrite(server.moderator_role, allow=view)],
    )
    talks = await fake.create_channel(
        guild,
        "talks",
        overwrites=[
            overwrite(guild.everyone_role, deny=view),
            overwrite(server.moderator_role, allow=view),
            overwrite(server.alice, allow=view),
            overwrite(server.bob, allow=view),
        ],
    )
    thread = await fake.create_thread(talks, "alice-bob", owner=server.alice, members=(server.bob,))
    assert fake.can_view(mod, private) and fake.can_view(mod, thread), "the role shows both"
    for user in (mod, carol, owner):
        await fake.set_overwrite(private, user, deny=view)
        await fake.set_overwrite(talks, user, allow=view, deny=Permission.MANAGE_THREADS)
    assert not fake.can_view(mod, private) and fake.can_view(mod, talks) and not fake.can_view(mod, thread)
    for unbound in (carol, owner):
        assert fake.can_view(unbound, private) and fake.can_view(unbound, thread)
    await fake.add_thread_member(thread, mod)
    assert fake.can_view(mod, thread), "a member of a private thread sees it"


async def test_only_an_administrator_sets_manage_roles_in_an_overwrite(
    fake: FakeDiscord, server: Server, bot: TinyBot
) -> None:
    """Discord lets a bot allow or deny Manage Roles ("Manage Permissions") in a channel overwrite
    only as an administrator or with that permission in an overwrite of its own there."""
    channel = bot.get_channel(server.general.id)
    assert isinstance(channel, discord.TextChannel)
    alice = channel.guild.get_member(server.alice.id) or await channel.guild.fetch_member(server.alice.id)
    with pytest.raises(discord.Forbidden) as refused:
        await channel.set_permissions(alice, manage_roles=False, manage_threads=False)
    assert refused.value.code == 50013
    await channel.set_permissions(alice, manage_threads=False, view_channel=True)
    assert not fake.permissions(server.alice, server.general) & Permission.MANAGE_THREADS
    await fake.set_overwrite(server.general, fake.world.bot, allow=Permission.MANAGE_ROLES)
    await channel.set_permissions(alice, manage_roles=False)


async def test_user_thread_privacy_and_public_threads(fake: FakeDiscord, server: Server) -> None:
    private = await fake.create_thread(server.general, "alice-bob", owner=server.alice, members=(server.bob,))
    public = await fake.create_thread(server.general, "table-talk", owner=server.alice, private=False)
    outsider = await fake.create_user("outsider")
    await fake.add_member(server.guild, outsider)
    assert fake.can_view(server.bob, private) and not fake.can_view(outsider, private)
    assert fake.can_view(outsider, public)
    await fake.say(server.alice, private, "psst")
    assert "psst" not in fake.seen_texts(outsider)
    with pytest.raises(UserActionError):
        await fake.say(outsider, private, "let me in")
    await fake.remove_member(server.guild, server.bob)
    assert not fake.can_view(server.bob, private) and not fake.can_view(server.bob, server.general)
    assert server.bob.id not in private.thread_members


async def test_bot_without_access_gets_missing_access(
    fake: FakeDiscord, server: Server, bot: TinyBot
) -> None:
    hidden = await fake.create_channel(
        server.guild,
        "staff",
        overwrites=[overwrite(server.guild.everyone_role, deny=Permission.VIEW_CHANNEL)],
    )
    channel = bot.get_channel(hidden.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.Forbidden) as raised:
        await channel.send("hello?")
    assert raised.value.code == 50001
    assert fake.channel_messages(hidden) == []


async def test_gateway_resume_replays_missed_events(fake: FakeDiscord, server: Server, bot: TinyBot) -> None:
    await fake.drop_gateway()
    handle = await fake.dm_bot(server.alice, "sent while disconnected")
    await fake.wait_for_gateway(resumes=1)
    assert (await handle).content == "got: sent while disconnected"
    assert fake.gateway.identify_count == 1
    session = fake.gateway.session
    assert session is not None
    assert [event["s"] for event in session.events] == list(range(1, session.seq + 1))
    await fake.flush()
    assert bot.ws.sequence == session.seq


async def test_late_acknowledgement_is_refused(fake: FakeDiscord, server: Server, bot: TinyBot) -> None:
    fake.ack_deadline = 0.0
    handle = await fake.slash(
        server.alice, "game", "create", options={"name": "late"}, channel=server.general
    )
    await fake.wait_for(lambda: fake.failed_calls or None, what="the late callback to be refused")
    assert fake.failed_calls[0].error == {"message": "Unknown interaction", "code": 10062}
    assert not handle.interaction.acknowledged


async def test_unknown_routes_are_answered_and_recorded(
    fake: FakeDiscord, server: Server, bot: TinyBot
) -> None:
    route = discord.http.Route("GET", "/guilds/{guild_id}/bans", guild_id=server.guild.id)
    with pytest.raises(discord.NotFound):
        await bot.http.request(route)
    [unknown] = fake.unknown_calls
    assert unknown.path == f"/guilds/{server.guild.id}/bans" and unknown.status == 404
    fake.rest_log.remove(unknown)  # keep the fixture's "no unknown routes" check for the other tests


async def test_a_client_gone_mid_upload_is_recorded_not_taken_for_a_fault_of_the_fake(
    fake: FakeDiscord, server: Server
) -> None:
    # A bot process killed while it uploads a map: the fake sees the connection close in the middle
    # of a multipart body. That is the client's doing, so no internal error (tests assert none).
    host, port = fake.base_url.removeprefix("http://").split(":")
    _, writer = await asyncio.open_connection(host, int(port))
    path = f"/api/v10/channels/{server.general.id}/messages"
    boundary = "cut-here"
    part = f'--{boundary}\r\nContent-Disposition: form-data; name="files[0]"; filename="map.png"\r\n'
    writer.write(
        (
            f"POST {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bot {fake.token}\r\n"
            f"Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: 100000\r\n\r\n"
            f"{part}"
        ).encode()
    )
    await writer.drain()
    await fake.wait_for(
        lambda: next((c for c in fake.rest_log if c.path.endswith("/messages")), None),
        what="the upload to reach the fake",
    )
    writer.close()
    await writer.wait_closed()
    [call] = await fake.wait_for(
        lambda: [c for c in fake.rest_log if c.disconnected] or None, what="the cut upload to be recorded"
    )
    assert call.path.endswith("/messages") and call.status == 0
    assert fake.internal_errors == []
    assert fake.channel_messages(server.general) == []


async def test_public_defer_makes_an_ephemeral_followup_public(fake: FakeDiscord, server: Server) -> None:
    """A real leak Discord allows: the first followup after a public defer keeps the public visibility."""
    bot = TinyBot()

    @bot.tree.command(name="leaky", description="Defers publicly, then tries to whisper")
    async def leaky(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("your orders: A PAR - BUR", ephemeral=True)
        await interaction.followup.send("second followup", ephemeral=True)

    async with running_bot(bot, fake):
        handle = await fake.slash(server.alice, "leaky", channel=server.general)
        first = await handle.message()
        [second] = await handle.followups(1)
    assert not first.ephemeral and first.content == "your orders: A PAR - BUR"
    assert "your orders: A PAR - BUR" in fake.seen_texts(server.bob)
    assert second.ephemeral and "second followup" not in fake.seen_texts(server.bob)


async def test_channel_upkeep_routes_through_discord_py(
    fake: FakeDiscord, server: Server, bot: TinyBot
) -> None:
    guild = bot.get_guild(server.guild.id)
    assert guild is not None
    channel = guild.get_channel(server.general.id)
    assert isinstance(channel, discord.TextChannel)
    alice = await guild.fetch_member(server.alice.id)
    assert alice.name == "alice"
    assert {r.name for r in await guild.fetch_roles()} >= {"@everyone", "Moderator"}
    assert (await bot.fetch_channel(server.general.id)).id == server.general.id

    await channel.edit(name="Results Board", topic="phase results")
    assert (server.general.name, server.general.topic) == ("Results Board", "phase results")
    await channel.set_permissions(alice, view_channel=False)
    assert not fake.can_view(server.alice, server.general)
    await channel.set_permissions(alice, overwrite=None)
    assert fake.can_view(server.alice, server.general)

    posted = await channel.send("Spring 1901 results", file=discord.File(io.BytesIO(tiny_png()), "s1901.png"))
    [attachment] = posted.attachments
    assert await attachment.read() == tiny_png()  # downloaded from the fake's CDN route
    await posted.pin()
    assert [m.content async for m in channel.pins()] == ["Spring 1901 results"]
    await posted.unpin()
    await posted.edit(content="Spring 1901 results (corrected)")
    history = [m.content async for m in channel.history(limit=5)]
    assert history == ["Spring 1901 results (corrected)"]

    thread = await channel.create_thread(name="press", type=discord.ChannelType.private_thread)
    await thread.add_user(alice)
    assert fake.can_view(server.alice, fake.world.channels[thread.id])
    await thread.remove_user(alice)
    assert not fake.can_view(server.alice, fake.world.channels[thread.id])

    await posted.delete()
    assert fake.channel_messages(server.general) == []
    await channel.delete()
    assert server.general.id not in fake.world.channels
    assert fake.failed_calls == []


async def test_injected_403_and_404_reach_the_bot(fake: FakeDiscord, server: Server, bot: TinyBot) -> None:
    guild = bot.get_guild(server.guild.id)
    assert guild is not None
    fake.inject_fault("GET /guilds/*/members/*", 404, code=10007, message="Unknown Member")
    with pytest.raises(discord.NotFound) as missing:
        await guild.fetch_member(server.alice.id)
    assert missing.value.code == 10007
    fake.inject_fault("GET /guilds/{guild_id}/members/{user_id}", 403)
    with pytest.raises(discord.Forbidden):
        await guild.fetch_member(server.alice.id)
    assert (await guild.fetch_member(server.alice.id)).id == server.alice.id  # faults are used up
    assert fake.faults.pending() == []


class IntentsBot(discord.Client):
    """Records what the gateway delivered, to check the fake filters events by intents like Discord."""

    def __init__(self, intents: discord.Intents) -> None:
        super().__init__(intents=intents)
        self.joined: list[str] = []
        self.guild_messages: list[str] = []

    async def on_member_join(self, member: discord.Member) -> None:
        self.joined.append(member.name)

    async def on_message(self, message: discord.Message) -> None:
        if message.guild is not None:
            self.guild_messages.append(message.content)


async def test_events_follow_the_intents_the_bot_asked_for(fake: FakeDiscord, server: Server) -> None:
    everything = discord.Intents.default()
    everything.members = everything.message_content = True
    async with running_bot(IntentsBot(everything), fake) as client:
        guild = client.get_guild(server.guild.id)
        assert guild is not None and {m.name for m in guild.members} >= {"alice", "bob", "mod"}
        await fake.add_member(server.guild, await fake.create_user("dave"))
        await fake.say(server.alice, server.general, "hello table")
        await fake.wait_for(lambda: client.guild_messages or None, what="the guild message")
    assert client.joined == ["dave"]
    assert client.guild_messages == ["hello table"]

    async with running_bot(IntentsBot(discord.Intents.default()), fake) as client:
        await fake.add_member(server.guild, await fake.create_user("erin"))
        await fake.say(server.alice, server.general, "no content intent")
        await fake.say(server.alice, server.general, f"{fake.world.bot.mention} ping")
        await fake.wait_for(lambda: len(client.guild_messages) == 2 or None, what="two guild messages")
    assert client.joined == []
    assert client.guild_messages == ["", f"{fake.world.bot.mention} ping"]


async def test_privileged_intents_must_be_allowed() -> None:
    from harness.fakediscord import fake_discord

    intents = discord.Intents.default()
    intents.members = True
    async with fake_discord(allowed_privileged_intents=0) as strict:
        await strict.create_guild("Strict")
        with pytest.raises(discord.PrivilegedIntentsRequired):
            async with running_bot(IntentsBot(intents), strict):
                pass


async def test_guild_command_sync_is_recorded_and_used(
    fake: FakeDiscord, server: Server, bot: TinyBot
) -> None:
    guild = discord.Object(id=server.guild.id)
    bot.tree.copy_global_to(guild=guild)
    synced = await bot.tree.sync(guild=guild)
    assert sorted(c.name for c in synced) == ["game", "mod"]
    assert {c.guild_id for c in fake.commands} == {None, server.guild.id}
    handle = await fake.slash(
        server.alice, "game", "create", options={"name": "local"}, channel=server.general
    )
    assert handle.interaction.payload["data"]["guild_id"] == str(server.guild.id)
    assert (await handle.message()).content == "Created local for 7 players"


async def test_a_nonce_sent_again_returns_the_first_message(
    fake: FakeDiscord, server: Server, bot: TinyBot
) -> None:
    channel = bot.get_channel(server.general.id)
    assert isinstance(channel, discord.TextChannel)
    first = await channel.send("part 1", nonce="gm7.0")  # discord.py sends enforce_nonce with a nonce
    again = await channel.send("part 1", nonce="gm7.0")
    other = await channel.send("part 2", nonce="gm7.1")
    assert again.id == first.id and other.id != first.id
    assert [m.content for m in fake.channel_messages(server.general)] == ["part 1", "part 2"]
    fake.world.limits.nonce_window_seconds = 0  # after Discord's window the nonce is free again
    later = await channel.send("part 1", nonce="gm7.0")
    assert later.id != first.id and len(fake.channel_messages(server.general)) == 3


async def test_a_role_mention_notifies_only_a_mentionable_role_or_a_mention_everyone_author(
    fake: FakeDiscord, server: Server, bot: TinyBot
) -> None:
    role = server.moderator_role
    text = f"<@&{role.id}> help"

    async def announce() -> list[str]:
        await (
            await fake.slash(server.alice, "game", "announce", options={"text": text}, channel=server.general)
        )
        [posted] = fake.channel_messages(server.general)[-1:]
        return payloads.mentions_of(fake.world, posted)["mention_roles"]

    assert await announce() == [], "a role nobody may mention notifies nobody"
    await fake.set_role_mentionable(server.guild, role, True)
    assert await announce() == [str(role.id)]
    await fake.set_role_mentionable(server.guild, role, False)
    bot_role = next(r for r in server.guild.roles.values() if r.managed)
    bot_role.permissions |= Permission.MENTION_EVERYONE
    assert await announce() == [str(role.id)], "Mention Everyone lets the author ping any role"


async def test_server_limits_are_enforced_like_discord(
    fake: FakeDiscord, server: Server, bot: TinyBot
) -> None:
    guild = bot.get_guild(server.guild.id)
    assert guild is not None
    fake.world.limits.channels = len(fake.world.guild_channels(server.guild.id)) + 3
    fake.world.limits.per_category = 1
    fake.world.limits.active_threads = 1
    category = await guild.create_category("Game 1")
    await guild.create_text_channel("one", category=category)
    with pytest.raises(discord.HTTPException) as full_category:
        await guild.create_text_channel("two", category=category)
    assert full_category.value.code == 50035 and "in category" in full_category.value.text
    await guild.create_text_channel("two")
    with pytest.raises(discord.HTTPException) as full_server:
        await guild.create_text_channel("three")
    assert full_server.value.code == 30013
    general = guild.get_channel(server.general.id)
    assert isinstance(general, discord.TextChannel)
    thread = await general.create_thread(name="a", type=discord.ChannelType.private_thread)
    await thread.add_user(discord.Object(id=server.alice.id))
    with pytest.raises(discord.HTTPException) as too_many:
        await general.create_thread(name="b", type=discord.ChannelType.private_thread)
    assert too_many.value.code == 160006
    await thread.edit(archived=True, locked=True)  # an archived thread no longer counts
    await general.create_thread(name="c", type=discord.ChannelType.private_thread)
    archived = [t async for t in general.archived_threads(private=True)]
    assert [t.name for t in archived] == ["a"] and archived[0].locked
    await fake.flush()
    with pytest.raises(UserActionError, match="locked"):
        await fake.say(server.alice, fake.world.channels[thread.id], "hello")
