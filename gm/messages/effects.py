"""What the chat server must change around a message, besides posting it.

A message says what it needs as data (:attr:`gm.messages.kinds.Message.effects`): a seat that changed
hands moves its private places, a rollback marks the results it voids and reopens a finished game's
places, the final post archives them. The adapter carries out each effect by its type (the Discord
adapter: cogs.messages.effects), before posting the message or, for those marked
:attr:`Effect.after_posting`, once it is posted. Every effect is idempotent on the adapter's side: a
message sent again after a crash does no harm.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class Effect:
    """A change on the chat server that goes with a message."""

    after_posting: ClassVar[bool] = False  # False: done before the message is posted


@dataclass(frozen=True)
class MoveAccess(Effect):
    """The private places of ``powers`` (their channels, their negotiation spaces) follow the seat,
    before the message says so in public: ``admit`` gets them, ``evict`` loses them (either may be
    None). ``open_talks``: the newcomer may lack the seat's private talks with the other players (a
    seat the built-in player held from the start): make the missing ones. ``fresh``: the seat changed
    hands; in an anonymous game its powers get new channels (cogs.places.fresh)."""

    powers: Sequence[str]
    admit: int | None = None
    evict: int | None = None
    open_talks: bool = False
    fresh: bool = False


@dataclass(frozen=True)
class VoidPosts(Effect):
    """What the earlier messages of these kinds about the message's phase became on the chat server
    is marked void (a rollback voids that phase's results, and a final post it made)."""

    kinds: Sequence[str]


@dataclass(frozen=True)
class ReopenPlaces(Effect):
    """A finished game's places are open again (a rollback made it run again)."""


@dataclass(frozen=True)
class ArchivePlaces(Effect):
    """The game is over: its places are kept read-only as its history, once the final post is up."""

    after_posting: ClassVar[bool] = True


@dataclass(frozen=True)
class MarkSeatsTaken(Effect):
    """The game channel's earlier posts offering a seat of ``powers`` say it is taken, by ``user_id``
    (None: a new player not named; ``returning``: its own player, back), once the message announcing
    it is up."""

    after_posting: ClassVar[bool] = True
    powers: Sequence[str]
    user_id: int | None = None
    returning: bool = False  # the player who held the seat is back (not a new player)


@dataclass(frozen=True)
class ShieldPlayer(Effect):
    """``user_id``, who holds a seat, was given a role that would show them more of the game: their
    own places and their shields on every rival place are put on again (idempotent), before the
    message says so."""

    user_id: int


@dataclass(frozen=True)
class ReviseRelay(Effect):
    """What the relayed talk queued as ``of`` (its outbox key) became is edited to the message's words,
    or deleted (``deleted``): its typed original was (gm.relaying.revise_press)."""

    of: str
    deleted: bool = False
