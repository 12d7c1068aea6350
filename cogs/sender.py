"""The outbox's Discord end: post a gm OutboxMessage, and say whether a failure is worth a retry.

- 429 (discord.py already waits and retries; what still escapes), 5xx, network errors, timeouts:
  RetriableSendError, the outbox tries again later with back-off.
- 403 on a direct message (the user closed their DMs, or shares no server with the bot any more):
  the message goes to the player's private power channel(s) in that game instead, with a note; when
  there is none, PermanentSendError.
- 403 in a channel (the bot's role lost a permission): retriable and logged with what to fix, so
  the results are posted once an admin repairs the role (the outbox gives up after its attempts).
- 404 (channel deleted, unknown user): PermanentSendError, logged.
- Any other 4xx means we built a bad message: PermanentSendError, logged as an error.

Every Discord message carries a nonce derived from the outbox row (``gm12.0``, ``gm12.1``...), which
discord.py sends with ``enforce_nonce``, so a resend after a crash within Discord's window is dropped.
"""

from __future__ import annotations

import logging

import aiohttp
import discord

from cogs.announce import Outgoing, alert_note, fallback_note, render
from cogs.spaces import admit, evict
from db.database import SessionFactory
from db.models import OutboxTarget
from gm.outbox import OutboxMessage, PermanentSendError, RetriableSendError
from gm.places import game_places

log = logging.getLogger(__name__)

ACCESS_KINDS = ("replaced", "power_joined")  # messages that move private access before they are posted


class DiscordSender:
    """gm.outbox.OutboxSender for a discord.py client (usable once the client has logged in)."""

    def __init__(self, client: discord.Client, sessions: SessionFactory, moderator_role: str = "") -> None:
        self.client = client
        self.sessions = sessions
        self.moderator_role = moderator_role

    async def send(self, message: OutboxMessage) -> None:
        try:
            await self._send(message)
        except (RetriableSendError, PermanentSendError):
            raise
        except discord.NotFound as exc:
            log.warning("outbox %s (%s): the destination is gone: %s", message.id, message.kind, exc)
            raise PermanentSendError(f"not found: {exc}") from exc
        except discord.Forbidden as exc:
            log.warning(
                "outbox %s (%s): Discord refused (%s); give my role View Channel, Send Messages, "
                "Embed Links and Attach Files in channel %s; I will retry",
                message.id,
                message.kind,
                exc,
                message.channel_id,
            )
            raise RetriableSendError(f"forbidden: {exc}") from exc
        except discord.HTTPException as exc:
            if exc.status == 429 or exc.status >= 500:
                raise RetriableSendError(f"Discord {exc.status}: {exc}") from exc
            log.error("outbox %s (%s): Discord rejected the message: %s", message.id, message.kind, exc)
            raise PermanentSendError(f"rejected: {exc}") from exc
        except (TimeoutError, discord.RateLimited, aiohttp.ClientError, OSError) as exc:
            raise RetriableSendError(repr(exc)) from exc

    async def _send(self, message: OutboxMessage) -> None:
        if message.target_kind == OutboxTarget.USER:
            await self._send_dm(message)
            return
        if message.channel_id is None:
            raise RetriableSendError("the channel is not known yet")
        if message.kind in ACCESS_KINDS:
            await self._move_access(message)
        channel = self.client.get_partial_messageable(message.channel_id)
        parts = render(message)
        if message.payload.get("alert_moderators"):
            role = self._moderators_of(message.channel_id)
            if role is not None:
                parts = [alert_note(role.id), *parts]
        await _post(channel, parts, message.nonce)

    def _moderators_of(self, channel_id: int) -> discord.Role | None:
        """The server's moderator role (by name, from the settings), if the channel is known."""
        channel = self.client.get_channel(channel_id)
        guild = getattr(channel, "guild", None)
        if guild is None or not self.moderator_role:
            return None
        return discord.utils.get(guild.roles, name=self.moderator_role)

    async def _move_access(self, message: OutboxMessage) -> None:
        """Before a seat changes hands in public, the private places follow it: a replacement gets the
        powers' channels and negotiation spaces and the player replaced loses them; a neutral power
        that joins a side (the 1914 coin flip) opens to that side's player. Idempotent, so a resend
        after a crash does no harm."""
        if message.game_id is None:
            return
        async with self.sessions() as session:
            places = await game_places(session, message.game_id)
        guild = self.client.get_guild(places.guild_id)
        if guild is None:
            raise RetriableSendError(f"server {places.guild_id} is not available yet")
        payload = message.payload
        if message.kind == "replaced":
            powers = list(payload.get("powers", []))
            new_user, old_user = payload.get("new_user_id"), payload.get("old_user_id")
        else:
            powers = [payload["power"]] if payload.get("power") else []
            new_user, old_user = payload.get("user_id"), None
        channels = [c for p in powers if (c := places.power_channels.get(p)) is not None]
        if new_user is not None:
            await admit(guild, message.game_id, channels, int(new_user), powers)
        if old_user is not None and old_user != new_user:
            await evict(guild, message.game_id, channels, int(old_user), powers)

    async def _send_dm(self, message: OutboxMessage) -> None:
        if message.user_id is None:
            raise PermanentSendError("a direct message without a user")
        channels = await self._private_channels(message)
        parts = render(message, private_channels=channels)
        try:
            dm = await self.client.create_dm(discord.Object(id=message.user_id))  # type: ignore[arg-type]
            await _post(dm, parts, message.nonce)
            return
        except discord.Forbidden as exc:
            if not channels:
                log.info("outbox %s: %s has closed DMs and no private channel", message.id, message.user_id)
                raise PermanentSendError(f"direct messages closed and no private channel: {exc}") from exc
        log.info("outbox %s: DMs to %s closed; posting in their private channel", message.id, message.user_id)
        note = Outgoing(content=fallback_note(message.user_id), ping=message.user_id)
        channel = self.client.get_partial_messageable(channels[0])  # one is enough: all are theirs
        await _post(channel, [note, *parts], f"{message.nonce}c")

    async def _private_channels(self, message: OutboxMessage) -> list[int]:
        if message.game_id is None or message.user_id is None:
            return []
        async with self.sessions() as session:
            places = await game_places(session, message.game_id)
        return places.channels_of(message.user_id)


async def _post(channel: discord.abc.Messageable, parts: list[Outgoing], nonce: str) -> None:
    for index, part in enumerate(parts):
        await channel.send(
            content=part.content,
            embed=part.embed,  # type: ignore[arg-type]
            files=part.files() or None,  # type: ignore[arg-type]
            nonce=f"{nonce}.{index}",
            allowed_mentions=part.allowed_mentions(),
        )
