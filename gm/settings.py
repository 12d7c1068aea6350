"""A game's settings, declared once: :class:`GameSettings`, a checked pydantic model (gm.checking).

Each field says everything about its setting: its type and range, its default, the sentence that
refuses a wrong value, and the :class:`Option` by which a user sets it, its name and help, the choices
it offers, how a typed value becomes the setting's. From that one declaration come the options of
/game create and /game settings (cogs.commands.game builds them), the validation (with the game's
variant: its player counts, its first year, its number of powers), the stored JSON (:meth:`to_json`)
and the settings table of the README (tests/gm/test_gm_settings.py checks it against
:func:`option_rows`). A new setting is one field here, and what reads it.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Annotated, Any, Literal, get_args, get_origin

import orjson
from pydantic import Field, ValidationError, ValidationInfo, ValidatorFunctionWrapHandler, field_validator
from pydantic.fields import FieldInfo

from engine.variants import Variant, get_variant, variant_for_players
from gm.checking import CheckedModel, Refusal, bounds, choices_of, refused
from gm.errors import InvalidSettings
from gm.messages.words import duration
from gm.rules.absences import DEFAULT_DAYS_PER_YEAR, MAX_DAYS_PER_YEAR
from gm.rules.deadlines import DeadlineSchedule, parse_weekdays, phase_deadline, slots_from, zone_names
from gm.rules.grace import HOURS as GRACE_HOURS
from gm.rules.grace import MAX_PER_YEAR as MAX_GRACE_PER_YEAR
from gm.rules.grace import GraceSetting
from gm.rules.scoring import DEFAULT_SYSTEM, SYSTEM_NAMES, check_system
from gm.rules.settings import RuleSettings

MINUTES_PER_DAY = 24 * 60
SETTINGS_KEPT = 256
_SETTINGS: dict[bytes | str, GameSettings] = {}  # GameSettings.from_json's, by the data's JSON

# (least, most) minutes per phase kind.
MOVEMENT_MINUTES = (10, 14 * MINUTES_PER_DAY)
RETREAT_MINUTES = (5, 7 * MINUTES_PER_DAY)
ADJUSTMENT_MINUTES = (5, 7 * MINUTES_PER_DAY)
REMINDER_HOURS = (0.05, 7 * 24.0)  # from 3 minutes to a week before the deadline
MAX_REMINDERS = 4
MAX_GAME_YEARS = 100
MAX_CIVIL_DISORDER_AFTER = 10  # missed movement phases in a row; 0 turns automatic civil disorder off
MAX_HOURS = 10 * 365 * 24  # an hours option beyond ten years is no number of hours (nor is inf, NaN)

# threads / channels: private press between every pair of powers, in threads or channels;
# public: only the public game channel; none: no press at all ("gunboat").
Press = Literal["threads", "channels", "public", "none"]
PRESS_MODES: tuple[str, ...] = get_args(Press)
# Private press between every pair of players is offered up to this many players: 10 players make
# 45 pairs. A bigger game (Chaos: 34 players, 561 pairs) plays with public press or none; every
# player still has a private channel with the moderators.
MAX_PAIR_PRESS_PLAYERS = 10
# Discord allows 50 channels in a category: a game's category holds its game channel, one channel
# per power and, with press "channels", one per pair of players (cogs.places.spaces).
CATEGORY_CHANNELS = 50

# Who may take a seat whose player left or fell into civil disorder: open (any member of the server
# who does not play in the game, with the "Take over" button), approval (the same, once a moderator
# who does not play approves), off (only a moderator, with /mod replace).
TakeOver = Literal["open", "approval", "off"]
TAKE_OVER_MODES: tuple[str, ...] = get_args(TakeOver)

# Who plays a seat whose player left or fell into civil disorder: hold (the rulebook's civil disorder:
# units hold, nothing is built) or built_in (the built-in computer player, gm.builtin, until a person
# takes the seat or the player comes back).
AbsentSeats = Literal["hold", "built_in"]
ABSENT_HOLD: AbsentSeats = "hold"
ABSENT_BUILT_IN: AbsentSeats = "built_in"
ABSENT_SEATS: tuple[str, ...] = get_args(AbsentSeats)

# Fog of war (engine.fog): off; counts (each player sees what its units and centers see, its results
# come privately, and the game channel gets each power's center count when centers change hands);
# silent (the same, and the game channel gets no count: only that a phase was played).
Fog = Literal["off", "counts", "silent"]
FOG_OFF: Fog = "off"
FOG_COUNTS: Fog = "counts"
FOG_MODES: tuple[str, ...] = get_args(Fog)

# How well the built-in player plays (engine.player's levels): easy (the first player), normal (it
# never circles its units nor repeats a move that bounced twice), hard (it also tries its plans
# against its neighbours' likely replies).
BuiltinLevel = Literal["easy", "normal", "hard"]
BUILTIN_LEVELS: tuple[str, ...] = get_args(BuiltinLevel)
DEFAULT_BUILTIN_LEVEL: BuiltinLevel = "normal"

OFF_WORDS = ("none", "off", "no", "")
# The parts of a deadline schedule a user sets one by one (options of the ``deadlines`` field), each
# by the schedule's field it changes; ``skip_days`` is typed text (gm.rules.deadlines.parse_weekdays).
SCHEDULE_PARTS = {
    "at": "at",
    "zone": "zone",
    "every_days": "every_days",
    "skip_days": "skip_weekdays",
    "fix_short_phases": "fix_short_phases",
}
SCHEDULE_OPTIONS = tuple(SCHEDULE_PARTS)


@dataclass(frozen=True, slots=True)
class Option:
    """How a user gives a setting: one option of /game create and /game settings (an adapter offers
    each, in the order of the fields; the ``deadlines`` field has one per part of the schedule).

    ``help`` (at most 100 characters) may say ``{default}``: the default as the user would type it
    (``typed``). ``kind`` is what the user types (int, float, str or bool; default: the field's own
    type); ``read`` turns it into the setting's value (``(option name, typed value) -> value``,
    InvalidSettings when it cannot); ``choices`` are the values offered, each with what it means (the
    only values, where given); ``suggest`` lists values to offer as the user types; ``part`` names the
    schedule's part the option sets (:data:`SCHEDULE_PARTS`); ``allowed`` says in words what the
    field's type and bounds do not (for the README's table)."""

    name: str
    help: str
    kind: type | None = None
    read: Callable[[str, Any], Any] | None = None
    typed: Callable[[Any], str] | None = None
    choices: Mapping[Any, str] = field(default_factory=dict)
    suggest: Callable[[str], list[str]] | None = None
    part: str | None = None
    allowed: str | None = None
    default_words: str | None = None  # the default in words, where it is not a value (``off``)
    # offered by /game create too (Discord allows 25 options a command: the rarest settings are given
    # with /game settings before the start only)
    in_create: bool = True


def _duration(minutes: object) -> str:
    """A length the user gave (anything: a text, a float) in words when it is a whole number."""
    if isinstance(minutes, int) and not isinstance(minutes, bool):
        return duration(minutes)
    return repr(minutes)


def _hours(minutes: int) -> str:
    return f"{minutes / 60:g}"


def _typed(value: object) -> str:
    """A setting's value as a user would type it: ``no``, ``none``, ``24``."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None or value == ():
        return "none"
    return str(value)


