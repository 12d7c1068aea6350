"""The outbox messages, one dataclass per kind.

A use case builds one of these and queues it (gm.delivery.outbox.enqueue); the outbox stores it as
JSON with its kind's name (:meth:`Message.to_payload`, the shape gm.messages.payloads.base describes)
and hands the adapter the same typed object back (:func:`read_message`), so an adapter reads
attributes, never keys, and tells messages apart by their type, never by the kind's name.

A kind registers itself by its name: ``class Welcome(Message, kind="welcome")`` (a name once stored
never changes: rows in a database are read back by it). A class that only groups kinds the adapter
treats alike (:class:`CallToOrder`, :class:`SeatOffer`) says ``family=True`` instead.

Every message has a headline and body lines in plain words (members and commands as references,
``[[user:42]]``: the adapter words them), optional short labelled facts, the phase it is about, a
deadline, and the stored pictures to attach. Each kind adds the structured facts an adapter acts on
(who gets a power's channels, which seats are open, the orders with their results), and what the
chat server must change around it besides posting it (:attr:`Message.effects`, gm.messages.effects).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any, ClassVar

from gm.messages.effects import (
    ArchivePlaces,
    Effect,
    MarkSeatsTaken,
    MoveAccess,
    ReopenPlaces,
    ReviseRelay,
    ShieldPlayer,
    VoidPosts,
)
from gm.messages.payloads import base

_REGISTRY: dict[str, type[Message]] = {}  # kind name -> its class (Message.__init_subclass__)
_BASE = ("game_id", "game_name", "title", "lines", "fields", "phase", "deadline", "maps", "alert_moderators")


@dataclass(frozen=True, kw_only=True)
class Message:
    """What every outbox message says (see the module docstring)."""

    kind: ClassVar[str] = "notice"
    game_id: int | None
    game_name: str = ""
    title: str
    lines: Sequence[str] = ()
    fields: Mapping[str, str] = field(default_factory=dict)  # label -> value
    phase: str | None = None
    deadline: datetime | None = None
    maps: Sequence[Mapping[str, Any]] = ()  # gm.messages.payloads.map_ref: stored pictures to attach
    alert_moderators: bool = False  # call the server's moderators (by role, or by name)
    # The game's deadline time zone (an IANA name) when its deadlines keep to a schedule: the adapter
    # shows the deadline on that wall clock too (gm.rules.deadlines.local_time_text); None: no schedule.
    deadline_zone: str | None = None

    def __init_subclass__(cls, *, kind: str | None = None, family: bool = False, **kwargs: Any) -> None:
        """Register the kind under its name (see the module docstring)."""
        super().__init_subclass__(**kwargs)
        if family:
            if kind is not None:
                raise TypeError(f"{cls.__name__}: a family of kinds has no kind name of its own")
            return
        if not kind:
            raise TypeError(
                f"{cls.__name__} needs its kind's name: class {cls.__name__}(Message, kind='...')"
            )
        if kind in _REGISTRY:
            raise TypeError(f"{cls.__name__}: kind {kind!r} is {_REGISTRY[kind].__name__}'s already")
        cls.kind = kind
        _REGISTRY[kind] = cls

    @property
    def effects(self) -> Sequence[Effect]:
        """What the chat server must change around this message (none for most)."""
        return ()

    def to_payload(self) -> dict[str, Any]:
        extra = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name not in _BASE}
        extra["alert_moderators"] = self.alert_moderators
        return base(
            self.game_id,
            self.game_name,
            title=self.title,
            lines=self.lines,
            fields=self.fields,
            phase=self.phase,
            deadline=self.deadline,
            maps=self.maps,
            **extra,
        )

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Message:
        game = payload.get("game") or {}
        raw_deadline = payload.get("deadline")
        known = {
            f.name: payload[f.name]
            for f in dataclasses.fields(cls)
            if f.name not in _BASE and f.name in payload
        }
        return cls(
            game_id=int(game["id"]) if game.get("id") is not None else None,
            game_name=str(game.get("name") or ""),
            title=str(payload.get("title") or ""),
            lines=tuple(str(x) for x in payload.get("lines") or ()),
            fields={str(f["name"]): str(f["value"]) for f in payload.get("fields") or ()},
            phase=payload.get("phase"),
            deadline=datetime.fromisoformat(raw_deadline) if raw_deadline else None,
            maps=tuple(payload.get("maps") or ()),
            alert_moderators=bool(payload.get("alert_moderators")),
            **known,
        )


# --- the game's life ----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class GameIsFull(Message, kind="game_full"):
    """To the creator: the last seat was taken."""


@dataclass(frozen=True, kw_only=True)
class SeatOffer(Message, family=True):
    """The kinds that offer seats in the game channel (``open_seats``): whoever may (``take_over``,
    gm.settings.TAKE_OVER_MODES) takes one over from the post."""

    open_seats: Sequence[Sequence[str]] = ()  # each seat: its powers
    take_over: str | None = None  # gm.settings.TAKE_OVER_MODES


@dataclass(frozen=True, kw_only=True)
class CallToOrder(Message, family=True):
    """The kinds that call a player to order for ``phase``: a phase's call, the welcome (the first
    phase's call), a reminder. The adapter offers the player's order sheet with them."""


@dataclass(frozen=True, kw_only=True)
class GameStarted(SeatOffer, kind="game_started"):
    """In the game channel: who plays what, and how players may talk; its open seats are the
    built-in player's that a member may take over."""

    assignments: Mapping[str, int | None] = field(default_factory=dict)  # power -> user (None: neutral)
    built_in: Sequence[str] = ()  # the powers (of those with None above) the built-in player plays
    press: str = ""


