"""The outbox's Discord end: post a gm OutboxMessage, and say whether a failure is worth a retry.

- 429 (discord.py already waits and retries; what still escapes), 5xx, network errors, timeouts:
  RetriableSendError, the outbox tries again later with back-off.
- 403 on a direct message (the user closed their DMs, or shares no server with the bot any more):
  the message goes to the player's private power channel(s) in that game instead, with a note; when
  there is none, PermanentSendError. The moderators read that channel too, so the message is rendered
  without order text (cogs.messages.render ``shared``).
- 403 in a channel (the bot's role lost a permission): retriable and logged with what to fix, so
  the results are posted once an admin repairs the role (the outbox gives up after its attempts).
- 404 (channel deleted, unknown user): PermanentSendError, logged.
- Any other 4xx means we built a bad message: PermanentSendError, logged as an error.

A relayed talk (an anonymous game's) carries its attachments as files, downloaded again from Discord
when it is posted (an attachment's address expires; a file posted anew stays), up to
RELAY_FILE_LIMIT each; one that cannot be had stays a link.

Every Discord message carries a nonce derived from the outbox row and the part (``gm12.0``,
``gm12.1``...), which discord.py sends with ``enforce_nonce``: a resend within Discord's window (a few
minutes) returns the message already made, so a post that failed at its third part is completed on
retry without repeating the first two.

Around some messages the server changes too, as the message says (its ``effects``, carried out by
type in cogs.messages.effects): a replacement or a power joining a side moves private access first; a
rollback marks the results it voids (their messages, remembered on the outbox rows, are edited "VOID")
and reopens a finished game's places; the final post archives the game's places. Moderators are
called by their role when it can be mentioned, else by name (the game's creator and at most
MAX_ALERTED members of the role).
"""

from __future__ import annotations

import logging
import re
import time
from datetime import datetime, timedelta
from typing import Any

import aiohttp
import discord

from cogs.messages.effects import READS_THE_SERVER, Server, carry_out
from cogs.messages.render import (
    Outgoing,
    alert_note,
    alert_users_note,
    fallback_note,
    relay_text,
    render,
)
from cogs.places.locks import PlaceLocks
from cogs.ui.seats import decision_view, seat_view
from cogs.ui.sheet import Sheet, call_buttons
from cogs.ui.sheet_flows import sheet_for_call
from cogs.ui.sheet_live import words_above
from gm.facade import Gamemaster
from gm.public import (
    RUNNING_STATES,
    Attachment,
    CallToOrder,
    GameError,
    GamePlaces,
    MeantFor,
    NotYetSendable,
    OrderMenu,
    OutboxMessage,
    OutboxTarget,
    PermanentSendError,
    RelayedPress,
    RelayedPressRevised,
    RetriableSendError,
    SeatOffer,
    SentMessages,
    TakeOverRequest,
    utcnow,
)

log = logging.getLogger(__name__)

MAX_ALERTED = 10  # members of a role that cannot be mentioned, called by name
RELAY_FILE_LIMIT = 8 * 1024 * 1024  # bytes: a relay's attachment larger than this stays a link


