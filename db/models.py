"""The tables: games, players, powers, phases, orders (current and logged), ready flags, draw and
concession proposals with their votes, maps, the moderation log and the outbox of messages to post.

Conventions:
- Discord ids (snowflakes, up to 2**63) are BigInteger, portable between SQLite and PostgreSQL.
- Every timestamp is an aware UTC ``datetime`` (:class:`db.types.UTCDateTime`).
- Text a player typed (game names, order lines) is stored exactly as typed; escaping is the adapters' job.
- Statuses are plain strings; the allowed values are the ``StrEnum`` classes below.
- Nothing of a game is deleted in normal play: history (phases, the submission log, the game log) is
  append-only; ``unit_order`` holds the *latest* order per unit and ``ready_flag`` the current ready
  state. Sandboxes (``sandbox``, ``sandbox_phase``) are no game's records: they are deleted by their
  owner, after 30 days unused, or when their owner leaves the server.

The migration in migrations/versions/ must create exactly these tables; tests/db checks that.
"""

from __future__ import annotations

from datetime import date, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, BigInteger, Index, LargeBinary, Text, UniqueConstraint
from sqlalchemy import true as sa_true
from sqlmodel import Field, SQLModel

from db.types import UTCDateTime

# Named constraints, so that Alembic's batch mode (SQLite) can find them in later migrations.
SQLModel.metadata.naming_convention = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Stored:
    """What every table row has: its id, known once the row is stored (flushed or loaded)."""

    id: int | None

    @property
    def row_id(self) -> int:
        """The row's id, typed as set: for rows read from or flushed to the database."""
        if self.id is None:
            raise RuntimeError(f"this {type(self).__name__} has not been stored yet: flush it first")
        return self.id


class GameStatus(StrEnum):
    FORMING = "forming"  # created, players joining
    ACTIVE = "active"  # started, phases running
    PAUSED = "paused"  # a moderator stopped the clock
    FINISHED = "finished"  # solo, draw, or the last year of a short game reached
    CANCELLED = "cancelled"  # ended by a moderator before a result


class PlayerStatus(StrEnum):
    ACTIVE = "active"
    CIVIL_DISORDER = "civil_disorder"  # units hold; does not block an early close
    LEFT = "left"
    REPLACED = "replaced"
    ELIMINATED = "eliminated"


class PhaseStatus(StrEnum):
    OPEN = "open"  # taking orders
    ADJUDICATING = "adjudicating"  # claimed by a closer (compare-and-set); no more orders
    CLOSED = "closed"  # results written, next phase opened


class OutboxTarget(StrEnum):
    GAME_CHANNEL = "game_channel"  # the game's public channel
    POWER_CHANNEL = "power_channel"  # a power's private channel (its player, the bot, moderators)
    USER = "user"  # a direct message to one user
    PLACE = "place"  # one private place by its id (a pair's thread or channel: its players, the bot)


class Game(Stored, SQLModel, table=True):
    __tablename__ = "game"

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=BigInteger, index=True)
    name: str = Field(max_length=100)
    creator_id: int = Field(sa_type=BigInteger)
    variant: str = Field(default="standard", max_length=40)
    status: str = Field(default=GameStatus.FORMING, max_length=20, index=True)
    settings: dict[str, Any] = Field(sa_type=JSON)
    lobby_channel_id: int | None = Field(default=None, sa_type=BigInteger)  # where it was created
    lobby_message_id: int | None = Field(default=None, sa_type=BigInteger)  # its Join post there
    category_id: int | None = Field(default=None, sa_type=BigInteger)
    game_channel_id: int | None = Field(default=None, sa_type=BigInteger)  # results and maps
    # A few random characters in the names of the game's places, so that no two games' places share a
    # name on a server, even games of two databases (a restored backup, a second instance).
    place_tag: str | None = Field(default=None, max_length=12)
    # Whether the players' shields are on its private places (issue 27: no player reads a rival's place,
    # whatever their roles). Games set up since carry them from the start; those running when migration
    # 0014 came in are marked False, and the bot puts the shields on at its next start (gm.setup.shields).
    places_shielded: bool = Field(default=True, sa_column_kwargs={"server_default": sa_true()})
    created_at: datetime = Field(sa_type=UTCDateTime)
    started_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    result: dict[str, Any] | None = Field(default=None, sa_type=JSON)  # how it ended