def _minutes_of_hours(option: str, hours: float) -> int:
    """An hours option in whole minutes, refusing what is no number of hours (inf, NaN, absurd sizes)
    before arithmetic on it could fail; the setting's range is checked with the others."""
    if not math.isfinite(hours) or abs(hours) > MAX_HOURS:
        raise InvalidSettings(
            [f"{option} must be a number of hours, not {hours!r}."],
            "For example 24, or 0.5 for half an hour.",
        )
    return round(hours * 60)


def _reminders_of_text(option: str, typed: str) -> tuple[float, ...]:
    """``24,1`` or ``24 1`` or ``none`` -> the hours (whole minutes; their range is checked later)."""
    words = [w for w in re.split(r"[,;\s]+", typed.strip().casefold()) if w and w not in ("h", "hours")]
    if words in ([], ["none"], ["0"]):
        return ()
    try:
        hours = tuple(float(w.removesuffix("h")) for w in words)
    except ValueError:
        flat = " ".join(typed.split())
        shown = flat if len(flat) <= 40 else flat[:39] + "…"
        raise InvalidSettings(
            [f"Reminders are hours before the deadline, like 24,1; not {shown!r}."],
            "Write hours separated by commas, or none.",
        ) from None
    return tuple(_minutes_of_hours(option, h) / 60 for h in hours)


def _reminders_typed(hours: tuple[float, ...]) -> str:
    return ",".join(f"{h:g}" for h in hours) or "none"


def _weekdays_of_text(option: str, typed: str) -> str:
    parse_weekdays(typed)  # refuses what is no weekday now, with the option's other problems
    return typed


