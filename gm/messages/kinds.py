"""The outbox messages, one dataclass per kind.

A use case builds one of these and queues it (gm.delivery.outbox.enqueue); the outbox stores it as
JSON (:meth:`Message.to_payload`, the shape gm.messages.payloads.base describes) and hands the adapter
the same typed object back (:func:`read_message`), so an adapter reads attributes, never keys.

Every message has a headline and body lines in plain words (members and commands as references,
``[[user:42]]``: the adapter words them), optional short labelled facts, the phase it is about, a
deadline, and the stored pictures to attach. Each kind adds the structured facts an adapter acts on
(who gets a power's channels, which seats are open, the orders with their results).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar

from gm.messages.payloads import base

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
class GameIsFull(Message):
    """To the creator: the last seat was taken."""

    kind: ClassVar[str] = "game_full"


@dataclass(frozen=True, kw_only=True)
class GameStarted(Message):
    """In the game channel: who plays what, and how players may talk."""

    kind: ClassVar[str] = "game_started"
    assignments: Mapping[str, int | None] = field(default_factory=dict)  # power -> user (None: neutral)
    built_in: Sequence[str] = ()  # the powers (of those with None above) the built-in player plays
    press: str = ""
    open_seats: Sequence[Sequence[str]] = ()  # the built-in player's seats a member may take over
    take_over: str | None = None  # gm.setup.settings.TAKE_OVER_MODES


@dataclass(frozen=True, kw_only=True)
class SeesEverything(Message):
    """In the game channel at the start: players from whom the server cannot hide any channel (its
    owner, administrators), so that the others know (gm.setup.server)."""

    kind: ClassVar[str] = "sees_everything"
    user_ids: Sequence[int] = ()


@dataclass(frozen=True, kw_only=True)
class Welcome(Message):
    """To a player (at the start, or when a seat is handed over): their powers, units and centers."""

    kind: ClassVar[str] = "welcome"
    powers: Sequence[str] = ()
    units: Mapping[str, Sequence[str]] = field(default_factory=dict)
    centers: Mapping[str, Sequence[str]] | None = None  # owned now (a game under way); None: the homes
    orders: Mapping[str, Sequence[str]] | None = None  # the orders already given (a replacement)
    replacement: bool = False
    variant: str = "standard"
    examples: Sequence[str] = ()  # legal orders of the player's own units, to show how orders read


@dataclass(frozen=True, kw_only=True)
class PlayerLeft(Message):
    """In the game channel: a player left a running game (their powers hold in civil disorder)."""

    kind: ClassVar[str] = "player_left"
    powers: Sequence[str] = ()
    user_id: int | None = None  # loses the powers' private places
    open_seats: Sequence[Sequence[str]] = ()  # seats anyone not playing may take over
    take_over: str | None = None  # gm.setup.settings.TAKE_OVER_MODES


@dataclass(frozen=True, kw_only=True)
class CivilDisorder(Message):
    """In the game channel (one for every player who fell at once), and to each of them."""

    kind: ClassVar[str] = "civil_disorder"
    powers: Sequence[str] = ()
    user_id: int | None = None
    players: Sequence[Mapping[str, Any]] = ()  # {"user_id", "powers"} per player
    open_seats: Sequence[Sequence[str]] = ()
    take_over: str | None = None


# --- phases ---------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class PhaseResults(Message):
    """In the game channel: what happened, the centers, every order with its result, what is next."""

    kind: ClassVar[str] = "phase_results"
    orders: Mapping[str, Sequence[Mapping[str, Any]]] = field(default_factory=dict)  # power -> results
    changes: Mapping[str, Any] = field(default_factory=dict)
    centers: Mapping[str, int] = field(default_factory=dict)
    missed: Mapping[str, Any] = field(default_factory=dict)
    next_phase: str | None = None
    game_over: Mapping[str, Any] | None = None  # the game's result when this phase ended it
    built_in: Sequence[str] = ()  # the powers whose orders the built-in player gave


@dataclass(frozen=True, kw_only=True)
class PhaseOpened(Message):
    """A power's call to order: its summary and what it must order (in its channel, or by DM)."""

    kind: ClassVar[str] = "phase_opened"
    power: str = ""
    todo: Sequence[str] = ()
    reopened: bool = False
    ping_user_id: int | None = None  # the player this call notifies (once per player per phase)


@dataclass(frozen=True, kw_only=True)
class Reminder(Message):
    """To a player who still owes orders, before the deadline."""

    kind: ClassVar[str] = "reminder"
    missing: Mapping[str, Sequence[str]] = field(default_factory=dict)  # power -> units without orders
    hours_before: float = 0.0