@dataclass(frozen=True, kw_only=True)
class SeesEverything(Message, kind="sees_everything"):
    """In the game channel at the start: players from whom the server cannot hide any channel (its
    owner, administrators), so that the others know (gm.setup.server)."""

    user_ids: Sequence[int] = ()


@dataclass(frozen=True, kw_only=True)
class RoleGained(Message, kind="role_gained"):
    """In the game channel: a player was given a role that reads more of the server while seated
    (Administrator, which no overwrite hides anything from; the moderators' role, which their own
    overwrites still hide the rivals' places from), so that the others know (gm.setup.server)."""

    user_id: int = 0
    sees_all: bool = False
    moderator: bool = False

    @property
    def effects(self) -> Sequence[Effect]:
        return (ShieldPlayer(self.user_id),)


@dataclass(frozen=True, kw_only=True)
class Welcome(CallToOrder, kind="welcome"):
    """To a player (at the start, or when a seat is handed over): their powers, units and centers."""

    powers: Sequence[str] = ()
    units: Mapping[str, Sequence[str]] = field(default_factory=dict)
    centers: Mapping[str, Sequence[str]] | None = None  # owned now (a game under way); None: the homes
    orders: Mapping[str, Sequence[str]] | None = None  # the orders already given (a replacement)
    replacement: bool = False
    variant: str = "standard"
    examples: Sequence[str] = ()  # legal orders of the player's own units, to show how orders read


@dataclass(frozen=True, kw_only=True)
class PlayerLeft(SeatOffer, kind="player_left"):
    """In the game channel: a player left a running game (their powers hold in civil disorder)."""

    powers: Sequence[str] = ()
    user_id: int | None = None  # loses the powers' private places

    @property
    def effects(self) -> Sequence[Effect]:
        return (MoveAccess(tuple(self.powers), evict=self.user_id),)


@dataclass(frozen=True, kw_only=True)
class CivilDisorder(SeatOffer, kind="civil_disorder"):
    """In the game channel (one for every player who fell at once), and to each of them."""

    powers: Sequence[str] = ()
    user_id: int | None = None
    players: Sequence[Mapping[str, Any]] = ()  # {"user_id", "powers"} per player