class Player(Stored, SQLModel, table=True):
    """A user in a game. The powers they hold are in ``power_assignment`` (several in small variants)."""

    __tablename__ = "player"
    __table_args__ = (UniqueConstraint("game_id", "user_id"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    user_id: int = Field(sa_type=BigInteger, index=True)
    status: str = Field(default=PlayerStatus.ACTIVE, max_length=20)
    joined_at: datetime = Field(sa_type=UTCDateTime)
    left_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    missed_phases: int = 0  # phases closed while this player owed orders and sent none
    # Movement phases missed in a row (retreats and adjustments do not count), reset by any phase in
    # which they acted; reaching the game's ``civil_disorder_after`` puts the player in civil disorder.
    missed_in_a_row: int = 0
    # The player's record for /stats (gm.rules.leaderboard): phases in which they owed orders and sent
    # some in time, times they fell into civil disorder (missed too many phases, a moderator, or left
    # a running game), times a seat of theirs was given to someone else.
    ordered_phases: int = 0
    civil_disorders: int = 0
    times_replaced: int = 0
    # How the player is told that a phase wants their orders: gm.settings.NOTIFY_* (None: the default)
    notify: str | None = Field(default=None, max_length=10)


class PowerAssignment(Stored, SQLModel, table=True):
    """Which player holds a power; ``player_id`` None means nobody (a neutral power: its units hold).

    ``built_in`` says whether the built-in player (engine.player) gives the power's orders while no
    active player does (gm.builtin.seats): True, yes (a seat nobody took, filled at the start; a
    moderator's /mod builtin on); False, never (a moderator's off: it holds in civil disorder); None,
    as the game's ``absent_seats`` setting says for a player who left or fell into civil disorder."""

    __tablename__ = "power_assignment"
    __table_args__ = (UniqueConstraint("game_id", "power"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    power: str = Field(max_length=20)
    player_id: int | None = Field(default=None, foreign_key="player.id")
    channel_id: int | None = Field(default=None, sa_type=BigInteger)  # the power's private channel
    assigned_at: datetime = Field(sa_type=UTCDateTime)
    built_in: bool | None = None


class GamePlace(Stored, SQLModel, table=True):
    """A negotiation place an adapter made for a game (the negotiation channel, a pair channel, a pair's
    thread), by its chat-server id. A game reuses only places recorded here, never one found by name.
    (The category, the game channel and the power channels are on ``game`` and ``power_assignment``.)"""

    __tablename__ = "game_place"
    __table_args__ = (UniqueConstraint("game_id", "kind", "key"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    kind: str = Field(max_length=20)  # gm.messages.places.PlaceKind
    key: str = Field(default="", max_length=200)  # a pair of seats, "AUSTRIA/FRANCE|ENGLAND"; "" for one
    discord_id: int = Field(sa_type=BigInteger)


class PhaseRecord(Stored, SQLModel, table=True):
    """One phase of a game: the board at its start, its deadline, and once closed its results."""

    __tablename__ = "phase"
    __table_args__ = (UniqueConstraint("game_id", "ordinal"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    ordinal: int  # 0 for the first phase of the game, then 1, 2, ...
    name: str = Field(max_length=10)  # S1901M
    board: dict[str, Any] = Field(sa_type=JSON)  # engine JSON form, at the start of the phase
    # A phases: power -> number of builds (+) or removals (-) owed, from the previous adjudication.
    adjustments: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    status: str = Field(default=PhaseStatus.OPEN, max_length=20, index=True)
    deadline: datetime | None = Field(default=None, sa_type=UTCDateTime)  # None while paused
    remaining_seconds: int | None = None  # while paused: the time that was left (None: a full phase)
    opened_at: datetime = Field(sa_type=UTCDateTime)
    adjudication_started_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    close_reason: str | None = Field(default=None, max_length=20)  # deadline, all_ready, moderator
    closed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    results: dict[str, Any] | None = Field(default=None, sa_type=JSON)


class OrderRecord(Stored, SQLModel, table=True):
    """The latest order for one unit (or build site) of one power in one phase."""

    __tablename__ = "unit_order"
    __table_args__ = (UniqueConstraint("phase_id", "power", "unit_key"),)

    id: int | None = Field(default=None, primary_key=True)
    phase_id: int = Field(foreign_key="phase.id", index=True)
    power: str = Field(max_length=20)
    unit_key: str = Field(max_length=20)  # the unit's province, a build site, or WAIVE:n
    text: str = Field(max_length=80)  # canonical
    input: str = Field(sa_type=Text)  # as typed
    submitted_by: int = Field(sa_type=BigInteger)
    submitted_at: datetime = Field(sa_type=UTCDateTime)


class OrderSubmission(Stored, SQLModel, table=True):
    """Append-only log of every submission and clear: who, when, the raw text, what became of each line."""

    __tablename__ = "order_submission"
    # a player's submissions in a phase, found by the index alone: how many (every write about orders
    # counts them), the oldest beyond the bound, the latest (the phase's are its first column's)
    __table_args__ = (Index("ix_order_submission_phase_id_user_id", "phase_id", "user_id"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    phase_id: int = Field(foreign_key="phase.id")
    user_id: int = Field(sa_type=BigInteger)
    action: str = Field(max_length=20)  # submit, clear
    text: str = Field(sa_type=Text)
    outcome: list[Any] = Field(default_factory=list, sa_type=JSON)
    submitted_at: datetime = Field(sa_type=UTCDateTime)


class ReadyFlag(Stored, SQLModel, table=True):
    """Present while a power is ready for its phase to close early."""

    __tablename__ = "ready_flag"
    __table_args__ = (UniqueConstraint("phase_id", "power"),)

    id: int | None = Field(default=None, primary_key=True)
    phase_id: int = Field(foreign_key="phase.id", index=True)
    power: str = Field(max_length=20)
    user_id: int = Field(sa_type=BigInteger)
    set_at: datetime = Field(sa_type=UTCDateTime)


class ProposalStatus(StrEnum):
    OPEN = "open"  # taking votes until its phase closes
    PASSED = "passed"  # every voter said yes: the game ended
    LAPSED = "lapsed"  # its phase closed first (votes reset when the board changes)


class Proposal(Stored, SQLModel, table=True):
    """A draw, or a concession to ``beneficiary``, put to the vote of the surviving powers in one phase.

    One of each (kind, beneficiary) per phase; ``beneficiary`` is "" for a draw."""

    __tablename__ = "proposal"
    __table_args__ = (UniqueConstraint("phase_id", "kind", "beneficiary"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    phase_id: int = Field(foreign_key="phase.id", index=True)
    kind: str = Field(max_length=20)  # draw, concede
    beneficiary: str = Field(default="", max_length=20)  # the power conceded to
    status: str = Field(default=ProposalStatus.OPEN, max_length=20)
    opened_at: datetime = Field(sa_type=UTCDateTime)
    decided_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class Vote(Stored, SQLModel, table=True):
    """A power's secret vote on a proposal; a later vote replaces the earlier. Never shown to anyone
    but the voter: the outcome only says whether the proposal passed."""

    __tablename__ = "vote"
    __table_args__ = (UniqueConstraint("proposal_id", "power"),)

    id: int | None = Field(default=None, primary_key=True)
    proposal_id: int = Field(foreign_key="proposal.id", index=True)
    power: str = Field(max_length=20)
    choice: str = Field(max_length=10)  # yes / no
    cast_by: int = Field(sa_type=BigInteger)
    cast_at: datetime = Field(sa_type=UTCDateTime)


class GameLogEntry(Stored, SQLModel, table=True):
    """Append-only log of what happened to a game outside order-writing: creation, joins, the power
    draw, moderator actions (extend, pause, replace, rollback ...), with who did it."""

    __tablename__ = "game_log"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    at: datetime = Field(sa_type=UTCDateTime)
    actor_id: int | None = Field(default=None, sa_type=BigInteger)  # None: the bot itself
    action: str = Field(max_length=40)
    detail: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)


class PhaseMap(Stored, SQLModel, table=True):
    """A rendered map, kept so that /map and /history never re-render.

    ``kind`` ``orders``: the board at the phase's start with its orders and their results drawn;
    ``position``: the board at the phase's start, no orders (the map a new phase opens with);
    ``final``: the position after the last phase of a game that ended at a close;
    ``animation``: a GIF of the whole game, kept on the game's last phase (``png`` holds its bytes);
    ``chart``: the supply centers per power per year of a finished game, on its last phase.
    """

    __tablename__ = "phase_map"
    __table_args__ = (UniqueConstraint("phase_id", "kind"),)

    id: int | None = Field(default=None, primary_key=True)
    phase_id: int = Field(foreign_key="phase.id", index=True)
    kind: str = Field(max_length=20)
    png: bytes = Field(sa_type=LargeBinary)
    created_at: datetime = Field(sa_type=UTCDateTime)


class OutboxEntry(Stored, SQLModel, table=True):
    """A message to post, written in the same transaction as what caused it; see gm/delivery/outbox.py."""

    __tablename__ = "outbox"
    __table_args__ = (
        UniqueConstraint("dedup_key"),
        Index("ix_outbox_pending", "sent_at", "failed_at", "id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: int | None = Field(default=None, foreign_key="game.id", index=True)
    phase_id: int | None = Field(default=None, foreign_key="phase.id")
    kind: str = Field(max_length=40)  # phase_results, phase_opened, reminder, game_started, ...
    target_kind: str = Field(max_length=20)  # OutboxTarget
    target_power: str | None = Field(default=None, max_length=20)
    target_user_id: int | None = Field(default=None, sa_type=BigInteger)
    target_place_id: int | None = Field(default=None, sa_type=BigInteger)  # OutboxTarget.PLACE: its id
    payload: dict[str, Any] = Field(sa_type=JSON)
    dedup_key: str = Field(max_length=200)  # stable identity: the same event never queues twice
    created_at: datetime = Field(sa_type=UTCDateTime)
    next_attempt_at: datetime = Field(sa_type=UTCDateTime)
    claimed_until: datetime | None = Field(default=None, sa_type=UTCDateTime)  # a sender's lease ...
    claim_token: str | None = Field(default=None, max_length=40)  # ... and which sender holds it
    sent_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    failed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)  # gave up (permanent error)
    attempts: int = 0
    last_error: str | None = Field(default=None, sa_type=Text)
    # What it became on the chat server once sent: [[channel id, message id], ...] (a rollback marks
    # the results it voids by editing those messages).
    sent_messages: list[Any] | None = Field(default=None, sa_type=JSON)
    # The Discord nonce of its parts ("<nonce>.0", "<nonce>.1", ...): random, drawn when queued, so it
    # is unique across databases and instances (None on rows queued before: "gm<id>").
    nonce: str | None = Field(default=None, max_length=20)


class AbsenceRecord(Stored, SQLModel, table=True):
    """Days a player will be away (``/absence``), declared for one game, from ``first_day`` to
    ``last_day`` inclusive on the game's wall clock (gm.rules.absences). A deadline falling inside it
    moves after it once: ``used_phase_id`` is the phase whose deadline it moved (no foreign key: a
    rollback may delete that phase; the absence stays used). Cancelled absences are kept."""

    __tablename__ = "absence"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    user_id: int = Field(sa_type=BigInteger, index=True)
    first_day: date
    last_day: date
    declared_at: datetime = Field(sa_type=UTCDateTime)
    cancelled_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    cancelled_by: int | None = Field(default=None, sa_type=BigInteger)
    used_phase_id: int | None = None
    used_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class GraceUse(Stored, SQLModel, table=True):
    """A grace extension a player used (gm.rules.grace): the deadline of ``phase_id`` was extended
    because they had sent nothing and had never missed. One row per player whose grace it was; the
    game's ``grace_per_year`` counts them per calendar year (UTC) of ``at``, the deadline extended.
    ``phase_id`` has no foreign key: a rollback may delete the phase, the grace stays used."""

    __tablename__ = "grace_use"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    user_id: int = Field(sa_type=BigInteger)
    phase_id: int
    at: datetime = Field(sa_type=UTCDateTime)
    created_at: datetime = Field(sa_type=UTCDateTime)


class Spectator(Stored, SQLModel, table=True):
    """A member watching a game (/game watch): they see its public channel, never a power's channel or
    the private talks. ``stopped_at`` is set by /game unwatch (and cleared by watching again)."""

    __tablename__ = "spectator"
    __table_args__ = (UniqueConstraint("game_id", "user_id"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    user_id: int = Field(sa_type=BigInteger)
    since: datetime = Field(sa_type=UTCDateTime)
    stopped_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class ServerSettingsRecord(Stored, SQLModel, table=True):
    """A server's own settings (/server settings), read by gm.setup.server; a server without a row has
    the defaults. ``settings`` is gm.setup.server.ServerSettings as JSON."""

    __tablename__ = "server_settings"
    __table_args__ = (UniqueConstraint("guild_id"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=BigInteger)
    settings: dict[str, Any] = Field(sa_type=JSON)
    changed_at: datetime = Field(sa_type=UTCDateTime)
    changed_by: int = Field(sa_type=BigInteger)


class Sandbox(Stored, SQLModel, table=True):
    """A member's private "what if" board (/sandbox, gm.sandbox): a copy of a game's public position
    (or a variant's start) that its owner orders for every power and adjudicates at will. It belongs
    to its owner alone and is no part of any game: ``source_game_id`` only says where it came from (no
    foreign key; nothing of the game's refers to it). Deleted 30 days after it was last used
    (``used_at``), when its owner leaves ``guild_id`` (the server whose game it came from, or where it
    was made; None: made in direct messages from a variant's start), or by its owner."""

    __tablename__ = "sandbox"

    id: int | None = Field(default=None, primary_key=True)
    owner_id: int = Field(sa_type=BigInteger, index=True)
    guild_id: int | None = Field(default=None, sa_type=BigInteger, index=True)
    tag: str = Field(max_length=12)  # random: a sheet left from another database's sandbox is refused
    variant: str = Field(max_length=40)
    title: str = Field(max_length=200)  # where it came from: "game #3 Friday at Spring 1903 Movement"
    source_game_id: int | None = None
    source_phase: str | None = Field(default=None, max_length=10)
    created_at: datetime = Field(sa_type=UTCDateTime)
    used_at: datetime = Field(sa_type=UTCDateTime, index=True)


class SandboxPhase(Stored, SQLModel, table=True):
    """One step of a sandbox: the board at the phase's start, the owner's orders for every power so
    far (power -> order key -> canonical text, gm.ordering.required), and once adjudicated its result.
    The last step without results is the open one; stepping back deletes the steps after the one
    reopened."""

    __tablename__ = "sandbox_phase"
    __table_args__ = (UniqueConstraint("sandbox_id", "step"),)

    id: int | None = Field(default=None, primary_key=True)
    sandbox_id: int = Field(foreign_key="sandbox.id", index=True)
    step: int  # 0 for the position it was made from, then 1, 2, ...
    name: str = Field(max_length=10)  # S1901M
    board: dict[str, Any] = Field(sa_type=JSON)  # engine JSON form, at the start of the phase
    adjustments: dict[str, Any] | None = Field(
        default=None, sa_type=JSON
    )  # A phases: builds (+) / removals (-)
    orders: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)
    results: dict[str, Any] | None = Field(default=None, sa_type=JSON)  # the engine's result, the changes


class DirectMessageRead(SQLModel, table=True):
    """The latest direct message of ``user_id`` the bot has handled (answered, its orders recorded):
    at start-up, the bot reads each player's direct messages after this one (cogs.commands.direct,
    gm.ordering.offline), so that one sent while it was offline is handled once, whatever the bot
    posted to them since. The row of user 0 (no Discord user) records when these rows began
    (``read_at``, the upgrade): a player without a row has had no message handled since then."""

    __tablename__ = "direct_message_read"

    user_id: int = Field(sa_type=BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    message_id: int = Field(sa_type=BigInteger)
    read_at: datetime = Field(sa_type=UTCDateTime)
