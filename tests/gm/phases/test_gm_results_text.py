"""The sentences of a results post: what changed, grouped so a player on a phone reads it at a glance."""

from __future__ import annotations

from gm.phases.results import change_lines, changes


def test_captures_are_grouped_by_power_and_dislodgements_say_where_to_go() -> None:
    before = {
        "units": {"FRANCE": ["A BUR"], "GERMANY": ["A RUH"], "ITALY": ["A TUN"]},
        "centers": {"FRANCE": ["PAR"], "ITALY": ["TUN"], "GERMANY": ["MUN"]},
    }
    result = {
        "dislodged": {
            "FRANCE": {"A BUR": {"attacker_from": "RUH", "retreats": ["GAS", "PAR"]}},
            "ITALY": {"A TUN": {"attacker_from": None, "retreats": []}},
        },
        "orders": [{"power": "GERMANY", "order": "A KIE B", "status": "succeeded"}],
    }
    after = {
        "units": {"FRANCE": ["A SPA", "A POR"], "GERMANY": ["A BUR"]},
        "centers": {"FRANCE": ["PAR", "POR", "SPA", "TUN"], "GERMANY": ["MUN"]},
    }
    lines = change_lines(changes(before, result, after))
    assert lines == [
        "France's A BUR was dislodged by the attack from RUH; it may retreat to GAS or PAR.",
        "Italy's A TUN was dislodged; it has nowhere to retreat and is disbanded.",
        "France takes POR, SPA and TUN from Italy.",
        "Germany builds A KIE.",
        "Italy is eliminated.",
    ]