# --- phases ---------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class PhaseResults(Message, kind="phase_results"):
    """In the game channel: what happened, the centers, every order with its result, what is next."""

    orders: Mapping[str, Sequence[Mapping[str, Any]]] = field(default_factory=dict)  # power -> results
    changes: Mapping[str, Any] = field(default_factory=dict)
    centers: Mapping[str, int] = field(default_factory=dict)
    missed: Mapping[str, Any] = field(default_factory=dict)
    next_phase: str | None = None
    game_over: Mapping[str, Any] | None = None  # the game's result when this phase ended it
    built_in: Sequence[str] = ()  # the powers whose orders the built-in player gave
    # Under the fog of war: in the game channel, what every power may know (no orders, no map); in a
    # power's channel, its own view (the orders it saw, its maps): gm.phases.fogged
    fogged: bool = False


@dataclass(frozen=True, kw_only=True)
class PhaseOpened(CallToOrder, kind="phase_opened"):
    """A power's call to order: its summary and what it must order (in its channel, or by DM)."""

    power: str = ""
    todo: Sequence[str] = ()
    reopened: bool = False
    ping_user_id: int | None = None  # the player this call notifies (once per player per phase)


@dataclass(frozen=True, kw_only=True)
class Reminder(CallToOrder, kind="reminder"):
    """To a player who still owes orders, before the deadline."""

    missing: Mapping[str, Sequence[str]] = field(default_factory=dict)  # power -> units without orders
    hours_before: float = 0.0


@dataclass(frozen=True, kw_only=True)
class DeadlineMoved(Message, kind="deadline_moved"):
    """In the game channel: the deadline moved by itself, for a player's declared absence or for a
    grace extension. Says where it went and why in general, never who was missing what."""

    reason: str = ""  # absence, grace


# --- the end ---------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class GameOver(Message, kind="game_over"):
    """The final post: the result, the final map, the centers per year and the animation."""

    result: Mapping[str, Any] = field(default_factory=dict)
    centers_by_year: Mapping[str, Any] = field(default_factory=dict)
    powers: Sequence[str] = ()
    pictures_failed: bool = False  # the pictures could not be drawn: the post goes out without them

    @property
    def effects(self) -> Sequence[Effect]:
        return (ArchivePlaces(),)


@dataclass(frozen=True, kw_only=True)
class VoteOpened(Message, kind="vote_opened"):
    proposal: Mapping[str, Any] = field(default_factory=dict)  # {"id", "kind", "beneficiary"}
    voters: Sequence[str] = ()


@dataclass(frozen=True, kw_only=True)
class VoteResult(Message, kind="vote_result"):
    proposal: Mapping[str, Any] = field(default_factory=dict)
    passed: bool = False


@dataclass(frozen=True, kw_only=True)
class CoinFlipped(Message, kind="coin_flip"):
    """The 1914 game's coin: which side neutral Italy joins."""

    power: str = ""
    side: Sequence[str] = ()
    result: str = ""  # heads or tails


@dataclass(frozen=True, kw_only=True)
class PowerJoined(Message, kind="power_joined"):
    """A neutral power joins a side: its player gets the power's private places."""

    power: str = ""
    side: Sequence[str] = ()
    user_id: int | None = None

    @property
    def effects(self) -> Sequence[Effect]:
        return (MoveAccess((self.power,) if self.power else (), admit=self.user_id),)


# --- moderation -----------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Moderation(Message, kind="moderation"):
    """In the game channel: a moderator's action (extend, pause, resume, close, civil disorder)."""

    action: str = ""


@dataclass(frozen=True, kw_only=True)
class Replaced(Message, kind="replaced"):
    """In the game channel: a seat changed hands; its private places move before this is posted (the
    newcomer's missing private talks made), and the posts that offered the seat say it is taken."""

    action: str = "replace"
    powers: Sequence[str] = ()
    old_user_id: int | None = None
    new_user_id: int | None = None
    veiled: bool = False  # an anonymous game's (gm.anonymity): the posts offering the seat name nobody

    @property
    def effects(self) -> Sequence[Effect]:
        powers = tuple(self.powers)
        move = MoveAccess(powers, admit=self.new_user_id, evict=self.old_user_id, open_talks=True, fresh=True)
        taken = MarkSeatsTaken(powers, None if self.veiled else self.new_user_id)
        return (move, taken) if powers else (move,)

    def to_payload(self) -> dict[str, Any]:
        payload = super().to_payload()
        if not self.veiled:  # stored only when set: the rows of every other game keep their shape
            del payload["veiled"]
        return payload


