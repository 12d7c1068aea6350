"""A game's settings in words, as /game settings, /game status and the Join post show them (one
line per setting; a new setting adds its line here)."""

from __future__ import annotations

from cogs.shared import text
from gm.public import (
    REMINDER_MARGIN_MINUTES,
    GameSettings,
    UnknownVariant,
    choice_label,
    effective_reminders,
    get_variant,
)


def variant_line(variant: str) -> str:
    try:
        played = get_variant(variant)
    except UnknownVariant:
        return f"**Variant:** {text.safe(variant)}"
    return f"**Variant:** {played.title}, {played.target()} centers to win"


def disorder_text(after: int) -> str:
    if after == 0:
        return "never automatic (a moderator can use /mod disorder)"
    return f"after {text.plural(after, 'missed movement phase')} in a row"


def reminders_text(settings: GameSettings) -> str:
    """What will really happen: the reminders each kind of phase gets (scaled to its usual length; a
    reminder that would come as the phase opens is not sent, so it is not promised, and the text says
    which asked-for reminders a phase is too short for)."""
    said: dict[str, list[str]] = {}
    dropped: set[float] = set()
    for kind, minutes in (
        ("movement", settings.typical_minutes("M")),
        ("retreat", settings.typical_minutes("R")),
        ("adjustment", settings.typical_minutes("A")),
    ):
        hours = effective_reminders(settings.reminder_hours, minutes)
        dropped |= {  # due less than a minute after the phase opens: skipped, and said so
            h for h in settings.reminder_hours if minutes - REMINDER_MARGIN_MINUTES <= h * 60 < minutes
        }
        words = " and ".join(text.duration(round(h * 60)) for h in hours) or "none"
        said.setdefault(words, []).append(kind)
    if len(said) == 1:
        words = next(iter(said))
        shown = "none" if words == "none" else f"{words} before each deadline"
    else:
        shown = "; ".join(f"{words} before a {' or '.join(kinds)} deadline" for words, kinds in said.items())
    if dropped:
        asked = " and ".join(text.duration(round(h * 60)) for h in sorted(dropped, reverse=True))
        shown += f" (not {asked} before: that would come as a phase opens, with its call to order)"
    return shown


def phases_text(settings: GameSettings) -> str:
    """How long phases last: their lengths, or the fixed time movement phases close at."""
    short = (
        f"retreats {text.duration(settings.retreat_minutes)}, "
        f"adjustments {text.duration(settings.adjustment_minutes)}"
    )
    schedule = settings.deadlines
    if schedule is None:
        return f"movement {text.duration(settings.movement_minutes)}, {short}"
    if schedule.fix_short_phases:
        return f"movement until the fixed time; {short}, then the next fixed time"
    return f"movement until the fixed time; {short} (never ending on a day without deadlines)"


def settings_lines(settings: GameSettings, variant: str | None = None) -> list[str]:
    rules = settings.rules.status_lines()  # Deadlines, Absences, Grace, Scoring (gm.rules.settings)
    return [
        *([variant_line(variant)] if variant is not None else []),
        f"**Players:** {settings.players}",
        f"**Press:** {choice_label('press', settings.press)}",
        f"**Deadlines:** {rules['Deadlines']}",
        f"**Phases:** {phases_text(settings)}",
        "**Ends:** " + (f"after {settings.last_year}" if settings.last_year else "when someone wins"),
        f"**Reminders:** {reminders_text(settings)}",
        f"**Civil disorder:** {disorder_text(settings.civil_disorder_after)}",
        f"**Open seats:** filled by {text.word(choice_label('take_over', settings.take_over))}",
        f"**Seats of absent players:** {choice_label('absent_seats', settings.absent_seats)}",
        "**Empty seats at the start:** "
        + ("go to built-in players" if settings.fill_seats else "none: the game waits for every player"),
        f"**Built-in player:** {settings.builtin_level}, "
        + choice_label("builtin_level", settings.builtin_level),
        f"**Absences:** {rules['Absences']}",
        f"**Grace:** {rules['Grace']}",
        f"**Scoring:** {rules['Scoring']}",
        "**Private talks after the end:** "
        + ("readable by the eliminated players" if settings.talks_after_end else "stay private"),
        f"**Fog of war:** {choice_label('fog', settings.fog)}",
        "**Anonymous:** "
        + ("yes: the powers' players stay secret until the end" if settings.anonymous else "no"),
    ]
