"""``python -m engine adjudicate``: JSON in, JSON out, as the engine's contract says.

(docs/ARCHITECTURE.md, "The engine's contract")"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

REQUEST = {
    "variant": "standard",
    "phase": "F1901M",
    "units": {"FRANCE": ["A PAR", "F BRE", "A MAR"], "GERMANY": ["A MUN", "F KIE", "A BER"]},
    "centers": {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["MUN", "KIE", "BER"]},
    "orders": {
        "FRANCE": ["A Par-Bur", "  F Bre - Mid  ", "", "garbage here", "A Mar S A Par-Bur"],
        "GERMANY": ["A Mun-Bur", "F Kie - Hol"],
    },
}


def run(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "adjudicate", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def rows(out: dict[str, Any]) -> list[tuple[str, str | None, str | None, str]]:
    return [(r["power"], r["input"], r["order"], r["status"]) for r in out["orders"]]


def test_adjudicates_a_phase_from_stdin_to_stdout() -> None:
    done = run(json.dumps(REQUEST))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    fields = {"phase", "next_phase", "orders", "units", "centers", "dislodged", "adjustments", "winner"}
    assert set(out) == fields
    assert out["phase"] == "F1901M"
    assert rows(out) == [
        ("FRANCE", "A Par-Bur", "A PAR - BUR", "succeeded"),
        ("FRANCE", "F Bre - Mid", "F BRE - MAO", "succeeded"),  # trimmed; the blank line is skipped
        ("FRANCE", "garbage here", None, "invalid"),
        ("FRANCE", "A Mar S A Par-Bur", "A MAR S A PAR - BUR", "succeeded"),
        ("GERMANY", "A Mun-Bur", "A MUN - BUR", "failed"),
        ("GERMANY", "F Kie - Hol", "F KIE - HOL", "succeeded"),
        ("GERMANY", None, "A BER H", "succeeded"),  # the unordered unit's default line
    ]
    assert all(r["reason"] for r in out["orders"])
    # Fall: Holland changes hands at once since no retreat phase follows; Germany may build one.
    assert out["units"] == {"FRANCE": ["A BUR", "F MAO", "A MAR"], "GERMANY": ["A MUN", "F HOL", "A BER"]}
    assert sorted(out["centers"]["GERMANY"]) == ["BER", "HOL", "KIE", "MUN"]
    assert out["next_phase"] == "W1901A"
    assert out["adjustments"] == {"GERMANY": 1}
    assert out["winner"] is None


def test_reads_a_file_argument_and_pretty_prints(tmp_path: Path) -> None:
    path = tmp_path / "request.json"
    path.write_text(json.dumps(REQUEST), encoding="utf-8")
    done = run("", str(path), "--indent", "2")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith('{\n  "phase": "F1901M"')
    assert json.loads(done.stdout)["next_phase"] == "W1901A"


def test_output_matches_the_in_process_function() -> None:
    from engine import adjudicate_json

    done = run(json.dumps(REQUEST))
    assert json.loads(done.stdout) == adjudicate_json(REQUEST)


def test_input_that_is_not_json_is_an_error_with_a_message() -> None:
    done = run("{not json")
    assert done.returncode == 1
    assert "not valid JSON" in json.loads(done.stdout)["error"]
    assert "not valid JSON" in done.stderr


def test_an_impossible_board_is_an_error_not_a_traceback() -> None:
    done = run(json.dumps({"phase": "S1901M", "units": {"FRANCE": ["A XYZ"]}, "orders": {}}))
    assert done.returncode == 1
    assert "XYZ" in json.loads(done.stdout)["error"]
    assert "Traceback" not in done.stderr


def test_a_missing_file_is_reported() -> None:
    done = run("", "/nonexistent/request.json")
    assert done.returncode == 1
    assert "cannot read" in json.loads(done.stdout)["error"]


def test_a_lone_surrogate_in_an_order_line_comes_back_as_an_invalid_line() -> None:
    request = json.dumps(REQUEST).replace('"A Par-Bur"', '"A PAR - BUR\\ud800"')
    done = run(request)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    [line] = [r for r in json.loads(done.stdout)["orders"] if r["input"] == "A PAR - BUR\ud800"]
    assert line["status"] == "invalid"


def test_a_five_thousand_digit_number_is_an_error_not_a_traceback() -> None:
    request = json.dumps(REQUEST)[:-1] + ', "victory_centers": ' + "9" * 5000 + "}"
    done = run(request)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "4300 digits" in json.loads(done.stdout)["error"]