@dataclass(frozen=True, kw_only=True)
class PlayerReturned(Message, kind="player_returned"):
    """In the game channel: a player in civil disorder plays again (their orders, Ready, a vote, or a
    moderator); the posts that offered their seat meanwhile say it is no longer open."""

    action: str = "returned"
    powers: Sequence[str] = ()
    user_id: int | None = None

    @property
    def effects(self) -> Sequence[Effect]:
        return (MarkSeatsTaken(tuple(self.powers), self.user_id, returning=True),) if self.powers else ()


@dataclass(frozen=True, kw_only=True)
class ReplacedYou(Message, kind="replaced_you"):
    """To the player whose seat went to someone else."""

    powers: Sequence[str] = ()


@dataclass(frozen=True, kw_only=True)
class SeatPlayedBy(Message, kind="seat_played_by"):
    """In each private place (pair thread or pair channel) of a seat: who plays it from now on, when
    the built-in player takes it over from a person, or a person from the built-in player. One line
    (its ``lines``); it goes to one place (gm.delivery.outbox.Target.place)."""

    powers: Sequence[str] = ()
    user_id: int | None = None  # the person who plays the seat now; None: the built-in player, or nobody


@dataclass(frozen=True, kw_only=True)
class RolledBack(Message, kind="rollback"):
    """In the game channel: the last phase's results are void, the phase is open again. What those
    results became (and a final post they made) is marked void, and a finished game's places reopen."""

    voided_phase: str | None = None

    @property
    def effects(self) -> Sequence[Effect]:
        return (VoidPosts((PhaseResults.kind, GameOver.kind)), ReopenPlaces())


@dataclass(frozen=True, kw_only=True)
class VoidedOrders(Message, kind="voided_orders"):
    """To a player: the orders they had sent for a phase a rollback deleted, as they typed them."""

    orders: Sequence[str] = ()


@dataclass(frozen=True, kw_only=True)
class TakeOverRequest(Message, kind="take_over_request"):
    """In the game channel: a member asks for an open seat; a moderator approves or declines."""

    power: str = ""
    powers: Sequence[str] = ()
    user_id: int = 0


@dataclass(frozen=True, kw_only=True)
class TakeOverDeclined(Message, kind="take_over_declined"):
    powers: Sequence[str] = ()


@dataclass(frozen=True, kw_only=True)
class OpeningView(Message, kind="opening_view"):
    """A fogged game's start, in a power's channel: the opening position as that power sees it."""


@dataclass(frozen=True, kw_only=True)
class RelayedPress(Message, kind="relayed_press"):
    """An anonymous game's talk (gm.relaying): ``text`` from ``sender``'s powers to the power ``to``
    (in its channel) or to everyone (in the game channel), and its copy in the sender's channel.
    The words are the player's own: the adapter shows them inert, never as the gamemaster's."""

    sender: Sequence[str] = ()
    to: str = ""
    text: str = ""
    links: Sequence[str] = ()


@dataclass(frozen=True, kw_only=True)
class RelayedPressRevised(RelayedPress, kind="relayed_press_revised"):
    """The typed original of a relay (gm.relaying.revise_press) was edited (``text`` is its new words)
    or deleted: what the relay ``of`` (its outbox key) became is edited or deleted; nothing is posted."""

    of: str = ""
    deleted: bool = False

    @property
    def effects(self) -> Sequence[Effect]:
        return (ReviseRelay(self.of, self.deleted),)


_REGISTRY[Message.kind] = Message  # a plain notice
KINDS: Mapping[str, type[Message]] = MappingProxyType(_REGISTRY)
"""Every kind by its name, as the kinds registered themselves (read-only)."""


def read_message(kind: str, payload: Mapping[str, Any]) -> Message:
    """The typed message an outbox row holds (a kind this version does not know reads as a plain
    :class:`Message`: its headline and lines still say what it is)."""
    return KINDS.get(kind, Message).from_payload(payload)
