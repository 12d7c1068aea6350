"""Run a built-in player bench with some of the hard level's switches set (engine.player.lookahead's
constants), to compare variants pair by pair on the same seeds:

    nice -n 10 .venv/bin/python bench/player_variants.py COVER=null LOST_UNIT=9.0 -- \\
        bench/player_strength.py --games 70 --trials 1

Each ``NAME=VALUE`` (VALUE in JSON) sets the constant NAME of engine.player.lookahead before the
bench runs (``MODULE.NAME=VALUE``: the constant of that module of engine.player, e.g.
``builds.TARGETS=1.0``); an unknown name stops the run. Prints what the bench prints.
"""

from __future__ import annotations

import importlib
import json
import runpy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.player import lookahead


def main() -> None:
    args = sys.argv[1:]
    if "--" not in args:
        sys.exit(__doc__)
    split = args.index("--")
    for setting in args[:split]:
        name, _, value = setting.partition("=")
        module = lookahead
        if "." in name:
            where, _, name = name.partition(".")
            try:
                module = importlib.import_module(f"engine.player.{where}")
            except ImportError:
                sys.exit(f"engine.player has no module {where!r}")
        if not hasattr(module, name) or not name.isupper():
            sys.exit(f"{module.__name__} has no switch {name!r}")
        setattr(module, name, json.loads(value))
        print(f"{name} = {value}")
    bench = args[split + 1 :]
    if not bench:
        sys.exit(__doc__)
    sys.argv = bench
    runpy.run_path(bench[0], run_name="__main__")


if __name__ == "__main__":
    main()
