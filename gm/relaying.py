"""Relayed talks of an anonymous game (``/press``): a player writes from anywhere, the bot posts the
words in the other power's private channel (or, to everyone, in the game channel) attributed to the
sender's powers alone, and a copy in the sender's own channel. Discord then shows the bot as the author
of every message between powers, and no place has two players as members (gm.anonymity).

A player may also write by direct message to the bot, or in their power's channel in a message that
mentions the bot, starting "to Germany:" (:func:`split_press`). Such a message is the relay's
original: the outbox rows that carry it are keyed by its id (``press:<id>``, and ``press:<id>:copy``
for the sender's copy), and keep what they became on Discord (``OutboxEntry.sent_messages``), so an
edit or a deletion of the original, even after a restart, is carried to every copy
(:func:`revise_press`: a ``RelayedPressRevised`` message whose effect edits or deletes them).

The game's ``press`` setting says who may be written to: ``threads`` and ``channels`` (full press):
any other power or everyone; ``public``: everyone only; ``none``: nobody. The words are the player's,
carried as typed; the adapter makes them inert (no mention notifies, no markdown link hides)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Game, GameStatus, OutboxEntry, OutboxTarget
from gm.clock import require_aware, utcnow
from gm.delivery.outbox import Target, enqueue, existing_keys
from gm.errors import GameError, NotAllowed
from gm.messages.kinds import RelayedPress, RelayedPressRevised
from gm.messages.words import power_name, powers_text
from gm.reading.lookup import load_game, load_player_and_powers, power_assignments, require_started
from gm.settings import GameSettings

EVERYONE = "everyone"
MAX_TEXT = 1800  # characters: the relay and its attribution fit one Discord message (2,000)


PRESS_LINE = re.compile(r"^\s*to\s+(?P<to>[^:\n]{1,40}?)\s*:\s*", re.IGNORECASE)


def split_press(text: str) -> tuple[str, str] | None:
    """``("Germany", "hello")`` for a message starting ``to Germany: hello`` (a typed relay); None for
    any other message (orders never start so)."""
    match = PRESS_LINE.match(text)
    if match is None:
        return None
    return match["to"], text[match.end() :]


@dataclass(frozen=True)
class Relayed:
    """What ``/press`` carried: from which powers, to whom (a power, or :data:`EVERYONE`)."""

    game_name: str
    sender: tuple[str, ...]
    to: str


def _recipient(to: str, powers: Sequence[str], mine: Sequence[str]) -> str:
    wanted = to.strip().upper().replace(" ", "_")
    if wanted in ("ALL", "EVERYONE", "PUBLIC", "*"):
        return EVERYONE
    by_name = {power_name(p).upper(): p for p in powers} | {p: p for p in powers}
    power = by_name.get(wanted) or by_name.get(to.strip().upper())
    if power is None:
        raise NotAllowed(
            f"{to} is no power of this game.",
            f"Write to one of {powers_text(p for p in powers if p not in mine)}, or to everyone.",
        )
    if power in mine:
        raise NotAllowed(f"You play {power_name(power)}.", "Write to another power, or to everyone.")
    return power


async def relay_press(
    session: AsyncSession,
    game_id: int,
    user_id: int,
    to: str,
    text: str,
    *,
    links: Sequence[str] = (),
    key: str,
    copy: bool = True,
    now: datetime | None = None,
) -> Relayed:
    """Queue ``text`` (and ``links``, the attachments' addresses) from ``user_id``'s powers to ``to``
    (a power's name, or everyone), with a copy in the sender's channel unless ``copy`` is False (the
    original is there already). ``key`` names the request (the interaction, or the typed message's
    id), so that the same request is carried once."""
    now = require_aware(now or utcnow())
    game = await load_game(session, game_id)
    require_started(game)
    settings = GameSettings.from_json(game.settings)
    if not settings.anonymous:
        raise NotAllowed(
            f"{game.name} is not anonymous: its players talk in their own private places.",
            "[[cmd:press]] relays the talks of anonymous games only.",
        )
    _, mine = await load_player_and_powers(session, game, user_id)
    if not mine:
        raise NotAllowed(f"You hold no power in {game.name}.", "Only the powers' players may talk.")
    words = text.strip()
    if not words and not links:
        raise NotAllowed("There is nothing to carry.", "Write some text, or attach a file.")
    if len(words) > MAX_TEXT:
        raise NotAllowed(
            f"Your message is {len(words)} characters long; at most {MAX_TEXT} go in one.",
            "Split it in two; nothing was sent.",
        )
    recipient = _recipient(to, [a.power for a in await power_assignments(session, game_id)], mine)
    if settings.press == "none":
        raise NotAllowed(f"{game.name} is played without press: nobody talks.", "Send your orders only.")
    if settings.press == "public" and recipient != EVERYONE:
        raise NotAllowed(
            f"{game.name} has public press only: what you write goes to everyone.",
            "Use [[cmd:press]] with to:everyone.",
        )
    sender = tuple(mine)
    message = RelayedPress(
        game_id=game_id,
        game_name=game.name,
        title=f"{powers_text(sender)} to {power_name(recipient) if recipient != EVERYONE else 'everyone'}",
        sender=list(sender),
        to=recipient,
        text=words,
        links=list(links),
    )
    target = Target.game_channel() if recipient == EVERYONE else Target.power_channel(recipient)
    enqueue(session, message, target=target, key=f"press:{key}", now=now)
    if copy:
        enqueue(session, message, target=Target.power_channel(sender[0]), key=f"press:{key}:copy", now=now)
    return Relayed(game.name, sender, recipient)


async def revise_press(
    session: AsyncSession,
    message_id: int,
    *,
    user_id: int | None,
    text: str | None,
    version: str,
    now: datetime | None = None,
) -> Relayed | None:
    """Carry an edit (``text``, from ``user_id``, the original's author) or a deletion (``text`` None)
    of the typed message ``message_id`` to the copies it was relayed as; ``version`` names this change
    (the edit's time: the same change is carried once). None when the message was no relay, or its
    game is over (its places are its record now). An edit from a player who no longer holds the
    sender's powers is refused (the powers' words are their new player's now); so is one that leaves
    nothing, or too much, to carry."""
    now = require_aware(now or utcnow())
    found = await _relay_of(session, message_id)
    if found is None:
        return None
    game, rows = found
    said = RelayedPress.from_payload(rows[0].payload)
    assert isinstance(said, RelayedPress)
    relayed = Relayed(game.name, tuple(said.sender), said.to)
    words = ""
    if text is not None:
        if user_id is None:
            return None
        words = await _edited_words(session, game, said, user_id, text)
        if words == said.text:
            return relayed  # nothing the copies say changes (Discord tells of embeds added, too)
    change = f"press:{message_id}:{'edit' if text is not None else 'delete'}:{version}"
    if await existing_keys(session, [f"{change}:{row.id}" for row in rows]):
        return relayed
    _carry(session, game, said, rows, change, None if text is None else words, now)
    return relayed


async def _relay_of(session: AsyncSession, message_id: int) -> tuple[Game, list[OutboxEntry]] | None:
    """The game and the copies (the relayed message, then the sender's copy) the typed message
    ``message_id`` was relayed as; None when it was no relay, or its game is over."""
    keys = (f"press:{message_id}", f"press:{message_id}:copy")
    rows = list(
        (
            await session.exec(
                select(OutboxEntry).where(col(OutboxEntry.dedup_key).in_(keys)).order_by(col(OutboxEntry.id))
            )
        ).all()
    )
    if not rows or rows[0].game_id is None:
        return None
    game = await session.get(Game, rows[0].game_id)
    if game is None or game.status in (GameStatus.FINISHED, GameStatus.CANCELLED):
        return None
    return game, rows


async def _edited_words(
    session: AsyncSession, game: Game, said: RelayedPress, user_id: int, text: str
) -> str:
    """The words an edit carries (``text`` without its addressee), refused when its author no longer
    plays the sender's powers, or when it leaves nothing, or too much, to carry."""
    try:
        _, mine = await load_player_and_powers(session, game, user_id)
    except GameError:
        mine = []
    if not set(said.sender) <= set(mine):
        raise NotAllowed(
            f"You no longer play {powers_text(said.sender)}: your edit was not carried.",
            "What you wrote stays as it was carried.",
        )
    typed = split_press(text)
    words = (typed[1] if typed is not None else text).strip()
    if not words and not said.links:
        raise NotAllowed(
            "Your edit leaves nothing to carry, so the relayed message stays as it was.",
            "Delete your message to take it back.",
        )
    if len(words) > MAX_TEXT:
        raise NotAllowed(
            f"Your edit is {len(words)} characters long; at most {MAX_TEXT} go in one.",
            "Shorten it; the relayed message stays as it was.",
        )
    return words


def _carry(
    session: AsyncSession,
    game: Game,
    said: RelayedPress,
    rows: list[OutboxEntry],
    change: str,
    words: str | None,
    now: datetime,
) -> None:
    """Queue the revision of each copy, once (``change``: this edit's or deletion's key): its new
    ``words``, or None for a deletion. An edit's words become the copies' (the next edit is weighed
    against them)."""
    for row in rows:
        revision = RelayedPressRevised(
            game_id=game.id,
            game_name=game.name,
            title=said.title,
            sender=list(said.sender),
            to=said.to,
            text=words if words is not None else said.text,
            links=list(said.links),
            of=row.dedup_key,
            deleted=words is None,
        )
        target = Target(OutboxTarget(row.target_kind), power=row.target_power)
        enqueue(session, revision, target=target, key=f"{change}:{row.id}", now=now)
    if words is not None:  # the next edit is weighed against this one's words
        for row in rows:
            row.payload = {**row.payload, "text": words}
            session.add(row)


async def is_relayed(session: AsyncSession, message_id: int) -> bool:
    """Whether the typed message ``message_id`` was relayed (one read of a unique key: every edit and
    deletion the bot hears asks it)."""
    row = (
        await session.exec(select(OutboxEntry.id).where(OutboxEntry.dedup_key == f"press:{message_id}"))
    ).first()
    return row is not None


async def relay_posts(session: AsyncSession, key: str) -> list[tuple[int, int]]:
    """(channel id, message id) of what the relay queued as ``key`` became on the chat server."""
    posted = (
        await session.exec(select(OutboxEntry.sent_messages).where(OutboxEntry.dedup_key == key))
    ).first()
    return [(int(c), int(m)) for c, m in posted or ()]
