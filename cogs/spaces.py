"""A started game's places on the server: its category, public game channel, one private channel per
power, and the private negotiation spaces between pairs of powers.

Per game, by press setting (Discord allows 500 channels per server, 50 per category; threads do not
count towards either):
- ``threads`` (the default): category + game channel + 7 power channels + 1 negotiation channel
  = 10 channels, and 21 private threads (one per pair of powers) in the negotiation channel;
- ``channels``: category + game channel + 7 + 21 pair channels = 30 channels;
- ``public`` and ``none``: category + game channel + 7 = 9 channels (``none`` also closes the game
  channel to chat).
So a server holds 50 running games with threads (the guild's 1,000 active threads allow 47), 16
with pair channels, 55 without private press.

Overwrites: private places deny @everyone VIEW_CHANNEL and allow the power's player(s), the bot
itself and the moderator role. A private thread is visible to its members and to whoever may
Manage Threads in the negotiation channel (server moderators who hold that permission).
"""

from __future__ import annotations

import itertools
import logging
import re
from collections.abc import Awaitable
from dataclasses import dataclass, field

import discord

from cogs.text import power_name
from gm.errors import GameError
from gm.variants import variants
from gm.views import GameInfo

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES = 10080  # a week: the longest Discord allows
KNOWN_POWERS = frozenset(p.lower() for v in variants() for p in v.game_map().powers)

BOT_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    manage_channels=True,
    manage_roles=True,
    create_private_threads=True,
    manage_threads=True,
)
"""What the bot needs on the server (and what its invite link asks for)."""

_BOT = discord.PermissionOverwrite(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    manage_channels=True,
    create_private_threads=True,
    manage_threads=True,
)
_HIDDEN = discord.PermissionOverwrite(view_channel=False)
_MEMBER = discord.PermissionOverwrite(view_channel=True, send_messages=True, read_message_history=True)
_THREADS_ONLY = discord.PermissionOverwrite(
    view_channel=True,
    read_message_history=True,
    send_messages=False,
    send_messages_in_threads=True,
    create_public_threads=False,
    create_private_threads=False,
)


class SpacesFailed(GameError):
    """Discord refused to create the game's channels; what was made has been removed again."""


@dataclass
class GameSpaces:
    category: discord.CategoryChannel
    game_channel: discord.TextChannel
    power_channels: dict[str, discord.TextChannel] = field(default_factory=dict)
    negotiation: dict[tuple[str, str], discord.abc.GuildChannel | discord.Thread] = field(
        default_factory=dict
    )


def missing_permissions(guild: discord.Guild) -> list[str]:
    """The permissions the bot lacks on the server to set a game up, by their Discord names."""
    have = guild.me.guild_permissions
    if have.administrator:
        return []
    return [
        name.replace("_", " ").title() for name, value in BOT_PERMISSIONS if value and not getattr(have, name)
    ]


def slug(text: str, limit: int = 40) -> str:
    cleaned = re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")
    return cleaned[:limit].strip("-") or "game"


def moderator_role(guild: discord.Guild, name: str) -> discord.Role | None:
    return discord.utils.get(guild.roles, name=name)


def pairs(game: GameInfo) -> list[tuple[str, str]]:
    """Pairs of powers that get a private space: both held, by different players."""
    held = {p: u for p, u in sorted(game.powers.items()) if u is not None}
    return [(a, b) for a, b in itertools.combinations(held, 2) if held[a] != held[b]]


async def create_spaces(guild: discord.Guild, game: GameInfo, moderator_role_name: str) -> GameSpaces:
    """Create the category and channels of a started game (see the module docstring). On a Discord
    error everything made so far is deleted again and SpacesFailed says what to fix."""
    made: list[discord.abc.GuildChannel] = []
    try:
        return await _Builder(guild, game, moderator_role(guild, moderator_role_name), made).build()
    except discord.HTTPException as exc:
        log.warning("creating the channels of game %s failed: %s", game.id, exc)
        for channel in reversed(made):
            try:
                await channel.delete(reason="game set-up failed; cleaning up")
            except discord.HTTPException:
                log.warning("could not delete channel %s while cleaning up", channel.id)
        lacking = missing_permissions(guild)
        need = f"I need these permissions: {', '.join(lacking)}." if lacking else ""
        raise SpacesFailed(
            f"Discord refused to create the channels of {game.name} ({exc.status}: {exc.text or 'error'}).",
            f"{need} A server admin can fix my role; then run /game start again to finish.".strip(),
        ) from exc


