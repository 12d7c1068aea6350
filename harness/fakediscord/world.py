"""The registry of everything the fake holds, with lookups and the visibility questions tests ask.

No I/O here: Backend changes the world and tells the gateway; this module only stores and answers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from . import errors
from .permissions import Permission, channel_permissions
from .state import Channel, Command, Guild, HasId, Interaction, Limits, Message, User, id_of


@dataclass
class World:
    bot: User
    application_id: int
    token: str
    users: dict[int, User] = field(default_factory=dict)
    guilds: dict[int, Guild] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    messages: dict[int, Message] = field(default_factory=dict)
    interactions: dict[int, Interaction] = field(default_factory=dict)
    commands: dict[int, Command] = field(default_factory=dict)
    limits: Limits = field(default_factory=Limits)
    nonces_forgotten_before: datetime | None = None
    """Messages posted before this no longer answer for their nonce (``FakeDiscord.forget_nonces``)."""

    def __post_init__(self) -> None:
        self.users[self.bot.id] = self.bot

    # --- lookups that answer the API's 404s -------------------------------------------------------------

    def user(self, user: HasId | int | str) -> User:
        found = self.users.get(id_of(user))
        if found is None:
            raise errors.not_found(errors.UNKNOWN_USER, "User")
        return found

    def guild(self, guild: HasId | int | str) -> Guild:
        found = self.guilds.get(id_of(guild))
        if found is None:
            raise errors.not_found(errors.UNKNOWN_GUILD, "Guild")
        return found

    def channel(self, channel: HasId | int | str) -> Channel:
        found = self.channels.get(id_of(channel))
        if found is None:
            raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
        return found

    def message(self, channel_id: int, message_id: int | str) -> Message:
        found = self.messages.get(int(message_id))
        if found is None or found.deleted or found.channel_id != channel_id or found.ephemeral_to is not None:
            raise errors.not_found(errors.UNKNOWN_MESSAGE, "Message")
        return found

    def guild_of(self, channel: Channel) -> Guild | None:
        return None if channel.guild_id is None else self.guilds.get(channel.guild_id)

    def guild_channels(self, guild_id: int, *, threads: bool = False) -> list[Channel]:
        return [c for c in self.channels.values() if c.guild_id == guild_id and (threads or not c.is_thread)]

    def threads_of(self, guild_id: int) -> list[Channel]:
        return [
            c for c in self.channels.values() if c.guild_id == guild_id and c.is_thread and not c.archived
        ]

    def dm_channel(self, user_id: int) -> Channel | None:
        for channel in self.channels.values():
            if channel.is_dm and channel.recipient_ids == [user_id]:
                return channel
        return None

    def channel_messages(self, channel_id: int) -> list[Message]:
        """Messages everyone with access sees in the channel, oldest first (no ephemerals, no deleted)."""
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id and not m.deleted and m.ephemeral_to is None
        ]

    # --- permissions and visibility ----------------------------------------------------------------------

    def permissions(self, user_id: int, channel: Channel) -> int:
        """What a user may do in a channel; in a DM, everything a DM allows, if it is their DM."""
        if channel.is_dm:
            if user_id == self.bot.id or user_id in channel.recipient_ids:
                return int(
                    Permission.VIEW_CHANNEL
                    | Permission.SEND_MESSAGES
                    | Permission.READ_MESSAGE_HISTORY
                    | Permission.EMBED_LINKS
                    | Permission.ATTACH_FILES
                    | Permission.ADD_REACTIONS
                    | Permission.USE_APPLICATION_COMMANDS
                )
            return 0
        guild = self.guild_of(channel)
        if guild is None:
            return 0
        parent = self.channels.get(channel.parent_id) if channel.is_thread and channel.parent_id else None
        return channel_permissions(guild, user_id, channel, parent)

    def can_view(self, user_id: int, channel: Channel) -> bool:
        return bool(self.permissions(user_id, channel) & Permission.VIEW_CHANNEL)

    def audience(self, message: Message) -> frozenset[int]:
        """Everyone (bot included) who can see the message right now."""
        if message.deleted:
            return frozenset()
        if message.ephemeral_to is not None:
            return frozenset({message.ephemeral_to})
        channel = self.channels.get(message.channel_id)
        if channel is None:
            return frozenset()
        if channel.is_dm:
            return frozenset({self.bot.id, *channel.recipient_ids})
        guild = self.guild_of(channel)
        if guild is None:
            return frozenset()
        return frozenset(uid for uid in guild.members if self.can_view(uid, channel))

    def visible_messages(self, user_id: int) -> list[Message]:
        """Messages the user can see now: readable channels and threads, their DM, ephemerals to them.
        (The audience of each message for this one user: each channel's permissions worked out once.)"""
        sees: dict[int, bool] = {}
        visible = []
        for message in self.messages.values():
            if message.deleted:
                continue
            if message.ephemeral_to is not None:
                if message.ephemeral_to == user_id:
                    visible.append(message)
                continue
            seen = sees.get(message.channel_id)
            if seen is None:
                seen = sees[message.channel_id] = self.sees_channel(user_id, message.channel_id)
            if seen:
                visible.append(message)
        return visible

    def sees_channel(self, user_id: int, channel_id: int) -> bool:
        """Whether ``user_id`` is in the audience of a (not ephemeral) message in the channel now."""
        channel = self.channels.get(channel_id)
        if channel is None:
            return False
        if channel.is_dm:
            return user_id == self.bot.id or user_id in channel.recipient_ids
        guild = self.guild_of(channel)
        return guild is not None and user_id in guild.members and self.can_view(user_id, channel)

    def seen_texts(self, user_id: int) -> list[str]:
        """Every version of every message the user could see at any moment: when it was posted or edited,
        and now. This is what "no order text reached anyone else" assertions should search."""
        texts: list[str] = []
        for message in self.messages.values():
            seen = [r.text for r in message.revisions if user_id in r.audience]
            if user_id in self.audience(message) and message.text not in seen:
                seen.append(message.text)
            texts.extend(seen)
        return texts

    def shares_guild_with_bot(self, user_id: int) -> bool:
        return any(user_id in g.members and self.bot.id in g.members for g in self.guilds.values())

    def commands_for(self, guild_id: int | None) -> list[Command]:
        """Commands a user can see in this place: the guild's own, then the global ones."""
        own = [c for c in self.commands.values() if guild_id is not None and c.guild_id == guild_id]
        names = {(c.name, c.type) for c in own}
        return own + [
            c for c in self.commands.values() if c.guild_id is None and (c.name, c.type) not in names
        ]
