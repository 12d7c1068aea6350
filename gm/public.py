"""What an adapter (cogs/, a web page) may use of gm besides the facade, gathered in one place.

An adapter imports two modules of gm: gm.facade (the Gamemaster, one method per use case) and this
one (tests/test_adapter_imports.py holds the rule). What belongs here, re-exported and never
defined here:

- the errors the use cases raise (gm.errors; an adapter answers each with its message and hint);
- the plain data the use cases take and return (GameInfo, PhaseInfo, OrdersView, OrderMenu,
  SandboxMenu, GameStatusView, ...) and the constants an adapter offers as choices (the vote kinds,
  the notification choices, the sandbox limit);
- the typed messages and their effects (gm.messages.kinds and gm.messages.effects), which an
  adapter words and carries out, and the outbox's interface an adapter implements (OutboxSender,
  its errors), with the other interfaces it supplies (PlaceMaker, Shielder) and their data;
- the settings model (GameSettings and the declaration of its options) and the bot's own limits
  (FormingLimits, for the composition root);
- the engine's plain values and lookups an adapter shows or offers: the variants (``get_variant``,
  ``game_map``, ``all_variants``...), a legal order and its kind, a unit, a phase (from engine,
  which an adapter never imports: the rules stay behind gm);
- pure helpers over that plain data that word it as gm words it (power names, durations, plurals,
  a deadline in a time zone, the changes of a phase, a score, a player's badge) or name places
  (``pair_key``).

Nothing here opens a session or changes a game: that is the facade's. A new name comes here when an
adapter needs it and it is plain data, an interface or such a helper; anything that reads or writes
the database becomes a facade method instead. ``GameOverError`` is gm.errors.GameOver, renamed here
because ``GameOver`` is the message kind of the same name (gm.messages.kinds.GameOver).
"""

from __future__ import annotations

from engine import Phase
from engine.legal import LegalOrder, OrderKind, UnitOrders
from engine.mapdata import GameMap
from engine.orders import Unit
from engine.variants import (
    STANDARD,
    UnknownVariant,
    Variant,
    all_variants,
    game_map,
    get_variant,
    variant_for_players,
)
from gm.actor import Actor
from gm.clock import utcnow
from gm.delivery.lanes import behind_own_work
from gm.delivery.lanes import busy as answers_owed
from gm.delivery.outage import database_outage
from gm.delivery.outbox import (
    Attachment,
    NotYetSendable,
    OutboxMessage,
    OutboxSender,
    OutboxTarget,
    PermanentSendError,
    RetriableSendError,
    SendError,
    SentMessages,
)
from gm.endings.votes import CONCEDE, DRAW, ProposalInfo, VoteReport
from gm.errors import (
    AlreadyJoined,
    GameAlreadyStarted,
    GameError,
    GameFull,
    GameNotStarted,
    InvalidSettings,
    NoOpenVote,
    NoOrdersGiven,
    NotAllowed,
    NotAPlayer,
    NotAVoter,
    NothingToRollBack,
    OrdersClosed,
    PhaseBusy,
    TooManyGames,
    UnknownGame,
    UnknownPhase,
    VoteAlreadyOpen,
    WrongGameState,
    WrongPlayerCount,
)
from gm.errors import GameOver as GameOverError
from gm.meant_for import ANY_PHASE, MeantFor
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
from gm.messages.kinds import (
    CallToOrder,
    CivilDisorder,
    CoinFlipped,
    DeadlineMoved,
    GameIsFull,
    GameOver,
    GameStarted,
    Message,
    Moderation,
    OpeningView,
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
    SeatOffer,
    SeatPlayedBy,
    SeesEverything,
    TakeOverDeclined,
    TakeOverRequest,
    VoidedOrders,
    VoteOpened,
    VoteResult,
    Welcome,
)
from gm.messages.places import PlaceKind, key_powers, pair_key
from gm.messages.words import (
    clean_name,
    duration,
    long_name,
    name_key,
    plural,
    power_name,
    powers_text,
    public_reason,
)
from gm.moderation.rollback import RollbackPlan
from gm.moderation.shared import ModerationResult
from gm.ordering.legal import OrderMenu, PowerMenu
from gm.ordering.offline import AlreadyRead, DirectReads
from gm.ordering.preview import OrdersPreview
from gm.ordering.submission import LineOutcome, OrdersView, PowerOrders, SubmissionReport
from gm.phases.results import change_lines
from gm.reading.info import GameInfo, PhaseInfo, PlayerInfo
from gm.reading.lookup import RUNNING_STATES
from gm.relaying import EVERYONE as PRESS_EVERYONE
from gm.relaying import MAX_TEXT as MAX_PRESS_TEXT
from gm.relaying import split_press
from gm.reports.history import MapImage, PhaseHistory
from gm.reports.operations import OperationsStatus
from gm.reports.stats import ServerBoard
from gm.reports.status import GameStatusView, LogLine, PowerStatus
from gm.rules.deadlines import local_time_text
from gm.rules.leaderboard import PENALTY_PHASES, UserStats, badge
from gm.rules.scoring import SYSTEM_NAMES, score_text
from gm.sandbox.model import (
    MAX_SANDBOXES,
    PowerProgress,
    SandboxInfo,
    SandboxLimit,
    SandboxMenu,
    SandboxOrders,
    SandboxResults,
    UnknownSandbox,
)
from gm.settings import (
    MAX_PAIR_PRESS_PLAYERS,
    NOTIFY_CHANNEL,
    NOTIFY_DM,
    NOTIFY_NONE,
    REMINDER_MARGIN_MINUTES,
    SETTING_OPTIONS,
    GameSettings,
    SettingOption,
    choice_label,
    effective_reminders,
    option_changes,
)
from gm.setup.absences import AbsenceInfo, AbsenceReport
from gm.setup.games import FormingLimits
from gm.setup.places import GamePlaces, MadePlaces, PlaceMaker, Recorder
from gm.setup.server import ServerSettings
from gm.setup.shields import Pacer, Shielder, ShieldReport, ShieldWork

