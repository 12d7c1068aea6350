"""Turning gm's outbox messages (gm.messages.kinds, typed) into Discord messages: embeds, attached maps, and
the full orders with their results as text split under the 2,000-character limit.

One message may become several Discord messages (the results embed with its maps, then the orders); each is a
:class:`Outgoing` the sender posts in order. Each kind is worded by the function registered for its class
(:func:`word_message`, dispatched on the message's type); a kind without one of its own would be worded as a
plain notice, which tests/cogs/test_message_kinds.py does not let pass.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from cogs.messages import final_post as finalpost
from cogs.shared.text import (
    EMBED_DESCRIPTION_LIMIT,
    chunks,
    due,
    plural,
    power_name,
    powers_text,
    safe,
    safe_keeping_users,
    when,
    word,
)
from gm.public import (
    Attachment,
    CivilDisorder,
    CoinFlipped,
    DeadlineMoved,
    GameIsFull,
    GameOver,
    GameStarted,
    Message,
    Moderation,
    OpeningView,
    OutboxMessage,
    OutboxTarget,
    Phase,
    PhaseOpened,
    PhaseResults,
    PlayerLeft,
    PlayerReturned,
    PowerJoined,
    RelayedPress,
    RelayedPressRevised,
    Reminder,
    Replaced,
    ReplacedYou,
    RoleGained,
    RolledBack,
    SeatPlayedBy,
    SeesEverything,
    TakeOverDeclined,
    TakeOverRequest,
    VoidedOrders,
    VoteOpened,
    VoteResult,
    Welcome,
    public_reason,
)
from gm.public import game_map as variant_map

COLOUR = discord.Colour.from_rgb(46, 94, 140)
TITLE_LIMIT = 256
FIELD_LIMIT = 25
STATUS_MARK = {"succeeded": "✅", "failed": "❌", "invalid": "⚠️"}
DEFAULT_MARK = "▫️"  # a unit nobody ordered, which held (or disbanded) without trouble
MENTION = re.compile(r"<@[!&]?\d+>|\[\[user:\d+\]\]")
PRESS_TEXT = {
    "threads": "Each player has a private channel, and private threads for talks with each other power.",
    "channels": "Each player has a private channel, and private channels for talks with each other power.",
    "public": "Each player has a private channel for orders; powers talk here, in public.",
    "none": "Each player has a private channel for orders. No press: players do not talk in this game.",
    "": "Each player has a private channel for orders; `/game status` shows how powers may talk.",
    "relayed": (
        "Each player has a private channel. This game is anonymous: talk with `/press` (to a power, or to "
        "everyone); I carry your words as your power's, never with your name."
    ),
}
# What needs attention stands out from the routine results:
ALARM_COLOUR = discord.Colour.from_rgb(196, 98, 16)  # civil disorder, a rollback
MODERATION_COLOUR = discord.Colour.from_rgb(110, 110, 120)  # a moderator's decision, a moved deadline
VOTE_COLOUR = discord.Colour.from_rgb(90, 60, 150)
CHANCE_COLOUR = discord.Colour.from_rgb(201, 162, 39)  # the 1914 coin and what follows from it


def examples_text(examples: Sequence[str], joiner: str = ", ") -> str:
    """``A ROM - NAP``, ``F NEA - ION`` as code, for the words about how to order."""
    return joiner.join(f"`{example}`" for example in examples)


def how_to_order(examples: Sequence[str] = (), *, sheet: bool = False) -> str:
    """How to send orders, in a direct message (with the player's own ``examples``); ``sheet``: the
    message carries the order sheet under these words."""
    shown = f" ({examples_text(examples)})" if examples else ""
    if sheet:
        return (
            "**How to order:** pick each unit's order on the sheet below, then tap **Ready**. Or reply "
            f"to me here with one order per line{shown}; `/orders sheet` opens the sheet anywhere."
        )
    return (
        f"**How to send orders:** reply to me here with one order per line{shown}, or use "
        "`/orders sheet` in the server (every unit with a menu of its legal orders), `/orders edit` (a "
        "form with your current orders) or `/order text:`. Each line is answered. `/orders show` lists "
        "your orders; `/ready` tells me you are done, so the phase can close early once everybody is."
    )


def how_to_order_here(examples: Sequence[str] = ()) -> str:
    """How to send orders from a power's channel (a direct message that landed there: closed DMs). A
    plain message there is not read (no message-content intent), one that mentions the bot is."""
    typed = f"`/order text:{'; '.join(examples[:2])}`" if examples else "`/order text:`"
    return (
        f"**How to send orders:** `/orders sheet` (menus of your legal orders), {typed} or `/orders edit` "
        "(a form with your current orders): only you see those and my answers. Or write here, starting "
        "with a mention of me and one order per line; the moderators can read this channel, so I answer "
        "here with counts only. `/orders show` lists your orders; `/ready` tells me you are done."
    )


HOW_TO_ORDER = how_to_order()
HOW_TO_ORDER_HERE = how_to_order_here()
VOID_MARK = "~~VOID~~"
VOID_NOTE = "**Rolled back by a moderator: these results are void.**"


@dataclass
class Outgoing:
    """One Discord message to post."""

    content: str | None = None
    embed: discord.Embed | None = None
    attachments: list[Attachment] = field(default_factory=list)
    ping: int | None = None  # a user this message may notify (the bot's own text, never user text)
    ping_role: int | None = None  # a role this message may notify (the moderators, when gm asks)
    pings: tuple[int, ...] = ()  # more users it may notify (moderators called one by one)
    view: discord.ui.View | None = None  # buttons under it (open seats to take over)
    # A Components V2 message instead of content and embed (a call to order with its order sheet)
    layout: discord.ui.LayoutView | None = None

    def allowed_mentions(self) -> discord.AllowedMentions:
        ids = ([self.ping] if self.ping is not None else []) + list(self.pings)
        users = [discord.Object(id=i) for i in dict.fromkeys(ids)] or False
        roles = [discord.Object(id=self.ping_role)] if self.ping_role is not None else False
        return discord.AllowedMentions(everyone=False, users=users, roles=roles, replied_user=False)

    def files(self) -> list[discord.File]:
        return [discord.File(io.BytesIO(a.data), filename=a.filename) for a in self.attachments]


@dataclass(frozen=True)
class Where:
    """What wording one outbox message depends on besides the message: the pictures it carries and
    where it lands."""

    attachments: tuple[Attachment, ...] = ()
    private_channels: tuple[int, ...] = ()  # the recipient's power channels (named in a welcome)
    shared: bool = False  # a direct message posted in the recipient's power channel (closed DMs)
    sheet: bool = False  # the order sheet goes under these words (a call to order by DM)
    direct: bool = False  # addressed to a user (by DM, or in their channel when ``shared``)


def render(
    message: OutboxMessage, *, private_channels: Iterable[int] = (), shared: bool = False, sheet: bool = False
) -> list[Outgoing]:
    """The messages for one outbox entry. ``private_channels``: the recipient's power channels
    (mentioned in a welcome). ``shared``: a direct message posted in the recipient's power channel
    instead (their DMs are closed), which the moderators can read too: no order text goes there
    before the phase closes, and the ways to send orders are those that work from there. ``sheet``:
    the message will carry the player's order sheet under its words (a call to order by DM)."""
    where = Where(
        attachments=message.attachments,
        private_channels=tuple(private_channels),
        shared=shared,
        sheet=sheet,
        direct=message.target_kind == OutboxTarget.USER,
    )
    return word_message(message.content, where)


@functools.singledispatch
def word_message(content: object, where: Where) -> list[Outgoing]:
    """The Discord messages that say ``content`` (one of gm.messages.kinds), by its type."""
    raise TypeError(f"not an outbox message: {type(content).__name__}")


def _announcement(
    content: Message,
    where: Where,
    *,
    colour: discord.Colour | None = None,
    note: str | None = None,
    image: bool = False,
    title: str | None = None,
    with_deadline: bool = True,
) -> list[Outgoing]:
    """An embed of the message's words (``title``: the headline when the message's own names
    members), with ``note`` added, in ``colour``, the pictures attached (``image``: the first one
    shown in the embed)."""
    embed = _embed(content, with_deadline=with_deadline, fallback_title=title)
    if note:
        _add_text(embed, note)
    if colour is not None:
        embed.colour = colour
    attachments = list(where.attachments)
    if image and attachments:
        embed.set_image(url=f"attachment://{attachments[0].filename}")
    return [Outgoing(embed=embed, attachments=attachments)]


@word_message.register(Message)  # a plain notice, and a kind this version does not know
@word_message.register(GameIsFull)
@word_message.register(SeesEverything)
@word_message.register(RoleGained)
@word_message.register(PlayerLeft)
@word_message.register(ReplacedYou)
@word_message.register(TakeOverDeclined)
def _notice(content: Message, where: Where) -> list[Outgoing]:
    return _announcement(content, where)


@word_message.register(CivilDisorder)
def _civil_disorder(content: CivilDisorder, where: Where) -> list[Outgoing]:
    return _announcement(content, where, colour=ALARM_COLOUR)


@word_message.register(DeadlineMoved)
def _deadline_moved(content: DeadlineMoved, where: Where) -> list[Outgoing]:
    return _announcement(content, where, colour=MODERATION_COLOUR)


@word_message.register(VoteOpened)
@word_message.register(VoteResult)
def _vote(content: Message, where: Where) -> list[Outgoing]:
    return _announcement(content, where, colour=VOTE_COLOUR)


@word_message.register(CoinFlipped)
@word_message.register(PowerJoined)
def _chance(content: Message, where: Where) -> list[Outgoing]:
    return _announcement(content, where, colour=CHANCE_COLOUR)


@word_message.register(Moderation)
def _moderation(content: Moderation, where: Where) -> list[Outgoing]:
    title = f"{content.game_name}: a moderator's decision"
    closing = content.action == "close"  # its deadline is moot now
    return _announcement(content, where, colour=MODERATION_COLOUR, title=title, with_deadline=not closing)


@word_message.register(Replaced)
def _replaced(content: Replaced, where: Where) -> list[Outgoing]:
    powers = content.powers
    title = None
    if powers:
        title = (
            f"{content.game_name}: {powers_text(powers)} {'has' if len(powers) == 1 else 'have'} a new player"
        )
    return _announcement(content, where, colour=MODERATION_COLOUR, title=title)


@word_message.register(PlayerReturned)
def _player_returned(content: PlayerReturned, where: Where) -> list[Outgoing]:
    return _announcement(content, where, colour=MODERATION_COLOUR)


@word_message.register(TakeOverRequest)
def _take_over_request(content: TakeOverRequest, where: Where) -> list[Outgoing]:
    return _announcement(content, where, title=f"{content.game_name}: a member asks for an open seat")


@word_message.register(RolledBack)
def _rolled_back(content: RolledBack, where: Where) -> list[Outgoing]:
    return _announcement(content, where, colour=ALARM_COLOUR, image=True)


EDITED_MARK = "-# (edited)"


@word_message.register(OpeningView)
def _opening_view(content: OpeningView, where: Where) -> list[Outgoing]:
    return _announcement(content, where, image=True)


@word_message.register(RelayedPress)
def _relayed_press(content: RelayedPress, where: Where) -> list[Outgoing]:
    """An anonymous game's talk (gm.relaying): the sender's powers as the only author, the player's
    words inert (no mention, no markdown), their attachments as links; it notifies nobody."""
    return [Outgoing(content=relay_text(content))]


@word_message.register(RelayedPressRevised)
def _relayed_press_revised(content: RelayedPressRevised, where: Where) -> list[Outgoing]:
    """Nothing is posted: the relay's copies are edited or deleted (cogs.messages.effects)."""
    return []


def relay_text(content: RelayedPress, *, edited: bool = False, links: Iterable[str] | None = None) -> str:
    """A relay's words as posted (:func:`_relayed_press`); ``edited``: marked as edited since;
    ``links``: the attachments' addresses to show (default: all; those the relay carries as files
    are not shown, cogs.messages.sender)."""
    to = "everyone" if content.to == "everyone" else power_name(content.to)
    head = f"**{powers_text(content.sender)}** to **{to}**:"
    body = discord.utils.escape_mentions(discord.utils.escape_markdown(content.text))
    shown = content.links if links is None else links
    addresses = "\n".join(f"<{url}>" for url in shown if url.startswith("https://"))
    said = word("\n".join(content.lines))  # the gamemaster's own lines, if any (a relay has none)
    mark = EDITED_MARK if edited else ""
    return "\n".join(part for part in (head, body, addresses, said) if part)[: 2000 - len(mark) - 1] + (
        f"\n{mark}" if mark else ""
    )


@word_message.register(GameStarted)
def _game_started(content: GameStarted, where: Where) -> list[Outgoing]:
    return _announcement(content, where, note=press_text(content), image=True)


def press_text(content: GameStarted) -> str:
    """How players talk, as the start says it: the talks are between people, so a player alone among
    the built-in player's powers (``fill_seats``) has none, and the others have none with them."""
    press = content.press or ""
    people = {user for user in content.assignments.values() if user is not None}
    if press in ("threads", "channels") and content.built_in and len(people) <= 1:
        return (
            "The player has a private channel for orders. The built-in player plays every other power, "
            "so there are no private talks in this game."
        )
    if press in ("threads", "channels") and content.built_in:
        places = "threads" if press == "threads" else "channels"
        return (
            f"Each player has a private channel, and private {places} for talks with each other player; "
            "the built-in player's powers have none."
        )
    return PRESS_TEXT.get(press, PRESS_TEXT[""])


SHEET_BELOW = "Pick your orders on the sheet below, then tap **Ready**; or reply here with them."


@word_message.register(Reminder)
def _reminder(content: Reminder, where: Where) -> list[Outgoing]:
    if where.sheet:
        note = SHEET_BELOW
    elif where.shared:
        note = HOW_TO_ORDER_HERE
    else:
        note = "Send them with **Order sheet** below, by replying here, or with `/order` in the server."
    return _announcement(content, where, note=note)


@word_message.register(PhaseOpened)
def _phase_opened(content: PhaseOpened, where: Where) -> list[Outgoing]:
    if where.sheet:
        note = SHEET_BELOW
    elif where.direct and not where.shared:
        note = (
            "Send your orders with **Order sheet** below, by replying here, or with `/order` on the server."
        )
    else:
        note = (
            "Tap **Order sheet** below for your units' menus, or send orders with `/order` (only you see "
            "those answers), by direct message to me, or here in a message that mentions me (I answer here "
            "with counts only). **Ready** tells me you are done."
        )
    parts = _announcement(content, where, note=note)
    ping = content.ping_user_id
    if ping:  # one message: the mention that notifies the player, and their call to order
        parts[0].content = f"<@{int(ping)}>, {long_name(content.phase)} has begun: your orders, please."
        parts[0].ping = int(ping)
    return parts


@word_message.register(Welcome)
def _welcome_message(content: Welcome, where: Where) -> list[Outgoing]:
    """One message: the player's powers, units and how to order, with the opening map (their own
    view under the fog of war) as its picture when it was drawn."""
    channels = list(where.private_channels)
    embed = _welcome(content, channels, shared=where.shared, sheet=where.sheet)
    pictures = list(where.attachments[:1])
    if pictures:
        embed.set_image(url=f"attachment://{pictures[0].filename}")
    return [Outgoing(embed=embed, attachments=pictures)]


@word_message.register(PhaseResults)
def _results_message(content: PhaseResults, where: Where) -> list[Outgoing]:
    return _results(content, where.attachments)


@word_message.register(GameOver)
def _final_post_message(content: GameOver, where: Where) -> list[Outgoing]:
    return _final_post(content, where.attachments)


@word_message.register(VoidedOrders)
def _voided_orders_message(content: VoidedOrders, where: Where) -> list[Outgoing]:
    return [Outgoing(embed=_voided_orders(content, shared=where.shared))]


@word_message.register(SeatPlayedBy)
def _seat_played_by(content: SeatPlayedBy, where: Where) -> list[Outgoing]:
    """One line in a pair's private place, among the talk."""
    return [Outgoing(content=" ".join(_line(line) for line in content.lines))]


def alert_note(role_id: int) -> Outgoing:
    """The moderators' call, for messages with ``alert_moderators`` (it notifies that role only)."""
    return Outgoing(content=f"<@&{role_id}>, a moderator is needed here.", ping_role=role_id)


def alert_users_note(user_ids: list[int]) -> Outgoing:
    """The moderators' call when their role cannot be mentioned (or does not exist): the game's
    creator and the role's members, by name, notifying exactly them."""
    names = ", ".join(f"<@{u}>" for u in user_ids)
    return Outgoing(content=f"{names}: a moderator is needed here.", pings=tuple(user_ids))


def void_embed(embed: discord.Embed) -> discord.Embed:
    """A posted results embed marked void by a rollback (idempotent)."""
    if not (embed.title or "").startswith(VOID_MARK):
        embed.title = f"{VOID_MARK} {embed.title or ''}"[:TITLE_LIMIT]
        body = f"{VOID_NOTE}\n\n{embed.description or ''}"
        embed.description = body[:EMBED_DESCRIPTION_LIMIT]
    embed.colour = MODERATION_COLOUR
    return embed


def void_content(content: str) -> str:
    """A posted text part of the results marked void (idempotent; stays under 2,000 characters)."""
    if content.startswith(VOID_MARK):
        return content
    marked = f"{VOID_MARK} {VOID_NOTE}\n{content}"
    return marked if len(marked) <= 2000 else marked[:1999] + "…"


def fallback_note(user_id: int | None) -> str:
    """The note over a direct message posted in the player's channel (their DMs are closed); without
    ``user_id``, naming nobody (what an anonymous game's note is edited to once it has notified them)."""
    return (
        f"{f'<@{user_id}>, y' if user_id is not None else 'Y'}our direct messages are closed to me, so "
        "here is what I wanted to send you (the moderators can read this channel too, so no orders of "
        "yours appear here)."
    )


# --- builders ----------------------------------------------------------------------------------


def _embed(
    content: Message,
    *,
    with_deadline: bool = True,
    fallback_title: str | None = None,
    lines: Sequence[str] | None = None,
) -> discord.Embed:
    """The embed every message starts from: headline, lines (``lines``: others instead of the
    message's own), the deadline, the labelled facts and the game in the footer."""
    title = content.title or "Diplomacy"
    lines = [_line(x) for x in (content.lines if lines is None else lines)]
    if MENTION.search(title):  # an embed title shows <@id> raw: the sentence goes first in the text
        lines.insert(0, f"**{_line(title)}**")
        title = fallback_title or content.game_name or "Diplomacy"
    deadline = content.deadline
    if deadline is not None and with_deadline:
        lines.append(f"**Deadline:** {when(deadline, content.deadline_zone)}")
    embed = discord.Embed(
        title=safe_keeping_users(title, limit=TITLE_LIMIT),
        description=chunks(lines, EMBED_DESCRIPTION_LIMIT)[0] or None,
        colour=COLOUR,
    )
    for name, value in list(content.fields.items())[:FIELD_LIMIT]:
        embed.add_field(
            name=safe(name, limit=256),
            value=safe_keeping_users(value, limit=1024),
            inline=True,
        )
    if content.game_id is not None:
        embed.set_footer(text=f"Game #{content.game_id}: {' '.join(content.game_name.split())}"[:2048])
    return embed


def _add_text(embed: discord.Embed, text: str) -> None:
    description = f"{embed.description}\n\n{text}" if embed.description else text
    embed.description = description[:EMBED_DESCRIPTION_LIMIT]


def _line(text: str) -> str:
    return word(discord.utils.escape_markdown(str(text)))


def long_name(phase: str | None) -> str:
    """``Spring 1901 Movement`` for ``S1901M`` (anything else as it is)."""
    try:
        return Phase.parse(phase or "").long_name
    except ValueError:
        return phase or ""


def _welcome(
    welcome: Welcome, private_channels: list[int], *, shared: bool = False, sheet: bool = False
) -> discord.Embed:
    game_map = variant_map(welcome.variant or "standard")
    replacing = welcome.replacement
    lines = [_line(x) for x in welcome.lines] if replacing else []
    units = welcome.units
    orders = welcome.orders or {}
    owned = welcome.centers
    for power in welcome.powers:
        lines.append(f"**{power_name(power)}**")
        if owned is not None:  # a game under way: the centers it owns now, not its home centers
            held = ", ".join(game_map.name_of(c) for c in owned.get(power, []))
            lines.append(f"Centers: {held or 'none'}")
        else:
            homes = ", ".join(game_map.name_of(c) for c in game_map.home_centers.get(power, ()))
            lines.append(f"Home centers: {homes}")
        lines.append(f"Units: {', '.join(units.get(power, [])) or 'none'}")
        if replacing and shared:  # the moderators read this channel: counts only, before the close
            given_count = len(orders.get(power, []))
            lines.append(f"Orders so far: {given_count} (`/orders show` lists them, to you alone)")
        elif replacing:
            given = ", ".join(f"`{order}`" for order in orders.get(power, []))
            lines.append(f"Orders so far: {given or 'none yet'}")
    if welcome.phase:
        which = "Now" if replacing else "First phase"
        lines.append(
            f"\n{which}: {long_name(welcome.phase)}, {due(welcome.deadline, welcome.deadline_zone)}."
        )
    if private_channels:
        label = "Your private channel" + ("s" if len(private_channels) > 1 else "")
        lines.append(f"{label}: " + ", ".join(f"<#{c}>" for c in private_channels))
    lines.append("")
    examples = list(welcome.examples)
    lines.append(how_to_order_here(examples) if shared else how_to_order(examples, sheet=sheet))
    return discord.Embed(
        title=safe(f"You play {powers_text(welcome.powers)} in {welcome.game_name}", limit=256),
        description="\n".join(lines)[:EMBED_DESCRIPTION_LIMIT],
        colour=COLOUR,
    ).set_footer(text=f"Game #{welcome.game_id}")


def _results(results: PhaseResults, attachments: tuple[Attachment, ...]) -> list[Outgoing]:
    """The results embed with the orders map as its image (and the new position attached), then
    every order with its result, by power, as plain messages."""
    embed = _embed(results, with_deadline=False)
    next_phase = results.next_phase
    if next_phase:
        _add_text(
            embed, f"Next: **{long_name(next_phase)}**, {due(results.deadline, results.deadline_zone)}."
        )
    elif results.game_over:
        _add_text(embed, "The game is over.")
    if attachments:
        embed.set_image(url=f"attachment://{attachments[0].filename}")
    first = Outgoing(embed=embed, attachments=list(attachments))
    if results.fogged and not results.orders:  # the game channel of a fogged game: no orders at all
        return [first]
    lines = orders_lines(results.phase, results.orders, built_in=results.built_in)
    if results.fogged:
        lines[0] = f"**Orders and results you could see, {long_name(results.phase)}**"
    texts = chunks(lines)
    return [first] + [Outgoing(content=text) for text in texts if text]


def orders_lines(
    phase: str | None, orders: Mapping[str, Sequence[Mapping[str, Any]]], *, built_in: Sequence[str] = ()
) -> list[str]:
    """Every order of ``phase`` (power -> its orders with their results); what the players typed is
    escaped. The powers in ``built_in`` are labelled as the built-in player's."""
    lines = [f"**Orders and results, {long_name(phase)}**"]
    for power, entries in sorted(orders.items()):
        lines.append(f"**{power_name(power)}**" + (" (built-in player)" if power in built_in else ""))
        for entry in entries:
            lines.append(_result_line(entry, power))
    if len(lines) == 1:
        lines.append("No orders were given.")
    return lines


def _result_line(entry: Mapping[str, Any], power: str) -> str:
    """One order and its result, as everyone reads it: the engine's "yours" and "your own" name
    ``power`` (gm.public.public_reason)."""
    mark = STATUS_MARK.get(entry.get("status") or "", "•")
    order = entry.get("order")
    typed = entry.get("input")
    if typed is None and entry.get("status") == "succeeded":
        mark = DEFAULT_MARK
    shown = f"`{order}`" if order else safe(typed or "?", limit=200)
    reason = public_reason(str(entry.get("reason") or ""), power)
    if typed is None and entry.get("status") == "succeeded":
        # A default line: its reason starts "no order: ..." or "no valid order: ..." (the invalid
        # lines above it say why); the short form is enough when nothing happened to the unit.
        given = "no valid order" if reason.startswith("no valid") else "no order given"
        shown += f" ({given})"
    elif reason and entry.get("status") != "succeeded":
        shown += f": {safe(reason, limit=300)}"
    if entry.get("status") == "invalid" and order and typed:
        shown += f" (typed: {safe(typed, limit=200)})"
    return f"{mark} {shown}"


def _voided_orders(voided: VoidedOrders, *, shared: bool = False) -> discord.Embed:
    """A rollback gives a player back the orders it voided: what they typed, shown as typed; in a
    channel the moderators can read, only how many there were."""
    typed = [str(line).replace("`", "'") for line in voided.orders]
    lines = list(voided.lines[:1])
    if shared:
        lines = [
            f"A moderator rolled the game back: the {plural(len(typed), 'order line')} you had sent for "
            "the phase it deleted are void. The moderators can read this channel, so I do not repeat "
            "them here."
        ]
    embed = _embed(voided, with_deadline=False, lines=lines)
    if typed and not shared:
        block = "\n".join(typed)[: EMBED_DESCRIPTION_LIMIT - 600]
        _add_text(embed, f"```\n{block}\n```")
    _add_text(embed, "Send again whatever still applies to the reopened phase.")
    return embed


def _final_post(post: GameOver, attachments: tuple[Attachment, ...]) -> list[Outgoing]:
    """The result, the final map as the embed's image, the GIF attached; then the centers table."""
    embed = _embed(post, with_deadline=False)
    files = list(attachments)
    for note in finalpost.final_embed(post, embed, files):
        _add_text(embed, note)
    _add_text(
        embed,
        "Every past phase stays available with `/history phase`, the centers chart with `/history chart`; "
        "`/game export` gives the whole game.",
    )
    texts = finalpost.table_messages(dict(post.centers_by_year))
    return [Outgoing(embed=embed, attachments=files)] + [Outgoing(content=text) for text in texts]
