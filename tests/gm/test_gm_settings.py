"""Game settings are declared once (gm.settings.GameSettings): the options users set them by,
the sentences that refuse a wrong value, the stored JSON and the README's settings table all come
from that one declaration."""

from __future__ import annotations

import json
import logging
import re
from typing import Any

import pytest

from gm.checking import bounds, choices_of
from gm.errors import InvalidSettings
from gm.rules.deadlines import DeadlineSchedule
from gm.settings import (
    SCHEDULE_PARTS,
    SETTING_OPTIONS,
    GameSettings,
    choice_label,
    option_changes,
    option_rows,
)
from tests.helpers.paths import ROOT

TABLE_HEADER = "| Option | Default | Allowed | What it sets |"
PYDANTIC_WORDS = re.compile(r"Input should|validation error|type=|\[")


def readme_table() -> list[str]:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    start = lines.index(TABLE_HEADER) + 2  # the header, then its rule
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


def test_the_readme_lists_every_option_with_its_default_and_range() -> None:
    expected = [
        f"| `{name}` | {default} | {allowed} | {help} |" for name, default, allowed, help in option_rows()
    ]
    assert readme_table() == expected, (
        "README.md's Game settings table should read (gm.settings.option_rows):\n" + "\n".join(expected)
    )
    assert all(allowed for _, _, allowed, _ in option_rows()), "every option says what it allows"


def test_every_setting_has_an_option_and_every_option_fits_discord() -> None:
    names = [item.name for item in SETTING_OPTIONS]
    assert len(names) == len(set(names))
    assert [item.setting for item in SETTING_OPTIONS if item.option.part is None] == [
        name for name in GameSettings.model_fields if name != "deadlines"
    ], "one option per setting, in the order of the fields"
    parts = [item.option.part for item in SETTING_OPTIONS if item.option.part is not None]
    assert sorted(parts) == sorted(SCHEDULE_PARTS), "one option per part of the deadline schedule"
    assert set(SCHEDULE_PARTS.values()) == set(DeadlineSchedule.model_fields)
    for item in SETTING_OPTIONS:
        assert re.fullmatch(r"[a-z_]{1,32}", item.name), item.name  # Discord's option names
        assert 1 <= len(item.help) <= 100 and "{" not in item.help, item.help
        assert item.kind in (int, float, str, bool)
        assert len(item.option.choices) <= 25
        assert all(1 <= len(label) <= 100 for label in item.option.choices.values())
        if choices_of(item.field):  # a Literal field offers exactly its values
            assert tuple(item.option.choices) == choices_of(item.field), item.name


def wrong_values(item: Any) -> list[object]:
    """Values a user (or a careless caller) could give that the setting must refuse."""
    values: list[object] = [
        object(),
        "x" if item.kind is not str else 3.5,
        True if item.kind is not bool else 1,
    ]
    low, high = bounds(item.field)
    if high is not None:
        values.append(high + 1)
    if low is not None:
        values.append(low - 1)
    return values


def test_every_wrong_value_is_refused_with_a_sentence_a_user_can_act_on() -> None:
    for item in SETTING_OPTIONS:
        if item.kind is str and not item.option.choices and item.option.part is None:
            continue  # free text read by the option (reminders): its reading is tested below
        for value in wrong_values(item):
            if item.option.part is not None:
                field = SCHEDULE_PARTS[item.option.part]
                schedule, problems = DeadlineSchedule.problems_in({field: value})
                found: object = schedule
            else:
                found, problems = GameSettings.problems_in({item.setting: value})
            assert found is None and len(problems) == 1, (item.name, value, problems)
            sentence = problems[0]
            assert not PYDANTIC_WORDS.search(sentence), (item.name, value, sentence)
            assert sentence.endswith((".", "?")) and len(sentence.split()) >= 5, sentence