class GameSettings(CheckedModel):
    """A game's settings, in the order /game create offers them (see the module)."""

    players: Annotated[
        int,
        Field(ge=1, strict=True),
        Refusal("The number of players must be a whole number, not {value}."),
        Option(
            "players",
            "How many players (7 is the classic game; fewer: some powers are shared or left out)",
            choices={n: f"{n} players" for n in (7, 6, 5, 4, 3, 2)},
            allowed="those of the variant: 3 to 7 on the standard map (2: the 1914 game), each variant "
            "its own",
        ),
    ] = 7
    press: Annotated[
        Press,
        Refusal("Press must be one of {choices}, not {value}."),
        Option(
            "press",
            "How players may talk to each other",
            choices={
                "threads": "full press (a private thread for each pair of powers)",
                "channels": "full press (a private channel for each pair of powers)",
                "public": "public press only (the game channel)",
                "none": "no press (gunboat)",
            },
        ),
    ] = "threads"
    movement_minutes: Annotated[
        int,
        Field(ge=MOVEMENT_MINUTES[0], le=MOVEMENT_MINUTES[1], strict=True),
        Refusal("Movement phases must last from {low} to {high}, not {value}.", shown=_duration),
        Option(
            "movement_hours",
            "Hours for each movement phase (default {default})",
            float,
            read=_minutes_of_hours,
            typed=_hours,
        ),
    ] = MINUTES_PER_DAY
    retreat_minutes: Annotated[
        int,
        Field(ge=RETREAT_MINUTES[0], le=RETREAT_MINUTES[1], strict=True),
        Refusal("Retreat phases must last from {low} to {high}, not {value}.", shown=_duration),
        Option(
            "retreat_hours",
            "Hours for each retreat phase (default {default})",
            float,
            read=_minutes_of_hours,
            typed=_hours,
        ),
    ] = MINUTES_PER_DAY // 2
    adjustment_minutes: Annotated[
        int,
        Field(ge=ADJUSTMENT_MINUTES[0], le=ADJUSTMENT_MINUTES[1], strict=True),
        Refusal("Adjustment phases must last from {low} to {high}, not {value}.", shown=_duration),
        Option(
            "adjustment_hours",
            "Hours for each winter adjustment phase (default {default})",
            float,
            read=_minutes_of_hours,
            typed=_hours,
        ),
    ] = MINUTES_PER_DAY // 2
    # A short game ends after this year's Fall; None: play to a result.
    last_year: Annotated[
        int | None,
        Field(strict=True),
        Refusal("The last year must be a year, not {value}."),
        Option(
            "last_year",
            "End the game after this year's autumn (default: play until someone wins)",
            allowed=f"from the game's first year to {MAX_GAME_YEARS - 1} years later (1901 to "
            f"{1900 + MAX_GAME_YEARS} on the standard map)",
        ),
    ] = None
    # A player who misses this many movement phases in a row falls into civil disorder; 0: never.
    civil_disorder_after: Annotated[
        int,
        Field(ge=0, le=MAX_CIVIL_DISORDER_AFTER, strict=True),
        Refusal(
            "Civil disorder comes after 1 to {high} missed movement phases in a row (0: never), not {value}."
        ),
        Option(
            "civil_disorder_after",
            "Missed movement phases in a row before a power falls into civil disorder "
            "(default {default}; 0: never)",
        ),
    ] = 2
    reminder_hours: Annotated[
        tuple[float, ...],
        Option(
            "reminders",
            "Hours before each deadline to remind players, e.g. {default} (default) or 0.25; none for none",
            str,
            read=_reminders_of_text,
            typed=_reminders_typed,
            allowed=f"up to {MAX_REMINDERS}, each {REMINDER_HOURS[0] * 60:g} minutes to "
            f"{duration(round(REMINDER_HOURS[1] * 60))} before the deadline; none",
        ),
    ] = (24.0, 1.0)
    take_over: Annotated[
        TakeOver,
        Refusal("Taking over an open seat must be one of {choices}, not {value}."),
        Option(
            "take_over",
            "Who fills a seat whose player left or fell into civil disorder (default: anyone not playing)",
            choices={
                "open": "anyone who does not play, with the Take over button in the game channel",
                "approval": "anyone who does not play asks with the Take over button; a moderator approves",
                "off": "only a moderator, with [[cmd:mod replace]]",
            },
        ),
    ] = "open"
    # Phases closing at a time of day; None: each phase lasts its length (gm.rules.deadlines).
    deadlines: Annotated[
        DeadlineSchedule | None,
        Refusal("Deadlines must be a schedule (a time of day, a time zone), not {value}."),
        Option(
            "deadline_at",
            "Close phases at this time of day, e.g. 21:00 (off: each phase lasts its hours)",
            str,
            part="at",
            allowed="a time of day as HH:MM; off",
            default_words="off",
        ),
        Option(
            "time_zone",
            "The time zone of that time, e.g. Europe/Berlin (default {default})",
            str,
            part="zone",
            suggest=zone_names,
            allowed="a time zone name (Europe/Berlin, America/New_York)",
        ),
        Option(
            "every_days",
            "With a fixed time: movement phases last this many days (default {default})",
            int,
            part="every_days",
        ),
        Option(
            "skip_days",
            "With a fixed time: days without deadlines, e.g. sat,sun (none: every day)",
            str,
            read=_weekdays_of_text,
            part="skip_days",
            allowed="days of the week (sat,sun or weekend); none",
        ),
        Option(
            "short_phases_at_deadline",
            "With a fixed time: retreats and adjustments close at it too (default: {default})",
            bool,
            part="fix_short_phases",
        ),
    ] = None
    absence_days_per_year: Annotated[
        int,
        Field(ge=0, le=MAX_DAYS_PER_YEAR, strict=True),
        Refusal("Absences may take 0 (none) to {high} days a year, not {value}."),
        Option(
            "absence_days", "Days of absence each player may declare per year (default {default}; 0: none)"
        ),
    ] = DEFAULT_DAYS_PER_YEAR
    # Automatic extensions per player and year (gm.rules.grace); 0: none.
    grace_per_year: Annotated[
        int,
        Field(ge=0, le=MAX_GRACE_PER_YEAR, strict=True),
        Refusal("Grace extensions per player and year go from 0 (none) to {high}, not {value}."),
        Option(
            "grace", "Automatic extensions per player and year for a first miss (default {default}: none)"
        ),
    ] = 0
    grace_hours: Annotated[
        int,
        Field(ge=GRACE_HOURS[0], le=GRACE_HOURS[1], strict=True),
        Refusal("A grace extension lasts {low} to {high} hours, not {value}."),
        Option("grace_hours", "Hours each automatic extension gives (default {default})"),
    ] = 24
    scoring: Annotated[
        str,
        Option(
            "scoring",
            "How the final post scores the powers (default: {default})",
            typed=lambda system: SYSTEM_NAMES[system],
            choices={
                "draw_size": "draw-size: the powers sharing the result split 100 points",
                "sum_of_squares": "Sum-of-Squares: 100 shared by centers squared (a solo takes all)",
                "center_count": "center count: each power scores its centers",
            },
        ),
    ] = DEFAULT_SYSTEM
    # Once the game is over, its eliminated players may read the private talks (read-only); never
    # while it runs. Spectators never see them.
    talks_after_end: Annotated[
        bool,
        Field(strict=True),
        Refusal("Whether eliminated players read the private talks after the end is yes or no, not {value}."),
        Option(
            "talks_after_end",
            "After the end, eliminated players may read the private talks (default: {default})",
        ),
    ] = False
    # At the start, the seats nobody took go to built-in players (a game may then start with fewer
    # players than ``players``, one at least).
    fill_seats: Annotated[
        bool,
        Field(strict=True),
        Refusal("Filling the empty seats with built-in players is yes or no, not {value}."),
        Option(
            "fill_seats",
            "Start with fewer players: the seats nobody took go to built-in computer players "
            "(default: {default})",
        ),
    ] = False
    absent_seats: Annotated[
        AbsentSeats,
        Refusal("A seat whose player is gone is played by one of {choices}, not {value}."),
        Option(
            "absent_seats",
            "Who plays a seat whose player left or fell into civil disorder (default: its units hold)",
            choices={
                "hold": "nobody: its units hold (the rulebook's civil disorder)",
                "built_in": "the built-in player, until a person takes the seat or the player is back",
            },
        ),
    ] = ABSENT_HOLD
    fog: Annotated[
        Fog,
        Refusal("The fog of war is one of {choices}, not {value}."),
        Option(
            "fog",
            "Fog of war: each player sees only near its units and centers (default: {default})",
            choices={
                "off": "no fog: everyone sees the whole board",
                "counts": "fog of war; the game channel gets the center counts when centers change hands",
                "silent": "fog of war; the game channel gets no results at all",
            },
        ),
    ] = FOG_OFF
    builtin_level: Annotated[
        BuiltinLevel,
        Refusal("The built-in player plays at one of {choices}, not {value}."),
        Option(
            "builtin_level",
            "How well the built-in player plays its seats (default: {default})",
            in_create=False,  # /game settings before the start: /game create has 25 options already
            choices={
                "easy": "the first built-in player: it falls for stalemates and circles",
                "normal": "a sensible player: it guards its homes and never repeats a failed move",
                "hard": "it also tries its plans against its neighbours' likely replies",
            },
        ),
    ] = DEFAULT_BUILTIN_LEVEL

    # Nobody learns who plays which power until the end (gm.anonymity): posts name powers only, and the
    # talks between powers are relayed by the bot from each player's own channel (gm.facade.relaying).
    anonymous: Annotated[
        bool,
        Field(strict=True),
        Refusal("Whether the powers' players stay secret until the end is yes or no, not {value}."),
        Option(
            "anonymous",
            "Nobody knows who plays which power until the end; talks are relayed by the bot "
            "(default: {default})",
        ),
    ] = False

    # --- checks beyond a field's type and range ---------------------------------------------------

    @field_validator("press", "take_over", "absent_seats", "fog", "builtin_level", mode="before")
    @classmethod
    def _one_of_the_choices(cls, value: object, info: ValidationInfo) -> object:
        """`` Approval `` is ``approval``; a value that is no choice is refused as typed."""
        if isinstance(value, str) and info.field_name is not None:
            choices = _choices(info.field_name)
            if value in choices:
                return value
            word = value.strip().lower()
            if word in choices:
                return word
        return value

    @field_validator("players", mode="wrap")
    @classmethod
    def _players_of_the_variant(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> int:
        played = _variant(info)
        if played is None:
            return int(handler(value))
        try:
            players: int | None = handler(value)
        except ValidationError:
            players = None
        counts = played.player_counts
        if players in counts:
            return int(players)
        sentence = f"This map is played by {_range_text(counts)} players, not {value!r}."
        other = variant_for_players(players) if players is not None else None
        if other is not None and other.name != played.name:
            sentence += f" For {players} players choose the variant {other.name!r} ({other.title})."
        raise refused(sentence)

    @field_validator("press")
    @classmethod
    def _press_fits_discord(cls, press: str, info: ValidationInfo) -> str:
        played, players = _variant(info), info.data.get("players")
        if played is not None and players is not None:
            problem = _pair_press_problem(press, players, len(played.game_map().powers))
            if problem:
                raise refused(problem)
        return press

    @field_validator("last_year", mode="wrap")
    @classmethod
    def _a_year_of_the_game(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> int | None:
        played = _variant(info)
        if played is None or value is None:
            return handler(value)
        try:
            last: int | None = handler(value)
        except ValidationError:
            last = None
        first = played.first_year()
        if last is not None and first <= last < first + MAX_GAME_YEARS:
            return last
        raise refused(
            f"The last year must be between {first} and {first + MAX_GAME_YEARS - 1} "
            f"(the game starts in {first}), not {value!r}."
        )

    @field_validator("reminder_hours", mode="before")
    @classmethod
    def _reminders(cls, value: object) -> tuple[float, ...]:
        """The reminders as hours, latest first; every wrong value named."""
        if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list)):
            raise refused(f"Reminders must be a list of hours before the deadline, not {value!r}.")
        problems: list[str] = []
        others = [h for h in value if isinstance(h, bool) or not isinstance(h, (int, float))]
        if others:
            problems.append(
                "Reminders are numbers of hours before the deadline, not "
                f"{', '.join(repr(h) for h in others)}."
            )
        hours = tuple(sorted({float(h) for h in value if h not in others}, reverse=True))
        if len(hours) > MAX_REMINDERS:
            problems.append(f"At most {MAX_REMINDERS} reminders, not {len(hours)}.")
        low, high = REMINDER_HOURS
        bad = [h for h in hours if not low <= h <= high]  # NaN too: it is in no range
        if bad:
            problems.append(
                f"Reminders go from {low * 60:g} minutes to {high:g} hours before the deadline; "
                f"{', '.join(f'{h:g}' for h in bad)} hours is out of range."
            )
        if problems:
            raise refused(" ".join(problems))
        return hours

    @field_validator("scoring", mode="before")
    @classmethod
    def _a_scoring_system(cls, value: object) -> str:
        try:
            return check_system(value)  # ``SoS``, ``Sum-of-Squares`` -> sum_of_squares
        except InvalidSettings as refusal:
            raise refused(refusal.message) from None

    # --- making and storing -----------------------------------------------------------------------

    @classmethod
    def for_variant(
        cls,
        variant: str,
        changes: Mapping[str, Any] | None = None,
        *,
        base: GameSettings | None = None,
        hint: str = "Change those values and create the game again.",
    ) -> GameSettings:
        """``base`` (the defaults when None) with ``changes`` (setting name -> value, as code or a user
        gave them), checked for a game of ``variant``: its player counts, first year and powers; or
        InvalidSettings naming every problem at once, with ``hint``. A ``deadlines`` change may be a
        mapping of some parts of the schedule (:data:`SCHEDULE_OPTIONS`), which change ``base``'s
        schedule, or start one at 21:00 UTC every day."""
        data = dict(base or cls())
        wanted = dict(changes or {})
        parts = wanted.get("deadlines")
        if isinstance(parts, Mapping):
            wanted["deadlines"] = schedule_with(base.deadlines if base else None, parts)
        data.update(wanted)
        return cls.checked(data, context={"variant": get_variant(variant)}, hint=hint)

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameSettings:
        """The stored settings (gm.checking.CheckedModel.stored: never refused). The same (frozen)
        object for the same data, remembered for the last :data:`SETTINGS_KEPT` games' settings: every
        answer about a game reads them (its deadline's time zone), and validating them all each time
        cost a millisecond."""
        try:  # orjson: an eighth of the json module's time for the same canonical text
            key: bytes | str = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
        except TypeError:  # what orjson refuses (a key that is not a string, a value it cannot write)
            key = json.dumps(data, sort_keys=True, default=str)
        found = _SETTINGS.pop(key, None)
        if found is None:
            found = cls.stored(data)
            if len(_SETTINGS) >= SETTINGS_KEPT:
                del _SETTINGS[next(iter(_SETTINGS))]
        _SETTINGS[key] = found  # the most recently used last
        return found

    # --- reading ----------------------------------------------------------------------------------

    def phase_minutes(self, kind: str) -> int:
        """The length of a phase of kind ``M``, ``R`` or ``A``."""
        return {"M": self.movement_minutes, "R": self.retreat_minutes, "A": self.adjustment_minutes}[kind]

    @property
    def fogged(self) -> bool:
        """The game is played under the fog of war (``fog`` is not off)."""
        return self.fog != FOG_OFF

    @property
    def rules(self) -> RuleSettings:
        """The community rules among these settings, as gm.rules sees them."""
        return RuleSettings(
            deadlines=self.deadlines,
            absence_days_per_year=self.absence_days_per_year,
            grace=self.grace,
            scoring=self.scoring,
        )

    @property
    def grace(self) -> GraceSetting:
        return GraceSetting(per_year=self.grace_per_year, hours=self.grace_hours)

    @property
    def zone(self) -> str | None:
        """The time zone deadlines are shown in (the schedule's), None without a schedule."""
        return self.deadlines.zone if self.deadlines is not None else None

    def deadline_for(self, kind: str, opens: datetime) -> datetime:
        """When a phase of ``kind`` that opens at ``opens`` closes: after its length, or at the
        schedule's fixed time (gm.rules.deadlines.phase_deadline)."""
        return phase_deadline(kind, opens, self, self.deadlines)

    def deadline_after(self, kind: str, earliest: datetime) -> datetime:
        """The first deadline a phase of ``kind`` may have at or after ``earliest`` (a resumed phase's
        time left): ``earliest`` itself without a schedule; with one, the next fixed time for a
        movement phase (and for short phases that keep to it, or whose ``earliest`` falls on an
        excluded day), so that deadlines stay at the game's hour."""
        schedule = self.deadlines
        if schedule is None:
            return earliest
        local_day = earliest.astimezone(schedule.tz).date()
        if kind == "M" or schedule.fix_short_phases or not schedule.allows(local_day):
            return next(slots_from(earliest, schedule))
        return earliest

    def typical_minutes(self, kind: str) -> int:
        """How long a phase of ``kind`` usually lasts (the schedule's days for a movement phase)."""
        if self.deadlines is not None and kind == "M":
            return self.deadlines.every_days * MINUTES_PER_DAY
        return self.phase_minutes(kind)


