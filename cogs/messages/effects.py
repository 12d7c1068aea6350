"""What Discord must change around a message besides posting it (gm.messages.effects), carried out by
the effect's type: one function registered per effect (:func:`carry_out`).

- MoveAccess: the seat's private places follow it before the announcement (cogs.places.spaces: the
  newcomer admitted, the player replaced evicted; a newcomer to a seat the built-in player held from
  the start gets the private talks it lacks, cogs.places.talks).
  In an anonymous game the seat's powers get new channels first, the old ones kept for the
  moderators (cogs.places.fresh).
- VoidPosts: the posted results of a rolled-back phase (and a final post it made) are edited "VOID".
- ReopenPlaces, ArchivePlaces: a finished game's places are archived after its final post, and
  reopened by a rollback (cogs.places.archive).
- MarkSeatsTaken: the posts that offered a seat now filled say it is taken (cogs.ui.seats).
- ReviseRelay: an anonymous game's relayed talk whose typed original was edited or deleted is
  edited or deleted too (its posts are remembered on its outbox row).
- ShieldPlayer: a player given a role (the moderators', Administrator) gets their own places and
  their shields on the rivals' places again, before the game channel says so (cogs.places.spaces).

Every one is idempotent, so a message sent again after a crash does no harm. Those that only tidy up
(marking void or taken, archiving, reopening) are best effort: a deleted post is skipped and a
failure logged, the message itself is what counts. Moving access is not: a server not available yet
makes the message wait (RetriableSendError), since the announcement must not go out before the access.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import discord

from cogs.messages.render import VOID_MARK, relay_text, void_content, void_embed
from cogs.places.archive import archive, reopen
from cogs.places.fresh import renew_power_channels
from cogs.places.locks import PlaceLocks
from cogs.places.spaces import admit, evict, own_powers
from cogs.places.talks import Talks, missing_pairs, open_talks, tell_refusal
from cogs.ui.seats import mark_taken
from gm.facade import Gamemaster
from gm.public import (
    RUNNING_STATES,
    ArchivePlaces,
    Effect,
    GamePlaces,
    MarkSeatsTaken,
    MoveAccess,
    OutboxMessage,
    PlaceKind,
    RelayedPressRevised,
    ReopenPlaces,
    RetriableSendError,
    ReviseRelay,
    ShieldPlayer,
    VoidPosts,
)

log = logging.getLogger(__name__)

READS_THE_SERVER: tuple[type[Effect], ...] = (ArchivePlaces, ReopenPlaces)
"""The effects that read the server from the gateway's cache (a bot just started has not heard it)."""


@dataclass(frozen=True)
class Server:
    """What carrying out an effect needs: the client, the gamemaster (games and their places), the
    moderators' role name, and the per-game place locks (shared with the shields' repair)."""

    client: discord.Client
    games: Gamemaster
    moderator_role: str
    place_locks: PlaceLocks


@functools.singledispatch
async def carry_out(effect: Effect, server: Server, message: OutboxMessage) -> None:
    """Make the change ``effect`` asks for, for ``message`` (posted, or about to be, in a channel)."""
    raise NotImplementedError(f"the Discord adapter cannot carry out {type(effect).__name__}")


@carry_out.register(MoveAccess)
async def _move_access(effect: MoveAccess, server: Server, message: OutboxMessage) -> None:
    """Before a seat changes hands in public, the private places follow it: a replacement gets the
    powers' channels and negotiation spaces and the player replaced loses them; a neutral power
    that joins a side (the 1914 coin flip) opens to that side's player."""
    if message.game_id is None:
        return
    async with server.place_locks.of(message.game_id):
        if effect.fresh and effect.admit is not None:
            await _renew_if_anonymous(effect, server, message.game_id, int(effect.admit), message.id)
        await _move_access_now(effect, server, message.game_id)


async def _renew_if_anonymous(
    effect: MoveAccess, server: Server, game_id: int, newcomer: int, key: int | None
) -> None:
    """An anonymous game's seat that changed hands: its powers get new channels (cogs.places.fresh)."""
    game = await server.games.get_game(game_id)
    if not game.settings.anonymous or game.status not in RUNNING_STATES:
        return
    places = await server.games.game_places(game_id)
    guild = server.client.get_guild(places.guild_id)
    if guild is None:
        raise RetriableSendError(f"server {places.guild_id} is not available yet")

    async def record(kind: PlaceKind, place_id: int, place_key: str) -> None:
        await server.games.record_place(game_id, kind, place_id, place_key)

    await renew_power_channels(
        guild,
        places,
        game,
        powers=list(effect.powers),
        newcomer=newcomer,
        leaver=effect.evict,
        key=str(key),
        moderators=server.moderator_role,
        record=record,
        switch=server.games.set_power_channel,
    )


