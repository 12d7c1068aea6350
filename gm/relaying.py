"""Relayed talks of an anonymous game (``/press``): a player writes from anywhere, the bot posts the
words in the other power's private channel (or, to everyone, in the game channel) attributed to the
sender's powers alone, and a copy in the sender's own channel. Discord then shows the bot as the author
of every message between powers, and no place has two players as members (gm.anonymity).

The game's ``press`` setting says who may be written to: ``threads`` and ``channels`` (full press):
any other power or everyone; ``public``: everyone only; ``none``: nobody. The words are the player's,
carried as typed; the adapter makes them inert (no mention notifies, no markdown link hides)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlmodel.ext.asyncio.session import AsyncSession

from gm.clock import require_aware, utcnow
from gm.delivery.outbox import Target, enqueue
from gm.errors import NotAllowed
from gm.messages.kinds import RelayedPress
from gm.messages.words import power_name, powers_text
from gm.reading.lookup import load_game, load_player_and_powers, power_assignments, require_started
from gm.settings import GameSettings

EVERYONE = "everyone"
MAX_TEXT = 1800  # characters: the relay and its attribution fit one Discord message (2,000)


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
    now: datetime | None = None,
) -> Relayed:
    """Queue ``text`` (and ``links``, the attachments' addresses) from ``user_id``'s powers to ``to``
    (a power's name, or everyone), with a copy in the sender's channel. ``key`` names the request
    (the interaction), so that the same request is carried once."""
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
    enqueue(session, message, target=Target.power_channel(sender[0]), key=f"press:{key}:copy", now=now)
    return Relayed(game.name, sender, recipient)