@dataclass(frozen=True, slots=True)
class SettingOption:
    """An option with the setting it sets: ``field`` is what checks its value (for a part of the
    deadline schedule, the schedule's own field)."""

    setting: str
    option: Option
    field: FieldInfo

    @property
    def name(self) -> str:
        return self.option.name

    @property
    def kind(self) -> type:
        """What the user types: int, float, str or bool."""
        if self.option.kind is not None:
            return self.option.kind
        annotation: Any = self.field.annotation
        kinds = [a for a in get_args(annotation) if a is not type(None)] if get_args(annotation) else []
        if get_origin(annotation) is Literal:
            return type(kinds[0])
        if kinds and get_origin(annotation) is not tuple:  # int | None
            annotation = kinds[0]
        if annotation in (int, float, str, bool):
            return annotation
        raise TypeError(f"the option {self.name} needs a kind: its field is {annotation!r}")

    @property
    def default(self) -> str:
        """The default, as the user would give it (``24``, ``no``, ``off``; a choice's value)."""
        value = self.field.default
        if self.option.default_words is None and value in self.option.choices:
            return str(value)
        return self._words(value)

    @property
    def help(self) -> str:
        """The option's help, its default in words (``draw-size``) where it says ``{default}``."""
        return self.option.help.format(default=self._words(self.field.default))

    def _words(self, value: object) -> str:
        if self.option.default_words is not None:
            return self.option.default_words
        return (self.option.typed or _typed)(value)

    @property
    def allowed(self) -> str:
        """The values allowed, in words: the option's own, its choices, yes or no, its field's range."""
        if self.option.allowed is not None:
            return self.option.allowed
        choices = tuple(self.option.choices) or choices_of(self.field)
        if choices:
            return ", ".join(str(c) for c in choices)
        if self.kind is bool:
            return "True (yes) or False (no)"
        low, high = bounds(self.field)
        refusal = next((m for m in self.field.metadata if isinstance(m, Refusal)), None)
        shown = refusal.shown if refusal is not None and refusal.shown is not repr else str
        return f"{shown(low)} to {shown(high)}" if low is not None and high is not None else ""


