"""One message of every kind, every field set to something other than its default. The stored rows
in tests/gm/messages/outbox_rows_v1.json are what the outbox wrote for these before the kinds
registered themselves (issue 31): they must keep reading back as these messages."""

from __future__ import annotations

from datetime import UTC, datetime

from gm.messages import kinds as k
from gm.messages.payloads import map_ref

WHEN = datetime(2024, 3, 2, 18, 0, tzinfo=UTC)
COMMON = {
    "game_id": 7,
    "game_name": "Friday *game*",
    "lines": ("first line [[user:42]]", "second line"),
    "fields": {"Centers": "3", "Players": "7"},
    "phase": "F1901M",
    "deadline": WHEN,
    "maps": (map_ref(12, "F1901M", "orders"),),
    "alert_moderators": True,
    "deadline_zone": "Europe/Berlin",
}


def examples() -> list[k.Message]:
    """Every kind once (and the plain notice), in the order of gm.messages.kinds."""
    return [
        k.Message(title="A notice", **COMMON),  # type: ignore[arg-type]
        k.GameIsFull(title="Full", **COMMON),  # type: ignore[arg-type]
        k.GameStarted(
            title="Started",
            assignments={"FRANCE": 42, "ITALY": None},
            built_in=("ITALY",),
            press="threads",
            open_seats=(("ITALY",),),
            take_over="ask",
            **COMMON,  # type: ignore[arg-type]
        ),
        k.SeesEverything(title="Sees", user_ids=(42, 43), **COMMON),  # type: ignore[arg-type]
        k.Welcome(
            title="Welcome",
            powers=("FRANCE",),
            units={"FRANCE": ("A PAR", "F BRE")},
            centers={"FRANCE": ("PAR", "BRE")},
            orders={"FRANCE": ("A PAR H",)},
            replacement=True,
            variant="fleetrome",
            examples=("A PAR - BUR",),
            **COMMON,  # type: ignore[arg-type]
        ),
        k.PlayerLeft(
            title="Left",
            powers=("FRANCE",),
            user_id=42,
            open_seats=(("FRANCE",),),
            take_over="anyone",
            **COMMON,  # type: ignore[arg-type]
        ),
        k.CivilDisorder(
            title="Disorder",
            powers=("FRANCE",),
            user_id=42,
            players=({"user_id": 42, "powers": ["FRANCE"]},),
            open_seats=(("FRANCE",),),
            take_over="ask",
            **COMMON,  # type: ignore[arg-type]
        ),
        k.PhaseResults(
            title="Results",
            orders={"FRANCE": ({"input": "A Par-Bur", "order": "A PAR - BUR", "status": "succeeded"},)},
            changes={"captured": {"FRANCE": ["BEL"]}},
            centers={"FRANCE": 6},
            missed={"ITALY": 1},
            next_phase="W1901A",
            game_over={"kind": "solo", "winner": "FRANCE"},
            built_in=("ITALY",),
            **COMMON,  # type: ignore[arg-type]
        ),
        k.PhaseOpened(
            title="Opened",
            power="FRANCE",
            todo=("A PAR",),
            reopened=True,
            ping_user_id=42,
            **COMMON,  # type: ignore[arg-type]
        ),
        k.Reminder(
            title="Reminder",
            missing={"FRANCE": ("A PAR",)},
            hours_before=2.5,
            **COMMON,  # type: ignore[arg-type]
        ),
        k.DeadlineMoved(title="Moved", reason="grace", **COMMON),  # type: ignore[arg-type]
        k.GameOver(
            title="Over",
            result={"kind": "solo", "winner": "FRANCE"},
            centers_by_year={"years": ["1901"], "rows": [{"power": "FRANCE", "centers": [5]}]},
            powers=("FRANCE", "ITALY"),
            pictures_failed=True,
            **COMMON,  # type: ignore[arg-type]
        ),
        k.VoteOpened(
            title="Vote",
            proposal={"id": 3, "kind": "concede", "beneficiary": "FRANCE"},
            voters=("ITALY",),
            **COMMON,  # type: ignore[arg-type]
        ),
        k.VoteResult(
            title="Voted",
            proposal={"id": 3, "kind": "draw", "beneficiary": None},
            passed=True,
            **COMMON,  # type: ignore[arg-type]
        ),
        k.CoinFlipped(
            title="Coin",
            power="ITALY",
            side=("FRANCE", "ENGLAND"),
            result="heads",
            **COMMON,  # type: ignore[arg-type]
        ),
        k.PowerJoined(
            title="Joined",
            power="ITALY",
            side=("FRANCE",),
            user_id=42,
            **COMMON,  # type: ignore[arg-type]
        ),
        k.Moderation(title="Paused", action="pause", **COMMON),  # type: ignore[arg-type]
        k.Replaced(
            title="Replaced",
            action="take_over",
            powers=("FRANCE",),
            old_user_id=42,
            new_user_id=43,
            **COMMON,  # type: ignore[arg-type]
        ),
        k.PlayerReturned(
            title="Back",
            action="civil_disorder",
            powers=("FRANCE",),
            user_id=43,
            **COMMON,  # type: ignore[arg-type]
        ),
        k.ReplacedYou(title="You were replaced", powers=("FRANCE",), **COMMON),  # type: ignore[arg-type]
        k.SeatPlayedBy(title="Seat", powers=("FRANCE",), user_id=43, **COMMON),  # type: ignore[arg-type]
        k.RolledBack(title="Rolled back", voided_phase="F1901M", **COMMON),  # type: ignore[arg-type]
        k.VoidedOrders(title="Voided", orders=("A Par-Bur",), **COMMON),  # type: ignore[arg-type]
        k.TakeOverRequest(
            title="Request",
            power="FRANCE",
            powers=("FRANCE",),
            user_id=43,
            **COMMON,  # type: ignore[arg-type]
        ),
        k.TakeOverDeclined(title="Declined", powers=("FRANCE",), **COMMON),  # type: ignore[arg-type]
        k.RoleGained(title="Role", user_id=42, sees_all=True, moderator=True, **COMMON),  # type: ignore[arg-type]
        k.RelayedPress(
            title="France to Germany",
            sender=("FRANCE",),
            to="GERMANY",
            text="Bur is yours, <@42> @everyone",
            links=("https://cdn.example/a.png",),
            **COMMON,  # type: ignore[arg-type]
        ),
        k.RelayedPressRevised(
            title="France to Germany",
            sender=("FRANCE",),
            to="GERMANY",
            text="Bel is mine",
            links=("https://cdn.example/a.png",),
            of="press:77",
            deleted=True,
            **COMMON,  # type: ignore[arg-type]
        ),
        k.OpeningView(title="France's view", **COMMON),  # type: ignore[arg-type]
    ]