__all__ = [
    "ANY_PHASE",
    "CONCEDE",
    "DRAW",
    "MAX_PAIR_PRESS_PLAYERS",
    "MAX_PRESS_TEXT",
    "MAX_SANDBOXES",
    "NOTIFY_CHANNEL",
    "NOTIFY_DM",
    "NOTIFY_NONE",
    "PENALTY_PHASES",
    "PRESS_EVERYONE",
    "REMINDER_MARGIN_MINUTES",
    "RUNNING_STATES",
    "SETTING_OPTIONS",
    "STANDARD",
    "SYSTEM_NAMES",
    "AbsenceInfo",
    "AbsenceReport",
    "Actor",
    "AlreadyJoined",
    "AlreadyRead",
    "ArchivePlaces",
    "Attachment",
    "CallToOrder",
    "CivilDisorder",
    "CoinFlipped",
    "DeadlineMoved",
    "DirectReads",
    "Effect",
    "FormingLimits",
    "GameAlreadyStarted",
    "GameError",
    "GameFull",
    "GameInfo",
    "GameIsFull",
    "GameMap",
    "GameNotStarted",
    "GameOver",
    "GameOverError",
    "GamePlaces",
    "GameSettings",
    "GameStarted",
    "GameStatusView",
    "InvalidSettings",
    "LegalOrder",
    "LineOutcome",
    "LogLine",
    "MadePlaces",
    "MapImage",
    "MarkSeatsTaken",
    "MeantFor",
    "Message",
    "Moderation",
    "ModerationResult",
    "MoveAccess",
    "NoOpenVote",
    "NoOrdersGiven",
    "NotAPlayer",
    "NotAVoter",
    "NotAllowed",
    "NotYetSendable",
    "NothingToRollBack",
    "OpeningView",
    "OperationsStatus",
    "OrderKind",
    "OrderMenu",
    "OrdersClosed",
    "OrdersPreview",
    "OrdersView",
    "OutboxMessage",
    "OutboxSender",
    "OutboxTarget",
    "Pacer",
    "PermanentSendError",
    "Phase",
    "PhaseBusy",
    "PhaseHistory",
    "PhaseInfo",
    "PhaseOpened",
    "PhaseResults",
    "PlaceKind",
    "PlaceMaker",
    "PlayerInfo",
    "PlayerLeft",
    "PlayerReturned",
    "PowerJoined",
    "PowerMenu",
    "PowerOrders",
    "PowerProgress",
    "PowerStatus",
    "ProposalInfo",
    "Recorder",
    "RelayedPress",
    "RelayedPressRevised",
    "Reminder",
    "ReopenPlaces",
    "Replaced",
    "ReplacedYou",
    "RetriableSendError",
    "ReviseRelay",
    "RoleGained",
    "RollbackPlan",
    "RolledBack",
    "SandboxInfo",
    "SandboxLimit",
    "SandboxMenu",
    "SandboxOrders",
    "SandboxResults",
    "SeatOffer",
    "SeatPlayedBy",
    "SeesEverything",
    "SendError",
    "SentMessages",
    "ServerBoard",
    "ServerSettings",
    "SettingOption",
    "ShieldPlayer",
    "ShieldReport",
    "ShieldWork",
    "Shielder",
    "SubmissionReport",
    "TakeOverDeclined",
    "TakeOverRequest",
    "TooManyGames",
    "Unit",
    "UnitOrders",
    "UnknownGame",
    "UnknownPhase",
    "UnknownSandbox",
    "UnknownVariant",
    "UserStats",
    "Variant",
    "VoidPosts",
    "VoidedOrders",
    "VoteAlreadyOpen",
    "VoteOpened",
    "VoteReport",
    "VoteResult",
    "Welcome",
    "WrongGameState",
    "WrongPlayerCount",
    "all_variants",
    "answers_owed",
    "badge",
    "behind_own_work",
    "change_lines",
    "choice_label",
    "clean_name",
    "database_outage",
    "duration",
    "effective_reminders",
    "game_map",
    "get_variant",
    "key_powers",
    "local_time_text",
    "long_name",
    "name_key",
    "option_changes",
    "pair_key",
    "plural",
    "power_name",
    "powers_text",
    "public_reason",
    "score_text",
    "split_press",
    "utcnow",
    "variant_for_players",
]
