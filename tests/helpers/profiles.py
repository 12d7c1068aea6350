"""Hypothesis profiles, chosen with ``HYPOTHESIS_PROFILE`` (tests/conftest.py loads the profile):

- ``suite`` (the default: ./test.sh and CI): a quarter of the examples each property test's
  ``@settings(max_examples=examples(N))`` names (at least 10). The suite runs many times a day and each
  run draws new examples, so together they go over far more cases than one deep run; Hypothesis
  replays an example that failed (its database, .hypothesis/) first in the next run on that checkout.
- ``thorough``: every property test runs the N examples it names, four times the suite's:
  ``HYPOTHESIS_PROFILE=thorough ./test.sh tests/engine``, after a change to the engine's rules, the
  parser or the orders' listing (what those tests look at), and before a release.
- ``quick``: a tenth of N (at least 10), for a fast look while working.

The same tests and assertions in each, only fewer or more random cases. None has a deadline per
example: how long one example takes is no property of the code (timings belong in bench/), and under a
loaded machine a deadline would only make tests flaky.
"""

from __future__ import annotations

import os

from hypothesis import settings

SUITE, THOROUGH, QUICK = "suite", "thorough", "quick"
SHARE = {SUITE: 4, THOROUGH: 1, QUICK: 10}  # the profile runs 1/SHARE of a test's N examples
settings.register_profile(THOROUGH, deadline=None, print_blob=True)
settings.register_profile(SUITE, settings.get_profile(THOROUGH), max_examples=25)
settings.register_profile(QUICK, settings.get_profile(THOROUGH), max_examples=10)


def profile() -> str:
    name = os.environ.get("HYPOTHESIS_PROFILE", SUITE)
    if name not in SHARE:
        raise ValueError(f"HYPOTHESIS_PROFILE must be one of {', '.join(SHARE)}, not {name!r}")
    return name


def examples(thorough: int) -> int:
    """How many examples a property test runs: ``thorough`` in the thorough profile, a quarter of it
    in the suite's and a tenth in the quick one (at least 10, and never more than ``thorough``). Use
    it as ``@settings(max_examples=examples(400))``."""
    share = SHARE[profile()]
    return thorough if share == 1 else min(thorough, max(10, thorough // share))


def load() -> None:
    settings.load_profile(profile())