class DiscordSender:
    """gm.delivery.outbox.OutboxSender for a discord.py client (usable once the client has logged in)."""

    def __init__(self, client: discord.Client, games: Gamemaster, moderator_role: str = "") -> None:
        """``games``: where the sender looks games and their places up (the Gamemaster)."""
        self.client = client
        self.games = games
        self.moderator_role = moderator_role
        self.place_locks = PlaceLocks()  # shared with the shields' repair (cogs.places.repair)
        self.server = Server(client, games, moderator_role, self.place_locks)  # for the effects

    async def send(self, message: OutboxMessage) -> SentMessages | None:
        try:
            return await self._send(message)
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

    async def _send(self, message: OutboxMessage) -> SentMessages:
        if message.target_kind == OutboxTarget.USER:
            return await self._send_dm(message)
        if message.channel_id is None:
            raise RetriableSendError("the channel is not known yet")
        if needs_the_server(message) and not self.client.is_ready():
            # The moderators' call and the game's places come from the server as the gateway
            # describes it, which a bot just started has not heard yet. Sent now, the message would
            # lack its call, and its parts would differ from a later attempt's (parts are recorded
            # one by one, so a retry would then repeat one part or drop another). bot.on_ready
            # delivers again.
            raise NotYetSendable("not connected to Discord yet")
        content = message.content
        effects = content.effects  # carried out for a message in a channel (a direct message has none)
        for effect in effects:
            if not effect.after_posting:
                await carry_out(effect, self.server, message)
        channel = self.client.get_partial_messageable(message.channel_id)
        parts = with_buttons(message, render(message), await self._tag(message))
        if isinstance(content, RelayedPress) and not isinstance(content, RelayedPressRevised) and parts:
            parts = await self._relay_files(content, parts)
        if content.alert_moderators:
            call = await self._moderators_call(message)
            if call is not None:
                parts = [call, *parts]
        posted = await _post(channel, parts, message, ends=not any(e.after_posting for e in effects))
        for effect in effects:
            if effect.after_posting:
                await carry_out(effect, self.server, message)
        return posted

    async def _relay_files(self, content: RelayedPress, parts: list[Outgoing]) -> list[Outgoing]:
        """A relay with its attachments as files posted anew (their addresses expire), those that
        cannot be had (too big, gone) left as links."""
        files: list[Attachment] = []
        kept: list[str] = []
        for url in content.links:
            name = url.split("?", 1)[0].rsplit("/", 1)[-1] or "attachment"
            try:
                data = await self.client.http.get_from_cdn(url)
            except (discord.HTTPException, aiohttp.ClientError, TimeoutError, ValueError) as exc:
                log.info("a relayed attachment could not be had again (%s): kept as a link", exc)
                kept.append(url)
                continue
            if len(data) > RELAY_FILE_LIMIT:
                kept.append(url)
            else:
                files.append(Attachment(filename=name, data=data))
        if not files:
            return parts
        first = parts[0]
        first.content = relay_text(content, links=kept)
        first.attachments = [*first.attachments, *files]
        return parts

    async def _moderators_call(self, message: OutboxMessage) -> Outgoing | None:
        """The moderator role when it can be mentioned; otherwise the game's creator and the role's
        members (at most MAX_ALERTED) by name. A role nobody may mention would notify nobody."""
        channel = self.client.get_channel(message.channel_id or 0)
        guild = getattr(channel, "guild", None)
        if guild is None:
            return None
        role = discord.utils.get(guild.roles, name=self.moderator_role) if self.moderator_role else None
        may_ping_roles = (
            isinstance(channel, discord.abc.GuildChannel)
            and channel.permissions_for(guild.me).mention_everyone
        )
        if role is not None and (role.mentionable or may_ping_roles):
            return alert_note(role.id)
        users = []
        if message.game_id is not None:
            users.append((await self.games.get_game(message.game_id)).creator_id)
        if role is not None:
            users += sorted(m.id for m in role.members if not m.bot)
        users = list(dict.fromkeys(users))[:MAX_ALERTED]
        return alert_users_note(users) if users else None

    async def _send_dm(self, message: OutboxMessage) -> SentMessages:
        if message.user_id is None:
            raise PermanentSendError("a direct message without a user")
        places = await self._places(message)  # read once: the player's channels and the game's tag
        channels = places.channels_of(message.user_id) if places is not None else []
        tag = await self._tag(message, places)
        try:
            dm = await self.client.create_dm(discord.Object(id=message.user_id))
            menu = await self._sheet_menu(message)
            parts = with_buttons(
                message, render(message, private_channels=channels, sheet=menu is not None), tag
            )
            outgoing = with_sheet(parts, menu, message.user_id)
            posted = await _post(dm, outgoing, message, ends=True)
            if menu is not None and outgoing is not parts and posted:
                self._sheet_posted(menu, message.user_id, posted[-1], outgoing[-1])
            return posted
        except discord.Forbidden as exc:
            if not channels and await self._setting_up(message):
                # the game's channels are being made right now: its fallback exists in a moment
                raise RetriableSendError(f"direct messages closed; no private channel yet: {exc}") from exc
            if not channels:
                log.info("outbox %s: %s has closed DMs and no private channel", message.id, message.user_id)
                raise PermanentSendError(f"direct messages closed and no private channel: {exc}") from exc
        log.info("outbox %s: DMs to %s closed; posting in their private channel", message.id, message.user_id)
        note = Outgoing(content=fallback_note(message.user_id), ping=message.user_id)
        shared = render(message, private_channels=channels, shared=True)  # the moderators read it too
        parts = with_buttons(message, shared, tag)
        channel = self.client.get_partial_messageable(channels[0])  # one is enough: all are theirs
        if message.payload.get("veiled"):  # an anonymous game: whoever holds the seat later reads this
            parts = [unnamed(part, message.user_id) for part in parts]
        posted = await _post(channel, [note, *parts], message, ends=not message.payload.get("veiled"))
        if message.payload.get("veiled") and posted:
            # the mention has notified them; the channel keeps no name for a later player of the seat
            first = channel.get_partial_message(posted[0][1])
            try:
                await first.edit(content=fallback_note(None), allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as exc:
                log.warning("outbox %s: could not take the mention off its note: %s", message.id, exc)
        return posted

    def _sheet_posted(self, menu: OrderMenu, user_id: int, where: tuple[int, int], part: Outgoing) -> None:
        """A call to order carrying the player's sheet is in their direct messages: kept up to date
        from now on (cogs.ui.sheet_live)."""
        live = getattr(getattr(self.client, "services", None), "live", None)
        if live is None or part.layout is None:
            return
        sheet = Sheet(menu.game_id, menu.phase_name, user_id, menu.game_tag)
        live.shown(where[0], where[1], sheet, words_above(part.layout.children[:-1]), time.monotonic())

    async def _tag(self, message: OutboxMessage, places: GamePlaces | None = None) -> str:
        """The game's random tag, for the buttons of a call to order (cogs.ui.sheet); from ``places``
        when the caller has read them already."""
        if message.game_id is None or not isinstance(message.content, CallToOrder):
            return ""
        if places is not None:
            return places.place_tag or ""
        try:
            return (await self.games.game_places(message.game_id)).place_tag or ""
        except GameError:
            return ""

    async def _sheet_menu(self, message: OutboxMessage) -> OrderMenu | None:
        """The player's order menu when a call to order by direct message can carry the order sheet:
        a call (phase, welcome, reminder) of a phase still open for them; None otherwise."""
        content = message.content
        if not isinstance(content, CallToOrder) or not content.phase or message.game_id is None:
            return None
        if message.user_id is None:
            return None
        try:
            return await self.games.order_menu(
                message.game_id, message.user_id, meant_for=MeantFor(content.phase)
            )
        except GameError:
            return None

    async def _setting_up(self, message: OutboxMessage) -> bool:
        """Whether the message's game has started but its channels are not recorded yet."""
        if message.game_id is None:
            return False
        game = await self.games.get_game(message.game_id)
        return game.status in RUNNING_STATES and game.game_channel_id is None

    async def _places(self, message: OutboxMessage) -> GamePlaces | None:
        """The places of the game of a direct message (its player's private channels), or None."""
        if message.game_id is None or message.user_id is None:
            return None
        return await self.games.game_places(message.game_id)


def unnamed(part: Outgoing, user_id: int) -> Outgoing:
    """``part`` with its mentions of ``user_id`` said "you" (its words and embed): posted where a later
    player of the seat reads it (an anonymous game)."""
    mention = re.compile(rf"<@!?{user_id}>")
    if part.content:
        part.content = mention.sub("you", part.content)
    embed = part.embed
    if embed is not None:
        if embed.description:
            embed.description = mention.sub("you", embed.description)
        for index, field in enumerate(embed.fields):
            embed.set_field_at(
                index, name=mention.sub("you", field.name or ""), value=mention.sub("you", field.value or "")
            )
    part.ping = None
    return part


def needs_the_server(message: OutboxMessage) -> bool:
    """Whether sending the message reads the server from the gateway's cache: the moderators' call,
    and the places a final post archives or a rollback reopens (cogs.messages.effects)."""
    content = message.content
    return content.alert_moderators or any(isinstance(e, READS_THE_SERVER) for e in content.effects)


CALL_TEXT_LIMIT = 2500  # of the 4,000 characters a V2 message may hold, what a call may take


def call_text(call: Outgoing) -> discord.ui.Container[Any]:
    """A call to order's words (its mention line and embed) as a layout container, for the direct
    message that carries the order sheet under them."""
    lines = [call.content] if call.content else []
    embed = call.embed
    if embed is not None:
        if embed.title:
            lines.append(f"### {embed.title}")
        if embed.description:
            lines.append(embed.description)
        lines += [f"**{field.name}:** {field.value}" for field in embed.fields]
        if embed.footer and embed.footer.text:
            lines.append(f"-# {embed.footer.text}")
    words = "\n".join(lines).strip() or "…"
    if len(words) > CALL_TEXT_LIMIT:
        words = words[: CALL_TEXT_LIMIT - 1] + "…"
    colour = embed.colour if embed is not None else None
    box: discord.ui.Container[Any] = discord.ui.Container(accent_colour=colour)
    box.add_item(discord.ui.TextDisplay(words))
    if call.attachments:  # its picture (a welcome's opening map), which a V2 message shows only so
        items = [discord.MediaGalleryItem(f"attachment://{a.filename}") for a in call.attachments]
        box.add_item(discord.ui.MediaGallery(*items))
    return box


def with_sheet(parts: list[Outgoing], menu: OrderMenu | None, user_id: int | None) -> list[Outgoing]:
    """A call to order by direct message as one Components V2 message: its words (and picture), then
    the player's order sheet (the sheet's taps edit this message); as it is without a menu."""
    if menu is None or user_id is None or len(parts) != 1:
        return parts
    call = parts[0]
    layout = sheet_for_call(menu, user_id, [call_text(call)])
    return [Outgoing(layout=layout, ping=call.ping, attachments=call.attachments)]


def with_buttons(message: OutboxMessage, parts: list[Outgoing], tag: str = "") -> list[Outgoing]:
    """The game channel's announcements of open seats get a "Take over" button per seat, and a
    request to take one over gets the moderators' "Approve" / "Decline" (cogs.ui.seats). A call to
    order (by DM or in a power's channel), the welcome that is the first phase's, and a reminder get
    "Order sheet", which opens the player's order sheet (cogs.ui.sheet) privately for whoever taps
    it, and "Ready"; ``tag`` is the game's random tag, which they carry."""
    content = message.content
    if parts and message.game_id is not None and isinstance(content, CallToOrder):
        if content.phase:
            parts[-1].view = call_buttons(message.game_id, content.phase, tag)
        return parts
    if not parts or message.game_id is None or message.target_kind != OutboxTarget.GAME_CHANNEL:
        return parts
    if isinstance(content, SeatOffer) and content.open_seats:
        parts[-1].view = seat_view(message.game_id, [list(s) for s in content.open_seats])
    elif isinstance(content, TakeOverRequest) and content.power and content.user_id:
        # veiled (a running anonymous game): the buttons name the request, not who asked
        request = message.id if message.payload.get("veiled") else None
        parts[-1].view = decision_view(message.game_id, content.power, content.user_id, request)
    return parts


NONCE_WINDOW = timedelta(minutes=3)
"""How long Discord is trusted to remember a nonce (it says "a few minutes"); after that a message
that may have been posted is looked for in the channel before it is posted again."""


async def _post(
    channel: discord.abc.Messageable, parts: list[Outgoing], message: OutboxMessage, *, ends: bool = False
) -> SentMessages:
    """Post the parts in order, each with its own stable nonce ``<nonce>.<index>`` (Discord returns the
    message already made for a nonce it saw a moment ago), skipping the parts an earlier attempt
    recorded, and recording each part the moment it is posted. When the first attempt is older than
    Discord's nonce window, a part is first looked for among the bot's recent messages in the channel:
    a post whose "sent" mark was lost is never repeated. ``ends``: the caller does nothing more for the
    message afterwards, so the last part's record marks it sent too (gm.delivery.outbox)."""
    posted = list(message.sent_parts[: len(parts)])
    late = message.first_tried_at is not None and utcnow() - message.first_tried_at > NONCE_WINDOW
    others: frozenset[int] = frozenset()
    if late and message.posted_by_others is not None:
        others = await message.posted_by_others()
    for index in range(len(posted), len(parts)):
        part = parts[index]
        taken = others | {message_id for _, message_id in posted}
        found = await _already_posted(channel, part, message.first_tried_at, taken) if late else None
        if found is None and part.layout is not None:
            pictures: dict[str, Any] = {"files": part.files()} if part.attachments else {}
            found = await channel.send(
                view=part.layout,
                nonce=f"{message.nonce}.{index}",
                allowed_mentions=part.allowed_mentions(),
                **pictures,
            )
        if found is None:
            extra: dict[str, Any] = {"view": part.view} if part.view is not None else {}
            found = await channel.send(
                content=part.content,
                # why the ignore below: send() accepts None (its default) though typed without it
                embed=part.embed,  # type: ignore[arg-type]
                # why the ignore below: the same: None is send()'s own default
                files=part.files() or None,  # type: ignore[arg-type]
                nonce=f"{message.nonce}.{index}",
                allowed_mentions=part.allowed_mentions(),
                **extra,
            )
        posted.append((found.channel.id, found.id))
        if message.record_part is not None:
            await message.record_part(found.channel.id, found.id, ends and index == len(parts) - 1)
    return posted


async def _already_posted(
    channel: discord.abc.Messageable, part: Outgoing, since: datetime | None, taken: frozenset[int]
) -> discord.Message | None:
    """The bot's own message in ``channel`` since ``since`` that says what ``part`` says, if any, and
    is not one of the ``taken`` messages (another message's parts, or this message's other parts)."""
    try:
        async for seen in channel.history(limit=50, after=since, oldest_first=False):
            if seen.author.bot and seen.id not in taken and _same(seen, part):
                return seen
    except discord.HTTPException as exc:
        log.warning("could not read channel history to check for an earlier post: %s", exc)
    return None


def _same(seen: discord.Message, part: Outgoing) -> bool:
    if part.layout is not None:  # a layout: its first text (a call to order's words) tells it
        return seen.flags.components_v2 and _first_text(seen.components) == _first_text(part.layout.children)
    if seen.flags.components_v2:
        return False
    if (seen.content or None) != (part.content or None):
        return False
    if part.embed is None:
        return not seen.embeds
    return bool(seen.embeds) and (seen.embeds[0].title, seen.embeds[0].description) == (
        part.embed.title,
        part.embed.description,
    )


def _first_text(components: Any) -> str | None:
    """The content of the first text display among ``components`` (a message's or a layout's)."""
    for component in components:
        content = getattr(component, "content", None)
        if isinstance(content, str):
            return content
        found = _first_text(getattr(component, "children", None) or [])
        if found is not None:
            return found
    return None