def _setting_options() -> Iterator[SettingOption]:
    for name, info in GameSettings.model_fields.items():
        for item in info.metadata:
            if isinstance(item, Option):
                checked_by = DeadlineSchedule.model_fields[SCHEDULE_PARTS[item.part]] if item.part else info
                yield SettingOption(name, item, checked_by)


SETTING_OPTIONS: tuple[SettingOption, ...] = tuple(_setting_options())
"""Every setting's options, in the order of the fields: what /game create and /game settings offer."""


def option_changes(values: Mapping[str, Any]) -> dict[str, Any]:
    """The options a user gave (option name -> typed value; None: not given) as changes of the
    settings (setting name -> value; the schedule's parts as a mapping, see GameSettings.for_variant),
    or InvalidSettings naming every option that cannot be read (hours that are no number, reminders
    that are no hours, days that are no weekdays). Ranges are checked with the settings."""
    known = {item.name for item in SETTING_OPTIONS}
    unknown = sorted(set(values) - known)
    if unknown:
        raise ValueError(f"not setting options: {unknown}")
    changes: dict[str, Any] = {}
    problems: list[str] = []
    hint: str | None = None
    for item in SETTING_OPTIONS:
        value = values.get(item.name)
        if value is None:
            continue
        if item.option.read is not None:
            try:
                value = item.option.read(item.name, value)
            except InvalidSettings as refusal:
                problems += refusal.problems
                hint = hint or refusal.hint
                continue
        if item.option.part is not None:
            changes.setdefault(item.setting, {})[item.option.part] = value
        else:
            changes[item.setting] = value
    if problems:
        raise InvalidSettings(problems, hint)
    return changes


