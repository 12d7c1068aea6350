"""What a lobby and /game settings promise about reminders is what the scheduler will send: a reminder
due as a phase opens (less than a minute after it) is not promised, and the text says so."""

from __future__ import annotations

from typing import Any

from cogs.shared.settings_text import reminders_text
from gm.settings import GameSettings


def hourly(**changes: Any) -> GameSettings:
    return GameSettings(movement_minutes=60, retreat_minutes=60, adjustment_minutes=60, **changes)


def test_an_hours_phase_is_not_promised_a_reminder_as_it_opens() -> None:
    assert reminders_text(hourly(reminder_hours=(0.99,))) == (
        "12 minutes before each deadline (not 59 minutes before: that would come as a phase opens, with "
        "its call to order)"
    )
    assert "59 minutes before each deadline" not in reminders_text(hourly(reminder_hours=(0.99,)))
    assert reminders_text(hourly()) == "12 minutes before each deadline", (
        "24 h and 1 h: longer than the phase"
    )


def test_what_can_come_is_promised_as_it_is() -> None:
    assert reminders_text(GameSettings()) == "1 hour before each deadline"
    assert reminders_text(GameSettings(movement_minutes=48 * 60)).startswith(
        "1 day and 1 hour before a movement"
    )
    assert reminders_text(GameSettings(reminder_hours=())) == "none"
