"""A started game's places on the server: its category, public game channel, one private channel per
power, and the private negotiation spaces between pairs of seats (a seat is one player and every power
they hold; powers nobody plays get none).

Per game, by press setting (Discord allows 500 channels per server, 50 per category, 1,000 active
threads per server; threads do not count as channels):
- ``threads`` (the default): category + game channel + 7 power channels + 1 negotiation channel
  = 10 channels, and one private thread per pair of seats in the negotiation channel: 21 with 7
  players, 15 with 6, 10 with 5, 6 with 4, 3 with 3, 1 with 2;
- ``channels``: category + game channel + 7 + one channel per pair of seats (at most 21) = 30;
- ``public`` and ``none``: category + game channel + 7 = 9 channels (``none`` also closes the game
  channel to chat).
So a server holds 50 running seven-player games with threads (47 by the 1,000 active threads; a
finished game's threads are archived, see cogs.archive), 16 with pair channels, 55 without private
press. A start that would pass a limit is refused before anything is made, and a limit Discord
reports anyway is said as such.

A seat's spaces are named with its powers ("Austria/France – England"), so a replacement (who takes
the whole seat) and a power joining a side (the 1914 coin flip: its player already has the seat's
spaces) find them by name.

Set-up is idempotent: a second run for the same game (after a failure, a crash, or a start that was
still working) reuses the category, channels and threads it finds by name instead of making copies.

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
MEMBER = discord.PermissionOverwrite(view_channel=True, send_messages=True, read_message_history=True)
THREADS_ONLY = discord.PermissionOverwrite(
    view_channel=True,
    read_message_history=True,
    send_messages=False,
    send_messages_in_threads=True,
    create_public_threads=False,
    create_private_threads=False,
)


CHANNEL_LIMIT = 500
ACTIVE_THREAD_LIMIT = 1000
LIMIT_CODES = frozenset({30013, 160006})  # maximum guild channels, maximum active threads
CATEGORY_FULL = "CHANNEL_PARENT_MAX_CHANNELS"  # 400 50035 on parent_id: 50 channels in the category

PAIR_TOPIC = "Private talks between"  # how a pair channel's topic starts (see negotiation_places)
Seat = tuple[str, ...]
"""The powers one player holds, sorted."""


class SpacesFailed(GameError):
    """Discord refused to create the game's channels; what was made has been removed again."""