def option_rows() -> list[tuple[str, str, str, str]]:
    """Each option as (name, default, allowed values, help): the README's settings table."""
    return [(item.name, item.default, item.allowed, item.help) for item in SETTING_OPTIONS]


def choice_label(setting: str, value: object) -> str:
    """What a setting's value means (``public press only (the game channel)``), the value itself when
    its option offers no such choice."""
    for item in SETTING_OPTIONS:
        if item.setting == setting and value in item.option.choices:
            return item.option.choices[value]
    return str(value)


def deadline_zone(game: Any) -> str | None:
    """The time zone a game's deadlines are shown in (its schedule's), None without a schedule.
    ``game``: a db Game (its ``settings``)."""
    return GameSettings.from_json(game.settings or {}).zone


def schedule_with(current: DeadlineSchedule | None, parts: Mapping[str, Any]) -> dict[str, Any] | None:
    """The deadline schedule after a user's options (the keys of :data:`SCHEDULE_OPTIONS`, those not
    given left out), as data for GameSettings to check: each part changes the current schedule, or
    one at 21:00 UTC every day when there is none; ``at`` ``off`` (or ``none``) turns fixed-time
    deadlines off (None). ``skip_days`` is text (``sat,sun``, ``weekend``, ``none``)."""
    unknown = sorted(set(parts) - set(SCHEDULE_OPTIONS))
    if unknown:
        raise ValueError(f"not deadline options: {unknown}")
    at = parts.get("at")
    if isinstance(at, str) and at.strip().lower() in OFF_WORDS:
        return None
    schedule = current.model_dump() if current is not None else {}
    for part, value in parts.items():
        if value is not None:
            schedule[SCHEDULE_PARTS[part]] = parse_weekdays(str(value)) if part == "skip_days" else value
    return schedule


