"""Grace: an automatic extension when a player who has never missed has sent nothing at a deadline.

Everyone forgets once. Rather than let a reliable player's units hold (and count a miss against
them), a game may grant each player up to ``per_year`` extensions of ``hours`` each per calendar year
(UTC, by the deadline that was extended). At a deadline, :func:`grace_at_deadline` extends it when at
least one player qualifies:

- they must act in the phase and are playing (not in civil disorder: that player has missed already),
- they have sent nothing at all for it (no order, no "ready"; some orders are not a miss),
- they have never missed a phase in this game,
- they have fewer than ``per_year`` grace extensions this year,
- and the phase has not been extended by grace already (one grace extension per phase).

Every qualifying player uses one of their extensions (each of them is given the time); the
announcement says that the deadline moved, not who or what was missing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

MAX_PER_YEAR = 12
HOURS = (1, 72)  # (least, most) hours of one extension


@dataclass(frozen=True, slots=True)
class GraceSetting:
    """``per_year`` extensions of ``hours`` each per player and calendar year; 0 turns grace off. The
    game's settings check both (gm.settings.GameSettings: ``grace`` and ``grace_hours``)."""

    per_year: int = 0
    hours: int = 24

    @property
    def on(self) -> bool:
        return self.per_year > 0

    def describe(self) -> str:
        """``1 extension of 24 hours per player a year, for a first miss`` (for /game status)."""
        if not self.on:
            return "no automatic extensions"
        many = "extension" if self.per_year == 1 else "extensions"
        return f"{self.per_year} {many} of {_hours(self.hours)} per player a year, for a first miss"


@dataclass(frozen=True, slots=True)
class GraceSeat:
    """A player at the deadline, as grace sees them."""

    user_id: int
    must_act: bool  # has something to order in this phase
    playing: bool  # playing, not in civil disorder (nor left)
    sent_anything: bool  # an order or "ready" for any of their powers that must act
    missed_before: int  # phases of this game they missed (Player.missed_phases)


@dataclass(frozen=True, slots=True)
class GraceUse:
    """One extension a player used: at the deadline it extended, in the phase (its id) it extended."""

    user_id: int
    at: datetime
    phase_id: int | None = None


@dataclass(frozen=True, slots=True)
class GraceExtension:
    """The deadline extended by grace, and whose grace it used (in user id order)."""

    old_deadline: datetime
    deadline: datetime
    hours: int
    user_ids: tuple[int, ...]
    phase_id: int | None = None

    def uses(self) -> list[GraceUse]:
        """The uses to store, one per player whose grace this is."""
        return [GraceUse(user_id, self.old_deadline, self.phase_id) for user_id in self.user_ids]


def grace_at_deadline(
    deadline: datetime,
    seats: Iterable[GraceSeat],
    uses: Iterable[GraceUse],
    setting: GraceSetting,
    *,
    phase_id: int | None = None,
) -> GraceExtension | None:
    """The extension of ``deadline`` (phase ``phase_id``) by grace, or None: close as usual.

    ``uses``: the grace extensions already used in this game (any year, any phase)."""
    if not setting.on:
        return None
    deadline = _utc(deadline)
    past = list(uses)
    if phase_id is not None and any(u.phase_id == phase_id for u in past):
        return None
    year = deadline.year
    used_this_year: dict[int, int] = {}
    for use in past:
        if _utc(use.at).year == year:
            used_this_year[use.user_id] = used_this_year.get(use.user_id, 0) + 1
    qualifying = sorted(
        {
            seat.user_id
            for seat in seats
            if seat.must_act
            and seat.playing
            and not seat.sent_anything
            and seat.missed_before == 0
            and used_this_year.get(seat.user_id, 0) < setting.per_year
        }
    )
    if not qualifying:
        return None
    return GraceExtension(
        old_deadline=deadline,
        deadline=deadline + timedelta(hours=setting.hours),
        hours=setting.hours,
        user_ids=tuple(qualifying),
        phase_id=phase_id,
    )


def announcement_text(extension: GraceExtension) -> str:
    """The public line: that the deadline moved and why in general, naming no one."""
    return (
        f"The deadline is extended by {_hours(extension.hours)}: a grace extension, "
        "given once in a while to a player who has not missed a phase before."
    )


def _hours(hours: int) -> str:
    return f"{hours} hour" + ("" if hours == 1 else "s")


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"a deadline must be timezone-aware, got {moment!r}")
    return moment.astimezone(UTC)