Overwrites = dict[discord.Role | discord.Member | discord.Object, discord.PermissionOverwrite]


class _Builder:
    """Creates one game's places, remembering each one so a failure can remove them again."""

    def __init__(
        self,
        guild: discord.Guild,
        game: GameInfo,
        mods: discord.Role | None,
        made: list[discord.abc.GuildChannel],
    ) -> None:
        self.guild, self.game, self.mods, self.made = guild, game, mods, made
        self.prefix = f"g{game.id}"

    def private(self, *user_ids: int, member: discord.PermissionOverwrite = _MEMBER) -> Overwrites:
        overwrites: Overwrites = {self.guild.default_role: _HIDDEN, self.guild.me: _BOT}
        if self.mods is not None:
            overwrites[self.mods] = _MEMBER
        for user_id in user_ids:
            overwrites[discord.Object(id=user_id)] = member
        return overwrites

    async def text_channel(
        self, name: str, category: discord.CategoryChannel, overwrites: Overwrites, topic: str
    ) -> discord.TextChannel:
        channel = await self.guild.create_text_channel(
            name, category=category, overwrites=overwrites, topic=topic
        )
        self.made.append(channel)
        return channel

    async def build(self) -> GameSpaces:
        game, guild = self.game, self.guild
        category = await guild.create_category(
            f"Diplomacy #{game.id}: {game.name}"[:100],
            overwrites={guild.me: _BOT},
            reason=f"game {game.id} started",
        )
        self.made.append(category)
        public: Overwrites = {guild.me: _BOT}
        if game.settings.press == "none":
            public[guild.default_role] = discord.PermissionOverwrite(
                send_messages=False, create_public_threads=False, create_private_threads=False
            )
        game_channel = await self.text_channel(
            f"{self.prefix}-{slug(game.name)}",
            category,
            public,
            f"Diplomacy game #{game.id}: results, maps and deadlines.",
        )
        spaces = GameSpaces(category, game_channel)
        for power, user_id in sorted(game.powers.items()):
            spaces.power_channels[power] = await self.text_channel(
                f"{self.prefix}-{power.lower()}",
                category,
                self.private(*((user_id,) if user_id is not None else ())),
                f"{power_name(power)}'s private channel: only its player, the moderators and the bot.",
            )
        if game.settings.press == "channels":
            for a, b in pairs(game):
                spaces.negotiation[(a, b)] = await self.text_channel(
                    f"{self.prefix}-{a.lower()}-{b.lower()}",
                    category,
                    self.private(*self._players(a, b)),
                    f"Private talks between {power_name(a)} and {power_name(b)}.",
                )
        elif game.settings.press == "threads" and pairs(game):
            await self._threads(category, spaces)
        return spaces

    async def _threads(self, category: discord.CategoryChannel, spaces: GameSpaces) -> None:
        game = self.game
        users = sorted({u for u in game.powers.values() if u is not None})
        parent = await self.text_channel(
            f"{self.prefix}-negotiation",
            category,
            self.private(*users, member=_THREADS_ONLY),
            "Private talks: one private thread per pair of powers, visible only to those two.",
        )
        for a, b in pairs(game):
            thread = await parent.create_thread(
                name=f"{power_name(a)} – {power_name(b)}",
                type=discord.ChannelType.private_thread,
                invitable=False,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
            for user_id in self._players(a, b):
                await thread.add_user(discord.Object(id=user_id))
            spaces.negotiation[(a, b)] = thread

    def _players(self, *powers: str) -> list[int]:
        return [u for p in powers if (u := self.game.powers.get(p)) is not None]


async def post_introductions(spaces: GameSpaces, game: GameInfo) -> None:
    """A first message in each private place saying what it is for (best effort: logged on failure)."""
    for power, channel in spaces.power_channels.items():
        user_id = game.powers.get(power)
        who = f"<@{user_id}>" if user_id is not None else "nobody (its units hold)"
        await _say(
            channel,
            f"This is **{power_name(power)}**'s private channel, played by {who}. Only its player, the "
            "moderators and I can read it. I post your calls to order here; send orders with "
            "`/orders edit`, `/order` or by direct message to me.",
        )
    for (a, b), place in spaces.negotiation.items():
        await _say(
            place,
            f"Private talks between **{power_name(a)}** (<@{game.powers[a]}>) and **{power_name(b)}** "
            f"(<@{game.powers[b]}>). No other player can read this thread.",
        )


async def _say(place: discord.abc.Messageable, text: str) -> None:
    try:
        await place.send(text)
    except discord.HTTPException as exc:
        log.warning("could not post an introduction: %s", exc)


async def evict(
    guild: discord.Guild, game_id: int, channel_ids: list[int], user_id: int, powers: list[str]
) -> None:
    """Take a player who left (or was replaced) out of their powers' private places: the power
    channels' overwrites, the negotiation threads or channels naming those powers, and the negotiation
    channel itself (they hold no power any more). Best effort, logged on failure."""
    user = await _member(guild, user_id)  # None: gone from the server, they see none of it anyway
    for channel_id in channel_ids:
        channel = guild.get_channel(channel_id)
        if isinstance(channel, discord.TextChannel) and user is not None:
            await _quietly(channel.set_permissions(user, overwrite=None))
    for place in negotiation_places(guild, game_id, powers):
        if isinstance(place, discord.Thread):
            await _quietly(place.remove_user(discord.Object(id=user_id)))
        elif user is not None:
            await _quietly(place.set_permissions(user, overwrite=None))


async def admit(
    guild: discord.Guild, game_id: int, channel_ids: list[int], user_id: int, powers: list[str]
) -> bool:
    """Let a player into the private places of powers they now hold (a replacement, a power joining
    a side): the power channels, the negotiation channel and the threads or pair channels naming those
    powers. Returns False when the player is not on the server. Idempotent; failures are logged."""
    user = await _member(guild, user_id)
    if user is None:
        log.warning("game %s: %s is not on the server; cannot open %s to them", game_id, user_id, powers)
        return False
    for channel_id in channel_ids:
        channel = guild.get_channel(channel_id)
        if isinstance(channel, discord.TextChannel):
            await _quietly(channel.set_permissions(user, overwrite=_MEMBER))
    for place in negotiation_places(guild, game_id, powers):
        if isinstance(place, discord.Thread):
            await _quietly(place.add_user(user))
        else:
            overwrite = _THREADS_ONLY if place.name == f"g{game_id}-negotiation" else _MEMBER
            await _quietly(place.set_permissions(user, overwrite=overwrite))
    return True


def negotiation_places(
    guild: discord.Guild, game_id: int, powers: list[str]
) -> list[discord.TextChannel | discord.Thread]:
    """The negotiation channel of a game (threads press) and the threads or pair channels (channels
    press) between one of ``powers`` and another power, found by the names :class:`_Builder` gives."""
    prefix = f"g{game_id}-"
    wanted = {p.lower() for p in powers}
    found: list[discord.TextChannel | discord.Thread] = []
    for channel in guild.text_channels:
        if channel.name == f"{prefix}negotiation":
            found.append(channel)
            found.extend(t for t in channel.threads if wanted & _thread_powers(t.name))
        elif channel.name.startswith(prefix):
            pair = channel.name[len(prefix) :].split("-")
            if len(pair) == 2 and set(pair) <= KNOWN_POWERS and wanted & set(pair):
                found.append(channel)
    return found


def _thread_powers(name: str) -> set[str]:
    return {part.strip().lower() for part in name.split("–")}


async def _member(guild: discord.Guild, user_id: int) -> discord.Member | None:
    member = guild.get_member(user_id)
    if member is not None:
        return member
    try:
        return await guild.fetch_member(user_id)
    except discord.HTTPException:
        return None


async def _quietly(call: Awaitable[object]) -> None:
    try:
        await call
    except (discord.HTTPException, ValueError) as exc:
        log.warning("could not update a private place: %s", exc)