async def _move_access_now(effect: MoveAccess, server: Server, game_id: int) -> None:
    places = await server.games.game_places(game_id)

    async def record(kind: PlaceKind, place_id: int, key: str) -> None:
        await server.games.record_place(game_id, kind, place_id, key)

    guild = server.client.get_guild(places.guild_id)
    if guild is None:
        raise RetriableSendError(f"server {places.guild_id} is not available yet")
    powers = list(effect.powers)
    new_user, old_user = effect.admit, effect.evict
    talks = Talks()
    if effect.open_talks and new_user is not None and missing_pairs(places, int(new_user)):
        # a seat the built-in player held from the start has no private talks yet
        game = await server.games.get_game(game_id)
        talks = await open_talks(guild, places, game, int(new_user), server.moderator_role, record)
        if talks.made:
            places = await server.games.game_places(game_id)
    if new_user is not None:
        await admit(guild, places, int(new_user), powers)
        if talks.refused is not None:  # told in their power's channel, now theirs
            await tell_refusal(guild, places, int(new_user), talks.refused)
    if old_user is not None and old_user != new_user:
        await evict(guild, places, int(old_user), powers)


@carry_out.register(VoidPosts)
async def _void_posts(effect: VoidPosts, server: Server, message: OutboxMessage) -> None:
    """Mark the posted results of the rolled-back phase (and a final post it made) void, by editing
    the messages they became."""
    if message.game_id is None or message.phase_id is None:
        return
    posted = await server.games.sent_messages_of(
        message.game_id, message.phase_id, tuple(effect.kinds), before_id=message.id
    )
    for channel_id, message_id in posted:
        partial = server.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            current = await partial.fetch()
            if current.embeds and not (current.embeds[0].title or "").startswith(VOID_MARK):
                await current.edit(embeds=[void_embed(current.embeds[0]), *current.embeds[1:]])
            elif not current.embeds and current.content and not current.content.startswith(VOID_MARK):
                await current.edit(content=void_content(current.content))
        except discord.NotFound:
            continue
        except discord.HTTPException as exc:
            log.warning("could not mark message %s void: %s", message_id, exc)


@carry_out.register(ReopenPlaces)
async def _reopen(effect: ReopenPlaces, server: Server, message: OutboxMessage) -> None:
    await _with_places(server, message, reopen)


@carry_out.register(ArchivePlaces)
async def _archive(effect: ArchivePlaces, server: Server, message: OutboxMessage) -> None:
    await _with_places(server, message, archive)


async def _with_places(
    server: Server, message: OutboxMessage, change: Callable[[discord.Guild, GamePlaces], Awaitable[None]]
) -> None:
    """Archive or reopen the game's places."""
    if message.game_id is None:
        return
    async with server.place_locks.of(message.game_id):
        places = await server.games.game_places(message.game_id)
        guild = server.client.get_guild(places.guild_id)
        if guild is not None:
            await change(guild, places)


@carry_out.register(MarkSeatsTaken)
async def _mark_seats_taken(effect: MarkSeatsTaken, server: Server, message: OutboxMessage) -> None:
    """The posts that offered the seat now filled say it is taken."""
    if message.game_id is None or not effect.powers:
        return
    powers = list(effect.powers)
    for channel_id, message_id in await server.games.seat_posts_of(
        message.game_id, powers, before_id=message.id
    ):
        partial = server.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await mark_taken(
                await partial.fetch(), message.game_id, powers, effect.user_id, returning=effect.returning
            )
        except discord.NotFound:
            continue
        except discord.HTTPException as exc:
            log.warning("could not mark the seat post %s as taken: %s", message_id, exc)


@carry_out.register(ShieldPlayer)
async def _shield_player(effect: ShieldPlayer, server: Server, message: OutboxMessage) -> None:
    """A player given a role that shows more of the server: their own places and their shields on
    every rival place again (what a start sets; already there, nothing is changed)."""
    if message.game_id is None:
        return
    async with server.place_locks.of(message.game_id):
        places = await server.games.game_places(message.game_id)
        guild = server.client.get_guild(places.guild_id)
        if guild is None:
            raise RetriableSendError(f"server {places.guild_id} is not available yet")
        mine = own_powers(places, effect.user_id)
        if mine:
            await admit(guild, places, effect.user_id, sorted(mine))


@carry_out.register(ReviseRelay)
async def _revise_relay(effect: ReviseRelay, server: Server, message: OutboxMessage) -> None:
    """A relayed talk's typed original was edited or deleted: so are its posts (a post deleted by
    then is skipped). The relay was queued before this message, to the same place, so it is posted."""
    content = message.content
    if not isinstance(content, RelayedPressRevised):
        return
    for channel_id, message_id in await server.games.relay_posts(effect.of):
        partial = server.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            if effect.deleted:
                await partial.delete()
            else:
                posted = await partial.fetch()  # its files stand for their links (cogs.messages.sender)
                shown = () if posted.attachments else None
                await posted.edit(content=relay_text(content, edited=True, links=shown))
        except discord.NotFound:
            continue
