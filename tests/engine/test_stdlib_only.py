"""The engine needs nothing but the standard library and the data files (the foundation issue).

Checked in a fresh interpreter started with ``-I -S`` (no site-packages, no PYTHONPATH, no user
site), so a third-party import anywhere in the engine would fail there, and any module it loaded
would show in ``sys.modules``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[1])
import engine
out = engine.adjudicate_json(json.loads(sys.stdin.read()))
foreign = sorted(
    name for name in sys.modules
    if name.split(".")[0] not in sys.stdlib_module_names and name.split(".")[0] not in ("engine", "__main__")
)
print(json.dumps({"foreign": foreign, "engine": engine.__file__, "result": out}))
"""

REQUEST = {
    "phase": "F1901M",
    "units": {"FRANCE": ["A PAR", "F BRE", "A MAR"], "GERMANY": ["A MUN", "F KIE"]},
    "centers": {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["MUN", "KIE"]},
    "orders": {"FRANCE": ["A Par-Bur", "A Mar S A Par-Bur", "F Bre - Mid"], "GERMANY": ["A Mun-Bur"]},
}


def test_import_and_adjudicate_load_only_the_standard_library() -> None:
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", SCRIPT, str(ROOT)],
        input=json.dumps(REQUEST),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["foreign"] == []
    assert Path(report["engine"]).resolve().parent == ROOT / "engine"
    statuses = {r["order"]: r["status"] for r in report["result"]["orders"]}
    assert statuses["A PAR - BUR"] == "succeeded"  # a real adjudication ran, not just the import
    assert statuses["A MUN - BUR"] == "failed"
