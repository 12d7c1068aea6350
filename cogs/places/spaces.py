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
finished game's threads are archived, see cogs.places.archive), 16 with pair channels, 55 without private
press. A start that would pass a limit is refused before anything is made, and a limit Discord
reports anyway is said as such.

Variants with more powers (gm.settings): ten players (Modern, Youngstown) make 13 channels and
45 threads with ``threads``; ``channels`` is refused past 9 players (10 would put 56 channels in one
category, where Discord allows 50). Past 10 players (Chaos: 34) pair press is refused altogether, as
561 pairs would be: such a game has its category, its game channel and one private channel per power
(36 channels; /game create picks ``public`` press for it when none is asked for).

A seat's spaces are named with its powers ("Austria/France – England"), so a replacement (who takes
the whole seat) and a power joining a side (the 1914 coin flip: its player already has the seat's
spaces) find them by name.

Set-up is idempotent: a second run for the same game (after a failure, a crash, or a start that was
still working) reuses the category, channels and threads this game recorded (their ids, stored the
moment each is made: gm.setup.places.record_place), and puts back the permissions and thread members each
should have. A place is never adopted by its name: one with the same name may be another game's, or a
game of another database on the same server (a restored backup, a second instance). Names carry the
game's random place tag (``g3-k7q2-france``) so that two games' places never share a name either.

Overwrites: private places deny @everyone VIEW_CHANNEL and allow the power's player(s), the bot
itself and the moderator role. A private thread is visible to its members and to whoever may
Manage Threads in the negotiation channel (server moderators who hold that permission).