@dataclass(frozen=True, kw_only=True)
class DeadlineMoved(Message):
    """In the game channel: the deadline moved by itself, for a player's declared absence or for a
    grace extension. Says where it went and why in general, never who was missing what."""

    kind: ClassVar[str] = "deadline_moved"
    reason: str = ""  # absence, grace


# --- the end ---------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class GameOver(Message):
    """The final post: the result, the final map, the centers per year and the animation."""

    kind: ClassVar[str] = "game_over"
    result: Mapping[str, Any] = field(default_factory=dict)
    centers_by_year: Mapping[str, Any] = field(default_factory=dict)
    powers: Sequence[str] = ()
    pictures_failed: bool = False  # the pictures could not be drawn: the post goes out without them


@dataclass(frozen=True, kw_only=True)
class VoteOpened(Message):
    kind: ClassVar[str] = "vote_opened"
    proposal: Mapping[str, Any] = field(default_factory=dict)  # {"id", "kind", "beneficiary"}
    voters: Sequence[str] = ()


@dataclass(frozen=True, kw_only=True)
class VoteResult(Message):
    kind: ClassVar[str] = "vote_result"
    proposal: Mapping[str, Any] = field(default_factory=dict)
    passed: bool = False


@dataclass(frozen=True, kw_only=True)
class CoinFlipped(Message):
    """The 1914 game's coin: which side neutral Italy joins."""

    kind: ClassVar[str] = "coin_flip"
    power: str = ""
    side: Sequence[str] = ()
    result: str = ""  # heads or tails


@dataclass(frozen=True, kw_only=True)
class PowerJoined(Message):
    """A neutral power joins a side: its player gets the power's private places."""

    kind: ClassVar[str] = "power_joined"
    power: str = ""
    side: Sequence[str] = ()
    user_id: int | None = None


# --- moderation -----------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Moderation(Message):
    """In the game channel: a moderator's action (extend, pause, resume, close, civil disorder)."""

    kind: ClassVar[str] = "moderation"
    action: str = ""


@dataclass(frozen=True, kw_only=True)
class Replaced(Message):
    """In the game channel: a seat changed hands; its private places move before this is posted."""

    kind: ClassVar[str] = "replaced"
    action: str = "replace"
    powers: Sequence[str] = ()
    old_user_id: int | None = None
    new_user_id: int | None = None


@dataclass(frozen=True, kw_only=True)
class ReplacedYou(Message):
    """To the player whose seat went to someone else."""

    kind: ClassVar[str] = "replaced_you"
    powers: Sequence[str] = ()


@dataclass(frozen=True, kw_only=True)
class SeatPlayedBy(Message):
    """In each private place (pair thread or pair channel) of a seat: who plays it from now on, when
    the built-in player takes it over from a person, or a person from the built-in player. One line
    (its ``lines``); it goes to one place (gm.delivery.outbox.Target.place)."""

    kind: ClassVar[str] = "seat_played_by"
    powers: Sequence[str] = ()
    user_id: int | None = None  # the person who plays the seat now; None: the built-in player, or nobody


@dataclass(frozen=True, kw_only=True)
class RolledBack(Message):
    """In the game channel: the last phase's results are void, the phase is open again."""

    kind: ClassVar[str] = "rollback"
    voided_phase: str | None = None


@dataclass(frozen=True, kw_only=True)
class VoidedOrders(Message):
    """To a player: the orders they had sent for a phase a rollback deleted, as they typed them."""

    kind: ClassVar[str] = "voided_orders"
    orders: Sequence[str] = ()


@dataclass(frozen=True, kw_only=True)
class TakeOverRequest(Message):
    """In the game channel: a member asks for an open seat; a moderator approves or declines."""

    kind: ClassVar[str] = "take_over_request"
    power: str = ""
    powers: Sequence[str] = ()
    user_id: int = 0


@dataclass(frozen=True, kw_only=True)
class TakeOverDeclined(Message):
    kind: ClassVar[str] = "take_over_declined"
    powers: Sequence[str] = ()


KINDS: Mapping[str, type[Message]] = {
    cls.kind: cls
    for cls in (
        GameIsFull,
        GameStarted,
        SeesEverything,
        Welcome,
        PlayerLeft,
        CivilDisorder,
        PhaseResults,
        PhaseOpened,
        Reminder,
        DeadlineMoved,
        GameOver,
        VoteOpened,
        VoteResult,
        CoinFlipped,
        PowerJoined,
        Moderation,
        Replaced,
        ReplacedYou,
        SeatPlayedBy,
        RolledBack,
        VoidedOrders,
        TakeOverRequest,
        TakeOverDeclined,
    )
}


def read_message(kind: str, payload: Mapping[str, Any]) -> Message:
    """The typed message an outbox row holds (a kind this version does not know reads as a plain
    :class:`Message`: its headline and lines still say what it is)."""
    return KINDS.get(kind, Message).from_payload(payload)