def seat_offer(game: Any, seats: list[list[str]]) -> dict[str, Any]:
    """What an announcement of open seats (a player left, civil disorder) carries for the adapter to
    offer them ("Take over" buttons): the seats, each as its powers, and how taking over works;
    nothing when the game's ``take_over`` setting is off. ``game``: a db Game (its ``settings``)."""
    mode = GameSettings.from_json(game.settings or {}).take_over
    if mode == "off" or not seats:
        return {}
    return {"open_seats": [list(s) for s in seats], "take_over": mode}


def seat_words(mode: str, names: str, *, left: bool, holding: str | None = None) -> str:
    """Who may fill an open seat now, by the game's ``take_over`` setting: said when a player leaves
    (``left``) or falls into civil disorder, so that the post says who may act. ``holding``: what
    becomes of the seat meanwhile, when not the usual civil disorder (the built-in player plays it)."""
    if holding is not None:
        pass
    elif left:
        verb = "holds" if " and " not in names else "hold"
        holding = f"{names} {verb} in civil disorder until a new player takes the seat"
    else:
        holding = "The player comes back by sending orders or [[cmd:ready]]. Until then, or for good"
    moderators = " A moderator may also give the seat to a new player with [[cmd:mod replace]]."
    if mode == "open":
        return (
            f"{holding}: any member of this server who does not play in the game may take it now with the "
            f"Take over button.{moderators}"
        )
    if mode == "approval":
        return (
            f"{holding}: a member of this server who does not play in the game may ask for it with the Take "
            f"over button, and a moderator who does not play approves.{moderators}"
        )
    return f"{holding}: a moderator gives the seat to a new player with [[cmd:mod replace]]."


