"""Hypothesis profiles, chosen with ``HYPOTHESIS_PROFILE`` (tests/conftest.py loads the profile):

- ``thorough`` (the default: ./test.sh and CI): every property test runs the number of examples its
  ``@settings`` asks for.
- ``quick``: a tenth of them (at least 10), for a fast look while working:
  ``HYPOTHESIS_PROFILE=quick ./test.sh``. The same tests and assertions, fewer random cases.

Neither has a deadline per example: how long one example takes is no property of the code (timings
belong in bench/), and under a loaded machine a deadline would only make tests flaky.
"""

from __future__ import annotations

import os

from hypothesis import settings

THOROUGH, QUICK = "thorough", "quick"
settings.register_profile(THOROUGH, deadline=None, print_blob=True)
settings.register_profile(QUICK, settings.get_profile(THOROUGH), max_examples=10)


def profile() -> str:
    name = os.environ.get("HYPOTHESIS_PROFILE", THOROUGH)
    if name not in (THOROUGH, QUICK):
        raise ValueError(f"HYPOTHESIS_PROFILE must be {THOROUGH} or {QUICK}, not {name!r}")
    return name


def examples(thorough: int) -> int:
    """How many examples a property test runs: ``thorough`` in the thorough profile, a tenth of it
    (at least 10) in the quick one. Use it as ``@settings(max_examples=examples(400))``."""
    return thorough if profile() == THOROUGH else max(10, thorough // 10)


def load() -> None:
    settings.load_profile(profile())