@dataclass
class GameSpaces:
    category: discord.CategoryChannel
    game_channel: discord.TextChannel
    power_channels: dict[str, discord.TextChannel] = field(default_factory=dict)
    negotiation: dict[tuple[Seat, Seat], discord.abc.GuildChannel | discord.Thread] = field(
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


def seats(game: GameInfo) -> list[Seat]:
    """Each player's powers, one seat per player, in the order of their first power."""
    by_user: dict[int, list[str]] = {}
    for power, user in sorted(game.powers.items()):
        if user is not None:
            by_user.setdefault(user, []).append(power)
    return [tuple(powers) for powers in by_user.values()]


def pairs(game: GameInfo) -> list[tuple[Seat, Seat]]:
    """Pairs of seats that get a private space (one per pair of players)."""
    return list(itertools.combinations(seats(game), 2))


def seat_label(seat: Seat) -> str:
    """``Austria/France``: how a seat is named in its spaces."""
    return "/".join(power_name(p) for p in seat)


def seat_slug(seat: Seat) -> str:
    """``austria_france``: a seat in a channel name (pair channels are ``g3-austria_france-england``)."""
    return "_".join(p.lower() for p in seat)


def places_needed(game: GameInfo) -> tuple[int, int]:
    """(channels, threads) a full set-up of ``game`` makes."""
    press, powers, talks = game.settings.press, len(game.powers), len(pairs(game))
    channels = 2 + powers
    if press == "channels":
        return channels + talks, 0
    if press == "threads" and talks:
        return channels + 1, talks
    return channels, 0


async def create_spaces(guild: discord.Guild, game: GameInfo, moderator_role_name: str) -> GameSpaces:
    """Create (or complete) the category and channels of a started game (see the module docstring).
    On a Discord error everything made by this run is deleted again and SpacesFailed says what to fix."""
    made: list[discord.abc.GuildChannel] = []
    builder = _Builder(guild, game, moderator_role(guild, moderator_role_name), made)
    _check_room(guild, game, builder)
    try:
        return await builder.build()
    except discord.HTTPException as exc:
        log.warning("creating the channels of game %s failed: %s", game.id, exc)
        for channel in reversed(made):
            try:
                await channel.delete(reason="game set-up failed; cleaning up")
            except discord.HTTPException:
                log.warning("could not delete channel %s while cleaning up", channel.id)
        if exc.code in LIMIT_CODES or CATEGORY_FULL in (exc.text or "") or "in category" in (exc.text or ""):
            raise _full(game, exc.text or "a limit was reached") from exc
        lacking = missing_permissions(guild)
        need = f"I need these permissions: {', '.join(lacking)}." if lacking else ""
        raise SpacesFailed(
            f"Discord refused to create the channels of {game.name} ({exc.status}: {exc.text or 'error'}).",
            f"{need} A server admin can fix my role; then run /game start again to finish.".strip(),
        ) from exc


def _check_room(guild: discord.Guild, game: GameInfo, builder: _Builder) -> None:
    """Refuse before making anything when the set-up would pass the server's channel or thread limit."""
    channels, threads = builder.still_needed()
    if len(guild.channels) + channels > CHANNEL_LIMIT:
        raise _full(
            game,
            f"this server has {len(guild.channels)} of Discord's {CHANNEL_LIMIT} channels and the game "
            f"needs {channels} more",
        )
    if len(guild.threads) + threads > ACTIVE_THREAD_LIMIT:
        raise _full(
            game,
            f"this server has {len(guild.threads)} of Discord's {ACTIVE_THREAD_LIMIT} active threads and "
            f"the game needs {threads} more",
        )


def _full(game: GameInfo, why: str) -> SpacesFailed:
    return SpacesFailed(
        f"I cannot make the channels of {game.name}: {why.rstrip('.')}. That is Discord's limit, not a "
        "missing permission.",
        "Delete channels or categories nobody needs any more (finished games' places are kept read-only "
        "until someone deletes them), or play with fewer private spaces (press:public or press:none); "
        "then run /game start again.",
    )


Overwrites = dict[discord.Role | discord.Member | discord.Object, discord.PermissionOverwrite]


class _Builder:
    """Creates one game's places, reusing those a previous run left (found by name in the game's
    category), remembering each one it makes so a failure can remove them again."""

    def __init__(
        self,
        guild: discord.Guild,
        game: GameInfo,
        mods: discord.Role | None,
        made: list[discord.abc.GuildChannel],
    ) -> None:
        self.guild, self.game, self.mods, self.made = guild, game, mods, made
        self.prefix = f"g{game.id}"
        self.category_name = f"Diplomacy #{game.id}: {game.name}"[:100]
        self.existing = _existing_category(guild, game.id)

    # --- what it makes, by name ---------------------------------------------------------------------

    def game_channel_name(self) -> str:
        return f"{self.prefix}-{slug(self.game.name)}"

    def power_channel_name(self, power: str) -> str:
        return f"{self.prefix}-{power.lower()}"

    def pair_channel_name(self, a: Seat, b: Seat) -> str:
        return f"{self.prefix}-{seat_slug(a)}-{seat_slug(b)}"

    def negotiation_name(self) -> str:
        return negotiation_channel_name(self.game.id)

    def channel_names(self) -> list[str]:
        names = [self.game_channel_name(), *(self.power_channel_name(p) for p in sorted(self.game.powers))]
        press = self.game.settings.press
        if press == "channels":
            names += [self.pair_channel_name(a, b) for a, b in pairs(self.game)]
        elif press == "threads" and pairs(self.game):
            names.append(self.negotiation_name())
        return names

    def still_needed(self) -> tuple[int, int]:
        """(channels, threads) this run must still make, after what it can reuse."""
        if self.existing is None:
            return places_needed(self.game)
        have = {c.name for c in self.existing.channels}
        channels = sum(name not in have for name in self.channel_names())
        parent = self._found(self.negotiation_name())
        wanted = (
            {thread_name(a, b) for a, b in pairs(self.game)}
            if self.game.settings.press == "threads"
            else set()
        )
        threads = (
            len(wanted - {t.name for t in parent.threads})
            if isinstance(parent, discord.TextChannel)
            else len(wanted)
        )
        return channels, threads

    # --- making -------------------------------------------------------------------------------------

    def private(self, *user_ids: int, member: discord.PermissionOverwrite = MEMBER) -> Overwrites:
        overwrites: Overwrites = {self.guild.default_role: _HIDDEN, self.guild.me: _BOT}
        if self.mods is not None:
            overwrites[self.mods] = MEMBER
        for user_id in user_ids:
            overwrites[discord.Object(id=user_id)] = member
        return overwrites

    def _found(self, name: str) -> discord.abc.GuildChannel | None:
        if self.existing is None:
            return None
        return discord.utils.get(self.existing.channels, name=name)

    async def text_channel(
        self, name: str, category: discord.CategoryChannel, overwrites: Overwrites, topic: str
    ) -> discord.TextChannel:
        found = self._found(name)
        if isinstance(found, discord.TextChannel):
            return found
        channel = await self.guild.create_text_channel(
            name, category=category, overwrites=overwrites, topic=topic
        )
        self.made.append(channel)
        return channel

    async def build(self) -> GameSpaces:
        game, guild = self.game, self.guild
        category = self.existing
        if category is None:
            category = await guild.create_category(
                self.category_name, overwrites={guild.me: _BOT}, reason=f"game {game.id} started"
            )
            self.made.append(category)
        public: Overwrites = {guild.me: _BOT}
        if game.settings.press == "none":
            public[guild.default_role] = discord.PermissionOverwrite(
                send_messages=False, create_public_threads=False, create_private_threads=False
            )
        game_channel = await self.text_channel(
            self.game_channel_name(),
            category,
            public,
            f"Diplomacy game #{game.id}: results, maps and deadlines.",
        )
        spaces = GameSpaces(category, game_channel)
        for power, user_id in sorted(game.powers.items()):
            spaces.power_channels[power] = await self.text_channel(
                self.power_channel_name(power),
                category,
                self.private(*((user_id,) if user_id is not None else ())),
                f"{power_name(power)}'s private channel: only its player, the moderators and the bot.",
            )
        if game.settings.press == "channels":
            for a, b in pairs(game):
                spaces.negotiation[(a, b)] = await self.text_channel(
                    self.pair_channel_name(a, b),
                    category,
                    self.private(*self._players(*a, *b)),
                    f"{PAIR_TOPIC} {seat_label(a)} and {seat_label(b)}.",
                )
        elif game.settings.press == "threads" and pairs(game):
            await self._threads(category, spaces)
        return spaces

    async def _threads(self, category: discord.CategoryChannel, spaces: GameSpaces) -> None:
        game = self.game
        users = sorted({u for u in game.powers.values() if u is not None})
        parent = await self.text_channel(
            self.negotiation_name(),
            category,
            self.private(*users, member=THREADS_ONLY),
            "Private talks: one private thread per pair of players, visible only to those two.",
        )
        for a, b in pairs(game):
            name = thread_name(a, b)
            thread = discord.utils.get(parent.threads, name=name)
            if thread is None:
                thread = await parent.create_thread(
                    name=name,
                    type=discord.ChannelType.private_thread,
                    invitable=False,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                )
            for user_id in self._players(*a, *b):
                await thread.add_user(discord.Object(id=user_id))
            spaces.negotiation[(a, b)] = thread

    def _players(self, *powers: str) -> list[int]:
        return sorted({u for p in powers if (u := self.game.powers.get(p)) is not None})


def negotiation_channel_name(game_id: int) -> str:
    """``g3-negotiation``: the channel that holds a game's negotiation threads (threads press)."""
    return f"g{game_id}-negotiation"


def thread_name(a: Seat, b: Seat) -> str:
    return f"{seat_label(a)} – {seat_label(b)}"[:100]


def _existing_category(guild: discord.Guild, game_id: int) -> discord.CategoryChannel | None:
    """The category an earlier set-up of this game made (its name starts with "Diplomacy #id:")."""
    marker = f"Diplomacy #{game_id}:"
    return next((c for c in guild.categories if c.name.startswith(marker)), None)


async def post_introductions(spaces: GameSpaces, game: GameInfo) -> None:
    """A first message in each private place that has none yet (a re-run does not repeat them),
    saying what it is for (best effort: logged on failure)."""
    for power, channel in spaces.power_channels.items():
        if channel.last_message_id is None:
            await _say(channel, power_intro(power, game.powers.get(power)))
    for (a, b), place in spaces.negotiation.items():
        if getattr(place, "last_message_id", None) is None:
            await _say(
                place,
                f"Private talks between {_seat_text(a, game)} and {_seat_text(b, game)}. "
                "No other player can read this.",
            )


def power_intro(power: str, user_id: int | None) -> str:
    if user_id is None:
        return (
            f"This is **{power_name(power)}**'s private channel. {power_name(power)} is neutral: nobody "
            "plays it and its units hold. Only the moderators and I can read this channel; should the "
            "power join a side (the 1914 game's coin flip), its new player gets this channel."
        )
    return (
        f"This is **{power_name(power)}**'s private channel, played by <@{user_id}>. Only its player, the "
        "moderators and I can read it. I post your calls to order here. Send orders with `/order` or "
        "`/orders edit` (only you see those), by direct message to me, or here in a message that "
        "mentions me (the moderators can read it; I answer here without repeating your orders)."
    )


def _seat_text(seat: Seat, game: GameInfo) -> str:
    user = game.powers.get(seat[0])
    return f"**{seat_label(seat)}** (<@{user}>)"


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
            await _quietly(channel.set_permissions(user, overwrite=MEMBER))
    for place in negotiation_places(guild, game_id, powers):
        if isinstance(place, discord.Thread):
            await _quietly(place.add_user(user))
        else:
            overwrite = THREADS_ONLY if place.name == negotiation_channel_name(game_id) else MEMBER
            await _quietly(place.set_permissions(user, overwrite=overwrite))
    return True


def negotiation_places(
    guild: discord.Guild, game_id: int, powers: list[str]
) -> list[discord.TextChannel | discord.Thread]:
    """The negotiation channel of a game (threads press) and the threads or pair channels (channels
    press) of a seat holding one of ``powers``, found by the names :class:`_Builder` gives."""
    prefix = f"g{game_id}-"
    wanted = {p.lower() for p in powers}
    found: list[discord.TextChannel | discord.Thread] = []
    for channel in guild.text_channels:
        if channel.name == negotiation_channel_name(game_id):
            found.append(channel)
            found.extend(t for t in channel.threads if wanted & _thread_powers(t.name))
        elif channel.name.startswith(prefix) and (channel.topic or "").startswith(PAIR_TOPIC):
            named = set(re.split(r"[-_]", channel.name[len(prefix) :]))
            if named <= KNOWN_POWERS and wanted & named:
                found.append(channel)
    return found


def _thread_powers(name: str) -> set[str]:
    return {part.strip().lower() for part in re.split(r"[–/]", name)}


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