Shields: nobody who holds a power reads a rival's place, whatever their roles. A member overwrite
comes after every role overwrite in Discord's arithmetic, so each player of the game gets one on every
private place that is not theirs: :data:`SHIELD` (no View Channel) on the other powers' channels and on
the pair channels they are not part of, and in the negotiation channel their own overwrite
(:data:`THREADS_ONLY`) denies Manage Threads, which would show them every private thread. A player is
made a member of their own threads only. (A member who may manage roles could edit these overwrites
away, in the server's audit log; Discord lets a bot set Manage Permissions in an overwrite only as an
administrator, so the bot cannot deny that too.)
Shields go on when a player takes a seat (the start, a replacement, a take-over); a player who leaves it
keeps them, and their own former places are shielded too (:func:`evict`), until the game ends
(cogs.places.archive takes the power channels' shields off; the talks stay shielded, as for any
player, unless the game's ``talks_after_end`` opens them). The server's owner and members with
Administrator pass every overwrite: nothing can hide a channel from them (:func:`sees_everything`).
"""

from __future__ import annotations

import itertools
import logging
import re
from collections.abc import Awaitable, Iterable
from dataclasses import dataclass, field
from typing import Literal

import discord

from cogs.places.members import member_of
from cogs.places.spectating import stop_watching
from cogs.shared.text import power_name
from gm.public import GameError, GameInfo, GamePlaces, MadePlaces, PlaceKind, Recorder, key_powers, pair_key

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: the longest Discord allows

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
    manage_threads=False,  # would show every private thread of the channel (a moderator's role grants it)
)
"""A player's overwrite on the negotiation channel: their own threads only, whatever their roles."""
SHIELD = discord.PermissionOverwrite(view_channel=False)
"""A player's overwrite on a rival's private place (another power's channel, a pair channel they are
not part of): it beats the View Channel a moderator role grants there (member overwrites come last)."""


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


def players_of(game: GameInfo) -> set[int]:
    """Everyone who holds a power in the game."""
    return {u for u in game.powers.values() if u is not None}


def pairs(game: GameInfo) -> list[tuple[Seat, Seat]]:
    """Pairs of seats that get a private space (one per pair of players); none in an anonymous game,
    whose talks the bot relays (a pair place would show its members: gm.facade.relaying)."""
    if game.settings.anonymous:
        return []
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


"""Stores the id of a place as soon as it is made (kind, id, key); see gm.setup.places.record_place."""


async def create_spaces(
    guild: discord.Guild,
    game: GameInfo,
    moderator_role_name: str,
    places: GamePlaces,
    record: Recorder,
) -> GameSpaces:
    """Create (or complete) the category and channels of a started game (see the module docstring),
    reusing only the places ``places`` recorded for this game. On a Discord error everything made by
    this run is deleted again and SpacesFailed says what to fix."""
    made: list[discord.abc.GuildChannel] = []
    builder = _Builder(guild, game, moderator_role(guild, moderator_role_name), made, places, record)
    await builder.find_recorded()
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


def place_prefix(game_id: int, tag: str | None) -> str:
    """How the names of a game's channels start: ``g3-k7q2`` (``g3`` for a game with no place tag)."""
    return f"g{game_id}-{tag}" if tag else f"g{game_id}"


def pair_channel_name(prefix: str, a: Seat, b: Seat) -> str:
    return f"{prefix}-{seat_slug(a)}-{seat_slug(b)}"


def negotiation_name(prefix: str) -> str:
    return f"{prefix}-negotiation"


def private_overwrites(
    guild: discord.Guild,
    mods: discord.Role | None,
    players: set[int],
    user_ids: Iterable[int],
    member: discord.PermissionOverwrite = MEMBER,
) -> Overwrites:
    """A private place of ``user_ids``: hidden from everyone else, open to the moderator role and the
    bot, shielded from the game's other ``players`` (see the module docstring)."""
    overwrites: Overwrites = {guild.default_role: _HIDDEN, guild.me: _BOT}
    if mods is not None:
        overwrites[mods] = MEMBER
    own = set(user_ids)
    for rival in sorted(players - own):
        overwrites[discord.Object(id=rival)] = SHIELD
    for user_id in sorted(own):
        overwrites[discord.Object(id=user_id)] = member
    return overwrites


class _Builder:
    """Creates one game's places, reusing only those this game recorded (by id: a place found by its
    name may be another game's, or left by another database), putting back on each the permissions and
    members it should have, and remembering each one it makes so a failure can remove them again."""

    def __init__(
        self,
        guild: discord.Guild,
        game: GameInfo,
        mods: discord.Role | None,
        made: list[discord.abc.GuildChannel],
        places: GamePlaces,
        record: Recorder,
    ) -> None:
        self.guild, self.game, self.mods, self.made = guild, game, mods, made
        self.places, self.record = places, record
        tag = places.place_tag
        self.prefix = place_prefix(game.id, tag)
        label = f"Diplomacy #{game.id} [{tag}]" if tag else f"Diplomacy #{game.id}"
        self.category_name = f"{label}: {game.name}"[:100]
        self.recorded: dict[tuple[str, str], discord.abc.GuildChannel | discord.Thread] = {}

    async def find_recorded(self) -> None:
        """Look up the places this game recorded that still exist (threads may need a fetch: an
        archived one is not in the cache)."""
        for (kind, key), place_id in self.places.made.items():
            place = self.guild.get_channel_or_thread(place_id)
            if place is None and kind == PlaceKind.THREAD:
                try:
                    fetched = await self.guild.fetch_channel(place_id)
                except discord.HTTPException:
                    fetched = None
                place = fetched if isinstance(fetched, discord.Thread) else None
            if place is not None and _fits(kind, place):
                self.recorded[(kind, key)] = place

    # --- what it makes, by name ---------------------------------------------------------------------

    def game_channel_name(self) -> str:
        name = f"{self.prefix}-{slug(self.game.name)}"
        others = set(self.channel_names(with_game=False))
        return f"{self.prefix}-game-{slug(self.game.name)}" if name in others else name

    def power_channel_name(self, power: str) -> str:
        return f"{self.prefix}-{power.lower()}"

    def pair_channel_name(self, a: Seat, b: Seat) -> str:
        return pair_channel_name(self.prefix, a, b)

    def negotiation_name(self) -> str:
        return negotiation_name(self.prefix)

    def channel_names(self, *, with_game: bool = True) -> list[str]:
        names = [self.game_channel_name()] if with_game else []
        names += [self.power_channel_name(p) for p in sorted(self.game.powers)]
        press = self.game.settings.press
        if press == "channels":
            names += [self.pair_channel_name(a, b) for a, b in pairs(self.game)]
        elif press == "threads" and pairs(self.game):
            names.append(self.negotiation_name())
        return names

    def wanted(self) -> list[tuple[PlaceKind, str]]:
        """The (kind, key) of every channel a full set-up has."""
        kinds: list[tuple[PlaceKind, str]] = [(PlaceKind.CATEGORY, ""), (PlaceKind.GAME_CHANNEL, "")]
        kinds += [(PlaceKind.POWER_CHANNEL, p) for p in sorted(self.game.powers)]
        press = self.game.settings.press
        if press == "channels":
            kinds += [(PlaceKind.PAIR_CHANNEL, pair_key(a, b)) for a, b in pairs(self.game)]
        elif press == "threads" and pairs(self.game):
            kinds.append((PlaceKind.NEGOTIATION, ""))
        return kinds

    def still_needed(self) -> tuple[int, int]:
        """(channels, threads) this run must still make, after what it can reuse."""
        channels = sum(place not in self.recorded for place in self.wanted())
        threads = 0
        if self.game.settings.press == "threads":
            threads = sum(
                (PlaceKind.THREAD, pair_key(a, b)) not in self.recorded for a, b in pairs(self.game)
            )
        return channels, threads

    # --- making -------------------------------------------------------------------------------------

    def private(self, *user_ids: int, member: discord.PermissionOverwrite = MEMBER) -> Overwrites:
        """A private place of ``user_ids`` (see :func:`private_overwrites`)."""
        return private_overwrites(self.guild, self.mods, players_of(self.game), user_ids, member)

    async def text_channel(
        self,
        kind: PlaceKind,
        key: str,
        name: str,
        category: discord.CategoryChannel,
        overwrites: Overwrites,
        topic: str,
    ) -> discord.TextChannel:
        found = self.recorded.get((kind, key))
        if isinstance(found, discord.TextChannel):
            await _enforce(found, overwrites)
            return found
        channel = await self.guild.create_text_channel(
            name, category=category, overwrites=overwrites, topic=topic
        )
        self.made.append(channel)
        await self.record(kind, channel.id, key)
        return channel

    async def build(self) -> GameSpaces:
        game, guild = self.game, self.guild
        category = self.recorded.get((PlaceKind.CATEGORY, ""))
        if isinstance(category, discord.CategoryChannel):
            await _enforce(category, {guild.me: _BOT})
        else:
            category = await guild.create_category(
                self.category_name, overwrites={guild.me: _BOT}, reason=f"game {game.id} started"
            )
            self.made.append(category)
            await self.record(PlaceKind.CATEGORY, category.id, "")
        public: Overwrites = {guild.me: _BOT}
        if game.settings.press == "none":
            public[guild.default_role] = discord.PermissionOverwrite(
                send_messages=False, create_public_threads=False, create_private_threads=False
            )
        game_channel = await self.text_channel(
            PlaceKind.GAME_CHANNEL,
            "",
            self.game_channel_name(),
            category,
            public,
            f"Diplomacy game #{game.id}: results, maps and deadlines.",
        )
        spaces = GameSpaces(category, game_channel)
        for power, user_id in sorted(game.powers.items()):
            spaces.power_channels[power] = await self.text_channel(
                PlaceKind.POWER_CHANNEL,
                power,
                self.power_channel_name(power),
                category,
                self.private(*((user_id,) if user_id is not None else ())),
                f"{power_name(power)}'s private channel: only its player, the moderators and the bot.",
            )
        if game.settings.press == "channels":
            for a, b in pairs(game):
                spaces.negotiation[(a, b)] = await self.text_channel(
                    PlaceKind.PAIR_CHANNEL,
                    pair_key(a, b),
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
            PlaceKind.NEGOTIATION,
            "",
            self.negotiation_name(),
            category,
            self.private(*users, member=THREADS_ONLY),
            "Private talks: one private thread per pair of players, visible only to those two.",
        )
        for a, b in pairs(game):
            key = pair_key(a, b)
            found = self.recorded.get((PlaceKind.THREAD, key))
            thread = found if isinstance(found, discord.Thread) and found.parent_id == parent.id else None
            members = self._players(*a, *b)
            if thread is None:
                thread = await parent.create_thread(
                    name=thread_name(a, b),
                    type=discord.ChannelType.private_thread,
                    invitable=False,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                )
                await self.record(PlaceKind.THREAD, thread.id, key)
            else:
                await _keep_only(thread, set(members))
            for user_id in members:
                await thread.add_user(discord.Object(id=user_id))
            spaces.negotiation[(a, b)] = thread

    def _players(self, *powers: str) -> list[int]:
        return sorted({u for p in powers if (u := self.game.powers.get(p)) is not None})


def _fits(kind: str, place: discord.abc.GuildChannel | discord.Thread) -> bool:
    if kind == PlaceKind.CATEGORY:
        return isinstance(place, discord.CategoryChannel)
    if kind == PlaceKind.THREAD:
        return isinstance(place, discord.Thread)
    return isinstance(place, discord.TextChannel)


async def _enforce(place: discord.TextChannel | discord.CategoryChannel, overwrites: Overwrites) -> None:
    """Put back the permissions a reused place should have: exactly ``overwrites``, nobody else."""
    have = {target.id: overwrite for target, overwrite in place.overwrites.items()}
    want = {target.id: overwrite for target, overwrite in overwrites.items()}
    if have != want:
        await place.edit(overwrites=overwrites, reason="game set-up: permissions as the game needs them")


async def _keep_only(thread: discord.Thread, members: set[int]) -> None:
    """Remove from a reused thread everyone but ``members`` and the bot."""
    me = thread.guild.me.id
    for member in await thread.fetch_members():
        if member.id not in members and member.id != me:
            await thread.remove_user(discord.Object(id=member.id))


def thread_name(a: Seat, b: Seat) -> str:
    return f"{seat_label(a)} – {seat_label(b)}"[:100]


class DiscordPlaces:
    """gm.setup.places.PlaceMaker for one /game start on ``guild``: makes (or completes) the game's places
    and keeps the Discord objects it made, to greet them."""

    def __init__(self, guild: discord.Guild, moderator_role_name: str) -> None:
        self.guild = guild
        self.moderator_role_name = moderator_role_name
        self.spaces: GameSpaces | None = None

    async def make_places(self, game: GameInfo, recorded: GamePlaces, record: Recorder) -> MadePlaces:
        spaces = await create_spaces(self.guild, game, self.moderator_role_name, recorded, record)
        self.spaces = spaces
        unhidden = [u for u in sorted(players_of(game)) if sees_everything(await member_of(self.guild, u))]
        return MadePlaces(
            category_id=spaces.category.id,
            game_channel_id=spaces.game_channel.id,
            power_channels={p: c.id for p, c in spaces.power_channels.items()},
            sees_all=tuple(unhidden),
        )

    async def introduce(self, game: GameInfo) -> None:
        if self.spaces is not None:
            await post_introductions(self.spaces, game)


async def post_introductions(spaces: GameSpaces, game: GameInfo) -> None:
    """A first message in each private place that has none yet (a re-run does not repeat them),
    saying what it is for (best effort: logged on failure)."""
    for power, channel in spaces.power_channels.items():
        if channel.last_message_id is None:
            await _say(
                channel,
                power_intro(
                    power,
                    game.powers.get(power),
                    built_in=power in game.built_in,
                    anonymous=game.settings.anonymous,
                ),
            )
    for (a, b), place in spaces.negotiation.items():
        if not isinstance(place, discord.abc.Messageable):
            continue
        if getattr(place, "last_message_id", None) is None:
            await _say(place, talk_intro(a, b, game))


def talk_intro(a: Seat, b: Seat, game: GameInfo) -> str:
    """The first message of a pair's private place."""
    return (
        f"Private talks between {_seat_text(a, game)} and {_seat_text(b, game)}. "
        "No other player can read this."
    )


def power_intro(power: str, user_id: int | None, *, built_in: bool = False, anonymous: bool = False) -> str:
    if user_id is None and built_in:
        return (
            f"This is **{power_name(power)}**'s private channel. Nobody plays {power_name(power)}: the "
            "built-in player gives its orders as each phase closes, and it has no private talks. Only the "
            "moderators and I can read this channel; a member who takes the seat over gets it."
        )
    if user_id is None:
        return (
            f"This is **{power_name(power)}**'s private channel. {power_name(power)} is neutral: nobody "
            "plays it and its units hold. Only the moderators and I can read this channel; should the "
            "power join a side (the 1914 game's coin flip), its new player gets this channel."
        )
    if anonymous:  # no name: whoever takes the seat later reads this too (gm.anonymity)
        return (
            f"This is **{power_name(power)}**'s private channel. This game is anonymous: only its player, "
            "the moderators and I can read it, and nobody learns who plays which power until the end. "
            "I call you to order by direct message. Talk to the other powers with `/press` (I carry "
            "your words as your power's, and post a copy here); send orders with `/order` or "
            "`/orders edit` (only you see those) or by direct message to me."
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


async def evict(guild: discord.Guild, places: GamePlaces, user_id: int, powers: list[str]) -> None:
    """Take a player who left (or was replaced) out of their powers' private places: the power
    channels, the negotiation threads or channels naming those powers, and the negotiation channel
    itself (they hold no power any more). Their overwrites there become shields, and their shields on
    the rivals' places stay: until the game ends a former player reads none of its private places,
    whatever their roles (a moderator who played does not read the rivals' talks once out of the
    seat; the archive takes the power channels' shields off at the end, cogs.places.archive). Best
    effort, logged on failure."""
    user = await member_of(guild, user_id)  # None: gone from the server, they see none of it anyway
    for channel_id in _power_channel_ids(places, powers):
        channel = guild.get_channel(channel_id)
        if isinstance(channel, discord.TextChannel) and user is not None:
            await _quietly(channel.set_permissions(user, overwrite=SHIELD))
    holds_more = any(holder == user_id for holder in places.holders.values())
    for place in await negotiation_places(guild, places, powers):
        if isinstance(place, discord.Thread):
            await _quietly(place.remove_user(discord.Object(id=user_id)))
        elif user is not None and not (holds_more and place.id == places.negotiation_channel_id):
            await _quietly(place.set_permissions(user, overwrite=SHIELD))


async def admit(guild: discord.Guild, places: GamePlaces, user_id: int, powers: list[str]) -> bool:
    """Let a player into the private places of powers they now hold (a replacement, a power joining
    a side): the power channels, the negotiation channel and the threads or pair channels naming those
    powers; and shield them from every rival's place (see the module docstring). Returns False when the
    player is not on the server. Idempotent; failures are logged."""
    user = await member_of(guild, user_id)
    if user is None:
        log.warning(
            "game %s: %s is not on the server; cannot open %s to them", places.game_id, user_id, powers
        )
        return False
    if places.game_channel_id is not None:  # a spectator who takes a seat plays from now on
        await stop_watching(guild, places.game_channel_id, user_id)
    for channel_id in _power_channel_ids(places, powers):
        channel = guild.get_channel(channel_id)
        if isinstance(channel, discord.TextChannel):
            await _quietly(channel.set_permissions(user, overwrite=MEMBER))
    for place in await negotiation_places(guild, places, powers):
        if isinstance(place, discord.Thread):
            await _quietly(place.add_user(user))
        else:
            overwrite = THREADS_ONLY if place.id == places.negotiation_channel_id else MEMBER
            await _quietly(place.set_permissions(user, overwrite=overwrite))
    await shield(guild, places, user)
    return True


def own_powers(places: GamePlaces, user_id: int) -> set[str]:
    """The powers ``user_id`` holds in the game now."""
    return {p for p, holder in places.holders.items() if holder == user_id}


async def rival_places(
    guild: discord.Guild, places: GamePlaces, user_id: int
) -> list[discord.TextChannel | discord.Thread]:
    """The game's private places that are not ``user_id``'s: the other powers' channels, and the pair
    threads or channels that name none of their powers."""
    mine = own_powers(places, user_id)
    found: list[discord.TextChannel | discord.Thread] = []
    for power, channel_id in sorted(places.power_channels.items()):
        channel = guild.get_channel(channel_id) if channel_id is not None else None
        if power not in mine and isinstance(channel, discord.TextChannel):
            found.append(channel)
    for place in await negotiation_places(guild, places, list(places.power_channels)):
        named = pair_powers(place, places)
        if named is not None and not {p.lower() for p in mine} & {p.lower() for p in named}:
            found.append(place)
    return found


def pair_powers(place: discord.TextChannel | discord.Thread, places: GamePlaces) -> set[str] | None:
    """The powers a pair's place (thread or pair channel) is for, by its recorded key (by its name or
    topic for a game set up before places were recorded); None for the negotiation channel, which
    holds every pair's threads."""
    key = next((k for k, place_id in places.pair_places.items() if place_id == place.id), None)
    if key is not None:
        return key_powers(key)
    if isinstance(place, discord.Thread):
        return _named_powers(place.name)
    if (place.topic or "").startswith(PAIR_TOPIC):
        return _named_powers(place.topic or "")
    return None


async def shield(guild: discord.Guild, places: GamePlaces, user: discord.Member) -> None:
    """Hide every rival place from a player whatever their roles: :data:`SHIELD` on the other powers'
    channels and on pair channels that are not theirs, and no membership of a thread that is not theirs
    (their negotiation channel overwrite, :data:`THREADS_ONLY`, denies Manage Threads)."""
    for place in await rival_places(guild, places, user.id):
        if isinstance(place, discord.Thread):
            await _leave_thread(place, user.id)
        elif overwrite_of(place, user.id) != SHIELD:
            await _quietly(place.set_permissions(user, overwrite=SHIELD))


def overwrite_of(channel: discord.abc.GuildChannel, user_id: int) -> discord.PermissionOverwrite | None:
    return next((o for t, o in channel.overwrites.items() if t.id == user_id), None)


async def _leave_thread(thread: discord.Thread, user_id: int) -> None:
    """Take ``user_id`` out of a thread that is not theirs (a moderator who joined it before playing)."""
    try:
        members = await thread.fetch_members()
    except discord.HTTPException as exc:
        log.warning("could not list the members of thread %s: %s", thread.id, exc)
        return
    if any(m.id == user_id for m in members):
        await _quietly(thread.remove_user(discord.Object(id=user_id)))


def sees_everything(member: discord.Member | discord.User | None) -> bool:
    """Whether no overwrite can hide a channel from ``member``: the server's owner, or Administrator."""
    if not isinstance(member, discord.Member):
        return False
    return member.guild.owner_id == member.id or member.guild_permissions.administrator


def _power_channel_ids(places: GamePlaces, powers: list[str]) -> list[int]:
    return [c for p in powers if (c := places.power_channels.get(p)) is not None]


async def negotiation_places(
    guild: discord.Guild, places: GamePlaces, powers: list[str]
) -> list[discord.TextChannel | discord.Thread]:
    """The negotiation channel of a game (threads press) and the threads or pair channels (channels
    press) of a seat holding one of ``powers``: only places the game recorded, by id."""
    wanted = set(powers)
    if not places.made and places.category_id is not None:
        return _legacy_negotiation_places(guild, places.category_id, wanted)
    found: list[discord.TextChannel | discord.Thread] = []
    if places.negotiation_channel_id is not None:
        channel = guild.get_channel(places.negotiation_channel_id)
        if isinstance(channel, discord.TextChannel):
            found.append(channel)
    for key, place_id in sorted(places.pair_places.items()):
        if not wanted & key_powers(key):
            continue
        place = guild.get_channel_or_thread(place_id)
        if place is None:  # an archived thread is not in the cache
            try:
                place = await guild.fetch_channel(place_id)
            except discord.HTTPException:
                continue
        if isinstance(place, discord.TextChannel | discord.Thread):
            found.append(place)
    return found


def _legacy_negotiation_places(
    guild: discord.Guild, category_id: int, wanted: set[str]
) -> list[discord.TextChannel | discord.Thread]:
    """For a game set up before places were recorded by id (migration 0004): its negotiation places
    inside its own recorded category, by the names set-up gave them then (``g3-negotiation`` and its
    threads ``Austria – England``, or pair channels with the pair topic)."""
    lowered = {p.lower() for p in wanted}
    found: list[discord.TextChannel | discord.Thread] = []
    for channel in guild.text_channels:
        if channel.category_id != category_id:
            continue
        if channel.name.endswith("-negotiation"):
            found.append(channel)
            found.extend(t for t in channel.threads if lowered & _named_powers(t.name))
        elif (channel.topic or "").startswith(PAIR_TOPIC) and lowered & _named_powers(channel.topic or ""):
            found.append(channel)
    return found


def _named_powers(text: str) -> set[str]:
    """The words of a thread name or pair topic, lower case (``Austria/France – England``)."""
    return {w.lower() for w in re.findall(r"[A-Za-z]+", text)}


async def _quietly(call: Awaitable[object]) -> None:
    try:
        await call
    except (discord.HTTPException, ValueError) as exc:
        log.warning("could not update a private place: %s", exc)
