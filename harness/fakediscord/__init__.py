"""A loopback fake of Discord (REST v10 + Gateway) for end-to-end tests of the bot with real discord.py.

Start with `fake_discord()` (an async context manager that also points discord.py at the fake) and
`running_bot(bot, fake)`; see fake.py for the test-facing API.
"""

from .errors import ApiError, FakeDiscordError, ReplyTimeout, UserActionError
from .fake import FakeDiscord, fake_discord, overwrite
from .handles import DMHandle, InteractionHandle, ModalPrompt
from .permissions import ALL_PERMISSIONS, DEFAULT_BOT, DEFAULT_EVERYONE, Permission
from .rest import RestCall
from .runner import running_bot
from .state import Channel, ChannelType, Guild, Member, Message, Overwrite, OverwriteType, Role, User

__all__ = [
    "ALL_PERMISSIONS",
    "DEFAULT_BOT",
    "DEFAULT_EVERYONE",
    "ApiError",
    "Channel",
    "ChannelType",
    "DMHandle",
    "FakeDiscord",
    "FakeDiscordError",
    "Guild",
    "InteractionHandle",
    "Member",
    "Message",
    "ModalPrompt",
    "Overwrite",
    "OverwriteType",
    "Permission",
    "ReplyTimeout",
    "RestCall",
    "Role",
    "User",
    "UserActionError",
    "fake_discord",
    "overwrite",
    "running_bot",
]