def _pair_press_problem(press: str, players: int, powers: int) -> str | None:
    """Why private press between every pair of ``players`` does not fit Discord (see the limits above)."""
    pairs = players * (players - 1) // 2
    if press in ("threads", "channels") and players > MAX_PAIR_PRESS_PLAYERS:
        return (
            f"Private press between every pair of players is offered for up to {MAX_PAIR_PRESS_PLAYERS} "
            f"players; {players} players would need {pairs} private {press}. Choose press public (talk in "
            "the game channel; each player still has a private channel with the moderators) or none."
        )
    if press == "channels" and 1 + powers + pairs > CATEGORY_CHANNELS:
        return (
            f"Press in channels makes one channel for each pair of players: {pairs} for {players} players, "
            f"more than fit in the game's category next to its {1 + powers} other channels (Discord allows "
            f"{CATEGORY_CHANNELS}). Choose press threads (a private thread for each pair) instead."
        )
    return None


@cache
def _choices(setting: str) -> tuple[Any, ...]:
    return choices_of(GameSettings.model_fields[setting])


def _variant(info: ValidationInfo) -> Variant | None:
    """The variant a game's settings are checked for (GameSettings.for_variant), None when read back."""
    context = info.context
    played = context.get("variant") if isinstance(context, dict) else None
    return played if isinstance(played, Variant) else None


REMINDER_MARGIN_MINUTES = 1.0
"""A reminder due this close to the phase's opening (or earlier) is not sent: the call to order has
just gone out (gm.delivery.scheduler skips it, and nothing promises it)."""


def effective_reminders(hours: tuple[float, ...], phase_minutes: float) -> tuple[float, ...]:
    """The reminders a phase of ``phase_minutes`` really gets: those due more than a minute after the
    phase opens (a 24-hour reminder of a 24-hour or 10-minute phase could never come, nor could a
    59-minute reminder of an hour's phase usefully), and when none is left, one a fifth of the phase
    before its deadline (at least the shortest reminder there is): a 10-minute phase gets one 3
    minutes before, not "24 h and 1 h" that never fire. The scheduler and every text that promises
    reminders use this."""
    length = phase_minutes / 60
    kept = tuple(h for h in hours if h * 60 < phase_minutes - REMINDER_MARGIN_MINUTES)
    if kept or not hours:
        return kept
    return (round(max(REMINDER_HOURS[0], length / 5), 4),)


def _range_text(counts: tuple[int, ...]) -> str:
    if len(counts) == 1:
        return str(counts[0])
    if list(counts) == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(map(str, counts))


NOTIFY_CHANNEL = "channel"  # the call to order mentions the player in their power's channel (default)
NOTIFY_DM = "dm"  # the call to order comes by direct message
NOTIFY_NONE = "none"  # the call to order is posted in the power's channel without a mention
NOTIFY_CHOICES = (NOTIFY_CHANNEL, NOTIFY_DM, NOTIFY_NONE)


def notify_choice(stored: str | None) -> str:
    """A player's notification choice (``/notify``), the default when unset or unknown."""
    return stored if stored in NOTIFY_CHOICES else NOTIFY_CHANNEL
