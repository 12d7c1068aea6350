"""``python -m tests.helpers.drawn``: the bot's modules imported, every module-level value of a simple
type (str, bytes, int, float, the state of a random.Random) printed as JSON, by dotted name. Run in
fresh interpreters and in a zygote's children (tests/test_zygote.py): a value a fresh start draws anew
must differ between two children too."""

from __future__ import annotations

import hashlib
import json
import random
import sys
import types

import bot  # noqa: F401  (what the zygote imported)


def values() -> dict[str, str]:
    found: dict[str, str] = {}
    for name, module in list(sys.modules.items()):
        if not isinstance(module, types.ModuleType) or name == "__main__":
            continue
        for key, value in list(vars(module).items()):
            if key.startswith("__") or isinstance(value, bool):
                continue
            if isinstance(value, str | bytes | int | float):
                found[f"{name}.{key}"] = repr(value)
            elif isinstance(value, random.Random) and not isinstance(value, random.SystemRandom):
                found[f"{name}.{key}"] = hashlib.sha256(repr(value.getstate()).encode()).hexdigest()
    return found


if __name__ == "__main__":
    json.dump(values(), sys.stdout)
