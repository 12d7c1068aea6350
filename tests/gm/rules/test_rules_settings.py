"""The rules' game settings: defaults that keep old games as they were, one refusal for every problem,
stored among GameSettings' own keys (which declares, checks and stores them)."""

from __future__ import annotations

import pytest

from gm.errors import InvalidSettings
from gm.rules.deadlines import DeadlineSchedule
from gm.rules.grace import GraceSetting
from gm.rules.settings import RuleSettings
from gm.settings import GameSettings

RULE_KEYS = ("deadlines", "absence_days_per_year", "grace_per_year", "grace_hours", "scoring")


def test_a_game_stored_before_these_rules_keeps_its_behaviour() -> None:
    old = {k: v for k, v in GameSettings().to_json().items() if k not in RULE_KEYS}
    rules = GameSettings.from_json(old).rules
    assert rules.deadlines is None
    assert not rules.grace.on
    assert rules.scoring == "draw_size"
    assert GameSettings.checked(old) == GameSettings.from_json(old)


def test_the_keys_are_game_settings_stored_the_same_way() -> None:
    rules = RuleSettings(
        deadlines=DeadlineSchedule(at="21:00", zone="Europe/Berlin", skip_weekdays=(5, 6)),
        absence_days_per_year=10,
        grace=GraceSetting(per_year=1, hours=12),
        scoring="sum_of_squares",
    )
    settings = GameSettings(
        players=7,
        deadlines=rules.deadlines,
        absence_days_per_year=10,
        grace_per_year=1,
        grace_hours=12,
        scoring="sum_of_squares",
    )
    stored = settings.to_json()
    assert set(RULE_KEYS) <= set(stored)
    assert stored["deadlines"]["skip_weekdays"] == ["saturday", "sunday"]
    assert (stored["grace_per_year"], stored["grace_hours"], stored["scoring"]) == (1, 12, "sum_of_squares")
    assert GameSettings.from_json(stored) == settings
    assert settings.rules == rules


def test_every_problem_is_reported_at_once() -> None:
    bad = {
        "deadlines": {"at": "9pm", "zone": "Berlin"},
        "absence_days_per_year": 400,
        "grace_per_year": -1,
        "grace_hours": 24,
        "scoring": "elo",
    }
    with pytest.raises(InvalidSettings) as refused:
        GameSettings.checked(bad)
    problems = refused.value.problems
    assert len(problems) == 5
    assert "'9pm'" in problems[0]
    assert "did you mean Europe/Berlin" in problems[1]
    assert "0 (none) to 90 days a year, not 400" in problems[2]
    assert "not -1" in problems[3]
    assert "'elo'" in problems[4]


def test_validation_normalises() -> None:
    typed = GameSettings.checked({"deadlines": {"at": "8:00", "zone": "europe/paris"}, "scoring": "SoS"})
    assert typed.rules.deadlines == DeadlineSchedule(at="08:00", zone="Europe/Paris")
    assert typed.rules.scoring == "sum_of_squares"


def test_status_lines() -> None:
    rules = RuleSettings(
        deadlines=DeadlineSchedule(at="21:00", zone="Europe/Berlin", skip_weekdays=(5, 6)),
        grace=GraceSetting(per_year=1, hours=24),
    )
    assert rules.status_lines() == {
        "Deadlines": "21:00 Europe/Berlin, every day except Saturday and Sunday",
        "Absences": "up to 14 days a year",
        "Grace": "1 extension of 24 hours per player a year, for a first miss",
        "Scoring": "draw-size",
    }
    plain = RuleSettings(absence_days_per_year=0).status_lines()
    assert plain["Deadlines"] == "after each phase's length"
    assert plain["Absences"] == "none"
