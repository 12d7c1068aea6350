"""A game's settings, their allowed ranges, and their stored (JSON) form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime
from typing import Any

from engine import GameMap
from engine.variants import get_variant, variant_for_players
from gm.errors import InvalidSettings
from gm.messages.words import duration
from gm.rules.absences import DEFAULT_DAYS_PER_YEAR
from gm.rules.deadlines import DeadlineSchedule, parse_weekdays, phase_deadline, slots_from
from gm.rules.grace import GraceSetting
from gm.rules.scoring import DEFAULT_SYSTEM
from gm.rules.settings import RuleSettings

MINUTES_PER_DAY = 24 * 60

# (least, most) minutes per phase kind.
MOVEMENT_MINUTES = (10, 14 * MINUTES_PER_DAY)
RETREAT_MINUTES = (5, 7 * MINUTES_PER_DAY)
ADJUSTMENT_MINUTES = (5, 7 * MINUTES_PER_DAY)
REMINDER_HOURS = (0.05, 7 * 24.0)  # from 3 minutes to a week before the deadline
MAX_REMINDERS = 4
MAX_GAME_YEARS = 100
MAX_CIVIL_DISORDER_AFTER = 10  # missed movement phases in a row; 0 turns automatic civil disorder off

# threads / channels: private press between every pair of powers, in threads or channels;
# public: only the public game channel; none: no press at all ("gunboat").
PRESS_MODES = ("threads", "channels", "public", "none")
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
TAKE_OVER_MODES = ("open", "approval", "off")

# Who plays a seat whose player left or fell into civil disorder: hold (the rulebook's civil disorder:
# units hold, nothing is built) or built_in (the built-in computer player, gm.builtin, until a person
# takes the seat or the player comes back).
ABSENT_HOLD = "hold"
ABSENT_BUILT_IN = "built_in"
ABSENT_SEATS = (ABSENT_HOLD, ABSENT_BUILT_IN)


@dataclass(frozen=True, slots=True)
class GameSettings:
    movement_minutes: int = MINUTES_PER_DAY
    retreat_minutes: int = MINUTES_PER_DAY // 2
    adjustment_minutes: int = MINUTES_PER_DAY // 2
    players: int = 7
    press: str = "threads"
    last_year: int | None = None  # a short game ends after this year's Fall; None: play to a result
    reminder_hours: tuple[float, ...] = field(default=(24.0, 1.0))
    # A player who misses this many movement phases in a row falls into civil disorder; 0: never.
    civil_disorder_after: int = 2
    take_over: str = "open"  # one of TAKE_OVER_MODES
    # The community's rules (gm.rules.settings.RuleSettings, stored as flat keys): phases closing at
    # a time of day (None: each phase lasts its length), absences, grace, and the scoring system.
    deadlines: DeadlineSchedule | None = None
    absence_days_per_year: int = DEFAULT_DAYS_PER_YEAR  # 0: no absences
    grace_per_year: int = 0  # automatic extensions per player and year; 0: none
    grace_hours: int = 24
    scoring: str = DEFAULT_SYSTEM  # gm.rules.scoring.SYSTEMS
    # Once the game is over, its eliminated players may read the private talks (read-only); never
    # while it runs. Spectators (/game watch) never see them.
    talks_after_end: bool = False
    absent_seats: str = ABSENT_HOLD  # one of ABSENT_SEATS
    # At the start, the seats nobody took go to built-in players (a game may then start with fewer
    # players than ``players``, one at least).
    fill_seats: bool = False

    def phase_minutes(self, kind: str) -> int:
        """The length of a phase of kind ``M``, ``R`` or ``A``."""
        return {"M": self.movement_minutes, "R": self.retreat_minutes, "A": self.adjustment_minutes}[kind]

    @property
    def rules(self) -> RuleSettings:
        """The community rules among these settings, as gm.rules sees them."""
        return RuleSettings(
            deadlines=self.deadlines,
            absence_days_per_year=self.absence_days_per_year,
            grace=GraceSetting(per_year=self.grace_per_year, hours=self.grace_hours),
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

    def validated(self, game_map: GameMap, *, variant: str | None = None) -> GameSettings:
        """These settings, normalised, or InvalidSettings naming every value out of range or of the
        wrong kind (a text where a number belongs, no press mode at all).

        ``variant`` (default: the map's own name) decides the player counts and the first year."""
        problems: list[str] = []
        played = get_variant(variant or game_map.name)
        _check_minutes(problems, "Movement phases", self.movement_minutes, MOVEMENT_MINUTES)
        _check_minutes(problems, "Retreat phases", self.retreat_minutes, RETREAT_MINUTES)
        _check_minutes(problems, "Adjustment phases", self.adjustment_minutes, ADJUSTMENT_MINUTES)
        counts = played.player_counts
        if not _whole(self.players) or self.players not in counts:
            problems.append(f"This map is played by {_range_text(counts)} players, not {self.players!r}.")
            other = variant_for_players(self.players) if _whole(self.players) else None
            if other is not None and other.name != played.name:
                problems.append(
                    f"For {self.players} players choose the variant {other.name!r} ({other.title})."
                )
        press = self.press.strip().lower() if isinstance(self.press, str) else None
        if press not in PRESS_MODES:
            problems.append(f"Press must be one of {', '.join(PRESS_MODES)}, not {self.press!r}.")
        elif _whole(self.players):
            problems += _pair_press_problems(press, self.players, len(played.game_map().powers))
        start_year = played.first_year()
        last = self.last_year
        if last is not None and (not _whole(last) or not start_year <= last < start_year + MAX_GAME_YEARS):
            problems.append(
                f"The last year must be between {start_year} and {start_year + MAX_GAME_YEARS - 1} "
                f"(the game starts in {start_year}), not {last!r}."
            )
        hours = _reminder_hours(problems, self.reminder_hours)
        cd_after = self.civil_disorder_after
        if not _whole(cd_after) or not 0 <= cd_after <= MAX_CIVIL_DISORDER_AFTER:
            problems.append(
                f"Civil disorder comes after 1 to {MAX_CIVIL_DISORDER_AFTER} missed movement phases "
                f"in a row (0: never), not {cd_after!r}."
            )
        take_over = self.take_over.strip().lower() if isinstance(self.take_over, str) else None
        if take_over not in TAKE_OVER_MODES:
            problems.append(
                f"Taking over an open seat must be one of {', '.join(TAKE_OVER_MODES)}, "
                f"not {self.take_over!r}."
            )
        deadlines = self.deadlines
        if deadlines is not None and not isinstance(deadlines, DeadlineSchedule):
            problems.append(f"Deadlines must be a schedule (a time of day, a time zone), not {deadlines!r}.")
            deadlines = None
        rules, found = replace(self, deadlines=deadlines).rules.checked()
        problems += found
        if not isinstance(self.talks_after_end, bool):
            problems.append(
                f"Whether eliminated players read the private talks after the end is yes or no, "
                f"not {self.talks_after_end!r}."
            )
        absent = self.absent_seats.strip().lower() if isinstance(self.absent_seats, str) else None
        if absent not in ABSENT_SEATS:
            problems.append(
                f"A seat whose player is gone is played by one of {', '.join(ABSENT_SEATS)}, "
                f"not {self.absent_seats!r}."
            )
        if not isinstance(self.fill_seats, bool):
            problems.append(
                f"Filling the empty seats with built-in players is yes or no, not {self.fill_seats!r}."
            )
        if problems:
            raise InvalidSettings(problems, "Change those values and create the game again.")
        return replace(
            self,
            press=press or "",
            reminder_hours=hours,
            take_over=take_over or "open",
            absent_seats=absent or ABSENT_HOLD,
            deadlines=rules.deadlines,
            scoring=rules.scoring,
        )

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["reminder_hours"] = list(self.reminder_hours)
        data["deadlines"] = self.deadlines.to_json() if self.deadlines is not None else None
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameSettings:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        if "reminder_hours" in known:
            known["reminder_hours"] = tuple(known["reminder_hours"])
        if "deadlines" in known:
            stored = known["deadlines"]
            known["deadlines"] = DeadlineSchedule.from_json(stored) if isinstance(stored, dict) else None
        return cls(**known)


def deadline_zone(game: Any) -> str | None:
    """The time zone a game's deadlines are shown in (its schedule's), None without a schedule.
    ``game``: a db Game (its ``settings``)."""
    return GameSettings.from_json(game.settings or {}).zone


SCHEDULE_OPTIONS = ("at", "zone", "every_days", "skip_days", "fix_short_phases")
OFF_WORDS = ("none", "off", "no", "")


def schedule_with(current: DeadlineSchedule | None, options: Mapping[str, Any]) -> DeadlineSchedule | None:
    """The deadline schedule after a user's options (the keys of :data:`SCHEDULE_OPTIONS`, those not
    given left out): each option changes the current schedule, or one at 21:00 UTC every day when
    there is none; ``at`` ``off`` (or ``none``) turns fixed-time deadlines off. ``skip_days`` is text
    (``sat,sun``, ``weekend``, ``none``). Not validated: GameSettings.validated checks the result."""
    unknown = sorted(set(options) - set(SCHEDULE_OPTIONS))
    if unknown:
        raise ValueError(f"not deadline options: {unknown}")
    at = options.get("at")
    if isinstance(at, str) and at.strip().lower() in OFF_WORDS:
        return None
    schedule = current or DeadlineSchedule()
    changes: dict[str, Any] = {}
    if at is not None:
        changes["at"] = at
    if options.get("zone") is not None:
        changes["zone"] = str(options["zone"]).strip()
    if options.get("every_days") is not None:
        changes["every_days"] = options["every_days"]
    if options.get("skip_days") is not None:
        changes["skip_weekdays"] = parse_weekdays(str(options["skip_days"]))
    if options.get("fix_short_phases") is not None:
        changes["fix_short_phases"] = options["fix_short_phases"]
    return replace(schedule, **changes)


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


def _pair_press_problems(press: str, players: int, powers: int) -> list[str]:
    """Why private press between every pair of ``players`` does not fit Discord (see the limits above)."""
    pairs = players * (players - 1) // 2
    if press in ("threads", "channels") and players > MAX_PAIR_PRESS_PLAYERS:
        return [
            f"Private press between every pair of players is offered for up to {MAX_PAIR_PRESS_PLAYERS} "
            f"players; {players} players would need {pairs} private {press}. Choose press public (talk in "
            "the game channel; each player still has a private channel with the moderators) or none."
        ]
    if press == "channels" and 1 + powers + pairs > CATEGORY_CHANNELS:
        return [
            f"Press in channels makes one channel for each pair of players: {pairs} for {players} players, "
            f"more than fit in the game's category next to its {1 + powers} other channels (Discord allows "
            f"{CATEGORY_CHANNELS}). Choose press threads (a private thread for each pair) instead."
        ]
    return []


def _whole(value: object) -> bool:
    """An int, and not a bool (``True`` is an int to Python, not a number of minutes to a player)."""
    return isinstance(value, int) and not isinstance(value, bool)


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


def _reminder_hours(problems: list[str], value: object) -> tuple[float, ...]:
    """The reminders as hours, latest first; a problem for each value that is not a number in range."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list)):
        problems.append(f"Reminders must be a list of hours before the deadline, not {value!r}.")
        return ()
    others = [h for h in value if isinstance(h, bool) or not isinstance(h, (int, float))]
    numbers = [h for h in value if isinstance(h, (int, float)) and not isinstance(h, bool)]
    if others:
        problems.append(
            f"Reminders are numbers of hours before the deadline, not {', '.join(repr(h) for h in others)}."
        )
    hours = tuple(sorted({float(h) for h in numbers}, reverse=True))
    if len(hours) > MAX_REMINDERS:
        problems.append(f"At most {MAX_REMINDERS} reminders, not {len(hours)}.")
    low, high = REMINDER_HOURS
    bad = [h for h in hours if not low <= h <= high]  # NaN too: it is in no range
    if bad:
        problems.append(
            f"Reminders go from {low * 60:g} minutes to {high:g} hours before the deadline; "
            f"{', '.join(f'{h:g}' for h in bad)} hours is out of range."
        )
    return hours


def _check_minutes(problems: list[str], what: str, value: int, bounds: tuple[int, int]) -> None:
    low, high = bounds
    if not _whole(value) or not low <= value <= high:
        problems.append(
            f"{what} must last from {_duration(low)} to {_duration(high)}, not {_duration(value)}."
        )


def _duration(minutes: object) -> str:
    """A length the user gave (anything: a text, a float) in words when it is a whole number."""
    return duration(minutes) if _whole(minutes) else repr(minutes)  # type: ignore[arg-type]


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
