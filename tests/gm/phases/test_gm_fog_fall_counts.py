"""A fogged player's results of a fall's moves when a retreat phase follows: centers change hands
after the retreats, so the player's own map counts them as the units stand (render.compose); its text
says so for what it saw, and gives its own count the same way (gm.rules.fog.fogged_change)."""

from __future__ import annotations

from db.database import SessionFactory
from db.models import OutboxTarget
from gm.settings import GameSettings
from tests.gm.conftest import close, current_phase, make_started_game, submit
from tests.gm.phases.test_gm_fog import results

SPRING = {"AUSTRIA": "A Bud-Ser", "RUSSIA": "F Sev-Rum", "TURKEY": "A Con-Bul"}
# Russia takes Bulgaria from the Turkish army with Austria's support; Austria stands on Serbia
FALL = {"AUSTRIA": "A Ser S F Rum-Bul", "RUSSIA": "F Rum-Bul/EC", "TURKEY": "A Bul H"}
STANDING = "Centers change hands after the retreats; as the units stand"


async def test_a_fogged_players_fall_results_count_as_the_units_stand(sessions: SessionFactory) -> None:
    started = await make_started_game(sessions, settings=GameSettings(players=7, fog="silent"))
    for orders in (SPRING, FALL):
        for power, text in orders.items():
            await submit(sessions, started, power, text)
        await close(sessions, started.game.id)
    assert (await current_phase(sessions, started.game.id)).name == "F1901R", "Turkey must retreat"
    fall = [(row, c) for row, c in await results(sessions) if c.phase == "F1901M"]
    private = {str(row.target_power): c for row, c in fall if row.target_kind == OutboxTarget.POWER_CHANNEL}

    def standing_line(power: str) -> str:
        [line] = [line for line in private[power].lines if line.startswith(STANDING)]
        return line

    assert private["RUSSIA"].fields == {"Russia": "5"}, "Bulgaria counted, as Russia's map counts it"
    assert private["AUSTRIA"].fields == {"Austria": "4"}, "Serbia counted"
    assert private["TURKEY"].fields == {"Turkey": "3"}, "no other power's count under the fog"
    assert "Russia takes BUL" in standing_line("RUSSIA")
    assert "Austria takes SER" in standing_line("AUSTRIA") and "Russia takes BUL" in standing_line("AUSTRIA")
    assert "Russia takes BUL" in standing_line("TURKEY"), "Turkey saw Bulgaria, where its army stood"
    assert private["ENGLAND"].fields == {"England": "3"}
    assert not any(line.startswith(STANDING) for line in private["ENGLAND"].lines), "England saw none of it"
    assert not any("BUL" in line or "SER" in line for line in private["ENGLAND"].lines)