def test_typed_options_become_settings() -> None:
    changes = option_changes(
        {
            "players": 5,
            "movement_hours": 0.5,
            "reminders": "24, 1h 0.25",
            "deadline_at": "9:30",
            "time_zone": "europe/berlin",
            "skip_days": "weekend",
            "absence_days": 0,
            "scoring": "sum_of_squares",
            "press": None,  # not given
        }
    )
    assert changes == {
        "players": 5,
        "movement_minutes": 30,
        "reminder_hours": (24.0, 1.0, 0.25),
        "deadlines": {"at": "9:30", "zone": "europe/berlin", "skip_days": "weekend"},
        "absence_days_per_year": 0,
        "scoring": "sum_of_squares",
    }
    settings = GameSettings.for_variant("standard", changes)
    assert settings.deadlines == DeadlineSchedule(at="09:30", zone="Europe/Berlin", skip_weekdays=(5, 6))
    assert (settings.players, settings.movement_minutes, settings.reminder_hours) == (
        5,
        30,
        (24.0, 1.0, 0.25),
    )
    later = GameSettings.for_variant("standard", option_changes({"every_days": 2}), base=settings)
    assert later.deadlines == settings.deadlines.model_copy(update={"every_days": 2})
    assert GameSettings.for_variant("standard", {"deadlines": {"at": "off"}}, base=later).deadlines is None
    assert choice_label("press", "public") == "public press only (the game channel)"
    assert choice_label("press", "shouting") == "shouting"


def test_options_that_cannot_be_read_are_named_together() -> None:
    with pytest.raises(InvalidSettings) as refused:
        option_changes({"movement_hours": float("inf"), "reminders": "soon", "skip_days": "caturday"})
    assert refused.value.problems == [
        "movement_hours must be a number of hours, not inf.",
        "Reminders are hours before the deadline, like 24,1; not 'soon'.",
        "Not a day of the week: 'caturday'.",
    ]
    assert refused.value.hint == "For example 24, or 0.5 for half an hour."
    with pytest.raises(ValueError, match="not setting options"):
        option_changes({"colour": "red"})


def test_the_variant_decides_the_players_the_last_year_and_private_press() -> None:
    assert GameSettings.for_variant("ww1914", {"players": 2, "last_year": 1920}).players == 2
    with pytest.raises(InvalidSettings) as refused:
        GameSettings.for_variant("standard", {"players": 2, "last_year": 1900})
    assert refused.value.problems == [
        "This map is played by 3 to 7 players, not 2. For 2 players choose the variant 'ww1914' "
        "(World War I (two players)).",
        "The last year must be between 1901 and 2000 (the game starts in 1901), not 1900.",
    ]
    with pytest.raises(InvalidSettings, match="Private press between every pair of players is offered"):
        GameSettings.for_variant("chaos", {"players": 34})
    assert GameSettings.for_variant("chaos", {"players": 34, "press": "public"}).press == "public"
    with pytest.raises(InvalidSettings, match="There is no setting called 'colour'"):
        GameSettings.for_variant("standard", {"colour": "red"})


def test_stored_settings_read_back_the_same_and_a_bad_stored_value_keeps_the_game_readable(
    caplog: pytest.LogCaptureFixture,
) -> None:
    settings = GameSettings.for_variant(
        "standard",
        {
            "players": 4,
            "press": "public",
            "last_year": 1910,
            "reminder_hours": (2, 0.5),
            "take_over": "approval",
            "deadlines": {"at": "21:00", "zone": "Europe/Berlin", "skip_days": "sat"},
            "grace_per_year": 1,
            "talks_after_end": True,
            "fill_seats": True,
            "absent_seats": "built_in",
        },
    )
    stored = json.loads(json.dumps(settings.to_json()))
    assert stored["deadlines"]["skip_weekdays"] == ["saturday"] and stored["reminder_hours"] == [2.0, 0.5]
    assert GameSettings.from_json(stored) == settings
    with caplog.at_level(logging.WARNING, logger="gm.checking"):
        odd = GameSettings.from_json({**stored, "grace_hours": 500, "a_setting_of_later": 1})
    assert odd.grace_hours == 24 and odd.model_copy(update={"grace_hours": settings.grace_hours}) == settings
    assert "grace_hours" in caplog.text
