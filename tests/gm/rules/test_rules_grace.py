"""Grace: who gets an automatic extension at a deadline, how counters limit it, and what is said."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gm.errors import InvalidSettings
from gm.rules.grace import GraceSeat, GraceSetting, GraceUse, announcement_text, grace_at_deadline
from gm.settings import GameSettings

DEADLINE = datetime(2024, 5, 10, 19, 0, tzinfo=UTC)
ONE_A_YEAR = GraceSetting(per_year=1, hours=24)
ALICE, BOB, CAROL = 1, 2, 3


def seat(
    user: int, *, must_act: bool = True, playing: bool = True, sent: bool = False, missed: int = 0
) -> GraceSeat:
    return GraceSeat(user, must_act=must_act, playing=playing, sent_anything=sent, missed_before=missed)


def test_a_first_miss_is_extended_by_the_game_s_hours() -> None:
    ext = grace_at_deadline(DEADLINE, [seat(ALICE), seat(BOB, sent=True)], [], ONE_A_YEAR, phase_id=5)
    assert ext is not None
    assert ext.deadline == DEADLINE + timedelta(hours=24)
    assert ext.user_ids == (ALICE,)
    assert ext.uses() == [GraceUse(ALICE, DEADLINE, 5)]


def test_nobody_missing_means_no_extension() -> None:
    assert grace_at_deadline(DEADLINE, [seat(ALICE, sent=True), seat(BOB, sent=True)], [], ONE_A_YEAR) is None


def test_grace_off_never_extends() -> None:
    assert grace_at_deadline(DEADLINE, [seat(ALICE)], [], GraceSetting()) is None


def test_a_player_who_missed_before_gets_no_grace() -> None:
    assert grace_at_deadline(DEADLINE, [seat(ALICE, missed=1)], [], ONE_A_YEAR) is None


def test_a_player_with_nothing_to_do_or_not_playing_gets_no_grace() -> None:
    assert grace_at_deadline(DEADLINE, [seat(ALICE, must_act=False)], [], ONE_A_YEAR) is None
    assert grace_at_deadline(DEADLINE, [seat(ALICE, playing=False)], [], ONE_A_YEAR) is None


def test_grace_used_this_year_is_gone_but_comes_back_next_year() -> None:
    used_in_march = [GraceUse(ALICE, datetime(2024, 3, 1, 19, 0, tzinfo=UTC), phase_id=1)]
    assert grace_at_deadline(DEADLINE, [seat(ALICE)], used_in_march, ONE_A_YEAR) is None
    used_last_year = [GraceUse(ALICE, datetime(2023, 12, 31, 23, 0, tzinfo=UTC), phase_id=1)]
    ext = grace_at_deadline(DEADLINE, [seat(ALICE)], used_last_year, ONE_A_YEAR)
    assert ext is not None and ext.user_ids == (ALICE,)


def test_the_yearly_count_is_per_player() -> None:
    bob_used = [GraceUse(BOB, datetime(2024, 2, 1, tzinfo=UTC))]
    ext = grace_at_deadline(DEADLINE, [seat(ALICE), seat(BOB)], bob_used, ONE_A_YEAR)
    assert ext is not None and ext.user_ids == (ALICE,)


def test_two_a_year_allow_a_second() -> None:
    used = [GraceUse(ALICE, datetime(2024, 2, 1, tzinfo=UTC), phase_id=1)]
    two = GraceSetting(per_year=2, hours=12)
    ext = grace_at_deadline(DEADLINE, [seat(ALICE)], used, two, phase_id=9)
    assert ext is not None and ext.deadline == DEADLINE + timedelta(hours=12)
    used.append(GraceUse(ALICE, datetime(2024, 4, 1, tzinfo=UTC), phase_id=6))
    assert grace_at_deadline(DEADLINE, [seat(ALICE)], used, two, phase_id=9) is None


def test_a_phase_is_extended_by_grace_once_only() -> None:
    """Still nothing at the extended deadline: the phase closes, even with grace left for another."""
    first = grace_at_deadline(DEADLINE, [seat(ALICE)], [], GraceSetting(per_year=3), phase_id=4)
    assert first is not None
    second = grace_at_deadline(
        first.deadline, [seat(ALICE), seat(BOB)], first.uses(), GraceSetting(per_year=3), phase_id=4
    )
    assert second is None


def test_several_players_missing_at_once_each_use_their_grace() -> None:
    seats = [seat(CAROL), seat(ALICE), seat(BOB, missed=2)]
    ext = grace_at_deadline(DEADLINE, seats, [], ONE_A_YEAR, phase_id=3)
    assert ext is not None
    assert ext.user_ids == (ALICE, CAROL)
    assert [u.user_id for u in ext.uses()] == [ALICE, CAROL]


def test_a_player_who_sent_some_orders_did_not_miss() -> None:
    assert grace_at_deadline(DEADLINE, [seat(ALICE, sent=True)], [], ONE_A_YEAR) is None


def test_the_announcement_names_nobody() -> None:
    ext = grace_at_deadline(DEADLINE, [seat(ALICE)], [], ONE_A_YEAR)
    assert ext is not None
    text = announcement_text(ext)
    assert "24 hours" in text
    assert str(ALICE) not in text and "orders" not in text.lower()


def test_settings_are_validated_and_described() -> None:
    assert GraceSetting().describe() == "no automatic extensions"
    assert ONE_A_YEAR.describe() == "1 extension of 24 hours per player a year, for a first miss"
    assert (
        GraceSetting(per_year=2, hours=1).describe()
        == "2 extensions of 1 hour per player a year, for a first miss"
    )
    assert GameSettings.checked({"grace_per_year": 1, "grace_hours": 24}).grace == ONE_A_YEAR
    with pytest.raises(InvalidSettings) as refused:
        GameSettings.checked({"grace_per_year": 13, "grace_hours": 0})
    assert refused.value.problems == [
        "Grace extensions per player and year go from 0 (none) to 12, not 13.",
        "A grace extension lasts 1 to 72 hours, not 0.",
    ]
    assert len(GameSettings.problems_in({"grace_per_year": True, "grace_hours": 2.5})[1]) == 2


def test_a_naive_deadline_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        grace_at_deadline(datetime(2024, 5, 10, 19, 0), [seat(ALICE)], [], ONE_A_YEAR)
